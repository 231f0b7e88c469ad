//! A cheap first pass that bounds the parser's work before the parser runs.
//!
//! tree-sitter's time grows with the number of tokens, not bytes: a 100 KB heredoc is one
//! token and parses in well under a millisecond, while 100 KB of short chained commands is
//! some 30,000 tokens and takes tens of milliseconds, and a very long pipeline grows worse
//! than linearly (each `|` stage costs several times a word, and a broken one can take
//! seconds to recover from). So before parsing, this pass walks the bytes once with a
//! small lexer (quotes, escapes, comments, `$(…)` and backquotes inside double quotes,
//! heredoc bodies) and counts the pieces the parser will build: words, operators,
//! expansions, quoted strings, weighting a pipe `|` more. The count is an estimate, not a
//! parse; it only decides whether the command is small enough to be analysed in time.
//! A command over the budget is not analysed part by part (it is Confirm), so the
//! estimate never makes a command safer than it is.

/// What each piece costs, relative to a plain word. tree-sitter's time per piece differs:
/// a pipeline stage, a double-quoted string (open, contents, close) and an expansion each
/// cost several words' worth.
const PIPE: usize = 8;
const DOUBLE_QUOTE: usize = 3;
const EXPANSION: usize = 2;

/// One lexer state.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Frame {
    /// Shell code. `parens` counts the `(` opened inside this frame; while it is at least
    /// `arith_from` (when not 0) the code is arithmetic (`$(( … ))`, `(( … ))`), where
    /// every operator character is a token of its own.
    Code {
        parens: usize,
        arith_from: usize,
        closes_with: Close,
    },
    /// Inside `"…"`.
    Double,
}

impl Frame {
    fn code(closes_with: Close) -> Frame {
        Frame::Code {
            parens: 0,
            arith_from: 0,
            closes_with,
        }
    }
}

/// What ends a code frame nested in a double-quoted string.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Close {
    /// The top level: nothing.
    Never,
    /// `$(…)`: the `)` that balances it.
    Paren,
    /// `` `…` ``: the next unescaped backquote.
    Backquote,
}

/// Characters inside a word that the parser reads as pieces of their own: brace
/// expansions, globs, subscripts, assignments.
fn splits_word(c: u8) -> bool {
    matches!(c, b'{' | b'}' | b',' | b'=' | b'[' | b']' | b'*' | b'?')
}

/// The estimated number of pieces the parser builds for `src` (see the module docs).
/// Stops counting once `limit` is passed, so an oversize command costs little to reject.
pub fn estimate(src: &str, limit: usize) -> usize {
    let mut count = Count {
        b: src.as_bytes(),
        i: 0,
        cost: 0,
        stack: vec![Frame::code(Close::Never)],
        pending: Vec::new(),
        in_word: false,
    };
    while count.i < count.b.len() && count.cost <= limit {
        let c = count.b[count.i];
        let next = match *count.stack.last().unwrap_or(&Frame::Double) {
            Frame::Double => {
                count.double_quoted(c);
                Step::Next
            }
            Frame::Code {
                parens,
                arith_from,
                closes_with,
            } => count.code(c, parens, arith_from, closes_with),
        };
        if next == Step::Next {
            count.i += 1;
        }
    }
    count.cost
}

/// Where the count goes on after a byte.
#[derive(PartialEq, Eq)]
enum Step {
    /// At the next byte.
    Next,
    /// At the byte `i` now points to.
    Here,
}

/// The lexer's state while it counts: the bytes, where it is, the cost so far.
struct Count<'b> {
    b: &'b [u8],
    i: usize,
    cost: usize,
    stack: Vec<Frame>,
    /// Heredoc delimiters whose bodies start at the next newline.
    pending: Vec<Heredoc>,
    in_word: bool,
}

