//! Variables whose value is known before the script runs: `DIR=build; rm -rf "$DIR"`.
//!
//! A model often names a path once and uses it after. Left unknown, `rm -rf "$DIR"` would
//! have to be judged as deleting anything. A variable is taken as a constant only when
//! nothing could give it another value, so a use is judged as if the value were written
//! out:
//!
//! - it is set by a plain assignment statement that surely runs before what follows it
//!   (at the top level, or first in a top-level `&&`/`;` chain, not in the background);
//! - its value is literal and cannot split or glob (letters, digits, `_ . / - + @ % , :`);
//! - its name appears nowhere else in the text except where it is read (`$NAME`,
//!   `${NAME…}`), so no `read`, `for`, `declare`, `unset`, arithmetic, `printf -v` or
//!   second assignment can change it;
//! - the script does not touch `IFS` (which changes how values split);
//! - it is not a variable the shell itself gives meaning to (`PATH`, `HOME` …).
//!
//! Only uses after the assignment (in source order) see the value; code before it, such
//! as the body of a function defined earlier, keeps the variable unknown. A script that
//! runs `eval`, `source` or `.` could assign anything out of sight: there each use is
//! judged both ways, with the value and unknown, and the stricter verdict stands.

pub use super::subst::{apply, apply_call, apply_split, Constant};
use super::{subst, SimpleCommand, Word};

/// A variable assignment statement found while walking the tree.
#[derive(Debug, Clone)]
pub struct Assigned {
    pub name: String,
    pub value: Word,
    /// The elements of an array assignment (`a=(x y)`), or of the positional parameters
    /// (`set -- x y`, named `@`).
    pub elements: Option<Vec<Word>>,
    /// The index of the first command that runs after it, when it surely runs.
    pub from: Option<usize>,
}

/// A `for NAME in VALUES` loop: while its body runs (commands `body`), `NAME` is one of
/// the values.
#[derive(Debug, Clone)]
pub struct Loop {
    pub name: String,
    pub values: Vec<Word>,
    pub body: std::ops::Range<usize>,
}

/// What an unquoted value splits at when the script does not set `IFS`.
pub const DEFAULT_IFS: &str = " \t\n";

/// How many values of loops a command is judged with, at most.
const MAX_LOOP_VALUES: usize = 16;

/// The most elements an array (or `set --`) may have to be known.
const MAX_ELEMENTS: usize = 64;

/// How many assignments are considered.
const MAX_CANDIDATES: usize = 64;

/// Names the shell gives meaning to: their values change how other things run.
const SPECIAL: &[&str] = &[
    "PATH",
    "HOME",
    "IFS",
    "CDPATH",
    "PWD",
    "OLDPWD",
    "ENV",
    "BASH_ENV",
    "SHELLOPTS",
    "BASHOPTS",
    "GLOBIGNORE",
    "PS4",
    "PROMPT_COMMAND",
    "TMPDIR",
];

/// Whether the script runs code that could assign any variable out of sight: `eval`,
/// `source` or `.` in the shell itself (also after `command`, `builtin` or `time`).
pub fn runs_hidden_code(commands: &[SimpleCommand]) -> bool {
    commands.iter().any(|c| {
        c.words
            .iter()
            .map(|w| w.text.as_str())
            .find(|t| !matches!(*t, "command" | "builtin" | "time"))
            .is_some_and(|t| matches!(t, "eval" | "source" | "."))
    })
}

/// Whether the script touches `IFS`, which changes how every unquoted value splits: then
/// no value is taken as known.
pub fn touches_ifs(src: &str) -> bool {
    mentions(src, "IFS") != (0, 0)
}

/// Whether the script may define a function or an alias named `name` (`echo() …`,
/// `function echo`, `alias echo=…`), so that running `name` may not run the builtin or
/// program of that name. Read from the text, so it errs towards yes.
pub fn may_redefine(src: &str, name: &str) -> bool {
    let b = src.as_bytes();
    let mut from = 0;
    while let Some(p) = src[from..].find(name) {
        let at = from + p;
        let end = at + name.len();
        from = end;
        if (at > 0 && is_ident(b[at - 1])) || b.get(end).is_some_and(|&c| is_ident(c)) {
            continue;
        }
        let after = src[end..].trim_start();
        let before = src[..at].trim_end();
        if after.starts_with('(')
            || after.starts_with('=')
            || before.ends_with("function")
            || before.ends_with("alias")
        {
            return true;
        }
    }
    false
}

