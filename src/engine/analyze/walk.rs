//! The walk over a parsed script: its commands, in every folder they may run in, their
//! redirections and assignments, and each argv handed to the part that knows its program.

use std::path::{Path, PathBuf};

use super::{
    cmd_invocation, join_words, program_name, wrappers, Analyzer, CmdCtx, Invocation, SignalName,
    MAX_CALLS, MAX_CWDS, MAX_INVOCATIONS, MAX_NESTING, MAX_PARSE_COST, MAX_SALVAGE_FACTS,
    MAX_SCRIPTS,
};
use crate::engine::args::is_env_name;
use crate::engine::paths;
use crate::engine::policy::AccessKind;
use crate::engine::shell::{self, Script, SimpleCommand, Word};

impl Analyzer<'_> {
    /// Parses and analyses a script string.
    pub(super) fn script(&mut self, src: &str, cwd: Option<PathBuf>, depth: usize) {
        if depth > MAX_NESTING {
            self.facts.signal(
                SignalName::TooDeep,
                "scripts nested inside strings too deeply",
            );
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
                SignalName::TooLarge,
                format!(
                    "the command has more words and operators than are analysed one by one (about {MAX_PARSE_COST} in all)"
                ),
            );
            self.salvage_statements(src, cwd, depth);
            return;
        }
        let script = shell::parse(src);
        if let Some(why) = &script.unparsed {
            self.facts.signal(SignalName::Unparsed, why.clone());
            match script.error_at {
                Some(at) => self.salvage_before(src, at, cwd, depth),
                // Too long, too deep, or a word the grammar reads wrongly: the statements
                // one by one. Not after a parse that ran out of time.
                None if why != shell::PARSE_TIMED_OUT => self.salvage_statements(src, cwd, depth),
                None => {}
            }
            return;
        }
        self.parsed(&script, cwd, depth);
    }

    /// A script over the budget is asked about as a whole; its top-level statements are
    /// still judged one by one, within a budget of their own (`SALVAGE_COST` pieces,
    /// `MAX_SALVAGE_FACTS` facts), so a forbidden one among them is denied. They are taken
    /// from both ends inwards (a payload hides at the start or the end of filler); repeated
    /// statements and ones that surely do nothing (`true`, `echo word`) are judged once or
    /// not at all.
    fn salvage_statements(&mut self, src: &str, cwd: Option<PathBuf>, depth: usize) {
        let mut seen = std::collections::HashSet::new();
        let ranges = shell::split::statements(src);
        let (front, back) = ranges.split_at(ranges.len().div_ceil(2));
        let mut back = back.iter().rev();
        let from_both_ends = front
            .iter()
            .flat_map(|f| std::iter::once(f).chain(back.next()));
        for r in from_both_ends {
            let facts = self.facts.invocations.len() + self.facts.accesses.len();
            if self.salvage_left == 0 || facts > MAX_SALVAGE_FACTS {
                return;
            }
            let text = src.get(r.clone()).unwrap_or("").trim();
            if text.is_empty() || shell::split::is_inert(text) || !seen.insert(text) {
                continue;
            }
            let left = self.salvage_left;
            let cost = shell::cost::estimate(text, left);
            self.salvage_left = left.saturating_sub(cost.max(1));
            if cost > left {
                continue;
            }
            let script = shell::parse(text);
            if script.unparsed.is_none() {
                self.parsed(&script, cwd.clone(), depth);
            }
        }
    }

    /// A script that is not valid Bash (error or NUL byte at `at`) is asked about as a
    /// whole; the text before the error, or else the statements that end before it, is
    /// still judged, so a forbidden part there is denied (`rm -rf / ) (`).
    fn salvage_before(&mut self, src: &str, at: usize, cwd: Option<PathBuf>, depth: usize) {
        let Some(prefix) = src.get(..at) else {
            return;
        };
        let cost = shell::cost::estimate(prefix, self.salvage_left);
        if cost > self.salvage_left {
            return;
        }
        self.salvage_left -= cost;
        let parsed = |text: &str| Some(shell::parse(text)).filter(|s| s.unparsed.is_none());
        let script = parsed(prefix).or_else(|| {
            let end = shell::split::statements(src)
                .into_iter()
                .filter(|r| r.end <= at)
                .map(|r| r.end)
                .next_back()?;
            parsed(src.get(..end)?)
        });
        if let Some(s) = script {
            self.parsed(&s, cwd, depth);
        }
    }

    pub(super) fn parsed(&mut self, script: &Script, cwd: Option<PathBuf>, depth: usize) {
        // The constants of the shell this script runs in (a trap's), for this script only.
        let inherited = std::mem::take(&mut self.inherited);
        let joined: Vec<shell::vars::Constant>;
        let constants = if inherited.is_empty() {
            &script.constants
        } else {
            joined = script
                .constants
                .iter()
                .cloned()
                .chain(
                    inherited
                        .into_iter()
                        .filter(|c| !script.assigned.iter().any(|a| a.name == c.name)),
                )
                .collect();
            &joined
        };
        if let Some(f) = recursive_function(script) {
            self.facts.signal(
                SignalName::ForkBomb,
                format!("function `{f}` ends up calling itself"),
            );
        }
        for r in &script.redirects {
            self.redirect(r, cwd.as_deref());
        }
        self.flows(script, cwd.as_deref());
        // Every folder a command may run in. A `cd` adds the folder it moves to but keeps
        // the others: it may fail (`cd x; rm -rf ..`), run in a subshell (`(cd x); …`), in
        // a branch or in a later loop round. The first is where the script started.
        let mut cwds: Vec<Option<PathBuf>> = vec![cwd];
        for (i, cmd) in script.commands.iter().enumerate() {
            if self.facts.invocations.len() > MAX_INVOCATIONS {
                self.facts.signal(
                    SignalName::TooLarge,
                    "the command expands to too many programs",
                );
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
                    let with_constants = shell::vars::apply(v, i, constants);
                    let base = with_constants.as_ref().unwrap_or(v);
                    let in_folder = in_folder(script, i, base, c.as_deref());
                    let known = in_folder.as_ref().or(with_constants.as_ref());
                    substituted |= known.is_some();
                    // The first variant moves the folder (`cd`); the others are judged
                    // where it started.
                    let mut elsewhere = c.clone();
                    let at = if k == 0 { &mut here } else { &mut elsewhere };
                    self.command(script, i, known.unwrap_or(v), at, depth);
                    // Under `IFS=…` an unquoted value splits at its characters; whether a
                    // use is quoted is not known, so it is judged split too.
                    if let Some(split) = split_variant(script, i, v, c.as_deref()) {
                        let mut unmoved = c.clone();
                        self.command(script, i, &split, &mut unmoved, depth);
                    }
                }
                // Code run out of sight could have changed them: judge the words as
                // written too, and keep the stricter of both.
                if substituted && script.hidden_code {
                    let mut unmoved = c.clone();
                    self.command(script, i, cmd, &mut unmoved, depth);
                }
                // A variable that is not a constant, with each value the script itself may
                // give it (`T=build; T=/; rm -rf $T` is judged as `rm -rf /` too).
                for value in &script.candidates {
                    if let Some(with) = shell::vars::apply(cmd, i, std::slice::from_ref(value)) {
                        let mut unmoved = c.clone();
                        self.command(script, i, &with, &mut unmoved, depth);
                    }
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
    pub(super) fn command(
        &mut self,
        script: &Script,
        i: usize,
        cmd: &SimpleCommand,
        cwd: &mut Option<PathBuf>,
        depth: usize,
    ) {
        self.command_redirects(cmd, cwd.as_deref());
        self.env_assignments(&cmd.assignments, cwd.clone(), depth);
        let Some(first) = cmd.words.first() else {
            return;
        };
        // An alias defined before: judged as its text with the arguments after it (Bash
        // expands aliases only with `shopt -s expand_aliases`; it is judged as written too).
        if first.literal {
            self.aliased(script, i, cmd, cwd.clone(), depth);
        }
        // A call to a function defined in the same script: its body is analysed already,
        // as written, and here with the arguments of this call. Only a definition that
        // surely ran counts: `rm -rf ~; rm() { :; }` or `(rm() { :; }); rm -rf ~` run the
        // real `rm`.
        // In a body judged for a call, what is defined is what was defined at the call.
        let defined_at = self.call_site.map_or(i, |site| site.max(i));
        if first.literal && script.calls_function(defined_at, &first.text) {
            self.function_call(script, i, cmd, cwd.clone(), depth);
            return;
        }
        if self.change_folder(&cmd.words, cwd, script) {
            return;
        }
        // `export NAME=value` and friends set variables like a leading assignment.
        if first.literal
            && matches!(
                first.text.as_str(),
                "export" | "declare" | "typeset" | "local" | "readonly"
            )
        {
            self.declared(&cmd.words[1..], cwd.as_deref(), depth);
        }
        let ctx = CmdCtx {
            script,
            index: i,
            cmd,
            depth,
        };
        // `trap 'commands' SIGNAL`: the commands run later, in this shell, which has the
        // script's variables: its constants hold there too (nothing in the script, the
        // trap's text included, gives them another value).
        if first.literal && first.text == "trap" {
            if let Some(code) = cmd.words.get(1).filter(|w| !w.text.starts_with('-')) {
                self.inherited = script
                    .constants
                    .iter()
                    .map(|c| shell::vars::Constant {
                        from: 0,
                        ..c.clone()
                    })
                    .collect();
                self.code_string(code, cwd.clone(), &ctx);
                self.inherited.clear();
            }
        }
        self.words(&cmd.words, cwd.clone(), &ctx, false);
    }

    /// Command `i` calls function `cmd.words[0]`: the body's commands judged with the
    /// call's arguments as `$1`, `"$@"` …, when they are known and the body does not
    /// `shift` or `set` them. Within a body judged for a call, the call is where the
    /// variables and functions known are read (`f() { g "$@"; }; g() { …; }; f x`).
    fn function_call(
        &mut self,
        script: &Script,
        i: usize,
        cmd: &SimpleCommand,
        cwd: Option<PathBuf>,
        depth: usize,
    ) {
        if depth >= MAX_NESTING {
            return;
        }
        let Some(args) = shell::vars::known_arguments(&cmd.words[1..]) else {
            return;
        };
        let site = self.call_site.map_or(i, |s| s.max(i));
        let name = &cmd.words[0].text;
        // A call judged once per function, arguments, folder and variables known there,
        // for so many calls.
        let known = script.constants.iter().filter(|c| c.from <= site).count();
        let call = (name.clone(), args.clone(), cwd.clone(), known);
        if self.calls.len() >= MAX_CALLS || self.calls.contains(&call) {
            return;
        }
        self.calls.push(call);
        let outer = self.call_site.replace(site);
        for (f, _) in script
            .functions
            .iter()
            .enumerate()
            .filter(|(_, n)| *n == name)
        {
            self.call_body(script, f, site, &args, cwd.clone(), depth);
        }
        self.call_site = outer;
    }

    /// The body of function `f` judged for a call at command `site` with `args`.
    fn call_body(
        &mut self,
        script: &Script,
        f: usize,
        site: usize,
        args: &[String],
        cwd: Option<PathBuf>,
        depth: usize,
    ) {
        let body: Vec<usize> = (0..script.commands.len())
            .filter(|&j| script.commands[j].function == Some(f))
            .collect();
        let moves_arguments = body.iter().any(|&j| {
            script.commands[j]
                .words
                .first()
                .is_some_and(|w| matches!(w.text.as_str(), "shift" | "set"))
        });
        if moves_arguments {
            return;
        }
        // An argument with blanks splits where the body uses it unquoted: judged both
        // ways, as for variables.
        let ifs = script
            .ifs
            .as_ref()
            .filter(|(_, from)| *from <= site)
            .map(|(chars, _)| chars.as_str());
        let consts = &script.constants;
        let mut here = cwd;
        for j in body {
            let body_cmd = &script.commands[j];
            let whole = shell::vars::apply_call(body_cmd, site, consts, args, None);
            let split = ifs
                .and_then(|ifs| shell::vars::apply_call(body_cmd, site, consts, args, Some(ifs)));
            if let Some(called) = &whole {
                self.command(script, j, called, &mut here, depth + 1);
            }
            if let Some(called) = split.filter(|s| Some(s) != whole.as_ref()) {
                let mut unmoved = here.clone();
                self.command(script, j, &called, &mut unmoved, depth + 1);
            }
        }
    }

    /// Command `i` is named like an alias defined before it: the alias's text with the
    /// command's arguments, judged as a script; a value known only at run time is a
    /// program known only at run time.
    fn aliased(
        &mut self,
        script: &Script,
        i: usize,
        cmd: &SimpleCommand,
        cwd: Option<PathBuf>,
        depth: usize,
    ) {
        let name = &cmd.words[0].text;
        for (_, value, _) in script
            .aliases
            .iter()
            .filter(|(n, _, at)| n == name && *at < i)
        {
            match value {
                Some(v) => {
                    let mut text = v.clone();
                    for w in &cmd.words[1..] {
                        text.push(' ');
                        text.push_str(&quoted(w));
                    }
                    self.script(&text, cwd.clone(), depth + 1);
                }
                None => self.facts.signal(
                    SignalName::DynamicCommand,
                    format!("the alias `{name}` runs a command known only at run time"),
                ),
            }
        }
    }

    /// A command's redirections; what a downloader writes is remembered (see `runs_file`).
    fn command_redirects(&mut self, cmd: &SimpleCommand, cwd: Option<&Path>) {
        let downloader = cmd.words.first().is_some_and(|w| {
            let (name, _) = program_name(&w.text);
            self.policy().is_downloader(&name)
        });
        for r in &cmd.redirects {
            self.redirect(r, cwd);
            if downloader && r.writes() && !r.is_fd_dup() {
                let path = self.resolve(&r.target, cwd);
                self.downloaded.extend(path.lexical);
            }
        }
    }

    /// `cd`, `pushd`, `popd` (also after `command` or `builtin`): moves `cwd`, where later
    /// relative paths point (`parsed` keeps the folders it may not have left, as in a
    /// pipeline stage). Whether `words` was one.
    ///
    /// Where the script sets `HOME`, `cd` alone goes where that leads, not known; where it
    /// or the environment it inherits sets `CDPATH`, so does `cd NAME` (not `./NAME`,
    /// `../NAME` or `/…`), which may be in any of its folders.
    fn change_folder(
        &mut self,
        words: &[Word],
        cwd: &mut Option<PathBuf>,
        script: &Script,
    ) -> bool {
        let mut cd_words: &[Word] = words;
        while cd_words.len() > 1
            && cd_words[0].literal
            && matches!(cd_words[0].text.as_str(), "command" | "builtin")
        {
            cd_words = &cd_words[1..];
        }
        if !(cd_words[0].literal && matches!(cd_words[0].text.as_str(), "cd" | "pushd" | "popd")) {
            return false;
        }
        let target = cd_words
            .iter()
            .skip(1)
            .find(|w| w.text == "-" || !w.text.starts_with('-'));
        let searched = |t: &str| {
            !(t.starts_with('/')
                || t.starts_with("./")
                || t.starts_with("../")
                || matches!(t, "." | ".."))
        };
        let next = match target {
            _ if cd_words[0].text == "popd" => None,
            None if script.home_unknown => None,
            None => Some(self.env.places.home.clone()),
            Some(w) if w.text == "-" => None,
            Some(w) if (script.cdpath_set || self.env.places.cdpath) && searched(&w.text) => None,
            Some(w) => self.resolve(w, cwd.as_deref()).lexical.map(PathBuf::from),
        };
        *cwd = next;
        self.push(cmd_invocation(cd_words, cwd.clone()));
        true
    }

    /// The `NAME=value` words of `export`, `declare` …, which set variables.
    fn declared(&mut self, words: &[Word], cwd: Option<&Path>, depth: usize) {
        for w in words {
            if let Some((name, value)) = w.text.split_once('=') {
                if is_env_name(name) {
                    let value = Word {
                        text: value.to_string(),
                        literal: w.literal,
                    };
                    self.env_assignment(name, &value, cwd.map(Path::to_path_buf), depth);
                }
            }
        }
    }

    pub(super) fn redirect(&mut self, r: &shell::Redirect, cwd: Option<&Path>) {
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

    pub(super) fn env_assignment(
        &mut self,
        name: &str,
        value: &Word,
        cwd: Option<PathBuf>,
        depth: usize,
    ) {
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
                    SignalName::ExecEnv,
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
                SignalName::ExecEnv,
                format!("sets {name}, which can make a program run other code"),
            );
        }
    }

    pub(super) fn push(&mut self, inv: Invocation) {
        self.facts.invocations.push(inv);
    }

    /// Analyses one argv (a simple command, or what a wrapper runs).
    pub(super) fn words(
        &mut self,
        words: &[Word],
        cwd: Option<PathBuf>,
        ctx: &CmdCtx,
        extra_unknown: bool,
    ) {
        let Some(inv) = self.invocation(words, cwd.clone(), extra_unknown) else {
            return;
        };
        if !inv.trusted_path {
            self.program_file(&words[0], &inv, ctx);
        }
        match wrappers::wrapper_of(&inv) {
            Some(w) => self.peel(w, inv, cwd, ctx, extra_unknown),
            None => self.program(inv, cwd, ctx),
        }
    }

    /// The program an argv runs and its arguments, or none (a signal instead) when the
    /// program's name is known only at run time.
    fn invocation(
        &mut self,
        words: &[Word],
        cwd: Option<PathBuf>,
        extra_unknown: bool,
    ) -> Option<Invocation> {
        let first = words.first()?;
        if !first.literal {
            self.facts.signal(
                SignalName::DynamicCommand,
                format!(
                    "the program name `{}` is known only at run time",
                    first.text
                ),
            );
            return None;
        }
        let (name, trusted) = program_name(&first.text);
        if first.text.contains('/') {
            self.runs_file(first, cwd.as_deref());
        }
        // `tar czf out.tgz src`: tar's old style, a first word of option letters without
        // a dash, read as the `-czf` it means.
        let args = match words.get(1) {
            Some(w) if name == "tar" && is_tar_old_style(w) => std::iter::once(Word {
                text: format!("-{}", w.text),
                literal: true,
            })
            .chain(words[2..].iter().cloned())
            .collect(),
            _ => words[1..].to_vec(),
        };
        Some(Invocation {
            name,
            args,
            trusted_path: trusted,
            extra_args_unknown: extra_unknown,
            extra_args_paths: extra_unknown && self.found_paths,
            cwd,
            display: join_words(words),
            code: None,
            named: Vec::new(),
            maybe_named: Vec::new(),
        })
    }

    /// A program that is not a wrapper: the part that knows it, or its declared effects.
    fn program(&mut self, inv: Invocation, cwd: Option<PathBuf>, ctx: &CmdCtx) {
        let inv = self.project_bin(inv, cwd.as_deref());
        if self.may_run_arguments(&inv) {
            self.hidden_commands(&inv, cwd.clone(), ctx);
        }
        let name = inv.name.clone();
        match name.as_str() {
            "find" => self.find(inv, cwd, ctx),
            "fd" | "fdfind" => self.fd(inv, cwd, ctx),
            "eval" => self.eval(inv, cwd, ctx),
            "source" | "." => self.source(inv, cwd, ctx),
            "watch" => self.watch(inv, cwd, ctx),
            "su" | "runuser" => self.su(inv, cwd, ctx),
            "git" => {
                self.git(inv, cwd, ctx);
                self.git_hooks(ctx);
            }
            _ if wrappers::project_run_command(self.policy(), &inv).is_some() => {
                self.project_run(inv, cwd, ctx)
            }
            _ if wrappers::local_npx(self.policy(), &inv).is_some() => {
                self.npx_local(inv, cwd, ctx)
            }
            "npm" | "yarn" | "pnpm" | "make" | "gmake" => self.build_tool(inv, ctx),
            "sed" => self.sed(inv, cwd, ctx),
            "awk" | "gawk" | "mawk" | "nawk" => self.awk(inv, ctx),
            _ if self.policy().is_shell(&name) => {
                // `bash --rcfile FILE -i`: a file of code the shell runs first.
                self.run_flag_files(&inv, ctx);
                self.shell(inv, cwd, ctx)
            }
            _ if self.policy().is_interpreter(&name) => self.interpreter(inv, cwd, ctx),
            _ => {
                self.option_commands(&inv, ctx);
                self.push_with_effects(inv);
            }
        }
    }
}

/// Command `i` run in folder `cwd` with `$PWD` (and `$(pwd)`) written out, when known.
fn in_folder(
    script: &Script,
    i: usize,
    cmd: &SimpleCommand,
    cwd: Option<&Path>,
) -> Option<SimpleCommand> {
    match cwd.and_then(Path::to_str) {
        Some(dir) if !script.pwd_unknown => shell::vars::with_pwd(cmd, i, dir),
        _ => None,
    }
}

/// Command `i` with its known values split at the characters of `IFS`, when the script
/// sets `IFS` to a known value before it and splitting changes the command.
fn split_variant(
    script: &Script,
    i: usize,
    cmd: &SimpleCommand,
    cwd: Option<&Path>,
) -> Option<SimpleCommand> {
    let (ifs, from) = script.ifs.as_ref()?;
    if i < *from {
        return None;
    }
    let split = shell::vars::apply_split(cmd, i, &script.constants, ifs)?;
    let joined = shell::vars::apply(cmd, i, &script.constants);
    if joined.as_ref() == Some(&split) {
        return None;
    }
    Some(in_folder(script, i, &split, cwd).unwrap_or(split))
}

/// A word as shell text that reads back as the same word: a known one single-quoted, one
/// known only at run time as written.
pub(super) fn quoted(w: &Word) -> String {
    if w.literal {
        format!("'{}'", w.text.replace('\'', "'\\''"))
    } else {
        w.text.clone()
    }
}

/// A function that calls itself, directly or through other functions of the script.
pub(super) fn recursive_function(script: &Script) -> Option<String> {
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

/// A first `tar` word in the old style: option letters without a dash, naming a mode.
pub(super) fn is_tar_old_style(w: &Word) -> bool {
    w.literal
        && !w.text.is_empty()
        && w.text.chars().all(|c| c.is_ascii_alphabetic())
        && w.text.contains(['c', 'x', 't', 'r', 'u', 'A'])
}