impl Count<'_> {
    /// Byte `c` inside `"…"`.
    fn double_quoted(&mut self, c: u8) {
        match c {
            b'\\' => self.i += 1,
            // The parser reads a quoted string line by line.
            b'\n' => self.cost += 1,
            b'"' => {
                self.stack.pop();
            }
            b'$' if self.b.get(self.i + 1) == Some(&b'(') => {
                self.cost += EXPANSION;
                self.i += 1;
                self.in_word = false;
                self.stack.push(Frame::code(Close::Paren));
            }
            b'$' => self.cost += EXPANSION,
            b'`' => {
                self.cost += EXPANSION;
                self.in_word = false;
                self.stack.push(Frame::code(Close::Backquote));
            }
            _ => {}
        }
    }

    /// Byte `c` in shell code (a [`Frame::Code`] with these fields).
    fn code(&mut self, c: u8, parens: usize, arith_from: usize, closes_with: Close) -> Step {
        let word_char = !matches!(
            c,
            b' ' | b'\t' | b'\n' | b'|' | b'&' | b';' | b'(' | b')' | b'<' | b'>'
        );
        if c == b'#' && !self.in_word {
            self.skip_comment();
            return Step::Here;
        }
        if word_char && !self.in_word {
            self.cost += 1;
        }
        self.in_word = word_char;
        let arith = arith_from > 0 && parens >= arith_from;
        match c {
            b'\\' | b'\'' | b'"' | b'$' | b'`' => self.quote_or_expansion(c, closes_with),
            b'(' => self.open_paren(parens, arith_from),
            b')' => self.close_paren(parens, arith_from, closes_with),
            b'|' | b'&' | b';' | b'<' | b'>' => return self.operator(c, arith),
            b'\n' => return self.newline(),
            _ if arith && !c.is_ascii_alphanumeric() && c != b'_' => {
                self.cost += 1;
                self.in_word = false;
            }
            _ if splits_word(c) => self.cost += 1,
            _ => {}
        }
        Step::Next
    }

    /// A comment runs to the end of the line; the newline is read next.
    fn skip_comment(&mut self) {
        while self.i + 1 < self.b.len() && self.b[self.i + 1] != b'\n' {
            self.i += 1;
        }
        self.i += 1;
    }

    /// An escape, a quote, `$` or a backquote in code.
    fn quote_or_expansion(&mut self, c: u8, closes_with: Close) {
        match c {
            b'\\' => self.i += 1,
            b'\'' => {
                self.cost += 1;
                self.i = skip_single(self.b, self.i + 1);
            }
            b'"' => {
                self.cost += DOUBLE_QUOTE;
                self.stack.push(Frame::Double);
            }
            b'`' if closes_with == Close::Backquote => {
                self.stack.pop();
            }
            b'`' => {
                self.cost += EXPANSION;
                self.in_word = false;
                self.stack.push(Frame::code(Close::Backquote));
            }
            _ => self.cost += EXPANSION,
        }
    }

    /// `(`: a subshell, a group of a `$(…)`, or the start of arithmetic (`((`).
    fn open_paren(&mut self, parens: usize, arith_from: usize) {
        self.cost += 1;
        let arith_from = if arith_from == 0 && self.b.get(self.i + 1) == Some(&b'(') {
            parens + 1
        } else {
            arith_from
        };
        set_code(&mut self.stack, parens + 1, arith_from);
    }

    /// `)`: the end of a `$(…)` or of a parenthesis opened in this frame.
    fn close_paren(&mut self, parens: usize, arith_from: usize, closes_with: Close) {
        if parens == 0 && closes_with == Close::Paren {
            self.stack.pop();
            return;
        }
        self.cost += 1;
        let parens = parens.saturating_sub(1);
        let arith_from = if parens < arith_from { 0 } else { arith_from };
        set_code(&mut self.stack, parens, arith_from);
    }

    /// `|`, `&`, `;`, `<`, `>` (a pipe costs more; `<<` starts a heredoc).
    fn operator(&mut self, c: u8, arith: bool) -> Step {
        let next = self.b.get(self.i + 1);
        match c {
            b'|' if next == Some(&b'|') => {
                self.cost += 1;
                self.i += 1;
            }
            b'|' if !arith => self.cost += PIPE,
            b'<' if !arith && next == Some(&b'<') && self.b.get(self.i + 2) != Some(&b'<') => {
                // The operator and the delimiter.
                self.cost += 2;
                self.i = heredoc_start(self.b, self.i + 2, &mut self.pending);
                return Step::Here;
            }
            _ => self.cost += 1,
        }
        Step::Next
    }

    /// A newline in code: the heredoc bodies it starts are skipped.
    fn newline(&mut self) -> Step {
        self.cost += 1;
        // Bodies that end where expected are skipped; if one never ends, the parser may
        // not see a heredoc at all, so the text is counted as code.
        let skipped = skip_bodies(self.b, self.i + 1, &self.pending);
        self.pending.clear();
        match skipped {
            Some((end, body_cost)) => {
                self.cost += body_cost;
                self.i = end;
                Step::Here
            }
            None => Step::Next,
        }
    }
}

/// A heredoc whose body is still to come.
pub(super) struct Heredoc {
    delimiter: Vec<u8>,
    /// `<<-`: leading tabs are stripped from the body's lines.
    strip_tabs: bool,
    /// An unquoted delimiter: the body holds expansions the parser reads.
    expands: bool,
}

fn set_code(stack: &mut [Frame], to_parens: usize, to_arith_from: usize) {
    if let Some(Frame::Code {
        parens, arith_from, ..
    }) = stack.last_mut()
    {
        *parens = to_parens;
        *arith_from = to_arith_from;
    }
}

/// The index just past the `'` that closes a single-quoted string opened before `i`.
pub(super) fn skip_single(b: &[u8], i: usize) -> usize {
    match b[i.min(b.len())..].iter().position(|&c| c == b'\'') {
        Some(p) => i + p,
        None => b.len(),
    }
}