/// Whether the script names `name` other than to read it (so may give it a value).
pub fn may_assign(src: &str, name: &str) -> bool {
    mentions(src, name).1 > 0
}

/// Command `index` run in folder `cwd`, with `$PWD` (which `$(pwd)` was read as) written
/// out, when the folder is known and its name cannot split or glob.
pub fn with_pwd(cmd: &SimpleCommand, index: usize, cwd: &str) -> Option<SimpleCommand> {
    if !cwd.starts_with('/') || !cwd.chars().all(is_plain) {
        return None;
    }
    let pwd = [Constant::scalar("PWD", cwd.to_string(), 0)];
    apply(cmd, index, &pwd)
}

/// The constants of a script (see the module docs): variables and arrays, and the
/// positional parameters after `set --`. The caller checks [`touches_ifs`] (or that
/// [`known_ifs`] knows the value).
pub fn constants(src: &str, assigned: &[Assigned]) -> Vec<Constant> {
    let home = !may_assign(src, "HOME");
    let mut out = Vec::new();
    // Each candidate costs a scan of the text: a script of thousands of assignments
    // keeps the rest unknown.
    for a in assigned
        .iter()
        .filter(|a| a.from.is_some() && a.name != "@")
        .take(MAX_CANDIDATES)
    {
        let Some(from) = a.from else { continue };
        let is_name = a.name.bytes().all(is_ident);
        if !is_name || SPECIAL.contains(&a.name.as_str()) || mentions(src, &a.name).1 != 1 {
            continue;
        }
        match &a.elements {
            None => {
                if let Some(value) = known_value(&a.value, variable(home)) {
                    out.push(Constant::scalar(&a.name, value, from));
                }
            }
            Some(elements) => {
                let Some(values) = known_values(elements, home) else {
                    continue;
                };
                for (k, v) in values.iter().enumerate() {
                    out.push(Constant::scalar(
                        &format!("{}[{k}]", a.name),
                        v.clone(),
                        from,
                    ));
                }
                out.push(Constant::list(&a.name, values, from));
            }
        }
    }
    out.extend(positional(assigned, home));
    out
}

/// The values the script's own plain assignments and `for` loops may give a variable that
/// is not a constant (see [`constants`]): `T=build; T=/; rm -rf $T`, `for f in *; …`. A use
/// of such a variable is judged with each of them as well as unknown, and the strictest
/// verdict stands, so a variable known only at run time is not taken as broad, but one the
/// script itself sets to a broad value is. Each applies from the first command on; the
/// caller checks [`touches_ifs`].
pub fn candidates(
    assigned: &[Assigned],
    found: &[Loop],
    constants: &[Constant],
    loops: &[Loop],
) -> Vec<Constant> {
    // Any value the text gives, globs and blanks too (`T='*'`, `for f in "/ tmp"`).
    let any = Allow {
        globs: true,
        home: true,
        blanks: true,
    };
    // A constant, or a loop's variable whose values are known (see [`loops`]), is judged by
    // its values already.
    let is_constant =
        |n: &str| constants.iter().any(|c| c.name == n) || loops.iter().any(|l| l.name == n);
    let mut out: Vec<Constant> = Vec::new();
    let mut add = |name: &str, value: Option<String>| {
        if let Some(v) = value {
            let named = name.bytes().all(is_ident) && name != "IFS";
            if named && !is_constant(name) && out.len() < MAX_CANDIDATES {
                out.push(Constant::scalar(name, v, 0));
            }
        }
    };
    for a in assigned
        .iter()
        .filter(|a| a.name != "@" && a.elements.is_none())
    {
        add(&a.name, known_value(&a.value, any));
    }
    for l in found {
        for v in l.values.iter().take(MAX_LOOP_VALUES) {
            add(&l.name, known_value(v, any));
        }
    }
    out
}

/// The positional parameters of the script, when one `set --` that surely runs gives them
/// and nothing else (`shift`, another `set`) changes them.
fn positional(assigned: &[Assigned], home: bool) -> Vec<Constant> {
    let mut sets = assigned.iter().filter(|a| a.name == "@");
    let (Some(set), None) = (sets.next(), sets.next()) else {
        return Vec::new();
    };
    let (Some(from), Some(elements)) = (set.from, &set.elements) else {
        return Vec::new();
    };
    match known_values(elements, home) {
        Some(values) => subst::positional(&values, from),
        None => Vec::new(),
    }
}

