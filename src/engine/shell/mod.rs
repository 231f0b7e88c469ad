//! Shell parsing: turns one Bash command string into the simple commands it would run.
//!
//! This module owns the syntax, not the meaning. It uses the tree-sitter Bash grammar and
//! walks the whole tree, so a simple command is found wherever it sits: in a list or
//! pipeline, a subshell or `{ }` group, a function body, `if`/`for`/`while`/`case`, or a
//! `$(…)`, backtick or `<(…)` substitution. For each one it records the words (with quotes
//! and escapes removed where the text is literal), the redirections, any heredoc or
//! here-string feeding its standard input, its place in a pipeline, and which command's
//! argument list it was substituted into. What those words *mean* (wrappers, `bash -c`,
//! `xargs`, paths) is the job of `analyze`.
//!
//! Parsing is bounded: the input size, the tree depth and the parse time are capped; the
//! caller checks the parser's work with [`cost::estimate`] against [`MAX_PARSE_COST`]
//! before asking for a parse; and a tree with a syntax error or one of the grammar's known
//! mis-parses (backquotes nested in odd places) is reported as [`Script::unparsed`], which
//! the classifier turns into a Confirm.

pub mod cost;
pub mod vars;

use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use tree_sitter::{Node, ParseOptions, Parser};

/// The largest command (in bytes) we try to parse. Longer commands are not analysed.
pub const MAX_COMMAND_BYTES: usize = 512 * 1024;
/// The most parsing work one command may cost, in pieces as estimated by [`cost`]: about
/// a microsecond each, so a few milliseconds. The budget is for the whole analysis (a
/// script nested in a string is parsed too); a command over it is not analysed part by
/// part but asked about (Confirm). Everyday commands cost tens of pieces; 3,000 is some
/// 600 short chained commands or a few thousand words.
pub const MAX_PARSE_COST: usize = 3_000;
/// The deepest syntax tree we walk. Real commands stay far below this.
pub const MAX_TREE_DEPTH: usize = 400;
/// The longest we let the parser run. Commands within [`MAX_PARSE_COST`] parse in a few
/// milliseconds; this only stops the parser's error recovery, which on some malformed
/// input grows much faster than the input.
pub const MAX_PARSE_TIME: Duration = Duration::from_millis(100);
/// How much of an expansion's source text a word keeps.
const MAX_RAW_EXPANSION: usize = 256;

/// One shell word after quote removal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Word {
    /// The word's value. Literal parts are unquoted and unescaped; expansions keep their
    /// source text (`$HOME`, `${x}`), and substitutions appear as `$(…)`.
    pub text: String,
    /// True when the value is fully known before the shell runs: no expansion, no
    /// substitution, no unquoted glob or brace expansion.
    pub literal: bool,
}

impl Word {
    pub fn lit(text: &str) -> Word {
        Word {
            text: text.to_string(),
            literal: true,
        }
    }
}

/// A redirection such as `> out.txt`, `2>/dev/null` or `< input`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    /// The operator, e.g. `>`, `>>`, `<`, `&>`, `>|`, `<>`.
    pub op: String,
    pub target: Word,
}

impl Redirect {
    /// Whether this redirection opens its target for writing.
    pub fn writes(&self) -> bool {
        self.op.contains('>')
    }
    /// `>&2`, `2>&1`: duplicates a descriptor rather than naming a file.
    pub fn is_fd_dup(&self) -> bool {
        (self.op.ends_with('&') || self.op == ">&" || self.op == "<&")
            && self
                .target
                .text
                .chars()
                .all(|c| c.is_ascii_digit() || c == '-')
    }
}

/// What feeds a command's standard input, when the command line itself says so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Stdin {
    /// `<<EOF … EOF`. `expanding` is false when the delimiter is quoted (`<<'EOF'`).
    Heredoc { body: String, expanding: bool },
    /// `<<< word`
    HereString(Word),
}

/// One simple command found anywhere in the script.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SimpleCommand {
    /// Leading `NAME=value` assignments.
    pub assignments: Vec<(String, Word)>,
    /// The command name and its arguments.
    pub words: Vec<Word>,
    pub redirects: Vec<Redirect>,
    pub stdin: Option<Stdin>,
    /// `(pipeline id, stage)` when the command is a stage of a pipeline.
    pub pipe: Option<(usize, usize)>,
    /// Index of the command whose arguments (or redirections) hold the substitution this
    /// command sits in, e.g. `curl` in `bash -c "$(curl …)"` points at `bash`.
    pub substituted_into: Option<usize>,
    /// For a command in a function's body: the index of that function in
    /// [`Script::functions`] (the body runs only if the function is called).
    pub function: Option<usize>,
}

