//! Known values written into a command's words: variables with one value (see [`vars`]),
//! the elements of an array (`"${a[@]}"`), the positional parameters (`"$@"`, `$1`, `$#`)
//! of a script after `set --` or of a function's call, and, once `IFS` is set to a known
//! value, the words an unquoted value splits into.
//!
//! Words keep expansions as their source text (`$x`, `${a[@]}`), not whether they were
//! quoted. The values written in are plain (no blanks, no globs), so quoting changes
//! nothing for them, except under a changed `IFS`: there the caller judges the command
//! both ways, as written in and split.
//!
//! A known value is a [`Constant`]: [`vars`] finds them (and hands on the functions here),
//! this module writes them in, so `vars` uses this module and not the other way round.
//!
//! [`vars`]: super::vars

use super::expand::MAX_EXTRA_WORDS;
use super::{SimpleCommand, Stdin, Word};

/// A variable with one known value for the commands from index `from` on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Constant {
    pub name: String,
    /// The value (of an array: its first element, as `$a` reads it).
    pub value: String,
    pub from: usize,
    /// For an array and the positional parameters (`@`, `*`): the elements.
    pub array: Option<Vec<String>>,
}

impl Constant {
    pub fn scalar(name: &str, value: String, from: usize) -> Constant {
        Constant {
            name: name.to_string(),
            value,
            from,
            array: None,
        }
    }

    pub fn list(name: &str, elements: Vec<String>, from: usize) -> Constant {
        Constant {
            name: name.to_string(),
            value: elements.first().cloned().unwrap_or_default(),
            from,
            array: Some(elements),
        }
    }
}

/// One piece of a word after substitution.
#[derive(Debug)]
enum Seg<'a> {
    /// Text as written.
    Text(&'a str),
    /// A variable's value.
    Value(&'a str),
    /// Between two elements of a list (`"$@"`): a new word starts.
    Break,
}

/// Whether `name` is one of the positional parameters (`@`, `*`, `#`, `1`…), which a
/// function's body does not share with the script.
pub fn is_positional(name: &str) -> bool {
    matches!(name, "@" | "*" | "#") || name.bytes().all(|b| b.is_ascii_digit())
}

/// The constants for positional parameters `args` (`$@`, `$*`, `$#`, `$1` … `$9`, and
/// `${10}` on), from command `from` on.
pub fn positional(args: &[String], from: usize) -> Vec<Constant> {
    let mut out = vec![
        Constant::list("@", args.to_vec(), from),
        Constant::list("*", args.to_vec(), from),
        Constant::scalar("#", args.len().to_string(), from),
    ];
    for n in 1..=args.len().max(9) {
        let value = args.get(n - 1).cloned().unwrap_or_default();
        out.push(Constant::scalar(&n.to_string(), value, from));
    }
    out
}

/// `word` with `consts` written out: the words it becomes, split at the characters of
/// `ifs` where a value was written in when given. `None` when no constant appears in it.
pub fn substitute(word: &Word, consts: &[&Constant], ifs: Option<&str>) -> Option<Vec<Word>> {
    if word.literal || !word.text.contains('$') {
        return None;
    }
    let (segs, only_list) = segments(&word.text, consts)?;
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut started = false;
    for s in segs {
        match s {
            Seg::Text(t) => {
                cur.push_str(t);
                started |= !t.is_empty();
            }
            Seg::Value(v) => match ifs {
                Some(ifs) if !ifs.is_empty() => {
                    let mut parts = v.split(|c| ifs.contains(c)).peekable();
                    while let Some(p) = parts.next() {
                        cur.push_str(p);
                        started |= !p.is_empty();
                        if parts.peek().is_some() && started {
                            out.push(known(std::mem::take(&mut cur)));
                            started = false;
                        }
                    }
                }
                _ => {
                    cur.push_str(v);
                    started = true;
                }
            },
            Seg::Break => {
                out.push(known(std::mem::take(&mut cur)));
                started = false;
            }
        }
    }
    // `"$@"` with no arguments is no word at all.
    if started || (!only_list && out.is_empty()) {
        out.push(known(cur));
    }
    Some(out)
}

/// A word after substitution: known unless something in it is still expanded.
fn known(text: String) -> Word {
    let unknown = text.contains(['$', '`', '*', '?', '[', '{', '~']) || text.contains("(…)");
    Word {
        literal: !unknown,
        text,
    }
}

/// The pieces of `text` with the references to `consts` found; `None` when there is none.
/// The flag: the text is one reference to a list and nothing else.
fn segments<'a>(text: &'a str, consts: &[&'a Constant]) -> Option<(Vec<Seg<'a>>, bool)> {
    let find = |name: &str| consts.iter().find(|c| c.name == name).copied();
    let mut segs = Vec::new();
    let mut changed = false;
    let mut lists = 0;
    let mut pos = 0;
    while let Some(off) = text[pos..].find('$') {
        let at = pos + off;
        segs.push(Seg::Text(&text[pos..at]));
        let (name, end, braced) = reference(text, at);
        pos = end;
        let hit = name.and_then(|n| {
            // `${a[@]}` and `${a[*]}` are the whole array; `$@` the positional ones.
            let list = n
                .strip_suffix("[@]")
                .or_else(|| n.strip_suffix("[*]"))
                .filter(|_| braced);
            match list {
                Some(array) => find(array).filter(|c| c.array.is_some()),
                None => find(n),
            }
            .map(|c| (c, list.is_some() || matches!(n, "@" | "*")))
        });
        match hit {
            Some((c, true)) => {
                changed = true;
                lists += 1;
                for (k, v) in c.array.iter().flatten().enumerate() {
                    if k > 0 {
                        segs.push(Seg::Break);
                    }
                    segs.push(Seg::Value(v));
                }
            }
            Some((c, false)) => {
                changed = true;
                segs.push(Seg::Value(&c.value));
            }
            None => segs.push(Seg::Text(&text[at..end])),
        }
    }
    segs.push(Seg::Text(&text[pos..]));
    let only_list = lists == 1
        && segs.iter().all(|s| match s {
            Seg::Text(t) => t.is_empty(),
            _ => true,
        });
    changed.then_some((segs, only_list))
}

/// The variable a `$` at `at` refers to, where the reference ends, and whether it was
/// braced: `${name}` (any text up to `}`), `$name`, `$1`, `$@`, `$*`, `$#`.
fn reference(text: &str, at: usize) -> (Option<&str>, usize, bool) {
    let rest = &text[at + 1..];
    if let Some(inner) = rest.strip_prefix('{') {
        return match inner.find('}') {
            Some(close) => (Some(&inner[..close]), at + 2 + close + 1, true),
            None => (None, text.len(), true),
        };
    }
    let b = rest.as_bytes();
    match b.first() {
        Some(c) if c.is_ascii_alphabetic() || *c == b'_' => {
            let len = b
                .iter()
                .take_while(|c| c.is_ascii_alphanumeric() || **c == b'_')
                .count();
            (Some(&rest[..len]), at + 1 + len, false)
        }
        Some(c) if c.is_ascii_digit() || matches!(c, b'@' | b'*' | b'#') => {
            (Some(&rest[..1]), at + 2, false)
        }
        _ => (None, at + 1, false),
    }
}

/// How a command's words are written out: which constants hold, and the `IFS` to split at.
struct Subst<'a> {
    consts: Vec<&'a Constant>,
    ifs: Option<&'a str>,
}