/// What a variable's value may hold.
fn variable(home: bool) -> Allow {
    Allow {
        home,
        blanks: true,
        ..Allow::default()
    }
}

fn known_values(elements: &[Word], home: bool) -> Option<Vec<String>> {
    if elements.len() > MAX_ELEMENTS {
        return None;
    }
    elements
        .iter()
        .map(|e| known_value(e, variable(home)))
        .collect()
}

/// The values of a function call's arguments, when all are known (plain words, `~`,
/// `$HOME`); none otherwise.
pub fn known_arguments(words: &[Word]) -> Option<Vec<String>> {
    known_values(words, true)
}

/// The value `IFS` surely has from a command on, when one plain assignment that surely
/// runs sets it and nothing else names it.
pub fn known_ifs(src: &str, assigned: &[Assigned]) -> Option<(String, usize)> {
    let mut sets = assigned.iter().filter(|a| a.name == "IFS");
    let (Some(set), None) = (sets.next(), sets.next()) else {
        return None;
    };
    let from = set.from?;
    let only_one = mentions(src, "IFS").1 == 1;
    (only_one && set.value.literal && set.elements.is_none())
        .then(|| (set.value.text.clone(), from))
}

/// The loops whose variable is surely one of the listed values in the body: the values
/// are plain words or globs (no expansion, no space), at most [`MAX_LOOP_VALUES`] of them,
/// and the name appears nowhere else except where it is read. Their values are returned
/// with a leading `~` written as `$HOME`. The caller checks [`touches_ifs`].
pub fn loops(src: &str, found: Vec<Loop>) -> Vec<Loop> {
    found
        .into_iter()
        .filter(|l| {
            !l.values.is_empty()
                && l.values.len() <= MAX_LOOP_VALUES
                && !SPECIAL.contains(&l.name.as_str())
                && mentions(src, &l.name).1 == 1
        })
        .take(MAX_CANDIDATES)
        .filter_map(|mut l| {
            for v in &mut l.values {
                *v = Word {
                    text: known_value(
                        v,
                        Allow {
                            globs: true,
                            ..Allow::default()
                        },
                    )?,
                    literal: false,
                };
            }
            Some(l)
        })
        .collect()
}

/// Command `index` once for each value its enclosing loops' variables may hold, when one
/// of them is used in it and the values are known (see [`loops`]); nothing otherwise.
pub fn loop_variants(
    cmd: &SimpleCommand,
    index: usize,
    loops: &[Loop],
) -> Option<Vec<SimpleCommand>> {
    let mut variants = vec![cmd.clone()];
    let mut changed = false;
    for l in loops.iter().filter(|l| l.body.contains(&index)) {
        let mut next = Vec::new();
        for v in &variants {
            for value in &l.values {
                let one = [Constant::scalar(&l.name, value.text.clone(), 0)];
                match apply(v, index, &one) {
                    Some(n) => {
                        changed = true;
                        next.push(n);
                    }
                    None => {
                        next.push(v.clone());
                        break;
                    }
                }
            }
        }
        if next.len() > MAX_LOOP_VALUES {
            return None;
        }
        variants = next;
    }
    changed.then_some(variants)
}

/// What a known value may hold besides plain characters.
#[derive(Clone, Copy, Default)]
struct Allow {
    /// Glob characters (a loop's values).
    globs: bool,
    /// `$HOME` (the script does not assign it).
    home: bool,
    /// Blanks (a variable's value: a use is judged as written and split, see `ifs`).
    blanks: bool,
}

/// A value known before the script runs, as path resolution reads it: a leading `~` (the
/// home folder) written as `$HOME`, the rest plain characters and what `allow` allows.
/// Anything else (another expansion) is not known.
fn known_value(word: &Word, allow: Allow) -> Option<String> {
    let ok = |c: char| {
        is_plain(c) || (allow.globs && "*?[]".contains(c)) || (allow.blanks && " \t".contains(c))
    };
    let (value, rest) = match word.text.strip_prefix('~') {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => (format!("$HOME{rest}"), rest),
        _ if word.literal || allow.globs => (word.text.clone(), word.text.as_str()),
        _ if allow.home => {
            let value = word.text.replace("${HOME}", "$HOME");
            let plain = without_home(&value)?;
            return (!value.trim().is_empty() && plain.chars().all(ok)).then_some(value);
        }
        _ => return None,
    };
    let known = !word.text.trim().is_empty() && rest.chars().all(ok);
    known.then_some(value)
}

