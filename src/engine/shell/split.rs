//! The top-level statements of a command, found by one cheap pass over the text, for
//! input that is not parsed: over the parsing budget, or not valid Bash. A forbidden part
//! may still be seen in them (`true; …4,000 parts…; rm -rf ~`).
//!
//! The pass knows quotes, escapes, comments, `$(…)` and backquotes, heredoc bodies, and
//! the compound commands a statement may span (`(…)`, `{ …; }`, `if … fi`, `case … esac`,
//! loops up to `done`). It splits at `;`, `&`, `&&`, `||` and line breaks outside all of
//! them, not at `|`, so a pipeline stays whole. It is not a parse: a statement it gets
//! wrong does not parse and is left out, and each one is judged on its own, as if it ran
//! in the folder the command starts in.

use std::ops::Range;

use super::cost::{heredoc_start, skip_bodies, skip_single, Heredoc};

/// A lexer state.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Frame {
    /// Code: the `(` open in it, and what ends it (`None` at the top, `Some(b')')` for
    /// `$(…)`, `Some(b'`')` for backquotes).
    Code { parens: usize, closes: Option<u8> },
    /// Inside `"…"`.
    Double,
}

/// The pass: where the statement being read started, and the state of the lexer.
struct Splitter<'a> {
    b: &'a [u8],
    out: Vec<Range<usize>>,
    start: usize,
    stack: Vec<Frame>,
    /// Heredocs whose bodies start at the next line break.
    pending: Vec<Heredoc>,
    /// Compound commands open at the top level (`if`, `{`, loops, `case`).
    blocks: usize,
    /// Whether a word here would be in command position.
    at_command: bool,
    /// A heredoc starts on this line: the line and the bodies after it stay one statement.
    hold: bool,
}

impl Splitter<'_> {
    /// Ends a statement at a separator from `end` to `next`, at the top level.
    fn separator(&mut self, outermost: bool, end: usize, next: usize) {
        if outermost && !self.hold {
            self.cut(end, next);
        }
        self.at_command = true;
    }

    fn cut(&mut self, end: usize, next: usize) {
        self.hold = false;
        if self.start < end {
            self.out.push(self.start..end);
        }
        self.start = next;
        self.at_command = true;
    }

    /// A plain word at `i` (at the top level): its end; keywords open and close blocks.
    fn word(&mut self, i: usize) -> usize {
        let end = self.b[i..]
            .iter()
            .position(|c| is_meta(*c) || matches!(c, b'\'' | b'"' | b'`' | b'\\'))
            .map_or(self.b.len(), |p| i + p);
        let word = &self.b[i..end];
        if self.at_command {
            match word {
                b"if" | b"case" | b"for" | b"while" | b"until" | b"select" | b"{" => {
                    self.blocks += 1
                }
                b"fi" | b"esac" | b"done" | b"}" => self.blocks = self.blocks.saturating_sub(1),
                _ => {}
            }
        }
        self.at_command = matches!(
            word,
            b"then" | b"do" | b"else" | b"elif" | b"!" | b"if" | b"while" | b"until" | b"{"
        );
        end.max(i + 1)
    }

    /// A line break at `i`: the end of a statement, and of the heredoc bodies after it.
    fn line_break(&mut self, outermost: bool, i: usize) -> usize {
        let skipped = (!self.pending.is_empty()).then(|| skip_bodies(self.b, i + 1, &self.pending));
        self.pending.clear();
        match skipped {
            Some(Some((end, _))) => {
                if outermost {
                    self.cut(end, end);
                }
                self.at_command = true;
                return end;
            }
            _ if outermost => self.cut(i, i + 1),
            _ => self.at_command = true,
        }
        i + 1
    }

    /// One step in code at `i` (the top frame is `Code { parens, closes }`); returns where
    /// to go on.
    fn code(&mut self, i: usize, parens: usize, closes: Option<u8>) -> usize {
        let b = self.b;
        let c = b[i];
        let outermost = self.stack.len() == 1 && parens == 0 && self.blocks == 0;
        let next = b.get(i + 1).copied();
        let prev = i.checked_sub(1).map(|p| b[p]);
        match c {
            b'\\' => return i + 2,
            b'\'' => return skip_single(b, i + 1) + 1,
            b'$' if next == Some(b'\'') => return skip_ansi(b, i + 2) + 1,
            b'"' => self.stack.push(Frame::Double),
            b'`' if closes == Some(b'`') => {
                self.stack.pop();
            }
            b'`' => self.push_code(Some(b'`')),
            b'$' if next == Some(b'(') => {
                self.push_code(Some(b')'));
                return i + 2;
            }
            // A comment runs to the end of the line.
            b'#' if prev.is_none_or(is_meta) => {
                return b[i..]
                    .iter()
                    .position(|&x| x == b'\n')
                    .map_or(b.len(), |p| i + p);
            }
            b'(' => set_parens(&mut self.stack, parens + 1),
            b')' if parens == 0 && closes == Some(b')') => {
                self.stack.pop();
            }
            b')' => set_parens(&mut self.stack, parens.saturating_sub(1)),
            b'<' if next == Some(b'<') && b.get(i + 2) != Some(&b'<') => {
                self.hold |= outermost;
                return heredoc_start(b, i + 2, &mut self.pending);
            }
            b'\n' => return self.line_break(outermost, i),
            b'&' | b'|' if next == Some(c) => {
                self.separator(outermost, i, i + 2);
                return i + 2;
            }
            // `&>`, `>&2`, `<&0` are redirections.
            b'&' if next != Some(b'>') && !matches!(prev, Some(b'>' | b'<')) => {
                self.separator(outermost, i, i + 1)
            }
            b';' => self.separator(outermost, i, i + 1),
            b'|' => self.at_command = true,
            b' ' | b'\t' | b'&' | b'<' | b'>' => {}
            _ if self.stack.len() == 1 && parens == 0 => return self.word(i),
            _ => {}
        }
        i + 1
    }

    fn push_code(&mut self, closes: Option<u8>) {
        self.stack.push(Frame::Code { parens: 0, closes });
    }
}