impl Subst<'_> {
    /// The words of `cmd` with the constants written out, if any applies.
    fn command(&self, cmd: &SimpleCommand) -> Option<SimpleCommand> {
        if self.consts.is_empty() {
            return None;
        }
        let mut out = cmd.clone();
        let mut changed = false;
        let mut words = Vec::with_capacity(cmd.words.len());
        for w in &cmd.words {
            match substitute(w, &self.consts, self.ifs) {
                Some(ws) => {
                    changed = true;
                    words.extend(ws);
                }
                None => words.push(w.clone()),
            }
        }
        // A list written in many times could make a short command stand for a great many
        // words: past the bound it is judged as written (not known).
        if words.len() > cmd.words.len() + MAX_EXTRA_WORDS {
            return None;
        }
        out.words = words;
        // Values of assignments, redirection targets and here-strings are not split.
        let mut fix = |w: &mut Word| {
            if let Some(ws) = substitute(w, &self.consts, None) {
                *w = joined(ws);
                changed = true;
            }
        };
        out.assignments.iter_mut().for_each(|(_, w)| fix(w));
        out.redirects.iter_mut().for_each(|r| fix(&mut r.target));
        if let Some(Stdin::HereString(w)) = &mut out.stdin {
            fix(w);
        }
        changed.then_some(out)
    }
}

/// The words a list became, as one word (`"$*"`-like), where only one word can stand.
fn joined(ws: Vec<Word>) -> Word {
    let literal = ws.iter().all(|w| w.literal);
    let text = ws.into_iter().map(|w| w.text).collect::<Vec<_>>().join(" ");
    Word { text, literal }
}

/// The constants that hold at command `index` of `cmd`: set before it, and the positional
/// parameters only outside a function's body.
fn holding<'a>(cmd: &SimpleCommand, index: usize, constants: &'a [Constant]) -> Vec<&'a Constant> {
    constants
        .iter()
        .filter(|c| c.from <= index && !(cmd.function.is_some() && is_positional(&c.name)))
        .collect()
}

/// Command `index` with the constants that hold there written out, if any applies.
pub fn apply(cmd: &SimpleCommand, index: usize, constants: &[Constant]) -> Option<SimpleCommand> {
    let consts = holding(cmd, index, constants);
    Subst { consts, ifs: None }.command(cmd)
}

