//! Reading a command's arguments: options, their values, and the positional words.
//!
//! Both the analyser (which finds the files and programs in a command) and the classifier
//! (which matches rules' `flags_any`, `subcommand` and `path_class`) read arguments the same
//! way; this module is that one way, so the two can never disagree about what an option is.

use super::paths::component_match;
use super::policy::{run_flag_name, Effects, List, Policy};
use super::shell::Word;

/// Positional arguments: not options, not values of `value_flags`, all words after `--`.
pub fn positionals<'w>(args: &'w [Word], value_flags: &List) -> Vec<&'w Word> {
    let mut out = Vec::new();
    let mut i = 0;
    let mut after_dashdash = false;
    while i < args.len() {
        let t = args[i].text.as_str();
        if after_dashdash {
            out.push(&args[i]);
        } else if t == "--" {
            after_dashdash = true;
        } else if t.starts_with('-') && t.len() > 1 {
            if value_flags.contains(t) {
                i += 1;
            }
        } else {
            out.push(&args[i]);
        }
        i += 1;
    }
    out
}

/// Words that are options: those before `--` that start with `-` or `+`.
pub fn flag_words(args: &[Word]) -> Vec<&str> {
    args.iter()
        .map(|a| a.text.as_str())
        .take_while(|t| *t != "--")
        .filter(|t| t.len() > 1 && t.starts_with('-'))
        .collect()
}

/// How much of a folder a program reads: the folder alone, or its whole tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Recursion {
    /// Only what is named (`cat f`; a folder is not read).
    #[default]
    No,
    /// The whole tree under a folder it reads (`grep -r PAT DIR`, `tar -c DIR`).
    Tree,
    /// The whole tree but the names that start with a dot (`rg PAT DIR`).
    VisibleTree,
    /// The files of the tree a glob matches (the Grep tool's `glob`): the glob is judged
    /// on its own, and the folder holds a secret only where the policy alone says so (a
    /// home folder, `/`, a folder above a secret's fixed place).
    GlobInTree,
}

impl Recursion {
    pub fn is_tree(self) -> bool {
        self != Recursion::No
    }
}

/// How much of a folder it reads program `name` reads (`grep -r`, `rg`, `tar -c`, `cp
/// -R`): its table, the built-in one or a layer's, says it always reads the tree
/// (`recursive`) or names an option given in `recursive_flags`; and whether it leaves out
/// hidden names (`skips_hidden`, unless an option of `hidden_flags` is given). With an
/// option of its `lister_flags` it reads no file (`rg --files`). A layer's
/// table may add the reading, never take it away.
pub fn reads_recursively(policy: &Policy, name: &str, args: &[Word]) -> Recursion {
    let tables = policy.effects_readings(name);
    // Most programs read no tree: nothing to look for in their words.
    if !tables
        .iter()
        .any(|e| e.recursive || !e.recursive_flags.is_empty())
    {
        return Recursion::No;
    }
    let flags = flag_words(args);
    let given = |l: &List| l.iter().any(|f| flags.iter().any(|a| flag_matches(f, a)));
    // `rg --files`: it prints the names it would read, and reads none.
    if tables.iter().any(|e| given(&e.lister_flags)) {
        return Recursion::No;
    }
    if !tables
        .iter()
        .any(|e| e.recursive || given(&e.recursive_flags))
    {
        return Recursion::No;
    }
    if tables
        .iter()
        .all(|e| e.skips_hidden && !given(&e.hidden_flags))
    {
        Recursion::VisibleTree
    } else {
        Recursion::Tree
    }
}

/// `-r` matches a cluster like `-rf` or `-r5`; `--force` matches `--force` and
/// `--force=…`; other patterns (`-delete`, `--force*`) match as globs.
pub fn flag_matches(pattern: &str, arg: &str) -> bool {
    let pb = pattern.as_bytes();
    if pb.len() == 2 && pb[0] == b'-' && pb[1] != b'-' {
        if arg.starts_with("--") || !arg.starts_with('-') {
            return false;
        }
        let c = pb[1] as char;
        return arg[1..]
            .chars()
            .take_while(|ch| ch.is_ascii_alphabetic())
            .any(|ch| ch == c);
    }
    if pattern.starts_with("--") && !pattern.contains('*') {
        return arg
            .strip_prefix(pattern)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with('='));
    }
    component_match(pattern, arg)
}