/// Reads the delimiter after `<<` (or `<<-`) starting at `i`; returns where to go on.
pub(super) fn heredoc_start(b: &[u8], mut i: usize, pending: &mut Vec<Heredoc>) -> usize {
    let strip_tabs = b.get(i) == Some(&b'-');
    if strip_tabs {
        i += 1;
    }
    while matches!(b.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    let mut delim = Vec::new();
    let mut quoted = false;
    while let Some(&c) = b.get(i) {
        match c {
            b'\'' | b'"' => {
                quoted = true;
                let end = b[i + 1..]
                    .iter()
                    .position(|&x| x == c)
                    .map_or(b.len(), |p| i + 1 + p);
                delim.extend_from_slice(&b[(i + 1).min(end)..end]);
                i = end + 1;
            }
            b'\\' => {
                quoted = true;
                if let Some(&n) = b.get(i + 1) {
                    delim.push(n);
                }
                i += 2;
            }
            b' ' | b'\t' | b'\n' | b';' | b'&' | b'|' | b'<' | b'>' | b'(' | b')' => break,
            _ => {
                delim.push(c);
                i += 1;
            }
        }
    }
    if !delim.is_empty() {
        pending.push(Heredoc {
            delimiter: delim,
            strip_tabs,
            expands: !quoted,
        });
    }
    i
}

/// Skips the heredoc bodies that start at `i`, in order; returns where code resumes and
/// the cost of the bodies (the expansions of unquoted ones, which the parser reads), or
/// nothing when a body has no end line.
pub(super) fn skip_bodies(b: &[u8], mut i: usize, pending: &[Heredoc]) -> Option<(usize, usize)> {
    let mut cost = 0;
    for h in pending {
        loop {
            if i >= b.len() {
                return None;
            }
            let end = b[i..]
                .iter()
                .position(|&c| c == b'\n')
                .map_or(b.len(), |p| i + p);
            let mut line = &b[i..end];
            if h.strip_tabs {
                while let [b'\t', rest @ ..] = line {
                    line = rest;
                }
            }
            i = end + 1;
            if line == h.delimiter.as_slice() {
                break;
            }
            if h.expands {
                cost += EXPANSION * line.iter().filter(|&&c| c == b'$' || c == b'`').count();
            }
        }
    }
    Some((i.min(b.len()), cost))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each case: a command and its estimated cost, counted by hand.
    #[test]
    fn counts_pieces() {
        const DQ: usize = DOUBLE_QUOTE;
        const EX: usize = EXPANSION;
        let cases: &[(&str, usize)] = &[
            ("", 0),
            ("ls", 1),
            ("ls -la src/main.rs", 3),
            ("ls && ls", 4),
            ("a | b", 2 + PIPE),
            ("a || b", 3),
            ("echo 'a | b ; c'", 1 + 1 + 1),
            (
                "echo \"a $x $(ls | wc)\"",
                1 + 1 + DQ + EX + EX + 1 + PIPE + 1,
            ),
            ("echo `ls`", 1 + 1 + EX + 1),
            ("echo \"a\nb\nc\"", 1 + 1 + DQ + 2),
            ("ls # a | b | c", 1),
            ("echo a\\ b", 2),
            ("echo {a,b}", 1 + 1 + 3),
            ("A=1 ls *.rs", 1 + 1 + 1 + 1 + 1),
            ("echo $((1+2*3))", 1 + 1 + EX + 2 + 5 + 2),
            ("x | y $((a|b))", 1 + PIPE + 1 + 1 + EX + 2 + 3 + 2),
            ("cat <<'EOF'\n$a | $b\nEOF\nls", 1 + 2 + 1 + 1),
            ("cat <<EOF\n$a | $b\nEOF\nls", 1 + 2 + 1 + 2 * EX + 1),
            ("cat <<-EOF\n\t$a\n\tEOF\nls", 1 + 2 + 1 + EX + 1),
            ("cat <<E\nx | y\nE", 1 + 2 + 1),
            ("cat <<E\nx | y", 1 + 2 + 1 + 1 + PIPE + 1),
            ("(a) (b)", 6),
        ];
        for (src, want) in cases {
            assert_eq!(estimate(src, usize::MAX), *want, "{src:?}");
        }
    }

    #[test]
    fn stops_past_the_limit() {
        let src = "a ".repeat(100_000);
        let cost = estimate(&src, 1_000);
        assert!((1_001..1_010).contains(&cost), "{cost}");
    }

    /// Bytes the lexer does not expect (unclosed quotes, a lone `)`, a heredoc with no
    /// end, non-ASCII) never make it stop early or fail.
    #[test]
    fn odd_input_is_counted_to_the_end() {
        for src in [
            "echo 'open",
            "echo \"open $x",
            ") ) )",
            "cat <<E\nno end",
            "é | ü",
            "`",
            "$(",
        ] {
            let _ = estimate(src, usize::MAX);
        }
        assert_eq!(
            estimate("echo \"open | $x", usize::MAX),
            1 + 1 + DOUBLE_QUOTE + EXPANSION
        );
    }
}