impl SimpleCommand {
    pub fn name(&self) -> Option<&Word> {
        self.words.first()
    }
}

/// The result of parsing one command string.
#[derive(Debug, Clone, Default)]
pub struct Script {
    pub commands: Vec<SimpleCommand>,
    /// Redirections attached to compound statements (`{ …; } > f`, `( … ) > f`).
    pub redirects: Vec<Redirect>,
    /// Names of functions defined in the script.
    pub functions: Vec<String>,
    /// For each of [`Script::functions`]: the index in [`Script::commands`] from which the
    /// definition surely holds, when it does (a definition at the top level of the script,
    /// not in a subshell, a condition, a pipeline or the background).
    pub function_at: Vec<Option<usize>>,
    /// Names given to `unset` anywhere in the script.
    pub unset: Vec<String>,
    /// For each pipeline id: the stage of an enclosing pipeline it runs in, if any
    /// (`curl x | { cat | sh; }`); what flows into that stage reaches its first stage.
    pub pipeline_parent: Vec<Option<(usize, usize)>>,
    /// Why the script could not be fully understood, if it could not.
    pub unparsed: Option<String>,
    /// Assignment statements (`NAME=value` alone), in order.
    pub assigned: Vec<vars::Assigned>,
    /// Variables with one known value (see [`vars`]).
    pub constants: Vec<vars::Constant>,
    /// Whether `$PWD` (and `$(pwd)`) may not be the working folder: the script names
    /// `PWD` other than to read it.
    pub pwd_unknown: bool,
    /// Whether the script runs `eval`, `source` or `.`, which could assign any variable
    /// (see [`vars`]).
    pub hidden_code: bool,
    /// `for` loops whose variable is one of known values in the body (see [`vars`]).
    pub loops: Vec<vars::Loop>,
}

