//! One simple command and the statements read like one: its words, assignments and
//! redirections, declarations (`export`, `local`, `unset`), `[[ … ]]`, and the
//! assignments (`NAME=value`, `set -- …`) that `vars` may know the values of.

use tree_sitter::Node;

use super::redirect::Redirections;
use super::{Ctx, Walker};
use crate::engine::shell::expand::{self, Tok};
use crate::engine::shell::quote::has_bare_newline;
use crate::engine::shell::{vars, Redirect, SimpleCommand, Stdin, Word};

/// What the children of a command node give, read one child at a time.
#[derive(Default)]
struct Parts<'a> {
    words: Vec<Word>,
    assignments: Vec<(String, Word)>,
    red: Redirections<'a>,
    /// The pieces of the word being read, and where it ends in the text: a word the
    /// grammar cut at a backslash-newline (`r\⏎m`) goes on in the next node.
    pending: Option<(Vec<Tok>, usize)>,
}

impl<'a> Walker<'a> {
    /// Between the parts of one simple command there is no line break: the grammar takes
    /// `ls⏎\⏎rm -rf /` for `ls rm -rf /`, where Bash runs `ls`, then `rm -rf /`.
    pub(super) fn check_gaps(&mut self, n: Node<'a>) {
        let mut cursor = n.walk();
        let mut end = n.start_byte();
        for k in n.children(&mut cursor) {
            if k.start_byte() > end {
                if let Some(gap) = self.src.get(end..k.start_byte()) {
                    if has_bare_newline(gap) {
                        self.fail("a command spans a line break");
                    }
                }
            }
            end = end.max(k.end_byte());
        }
    }

    /// A simple command; `extra` holds what the statement around it gives it (its
    /// redirections, heredoc and words after a redirection).
    pub(super) fn command(
        &mut self,
        n: Node<'a>,
        ctx: &Ctx,
        extra: Option<(Vec<Redirect>, Option<Stdin>, Vec<Word>)>,
    ) {
        self.check_gaps(n);
        let index = self.script.commands.len();
        let mut cmd = SimpleCommand {
            pipe: ctx.pipe,
            substituted_into: ctx.substituted_into,
            function: ctx.function,
            enclosed_input: ctx.enclosed_input,
            ..SimpleCommand::default()
        };
        let mut extra_args = Vec::new();
        if let Some((r, s, a)) = extra {
            cmd.redirects = r;
            cmd.stdin = s;
            extra_args = a;
        }
        self.script.commands.push(cmd);
        self.command_of_node.insert(n.id(), index);
        let Parts {
            mut words,
            assignments,
            red,
            ..
        } = self.command_parts(n, index, ctx);
        let tail_pipe = if red.tails.is_empty() {
            None
        } else {
            Some(self.new_pipeline(ctx.pipe))
        };
        words.extend(extra_args);
        self.positional_assignment(n, index, &words);
        if let Some(cmd) = self.script.commands.get_mut(index) {
            cmd.words = words;
            cmd.assignments = assignments;
            cmd.redirects.extend(red.redirects);
            if red.stdin.is_some() {
                cmd.stdin = red.stdin;
            }
            if let Some(id) = tail_pipe {
                cmd.pipe = Some((id, 0));
            }
        }
        if let Some(id) = tail_pipe {
            self.visit_tails(&red.tails, ctx, id);
        }
    }

