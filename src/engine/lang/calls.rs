//! What the four readers' calls share: a call's arguments ([`Args`]), and what the walker
//! makes of them whatever the language: an argument's text, the effects of a call a table
//! of path calls lists ([`path_calls`]), a file's mode set as `chmod` sets it, an
//! environment variable read by name.

use tree_sitter::Node;

use super::path_calls::{self, Arg, PathCall};
use super::walker::{Computed, Evaluator, Reader, Walker};
use super::{env_value, mode_word, Effect, SyntaxWalk, Text};

/// A call's arguments: by position (the slice an `Args` derefs to), by keyword (Python's
/// `f(x=1)`, Ruby's `f(x: 1)`), and whether any is spread from a value the text does not
/// show (`*a`, `**kw`, `...$a`).
#[derive(Default)]
pub(crate) struct Args<'t> {
    pub(crate) pos: Vec<Node<'t>>,
    pub(crate) kw: Vec<(&'t str, Node<'t>)>,
    pub(crate) splat: bool,
}

impl<'t> Args<'t> {
    /// The keyword argument `keyword`.
    pub(crate) fn kw_value(&self, keyword: &str) -> Option<Node<'t>> {
        self.kw.iter().find(|(k, _)| *k == keyword).map(|(_, v)| *v)
    }
    /// The argument at `i`, or else the keyword argument `keyword` (none when it is "").
    pub(crate) fn arg(&self, i: usize, keyword: &str) -> Option<Node<'t>> {
        self.pos
            .get(i)
            .copied()
            .or_else(|| self.kw_value(keyword).filter(|_| !keyword.is_empty()))
    }
}

impl<'t> std::ops::Deref for Args<'t> {
    type Target = [Node<'t>];
    fn deref(&self) -> &[Node<'t>] {
        &self.pos
    }
}

impl<'t, L> Walker<'t, L>
where
    Self: Reader<'t>,
{
    /// A call's arguments, each judged as a value wherever it goes.
    pub(super) fn walk_args(&mut self, args: &Args<'t>) {
        for a in args.pos.iter().chain(args.kw.iter().map(|(_, v)| v)) {
            self.walk(*a);
        }
    }
}

impl<'t, L> Walker<'t, L>
where
    Self: Evaluator<'t>,
{
    /// The text of the argument at `i`; unknown when it is not given.
    pub(super) fn arg_text(&mut self, args: &[Node<'t>], i: usize) -> Text {
        self.text_of(args.get(i).copied())
    }

    /// Whether one of `tables` of path calls lists the call `is_call` accepts (see
    /// [`path_calls`]); if so, its effects are pushed. An argument its row names by
    /// position (or keyword) is one path; from a position on, every argument is one, or
    /// each item of a list.
    pub(super) fn path_call<K>(
        &mut self,
        tables: &[&'static [PathCall<K>]],
        is_call: impl Fn(&K) -> bool,
        args: &Args<'t>,
    ) -> bool {
        let Some(row) = tables.iter().find_map(|t| path_calls::find(t, &is_call)) else {
            return false;
        };
        let effects = path_calls::effects(row, |arg| match arg {
            Arg::At(i, keyword) => vec![self.text_of(args.arg(i, keyword))],
            Arg::From(from) => {
                let mut paths = Vec::new();
                for a in args.iter().skip(from) {
                    let v = self.eval(*a);
                    match v.items() {
                        Some(items) => paths.extend(items.iter().map(Computed::text)),
                        None => paths.push(v.text()),
                    }
                }
                // A spread argument, or none at all, is a path not known.
                if args.splat || paths.is_empty() {
                    paths.push(Text::unknown());
                }
                paths
            }
        });
        for e in effects {
            self.out.push(e);
        }
        true
    }

    /// A call that sets a file's mode (`os.chmod`, `fs.chmodSync`, `File.chmod`): judged as
    /// `chmod MODE PATH` is (setuid bits, world-writable) when the mode is written as
    /// `chmod` takes it (see [`mode_word`]).
    pub(super) fn chmod(&mut self, mode: Option<Node<'t>>, path: Option<Node<'t>>) {
        if let Some(m) = mode.and_then(|m| mode_word(self.t(m))) {
            let p = self.text_of(path);
            self.out
                .push(Effect::Exec(vec![Text::lit("chmod"), Text::lit(m), p]));
        }
    }

    /// The value of the environment variable `key` names (`os.environ[key]`, `ENV[key]`,
    /// `getenv(key)`): see [`env_value`]. A name not known may be any variable, a secret
    /// too.
    pub(super) fn env_var(&mut self, key: Option<Node<'t>>) -> Text {
        match self.text_of(key).known() {
            Some(name) => env_value(&name, &mut self.out),
            None => {
                self.out.push(Effect::SecretEnv(
                    "a variable named at run time".to_string(),
                ));
                Text::unknown()
            }
        }
    }
}
