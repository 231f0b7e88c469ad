//! The walk over the syntax tree: every simple command wherever it sits, with its words,
//! redirections, heredocs, pipeline stage and the command it is substituted into.

use std::collections::HashMap;

use tree_sitter::Node;

use super::expand::{self, Tok};
use super::quote::{
    has_bare_newline, has_unescaped_backquote, unescape_ansi_c, unescape_double, unescape_unquoted,
};
use super::{vars, Redirect, Script, SimpleCommand, Stdin, Word};

/// How much of an expansion's source text a word keeps.
const MAX_RAW_EXPANSION: usize = 256;

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

/// Where the walker is: which pipeline stage, which command's substitution.
#[derive(Clone, Copy, Default)]
struct Ctx {
    pipe: Option<(usize, usize)>,
    substituted_into: Option<usize>,
    function: Option<usize>,
}

/// What the redirect nodes of a statement hold.
#[derive(Default)]
struct Redirections<'a> {
    redirects: Vec<Redirect>,
    stdin: Option<Stdin>,
    /// Statements that the grammar hangs off a heredoc (`cat <<EOF | sh`).
    tails: Vec<Node<'a>>,
    /// Words after a redirection's target: they are arguments of the command.
    args: Vec<Word>,
}

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

    /// A statement with redirections: a simple command (which gets them), a compound
    /// statement, or redirections alone.
    fn redirected(&mut self, n: Node<'a>, ctx: &Ctx) {
        let body = n.child_by_field_name("body");
        let mut cursor = n.walk();
        let nodes: Vec<Node> = n.children_by_field_name("redirect", &mut cursor).collect();
        let mut red = Redirections::default();
        for r in &nodes {
            self.redirect_node(*r, &mut red);
        }
        match body {
            Some(b) if b.kind() == "command" => self.redirected_command(b, &nodes, red, ctx),
            Some(b) => self.redirected_compound(b, &nodes, red, ctx),
            None => {
                self.script.redirects.extend(red.redirects);
            }
        }
    }

    /// A simple command `b` with the redirections `red` of its statement (read from
    /// `nodes`).
    fn redirected_command(
        &mut self,
        b: Node<'a>,
        nodes: &[Node<'a>],
        red: Redirections<'a>,
        ctx: &Ctx,
    ) {
        let Redirections {
            redirects,
            stdin,
            tails,
            args,
        } = red;
        let before = self.script.commands.len();
        // A heredoc followed by `| cmd` is parsed as part of the redirect: the body
        // command becomes stage 0 of a new pipeline and the tail its later stages.
        let tail_pipe = if tails.is_empty() {
            None
        } else {
            Some(self.new_pipeline(ctx.pipe))
        };
        let own_ctx = match tail_pipe {
            Some(id) => Ctx {
                pipe: Some((id, 0)),
                ..*ctx
            },
            None => *ctx,
        };
        self.command(b, &own_ctx, Some((redirects, stdin, args)));
        let receiver = before;
        for r in nodes {
            self.redirect_substitutions(*r, ctx, receiver);
        }
        if let Some(id) = tail_pipe {
            self.visit_tails(&tails, ctx, id);
        }
    }

    /// A compound statement `b` (a group, a subshell, a list, a pipeline …) with the
    /// redirections `red` of its statement (read from `nodes`).
    fn redirected_compound(
        &mut self,
        b: Node<'a>,
        nodes: &[Node<'a>],
        red: Redirections<'a>,
        ctx: &Ctx,
    ) {
        if !red.args.is_empty() {
            self.fail("words follow the redirection of a compound command");
        }
        let first = self.script.commands.len();
        let first_stage_ctx = *ctx;
        self.visit(b, &first_stage_ctx);
        // The grammar hangs a redirection written after `a && b` or `a | b` on the
        // whole list or pipeline, but Bash gives it to `b` (`ls | cat <<EOF | sh`):
        // the last command reads it; in a group or subshell, the first one does.
        let before = match b.kind() {
            "list" | "negated_command" | "pipeline" => last_simple_command(b)
                .and_then(|c| self.command_of_node.get(&c.id()).copied())
                .unwrap_or(first),
            _ => first,
        };
        // Attach a heredoc to its reader.
        if let Some(s) = red.stdin {
            if let Some(c) = self.script.commands.get_mut(before) {
                if c.stdin.is_none() {
                    c.stdin = Some(s);
                }
            }
        }
        // The redirections belong to a command, and are judged where it runs (`cd x &&
        // echo k >> f` writes `x/f`): the list's last operand (`a && b > f` is `a && (b >
        // f)` in Bash), or a compound's first command, which runs where it starts.
        let owner = match b.kind() {
            "list" | "negated_command" | "pipeline" => self.last_operand_owner(b),
            _ => (first < self.script.commands.len()).then_some(first),
        };
        match owner.and_then(|i| self.script.commands.get_mut(i)) {
            Some(c) => c.redirects.extend(red.redirects),
            None => self.script.redirects.extend(red.redirects),
        }
        for r in nodes {
            self.redirect_substitutions(*r, ctx, before);
        }
        if !red.tails.is_empty() {
            // The tail goes on from the reader, wherever the reader was.
            let parent = self
                .script
                .commands
                .get(before)
                .and_then(|c| c.pipe)
                .or(ctx.pipe);
            let id = self.new_pipeline(parent);
            if let Some(c) = self.script.commands.get_mut(before) {
                c.pipe = Some((id, 0));
            }
            self.visit_tails(&red.tails, ctx, id);
        }
    }

    /// The command a redirection written after list `b` belongs to: its last operand when
    /// that is a simple command, else the first command in it.
    fn last_operand_owner(&self, b: Node) -> Option<usize> {
        let mut cur = b;
        while matches!(cur.kind(), "list" | "negated_command" | "pipeline") {
            let mut cursor = cur.walk();
            let last = cur
                .named_children(&mut cursor)
                .filter(|k| k.kind() != "comment")
                .last()?;
            cur = last;
        }
        let node = first_command_node(cur)?;
        self.command_of_node.get(&node.id()).copied()
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

    /// Reads one redirect node into `red`.
    fn redirect_node(&mut self, r: Node<'a>, red: &mut Redirections<'a>) {
        match r.kind() {
            "file_redirect" => self.file_redirect(r, red),
            "herestring_redirect" => {
                self.check_gaps(r);
                let mut cursor = r.walk();
                let w = r
                    .named_children(&mut cursor)
                    .last()
                    .map(|x| self.word(x))
                    .unwrap_or_else(|| Word::lit(""));
                red.stdin = Some(Stdin::HereString(w));
            }
            "heredoc_redirect" => self.heredoc_redirect(r, red),
            _ => {}
        }
    }

    /// `> file`, `2>>log`, `< in` …
    fn file_redirect(&mut self, r: Node<'a>, red: &mut Redirections<'a>) {
        let mut op = String::new();
        let mut cursor = r.walk();
        for ch in r.children(&mut cursor) {
            if !ch.is_named() {
                op.push_str(self.text(ch));
            }
        }
        self.check_gaps(r);
        let mut cursor = r.walk();
        let dests: Vec<Node> = r
            .children_by_field_name("destination", &mut cursor)
            .collect();
        if let Some((first, rest)) = dests.split_first() {
            // A target that expands to more than one word is an error in Bash; each is
            // judged as written to.
            for target in self.words(*first) {
                red.redirects.push(Redirect {
                    op: op.clone(),
                    target,
                });
            }
            // `rm >/dev/null -rf ~` is `rm -rf ~ >/dev/null`: the grammar hangs the
            // words after the target on the redirection; they are arguments.
            for d in rest {
                let w = self.words(*d);
                red.args.extend(w);
            }
        }
    }

    /// `<<EOF … EOF`, with what the grammar hangs off it: arguments of the command, more
    /// redirections, and the statements after it (`cat <<EOF | sh`, `cat <<EOF && rm x`).
    fn heredoc_redirect(&mut self, r: Node<'a>, red: &mut Redirections<'a>) {
        let mut body = String::new();
        let mut expanding = true;
        let mut cursor = r.walk();
        // `cat <<EOF a b` gives `cat` the arguments `a b`.
        let arguments: Vec<usize> = r
            .children_by_field_name("argument", &mut cursor)
            .map(|a| a.id())
            .collect();
        let mut cursor = r.walk();
        for ch in r.named_children(&mut cursor) {
            if arguments.contains(&ch.id()) {
                let w = self.words(ch);
                red.args.extend(w);
                continue;
            }
            match ch.kind() {
                "heredoc_start" => {
                    let t = self.text(ch);
                    if t.contains('\'') || t.contains('"') || t.contains('\\') {
                        expanding = false;
                    }
                }
                "heredoc_body" => body = self.text(ch).to_string(),
                "heredoc_end" => {}
                "file_redirect" | "herestring_redirect" => self.redirect_node(ch, red),
                _ => red.tails.push(ch),
            }
        }
        red.stdin = Some(Stdin::Heredoc { body, expanding });
    }

    /// Commands inside redirect targets or expanding heredoc bodies (`> "$(cmd)"`).
    fn redirect_substitutions(&mut self, r: Node<'a>, ctx: &Ctx, receiver: usize) {
        let inner = Ctx {
            pipe: None,
            substituted_into: Some(receiver),
            ..*ctx
        };
        let mut cursor = r.walk();
        let kids: Vec<Node> = r.named_children(&mut cursor).collect();
        for k in kids {
            match k.kind() {
                "heredoc_body" => {
                    if self.text(k).contains('`') && !self.heredoc_quoted(r) {
                        self.fail("a heredoc body holds backquotes, which are not analysed");
                    }
                    self.children(k, &inner);
                }
                "heredoc_start" | "heredoc_end" | "file_descriptor" => {}
                "pipeline"
                | "command"
                | "redirected_statement"
                | "list"
                | "subshell"
                | "compound_statement"
                | "negated_command" => {}
                _ => self.substitutions_in(k, &inner),
            }
        }
    }

    fn heredoc_quoted(&self, r: Node) -> bool {
        let mut cursor = r.walk();
        let quoted = r.named_children(&mut cursor).any(|c| {
            c.kind() == "heredoc_start" && {
                let t = self.text(c);
                t.contains('\'') || t.contains('"') || t.contains('\\')
            }
        });
        quoted
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

    /// Between the parts of one simple command there is no line break: the grammar takes
    /// `ls⏎\⏎rm -rf /` for `ls rm -rf /`, where Bash runs `ls`, then `rm -rf /`.
    fn check_gaps(&mut self, n: Node<'a>) {
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
    fn command(
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
        let (mut words, assignments, red) = self.command_parts(n, index, ctx);
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
    fn command_parts(
        &mut self,
        n: Node<'a>,
        index: usize,
        ctx: &Ctx,
    ) -> (Vec<Word>, Vec<(String, Word)>, Redirections<'a>) {
        let mut words = Vec::new();
        let mut assignments = Vec::new();
        let mut red = Redirections::default();
        let sub_ctx = Ctx {
            pipe: None,
            substituted_into: Some(index),
            function: ctx.function,
        };
        let mut cursor = n.walk();
        let kids: Vec<Node> = n.named_children(&mut cursor).collect();
        // The pieces of the word being read, and where it ends in the text: a word the
        // grammar cut at a backslash-newline (`r\⏎m`) goes on in the next node.
        let mut pending: Option<(Vec<Tok>, usize)> = None;
        for k in kids {
            let word_node = match k.kind() {
                "command_name" => Some(k.named_child(0).unwrap_or(k)),
                "variable_assignment"
                | "file_redirect"
                | "herestring_redirect"
                | "heredoc_redirect"
                | "comment" => None,
                _ => Some(k),
            };
            if let Some(w) = word_node {
                let mut toks = match pending.take() {
                    Some((toks, end)) if self.continues_word(end, k.start_byte()) => toks,
                    Some((toks, _)) => {
                        words.extend(expand::expand(&toks, true, &mut self.extra_words_left));
                        Vec::new()
                    }
                    None => Vec::new(),
                };
                self.toks_into(w, &mut toks, false);
                pending = Some((toks, k.end_byte()));
                self.substitutions_in(k, &sub_ctx);
                continue;
            }
            if let Some((toks, _)) = pending.take() {
                words.extend(expand::expand(&toks, true, &mut self.extra_words_left));
            }
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
                    assignments.push((name, value));
                    self.substitutions_in(k, &sub_ctx);
                }
                "file_redirect" | "herestring_redirect" | "heredoc_redirect" => {
                    self.redirect_node(k, &mut red);
                    self.redirect_substitutions(k, &sub_ctx, index);
                    words.append(&mut red.args);
                }
                _ => {}
            }
        }
        if let Some((toks, _)) = pending {
            words.extend(expand::expand(&toks, true, &mut self.extra_words_left));
        }
        (words, assignments, red)
    }

    /// Whether the text from `end` to `start` is only backslash-newlines: Bash removes
    /// them before it reads words, so the word before goes on after them.
    fn continues_word(&self, end: usize, start: usize) -> bool {
        self.src.get(end..start).is_some_and(|gap| {
            !gap.is_empty() && gap.len() % 2 == 0 && gap.as_bytes().chunks(2).all(|c| c == b"\\\n")
        })
    }

    /// Records `NAME=value` statements (`stmt` is the statement holding assignment `n`).
    fn assignment_statement(&mut self, n: Node<'a>, stmt: Node<'a>) {
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
    fn declaration(&mut self, n: Node<'a>, ctx: &Ctx) {
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
            ..SimpleCommand::default()
        });
        let sub_ctx = Ctx {
            pipe: None,
            substituted_into: Some(index),
            function: ctx.function,
        };
        self.substitutions_in(n, &sub_ctx);
    }

    fn push_synthetic(&mut self, name: &str, n: Node<'a>, ctx: &Ctx) {
        let index = self.script.commands.len();
        self.script.commands.push(SimpleCommand {
            words: vec![Word::lit(name)],
            pipe: ctx.pipe,
            substituted_into: ctx.substituted_into,
            function: ctx.function,
            ..SimpleCommand::default()
        });
        let sub_ctx = Ctx {
            pipe: None,
            substituted_into: Some(index),
            function: ctx.function,
        };
        self.substitutions_in(n, &sub_ctx);
    }

    /// The value of a word-like node as one word: no brace expansion, no splitting (an
    /// assignment's value, a here-string, a function's name).
    fn word(&mut self, n: Node) -> Word {
        let mut toks = Vec::new();
        self.toks_into(n, &mut toks, false);
        expand::single(&toks)
    }

    /// The words a word-like node stands for: braces expanded, the output of unquoted
    /// constant substitutions split (see [`expand`]).
    fn words(&mut self, n: Node) -> Vec<Word> {
        let mut toks = Vec::new();
        self.toks_into(n, &mut toks, false);
        expand::expand(&toks, true, &mut self.extra_words_left)
    }

    /// Reads node `n` into word pieces; `quoted` inside double quotes.
    fn toks_into(&mut self, n: Node, out: &mut Vec<Tok>, quoted: bool) {
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

/// The simple command at the right end of a list (`c` in `a && ! c`), if it is one.
fn last_simple_command(n: Node) -> Option<Node> {
    let mut cur = n;
    loop {
        match cur.kind() {
            "command" => return Some(cur),
            "list" | "negated_command" | "pipeline" => {
                let mut cursor = cur.walk();
                let last = cur
                    .named_children(&mut cursor)
                    .filter(|k| k.kind() != "comment")
                    .last()?;
                cur = last;
            }
            _ => return None,
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

/// The first `command` node in `n` (itself included), in the order of the text.
fn first_command_node(n: Node) -> Option<Node> {
    let mut cursor = n.walk();
    loop {
        let node = cursor.node();
        if node.kind() == "command" {
            return Some(node);
        }
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.node().id() == n.id() {
                return None;
            }
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return None;
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
