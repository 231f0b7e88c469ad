//! Redirections of a statement (`> f`, `2>>log`, `<<EOF`, `<<< s`): which command they
//! belong to, the heredoc or here-string it reads, the statements the grammar hangs off a
//! heredoc (`cat <<EOF | sh`), and the commands substituted into their targets.

use tree_sitter::Node;

use super::{Ctx, Walker};
use crate::engine::shell::{Redirect, Stdin, Word};

/// What the redirect nodes of a statement hold.
#[derive(Default)]
pub(super) struct Redirections<'a> {
    pub(super) redirects: Vec<Redirect>,
    pub(super) stdin: Option<Stdin>,
    /// Statements that the grammar hangs off a heredoc (`cat <<EOF | sh`).
    pub(super) tails: Vec<Node<'a>>,
    /// Words after a redirection's target: they are arguments of the command.
    pub(super) args: Vec<Word>,
}

impl<'a> Walker<'a> {
    /// A statement with redirections: a simple command (which gets them), a compound
    /// statement, or redirections alone.
    pub(super) fn redirected(&mut self, n: Node<'a>, ctx: &Ctx) {
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
        mut red: Redirections<'a>,
        ctx: &Ctx,
    ) {
        // A declaration is one simple command to Bash: `export A=1 >> f B=2` exports
        // both, and the words after the target are its own (read as the grammar reads
        // the declaration's words).
        let declaration = matches!(b.kind(), "declaration_command" | "unset_command");
        if !red.args.is_empty() && !declaration {
            self.fail("words follow the redirection of a compound command");
        }
        let first = self.script.commands.len();
        let first_stage_ctx = Ctx {
            enclosed_input: ctx.enclosed_input || !red.redirects.is_empty() || red.stdin.is_some(),
            ..*ctx
        };
        self.visit(b, &first_stage_ctx);
        if declaration {
            let args = std::mem::take(&mut red.args);
            if let Some(c) = self.script.commands.get_mut(first) {
                c.words.extend(args);
            }
        }
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

    /// Reads one redirect node into `red`.
    pub(super) fn redirect_node(&mut self, r: Node<'a>, red: &mut Redirections<'a>) {
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
    pub(super) fn redirect_substitutions(&mut self, r: Node<'a>, ctx: &Ctx, receiver: usize) {
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