/// The value that argument `i` gives option `flag`, if it is that option: `-o FILE`,
/// `--output=FILE`, and for a one-letter option also inside a cluster, `-so FILE` (the
/// letter ends the cluster: the next word) or `-oFILE` (the rest of the word).
pub fn flag_value(args: &[Word], i: usize, flag: &str) -> Option<Word> {
    let a = args.get(i)?;
    let next = || args.get(i + 1).cloned();
    if a.text == flag {
        return next();
    }
    if let Some(v) = a.text.strip_prefix(flag).and_then(|r| r.strip_prefix('=')) {
        // `--opt=VALUE`, and `-opt=VALUE` of an option of one dash and several letters
        // (`terraform -chdir=DIR`), which no cluster of one-letter options can be.
        if flag.starts_with("--") || flag.len() > 2 {
            return Some(Word {
                text: v.to_string(),
                literal: a.literal,
            });
        }
    }
    let letter = match flag.as_bytes() {
        [b'-', l] if l.is_ascii_alphanumeric() => *l,
        _ => return None,
    };
    let cluster = a.text.strip_prefix('-').filter(|c| !c.starts_with('-'))?;
    let bytes = cluster.as_bytes();
    // Letters are options until the first one that takes a value; only letters count.
    let at = bytes
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric())
        .position(|&b| b == letter)?;
    if at + 1 == bytes.len() {
        next()
    } else {
        Some(Word {
            text: cluster[at + 1..].to_string(),
            literal: a.literal,
        })
    }
}

/// The value that argument `i` gives option `flag`, read with the arity of the table `eff`:
/// one of its `attached_flags` only from its own word (see [`attached_value`]), any other
/// as [`flag_value`] reads it.
pub fn table_flag_value(args: &[Word], i: usize, flag: &str, eff: &Effects) -> Option<Word> {
    if eff.attached_flags.contains(flag) {
        attached_value(args.get(i)?, flag)
    } else {
        flag_value(args, i, flag)
    }
}

/// The value option `flag` has in word `a` itself, for an option whose value, which may be
/// left out, is never the next word: after `=` for a long one (`--timing=FILE`), the rest
/// of the word for a short one (`-tFILE`, inside a cluster `-qtFILE`) or for one of one
/// dash and several letters (`-TTCMD`, `-TT=CMD`). None when there is none.
pub fn attached_value(a: &Word, flag: &str) -> Option<Word> {
    let with = |v: &str| {
        (!v.is_empty()).then(|| Word {
            text: v.to_string(),
            literal: a.literal,
        })
    };
    if flag.starts_with("--") {
        return with(a.text.strip_prefix(flag)?.strip_prefix('=')?);
    }
    let letter = match flag.as_bytes() {
        [b'-', l] if l.is_ascii_alphanumeric() => *l,
        _ => {
            let rest = a.text.strip_prefix(flag)?;
            return with(rest.strip_prefix('=').unwrap_or(rest));
        }
    };
    let cluster = a.text.strip_prefix('-').filter(|c| !c.starts_with('-'))?;
    let at = cluster
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric())
        .position(|b| b == letter)?;
    with(&cluster[at + 1..])
}

/// Skips leading options; `value_opts` take the next word as their value.
pub fn skip_options<'w>(args: &'w [Word], value_opts: &[&str]) -> &'w [Word] {
    skip_options_by(args, |t| value_opts.contains(&t))
}

/// Skips leading options; those `takes_value` says take the next word as their value.
pub fn skip_options_by(args: &[Word], takes_value: impl Fn(&str) -> bool) -> &[Word] {
    let mut i = 0;
    while i < args.len() {
        let t = args[i].text.as_str();
        if t == "--" {
            return &args[i + 1..];
        }
        if !t.starts_with('-') || t == "-" {
            // `VAR=x` after sudo is an assignment, not the command.
            if t.contains('=')
                && !t.starts_with('=')
                && t.split('=').next().is_some_and(is_env_name)
            {
                i += 1;
                continue;
            }
            break;
        }
        if takes_value(t) {
            i += 2;
        } else {
            i += 1;
        }
    }
    &args[i.min(args.len())..]
}

