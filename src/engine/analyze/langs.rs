//! Code in other languages (see [`crate::engine::lang`]): the effects of the code an
//! interpreter runs become the facts a shell command gives. Files it reads and writes are
//! file accesses; deletes are judged as `rm` of the same path (so the rules for `rm -rf`
//! apply); the programs it starts are judged as Bash commands, one level deeper; network
//! use, the whole environment and anything the code cannot be followed in are signals.
//! The interpreter's own invocation is marked [`Invocation::code`]: when every effect was
//! read, the Safe rule for judged code applies to it instead of the fallback for
//! interpreters; when not, the rule for opaque code does.

use std::path::{Path, PathBuf};

use super::flow::{literal_output, stage_before, upstream_of};
use super::{Analyzer, CmdCtx, CodeRead, Invocation, SignalName, MAX_NESTING};
use crate::engine::lang::argv::{self, CodeCall, Source};
use crate::engine::lang::{self, Effect, Lang, Part, Text, MAX_CODE_BYTES};
use crate::engine::policy::AccessKind;
use crate::engine::shell::{Stdin, Word};

/// What reading the code found out.
pub(super) enum Read {
    /// The command runs no code of its own, or none that could be read.
    Nothing,
    /// The code was read (and judged); its standard input is data.
    Code,
}

