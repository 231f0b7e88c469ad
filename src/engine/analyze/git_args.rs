//! Reading git's words the way git does: abbreviated long options written out, alias text
//! split into words, `ext::` remote commands decoded, settings given in the environment.
//! Pure functions; `git` uses them.

use crate::engine::policy::{Effects, Policy};
use crate::engine::shell::Word;

/// The settings git reads from `GIT_CONFIG_COUNT`/`GIT_CONFIG_KEY_n`/`GIT_CONFIG_VALUE_n` and
/// `GIT_CONFIG_PARAMETERS` among `assignments`: none when these are not set there, the
/// (key, value) pairs when they can be known, else why not.
pub(super) fn env_settings(
    assignments: &[(String, Word)],
) -> Option<Result<Vec<(String, Word)>, String>> {
    if !assignments.iter().any(|(n, _)| is_config_env(n)) {
        return None;
    }
    let get = |name: &str| {
        assignments
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v)
    };
    let mut out = Vec::new();
    if let Some(p) = get("GIT_CONFIG_PARAMETERS") {
        if !p.literal {
            return Some(Err("GIT_CONFIG_PARAMETERS is known only at run time".into()));
        }
        match parse_parameters(&p.text) {
            Some(pairs) => out.extend(pairs.into_iter().map(|(k, v)| (k, Word::lit(&v)))),
            None => {
                return Some(Err(
                    "GIT_CONFIG_PARAMETERS is not in git's quoted form".into()
                ))
            }
        }
    }
    let numbered = assignments.iter().any(|(n, _)| {
        n == "GIT_CONFIG_COUNT"
            || n.starts_with("GIT_CONFIG_KEY_")
            || n.starts_with("GIT_CONFIG_VALUE_")
    });
    if numbered {
        // Without a count set here, one set earlier may make git read these entries.
        let count = match get("GIT_CONFIG_COUNT") {
            Some(c) if c.literal => c.text.trim().parse::<usize>().ok(),
            _ => None,
        };
        let Some(count) = count.filter(|c| *c <= 64) else {
            return Some(Err("GIT_CONFIG_COUNT is not a known small number".into()));
        };
        for i in 0..count {
            match (
                get(&format!("GIT_CONFIG_KEY_{i}")),
                get(&format!("GIT_CONFIG_VALUE_{i}")),
            ) {
                (Some(k), Some(v)) if k.literal => {
                    out.push((k.text.to_ascii_lowercase(), v.clone()))
                }
                _ => {
                    return Some(Err(format!(
                        "GIT_CONFIG_KEY_{i} or GIT_CONFIG_VALUE_{i} is not known"
                    )))
                }
            }
        }
    }
    Some(Ok(out))
}

/// The variables that give git settings one by one.
pub(super) fn is_config_env(name: &str) -> bool {
    name == "GIT_CONFIG_COUNT"
        || name == "GIT_CONFIG_PARAMETERS"
        || name.strip_prefix("GIT_CONFIG_KEY_").is_some_and(is_number)
        || name
            .strip_prefix("GIT_CONFIG_VALUE_")
            .is_some_and(is_number)
}

fn is_number(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// `'core.pager'='less' 'alias.x=!ls'`: git's own quoting of the settings it hands to the
/// git commands it runs. None when the text is not in that form.
pub(super) fn parse_parameters(text: &str) -> Option<Vec<(String, String)>> {
    let mut out = Vec::new();
    let mut rest = text.trim_start();
    while !rest.is_empty() {
        let (first, after) = single_quoted(rest)?;
        let (key, value, after) = match after.strip_prefix('=') {
            Some(v) if v.starts_with('\'') => {
                let (value, after) = single_quoted(v)?;
                (first, value, after)
            }
            Some(_) => return None,
            None => match first.split_once('=') {
                Some((k, v)) => (k.to_string(), v.to_string(), after),
                None => (first.clone(), String::new(), after),
            },
        };
        out.push((key.to_ascii_lowercase(), value));
        if !(after.is_empty() || after.starts_with(' ')) {
            return None;
        }
        rest = after.trim_start();
    }
    Some(out)
}

/// One `'…'` string with git's `'\''` for a quote inside, and what follows it.
fn single_quoted(s: &str) -> Option<(String, &str)> {
    let mut rest = s.strip_prefix('\'')?;
    let mut out = String::new();
    loop {
        let end = rest.find('\'')?;
        out.push_str(&rest[..end]);
        rest = &rest[end + 1..];
        match rest.strip_prefix("\\''") {
            Some(more) => {
                out.push('\'');
                rest = more;
            }
            None => return Some((out, rest)),
        }
    }
}

/// An alias's text split into words as git splits it (`split_cmdline`): spaces separate,
/// single and double quotes group, a backslash escapes the next character. None for an
/// unclosed quote.
pub(super) fn split_cmdline(text: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            (None, '\'' | '"') => {
                quote = Some(c);
                in_word = true;
            }
            (Some(q), c) if c == q => quote = None,
            (Some('\''), c) => cur.push(c),
            (_, '\\') => {
                cur.push(chars.next()?);
                in_word = true;
            }
            (_, c) => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return None;
    }
    if in_word {
        words.push(cur);
    }
    Some(words)
}

