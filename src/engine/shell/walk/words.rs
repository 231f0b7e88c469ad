//! Word-like nodes into words: quotes and escapes removed where the text is literal,
//! braces expanded, the known output of a substitution written in (`$(echo ~)`, `$(pwd)`),
//! and everything else kept as its (bounded) source text, marked not known.

use tree_sitter::Node;

use super::Walker;
use crate::engine::shell::expand::{self, Tok};
use crate::engine::shell::quote::{
    has_bare_newline, has_unescaped_backquote, unescape_ansi_c, unescape_double, unescape_unquoted,
};
use crate::engine::shell::Word;

/// How much of an expansion's source text a word keeps.
const MAX_RAW_EXPANSION: usize = 256;

impl<'a> Walker<'a> {
    /// The value of a word-like node as one word: no brace expansion, no splitting (an
    /// assignment's value, a here-string, a function's name).
    pub(super) fn word(&mut self, n: Node) -> Word {
        let mut toks = Vec::new();
        self.toks_into(n, &mut toks, false);
        expand::single(&toks)
    }

    /// The words a word-like node stands for: braces expanded, the output of unquoted
    /// constant substitutions split (see [`expand`]).
    pub(super) fn words(&mut self, n: Node) -> Vec<Word> {
        let mut toks = Vec::new();
        self.toks_into(n, &mut toks, false);
        expand::expand(&toks, true, &mut self.extra_words_left)
    }

    /// Reads node `n` into word pieces; `quoted` inside double quotes.
    pub(super) fn toks_into(&mut self, n: Node, out: &mut Vec<Tok>, quoted: bool) {
        let t = self.text(n);
        match n.kind() {
            "word" | "command_name" if n.named_child_count() == 0 => {
                if has_unescaped_backquote(t) {
                    self.fail("a word holds a stray backquote");
                }
                // The grammar reads `ls⏎\rm -rf /` as one command, `ls` with the argument
                // `⏎\rm`; in Bash an unquoted newline always ends a word.
                if has_bare_newline(t) {
                    self.fail("a word spans a line break");
                }
                if quoted {
                    out.push(Tok::Inert(unescape_unquoted(t)));
                } else {
                    unquoted_toks(t, out);
                }
            }
            "number" | "brace_expression" if !quoted => unquoted_toks(t, out),
            "string" | "translated_string" => self.string_toks(n, out),
            "string_content" => out.push(Tok::Inert(unescape_double(t))),
            "raw_string" => {
                let inner = t
                    .strip_prefix('\'')
                    .and_then(|r| r.strip_suffix('\''))
                    .unwrap_or(t);
                out.push(Tok::Inert(inner.to_string()));
            }
            "ansi_c_string" => {
                let inner = t
                    .strip_prefix("$'")
                    .and_then(|r| r.strip_suffix('\''))
                    .unwrap_or(t);
                out.push(Tok::Inert(unescape_ansi_c(inner)));
            }
            "concatenation" => {
                let mut cursor = n.walk();
                let kids: Vec<Node> = n.children(&mut cursor).collect();
                for k in kids {
                    self.toks_into(k, out, quoted);
                }
            }
            "command_substitution" => {
                let tok = self.substitution_tok(n, quoted);
                out.push(tok);
            }
            "process_substitution" => out.push(Tok::Unknown(
                if t.starts_with('>') {
                    ">(…)"
                } else {
                    "<(…)"
                }
                .to_string(),
            )),
            _ => {
                // Expansions, arithmetic, anything unusual: keep the source (bounded) and
                // mark the word as not known in advance.
                let mut raw = String::new();
                push_bounded(&mut raw, t);
                out.push(Tok::Unknown(raw));
            }
        }
    }