fn is_meta(c: u8) -> bool {
    matches!(
        c,
        b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'(' | b')' | b'<' | b'>'
    )
}

/// The byte ranges of the top-level statements of `src` (see the module docs).
pub fn statements(src: &str) -> Vec<Range<usize>> {
    let b = src.as_bytes();
    let mut s = Splitter {
        b,
        out: Vec::new(),
        start: 0,
        stack: vec![Frame::Code {
            parens: 0,
            closes: None,
        }],
        pending: Vec::new(),
        blocks: 0,
        at_command: true,
        hold: false,
    };
    let mut i = 0;
    while i < b.len() {
        i = match s.stack.last().copied() {
            Some(Frame::Code { parens, closes }) => s.code(i, parens, closes),
            Some(Frame::Double) => in_double(b, i, &mut s.stack),
            None => break,
        };
    }
    s.cut(b.len(), b.len());
    s.out
}

fn set_parens(stack: &mut [Frame], to: usize) {
    if let Some(Frame::Code { parens, .. }) = stack.last_mut() {
        *parens = to;
    }
}

/// One step inside `"…"` at `i`; returns where to go on.
fn in_double(b: &[u8], i: usize, stack: &mut Vec<Frame>) -> usize {
    match b[i] {
        b'\\' => i + 2,
        b'"' => {
            stack.pop();
            i + 1
        }
        b'$' if b.get(i + 1) == Some(&b'(') => {
            stack.push(Frame::Code {
                parens: 0,
                closes: Some(b')'),
            });
            i + 2
        }
        b'`' => {
            stack.push(Frame::Code {
                parens: 0,
                closes: Some(b'`'),
            });
            i + 1
        }
        _ => i + 1,
    }
}

/// The index of the `'` that closes a `$'…'` string opened before `i` (`\'` escapes one).
fn skip_ansi(b: &[u8], mut i: usize) -> usize {
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'\'' => return i,
            _ => i += 1,
        }
    }
    b.len()
}

/// Whether statement `text` surely does nothing that matters: `true`, `:`, `false` or
/// `echo` with plain words and nothing else (no expansion, quote or redirection).
pub fn is_inert(text: &str) -> bool {
    let mut words = text.split_ascii_whitespace();
    let plain = text
        .bytes()
        .all(|c| c.is_ascii_alphanumeric() || b" \t-_.,/+:@%".contains(&c));
    plain
        && words
            .next()
            .is_some_and(|w| matches!(w, "true" | ":" | "false" | "echo"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(src: &str) -> Vec<&str> {
        statements(src).into_iter().map(|r| src[r].trim()).collect()
    }

    #[test]
    fn splits_at_top_level_separators() {
        let cases: &[(&str, &[&str])] = &[
            ("a; b && c || d & e\nf", &["a", "b", "c", "d", "e", "f"]),
            ("a | b; c", &["a | b", "c"]),
            (
                "echo 'x; y' \"a; $(b; c)\" `d; e`; f",
                &["echo 'x; y' \"a; $(b; c)\" `d; e`", "f"],
            ),
            ("(a; b); { c; d; }; e", &["(a; b)", "{ c; d; }", "e"]),
            ("if a; then b; fi; c", &["if a; then b; fi", "c"]),
            (
                "for i in 1 2; do a; done && b",
                &["for i in 1 2; do a; done", "b"],
            ),
            ("case x in a) b;; esac; c", &["case x in a) b;; esac", "c"]),
            (
                "while a; do if b; then c; fi; done; d",
                &["while a; do if b; then c; fi; done", "d"],
            ),
            ("echo if; a", &["echo if", "a"]),
            ("a # b; c\nd", &["a # b; c", "d"]),
            ("a 2>&1 &> f; b", &["a 2>&1 &> f", "b"]),
            (
                "a; cat <<EOF; b\nx; y\nEOF\nc",
                &["a", "cat <<EOF; b\nx; y\nEOF", "c"],
            ),
            ("echo $'a\\'; b'; c", &["echo $'a\\'; b'", "c"]),
            ("rm -rf / ) (", &["rm -rf / ) ("]),
        ];
        for (src, want) in cases {
            assert_eq!(parts(src), *want, "{src:?}");
        }
    }

    #[test]
    fn inert_statements() {
        assert!(is_inert("true"));
        assert!(is_inert("echo a b-c"));
        assert!(!is_inert("echo $x"));
        assert!(!is_inert("echo a > f"));
        assert!(!is_inert("rm -rf x"));
        assert!(!is_inert("printf x"));
    }
}
