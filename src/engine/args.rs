//! Reading a command's arguments: options, their values, and the positional words.
//!
//! Both the analyser (which finds the files and programs in a command) and the classifier
//! (which matches rules' `flags_any`, `subcommand` and `path_class`) read arguments the same
//! way; this module is that one way, so the two can never disagree about what an option is.

use super::paths::component_match;
use super::policy::List;
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
            if value_flags.iter().any(|f| f == t) {
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
        return arg == pattern || arg.starts_with(&format!("{pattern}="));
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
        if flag.starts_with("--") {
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

/// Skips leading options; `value_opts` take the next word as their value.
pub fn skip_options<'w>(args: &'w [Word], value_opts: &[&str]) -> &'w [Word] {
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
        if value_opts.contains(&t) {
            i += 2;
        } else {
            i += 1;
        }
    }
    &args[i.min(args.len())..]
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
}
