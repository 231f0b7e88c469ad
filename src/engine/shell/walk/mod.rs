//! The walk over the syntax tree: every simple command wherever it sits, with its words,
//! redirections, heredocs, pipeline stage and the command it is substituted into.
//!
//! This file holds the walker and the statements that hold others (lists, pipelines,
//! functions, loops, substitutions); `command` reads a simple command (and declarations
//! and assignments), `redirect` the redirections of a statement and what the grammar
//! hangs off a heredoc, `words` the words of either as the shell expands them.

mod command;
mod redirect;
mod words;

use std::collections::HashMap;

use tree_sitter::Node;

use super::expand;
use super::quote::{has_bare_newline, has_unescaped_backquote};
use super::{vars, Script, SimpleCommand, Word};

/// What the walk may take as known about how the script's words expand.
#[derive(Clone, Copy, Default)]
pub(super) struct Known {
    /// The script may change `IFS`: how a substitution's output splits is not known.
    pub ifs_touched: bool,
    /// The script may define a function or alias named `echo`, `printf`, `pwd` or `git`:
    /// what a substitution running one prints is not known.
    pub commands_redefined: bool,
}

/// Walks the tree of `src` from `root` into a script.
pub(super) fn walk(src: &str, root: Node, known: Known) -> Script {
    let mut walker = Walker {
        src,
        script: Script::default(),
        pipelines: 0,
        command_of_node: HashMap::new(),
        known,
        extra_words_left: expand::MAX_EXTRA_WORDS,
    };
    walker.visit(root, &Ctx::default());
    walker.script
}

/// Where the walker is: which pipeline stage, which command's substitution.
#[derive(Clone, Copy, Default)]
struct Ctx {
    pipe: Option<(usize, usize)>,
    substituted_into: Option<usize>,
    function: Option<usize>,
    /// Inside a compound statement that has redirections (see
    /// [`SimpleCommand::enclosed_input`]).
    enclosed_input: bool,
}

/// The walk's state: the script found so far, and what attaching the next command needs.
struct Walker<'a> {
    src: &'a str,
    script: Script,
    pipelines: usize,
    /// The index in `script.commands` of each `command` node, by node id.
    command_of_node: HashMap<usize, usize>,
    known: Known,
    /// How many more words expansion may still add (see [`expand::MAX_EXTRA_WORDS`]).
    extra_words_left: usize,
}