/// The command an `ext::` remote runs (`ext::sh -c cmd% arg`): its words, split on spaces
/// with `% ` a space, `%%` a percent and `%s`/`%S` the service git asks for; `%G…` and
/// `%V…` words are taken out. None for another kind of URL.
pub(super) fn ext_command(url: &Word) -> Option<Vec<Word>> {
    let spec = url.text.strip_prefix("ext::")?;
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut chars = spec.chars().peekable();
    let push = |cur: &mut String, words: &mut Vec<Word>| {
        if !cur.is_empty() && !cur.starts_with("\u{0}G") && !cur.starts_with("\u{0}V") {
            words.push(Word {
                text: std::mem::take(cur),
                literal: url.literal,
            });
        }
        cur.clear();
    };
    while let Some(c) = chars.next() {
        match c {
            ' ' => push(&mut cur, &mut words),
            '%' => match chars.next() {
                Some(' ') => cur.push(' '),
                Some('%') => cur.push('%'),
                Some('s') => cur.push_str("upload-pack"),
                Some('S') => cur.push_str("git-upload-pack"),
                // Only a whole word: the rest of it names the repository or host.
                Some(x @ ('G' | 'V')) if cur.is_empty() => {
                    cur.push('\u{0}');
                    cur.push(x);
                }
                Some(x) => {
                    cur.push('%');
                    cur.push(x);
                }
                None => cur.push('%'),
            },
            c => cur.push(c),
        }
    }
    push(&mut cur, &mut words);
    Some(words)
}

/// Words quoted for a shell, to hand arguments to a script: literal ones in single quotes;
/// the others in double quotes, so that what they expand to stays unknown.
pub(super) fn shell_quote(words: &[Word]) -> String {
    let mut out = String::new();
    for w in words {
        if !out.is_empty() {
            out.push(' ');
        }
        if w.literal {
            out.push('\'');
            out.push_str(&w.text.replace('\'', "'\\''"));
            out.push('\'');
        } else {
            out.push('"');
            out.push_str(&w.text.replace('\\', "\\\\").replace('"', "\\\""));
            out.push('"');
        }
    }
    out
}

/// `KEY=VALUE` of `git -c`: the key (lowercased) and the value, unknown when the word is;
/// none when even the key is not known. A key without `=` is a boolean set to true.
pub(super) fn setting(kv: &Word) -> Option<(String, Word)> {
    let (key, value) = kv.text.split_once('=').unwrap_or((&kv.text, ""));
    let plain = key
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'));
    if key.is_empty() || !(plain || kv.literal) {
        return None;
    }
    Some((
        key.to_ascii_lowercase(),
        Word {
            text: value.to_string(),
            literal: kv.literal,
        },
    ))
}

