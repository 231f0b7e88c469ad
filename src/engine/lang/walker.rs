//! What the four readers with a grammar (Python, JavaScript, Ruby, PHP) share: the
//! [`Walker`] that reads a snippet and what it holds, two passes over the syntax tree, the
//! values the first finds names given ([`Assigned`]), and a bounded evaluation.
//!
//! A reader is a [`Walker`] with its language's own state in [`Walker::lang`] (the names
//! Python's imports bind, the modules JavaScript's `require` gives; nothing for Ruby and
//! PHP). It reads a snippet in two passes from the root: [`Reader::collect`] notes the
//! names the snippet binds, defines and assigns, then [`Reader::walk`] judges every node
//! with them, listing effects in [`Walker::out`]. [`judge`] runs the two. What an
//! expression computes is [`Walker::eval`]: the language's [`Evaluator::eval_inner`],
//! within [`MAX_EVAL_DEPTH`] and the snippet's budget of steps, beyond which a value is
//! unknown. The languages supply only what differs: what each node means and what a value
//! holds.
//!
//! What reading any of the languages needs is written here once: whether the snippet binds
//! a name and the value it gives it, the names a pattern binds, a binary expression's
//! operands, a string literal's parts, a command line written as a literal, the walk of an
//! assignment. What their calls share is in [`super::calls`].

use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use super::{unescape, Effect, Judged, Syntax, SyntaxWalk, Text};

/// How deep the readers evaluate an expression: what lies deeper has no known value.
pub(crate) const MAX_EVAL_DEPTH: usize = 24;

/// A reader of one snippet: the tree, the effects found, the names bound, and the
/// language's own state `L`.
pub(crate) struct Walker<'t, L> {
    /// The tree's nodes, children and parents.
    syntax: &'t Syntax<'t>,
    /// The effects found so far.
    pub(super) out: Judged,
    /// Name → the values given to it (a name given one value has it).
    pub(super) assigned: Assigned<'t>,
    /// The functions, classes and methods the snippet defines.
    pub(super) local: HashSet<String>,
    /// How deep the evaluation under way is.
    depth: usize,
    /// What the language keeps of its own.
    pub(super) lang: L,
}

impl<'t, L> SyntaxWalk<'t> for Walker<'t, L> {
    fn syntax(&self) -> &'t Syntax<'t> {
        self.syntax
    }
}