    /// The words, assignments and redirections of command node `n`, number `index`; the
    /// commands substituted into them are walked on the way.
    fn command_parts(&mut self, n: Node<'a>, index: usize, ctx: &Ctx) -> Parts<'a> {
        let mut parts = Parts::default();
        let sub_ctx = Ctx {
            pipe: None,
            substituted_into: Some(index),
            function: ctx.function,
            enclosed_input: ctx.enclosed_input,
        };
        let mut cursor = n.walk();
        let kids: Vec<Node> = n.named_children(&mut cursor).collect();
        for k in kids {
            match word_node(k) {
                Some(w) => self.word_part(&mut parts, k, w, &sub_ctx),
                None => {
                    self.end_word(&mut parts);
                    self.other_part(&mut parts, k, index, &sub_ctx);
                }
            }
        }
        self.end_word(&mut parts);
        parts
    }

    /// Reads word `w` (of child `k`) into the word being read, or into a new one when it
    /// does not go on from it.
    fn word_part(&mut self, parts: &mut Parts<'a>, k: Node<'a>, w: Node<'a>, sub_ctx: &Ctx) {
        let goes_on = parts
            .pending
            .as_ref()
            .is_some_and(|(_, end)| self.continues_word(*end, k.start_byte()));
        if !goes_on {
            self.end_word(parts);
        }
        let mut toks = parts.pending.take().map(|(t, _)| t).unwrap_or_default();
        self.toks_into(w, &mut toks, false);
        parts.pending = Some((toks, k.end_byte()));
        self.substitutions_in(k, sub_ctx);
    }

    /// Ends the word being read: it becomes the words it expands to.
    fn end_word(&mut self, parts: &mut Parts<'a>) {
        if let Some((toks, _)) = parts.pending.take() {
            let words = expand::expand(&toks, true, &mut self.extra_words_left);
            parts.words.extend(words);
        }
    }

    /// A child of a command that is not a word: an assignment (`A=1 cmd`) or a
    /// redirection, whose trailing words are arguments.
    fn other_part(&mut self, parts: &mut Parts<'a>, k: Node<'a>, index: usize, sub_ctx: &Ctx) {
        match k.kind() {
            "variable_assignment" => {
                let name = k
                    .child_by_field_name("name")
                    .map(|x| self.text(x).to_string())
                    .unwrap_or_default();
                let value = k
                    .child_by_field_name("value")
                    .map(|v| self.word(v))
                    .unwrap_or_else(|| Word::lit(""));
                parts.assignments.push((name, value));
                self.substitutions_in(k, sub_ctx);
            }
            "file_redirect" | "herestring_redirect" | "heredoc_redirect" => {
                self.redirect_node(k, &mut parts.red);
                self.redirect_substitutions(k, sub_ctx, index);
                parts.words.append(&mut parts.red.args);
            }
            _ => {}
        }
    }

    /// Whether the text from `end` to `start` is only backslash-newlines: Bash removes
    /// them before it reads words, so the word before goes on after them.
    fn continues_word(&self, end: usize, start: usize) -> bool {
        self.src.get(end..start).is_some_and(|gap| {
            !gap.is_empty() && gap.len() % 2 == 0 && gap.as_bytes().chunks(2).all(|c| c == b"\\\n")
        })
    }

    /// Records `NAME=value` statements (`stmt` is the statement holding assignment `n`).
    pub(super) fn assignment_statement(&mut self, n: Node<'a>, stmt: Node<'a>) {
        if n.kind() == "variable_assignments" {
            let mut cursor = n.walk();
            let kids: Vec<Node> = n.named_children(&mut cursor).collect();
            for k in kids {
                self.assignment_statement(k, stmt);
            }
            return;
        }
        let name = n
            .child_by_field_name("name")
            .map(|x| self.text(x).to_string())
            .unwrap_or_default();
        // `NAME+=x` appends to a value we may not know.
        let appends = n
            .child_by_field_name("name")
            .and_then(|x| x.next_sibling())
            .is_some_and(|op| self.text(op) == "+=");
        let value_node = n.child_by_field_name("value");
        let value = value_node
            .map(|v| self.word(v))
            .unwrap_or_else(|| Word::lit(""));
        // `a=(x y)`: the elements, each word expanded.
        let elements = value_node.filter(|v| v.kind() == "array").map(|v| {
            let mut cursor = v.walk();
            let kids: Vec<Node> = v.named_children(&mut cursor).collect();
            kids.into_iter()
                .filter(|k| k.kind() != "comment")
                .flat_map(|k| self.words(k))
                .collect()
        });
        let from = (!appends && surely_runs(stmt)).then_some(self.script.commands.len());
        self.script.assigned.push(vars::Assigned {
            name,
            value,
            elements,
            from,
        });
    }

    /// `set -- a b` gives the positional parameters (`$@`) values, `shift` and other
    /// `set`s change them: recorded as assignments of `@` (command `index`, node `n`).
    fn positional_assignment(&mut self, n: Node<'a>, index: usize, words: &[Word]) {
        let Some(first) = words.first().filter(|w| w.literal) else {
            return;
        };
        let elements = match first.text.as_str() {
            "set" => match set_arguments(&words[1..]) {
                Some(args) => Some(args.to_vec()),
                None => return,
            },
            "shift" => None,
            _ => return,
        };
        let from = (elements.is_some() && surely_runs(n)).then_some(index + 1);
        self.script.assigned.push(vars::Assigned {
            name: "@".into(),
            value: Word::lit(""),
            elements,
            from,
        });
    }

    /// `export A=$(x)`, `local b`, `unset c`: recorded as a command named by the keyword.
    pub(super) fn declaration(&mut self, n: Node<'a>, ctx: &Ctx) {
        self.check_gaps(n);
        let index = self.script.commands.len();
        let mut words = Vec::new();
        let mut cursor = n.walk();
        for ch in n.children(&mut cursor) {
            if !ch.is_named() {
                let t = self.text(ch).trim();
                if !t.is_empty() && words.is_empty() {
                    words.push(Word::lit(t));
                }
            } else {
                let w = self.words(ch);
                words.extend(w);
            }
        }
        self.script.commands.push(SimpleCommand {
            words,
            pipe: ctx.pipe,
            substituted_into: ctx.substituted_into,
            function: ctx.function,
            enclosed_input: ctx.enclosed_input,
            ..SimpleCommand::default()
        });
        let sub_ctx = Ctx {
            pipe: None,
            substituted_into: Some(index),
            function: ctx.function,
            enclosed_input: ctx.enclosed_input,
        };
        self.substitutions_in(n, &sub_ctx);
    }

    pub(super) fn push_synthetic(&mut self, name: &str, n: Node<'a>, ctx: &Ctx) {
        let index = self.script.commands.len();
        self.script.commands.push(SimpleCommand {
            words: vec![Word::lit(name)],
            pipe: ctx.pipe,
            substituted_into: ctx.substituted_into,
            function: ctx.function,
            enclosed_input: ctx.enclosed_input,
            ..SimpleCommand::default()
        });
        let sub_ctx = Ctx {
            pipe: None,
            substituted_into: Some(index),
            function: ctx.function,
            enclosed_input: ctx.enclosed_input,
        };
        self.substitutions_in(n, &sub_ctx);
    }
}

/// Whether a statement surely runs, before everything after it in the text: it sits at
/// the top level, or first in a top-level chain (`A=1 && …`), and not in the background.
fn surely_runs(stmt: Node) -> bool {
    let mut node = stmt;
    loop {
        let Some(parent) = node.parent() else {
            return false;
        };
        match parent.kind() {
            "program" => return node.next_sibling().is_none_or(|s| s.kind() != "&"),
            "list" if parent.named_child(0).is_some_and(|c| c.id() == node.id()) => {
                node = parent;
            }
            _ => return false,
        }
    }
}

/// The arguments `set` gives the positional parameters, if it gives them any: those after
/// `--`, `-` or the options (`-o NAME` takes a value).
fn set_arguments(words: &[Word]) -> Option<&[Word]> {
    let mut i = 0;
    while let Some(w) = words.get(i) {
        let t = w.text.as_str();
        if !w.literal {
            return Some(&words[i..]);
        }
        match t {
            "--" | "-" => return Some(&words[i + 1..]),
            "-o" | "+o" => i += 2,
            _ if t.starts_with(['-', '+']) => i += 1,
            _ => return Some(&words[i..]),
        }
    }
    None
}

/// The node holding the word of child `k` of a command: the name's word, an argument, or
/// none for an assignment, a redirection or a comment.
fn word_node(k: Node) -> Option<Node> {
    match k.kind() {
        "command_name" => Some(k.named_child(0).unwrap_or(k)),
        "variable_assignment"
        | "file_redirect"
        | "herestring_redirect"
        | "heredoc_redirect"
        | "comment" => None,
        _ => Some(k),
    }
}