/// One use of an option of a list such as `run_flags` in a command's arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OptionUse {
    /// The entry of the list it is (`--checkpoint-action=exec=`).
    pub entry: String,
    /// Its value: `=VALUE`, the rest of a cluster, or the next word.
    pub value: Option<Word>,
    /// Whether the value is surely this option's: a letter after others in a cluster, with
    /// its value in the rest of the word (`-xIf`), reads as `-I f` to getopt and otherwise
    /// in tar's old style.
    pub clear: bool,
}

/// Each use in `args` of an option of `wanted`, read with the arity of the table `eff`:
/// up to `--`; a long option also abbreviated (a prefix of one that the table does not list
/// as an option of its own, as getopt reads it), a one-letter option inside a cluster
/// (the letters before it take no value), a word of one dash (`-TT`) as itself.
pub fn option_uses(args: &[Word], eff: &Effects, wanted: &List) -> Vec<OptionUse> {
    let mut out = Vec::new();
    if wanted.is_empty() {
        return out;
    }
    let with = |text: &str, a: &Word| Word {
        text: text.to_string(),
        literal: a.literal,
    };
    let entry_of = |opt: &str| wanted.iter().find(|e| run_flag_name(e) == opt);
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        let t = a.text.as_str();
        i += 1;
        if t == "--" {
            break;
        }
        if !t.starts_with('-') || t.len() < 2 {
            continue;
        }
        let long = t.starts_with("--") || entry_of(t.split('=').next().unwrap_or(t)).is_some();
        // `-TTCMD`: an entry of one dash and several letters with its value attached, in a
        // word that is no option of the table's own.
        let glued = wanted
            .iter()
            .filter(|_| !long)
            .find(|e| {
                let o = run_flag_name(e);
                o.len() > 2 && !o.starts_with("--") && t.starts_with(o)
            })
            .filter(|_| !eff.names_option(t));
        if let Some(e) = glued {
            let rest = &t[run_flag_name(e).len()..];
            out.push(OptionUse {
                entry: e.to_string(),
                value: Some(with(rest.strip_prefix('=').unwrap_or(rest), a)),
                clear: true,
            });
            continue;
        }
        if long {
            let (opt, attached) = t.split_once('=').map_or((t, None), |(o, v)| (o, Some(v)));
            let entry = entry_of(opt).or_else(|| {
                let abbreviated = opt.len() > 2 && opt.starts_with("--") && !eff.names_option(opt);
                abbreviated
                    .then(|| wanted.iter().find(|e| run_flag_name(e).starts_with(opt)))
                    .flatten()
            });
            let value = match attached {
                Some(v) => Some(with(v, a)),
                None if entry.is_some() || eff.takes_value(opt) => {
                    i += 1;
                    args.get(i - 1).cloned()
                }
                None => None,
            };
            if let Some(e) = entry {
                out.push(OptionUse {
                    entry: e.to_string(),
                    value,
                    clear: true,
                });
            }
            continue;
        }
        let letters = &t[1..];
        for (at, c) in letters.char_indices() {
            if !c.is_ascii_alphanumeric() {
                break;
            }
            let flag = format!("-{c}");
            let entry = entry_of(&flag);
            if entry.is_none() && !eff.takes_value(&flag) {
                continue;
            }
            let rest = &letters[at + c.len_utf8()..];
            let value = if rest.is_empty() {
                i += 1;
                args.get(i - 1).cloned()
            } else {
                Some(with(rest, a))
            };
            if let Some(e) = entry {
                out.push(OptionUse {
                    entry: e.to_string(),
                    value,
                    clear: at == 0 || rest.is_empty(),
                });
            }
            break;
        }
    }
    out
}

/// The use of an option of `wanted` that word `i` starts, read with the arity of the table
/// `eff` as [`option_uses`] reads it, and how many words it takes: 2 when its value is the
/// next word.
pub fn option_use_at(
    args: &[Word],
    i: usize,
    eff: &Effects,
    wanted: &List,
) -> Option<(OptionUse, usize)> {
    let word = args.get(i..=i)?;
    let u = option_uses(word, eff, wanted).into_iter().next()?;
    if u.value.is_some() {
        return Some((u, 1));
    }
    let value = args.get(i + 1).cloned();
    Some((OptionUse { value, ..u }, 2))
}