/// `t` without its `$HOME` references, or none if it holds another `$`.
fn without_home(t: &str) -> Option<String> {
    let mut out = String::with_capacity(t.len());
    let mut rest = t;
    while let Some(p) = rest.find('$') {
        out.push_str(&rest[..p]);
        let after = rest[p..].strip_prefix("$HOME")?;
        if after.bytes().next().is_some_and(is_ident) {
            return None;
        }
        rest = after;
    }
    out.push_str(rest);
    Some(out)
}

fn is_plain(c: char) -> bool {
    c.is_ascii_alphanumeric() || "_./-+@%,:".contains(c)
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// How often `name` appears in `src` as a whole identifier: as a read (`$name`,
/// `${name…}`) and otherwise.
fn mentions(src: &str, name: &str) -> (usize, usize) {
    let b = src.as_bytes();
    let (mut reads, mut others) = (0, 0);
    let mut from = 0;
    while let Some(p) = src[from..].find(name) {
        let at = from + p;
        let end = at + name.len();
        from = end;
        if b.get(end).is_some_and(|&c| is_ident(c)) {
            continue;
        }
        if at > 0 && is_ident(b[at - 1]) {
            // The end of a cluster of options (`printf -vd`, `read -ad`) may be the value
            // of its last option: a name that option sets.
            if ends_a_cluster(&b[..at]) {
                others += 1;
            }
            continue;
        }
        let read = (at >= 1 && b[at - 1] == b'$') || (at >= 2 && &b[at - 2..at] == b"${");
        // Letters right after a dash are options themselves (`mktemp -d`), which name no
        // variable.
        if !read && at >= 1 && b[at - 1] == b'-' && (at < 2 || !is_ident(b[at - 2])) {
            continue;
        }
        if read {
            reads += 1;
        } else {
            others += 1;
        }
    }
    (reads, others)
}

/// Whether `before` ends in a cluster of options at the start of a word (`-` and letters)
/// one of whose letters may take a variable's name attached: `printf -vNAME`, `read
/// -aNAME`, `wait -pNAME`.
fn ends_a_cluster(before: &[u8]) -> bool {
    let letters = before
        .iter()
        .rev()
        .take_while(|c| c.is_ascii_alphanumeric())
        .count();
    let dash = before.len() - letters;
    dash >= 1
        && before[dash - 1] == b'-'
        && (dash < 2 || !is_ident(before[dash - 2]) && before[dash - 2] != b'-')
        && before[dash..].iter().any(|c| b"vap".contains(c))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mentions_count_reads_and_others() {
        let cases: &[(&str, &str, (usize, usize))] = &[
            ("T=x; rm $T", "T", (1, 1)),
            ("T=x; rm ${T} ${T:-y} $TT", "T", (2, 1)),
            ("T=x; read T", "T", (0, 2)),
            ("T=x; echo \"T is $T\"", "T", (1, 2)),
            ("DIR=a; ls $DIR/$SUBDIR", "DIR", (1, 1)),
            ("d=$(mktemp -d); rm -rf \"$d\"", "d", (1, 1)),
            ("d=x; printf -v d y", "d", (0, 2)),
            ("d=x; printf -vd y", "d", (0, 2)),
            ("T=x; read -raT", "T", (0, 2)),
            ("T=x; ls --sort=T", "T", (0, 2)),
            ("f=x; rm -rf $f", "f", (1, 1)),
        ];
        for (src, name, want) in cases {
            assert_eq!(mentions(src, name), *want, "{src}");
        }
    }

    #[test]
    fn redefinitions() {
        let cases: &[(&str, bool)] = &[
            ("echo() { :; }; $(echo ls)", true),
            ("function echo { :; }", true),
            ("alias echo='rm -rf ~'", true),
            ("$(echo ls)", false),
            ("echoes() { :; }; $(echo ls)", false),
        ];
        for (src, want) in cases {
            assert_eq!(may_redefine(src, "echo"), *want, "{src}");
        }
    }
}
