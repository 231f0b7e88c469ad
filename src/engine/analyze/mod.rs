//! Command semantics: what a parsed shell script would actually run and touch.
//!
//! `shell` gives the simple commands as written. This module gives their meaning:
//! wrappers are peeled (`sudo`, `env`, `timeout`, `nice`, `xargs`, `find -exec` …) and the
//! command they run is analysed too; scripts hidden in strings are parsed again (`bash -c`,
//! `eval`, `watch`, `su -c`, text piped or fed by heredoc into a shell); `git` global options
//! are removed; `cd` moves the working directory for later commands; redirections and the
//! declared effects of commands (`cp`, `tee`, `sed -i` …) become file accesses. Things that
//! cannot be judged from the text alone become signals (remote code fed to a shell, a
//! command name known only at run time), which rules in the policy turn into verdicts.
//!
//! Everything here is pure: paths are resolved through [`paths::Fs`].

use std::path::{Path, PathBuf};

use crate::engine::args::{flag_matches, flag_value, is_env_name, positionals, skip_options};
use crate::engine::paths::{self, Fs, Places, Resolved};
use crate::engine::policy::{AccessKind, Policy};
use crate::engine::shell::{self, Script, SimpleCommand, Stdin, Word};

/// How deep scripts inside strings may nest (`bash -c "bash -c '…'"`).
const MAX_NESTING: usize = 8;
/// How many invocations one command may expand to before we stop looking.
const MAX_INVOCATIONS: usize = 2048;
/// How much parsing one analysis may do in all, nested scripts and scripts judged again
/// after a `cd` included, in pieces as estimated by [`shell::cost`] (about a microsecond
/// each), and how many scripts.
const MAX_PARSE_COST: usize = shell::MAX_PARSE_COST;
const MAX_SCRIPTS: usize = 4096;
/// How many folders a script's commands are judged in (see `parsed`).
const MAX_CWDS: usize = 8;

/// One program the command line would run, after wrappers are peeled.
#[derive(Debug, Clone)]
pub struct Invocation {
    /// The program name as matched by rules (basename of an absolute path).
    pub name: String,
    /// The words after the name.
    pub args: Vec<Word>,
    /// False when the name was a path outside the standard program folders.
    pub trusted_path: bool,
    /// More arguments are added at run time (`xargs`, `find -exec … {}`).
    pub extra_args_unknown: bool,
    /// The working directory it runs in, when known.
    pub cwd: Option<PathBuf>,
    /// The command as a reader would see it (for messages).
    pub display: String,
}

impl Invocation {
    /// The command line as rules see it: name and arguments joined by single spaces.
    pub fn line(&self) -> String {
        let mut s = self.name.clone();
        for a in &self.args {
            s.push(' ');
            s.push_str(&a.text);
        }
        s
    }
}

/// A file the command line reads or writes.
#[derive(Debug, Clone)]
pub struct Access {
    pub kind: AccessKind,
    pub path: Resolved,
    /// What causes it (`> file`, `cp`, `Write` …).
    pub origin: String,
}

/// Something the rules must judge that is not a plain program or file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Signal {
    pub name: &'static str,
    pub detail: String,
}

/// All that an analysis found.
#[derive(Debug, Clone, Default)]
pub struct Facts {
    pub invocations: Vec<Invocation>,
    pub accesses: Vec<Access>,
    pub signals: Vec<Signal>,
}

impl Facts {
    fn signal(&mut self, name: &'static str, detail: impl Into<String>) {
        let detail = detail.into();
        if !self
            .signals
            .iter()
            .any(|s| s.name == name && s.detail == detail)
        {
            self.signals.push(Signal { name, detail });
        }
    }
}

/// The environment of an analysis.
pub struct Env<'a> {
    pub policy: &'a Policy,
    pub places: &'a Places,
    pub fs: &'a dyn Fs,
}

/// Analyses a Bash command run in `cwd`.
pub fn analyze_command(command: &str, cwd: Option<&Path>, env: &Env) -> Facts {
    let mut a = Analyzer {
        env,
        facts: Facts::default(),
        parse_cost: 0,
        scripts: 0,
        downloaded: Vec::new(),
    };
    a.script(command, cwd.map(Path::to_path_buf), 0);
    a.facts
}

struct Analyzer<'a> {
    env: &'a Env<'a>,
    facts: Facts,
    /// Bytes of script text parsed so far, nested scripts included, and their number.
    parse_cost: usize,
    scripts: usize,
    /// Files a downloader writes (`curl -o x.sh`, `wget -O x.sh`, `curl … > x.sh`): running
    /// one later in the same command is running remote code.
    downloaded: Vec<String>,
}

impl<'a> Analyzer<'a> {
    fn policy(&self) -> &Policy {
        self.env.policy
    }

    fn resolve(&self, w: &Word, cwd: Option<&Path>) -> Resolved {
        paths::resolve(&w.text, w.literal, cwd, self.env.places, self.env.fs)
    }

    fn access(&mut self, kind: AccessKind, w: &Word, cwd: Option<&Path>, origin: &str) {
        if kind == AccessKind::Write && is_harmless_device(&w.text) {
            return;
        }
        if kind == AccessKind::Read && w.text.starts_with("/dev/") {
            return;
        }
        // `diff <(sort a) <(sort b)`: a pipe to or from a command judged on its own.
        if !w.literal && matches!(w.text.as_str(), "<(…)" | ">(…)") {
            return;
        }
        let path = self.resolve(w, cwd);
        if kind == AccessKind::Write && self.policy().is_downloader(origin) {
            self.downloaded.extend(path.lexical.clone());
        }
        self.facts.accesses.push(Access {
            kind,
            path,
            origin: origin.to_string(),
        });
    }

    /// Whether a path is on the policy's protected list.
    fn is_protected(&self, w: &Word, cwd: Option<&Path>) -> bool {
        let path = self.resolve(w, cwd);
        self.policy().paths.protected.iter().any(|pat| {
            paths::expand_pattern(pat, self.env.places).is_some_and(|p| path.matches(&p))
        })
    }