/// Writes out the abbreviated long options of a git subcommand's words (`args[0]` is the
/// subcommand), as git's option parser reads them: `--mirr` is `--mirror`. A prefix of
/// several options (which git refuses) stands for all of them. A value given in the next
/// word that starts with `-` is joined to its option (`-o --dry-run` becomes
/// `-o--dry-run`), so that it is not read as an option of its own. The options are those
/// of the subcommand's built-in table (`long_options`, `long_value_options`,
/// `short_value_options` of `[commands."git SUB"]`): a user's or project's table of the
/// same name replaces the one in force, and could otherwise take an expansion away.
pub(super) fn normalize_options(args: &mut Vec<Word>) {
    let Some(table) = args
        .first()
        .filter(|w| w.literal)
        .and_then(|s| options_of(&s.text))
    else {
        return;
    };
    let mut i = 1;
    while i < args.len() {
        let w = &args[i];
        if !w.literal || w.text == "--" {
            if w.text == "--" {
                return;
            }
            i += 1;
            continue;
        }
        let takes_next = if w.text.starts_with("--") {
            let (option, value) = match w.text.split_once('=') {
                Some((n, v)) => (n, Some(v)),
                None => (w.text.as_str(), None),
            };
            let options = expand_long(table, option);
            let takes = value.is_none()
                && options.len() == 1
                && table.long_value_options.contains(options[0]);
            if options.first().is_some_and(|n| *n != option) {
                let value = value.map(|v| format!("={v}")).unwrap_or_default();
                let new: Vec<Word> = options
                    .iter()
                    .map(|n| Word::lit(&format!("{n}{value}")))
                    .collect();
                let count = new.len();
                args.splice(i..=i, new);
                i += count - 1;
            }
            takes
        } else if w.text.starts_with('-') && w.text.len() > 1 {
            // In a cluster, the first letter that takes a value takes the rest, or the next word.
            let letters = &w.text[1..];
            letters
                .char_indices()
                .find(|(_, c)| takes_short_value(table, *c))
                .is_some_and(|(at, c)| at + c.len_utf8() == letters.len())
        } else {
            false
        };
        if takes_next && args.get(i + 1).is_some_and(|n| n.text.starts_with('-')) {
            let next = args.remove(i + 1);
            let joined = if args[i].text.starts_with("--") {
                format!("{}={}", args[i].text, next.text)
            } else {
                format!("{}{}", args[i].text, next.text)
            };
            args[i] = Word {
                text: joined,
                literal: next.literal,
            };
        } else if takes_next {
            i += 1;
        }
        i += 1;
    }
}

/// The built-in table of git subcommand `sub` when it lists the subcommand's long options.
fn options_of(sub: &str) -> Option<&'static Effects> {
    Policy::builtin_effects(&format!("git {sub}")).filter(|e| !e.long_options.is_empty())
}

/// Whether one-letter option `-c` takes a value.
fn takes_short_value(table: &Effects, c: char) -> bool {
    let mut buf = [0u8; 5];
    buf[0] = b'-';
    let len = 1 + c.encode_utf8(&mut buf[1..]).len();
    std::str::from_utf8(&buf[..len]).is_ok_and(|o| table.short_value_options.contains(o))
}