/// A reader's two passes over a snippet's tree.
pub(crate) trait Reader<'t> {
    /// The kind of node that is a plain name of the language (`$x` in PHP).
    const NAME: &'static str = "identifier";
    /// The first pass, one node: the names `n` binds, defines and assigns ([`judge`] visits
    /// every node).
    fn collect(&mut self, n: Node<'t>);
    /// The second pass: what `n` and what is under it do.
    fn walk(&mut self, n: Node<'t>);
}

/// A reader's values: what an expression computes, as far as the text tells it.
pub(crate) trait Evaluator<'t>: Reader<'t> {
    /// What the language's expressions compute.
    type Value: Computed;
    /// The value of `n`, one level of it (its parts through [`Walker::eval`]).
    fn eval_inner(&mut self, n: Node<'t>) -> Self::Value;
}

/// What the walker asks of a language's values.
pub(crate) trait Computed: Sized {
    /// The value of an expression not followed.
    const UNKNOWN: Self;
    /// The text of a string (or of a path); unknown for any other value.
    fn text(&self) -> Text;
    /// The items of a list; none for any other value.
    fn items(&self) -> Option<&[Self]>;
}

/// The value of `n` in the walker `W`.
type ValueOf<'t, W> = <W as Evaluator<'t>>::Value;

impl<'t, L> Walker<'t, L> {
    /// Whether the snippet defines or assigns `name` (so it is not the language's own).
    pub(super) fn binds(&self, name: &str) -> bool {
        self.local.contains(name) || self.assigned.contains(name)
    }

    /// Whether `name`, used as a value, is one of the language's names that reach code by
    /// name (`dynamic`: `eval`, `getattr`, `send` …); the snippet is then opaque.
    pub(super) fn reaches_code(&mut self, name: &str, dynamic: &[&str]) -> bool {
        let found = dynamic.contains(&name);
        if found {
            self.out
                .opaque(format!("uses `{name}`, which reaches code by name"));
        }
        found
    }

    /// The text of the string literal `n`, part by part: its text (the kinds `content`; in
    /// a single-quoted string only `\'` and `\\` are escapes), its escape sequences, and
    /// what `other` makes of any other part (an interpolation: its value).
    pub(super) fn literal(
        &mut self,
        n: Node<'t>,
        content: &[&str],
        single: bool,
        mut other: impl FnMut(&mut Self, Node<'t>) -> Text,
    ) -> Text {
        let mut t = Text::default();
        for c in self.kids(n) {
            let part = if content.contains(&c.kind()) {
                let s = self.t(c);
                Text::lit(if single {
                    s.replace("\\'", "'").replace("\\\\", "\\")
                } else {
                    s.to_string()
                })
            } else if c.kind() == "escape_sequence" {
                match unescape(self.t(c)) {
                    Some(s) => Text::lit(s),
                    None => Text::unknown(),
                }
            } else {
                other(self, c)
            };
            t = t.concat(part);
        }
        t.or_empty()
    }

    /// The left operand, the operator and the right operand of a binary expression.
    pub(super) fn operands(&self, n: Node<'t>) -> Option<(Node<'t>, &'t str, Node<'t>)> {
        let op = self.field(n, "operator")?;
        Some((self.field(n, "left")?, self.t(op), self.field(n, "right")?))
    }
}

impl<'t, L> Walker<'t, L>
where
    Self: Reader<'t>,
{
    /// The first pass over `n` and everything under it.
    fn collect_all(&mut self, n: Node<'t>) {
        self.collect(n);
        for c in self.kids(n) {
            self.collect_all(c);
        }
    }

    /// Walks each named child of `n`.
    pub(super) fn children(&mut self, n: Node<'t>) {
        for c in self.kids(n) {
            self.walk(c);
        }
    }

    /// Every name in `n`, as having no one value.
    pub(super) fn unknown_names(&mut self, n: Node<'t>) {
        if n.kind() == Self::NAME {
            self.assigned.unknown(self.t(n));
            return;
        }
        for c in self.kids(n) {
            self.unknown_names(c);
        }
    }

    /// A command line written as a literal (Ruby's and PHP's backticks): run by a shell as
    /// `text` reads it, and its interpolations walked.
    pub(super) fn command_literal(
        &mut self,
        n: Node<'t>,
        text: impl FnOnce(&mut Self, Node<'t>) -> Text,
    ) {
        let cmd = text(self, n);
        self.out.push(Effect::Shell(cmd));
        self.children(n);
    }

    /// An assignment: its left side when that is more than a name (`a[k] = …`), and the
    /// value.
    pub(super) fn walk_assignment(&mut self, n: Node<'t>) {
        if let Some(l) = self.field(n, "left").filter(|l| l.kind() != Self::NAME) {
            self.walk(l);
        }
        if let Some(r) = self.field(n, "right") {
            self.walk(r);
        }
    }
}

impl<'t, L> Walker<'t, L>
where
    Self: Evaluator<'t>,
{
    /// The value of `n`: unknown deeper than [`MAX_EVAL_DEPTH`] or once the snippet's
    /// steps are spent.
    pub(super) fn eval(&mut self, n: Node<'t>) -> ValueOf<'t, Self> {
        if self.depth > MAX_EVAL_DEPTH || !self.out.step() {
            return Computed::UNKNOWN;
        }
        self.depth += 1;
        let v = self.eval_inner(n);
        self.depth -= 1;
        v
    }

    /// The value of `n`'s first named child (a parenthesized expression's).
    pub(super) fn eval_first(&mut self, n: Node<'t>) -> ValueOf<'t, Self> {
        match self.kids(n).first() {
            Some(c) => self.eval(*c),
            None => Computed::UNKNOWN,
        }
    }

    /// The text of `n`'s value; unknown when there is no `n`.
    pub(super) fn text_of(&mut self, n: Option<Node<'t>>) -> Text {
        match n {
            Some(n) => self.eval(n).text(),
            None => Text::unknown(),
        }
    }

    /// The value of the name `name`: the value it is given, when it is given one.
    pub(super) fn assigned_value(&mut self, name: &str) -> ValueOf<'t, Self> {
        match self.assigned.once(name) {
            Some(v) => self.eval(v),
            None => Computed::UNKNOWN,
        }
    }
}

/// The values the first pass finds the snippet's names given: a name given one value the
/// reader kept has that value ([`Assigned::once`]); a name given several, or bound without
/// a value it can follow (a parameter, a loop's variable, a name in a pattern), has none.
#[derive(Default)]
pub(crate) struct Assigned<'t>(HashMap<String, Vec<Option<Node<'t>>>>);

impl<'t> Assigned<'t> {
    /// `name` given `value` (`None`: a value not kept).
    pub(crate) fn give(&mut self, name: impl Into<String>, value: Option<Node<'t>>) {
        self.0.entry(name.into()).or_default().push(value);
    }
    /// `name` bound with no one value, whatever else it is given.
    pub(crate) fn unknown(&mut self, name: impl Into<String>) {
        let given = self.0.entry(name.into()).or_default();
        given.push(None);
        given.push(None);
    }
    /// The node `name` is given, when it is given one value and the reader kept it.
    pub(crate) fn once(&self, name: &str) -> Option<Node<'t>> {
        match self.0.get(name).map(Vec::as_slice) {
            Some([Some(v)]) => Some(*v),
            _ => None,
        }
    }
    /// Whether `name` is only bound once with no one value ([`Assigned::unknown`] once).
    pub(crate) fn only_unknown(&self, name: &str) -> bool {
        self.0.get(name).is_some_and(|given| given.len() == 2)
    }
    /// Whether the snippet binds `name` at all.
    pub(crate) fn contains(&self, name: &str) -> bool {
        self.0.contains_key(name)
    }
}

/// The effects of the snippet `syntax` holds, read by a walker of the language whose own
/// state starts as `lang`: both passes from the root.
pub(crate) fn judge<'t, L>(syntax: &'t Syntax<'t>, lang: L) -> Judged
where
    Walker<'t, L>: Reader<'t>,
{
    let mut w = Walker {
        syntax,
        out: Judged::default(),
        assigned: Assigned::default(),
        local: HashSet::new(),
        depth: 0,
        lang,
    };
    let root = syntax.root();
    w.collect_all(root);
    w.walk(root);
    w.out
}