/// Command `index` as [`apply`] writes it, with the values then split at the characters
/// of `ifs` (an unquoted use under `IFS=…`), if any applies.
pub fn apply_split(
    cmd: &SimpleCommand,
    index: usize,
    constants: &[Constant],
    ifs: &str,
) -> Option<SimpleCommand> {
    let consts = holding(cmd, index, constants);
    Subst {
        consts,
        ifs: Some(ifs),
    }
    .command(cmd)
}

/// A command of a function's body run by a call at command `index` with arguments
/// `args`: the script's constants that hold at the call, and the call's positional
/// parameters.
/// With `ifs`, the values are split at its characters (an unquoted use).
pub fn apply_call(
    cmd: &SimpleCommand,
    index: usize,
    constants: &[Constant],
    args: &[String],
    ifs: Option<&str>,
) -> Option<SimpleCommand> {
    let params = positional(args, 0);
    let mut consts: Vec<&Constant> = constants
        .iter()
        .filter(|c| c.from <= index && !is_positional(&c.name))
        .collect();
    consts.extend(params.iter());
    Subst { consts, ifs }.command(cmd)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(t: &str) -> Word {
        Word {
            text: t.into(),
            literal: false,
        }
    }

    fn texts(ws: Option<Vec<Word>>) -> Option<Vec<(String, bool)>> {
        ws.map(|v| v.into_iter().map(|w| (w.text, w.literal)).collect())
    }

    #[test]
    fn writes_values_in() {
        let consts = [
            Constant::scalar("T", "build".into(), 0),
            Constant::list("a", vec!["rm".into(), "-rf".into(), "$HOME".into()], 0),
            Constant::scalar("a[1]", "-rf".into(), 0),
        ];
        let params = positional(&["x".into(), "y".into()], 0);
        let mut all: Vec<&Constant> = consts.iter().collect();
        all.extend(params.iter());
        type Case<'a> = (&'a str, Option<&'a [(&'a str, bool)]>);
        let cases: &[Case] = &[
            ("$T", Some(&[("build", true)])),
            ("${T}/x", Some(&[("build/x", true)])),
            ("$T/$U", Some(&[("build/$U", false)])),
            ("$TT", None),
            ("${T:-y}", None),
            (
                "${a[@]}",
                Some(&[("rm", true), ("-rf", true), ("$HOME", false)]),
            ),
            (
                "p${a[*]}s",
                Some(&[("prm", true), ("-rf", true), ("$HOMEs", false)]),
            ),
            ("${a[1]}", Some(&[("-rf", true)])),
            ("$a[1]", Some(&[("rm[1]", false)])),
            ("$@", Some(&[("x", true), ("y", true)])),
            ("$1-$2", Some(&[("x-y", true)])),
            ("$3", Some(&[("", true)])),
            ("$#", Some(&[("2", true)])),
            ("$10", Some(&[("x0", true)])),
        ];
        for (text, want) in cases {
            let want = want.map(|v| v.iter().map(|(t, l)| (t.to_string(), *l)).collect());
            assert_eq!(texts(substitute(&w(text), &all, None)), want, "{text}");
        }
        let none = positional(&[], 0);
        let none: Vec<&Constant> = none.iter().collect();
        assert_eq!(texts(substitute(&w("$@"), &none, None)), Some(vec![]));
        assert_eq!(
            texts(substitute(&w("x$@"), &none, None)),
            Some(vec![("x".into(), true)])
        );
    }

    #[test]
    fn splits_at_ifs() {
        let c = Constant::scalar("c", "rm,-rf,$HOME".into(), 0);
        let got = texts(substitute(&w("$c"), &[&c], Some(",")));
        let want = [("rm", true), ("-rf", true), ("$HOME", false)];
        assert_eq!(
            got,
            Some(want.iter().map(|(t, l)| (t.to_string(), *l)).collect())
        );
        // Only the value splits, not the text around it.
        let got = texts(substitute(&w("a,b$c"), &[&c], Some(",")));
        assert_eq!(got.map(|v| v.len()), Some(3));
    }

    #[test]
    fn a_list_written_in_many_times_stays_as_written() {
        let args: Vec<String> = (0..64).map(|i| format!("a{i}")).collect();
        let params = positional(&args, 0);
        let cmd = |uses: usize| SimpleCommand {
            words: std::iter::once(Word::lit("rm"))
                .chain(std::iter::repeat_n(w("$@"), uses))
                .collect(),
            ..SimpleCommand::default()
        };
        assert!(apply(&cmd(4), 0, &params).is_some());
        assert!(apply(&cmd(5), 0, &params).is_none());
    }

    #[test]
    fn positional_parameters_stay_out_of_function_bodies() {
        let params = positional(&["~".into()], 0);
        let mut cmd = SimpleCommand {
            words: vec![Word::lit("rm"), w("$@")],
            ..SimpleCommand::default()
        };
        assert!(apply(&cmd, 1, &params).is_some());
        cmd.function = Some(0);
        assert!(apply(&cmd, 1, &params).is_none());
        let called = apply_call(&cmd, 1, &[], &["x".into()], None);
        assert_eq!(
            called.map(|c| c.words[1].text.clone()).as_deref(),
            Some("x")
        );
    }
}