/// The options a long option (`--name`) stands for: itself when it is one (or none is
/// known), else every option it is a prefix of.
fn expand_long<'n>(table: &'static Effects, option: &'n str) -> Vec<&'n str> {
    if option == "--" || table.long_options.contains(option) {
        return vec![option];
    }
    let found: Vec<&str> = table
        .long_options
        .iter()
        .filter(|o| o.starts_with(option))
        .collect();
    if found.is_empty() {
        vec![option]
    } else {
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(args: &[&str]) -> Vec<Word> {
        args.iter().map(|a| Word::lit(a)).collect()
    }

    fn texts(args: &[Word]) -> Vec<&str> {
        args.iter().map(|w| w.text.as_str()).collect()
    }

    #[test]
    fn long_options_are_written_out() {
        let cases: &[(&[&str], &[&str])] = &[
            (
                &["push", "--mirr", "origin"],
                &["push", "--mirror", "origin"],
            ),
            (
                &["push", "--force-with-l=main"],
                &["push", "--force-with-lease=main"],
            ),
            (
                &["push", "--forc"],
                &[
                    "push",
                    "--force",
                    "--force-if-includes",
                    "--force-with-lease",
                ],
            ),
            (&["push", "--force"], &["push", "--force"]),
            (
                &["push", "-o", "--dry-run", "-f"],
                &["push", "-o--dry-run", "-f"],
            ),
            (
                &["push", "--push-opt", "--dry-run", "-f"],
                &["push", "--push-option=--dry-run", "-f"],
            ),
            (&["push", "--", "--mirr"], &["push", "--", "--mirr"]),
            (&["reset", "--ha"], &["reset", "--hard"]),
            (&["clean", "--forc", "-d"], &["clean", "--force", "-d"]),
            (&["log", "--outp=x"], &["log", "--outp=x"]),
            (&["push", "--zzz"], &["push", "--zzz"]),
        ];
        for (input, want) in cases {
            let mut args = words(input);
            normalize_options(&mut args);
            assert_eq!(texts(&args), *want, "{input:?}");
        }
    }

    #[test]
    fn alias_text_is_split_like_git() {
        assert_eq!(
            split_cmdline("push --force"),
            Some(vec!["push".into(), "--force".into()])
        );
        assert_eq!(
            split_cmdline("log --format='%h %s'"),
            Some(vec!["log".into(), "--format=%h %s".into()])
        );
        assert_eq!(
            split_cmdline(r#"commit -m "a \"b\"""#),
            Some(vec!["commit".into(), "-m".into(), "a \"b\"".into()])
        );
        assert_eq!(split_cmdline("x 'y"), None);
    }

    #[test]
    fn ext_remotes_name_their_command() {
        let w = ext_command(&Word::lit("ext::sh -c rm% -rf% ~ %G/repo")).expect("ext");
        assert_eq!(texts(&w), ["sh", "-c", "rm -rf ~"]);
        assert!(ext_command(&Word::lit("https://x/r")).is_none());
    }

    #[test]
    fn environment_settings() {
        let a = |pairs: &[(&str, &str)]| -> Vec<(String, Word)> {
            pairs
                .iter()
                .map(|(n, v)| (n.to_string(), Word::lit(v)))
                .collect()
        };
        let got = env_settings(&a(&[
            ("GIT_CONFIG_COUNT", "1"),
            ("GIT_CONFIG_KEY_0", "core.pager"),
            ("GIT_CONFIG_VALUE_0", "rm -rf ~"),
        ]));
        let got = got.expect("set").expect("known");
        assert_eq!(got[0].0, "core.pager");
        assert_eq!(got[0].1.text, "rm -rf ~");
        assert!(env_settings(&a(&[("GIT_CONFIG_KEY_0", "core.pager")]))
            .expect("set")
            .is_err());
        assert!(env_settings(&a(&[("FOO", "1")])).is_none());
        let p = parse_parameters("'core.pager'='rm -rf ~' 'alias.x=!ls'").expect("parsed");
        assert_eq!(
            p,
            vec![
                ("core.pager".into(), "rm -rf ~".into()),
                ("alias.x".into(), "!ls".into())
            ]
        );
        assert_eq!(
            parse_parameters("'it'\\''s'"),
            Some(vec![("it's".into(), String::new())])
        );
        assert!(parse_parameters("core.pager=x").is_none());
    }

    /// Git's tables (`policy/17-options-git.toml`, `git_tables.rs`) are what
    /// `scripts/git-tables.py` writes from the git version they name: compared where that
    /// git and python3 are at hand, skipped loudly elsewhere.
    #[test]
    fn git_tables_are_the_generators_output() {
        use std::process::Command;
        let toml = include_str!("../../../policy/17-options-git.toml");
        let rust = include_str!("git_tables.rs");
        let named = toml
            .split("Generated from git ")
            .nth(1)
            .and_then(|r| r.split(|c: char| c.is_whitespace() || c == ':').next())
            .expect("the file names the git it was generated from");
        assert!(
            rust.contains(&format!("Generated from git {named} ")),
            "policy/17-options-git.toml and git_tables.rs name different gits"
        );
        let here = Command::new("git")
            .arg("--version")
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).to_string())
            .unwrap_or_default();
        if !here.starts_with(&format!("git version {named}.")) {
            eprintln!("!!!!! SKIPPED: git tables: generated from git {named}, here {here:?}");
            return;
        }
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/git-tables.py");
        let Ok(out) = Command::new("python3").arg(script).arg("--print").output() else {
            eprintln!("!!!!! SKIPPED: git tables: no python3 to run {script}");
            return;
        };
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let out = String::from_utf8_lossy(&out.stdout);
        assert!(
            out == format!("{toml}#@@\n{rust}"),
            "policy/17-options-git.toml or src/engine/analyze/git_tables.rs is not the output of scripts/git-tables.py; run it again"
        );
    }
}