    /// A file run as a program or script: remote code if a downloader wrote it earlier in
    /// the same command (`curl -o x.sh URL && bash x.sh`).
    fn runs_file(&mut self, w: &Word, cwd: Option<&Path>) {
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
                "remote-code",
                format!(
                    "runs `{}`, which was downloaded in the same command",
                    w.text
                ),
            );
        }
    }

    /// Parses and analyses a script string.
    fn script(&mut self, src: &str, cwd: Option<PathBuf>, depth: usize) {
        if depth > MAX_NESTING {
            self.facts
                .signal("too-deep", "scripts nested inside strings too deeply");
            return;
        }
        // The parser's time grows with the pieces it builds, and nested scripts are parsed
        // again (and again after a `cd`): bound the total work before parsing.
        self.scripts += 1;
        let left = MAX_PARSE_COST.saturating_sub(self.parse_cost);
        let cost = shell::cost::estimate(src, left);
        self.parse_cost = self.parse_cost.saturating_add(cost.max(1));
        if cost > left || self.scripts > MAX_SCRIPTS {
            self.facts.signal(
                "too-large",
                format!(
                    "the command has more words and operators than are analysed one by one (about {MAX_PARSE_COST} in all)"
                ),
            );
            return;
        }
        let script = shell::parse(src);
        if let Some(why) = &script.unparsed {
            self.facts.signal("unparsed", why.clone());
            return;
        }
        self.parsed(&script, cwd, depth);
    }

    fn parsed(&mut self, script: &Script, cwd: Option<PathBuf>, depth: usize) {
        if let Some(f) = recursive_function(script) {
            self.facts.signal(
                "fork-bomb",
                format!("function `{f}` ends up calling itself"),
            );
        }
        for r in &script.redirects {
            self.redirect(r, cwd.as_deref());
        }
        // Every folder a command may run in. A `cd` adds the folder it moves to but keeps
        // the others: it may fail (`cd x; rm -rf ..`), run in a subshell (`(cd x); …`), in
        // a branch or in a later loop round. The first is where the script started.
        let mut cwds: Vec<Option<PathBuf>> = vec![cwd];
        for (i, cmd) in script.commands.iter().enumerate() {
            if self.facts.invocations.len() > MAX_INVOCATIONS {
                self.facts
                    .signal("too-large", "the command expands to too many programs");
                return;
            }
            // The command once per value its loop variables may hold, if any.
            let variants = shell::vars::loop_variants(cmd, i, &script.loops);
            let variants: Vec<&SimpleCommand> = match &variants {
                Some(v) => v.iter().collect(),
                None => vec![cmd],
            };
            let mut moved = Vec::new();
            for c in cwds.clone() {
                let mut here = c.clone();
                let mut substituted = !std::ptr::eq(variants[0], cmd);
                for (k, v) in variants.iter().enumerate() {
                    // Variables and `$PWD` written out where their value is known.
                    let with_constants = shell::vars::apply(v, i, &script.constants);
                    let base = with_constants.as_ref().unwrap_or(v);
                    let in_folder = match c.as_deref().and_then(Path::to_str) {
                        Some(dir) if !script.pwd_unknown => shell::vars::with_pwd(base, i, dir),
                        _ => None,
                    };
                    let known = in_folder.as_ref().or(with_constants.as_ref());
                    substituted |= known.is_some();
                    // The first variant moves the folder (`cd`); the others are judged
                    // where it started.
                    let mut elsewhere = c.clone();
                    let at = if k == 0 { &mut here } else { &mut elsewhere };
                    self.command(script, i, known.unwrap_or(v), at, depth);
                }
                // Code run out of sight could have changed them: judge the words as
                // written too, and keep the stricter of both.
                if substituted && script.hidden_code {
                    let mut unmoved = c.clone();
                    self.command(script, i, cmd, &mut unmoved, depth);
                }
                if here != c {
                    moved.push(here);
                }
            }
            for m in moved {
                if !cwds.contains(&m) {
                    cwds.push(m);
                }
            }
            if cwds.len() > MAX_CWDS {
                // Keep the start and the newest.
                cwds.drain(1..cwds.len() + 1 - MAX_CWDS);
            }
        }
    }

    /// Analyses command `i` of a script run in `cwd`; a `cd` moves `cwd`.
    fn command(
        &mut self,
        script: &Script,
        i: usize,
        cmd: &SimpleCommand,
        cwd: &mut Option<PathBuf>,
        depth: usize,
    ) {
        let downloader = cmd.words.first().is_some_and(|w| {
            let (name, _) = program_name(&w.text);
            self.policy().is_downloader(&name)
        });
        for r in &cmd.redirects {
            self.redirect(r, cwd.as_deref());
            if downloader && r.writes() && !r.is_fd_dup() {
                let path = self.resolve(&r.target, cwd.as_deref());
                self.downloaded.extend(path.lexical);
            }
        }
        for (name, value) in &cmd.assignments {
            self.env_assignment(name, value, cwd.clone(), depth);
        }
        let Some(first) = cmd.words.first() else {
            return;
        };
        // A call to a function defined in the same script: its body is analysed already.
        // Only a definition that surely ran counts: `rm -rf ~; rm() { :; }` or
        // `(rm() { :; }); rm -rf ~` run the real `rm`.
        if first.literal && script.calls_function(i, &first.text) {
            return;
        }
        // `cd` changes where later relative paths point (`parsed` keeps the folders it may
        // not have left, as in a pipeline stage). `command cd` is a `cd`.
        let mut cd_words: &[Word] = &cmd.words;
        while cd_words.len() > 1
            && cd_words[0].literal
            && matches!(cd_words[0].text.as_str(), "command" | "builtin")
        {
            cd_words = &cd_words[1..];
        }
        if cd_words[0].literal && matches!(cd_words[0].text.as_str(), "cd" | "pushd" | "popd") {
            let target = cd_words
                .iter()
                .skip(1)
                .find(|w| w.text == "-" || !w.text.starts_with('-'));
            let next = match target {
                _ if cd_words[0].text == "popd" => None,
                None => Some(self.env.places.home.clone()),
                Some(w) if w.text == "-" => None,
                Some(w) => self.resolve(w, cwd.as_deref()).lexical.map(PathBuf::from),
            };
            *cwd = next;
            self.push(cmd_invocation(cd_words, cwd.clone()));
            return;
        }
        // `export NAME=value` and friends set variables like a leading assignment.
        if first.literal
            && matches!(
                first.text.as_str(),
                "export" | "declare" | "typeset" | "local" | "readonly"
            )
        {
            for w in &cmd.words[1..] {
                if let Some((name, value)) = w.text.split_once('=') {
                    if is_env_name(name) {
                        let value = Word {
                            text: value.to_string(),
                            literal: w.literal,
                        };
                        self.env_assignment(name, &value, cwd.clone(), depth);
                    }
                }
            }
        }
        let ctx = CmdCtx {
            script,
            index: i,
            cmd,
            depth,
        };
        // `trap 'commands' SIGNAL`: the commands run later, in this shell.
        if first.literal && first.text == "trap" {
            if let Some(code) = cmd.words.get(1).filter(|w| !w.text.starts_with('-')) {
                self.code_string(code, cwd.clone(), &ctx);
            }
        }
        self.words(&cmd.words, cwd.clone(), &ctx, false);
    }

    fn redirect(&mut self, r: &shell::Redirect, cwd: Option<&Path>) {
        if r.is_fd_dup() {
            return;
        }
        let kind = if r.writes() {
            AccessKind::Write
        } else {
            AccessKind::Read
        };
        let origin = format!("redirection {}", r.op);
        self.access(kind, &r.target, cwd, &origin);
    }

    fn env_assignment(&mut self, name: &str, value: &Word, cwd: Option<PathBuf>, depth: usize) {
        let is_command = self
            .policy()
            .kinds
            .command_env
            .iter()
            .any(|p| paths::component_match(p, name));
        if is_command {
            if value.literal {
                self.script(&value.text, cwd, depth + 1);
            } else {
                self.facts.signal(
                    "exec-env",
                    format!("sets {name} to a command known only at run time"),
                );
            }
            return;
        }
        if self
            .policy()
            .kinds
            .exec_env
            .iter()
            .any(|p| paths::component_match(p, name))
        {
            self.facts.signal(
                "exec-env",
                format!("sets {name}, which can make a program run other code"),
            );
        }
    }

    fn push(&mut self, inv: Invocation) {
        self.facts.invocations.push(inv);
    }

    /// Analyses one argv (a simple command, or what a wrapper runs).
    fn words(&mut self, words: &[Word], cwd: Option<PathBuf>, ctx: &CmdCtx, extra_unknown: bool) {
        let Some(first) = words.first() else { return };
        if !first.literal {
            self.facts.signal(
                "dynamic-command",
                format!(
                    "the program name `{}` is known only at run time",
                    first.text
                ),
            );
            return;
        }
        let (name, trusted) = program_name(&first.text);
        if first.text.contains('/') {
            self.runs_file(first, cwd.as_deref());
        }
        // `tar czf out.tgz src`: tar's old style, a first word of option letters without
        // a dash, read as the `-czf` it means.
        let old_style;
        let args = match words.get(1) {
            Some(w) if name == "tar" && is_tar_old_style(w) => {
                old_style = std::iter::once(Word {
                    text: format!("-{}", w.text),
                    literal: true,
                })
                .chain(words[2..].iter().cloned())
                .collect::<Vec<_>>();
                &old_style[..]
            }
            _ => &words[1..],
        };
        let mut inv = Invocation {
            name: name.clone(),
            args: args.to_vec(),
            trusted_path: trusted,
            extra_args_unknown: extra_unknown,
            cwd: cwd.clone(),
            display: join_words(words),
        };
        match name.as_str() {
            "sudo" | "doas" | "run0" => {
                self.push(inv);
                let rest = skip_options(
                    args,
                    &[
                        "-u", "-g", "-h", "-p", "-C", "-D", "-R", "-T", "-U", "-r", "-t",
                    ],
                );
                if rest.is_empty() {
                    return;
                }
                self.words(rest, cwd, ctx, extra_unknown);
            }
            "env" => self.env_cmd(inv, cwd, ctx, extra_unknown),
            "command" | "builtin" => {
                let lookup = args
                    .iter()
                    .take_while(|a| a.text.starts_with('-'))
                    .any(|a| a.text.contains('v') || a.text.contains('V'));
                if lookup {
                    self.push(inv);
                    return;
                }
                let rest = skip_options(args, &[]);
                self.words(rest, cwd, ctx, extra_unknown);
            }
            "exec" => {
                let rest = skip_options(args, &["-a"]);
                if rest.is_empty() {
                    return;
                }
                self.words(rest, cwd, ctx, extra_unknown);
            }
            "arch" if !args.is_empty() => {
                // macOS `arch -x86_64 CMD` runs CMD.
                let rest = skip_options(args, &["-e"]).to_vec();
                self.push(inv);
                self.words(&rest, cwd, ctx, extra_unknown);
            }
            "nice" | "ionice" | "nohup" | "time" | "stdbuf" | "setsid" | "unbuffer"
            | "caffeinate" | "chronic" | "coproc" | "taskset" | "chrt" => {
                self.wrapper(inv, cwd, ctx, extra_unknown);
            }
            "timeout" => {
                let mut rest = skip_options(args, &["-s", "--signal", "-k", "--kill-after"]);
                self.push(inv);
                if !rest.is_empty() {
                    rest = &rest[1..]; // the duration
                }
                self.words(rest, cwd, ctx, extra_unknown);
            }
            "busybox" => {
                if args.is_empty() {
                    self.push(inv);
                } else {
                    self.words(args, cwd, ctx, extra_unknown);
                }
            }
            "xargs" => self.xargs(inv, cwd, ctx),
            "find" => self.find(inv, cwd, ctx),
            "eval" => {
                self.push(inv);
                let text = args
                    .iter()
                    .map(|a| a.text.as_str())
                    .collect::<Vec<_>>()
                    .join(" ");
                if !args.iter().all(|a| a.literal) {
                    self.dynamic_code(ctx, "eval runs text that is known only at run time");
                }
                // What is known of the text is judged too (see `code_string`).
                self.script(&text, cwd, ctx.depth + 1);
            }
            "source" | "." => {
                if let Some(f) = args.first() {
                    self.runs_file(f, cwd.as_deref());
                }
                self.push(inv);
                self.dynamic_code_check_remote(ctx);
            }
            "watch" => {
                let rest = skip_options(args, &["-n", "--interval", "-d", "--differences"]);
                self.push(inv.clone());
                if rest.iter().all(|a| a.literal) && !rest.is_empty() {
                    let text = join_words(rest);
                    self.script(&text, cwd, ctx.depth + 1);
                } else if !rest.is_empty() {
                    self.dynamic_code(ctx, "watch runs a command known only at run time");
                }
            }
            "su" | "runuser" => {
                self.push(inv);
                if let Some(pos) = args
                    .iter()
                    .position(|a| a.text == "-c" || a.text == "--command")
                {
                    if let Some(code) = args.get(pos + 1) {
                        self.code_string(code, cwd, ctx);
                    }
                }
            }
            "flock" => {
                self.push(inv);
                let rest = skip_options(
                    args,
                    &["-w", "--wait", "--timeout", "-E", "--conflict-exit-code"],
                );
                if let Some(pos) = rest
                    .iter()
                    .position(|a| a.text == "-c" || a.text == "--command")
                {
                    if let Some(code) = rest.get(pos + 1) {
                        self.code_string(code, cwd, ctx);
                    }
                } else if rest.len() > 1 {
                    self.words(&rest[1..], cwd, ctx, extra_unknown);
                }
            }
            "git" => self.git(inv, cwd),
            "sed" => {
                self.sed_commands(&inv, cwd, ctx);
                self.effects(&inv);
                self.push(inv);
            }
            _ if self.policy().is_shell(&name) => self.shell(inv, cwd, ctx),
            _ if self.policy().is_interpreter(&name) => {
                // `python3 x.py`: the first word that is not an option is the script.
                if let Some(f) = args.iter().find(|a| !a.text.starts_with('-')) {
                    self.runs_file(f, cwd.as_deref());
                }
                self.stdin_code(&inv, ctx, false);
                self.dynamic_code_check_remote(ctx);
                self.effects(&inv);
                self.push(inv);
            }
            _ => {
                self.effects(&inv);
                inv.display = join_words(words);
                self.push(inv);
            }
        }
    }

    /// A wrapper whose options we skip generically before the command it runs.
    fn wrapper(&mut self, inv: Invocation, cwd: Option<PathBuf>, ctx: &CmdCtx, extra: bool) {
        let value_opts: &[&str] = match inv.name.as_str() {
            "nice" => &["-n", "--adjustment"],
            "ionice" => &["-c", "-n", "-p", "--class", "--classdata", "--pid"],
            "time" => &["-f", "--format", "-o", "--output"],
            "stdbuf" => &["-i", "-o", "-e"],
            "caffeinate" => &["-t", "-w"],
            "taskset" => &[],
            "chrt" => &[],
            _ => &[],
        };
        // `time -o FILE` writes FILE.
        if inv.name == "time" {
            for (i, a) in inv.args.iter().enumerate() {
                if a.text == "-o" || a.text == "--output" {
                    if let Some(f) = inv.args.get(i + 1) {
                        self.access(AccessKind::Write, f, cwd.as_deref(), "time -o");
                    }
                }
            }
        }
        let mut rest = skip_options(&inv.args, value_opts);
        if inv.name == "taskset" && !rest.is_empty() {
            rest = &rest[1..]; // the CPU mask
        }
        if inv.name == "chrt" && !rest.is_empty() {
            rest = &rest[1..]; // the priority
        }
        let rest = rest.to_vec();
        self.push(inv);
        self.words(&rest, cwd, ctx, extra);
    }

    fn env_cmd(&mut self, inv: Invocation, mut cwd: Option<PathBuf>, ctx: &CmdCtx, extra: bool) {
        let args = inv.args.clone();
        let mut i = 0;
        let mut split_string: Option<Word> = None;
        while i < args.len() {
            let t = args[i].text.as_str();
            if t == "--" {
                i += 1;
                break;
            }
            if t == "-u" || t == "--unset" {
                i += 2;
                continue;
            }
            if t == "-C" || t == "--chdir" {
                if let Some(d) = args.get(i + 1) {
                    cwd = self.resolve(d, cwd.as_deref()).lexical.map(PathBuf::from);
                }
                i += 2;
                continue;
            }
            if t == "-S" || t == "--split-string" {
                split_string = args.get(i + 1).cloned();
                i += 2;
                continue;
            }
            if let Some(s) = t.strip_prefix("--split-string=") {
                split_string = Some(Word {
                    text: s.to_string(),
                    literal: args[i].literal,
                });
                i += 1;
                continue;
            }
            if t.starts_with('-') && t.len() > 1 {
                i += 1;
                continue;
            }
            if let Some((name, value)) = t.split_once('=') {
                let value = Word {
                    text: value.to_string(),
                    literal: args[i].literal,
                };
                self.env_assignment(name, &value, cwd.clone(), ctx.depth);
                i += 1;
                continue;
            }
            break;
        }
        let rest = &args[i.min(args.len())..]; // an option may lack its value
        let bare = rest.is_empty() && split_string.is_none();
        if bare {
            // No command: `env` prints the environment. Its assignments only add to what
            // it prints, so they are dropped, leaving the options for the rules to read.
            let mut inv = inv;
            inv.args.retain(|a| !is_assignment(&a.text));
            self.push(inv);
            return;
        }
        self.push(inv);
        if let Some(s) = split_string {
            if s.literal {
                let text = format!("{} {}", s.text, join_words(rest));
                self.script(&text, cwd, ctx.depth + 1);
            } else {
                self.dynamic_code(ctx, "env -S runs text known only at run time");
            }
            return;
        }
        self.words(rest, cwd, ctx, extra);
    }

    fn xargs(&mut self, inv: Invocation, cwd: Option<PathBuf>, ctx: &CmdCtx) {
        let value_opts = [
            "-I",
            "-L",
            "-n",
            "-P",
            "-s",
            "-d",
            "-E",
            "-a",
            "--arg-file",
            "--delimiter",
            "--max-args",
            "--max-procs",
            "--max-lines",
            "--max-chars",
            "--replace",
            "--eof",
        ];
        // The replace string (`-I R`, `-iR`, `--replace=R`, `-i` meaning `{}`): every word
        // holding it is filled from the input, so its value is unknown.
        let mut replace: Option<String> = None;
        for (i, a) in inv.args.iter().enumerate() {
            let t = a.text.as_str();
            if t == "-a" || t == "--arg-file" {
                if let Some(f) = inv.args.get(i + 1) {
                    self.access(AccessKind::Read, f, cwd.as_deref(), "xargs -a");
                }
            }
            if t == "-I" {
                replace = inv.args.get(i + 1).map(|w| w.text.clone());
            } else if let Some(r) = t.strip_prefix("-I") {
                replace = Some(r.to_string());
            } else if t == "-i" || t == "--replace" {
                replace = Some("{}".into());
            } else if let Some(r) = t
                .strip_prefix("--replace=")
                .or_else(|| t.strip_prefix("-i"))
            {
                replace = Some(if r.is_empty() {
                    "{}".into()
                } else {
                    r.to_string()
                });
            }
            if !t.starts_with('-') {
                break;
            }
        }
        let mut rest = skip_options(&inv.args, &value_opts).to_vec();
        if let Some(r) = replace.filter(|r| !r.is_empty()) {
            for w in rest.iter_mut().skip(1) {
                if w.text.contains(&r) {
                    w.literal = false;
                }
            }
        }
        self.push(inv.clone());
        if rest.is_empty() {
            // With no command, xargs runs `echo` with its input.
            rest = vec![Word::lit("echo")];
        }
        self.words(&rest, cwd, ctx, true);
    }

    fn find(&mut self, inv: Invocation, cwd: Option<PathBuf>, ctx: &CmdCtx) {
        let args = inv.args.clone();
        let mut i = 0;
        let mut kept = Vec::new();
        let mut inner: Vec<Vec<Word>> = Vec::new();
        while i < args.len() {
            let t = args[i].text.as_str();
            if matches!(t, "-exec" | "-execdir" | "-ok" | "-okdir") {
                kept.push(args[i].clone());
                let mut cmd = Vec::new();
                i += 1;
                while i < args.len() && args[i].text != ";" && args[i].text != "+" {
                    cmd.push(args[i].clone());
                    i += 1;
                }
                i += 1;
                // The program it runs stays in view of find's own rules (`-exec rm`).
                kept.extend(cmd.first().cloned());
                inner.push(cmd);
                continue;
            }
            if matches!(t, "-fprint" | "-fprint0" | "-fprintf" | "-fls") {
                if let Some(f) = args.get(i + 1) {
                    self.access(AccessKind::Write, f, cwd.as_deref(), t);
                }
            }
            kept.push(args[i].clone());
            i += 1;
        }
        // What `{}` stands for, when find names the files it looks for: a glob under each
        // folder searched (`find . -name .env -exec cat {} \;` reads `./**/.env`).
        let names: Vec<&Word> = kept
            .windows(2)
            .filter(|w| matches!(w[0].text.as_str(), "-name" | "-iname"))
            .map(|w| &w[1])
            .collect();
        let roots: Vec<&Word> = kept
            .iter()
            .take_while(|w| !w.text.starts_with('-') && w.text != "!" && w.text != "(")
            .collect();
        let roots = if roots.is_empty() {
            vec![Word::lit(".")]
        } else {
            roots.into_iter().cloned().collect()
        };
        let found: Vec<Word> = roots
            .iter()
            .flat_map(|r| {
                names.iter().map(move |n| Word {
                    text: format!("{}/**/{}", r.text.trim_end_matches('/'), n.text),
                    literal: false,
                })
            })
            .collect();
        self.push(Invocation {
            args: kept.clone(),
            ..inv
        });
        for cmd in inner {
            let has_placeholder = cmd.iter().any(|w| w.text.contains("{}"));
            let cmd: Vec<Word> = cmd
                .into_iter()
                .flat_map(|w| {
                    if w.text == "{}" {
                        found.clone()
                    } else {
                        vec![w]
                    }
                })
                .collect();
            self.words(&cmd, cwd.clone(), ctx, has_placeholder);
        }
    }

    fn git(&mut self, mut inv: Invocation, mut cwd: Option<PathBuf>) {
        let args = std::mem::take(&mut inv.args);
        let mut i = 0;
        while i < args.len() {
            let t = args[i].text.as_str();
            match t {
                "-C" => {
                    if let Some(d) = args.get(i + 1) {
                        cwd = self.resolve(d, cwd.as_deref()).lexical.map(PathBuf::from);
                    }
                    i += 2;
                }
                "-c" => {
                    if let Some(kv) = args.get(i + 1) {
                        self.git_config(&kv.text);
                    }
                    i += 2;
                }
                "--git-dir" | "--work-tree" | "--namespace" | "--exec-path" | "--super-prefix"
                | "--config-env" => {
                    if t == "--exec-path" || t == "--config-env" {
                        self.facts
                            .signal("git-config", format!("git {t} changes what git runs"));
                    }
                    i += 2;
                }
                _ if t.starts_with("--git-dir=")
                    || t.starts_with("--work-tree=")
                    || t.starts_with("--namespace=") =>
                {
                    i += 1
                }
                _ if t.starts_with("--exec-path=") || t.starts_with("--config-env=") => {
                    self.facts
                        .signal("git-config", format!("git {t} changes what git runs"));
                    i += 1
                }
                "--no-pager"
                | "-P"
                | "-p"
                | "--paginate"
                | "--bare"
                | "--no-replace-objects"
                | "--literal-pathspecs"
                | "--glob-pathspecs"
                | "--noglob-pathspecs"
                | "--icase-pathspecs"
                | "--no-optional-locks"
                | "--no-advice" => i += 1,
                _ => break,
            }
        }
        inv.args = args[i.min(args.len())..].to_vec(); // `git -C` may lack its value
        inv.cwd = cwd;
        // `git show REV:PATH`, `git cat-file -p REV:PATH` print a file from history.
        if matches!(
            inv.args.first().map(|w| w.text.as_str()),
            Some("show" | "cat-file" | "grep" | "log" | "diff")
        ) {
            for a in inv.args.iter().skip(1) {
                if let Some((_, path)) = a.text.split_once(':') {
                    if !path.is_empty() && !a.text.starts_with('-') {
                        let w = Word {
                            text: path.to_string(),
                            literal: a.literal,
                        };
                        self.access(AccessKind::Read, &w, inv.cwd.clone().as_deref(), "git");
                    }
                }
            }
        }
        self.effects(&inv);
        self.push(inv);
    }

    fn git_config(&mut self, kv: &str) {
        let key = kv.split('=').next().unwrap_or("").to_ascii_lowercase();
        let safe = self
            .policy()
            .kinds
            .git_safe_config
            .iter()
            .any(|p| paths::component_match(&p.to_ascii_lowercase(), &key));
        if !safe {
            self.facts.signal(
                "git-config",
                format!("git -c {key} may make git run other programs"),
            );
        }
    }

    /// `bash -c STRING`, `bash script.sh`, or a bare shell reading standard input.
    fn shell(&mut self, inv: Invocation, cwd: Option<PathBuf>, ctx: &CmdCtx) {
        let args = &inv.args;
        let mut i = 0;
        let mut dash_c = false;
        let mut reads_stdin = false;
        while i < args.len() {
            let t = args[i].text.as_str();
            if t == "--" {
                i += 1;
                break;
            }
            if matches!(t, "-o" | "+o" | "-O" | "+O" | "--rcfile" | "--init-file") {
                i += 2;
                continue;
            }
            if let Some(flags) = t.strip_prefix('-') {
                if !flags.starts_with('-') && flags.contains('c') {
                    dash_c = true;
                }
                if !flags.starts_with('-') && flags.contains('s') {
                    reads_stdin = true;
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
        let rest = &args[i.min(args.len())..]; // an option may lack its value
        if dash_c {
            let code = rest.first().cloned();
            self.push(inv.clone());
            match code {
                Some(code) => self.code_string(&code, cwd, ctx),
                None => self
                    .facts
                    .signal("dynamic-script", "a shell -c without a script"),
            }
            return;
        }
        if rest.is_empty() || reads_stdin {
            self.stdin_code(&inv, ctx, true);
            self.push(inv);
            return;
        }
        // `bash script.sh`: runs a file; the rule for running scripts decides.
        self.dynamic_code_check_remote(ctx);
        if let Some(f) = rest.first() {
            self.runs_file(f, cwd.as_deref());
            self.access(AccessKind::Read, f, cwd.as_deref(), "shell script");
        }
        self.push(inv);
    }

    /// The files a sed script writes (`w FILE`, `s/a/b/w FILE`) and the commands it runs
    /// (`e COMMAND`). A match inside other text only adds a stricter fact.
    fn sed_commands(&mut self, inv: &Invocation, cwd: Option<PathBuf>, ctx: &CmdCtx) {
        let args = &inv.args;
        let mut scripts: Vec<&Word> = Vec::new();
        let mut i = 0;
        while i < args.len() {
            let t = args[i].text.as_str();
            if t == "-e" || t == "--expression" {
                scripts.extend(args.get(i + 1));
                i += 2;
                continue;
            }
            i += 1;
        }
        let owned;
        if scripts.is_empty() {
            let value_flags = self
                .policy()
                .effects("sed")
                .map(|e| e.value_flags.clone())
                .unwrap_or_default();
            owned = positionals(args, &value_flags);
            scripts.extend(owned.first().copied());
        }
        for script in scripts {
            for line in script.text.lines() {
                for (kind, rest) in sed_line_commands(line) {
                    let arg = Word {
                        text: rest.trim().to_string(),
                        literal: script.literal,
                    };
                    if arg.text.is_empty() {
                        continue;
                    }
                    if kind == 'e' {
                        self.code_string(&arg, cwd.clone(), ctx);
                    } else {
                        self.access(AccessKind::Write, &arg, cwd.as_deref(), "sed");
                    }
                }
            }
        }
    }

    /// A string that a shell will run as a script.
    /// A script only partly known (`bash -c "rm -rf / $X"`) asks as a whole, and what is
    /// known of it is judged as well, its unknown parts standing as they are written: a
    /// forbidden part is denied, not only asked about.
    fn code_string(&mut self, code: &Word, cwd: Option<PathBuf>, ctx: &CmdCtx) {
        if !code.literal {
            self.dynamic_code(ctx, "a shell runs a script known only at run time");
        }
        self.script(&code.text, cwd, ctx.depth + 1);
    }

    /// Code known only at run time: remote code if a downloader feeds it, else unknown.
    fn dynamic_code(&mut self, ctx: &CmdCtx, why: &str) {
        if !self.dynamic_code_check_remote(ctx) {
            self.facts.signal("dynamic-script", why);
        }
    }

    /// Whether a downloader's output is substituted into this command's arguments
    /// (`bash -c "$(curl …)"`, `source <(wget …)`, `eval "$(curl …)"`); raises the signal.
    fn dynamic_code_check_remote(&mut self, ctx: &CmdCtx) -> bool {
        let mut found = None;
        for (j, c) in ctx.script.commands.iter().enumerate() {
            if substituted_within(ctx.script, j, ctx.index) && self.is_download(c) {
                found = Some(join_words(&c.words));
                break;
            }
        }
        if let Some(d) = found {
            self.facts
                .signal("remote-code", format!("runs code downloaded by `{d}`"));
            return true;
        }
        false
    }

    /// A shell or interpreter that reads its program from standard input.
    fn stdin_code(&mut self, inv: &Invocation, ctx: &CmdCtx, is_shell: bool) {
        let cmd = ctx.cmd;
        // From a downloader earlier in the pipeline: remote code, whatever the reader.
        if let Some((pid, stage)) = cmd.pipe {
            let upstream: Vec<&SimpleCommand> = ctx
                .script
                .commands
                .iter()
                .filter(|c| {
                    c.pipe
                        .is_some_and(|at| upstream_of(ctx.script, at, (pid, stage)))
                })
                .collect();
            if let Some(d) = upstream.iter().find(|c| self.is_download(c)) {
                self.facts.signal(
                    "remote-code",
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
                        "stdin-code",
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
                    "stdin-code",
                    format!("`{}` runs commands read from a pipe", inv.name),
                ),
            }
            return;
        }
        match &cmd.stdin {
            Some(Stdin::Heredoc { body, .. }) if is_shell => {
                self.script(body, inv.cwd.clone(), ctx.depth + 1)
            }
            Some(Stdin::HereString(w)) if is_shell => self.code_string(w, inv.cwd.clone(), ctx),
            Some(_) => self
                .facts
                .signal("stdin-code", format!("`{}` runs code fed to it", inv.name)),
            None => {
                let from_file = cmd.redirects.iter().any(|r| r.op == "<");
                if is_shell || from_file {
                    self.facts.signal(
                        "stdin-code",
                        format!("`{}` runs commands from its input", inv.name),
                    );
                }
            }
        }
    }

    fn is_download(&self, c: &SimpleCommand) -> bool {
        let mut words: &[Word] = &c.words;
        // Peel the common wrappers before the downloader.
        while let Some(first) = words.first() {
            let (name, _) = program_name(&first.text);
            if matches!(
                name.as_str(),
                "sudo" | "env" | "command" | "nice" | "timeout" | "nohup" | "time"
            ) {
                words = &words[1..];
                while words
                    .first()
                    .is_some_and(|w| w.text.starts_with('-') || w.text.contains('='))
                {
                    words = &words[1..];
                }
                if name == "timeout" && !words.is_empty() {
                    words = &words[1..];
                }
                continue;
            }
            return self.policy().is_downloader(&name);
        }
        false
    }

    /// Declared effects: which arguments a command reads and writes.
    fn effects(&mut self, inv: &Invocation) {
        let Some(eff) = self.policy().effects(&inv.name).cloned() else {
            return;
        };
        let positional = positionals(&inv.args, &eff.value_flags);
        let cwd = inv.cwd.clone();
        let origin = inv.name.clone();
        let has_flag = |flags: &crate::engine::policy::List| {
            inv.args
                .iter()
                .any(|a| flags.iter().any(|f| flag_matches(f, &a.text)))
        };
        let in_place = has_flag(&eff.in_place_flags);
        // `gzip -c f`, `tar -tf a.tar`: the files it would write are only read.
        let write = if has_flag(&eff.read_only_flags) && !in_place {
            AccessKind::Read
        } else {
            AccessKind::Write
        };
        if let Some(spec) = &eff.reads {
            let spec = if spec == "after-first" && has_flag(&eff.pattern_flags) {
                "all"
            } else {
                spec.as_ref()
            };
            for w in select(&positional, spec) {
                self.access(AccessKind::Read, w, cwd.as_deref(), &origin);
                if in_place {
                    self.access(AccessKind::Write, w, cwd.as_deref(), &origin);
                }
            }
        }
        if let Some(spec) = &eff.writes {
            for w in select(&positional, spec) {
                self.access(write, w, cwd.as_deref(), &origin);
            }
        }
        if eff.into_folder {
            // `cp a b/`, `mv a ~/.ssh`, `cp -t DIR a`: what lands in the folder. Whether the
            // target is a folder is not known, so both readings count.
            let target_flag = inv.args.iter().enumerate().find_map(|(i, _)| {
                eff.write_flags
                    .iter()
                    .find_map(|f| flag_value(&inv.args, i, f))
            });
            let (folder, sources) = match (&target_flag, positional.split_last()) {
                (Some(t), _) => (Some(t), &positional[..]),
                (None, Some((last, rest))) if !rest.is_empty() => (Some(*last), rest),
                _ => (None, &positional[..0]),
            };
            if let Some(folder) = folder {
                for src in sources.iter().filter(|s| s.literal) {
                    let name = src.text.trim_end_matches('/');
                    let name = name.rsplit('/').next().unwrap_or(name);
                    if name.is_empty() || name == "." || name == ".." {
                        continue;
                    }
                    let w = Word {
                        text: format!("{}/{name}", folder.text.trim_end_matches('/')),
                        literal: folder.literal,
                    };
                    // Only where it matters: a file landing on a protected path. Elsewhere
                    // the write to the target already counts.
                    if self.is_protected(&w, cwd.as_deref()) {
                        self.access(write, &w, cwd.as_deref(), &origin);
                    }
                }
            }
        }
        for (i, a) in inv.args.iter().enumerate() {
            for k in &eff.write_keys {
                if let Some(v) = a.text.strip_prefix(k) {
                    let w = Word {
                        text: v.to_string(),
                        literal: a.literal,
                    };
                    self.access(write, &w, cwd.as_deref(), &origin);
                }
            }
            for f in &eff.read_flags {
                if let Some(v) = flag_value(&inv.args, i, f) {
                    self.access(AccessKind::Read, &v, cwd.as_deref(), &origin);
                }
            }
            for f in &eff.write_flags {
                if let Some(v) = flag_value(&inv.args, i, f) {
                    self.access(write, &v, cwd.as_deref(), &origin);
                }
            }
        }
    }
}

/// A function that calls itself, directly or through other functions of the script.
fn recursive_function(script: &Script) -> Option<String> {
    let n = script.functions.len();
    if n == 0 {
        return None;
    }
    // calls[f] = functions called from f's body.
    let mut calls: Vec<Vec<usize>> = vec![Vec::new(); n];
    for c in &script.commands {
        let (Some(f), Some(w)) = (c.function, c.words.first()) else {
            continue;
        };
        // Every function of that name may be the one called (a name can be defined twice).
        for (g, _) in script
            .functions
            .iter()
            .enumerate()
            .filter(|(_, x)| **x == w.text)
        {
            if f < n && !calls[f].contains(&g) {
                calls[f].push(g);
            }
        }
    }
    // A cycle exists when some function can reach itself.
    for start in 0..n {
        let mut seen = vec![false; n];
        let mut stack = calls[start].clone();
        while let Some(g) = stack.pop() {
            if g == start {
                return script.functions.get(start).cloned();
            }
            if g < n && !seen[g] {
                seen[g] = true;
                stack.extend(calls[g].iter().copied());
            }
        }
    }
    None
}

struct CmdCtx<'s> {
    script: &'s Script,
    index: usize,
    cmd: &'s SimpleCommand,
    depth: usize,
}

/// Whether stage `at` feeds stage `of`: it comes before it in the same pipeline, or before
/// a stage of an enclosing pipeline that `of` runs in (`curl x | { cat | sh; }`).
fn upstream_of(script: &Script, at: (usize, usize), of: (usize, usize)) -> bool {
    let mut cur = Some(of);
    let mut steps = 0;
    while let Some((p, s)) = cur {
        if at.0 == p && at.1 < s {
            return true;
        }
        steps += 1;
        if steps > script.pipeline_parent.len() {
            return false;
        }
        cur = script.pipeline_parent.get(p).copied().flatten();
    }
    false
}

/// The simple command whose output is the input of stage `stage` of pipeline `pid`.
fn stage_before(script: &Script, mut pid: usize, mut stage: usize) -> Option<&SimpleCommand> {
    let mut steps = 0;
    while stage == 0 {
        (pid, stage) = script.pipeline_parent.get(pid).copied().flatten()?;
        steps += 1;
        if steps > script.pipeline_parent.len() {
            return None;
        }
    }
    script
        .commands
        .iter()
        .rev()
        .find(|c| c.pipe == Some((pid, stage - 1)))
}

/// Whether command `j` sits (directly or through nesting) in a substitution of command `i`.
fn substituted_within(script: &Script, j: usize, i: usize) -> bool {
    let mut cur = script.commands.get(j).and_then(|c| c.substituted_into);
    let mut steps = 0;
    while let Some(k) = cur {
        if k == i {
            return true;
        }
        steps += 1;
        if steps > script.commands.len() {
            return false;
        }
        cur = script.commands.get(k).and_then(|c| c.substituted_into);
    }
    false
}

/// What a command writes to standard output, when the text says so exactly:
/// `echo`/`printf` of literal words, or `cat` of a heredoc.
fn literal_output(c: &SimpleCommand) -> Option<String> {
    let first = c.words.first()?;
    if !first.literal {
        return None;
    }
    let (name, _) = program_name(&first.text);
    match name.as_str() {
        "echo" | "printf" => {
            let args: Vec<&Word> = c
                .words
                .iter()
                .skip(1)
                .skip_while(|w| {
                    name == "echo" && matches!(w.text.as_str(), "-n" | "-e" | "-E" | "-ne" | "-en")
                })
                .collect();
            if args.iter().all(|w| w.literal) {
                Some(
                    args.iter()
                        .map(|w| w.text.as_str())
                        .collect::<Vec<_>>()
                        .join(" ")
                        .replace("\\n", "\n"),
                )
            } else {
                None
            }
        }
        "cat" if c.words.len() == 1 => match &c.stdin {
            Some(Stdin::Heredoc { body, .. }) => Some(body.clone()),
            Some(Stdin::HereString(w)) if w.literal => Some(w.text.clone()),
            _ => None,
        },
        _ => None,
    }
}

/// Folders whose programs are the standard ones.
const STANDARD_BIN_DIRS: &[&str] = &[
    "/bin",
    "/usr/bin",
    "/usr/local/bin",
    "/sbin",
    "/usr/sbin",
    "/usr/local/sbin",
    "/opt/homebrew/bin",
    "/usr/libexec",
];

/// The name rules match: the basename, and whether the path is a standard program folder.
fn program_name(text: &str) -> (String, bool) {
    match text.rsplit_once('/') {
        None => (text.to_string(), true),
        Some((dir, base)) => {
            let trusted = STANDARD_BIN_DIRS.contains(&dir);
            (base.to_string(), trusted)
        }
    }
}

fn cmd_invocation(words: &[Word], cwd: Option<PathBuf>) -> Invocation {
    Invocation {
        name: words.first().map(|w| w.text.clone()).unwrap_or_default(),
        args: words.iter().skip(1).cloned().collect(),
        trusted_path: true,
        extra_args_unknown: false,
        cwd,
        display: join_words(words),
    }
}

fn join_words(words: &[Word]) -> String {
    words
        .iter()
        .map(|w| w.text.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

fn select<'w>(pos: &[&'w Word], spec: &str) -> Vec<&'w Word> {
    match spec {
        "all" => pos.to_vec(),
        "after-first" => pos.iter().skip(1).copied().collect(),
        "all-but-last" => {
            if pos.len() > 1 {
                pos[..pos.len() - 1].to_vec()
            } else {
                Vec::new()
            }
        }
        "last" => {
            if pos.len() > 1 {
                pos.last().copied().into_iter().collect()
            } else {
                Vec::new()
            }
        }
        "first" => pos.first().copied().into_iter().collect(),
        _ => pos.to_vec(),
    }
}

