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
    let b = src.as_bytes();
    let mut cost = 0usize;
    let mut stack = vec![Frame::code(Close::Never)];
    // Heredoc delimiters whose bodies start at the next newline.
    let mut pending: Vec<Heredoc> = Vec::new();
    let mut in_word = false;
    let mut i = 0usize;
    while i < b.len() && cost <= limit {
        let c = b[i];
        let top = *stack.last().unwrap_or(&Frame::Double);
        match top {
            Frame::Double => match c {
                b'\\' => i += 1,
                // The parser reads a quoted string line by line.
                b'\n' => cost += 1,
                b'"' => {
                    stack.pop();
                }
                b'$' if b.get(i + 1) == Some(&b'(') => {
                    cost += EXPANSION;
                    i += 1;
                    in_word = false;
                    stack.push(Frame::code(Close::Paren));
                }
                b'$' => cost += EXPANSION,
                b'`' => {
                    cost += EXPANSION;
                    in_word = false;
                    stack.push(Frame::code(Close::Backquote));
                }
                _ => {}
            },
            Frame::Code {
                parens,
                arith_from,
                closes_with,
            } => {
                let word_char = !matches!(
                    c,
                    b' ' | b'\t' | b'\n' | b'|' | b'&' | b';' | b'(' | b')' | b'<' | b'>'
                );
                if c == b'#' && !in_word {
                    // A comment runs to the end of the line; the newline is read next.
                    while i + 1 < b.len() && b[i + 1] != b'\n' {
                        i += 1;
                    }
                    i += 1;
                    continue;
                }
                if word_char && !in_word {
                    cost += 1;
                }
                in_word = word_char;
                let arith = arith_from > 0 && parens >= arith_from;
                match c {
                    b'\\' => i += 1,
                    b'\'' => {
                        cost += 1;
                        i = skip_single(b, i + 1);
                    }
                    b'"' => {
                        cost += DOUBLE_QUOTE;
                        stack.push(Frame::Double);
                    }
                    b'$' => cost += EXPANSION,
                    b'`' if closes_with == Close::Backquote => {
                        stack.pop();
                    }
                    b'`' => {
                        cost += EXPANSION;
                        in_word = false;
                        stack.push(Frame::code(Close::Backquote));
                    }
                    b'(' => {
                        cost += 1;
                        let arith_from = if arith_from == 0 && b.get(i + 1) == Some(&b'(') {
                            parens + 1
                        } else {
                            arith_from
                        };
                        set_code(&mut stack, parens + 1, arith_from);
                    }
                    b')' if parens == 0 && closes_with == Close::Paren => {
                        stack.pop();
                    }
                    b')' => {
                        cost += 1;
                        let parens = parens.saturating_sub(1);
                        let arith_from = if parens < arith_from { 0 } else { arith_from };
                        set_code(&mut stack, parens, arith_from);
                    }
                    b'|' if b.get(i + 1) == Some(&b'|') => {
                        cost += 1;
                        i += 1;
                    }
                    b'|' if !arith => cost += PIPE,
                    b'&' | b';' | b'|' => cost += 1,
                    b'<' if !arith
                        && b.get(i + 1) == Some(&b'<')
                        && b.get(i + 2) != Some(&b'<') =>
                    {
                        // The operator and the delimiter.
                        cost += 2;
                        i = heredoc_start(b, i + 2, &mut pending);
                        continue;
                    }
                    b'<' | b'>' => cost += 1,
                    b'\n' => {
                        cost += 1;
                        // Bodies that end where expected are skipped; if one never ends, the
                        // parser may not see a heredoc at all, so the text is counted as code.
                        if let Some((end, body_cost)) = skip_bodies(b, i + 1, &pending) {
                            cost += body_cost;
                            i = end;
                            pending.clear();
                            continue;
                        }
                        pending.clear();
                    }
                    _ if arith && !c.is_ascii_alphanumeric() && c != b'_' => {
                        cost += 1;
                        in_word = false;
                    }
                    _ if splits_word(c) => cost += 1,
                    _ => {}
                }
            }
        }
        i += 1;
    }
    cost
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