impl Analyzer<'_> {
    /// Judges the code an interpreter invocation runs, when it can be read.
    pub(super) fn other_language(&mut self, inv: &mut Invocation, ctx: &CmdCtx) -> Read {
        let Some(call) = argv::command_line(&inv.name, &inv.args) else {
            return Read::Nothing;
        };
        let cwd = inv.cwd.clone();
        let mut opaque: Vec<String> = call.opaque.clone().into_iter().collect();
        let (source, import_dir) = self.code_source(&call, cwd.as_deref(), ctx, &mut opaque);
        let Some((src, known)) = source else {
            // A script that could not be read, or options that load other code (awk has
            // rules of its own for these).
            if let Some(why) = opaque.first().filter(|_| call.lang != Lang::Awk) {
                self.opaque_code(inv, call.lang, why.clone());
            }
            return Read::Nothing;
        };
        if !known {
            opaque.push("the code is known only at run time".into());
        }
        if ctx.depth + 1 > MAX_NESTING {
            self.facts
                .signal(SignalName::TooDeep, "code nested inside strings too deeply");
            return Read::Code;
        }
        let judged = lang::memo::analyze(self.env.fs, call.lang, &src);
        let inner = CmdCtx {
            script: ctx.script,
            index: ctx.index,
            cmd: ctx.cmd,
            depth: ctx.depth + 1,
        };
        let origin = format!("{} code", inv.name);
        for e in &judged.effects {
            self.code_effect(
                e,
                cwd.clone(),
                import_dir.as_deref(),
                &inner,
                &origin,
                &mut opaque,
            );
        }
        self.code_inputs(&call, inv, &origin);
        match opaque.first() {
            // awk has rules of its own for what it is not known to do.
            Some(_) if call.lang == Lang::Awk => {}
            Some(why) => self.opaque_code(inv, call.lang, why.clone()),
            None if call.lang != Lang::Awk => inv.code = Some(CodeRead::Judged),
            None => {}
        }
        Read::Code
    }

    /// The code of `call` (its text, and whether all of it is known), and the folder a
    /// Python script's imports are looked up in first.
    fn code_source(
        &mut self,
        call: &CodeCall,
        cwd: Option<&Path>,
        ctx: &CmdCtx,
        opaque: &mut Vec<String>,
    ) -> (Option<(String, bool)>, Option<PathBuf>) {
        match &call.source {
            Source::Inline(_) => (call.inline_text(), cwd.map(Path::to_path_buf)),
            Source::Stdin => (self.stdin_text(ctx), cwd.map(Path::to_path_buf)),
            Source::File(f) => {
                let text = self.script_file(f, cwd, ctx, opaque);
                let path = self.resolve(f, cwd);
                let import_dir = path
                    .lexical
                    .as_deref()
                    .and_then(|p| Path::new(p).parent())
                    .map(Path::to_path_buf);
                (text, import_dir)
            }
        }
    }

    /// Files the code's loop reads (and with `-i` writes), unless the program's declared
    /// effects say which of its words it reads or writes.
    fn code_inputs(&mut self, call: &CodeCall, inv: &Invocation, origin: &str) {
        let declared = self
            .policy()
            .effects(&inv.name)
            .is_some_and(|e| e.reads.is_some() || e.writes.is_some());
        let cwd = inv.cwd.as_deref();
        for f in call.inputs.iter().filter(|_| !declared) {
            self.access(AccessKind::Read, f, cwd, origin);
            if call.in_place {
                self.access(AccessKind::Write, f, cwd, origin);
            }
        }
    }

    /// Code of `lang` that `inv` runs and that cannot be followed, for reason `why`.
    fn opaque_code(&mut self, inv: &mut Invocation, lang: Lang, why: String) {
        self.facts.signal(
            SignalName::CodeOpaque,
            format!("{} code the hook cannot follow: {why}", lang.name()),
        );
        inv.code = Some(CodeRead::Opaque);
    }

    /// One effect of the code, as the facts of a shell command; what cannot be followed in
    /// it is added to `opaque`.
    fn code_effect(
        &mut self,
        e: &Effect,
        cwd: Option<PathBuf>,
        import_dir: Option<&Path>,
        ctx: &CmdCtx,
        origin: &str,
        opaque: &mut Vec<String>,
    ) {
        match e {
            Effect::Read(t) | Effect::Write(t) => {
                let kind = if matches!(e, Effect::Read(_)) {
                    AccessKind::Read
                } else {
                    AccessKind::Write
                };
                if !t.is_known() {
                    opaque.push("a file whose name is computed at run time".into());
                }
                let (text, literal) = t.path_text();
                self.access(kind, &Word { text, literal }, cwd.as_deref(), origin);
            }
            Effect::Delete { path, recursive } => {
                if !path.is_known() {
                    opaque.push("a file whose name is computed at run time".into());
                }
                self.code_command(&delete_line(path, *recursive), cwd, ctx, origin);
            }
            Effect::Shell(t) => {
                if !t.is_known() {
                    opaque.push("a command computed at run time".into());
                }
                let (text, literal) = t.path_text();
                let at = self.facts.invocations.len();
                self.code_string(&Word { text, literal }, cwd, ctx);
                self.mark_origin(at, origin);
            }
            Effect::Exec(argv) => {
                if argv.iter().any(|a| !a.is_known()) {
                    opaque.push("a program started with arguments computed at run time".into());
                }
                let line = argv
                    .iter()
                    .map(Text::shell_word)
                    .collect::<Vec<_>>()
                    .join(" ");
                self.code_command(&line, cwd, ctx, origin);
            }
            Effect::Network(what) => self.facts.signal(
                SignalName::CodeNetwork,
                format!("{origin} talks to the network ({what})"),
            ),
            Effect::EnvDump(what) => self
                .facts
                .signal(SignalName::CodeEnv, format!("{origin} {what}")),
            Effect::SecretEnv(name) => self.facts.signal(
                SignalName::CodeSecretEnv,
                format!("{origin} reads the variable {name}, whose name says it holds a secret"),
            ),
            Effect::Import(m) => {
                if self.import_shadowed(m, import_dir) {
                    opaque.push(format!(
                        "`import {m}` may load a file of the project instead of the module"
                    ));
                }
            }
            Effect::Opaque(why) => opaque.push(why.clone()),
        }
    }

    /// Whether a file or folder named for module `m` where imports are looked up first
    /// (`import_dir`, unknown: maybe) replaces the module.
    fn import_shadowed(&self, m: &str, import_dir: Option<&Path>) -> bool {
        match import_dir {
            Some(d) => [format!("{m}.py"), m.to_string()]
                .iter()
                .any(|n| self.env.fs.canonicalize(&d.join(n)).is_some()),
            None => true,
        }
    }

    /// A command line the code runs, judged as Bash one level deeper.
    fn code_command(&mut self, line: &str, cwd: Option<PathBuf>, ctx: &CmdCtx, origin: &str) {
        let at = self.facts.invocations.len();
        self.script(line, cwd, ctx.depth + 1);
        self.mark_origin(at, origin);
    }

    /// Names the code as the origin of the programs found from invocation `at` on.
    pub(super) fn mark_origin(&mut self, at: usize, origin: &str) {
        for inv in self.facts.invocations.iter_mut().skip(at) {
            if !inv.display.starts_with(origin) {
                inv.display = format!("{origin}: {}", inv.display);
            }
        }
    }

    /// The code an interpreter reads from its standard input, when the command line says
    /// what it is: a heredoc, a here-string, or the literal output of the stage before.
    fn stdin_text(&mut self, ctx: &CmdCtx) -> Option<(String, bool)> {
        let cmd = ctx.cmd;
        if let Some((pid, stage)) = cmd.pipe {
            let prev = stage_before(ctx.script, pid, stage)?;
            return literal_output(prev).map(|t| (t, true));
        }
        match &cmd.stdin {
            Some(Stdin::Heredoc { body, expanding }) => {
                let known = !expanding || !(body.contains('$') || body.contains('`'));
                Some((body.clone(), known))
            }
            Some(Stdin::HereString(w)) => Some((w.text.clone(), w.literal)),
            None => None,
        }
    }

    /// Whether a downloader upstream in the pipeline feeds this command (raises the signal).
    pub(super) fn remote_upstream(&mut self, inv: &Invocation, ctx: &CmdCtx) {
        let Some(at) = ctx.cmd.pipe else { return };
        let found = ctx
            .script
            .commands
            .iter()
            .filter(|c| c.pipe.is_some_and(|up| upstream_of(ctx.script, up, at)))
            .find(|c| self.is_download(c))
            .map(|c| super::join_words(&c.words));
        if let Some(d) = found {
            self.facts.signal(
                SignalName::RemoteCode,
                format!("pipes the output of `{d}` into `{}`", inv.name),
            );
        }
    }

    /// The text of a script file a command runs: what an earlier command of the same
    /// script wrote there when that is known (`printf … > c.sh && bash c.sh`), else the
    /// file on disk when it is small. A file the command changes in a way not known, or
    /// one that cannot be read, is opaque.
    pub(super) fn script_file(
        &mut self,
        f: &Word,
        cwd: Option<&Path>,
        ctx: &CmdCtx,
        opaque: &mut Vec<String>,
    ) -> Option<(String, bool)> {
        if !f.literal {
            opaque.push(format!("runs `{}`, a file named only at run time", f.text));
            return None;
        }
        let path = self.resolve(f, cwd).lexical?;
        // Written earlier in the same script: by a redirection of a command whose output
        // is known, or else in a way that is not known.
        let mut written: Option<Option<String>> = None;
        for c in ctx.script.commands.iter().take(ctx.index) {
            for r in &c.redirects {
                if !r.writes() || r.is_fd_dup() {
                    continue;
                }
                let target = self.resolve(&r.target, cwd);
                if target.lexical.as_deref() == Some(path.as_str()) {
                    let text = literal_output(c).filter(|_| r.op == ">" || r.op == ">|");
                    written = Some(text);
                }
            }
        }
        let earlier_write = self
            .facts
            .accesses
            .iter()
            .any(|a| a.kind == AccessKind::Write && a.path.lexical.as_deref() == Some(&path));
        match written {
            Some(Some(text)) => return Some((text, true)),
            Some(None) => {
                opaque.push(format!("runs `{}`, which the same command writes", f.text));
                return None;
            }
            None if earlier_write => {
                opaque.push(format!("runs `{}`, which the same command changes", f.text));
                return None;
            }
            None => {}
        }
        match self.env.fs.read_small(Path::new(&path), MAX_CODE_BYTES) {
            Some(text) => Some((text, true)),
            None => {
                opaque.push(format!("runs `{}`, which could not be read", f.text));
                None
            }
        }
    }

    /// `bash x.sh`, `source x.sh`, `./x.sh`: the script's commands are judged too (the
    /// command that runs it keeps its own verdict). Returns whether it was read.
    pub(super) fn shell_script_file(&mut self, f: &Word, cwd: Option<PathBuf>, ctx: &CmdCtx) {
        let mut opaque = Vec::new();
        match self.script_file(f, cwd.as_deref(), ctx, &mut opaque) {
            Some((text, _)) => {
                let at = self.facts.invocations.len();
                // The script runs where the command runs.
                self.script(&text, cwd, ctx.depth + 1);
                self.mark_origin(at, &format!("script {}", f.text));
            }
            None => {
                if let Some(why) = opaque.first() {
                    self.facts.signal(SignalName::CodeOpaque, why.clone());
                }
            }
        }
    }

    /// `./x.sh`, `./tool.py`: a file run as a program, judged by its first line.
    pub(super) fn program_file(&mut self, prog: &Word, inv: &Invocation, ctx: &CmdCtx) {
        let path = self.resolve(prog, inv.cwd.as_deref());
        let Some(p) = path.lexical else { return };
        let Some(head) = self.env.fs.read_small(Path::new(&p), MAX_CODE_BYTES) else {
            return;
        };
        let Some(line) = head.lines().next().and_then(|l| l.strip_prefix("#!")) else {
            return;
        };
        let mut words = line.split_whitespace();
        let mut interp = words.next().unwrap_or("").rsplit('/').next().unwrap_or("");
        if interp == "env" {
            interp = words
                .find(|w| !w.starts_with('-'))
                .unwrap_or("")
                .rsplit('/')
                .next()
                .unwrap_or("");
        }
        if self.policy().is_shell(interp) {
            let at = self.facts.invocations.len();
            self.script(&head, inv.cwd.clone(), ctx.depth + 1);
            self.mark_origin(at, &format!("script {}", prog.text));
            return;
        }
        if argv::language(interp).is_some() {
            let mut runner = Invocation {
                name: interp.to_string(),
                args: std::iter::once(prog.clone())
                    .chain(inv.args.iter().cloned())
                    .collect(),
                ..inv.clone()
            };
            self.other_language(&mut runner, ctx);
        }
    }

    /// awk: the commands and files its program names are judged (its own rules judge the
    /// rest, as for any command).
    pub(super) fn awk(&mut self, mut inv: Invocation, ctx: &CmdCtx) {
        self.other_language(&mut inv, ctx);
        self.push_with_effects(inv);
    }
}

/// The `rm` command a delete of `path` by code stands for. A delete of what a recursive
/// glob names (`Path.rglob`) empties the folders under its root: the same as a recursive
/// delete of that root's contents.
fn delete_line(path: &Text, recursive: bool) -> String {
    let mut path = path.clone();
    let mut recursive = recursive;
    if let Some(Part::Lit(t)) = path.0.first_mut() {
        if t.contains("/**/") || t.ends_with("/**") {
            *t = t.replace("/**/", "/").trim_end_matches("/**").to_string();
            recursive = true;
        }
    }
    let flags = if recursive { "-r " } else { "" };
    format!("rm {flags}-- {}", path.shell_word())
}
