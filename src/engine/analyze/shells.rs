//! Code handed to shells and interpreters: `bash -c`, `eval`, code on standard input,
//! code known only at run time, and remote code (downloaded and run in one command).

use std::path::{Path, PathBuf};

use super::flow::{
    fed_through_substitution, literal_output, stage_before, substituted_within, upstream_of,
};
use super::langs::Read;
use super::walk::quoted;
use super::wrappers::{self, peel_for_download};
use super::{join_words, program_name, Analyzer, CmdCtx, Invocation, SignalName};
use crate::engine::args::skip_options_by;
use crate::engine::policy::{AccessKind, Effects, List, Policy};
use crate::engine::shell::{SimpleCommand, Stdin, Word};

impl Analyzer<'_> {
    /// A file run as a program or script: remote code if a downloader wrote it earlier in
    /// the same command (`curl -o x.sh URL && bash x.sh`).
    pub(super) fn runs_file(&mut self, w: &Word, cwd: Option<&Path>) {
        if self.downloaded.is_empty() {
            return;
        }
        let path = self.resolve(w, cwd);
        if path
            .lexical
            .as_ref()
            .is_some_and(|p| self.downloaded.contains(p))
        {
            self.facts.signal(
                SignalName::RemoteCode,
                format!(
                    "runs `{}`, which was downloaded in the same command",
                    w.text
                ),
            );
        }
    }

    /// `eval WORDS…`: runs its words joined as a script.
    pub(super) fn eval(&mut self, inv: Invocation, cwd: Option<PathBuf>, ctx: &CmdCtx) {
        let text = join_words(&inv.args);
        let known = inv.args.iter().all(|a| a.literal);
        self.push(inv);
        if !known {
            self.dynamic_code(ctx, "eval runs text that is known only at run time");
        }
        // What is known of the text is judged too (see `code_string`).
        self.script(&text, cwd, ctx.depth + 1);
    }

    /// `source FILE`, `. FILE`: runs a file in this shell.
    pub(super) fn source(&mut self, inv: Invocation, cwd: Option<PathBuf>, ctx: &CmdCtx) {
        if let Some(f) = inv.args.first() {
            self.runs_file(f, cwd.as_deref());
            self.shell_script_file(f, cwd.clone(), ctx);
        }
        self.push(inv);
        self.dynamic_code_check_remote(ctx);
    }

    /// `watch [OPTIONS] COMMAND…`: runs its words joined as a script, again and again; with
    /// an option of its `program_flags` (`-x`, `--exec`) it runs them as they are, a
    /// program and its arguments.
    pub(super) fn watch(&mut self, inv: Invocation, cwd: Option<PathBuf>, ctx: &CmdCtx) {
        let commands: Vec<(bool, Vec<Word>)> = wrappers::readings(self.policy(), "watch", |eff| {
            skip_options_by(&inv.args, |t| eff.takes_value(t))
        })
        .into_iter()
        .map(|rest| {
            let options = &inv.args[..inv.args.len() - rest.len()];
            let exec = options.iter().any(|o| {
                self.policy()
                    .effects_readings("watch")
                    .into_iter()
                    .any(|eff| watch_exec(&o.text, eff))
            });
            (exec, rest.to_vec())
        })
        .collect();
        self.push(inv);
        for (exec, rest) in commands {
            if rest.iter().all(|a| a.literal) {
                let text = if exec {
                    rest.iter().map(quoted).collect::<Vec<_>>().join(" ")
                } else {
                    join_words(&rest)
                };
                self.script(&text, cwd.clone(), ctx.depth + 1);
            } else {
                self.dynamic_code(ctx, "watch runs a command known only at run time");
            }
        }
    }

    /// `su -c SCRIPT`, `runuser -c SCRIPT` (the `code_flags` of its built-in table): runs a
    /// script as another user.
    pub(super) fn su(&mut self, inv: Invocation, cwd: Option<PathBuf>, ctx: &CmdCtx) {
        let code_flags = Policy::builtin_effects(&inv.name).map(|e| &e.code_flags);
        let code = inv
            .args
            .iter()
            .position(|a| code_flags.is_some_and(|c| c.contains(&a.text)))
            .and_then(|pos| inv.args.get(pos + 1))
            .cloned();
        self.push(inv);
        if let Some(code) = code {
            self.code_string(&code, cwd, ctx);
        }
    }

    /// `python3 x.py`, `node -`: an interpreter runs a script file or its input.
    pub(super) fn interpreter(&mut self, mut inv: Invocation, cwd: Option<PathBuf>, ctx: &CmdCtx) {
        // The first word that is not an option is the script.
        if let Some(f) = inv.args.iter().find(|a| !a.text.starts_with('-')) {
            self.runs_file(f, cwd.as_deref());
        }
        // Code in a language read here is judged by what it does; its input is then data.
        match self.other_language(&mut inv, ctx) {
            Read::Code => self.remote_upstream(&inv, ctx),
            Read::Nothing => self.stdin_code(&inv, ctx, false),
        }
        self.dynamic_code_check_remote(ctx);
        self.push_with_effects(inv);
    }

    /// `bash -c STRING`, `bash script.sh`, or a bare shell reading standard input.
    pub(super) fn shell(&mut self, inv: Invocation, cwd: Option<PathBuf>, ctx: &CmdCtx) {
        let opts = shell_options(&inv.args, shell_tables(&inv.name));
        let rest = &inv.args[opts.script_at.min(inv.args.len())..]; // an option may lack its value
        if opts.dash_c {
            let code = rest.first().cloned();
            self.push(inv.clone());
            match code {
                Some(code) => self.code_string(&code, cwd, ctx),
                None => self
                    .facts
                    .signal(SignalName::DynamicScript, "a shell -c without a script"),
            }
            return;
        }
        if rest.is_empty() || opts.reads_stdin {
            self.stdin_code(&inv, ctx, true);
            self.push(inv);
            return;
        }
        // `bash script.sh`: runs a file; the rule for running scripts decides.
        self.dynamic_code_check_remote(ctx);
        if let Some(f) = rest.first() {
            self.runs_file(f, cwd.as_deref());
            self.access(AccessKind::Read, f, cwd.as_deref(), "shell script");
            self.shell_script_file(f, cwd.clone(), ctx);
        }
        self.push(inv);
    }

    /// A string that a shell will run as a script.
    /// A script only partly known (`bash -c "rm -rf / $X"`) asks as a whole, and what is
    /// known of it is judged as well, its unknown parts standing as they are written: a
    /// forbidden part is denied, not only asked about.
    pub(super) fn code_string(&mut self, code: &Word, cwd: Option<PathBuf>, ctx: &CmdCtx) {
        if !code.literal {
            self.dynamic_code(ctx, "a shell runs a script known only at run time");
        }
        self.script(&code.text, cwd, ctx.depth + 1);
    }

    /// Code known only at run time: remote code if a downloader feeds it, else unknown.
    pub(super) fn dynamic_code(&mut self, ctx: &CmdCtx, why: &str) {
        if !self.dynamic_code_check_remote(ctx) {
            self.facts.signal(SignalName::DynamicScript, why);
        }
    }

    /// Whether a downloader's output is substituted into this command's arguments
    /// (`bash -c "$(curl …)"`, `source <(wget …)`, `eval "$(curl …)"`); raises the signal.
    pub(super) fn dynamic_code_check_remote(&mut self, ctx: &CmdCtx) -> bool {
        let mut found = None;
        for (j, c) in ctx.script.commands.iter().enumerate() {
            if substituted_within(ctx.script, j, ctx.index) && self.is_download(c) {
                found = Some(join_words(&c.words));
                break;
            }
        }
        if let Some(d) = found {
            self.facts.signal(
                SignalName::RemoteCode,
                format!("runs code downloaded by `{d}`"),
            );
            return true;
        }
        false
    }

    /// A shell or interpreter that reads its program from standard input.
    pub(super) fn stdin_code(&mut self, inv: &Invocation, ctx: &CmdCtx, is_shell: bool) {
        let cmd = ctx.cmd;
        let in_substitution = cmd.substituted_into.is_some()
            && cmd.stdin.is_none()
            && !cmd.redirects.iter().any(|r| !r.writes());
        match cmd.pipe {
            Some(at) => self.piped_code(inv, ctx, at, is_shell),
            None if is_shell && in_substitution => self.substitution_fed_code(inv, ctx),
            None => self.fed_code(inv, ctx, is_shell),
        }
    }

    /// A shell reading its input inside a process substitution (`echo … > >(sh)`,
    /// `tee >(bash)`, `exec 3> >(sh)`): it runs what the command around it writes there,
    /// when that is known.
    fn substitution_fed_code(&mut self, inv: &Invocation, ctx: &CmdCtx) {
        let fed = ctx
            .cmd
            .substituted_into
            .and_then(|i| fed_through_substitution(ctx.script, i));
        match fed {
            Some(texts) => {
                for t in texts {
                    self.script(&t, inv.cwd.clone(), ctx.depth + 1);
                }
            }
            None => self.fed_code(inv, ctx, true),
        }
    }

    /// A reader at stage `at` of a pipeline: remote code if a downloader is upstream,
    /// whatever the reader; for a shell, the text of the stage before when it is known.
    fn piped_code(&mut self, inv: &Invocation, ctx: &CmdCtx, at: (usize, usize), is_shell: bool) {
        let (pid, stage) = at;
        let upstream: Vec<&SimpleCommand> = ctx
            .script
            .commands
            .iter()
            .filter(|c| c.pipe.is_some_and(|up| upstream_of(ctx.script, up, at)))
            .collect();
        if let Some(d) = upstream.iter().find(|c| self.is_download(c)) {
            self.facts.signal(
                SignalName::RemoteCode,
                format!(
                    "pipes the output of `{}` into `{}`",
                    join_words(&d.words),
                    inv.name
                ),
            );
            return;
        }
        if !is_shell {
            if inv.args.is_empty() || inv.args.iter().any(|a| a.text == "-") {
                self.facts.signal(
                    SignalName::StdinCode,
                    format!("`{}` runs code from a pipe", inv.name),
                );
            }
            return;
        }
        // The stage right before: literal text or a heredoc we can read.
        let prev = stage_before(ctx.script, pid, stage);
        match prev.and_then(literal_output) {
            Some(text) => self.script(&text, inv.cwd.clone(), ctx.depth + 1),
            None => self.facts.signal(
                SignalName::StdinCode,
                format!("`{}` runs commands read from a pipe", inv.name),
            ),
        }
    }

    /// A reader fed by a heredoc, a here-string or a file (`bash <<EOF`, `sh < x.sh`).
    fn fed_code(&mut self, inv: &Invocation, ctx: &CmdCtx, is_shell: bool) {
        let cmd = ctx.cmd;
        match &cmd.stdin {
            Some(Stdin::Heredoc { body, .. }) if is_shell => {
                self.script(body, inv.cwd.clone(), ctx.depth + 1)
            }
            Some(Stdin::HereString(w)) if is_shell => self.code_string(w, inv.cwd.clone(), ctx),
            Some(_) => self.facts.signal(
                SignalName::StdinCode,
                format!("`{}` runs code fed to it", inv.name),
            ),
            None => {
                let from_file = cmd.redirects.iter().any(|r| r.op == "<");
                if is_shell || from_file {
                    self.facts.signal(
                        SignalName::StdinCode,
                        format!("`{}` runs commands from its input", inv.name),
                    );
                }
            }
        }
    }

    pub(super) fn is_download(&self, c: &SimpleCommand) -> bool {
        peel_for_download(&c.words).first().is_some_and(|first| {
            let (name, _) = program_name(&first.text);
            self.policy().is_downloader(&name)
        })
    }
}