/// Parses a Bash command string.
pub fn parse(src: &str) -> Script {
    if src.len() > MAX_COMMAND_BYTES {
        return Script::failed(format!(
            "command is {} bytes, more than the {} bytes analysed",
            src.len(),
            MAX_COMMAND_BYTES
        ));
    }
    if src.contains('\0') {
        return Script::failed("command contains a NUL byte".into());
    }
    let mut parser = Parser::new();
    if parser
        .set_language(&tree_sitter_bash::LANGUAGE.into())
        .is_err()
    {
        return Script::failed("the Bash grammar could not be loaded".into());
    }
    let start = Instant::now();
    // The grammar's scanner passes characters to C `isdigit`, which is undefined past 255
    // and crashes the process on some (`echo a{` followed by U+10FFFF). It parses an ASCII
    // copy instead: every byte of a non-ASCII character becomes `x`, a word character in
    // every context that spells no keyword, so offsets are unchanged and words are still
    // read from `src`. Bash splits words on ASCII only, so this changes no structure.
    let ascii: Vec<u8> = src
        .bytes()
        .map(|b| if b.is_ascii() { b } else { b'x' })
        .collect();
    let bytes = &ascii[..];
    let mut timed_out = false;
    let mut progress = |_: &tree_sitter::ParseState| {
        if start.elapsed() > MAX_PARSE_TIME {
            timed_out = true;
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let options = ParseOptions::new().progress_callback(&mut progress);
    let tree = parser.parse_with_options(
        &mut |i, _| {
            if i < bytes.len() {
                &bytes[i..]
            } else {
                &[] as &[u8]
            }
        },
        None,
        Some(options),
    );
    let Some(tree) = tree else {
        return Script::failed(if timed_out {
            "the command took too long to parse".into()
        } else {
            "the command could not be parsed".into()
        });
    };
    let root = tree.root_node();
    if root.has_error() {
        return Script::failed("the command is not valid Bash syntax".into());
    }
    if tree_depth(root) > MAX_TREE_DEPTH {
        return Script::failed(format!(
            "the command nests deeper than {MAX_TREE_DEPTH} levels"
        ));
    }
    let mut walker = Walker {
        src,
        script: Script::default(),
        pipelines: 0,
        command_of_node: std::collections::HashMap::new(),
    };
    walker.visit(root, &Ctx::default());
    let mut script = walker.script;
    script.unset = script
        .commands
        .iter()
        .filter(|c| c.words.first().is_some_and(|w| w.text == "unset"))
        .flat_map(|c| c.words.iter().skip(1).map(|w| w.text.clone()))
        .collect();
    script.pwd_unknown = vars::may_assign(src, "PWD");
    script.hidden_code = vars::runs_hidden_code(&script.commands);
    let found_loops = std::mem::take(&mut script.loops);
    if !vars::touches_ifs(src) {
        script.constants = vars::constants(src, &script.assigned);
        script.loops = vars::loops(src, found_loops);
    }
    script
}

impl Script {
    fn failed(why: String) -> Script {
        Script {
            unparsed: Some(why),
            ..Script::default()
        }
    }

    /// Whether command `index`, named `name`, surely calls a function of this script rather
    /// than the program of that name: the function is defined before it at the top level
    /// (so the definition has run) and the script never unsets that name.
    pub fn calls_function(&self, index: usize, name: &str) -> bool {
        let defined = self
            .functions
            .iter()
            .zip(&self.function_at)
            .any(|(f, at)| f == name && at.is_some_and(|at| at <= index));
        defined && !self.unset.iter().any(|u| u == name)
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

/// Depth of the tree, computed without recursion so a deep tree cannot overflow the stack.
/// A list nested as the first operand of a list (a chain `a && b && c`) adds no depth: it
/// is walked as one level (see [`split_list`]).
fn tree_depth(root: Node) -> usize {
    let mut cursor = root.walk();
    // For each node on the path from the root to the cursor: its depth, and whether it
    // is a list.
    let mut path = vec![(0usize, root.kind() == "list")];
    let mut max = 0usize;
    let depth_of = |path: &[(usize, bool)], node: Node| {
        let (parent_depth, parent_is_list) = path.last().copied().unwrap_or((0, false));
        let is_list = node.kind() == "list";
        let d = if parent_is_list && is_list {
            parent_depth
        } else {
            parent_depth + 1
        };
        (d, is_list)
    };
    loop {
        if cursor.goto_first_child() {
            let entry = depth_of(&path, cursor.node());
            max = max.max(entry.0);
            path.push(entry);
            continue;
        }
        loop {
            path.pop();
            if cursor.goto_next_sibling() {
                let entry = depth_of(&path, cursor.node());
                max = max.max(entry.0);
                path.push(entry);
                break;
            }
            if !cursor.goto_parent() {
                return max;
            }
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

struct Walker<'a> {
    src: &'a str,
    script: Script,
    pipelines: usize,
    /// The index in `script.commands` of each `command` node, by node id.
    command_of_node: std::collections::HashMap<usize, usize>,
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
            "function_definition" => {
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
            "declaration_command" | "unset_command" => self.declaration(n, ctx),
            "for_statement" => {
                let keyword = n.child(0).map(|k| self.text(k)).unwrap_or_default();
                let name = n
                    .child_by_field_name("variable")
                    .map(|v| self.text(v).to_string())
                    .unwrap_or_default();
                let mut cursor = n.walk();
                let values: Vec<Word> = n
                    .children_by_field_name("value", &mut cursor)
                    .map(|v| self.word(v))
                    .collect();
                let start = self.script.commands.len();
                self.children(n, ctx);
                // `select` sets its variable from what the user types: not known.
                if keyword == "for" {
                    let body = start..self.script.commands.len();
                    self.script.loops.push(vars::Loop { name, values, body });
                }
            }
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

    fn redirected(&mut self, n: Node<'a>, ctx: &Ctx) {
        let body = n.child_by_field_name("body");
        let mut cursor = n.walk();
        let redirect_nodes: Vec<Node> = n.children_by_field_name("redirect", &mut cursor).collect();
        let mut redirects = Vec::new();
        let mut stdin = None;
        let mut tails = Vec::new();
        let mut args = Vec::new();
        for r in &redirect_nodes {
            self.redirect_node(*r, &mut redirects, &mut stdin, &mut tails, &mut args);
        }
        match body {
            Some(b) if b.kind() == "command" => {
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
                for r in &redirect_nodes {
                    self.redirect_substitutions(*r, ctx, receiver);
                }
                if let Some(id) = tail_pipe {
                    self.visit_tails(&tails, ctx, id);
                }
            }
            Some(b) => {
                if !args.is_empty() {
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
                if let Some(s) = stdin {
                    if let Some(c) = self.script.commands.get_mut(before) {
                        if c.stdin.is_none() {
                            c.stdin = Some(s);
                        }
                    }
                }
                self.script.redirects.extend(redirects);
                for r in &redirect_nodes {
                    self.redirect_substitutions(*r, ctx, before);
                }
                if !tails.is_empty() {
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
                    self.visit_tails(&tails, ctx, id);
                }
            }
            None => {
                self.script.redirects.extend(redirects);
            }
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

    /// Reads one redirect node into `redirects` / `stdin`; collects statements that the
    /// grammar hangs off a heredoc (`cat <<EOF | sh`, `cat <<EOF && rm x`) into `tails`.
    fn redirect_node(
        &mut self,
        r: Node<'a>,
        redirects: &mut Vec<Redirect>,
        stdin: &mut Option<Stdin>,
        tails: &mut Vec<Node<'a>>,
        args: &mut Vec<Word>,
    ) {
        match r.kind() {
            "file_redirect" => {
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
                    let target = self.word(*first);
                    redirects.push(Redirect { op, target });
                    // `rm >/dev/null -rf ~` is `rm -rf ~ >/dev/null`: the grammar hangs the
                    // words after the target on the redirection; they are arguments.
                    for d in rest {
                        let w = self.word(*d);
                        args.push(w);
                    }
                }
            }
            "herestring_redirect" => {
                self.check_gaps(r);
                let mut cursor = r.walk();
                let w = r
                    .named_children(&mut cursor)
                    .last()
                    .map(|x| self.word(x))
                    .unwrap_or_else(|| Word::lit(""));
                *stdin = Some(Stdin::HereString(w));
            }
            "heredoc_redirect" => {
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
                        let w = self.word(ch);
                        args.push(w);
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
                        "file_redirect" | "herestring_redirect" => {
                            self.redirect_node(ch, redirects, stdin, tails, args)
                        }
                        _ => tails.push(ch),
                    }
                }
                *stdin = Some(Stdin::Heredoc { body, expanding });
            }
            _ => {}
        }
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
        let mut words = Vec::new();
        let mut assignments = Vec::new();
        let mut redirects = Vec::new();
        let mut stdin = None;
        let mut tails = Vec::new();
        let sub_ctx = Ctx {
            pipe: None,
            substituted_into: Some(index),
            function: ctx.function,
        };
        let mut cursor = n.walk();
        let kids: Vec<Node> = n.named_children(&mut cursor).collect();
        for k in kids {
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
                "command_name" => {
                    let inner = k.named_child(0).unwrap_or(k);
                    words.push(self.word(inner));
                    self.substitutions_in(k, &sub_ctx);
                }
                "file_redirect" | "herestring_redirect" | "heredoc_redirect" => {
                    let mut args = Vec::new();
                    self.redirect_node(k, &mut redirects, &mut stdin, &mut tails, &mut args);
                    self.redirect_substitutions(k, &sub_ctx, index);
                    words.extend(args);
                }
                "comment" => {}
                _ => {
                    words.push(self.word(k));
                    self.substitutions_in(k, &sub_ctx);
                }
            }
        }
        let tail_pipe = if tails.is_empty() {
            None
        } else {
            Some(self.new_pipeline(ctx.pipe))
        };
        words.extend(extra_args);
        if let Some(cmd) = self.script.commands.get_mut(index) {
            cmd.words = words;
            cmd.assignments = assignments;
            cmd.redirects.extend(redirects);
            if stdin.is_some() {
                cmd.stdin = stdin;
            }
            if let Some(id) = tail_pipe {
                cmd.pipe = Some((id, 0));
            }
        }
        if let Some(id) = tail_pipe {
            self.visit_tails(&tails, ctx, id);
        }
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
        let value = n
            .child_by_field_name("value")
            .map(|v| self.word(v))
            .unwrap_or_else(|| Word::lit(""));
        let from = (!appends && surely_runs(stmt)).then_some(self.script.commands.len());
        self.script
            .assigned
            .push(vars::Assigned { name, value, from });
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
                words.push(self.word(ch));
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

    /// The value of a word-like node.
    fn word(&mut self, n: Node) -> Word {
        let mut out = Word {
            text: String::new(),
            literal: true,
        };
        self.word_into(n, &mut out, false);
        out
    }

    fn word_into(&mut self, n: Node, out: &mut Word, quoted: bool) {
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
                if !quoted && is_glob_or_brace(t) {
                    out.literal = false;
                }
                out.text.push_str(&unescape_unquoted(t));
            }
            "string" | "translated_string" => {
                let mut cursor = n.walk();
                let kids: Vec<Node> = n.named_children(&mut cursor).collect();
                if kids.is_empty() {
                    // `""`
                    return;
                }
                // Text between the named parts (e.g. spaces) lives in the source only.
                let inner_start = n.start_byte() + if t.starts_with('$') { 2 } else { 1 };
                let inner_end = n.end_byte().saturating_sub(1);
                let mut pos = inner_start;
                for k in kids {
                    if k.start_byte() > pos {
                        if let Some(gap) = self.src.get(pos..k.start_byte()) {
                            out.text.push_str(&unescape_double(gap));
                        }
                    }
                    self.word_into(k, out, true);
                    pos = k.end_byte();
                }
                if inner_end > pos {
                    if let Some(gap) = self.src.get(pos..inner_end) {
                        out.text.push_str(&unescape_double(gap));
                    }
                }
            }
            "string_content" => out.text.push_str(&unescape_double(t)),
            "raw_string" => {
                let inner = t
                    .strip_prefix('\'')
                    .and_then(|r| r.strip_suffix('\''))
                    .unwrap_or(t);
                out.text.push_str(inner);
            }
            "ansi_c_string" => {
                let inner = t
                    .strip_prefix("$'")
                    .and_then(|r| r.strip_suffix('\''))
                    .unwrap_or(t);
                out.text.push_str(&unescape_ansi_c(inner));
            }
            "number" => out.text.push_str(t),
            "concatenation" => {
                let mut cursor = n.walk();
                let kids: Vec<Node> = n.children(&mut cursor).collect();
                // Globs and braces count only where unquoted: quoted parts (and
                // expansions, which are not literal anyway) are masked, so `'a*'b` stays
                // literal while `{"a",b}` is still a brace expansion.
                if !quoted {
                    let unquoted: String = kids
                        .iter()
                        .map(|k| match k.kind() {
                            "word" => self.text(*k),
                            _ if !k.is_named() => self.text(*k),
                            _ => "_",
                        })
                        .collect();
                    if is_glob_or_brace(&unquoted) {
                        out.literal = false;
                    }
                }
                for k in kids {
                    self.word_into(k, out, quoted);
                }
            }
            "command_substitution" => {
                out.literal = false;
                let inner = t
                    .strip_prefix("$(")
                    .and_then(|r| r.strip_suffix(')'))
                    .or_else(|| t.strip_prefix('`').and_then(|r| r.strip_suffix('`')));
                // `$(pwd)` is the working folder, as `$PWD` is (see `vars::with_pwd`).
                out.text
                    .push_str(if inner.is_some_and(|i| i.trim() == "pwd") {
                        "$PWD"
                    } else if t.starts_with('`') {
                        "`…`"
                    } else {
                        "$(…)"
                    });
            }
            "process_substitution" => {
                out.literal = false;
                out.text.push_str(if t.starts_with('>') {
                    ">(…)"
                } else {
                    "<(…)"
                });
            }
            _ => {
                // Expansions, arithmetic, brace expressions, anything unusual: keep the
                // source (bounded) and mark the word as not known in advance.
                out.literal = false;
                if t.len() > MAX_RAW_EXPANSION {
                    let mut cut = MAX_RAW_EXPANSION;
                    while !t.is_char_boundary(cut) {
                        cut -= 1;
                    }
                    out.text.push_str(&t[..cut]);
                    out.text.push('…');
                } else {
                    out.text.push_str(t);
                }
            }
        }
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

/// An unquoted word holding a newline that no backslash escapes.
fn has_bare_newline(t: &str) -> bool {
    let mut escaped = false;
    for c in t.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '\n' => return true,
            _ => {}
        }
    }
    false
}

fn has_unescaped_backquote(t: &str) -> bool {
    let mut escaped = false;
    let mut in_single = false;
    for c in t.chars() {
        if escaped {
            escaped = false;
            continue;
        }
        match c {
            '\\' if !in_single => escaped = true,
            '\'' => in_single = !in_single,
            '`' if !in_single => return true,
            _ => {}
        }
    }
    false
}

/// Unquoted glob characters or brace expansion make a word's value unknown in advance.
fn is_glob_or_brace(t: &str) -> bool {
    let mut escaped = false;
    let mut brace = false;
    for c in t.chars() {
        if escaped {
            escaped = false;
            continue;
        }
        match c {
            '\\' => escaped = true,
            '*' | '?' | '[' => return true,
            '{' => brace = true,
            ',' if brace => return true,
            '.' if brace => return true,
            _ => {}
        }
    }
    false
}

/// Removes backslash escapes from an unquoted word (`r\m` → `rm`, `\ ` → ` `).
fn unescape_unquoted(t: &str) -> String {
    let mut out = String::with_capacity(t.len());
    let mut chars = t.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('\n') | None => {}
                Some(n) => out.push(n),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Inside double quotes a backslash only escapes `$`, `` ` ``, `"`, `\` and newline.
fn unescape_double(t: &str) -> String {
    let mut out = String::with_capacity(t.len());
    let mut chars = t.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.peek() {
                Some('$' | '`' | '"' | '\\') => {
                    if let Some(n) = chars.next() {
                        out.push(n);
                    }
                }
                Some('\n') => {
                    chars.next();
                }
                _ => out.push(c),
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Decodes the escapes of a `$'…'` string.
fn unescape_ansi_c(t: &str) -> String {
    let mut out = String::with_capacity(t.len());
    let mut chars = t.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('a') => out.push('\u{7}'),
            Some('b') => out.push('\u{8}'),
            Some('e' | 'E') => out.push('\u{1b}'),
            Some('f') => out.push('\u{c}'),
            Some('v') => out.push('\u{b}'),
            Some('x') => {
                let mut v = 0u32;
                let mut n = 0;
                while n < 2 {
                    match chars.peek().and_then(|c| c.to_digit(16)) {
                        Some(d) => {
                            v = v * 16 + d;
                            chars.next();
                            n += 1;
                        }
                        None => break,
                    }
                }
                if let Some(ch) = char::from_u32(v) {
                    out.push(ch);
                }
            }
            Some(d @ '0'..='7') => {
                let mut v = d.to_digit(8).unwrap_or(0);
                let mut n = 1;
                while n < 3 {
                    match chars.peek().and_then(|c| c.to_digit(8)) {
                        Some(x) => {
                            v = v * 8 + x;
                            chars.next();
                            n += 1;
                        }
                        None => break,
                    }
                }
                if let Some(ch) = char::from_u32(v) {
                    out.push(ch);
                }
            }
            Some(other) => out.push(other),
            None => out.push('\\'),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(src: &str) -> Vec<String> {
        let s = parse(src);
        assert!(s.unparsed.is_none(), "{src}: {:?}", s.unparsed);
        s.commands
            .iter()
            .map(|c| c.words.first().map(|w| w.text.clone()).unwrap_or_default())
            .collect()
    }

    fn argv(src: &str) -> Vec<Vec<String>> {
        parse(src)
            .commands
            .iter()
            .map(|c| c.words.iter().map(|w| w.text.clone()).collect())
            .collect()
    }

    #[test]
    fn finds_commands_in_every_construct() {
        let cases: &[(&str, &[&str])] = &[
            ("ls -la", &["ls"]),
            ("a && b || c; d & e", &["a", "b", "c", "d", "e"]),
            ("a | b | c", &["a", "b", "c"]),
            ("(a; b)", &["a", "b"]),
            ("{ a; b; }", &["a", "b"]),
            ("echo $(a) `b`", &["echo", "a", "b"]),
            ("diff <(a) <(b)", &["diff", "a", "b"]),
            ("f() { a; }; f", &["a", "f"]),
            ("if a; then b; else c; fi", &["a", "b", "c"]),
            ("for i in 1 2; do a $i; done", &["a"]),
            ("while a; do b; done", &["a", "b"]),
            ("case x in y) a;; *) b;; esac", &["a", "b"]),
            ("x=$(a)", &["a"]),
            ("export X=$(a)", &["export", "a"]),
            ("echo \"$(a \"$(b)\")\"", &["echo", "a", "b"]),
            ("( ( a ) )", &["a"]),
            ("! a", &["a"]),
            ("[[ $(a) ]]", &["[[", "a"]),
            ("a > \"$(b)\"", &["a", "b"]),
        ];
        for (src, want) in cases {
            let mut got = names(src);
            got.sort();
            let mut want: Vec<String> = want.iter().map(|s| s.to_string()).collect();
            want.sort();
            assert_eq!(got, want, "{src}");
        }
    }

    #[test]
    fn removes_quotes_and_escapes() {
        let cases: &[(&str, &[&str])] = &[
            ("'rm' -rf x", &["rm", "-rf", "x"]),
            ("\\rm x", &["rm", "x"]),
            ("r\\m x", &["rm", "x"]),
            ("\"r\"m x", &["rm", "x"]),
            ("$'r\\x6d' x", &["rm", "x"]),
            ("echo \"a b\" 'c d'", &["echo", "a b", "c d"]),
            ("echo \"a \\\"q\\\" b\"", &["echo", "a \"q\" b"]),
        ];
        for (src, want) in cases {
            assert_eq!(argv(src)[0], *want, "{src}");
        }
    }

    #[test]
    fn data_is_not_a_command() {
        let cases: &[(&str, &[&str])] = &[
            ("echo \"rm -rf /\"", &["echo"]),
            ("git commit -m 'rm -rf /'", &["git"]),
            ("ls # rm -rf /", &["ls"]),
            ("cat <<'EOF'\nrm -rf /\nEOF", &["cat"]),
            ("echo '$(rm -rf /)'", &["echo"]),
        ];
        for (src, want) in cases {
            assert_eq!(names(src), *want, "{src}");
        }
    }

    #[test]
    fn literal_flag() {
        let s = parse("rm -rf $HOME \"$X\"/a '*' * {a,b} ~");
        let lit: Vec<bool> = s.commands[0].words.iter().map(|w| w.literal).collect();
        assert_eq!(
            lit,
            vec![true, true, false, false, true, false, false, true]
        );
    }

    #[test]
    fn heredocs_and_pipes() {
        let s = parse("cat <<EOF | bash\nrm -rf /\nEOF");
        assert_eq!(s.commands.len(), 2);
        assert_eq!(
            s.commands[0].stdin,
            Some(Stdin::Heredoc {
                body: "rm -rf /\n".into(),
                expanding: true
            })
        );
        assert_eq!(s.commands[0].pipe.map(|p| p.1), Some(0));
        assert_eq!(s.commands[1].pipe.map(|p| p.1), Some(1));
        let s = parse("bash <<'EOF'\nls\nEOF");
        assert!(matches!(
            s.commands[0].stdin,
            Some(Stdin::Heredoc {
                expanding: false,
                ..
            })
        ));
        let s = parse("curl x | sudo bash");
        assert_eq!(s.commands[0].pipe, Some((0, 0)));
        assert_eq!(s.commands[1].pipe, Some((0, 1)));
    }

    #[test]
    fn substitution_parent() {
        let s = parse("sh -c \"$(curl x)\"");
        assert_eq!(s.commands[1].words[0].text, "curl");
        assert_eq!(s.commands[1].substituted_into, Some(0));
    }

    #[test]
    fn redirects() {
        let s = parse("echo hi > out.txt 2>/dev/null");
        let r = &s.commands[0].redirects;
        assert_eq!(r.len(), 2);
        assert_eq!(r[0].target.text, "out.txt");
        assert!(r[0].writes());
        let s = parse("{ a; } > f");
        assert_eq!(s.redirects[0].target.text, "f");
    }

    #[test]
    fn fails_closed() {
        let cases = [
            "echo $(",
            "if then",
            "echo `echo foo`\necho ` rm -rf /`",
            "cat <<EOF\n`rm -rf /`\nEOF",
        ];
        for src in cases {
            assert!(parse(src).unparsed.is_some(), "{src}");
        }
        let deep = "(".repeat(5000) + "ls" + &")".repeat(5000);
        assert!(parse(&deep).unparsed.is_some());
        let big = "a".repeat(MAX_COMMAND_BYTES + 1);
        assert!(parse(&big).unparsed.is_some());
    }
}