fn is_harmless_device(t: &str) -> bool {
    matches!(
        t,
        "/dev/null" | "/dev/stdout" | "/dev/stderr" | "/dev/tty" | "-"
    ) || t.starts_with("/dev/fd/")
}

/// Whether a word is a variable assignment (`NAME=value`).
fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        let mut chars = name.chars();
        chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// A first `tar` word in the old style: option letters without a dash, naming a mode.
fn is_tar_old_style(w: &Word) -> bool {
    w.literal
        && !w.text.is_empty()
        && w.text.chars().all(|c| c.is_ascii_alphabetic())
        && w.text.contains(['c', 'x', 't', 'r', 'u', 'A'])
}

/// The `w`/`W` (write a file) and `e` (run a command) commands of one line of a sed script,
/// with the rest of the line, which is their argument. A letter counts when it starts a
/// command (after an address, `;`, `{`, `}` or `!`) or ends an `s` command's flags.
fn sed_line_commands(line: &str) -> Vec<(char, &str)> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    for (i, &c) in b.iter().enumerate() {
        if !matches!(c, b'w' | b'W' | b'e') {
            continue;
        }
        let before = if i == 0 { b' ' } else { b[i - 1] };
        let starts = matches!(
            before,
            b' ' | b'\t' | b';' | b'{' | b'}' | b'!' | b'/' | b'$' | b'0'
                ..=b'9' | b'g' | b'p' | b'I' | b'i' | b'M' | b'm'
        );
        let after = b.get(i + 1).copied();
        let has_arg =
            matches!(after, Some(b' ' | b'\t')) || (c != b'e' && after.is_some_and(|a| a == b'/'));
        if starts && has_arg {
            out.push((if c == b'e' { 'e' } else { 'w' }, &line[i + 1..]));
        }
    }
    out
}