/// What a shell's options say.
struct ShellOptions {
    /// Where the script (or the file to run) starts.
    script_at: usize,
    /// `-c` (a `string_flags` option): the first word after the options is the script.
    dash_c: bool,
    /// `-s` (a `stdin_flags` option): the script is read from standard input.
    reads_stdin: bool,
}

/// The built-in tables a shell's command line is read with: its own, and `sh`'s. `sh` is
/// bash on some systems, so its table holds the options bash reads with a value; a shell
/// that does not take one of them refuses the command, so reading it as `sh` does loses
/// nothing, and a shell without a table of its own (`fish`, `tcsh`, one a user's kinds
/// add) is read as `sh` is.
fn shell_tables(name: &str) -> [Option<&'static Effects>; 2] {
    let sh = if name == "sh" {
        None
    } else {
        Policy::builtin_effects("sh")
    };
    [Policy::builtin_effects(name), sh]
}

/// Reads a shell's options with its `tables`: those that take a value skip it (`-o NAME`,
/// `--rcfile FILE`), a cluster of one dash holding a letter of `string_flags` or
/// `stdin_flags` says where the script comes from, a word of `+` is an option; the first
/// other word (or the one after `--`) starts the script.
fn shell_options(args: &[Word], tables: [Option<&Effects>; 2]) -> ShellOptions {
    let tables = tables.iter().flatten();
    let mut i = 0;
    let mut dash_c = false;
    let mut reads_stdin = false;
    let has_letter = |list: &List, letters: &str| {
        list.iter().any(|f| {
            f.strip_prefix('-')
                .filter(|l| l.len() == 1 && !l.starts_with('-'))
                .is_some_and(|l| letters.contains(l))
        })
    };
    while i < args.len() {
        let t = args[i].text.as_str();
        if t == "--" {
            i += 1;
            break;
        }
        if tables.clone().any(|eff| eff.takes_value(t)) {
            i += 2;
            continue;
        }
        if let Some(flags) = t.strip_prefix('-') {
            if !flags.starts_with('-') {
                for eff in tables.clone() {
                    dash_c |= has_letter(&eff.string_flags, flags);
                    reads_stdin |= has_letter(&eff.stdin_flags, flags);
                }
            }
            i += 1;
            continue;
        }
        if t.starts_with('+') {
            i += 1;
            continue;
        }
        break;
    }
    ShellOptions {
        script_at: i,
        dash_c,
        reads_stdin,
    }
}

/// Whether a word of watch's options makes it run its command as a program and its
/// arguments (an option of its `program_flags`: `-x`, `--exec`, also in a cluster of its
/// letters, `-tx`).
fn watch_exec(option: &str, eff: &Effects) -> bool {
    eff.program_flags.contains(option)
        || option.strip_prefix('-').is_some_and(|c| {
            !c.starts_with('-')
                && c.bytes().all(|b| b.is_ascii_alphabetic())
                && c.chars()
                    .any(|l| eff.program_flags.contains(&format!("-{l}")))
        })
}