/// The replace string of a command run once for each input word (`xargs -I R`, `-IR`,
/// `--replace=R`; `-i`, `--replace` without a value: `{}`), given by the options of
/// `flags` in `options`; the last one counts. An option that `takes_value` takes the next
/// word when the value is not in its own.
pub fn replace_string(
    options: &[Word],
    flags: &List,
    takes_value: impl Fn(&str) -> bool,
) -> Option<String> {
    let mut replace: Option<String> = None;
    for (i, a) in options.iter().enumerate() {
        let t = a.text.as_str();
        for f in flags.iter() {
            let short = f.len() == 2 && !f.starts_with("--");
            let attached = if short {
                t.strip_prefix(f)
            } else {
                t.strip_prefix(f).and_then(|r| r.strip_prefix('='))
            };
            if t == f {
                replace = if takes_value(f) {
                    options.get(i + 1).map(|w| w.text.clone())
                } else {
                    Some("{}".into())
                };
            } else if let Some(r) = attached {
                replace = Some(if r.is_empty() {
                    "{}".into()
                } else {
                    r.to_string()
                });
            }
        }
    }
    replace
}

/// Whether `s` can name an environment variable.
pub fn is_env_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && !s.starts_with(|c: char| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flags() {
        let cases: &[(&str, &str, bool)] = &[
            ("-r", "-rf", true),
            ("-r", "-fr", true),
            ("-r", "-R", false),
            ("-r", "--recursive", false),
            ("-i", "-i.bak", true),
            ("-f", "--force", false),
            ("--force", "--force", true),
            ("--force", "--force-with-lease", false),
            ("--force*", "--force-with-lease", true),
            ("--output", "--output=x", true),
            ("-delete", "-delete", true),
        ];
        for (p, a, want) in cases {
            assert_eq!(flag_matches(p, a), *want, "{p} {a}");
        }
    }

    fn words(s: &str) -> Vec<Word> {
        s.split(' ').map(Word::lit).collect()
    }

    /// xargs's replace options: `-I R` takes a value, `-i[R]` and `--replace[=R]` only in
    /// their own word.
    #[test]
    fn replace_strings() {
        let flags: List = ["-I", "-i", "--replace"].into_iter().collect();
        let cases: &[(&str, Option<&str>)] = &[
            ("-I {}", Some("{}")),
            ("-I@", Some("@")),
            ("-n 1 -I %", Some("%")),
            ("-i", Some("{}")),
            ("-iX", Some("X")),
            ("--replace", Some("{}")),
            ("--replace=", Some("{}")),
            ("--replace=@", Some("@")),
            ("-I a -I b", Some("b")),
            ("-I", None),
            ("-0 -n 1", None),
        ];
        for (args, want) in cases {
            let got = replace_string(&words(args), &flags, |f| f == "-I");
            assert_eq!(got.as_deref(), *want, "{args}");
        }
    }

    /// The use of a `code_flags` option at a word, with env's arity (`-u` takes a value).
    #[test]
    fn option_uses_at_a_word() {
        let eff = Effects {
            value_flags: ["-u", "-S", "--split-string"].into_iter().collect(),
            flags: ["-i"].into_iter().collect(),
            ..Effects::default()
        };
        let code: List = ["-S", "--split-string"].into_iter().collect();
        let cases: &[(&str, Option<(&str, usize)>)] = &[
            ("-S x", Some(("x", 2))),
            ("-Sx y", Some(("x", 1))),
            ("-iS x", Some(("x", 2))),
            ("--split-string=x y", Some(("x", 1))),
            ("--split-string x", Some(("x", 2))),
            ("--split x", Some(("x", 2))),
            ("-uS x", None),
            ("-i x", None),
            ("x -S", None),
        ];
        for (args, want) in cases {
            let got = option_use_at(&words(args), 0, &eff, &code)
                .map(|(u, n)| (u.value.map(|w| w.text).unwrap_or_default(), n));
            let want = want.map(|(v, n)| (v.to_string(), n));
            assert_eq!(got, want, "{args}");
        }
    }
}