impl<'a> Walker<'a> {
    fn text(&self, n: Node) -> &'a str {
        self.src.get(n.byte_range()).unwrap_or("")
    }

    /// A new pipeline id, running in stage `parent` of an enclosing pipeline if any.
    fn new_pipeline(&mut self, parent: Option<(usize, usize)>) -> usize {
        let id = self.pipelines;
        self.pipelines += 1;
        self.script.pipeline_parent.push(parent);
        id
    }

    fn fail(&mut self, why: &str) {
        if self.script.unparsed.is_none() {
            self.script.unparsed = Some(why.to_string());
        }
    }

    fn visit(&mut self, n: Node<'a>, ctx: &Ctx) {
        match n.kind() {
            "command" => self.command(n, ctx, None),
            "redirected_statement" => self.redirected(n, ctx),
            "pipeline" => self.pipeline(n, ctx),
            "function_definition" => self.function_definition(n, ctx),
            "declaration_command" | "unset_command" => self.declaration(n, ctx),
            "for_statement" => self.for_statement(n, ctx),
            "list" => {
                let (first, rest) = split_list(n);
                self.visit(first, ctx);
                for r in rest {
                    self.visit(r, ctx);
                }
            }
            "variable_assignment" | "variable_assignments" => {
                self.assignment_statement(n, n);
                self.children(n, ctx);
            }
            "test_command" => {
                self.push_synthetic("[[", n, ctx);
            }
            "command_substitution" | "process_substitution" => {
                self.check_backquotes(n);
                let inner = Ctx { pipe: None, ..*ctx };
                self.file_reads_substituted(n, &inner);
                self.children(n, &inner);
            }
            "heredoc_body" => {
                // Only expanding heredocs run substitutions; their `$(…)` are child nodes.
                // The grammar does not parse backquotes there, so fail closed on them.
                if self.text(n).contains('`') {
                    self.fail("a heredoc body holds backquotes, which are not analysed");
                }
                self.children(n, ctx);
            }
            "word" => {
                if has_unescaped_backquote(self.text(n)) {
                    self.fail("a word holds a stray backquote");
                }
                if has_bare_newline(self.text(n)) {
                    self.fail("a word spans a line break");
                }
            }
            "comment" => {}
            _ => self.children(n, ctx),
        }
    }

    /// `$(< FILE)`: Bash reads FILE in place of a command's output. Recorded as a command
    /// without words whose input is redirected from FILE, so the read is seen.
    fn file_reads_substituted(&mut self, n: Node<'a>, ctx: &Ctx) {
        let mut cursor = n.walk();
        let kids: Vec<Node> = n.named_children(&mut cursor).collect();
        let mut red = redirect::Redirections::default();
        for k in kids.into_iter().filter(|k| k.kind() == "file_redirect") {
            self.redirect_node(k, &mut red);
        }
        if red.redirects.is_empty() {
            return;
        }
        self.script.commands.push(SimpleCommand {
            redirects: red.redirects,
            pipe: ctx.pipe,
            substituted_into: ctx.substituted_into,
            function: ctx.function,
            ..SimpleCommand::default()
        });
    }

    /// `name() { body; }`: the body's commands run only if the function is called.
    fn function_definition(&mut self, n: Node<'a>, ctx: &Ctx) {
        let name = n
            .child_by_field_name("name")
            .map(|x| self.word(x).text)
            .unwrap_or_default();
        self.script.functions.push(name);
        let top_level = n.parent().is_some_and(|p| p.kind() == "program")
            && n.next_sibling().is_none_or(|s| s.kind() != "&");
        self.script
            .function_at
            .push(top_level.then_some(self.script.commands.len()));
        let inner = Ctx {
            function: Some(self.script.functions.len() - 1),
            ..*ctx
        };
        self.children(n, &inner);
    }

    /// `for NAME in VALUES…; do body; done` (and `select`): the loop is recorded for
    /// [`vars`], which may know the values.
    fn for_statement(&mut self, n: Node<'a>, ctx: &Ctx) {
        let keyword = n.child(0).map(|k| self.text(k)).unwrap_or_default();
        let name = n
            .child_by_field_name("variable")
            .map(|v| self.text(v).to_string())
            .unwrap_or_default();
        let mut cursor = n.walk();
        let value_nodes: Vec<Node> = n.children_by_field_name("value", &mut cursor).collect();
        let values: Vec<Word> = value_nodes
            .into_iter()
            .flat_map(|v| self.words(v))
            .collect();
        let start = self.script.commands.len();
        self.children(n, ctx);
        // `select` sets its variable from what the user types: not known.
        if keyword == "for" {
            let body = start..self.script.commands.len();
            self.script.loops.push(vars::Loop { name, values, body });
        }
    }

    fn children(&mut self, n: Node<'a>, ctx: &Ctx) {
        let mut cursor = n.walk();
        let kids: Vec<Node> = n.named_children(&mut cursor).collect();
        for k in kids {
            self.visit(k, ctx);
        }
    }

    /// A grammar quirk (tree-sitter-bash #278) nests backquotes wrongly; refuse such text.
    fn check_backquotes(&mut self, n: Node) {
        let t = self.text(n);
        if let Some(inner) = t.strip_prefix('`').and_then(|r| r.strip_suffix('`')) {
            if has_unescaped_backquote(inner) {
                self.fail("nested backquotes are not analysed");
            }
        }
    }

    fn pipeline(&mut self, n: Node<'a>, ctx: &Ctx) {
        let id = self.new_pipeline(ctx.pipe);
        let mut cursor = n.walk();
        let mut stages: Vec<Node> = n.named_children(&mut cursor).collect();
        // The grammar parses `a | b | c && d` as `a | ((b | c) && d)`, which would cut `a`
        // off from `b`. Bash reads it as `(a | b | c) && d`: take the list apart again.
        let mut after = Vec::new();
        if let Some(last) = stages.last().copied().filter(|s| s.kind() == "list") {
            stages.pop();
            let (first, rest) = split_list(last);
            if first.kind() == "pipeline" {
                let mut c = first.walk();
                stages.extend(first.named_children(&mut c));
            } else {
                stages.push(first);
            }
            after = rest;
        }
        if stages.iter().any(|s| s.kind() == "list") {
            self.fail("a pipeline was not parsed as Bash reads it");
        }
        for (i, stage) in stages.into_iter().enumerate() {
            let inner = Ctx {
                pipe: Some((id, i)),
                ..*ctx
            };
            self.visit(stage, &inner);
        }
        for a in after {
            self.visit(a, ctx);
        }
    }

    fn visit_tails(&mut self, tails: &[Node<'a>], ctx: &Ctx, id: usize) {
        let mut stage = 1;
        for t in tails {
            let parts: Vec<Node> = if t.kind() == "pipeline" {
                let mut c = t.walk();
                t.named_children(&mut c).collect()
            } else {
                vec![*t]
            };
            for p in parts {
                let inner = Ctx {
                    pipe: Some((id, stage)),
                    ..*ctx
                };
                self.visit(p, &inner);
                stage += 1;
            }
        }
    }

    /// Visits every substitution below `n` (but not `n`'s plain words).
    fn substitutions_in(&mut self, n: Node<'a>, ctx: &Ctx) {
        match n.kind() {
            "command_substitution" | "process_substitution" => self.visit(n, ctx),
            "word" => self.visit(n, ctx),
            _ => {
                let mut cursor = n.walk();
                let kids: Vec<Node> = n.named_children(&mut cursor).collect();
                for k in kids {
                    self.substitutions_in(k, ctx);
                }
            }
        }
    }
}

/// The leftmost operand of an `&&`/`||` list, and the operands after it. The grammar
/// nests a chain to the left (`a && b && c` is `(a && b) && c`); it is taken apart without
/// recursion, so a long chain costs no stack.
fn split_list(list: Node) -> (Node, Vec<Node>) {
    // The right operands of each level, outermost first.
    let mut levels: Vec<Vec<Node>> = Vec::new();
    let mut cur = list;
    loop {
        let mut cursor = cur.walk();
        let kids: Vec<Node> = cur
            .named_children(&mut cursor)
            .filter(|k| k.kind() != "comment")
            .collect();
        let Some((&first, rest)) = kids.split_first() else {
            return (cur, levels.into_iter().rev().flatten().collect());
        };
        levels.push(rest.to_vec());
        if first.kind() == "list" {
            cur = first;
        } else {
            return (first, levels.into_iter().rev().flatten().collect());
        }
    }
}