    /// A double-quoted string (`"…"`, `$"…"`): its parts, and the text between them.
    fn string_toks(&mut self, n: Node, out: &mut Vec<Tok>) {
        let t = self.text(n);
        let mut cursor = n.walk();
        let kids: Vec<Node> = n.named_children(&mut cursor).collect();
        // `""` is a word, even with nothing in it.
        out.push(Tok::Inert(String::new()));
        // Text between the named parts (e.g. spaces) lives in the source only.
        let inner_start = n.start_byte() + if t.starts_with('$') { 2 } else { 1 };
        let inner_end = n.end_byte().saturating_sub(1);
        let mut pos = inner_start;
        for k in kids {
            if k.start_byte() > pos {
                if let Some(gap) = self.src.get(pos..k.start_byte()) {
                    out.push(Tok::Inert(unescape_double(gap)));
                }
            }
            self.toks_into(k, out, true);
            pos = k.end_byte();
        }
        if inner_end > pos {
            if let Some(gap) = self.src.get(pos..inner_end) {
                out.push(Tok::Inert(unescape_double(gap)));
            }
        }
    }

    /// How a command substitution stands in a word: the output of a command whose output
    /// is known (`$(echo ~)`; unquoted, it is split into words), the working folder for
    /// `$(pwd)` (as `$PWD`, see `vars::with_pwd`) and `$(git rev-parse --show-toplevel)`,
    /// and otherwise a value not known (`$(…)`, `` `…` ``).
    fn substitution_tok(&mut self, n: Node, quoted: bool) -> Tok {
        let backquoted = self.text(n).starts_with('`');
        let unknown = || Tok::Unknown(if backquoted { "`…`" } else { "$(…)" }.to_string());
        let mut cursor = n.walk();
        let kids: Vec<Node> = n
            .named_children(&mut cursor)
            .filter(|k| k.kind() != "comment")
            .collect();
        let [cmd] = kids.as_slice() else {
            return unknown();
        };
        if cmd.kind() != "command" || self.known.commands_redefined {
            return unknown();
        }
        let mut cursor = cmd.walk();
        let parts: Vec<Node> = cmd.named_children(&mut cursor).collect();
        let plain = parts.iter().all(|p| {
            !matches!(
                p.kind(),
                "variable_assignment"
                    | "file_redirect"
                    | "herestring_redirect"
                    | "heredoc_redirect"
                    | "comment"
            )
        });
        if !plain {
            return unknown();
        }
        let mut words = Vec::new();
        for p in parts {
            let inner = if p.kind() == "command_name" {
                p.named_child(0).unwrap_or(p)
            } else {
                p
            };
            words.extend(self.words(inner));
        }
        let texts: Vec<&str> = words.iter().map(|w| w.text.as_str()).collect();
        let all_literal = words.iter().all(|w| w.literal);
        match texts.as_slice() {
            ["pwd"] | ["pwd", "-L" | "-P"] if all_literal => Tok::Unknown("$PWD".into()),
            ["git", "rev-parse", "--show-toplevel"] if all_literal => Tok::Toplevel,
            // A name `mktemp` makes: a path of the call's own, in the temporary folder.
            ["mktemp", ..] if all_literal => match expand::mktemp_output(&words[1..]) {
                Some(path) if quoted => Tok::Inert(path),
                Some(path) if !self.known.ifs_touched => Tok::Split(path),
                _ => unknown(),
            },
            _ => match expand::constant_output(&words) {
                Some(text) if quoted => Tok::Inert(text),
                // Splitting depends on `IFS`, which the script may change.
                Some(text) if !self.known.ifs_touched => Tok::Split(text),
                _ => unknown(),
            },
        }
    }
}

/// The pieces of unquoted word text: a backslash makes the next character stand for
/// itself, a backslash before a newline is removed, every other character is active.
fn unquoted_toks(t: &str, out: &mut Vec<Tok>) {
    let mut chars = t.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('\n') | None => {}
                Some(n) => out.push(Tok::Inert(n.to_string())),
            }
        } else {
            out.push(Tok::Active(c));
        }
    }
}

/// Appends `t`, cut to [`MAX_RAW_EXPANSION`] bytes (and `…`) when longer.
fn push_bounded(out: &mut String, t: &str) {
    if t.len() > MAX_RAW_EXPANSION {
        let mut cut = MAX_RAW_EXPANSION;
        while !t.is_char_boundary(cut) {
            cut -= 1;
        }
        out.push_str(&t[..cut]);
        out.push('…');
    } else {
        out.push_str(t);
    }
}
