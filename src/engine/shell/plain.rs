//! Plain commands: one simple command of plain words, read without the grammar.
//!
//! Most commands an agent runs are one program and a few words of letters, digits and
//! path punctuation: `git status`, `ls -la src`, `cargo test --release`. In such a line no
//! character means anything to the shell but the spaces between words, so its words are
//! its text split at spaces. Reading it so skips the Bash grammar, whose parse tables and
//! code are the largest share of what a short call touches for the first time (each call
//! is a fresh process). Anything else goes to the grammar: a quote, an escape, an
//! expansion, an operator, a redirection, a glob or brace, a comment, a tab or newline, an
//! assignment, a reserved word or a declaration builtin as the first word, a `~` where
//! Bash would expand it. A property test checks that both readings agree on every line
//! this one accepts.

use super::{SimpleCommand, Word};

/// The longest line read here; longer ones are rare and go to the grammar.
const MAX_PLAIN_BYTES: usize = 1024;

/// First words the grammar reads as syntax or as a declaration, not as a command name.
const NOT_A_NAME: &[&str] = &[
    "if", "then", "else", "elif", "fi", "case", "esac", "for", "select", "while", "until", "do",
    "done", "function", "time", "coproc", "in", "declare", "typeset", "export", "local",
    "readonly", "unset",
];

/// The command `src` is, when it is one simple command of plain words.
pub(super) fn command(src: &str) -> Option<SimpleCommand> {
    if src.len() > MAX_PLAIN_BYTES {
        return None;
    }
    let mut words = Vec::new();
    for word in src.split(' ').filter(|w| !w.is_empty()) {
        if !plain_word(word) {
            return None;
        }
        words.push(Word::lit(word));
    }
    let first = words.first()?;
    // `a=b cmd` assigns; the grammar also rejects `@` and `%` in a first word, `NAME+:`
    // (it reads `NAME+` as the start of an `+=` assignment), and some words after a lone
    // `-` (`- a%0`): such lines are no command anyone runs, so they go to the grammar.
    if first.text.contains(['=', '@', '%'])
        || first.text.contains("+:")
        || first.text == "-"
        || NOT_A_NAME.contains(&first.text.as_str())
    {
        return None;
    }
    Some(SimpleCommand {
        words,
        ..SimpleCommand::default()
    })
}

/// Whether `word` holds only characters with no meaning to the shell there. A `~` is
/// plain after a letter or digit (`HEAD~1`): Bash expands it only at the start of a word
/// or after `=` or `:`. A word starting with `=` is left to the grammar, which reads
/// `==` as an operator.
fn plain_word(word: &str) -> bool {
    let b = word.as_bytes();
    if b.first() == Some(&b'=') {
        return false;
    }
    b.iter().enumerate().all(|(i, &c)| match c {
        b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => true,
        b'_' | b'.' | b'/' | b':' | b',' | b'+' | b'@' | b'%' | b'-' | b'=' => true,
        b'~' => i > 0 && b[i - 1].is_ascii_alphanumeric(),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::super::{vars, walk_tree, Script};
    use super::*;
    use proptest::prelude::*;

    /// The script the grammar reads in `src` and the one read here, as text to compare.
    fn both(src: &str) -> (String, Option<String>) {
        let tree = match walk_tree(src, vars::touches_ifs(src)) {
            Ok(script) => format!("{script:?}"),
            Err(failed) => format!("failed: {failed:?}"),
        };
        let plain = command(src).map(|c| {
            format!(
                "{:?}",
                Script {
                    commands: vec![c],
                    ..Script::default()
                }
            )
        });
        (tree, plain)
    }

    #[test]
    fn plain_lines_read_as_the_grammar_reads_them() {
        for src in [
            "git status",
            "git diff --stat HEAD~1",
            "ls -la src",
            "  cargo  test   --release ",
            "make CC=gcc -j4",
            "cd -",
            "./x.sh",
            ". env.sh",
            "rm -rf ./target",
            "curl -o out http://example.com:8080/a,b+c@d",
            "python3 -m pytest -q tests/test_api.py",
            "test -f x",
            "git log -n 5 --format=%h",
        ] {
            let (tree, plain) = both(src);
            assert_eq!(plain.as_deref(), Some(tree.as_str()), "{src:?}");
        }
    }

    #[test]
    fn lines_with_syntax_go_to_the_grammar() {
        for src in [
            "",
            "   ",
            "a=b cmd",
            "if",
            "time ls",
            "export A",
            "unset X",
            "echo ~",
            "ls ~/x",
            "echo :~",
            "echo =~",
            "ls *.rs",
            "echo $HOME",
            "echo 'x'",
            "ls\tsrc",
            "a\nb",
            "echo a # b",
            "echo {a,b}",
            "ls [ab]",
            "a && b",
            "a | b",
            "a; b",
            "a > f",
            "a\\ b",
            "(a)",
            "!",
            "echo \"x\"",
            "echo `x`",
            "a&",
            "%1",
            "a@b x",
            "echo == x",
            "A+:",
            "x+: y",
            "- a%0",
        ] {
            assert_eq!(command(src), None, "{src:?}");
        }
    }

    proptest! {
        #[test]
        fn whenever_a_line_is_plain_both_readings_agree(
            words in prop::collection::vec(
                prop_oneof![
                    "[a-zA-Z0-9_./:,+@%=~-]{1,8}",
                    Just("if".to_string()),
                    Just("declare".to_string()),
                    Just("HEAD~2".to_string()),
                    Just("--".to_string()),
                ],
                1..6,
            ),
            gaps in prop::collection::vec(1usize..3, 6),
        ) {
            let mut src = String::new();
            for (w, gap) in words.iter().zip(&gaps) {
                src.push_str(w);
                src.push_str(&" ".repeat(*gap));
            }
            let (tree, plain) = both(&src);
            if let Some(plain) = plain {
                prop_assert_eq!(plain, tree, "{:?}", src);
            }
        }
    }
}
