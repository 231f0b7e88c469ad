//! Wrappers peeled: `sudo`, `env`, `timeout`, `nice`, `xargs` … and the command they run;
//! and the Python project tools whose `run` runs a command (`uv run`, `poetry run`).
//!
//! [`WRAPPERS`] is the one list of them, and holds only mechanism: how each gives way to its
//! command (a [`Peel`]), whether it is a program of its own without one, which may stand
//! before a downloader (`sudo curl … | sh`) and whose output option may pipe into a
//! command; both the peeling here and the download detection in `shells` read it. Their
//! grammar is in their tables in `policy/18-options-runners.toml`: which of their options
//! take a value, which name a file they write and which the folder the command runs in,
//! how many operands stand before the command (`operands`: `timeout`'s duration), which
//! option's value is shell code it runs (`code_flags`: `env -S`, `flock -c`, `npx -c`), the
//! string each input word replaces (`replace_flags`: `xargs -I R`), and with which options
//! npx fetches nothing (`offline_flags`: `--no-install`; with its `inert_flags`, read
//! from the built-in table only, since they let a call be judged as local). A
//! table of a user's or a project's file is read together with the built-in one, so that it
//! cannot hide a command the built-in one finds.

use std::path::{Path, PathBuf};

use super::{join_words, listed, program_name, Analyzer, CmdCtx, Invocation};
use crate::engine::args::{
    flag_value, is_env_name, option_use_at, option_uses, replace_string, skip_options,
    skip_options_by,
};
use crate::engine::policy::{AccessKind, Effects, List, Policy};
use crate::engine::shell::Word;

/// How a wrapper gives way to the command it runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Peel {
    /// The wrapper is a program of its own too; the command follows its options and the
    /// operands its table names (`operands`: `timeout`'s duration).
    Options,
    /// The command runs in its place, unseen (`exec`), after its options.
    Replaced,
    /// `command`, `builtin`: as [`Peel::Replaced`], but with `-v` or `-V` it only looks the
    /// name up.
    Lookup,
    /// `busybox APPLET …` runs the applet, unseen; alone, busybox is a program.
    Busybox,
    /// `env`: options, assignments and `-S` strings before the command.
    Env,
    /// `xargs`: the command's arguments are filled from the input.
    Xargs,
    /// `flock`: a lock file, then a command or a `-c` script.
    Flock,
    /// `coproc [NAME] COMMAND`: a brace group or subshell after a name too.
    Coproc,
}

/// One wrapper: a program that runs a command given in its arguments.
#[derive(Debug)]
pub(super) struct Wrapper {
    pub name: &'static str,
    pub peel: Peel,
    /// Without arguments it is only a program (`arch` prints the machine type).
    pub needs_command: bool,
    /// Download detection looks through it (`sudo curl … | sh` runs remote code). It reads
    /// the words roughly (see [`peel_for_download`]).
    pub hides_download: bool,
    /// An output option's value may be a command to pipe into (`strace -o '|CMD'`).
    pub output_pipes: bool,
}

impl Wrapper {
    const fn new(name: &'static str, peel: Peel) -> Self {
        Wrapper {
            name,
            peel,
            needs_command: false,
            hides_download: false,
            output_pipes: false,
        }
    }

    const fn output_pipes(self) -> Self {
        Wrapper {
            output_pipes: true,
            ..self
        }
    }

    const fn needs_command(self) -> Self {
        Wrapper {
            needs_command: true,
            ..self
        }
    }

    const fn hides_download(self) -> Self {
        Wrapper {
            hides_download: true,
            ..self
        }
    }

    /// The command in `args`, the wrapper's own words: after its options (those its
    /// table `eff` says take a value) and the operands the table names.
    fn command<'w>(&self, args: &'w [Word], eff: &Effects) -> &'w [Word] {
        let rest = skip_options_by(args, |t| eff.takes_value(t));
        &rest[usize::from(eff.operands).min(rest.len())..]
    }
}

/// Every wrapper peeled.
pub(super) const WRAPPERS: &[Wrapper] = {
    use Peel::*;
    &[
        Wrapper::new("sudo", Options).hides_download(),
        Wrapper::new("doas", Options),
        Wrapper::new("run0", Options),
        Wrapper::new("env", Env).hides_download(),
        Wrapper::new("command", Lookup).hides_download(),
        Wrapper::new("builtin", Lookup),
        Wrapper::new("exec", Replaced),
        // macOS `arch -x86_64 CMD` runs CMD.
        Wrapper::new("arch", Options).needs_command(),
        Wrapper::new("nice", Options).hides_download(),
        Wrapper::new("ionice", Options),
        Wrapper::new("nohup", Options).hides_download(),
        Wrapper::new("time", Options).hides_download(),
        Wrapper::new("stdbuf", Options),
        Wrapper::new("setsid", Options),
        Wrapper::new("unbuffer", Options),
        Wrapper::new("caffeinate", Options),
        Wrapper::new("chronic", Options),
        Wrapper::new("coproc", Coproc),
        // A traced command runs as it would alone; `-o '|CMD'` pipes the trace into CMD.
        Wrapper::new("strace", Options).output_pipes(),
        Wrapper::new("ltrace", Options),
        Wrapper::new("taskset", Options),
        Wrapper::new("chrt", Options),
        Wrapper::new("timeout", Options).hides_download(),
        Wrapper::new("busybox", Busybox),
        Wrapper::new("xargs", Xargs),
        Wrapper::new("flock", Flock),
    ]
};

/// What `npx --no-install …` runs: the script of an option of its table's `code_flags`
/// (`-c`, `--call`), or the command after its options. Only the forms that install nothing
/// (the `offline_flags` of the built-in table: `--no-install`, `--no`, `--offline`) are read
/// here; the others are a package fetched and run, judged by their own rule.
pub(super) fn local_npx<'w>(
    policy: &Policy,
    inv: &'w Invocation,
) -> Option<Result<String, Vec<&'w [Word]>>> {
    if !matches!(inv.name.as_str(), "npx" | "pnpx") {
        return None;
    }
    let offline = &Policy::builtin_effects(&inv.name)?.offline_flags;
    if !inv.args.iter().any(|w| offline.contains(&w.text)) {
        return None;
    }
    let tables = policy.effects_readings(&inv.name);
    let mut code = List::default();
    for eff in &tables {
        code.extend(&eff.code_flags);
    }
    let call = tables.iter().find_map(|eff| {
        option_uses(&inv.args, eff, &code)
            .into_iter()
            .find_map(|u| u.value)
            .map(|w| w.text)
    });
    match call {
        Some(script) => Some(Ok(script)),
        None => {
            let commands = readings(policy, &inv.name, |eff| {
                skip_options_by(&inv.args, |t| eff.takes_value(t))
            });
            (!commands.is_empty()).then_some(Err(commands))
        }
    }
}

/// `npx NAME …`, `npm exec`, `pnpm exec`, `yarn exec`: the program name they run, when it is
/// a plain name (no version, scope, `--package` or `-c` script) and no option says
/// otherwise (only the `inert_flags` and `offline_flags` of npx's built-in table stand
/// before it); and the words from it on.
fn exec_target(inv: &Invocation) -> Option<&[Word]> {
    let rest = match inv.name.as_str() {
        "npx" | "pnpx" => &inv.args[..],
        "npm" | "pnpm" | "yarn" => {
            let sub = inv.args.first()?;
            if sub.text != "exec" {
                return None;
            }
            &inv.args[1..]
        }
        _ => return None,
    };
    // Only words the program's own options could be: `npx -y jest` is plain too.
    let at = rest.iter().position(|w| !w.text.starts_with('-'))?;
    let npx = Policy::builtin_effects("npx")?;
    if rest[..at].iter().any(|w| {
        let t = w.text.as_str();
        t != "--" && !npx.inert_flags.contains(t) && !npx.offline_flags.contains(t)
    }) {
        return None;
    }
    let name = &rest[at];
    let plain = name.literal
        && !name.text.is_empty()
        && name
            .text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        && !name.text.starts_with('.');
    plain.then_some(&rest[at..])
}

/// What `read` finds in a command's words with each table of the program that a
/// mechanism reads them with (see [`Policy::effects_readings`]; no table: the words read
/// with none), each found once; empty ones left out.
pub(super) fn readings<'w>(
    policy: &Policy,
    name: &str,
    read: impl Fn(&Effects) -> &'w [Word],
) -> Vec<&'w [Word]> {
    let none = Effects::default();
    let mut tables = policy.effects_readings(name);
    if tables.is_empty() {
        tables.push(&none);
    }
    let mut out: Vec<&'w [Word]> = Vec::new();
    for eff in tables {
        let found = read(eff);
        if !found.is_empty() && !out.contains(&found) {
            out.push(found);
        }
    }
    out
}

/// The commands `uv run CMD` (and the other `project_runners` of the built-in kinds) runs, as read with each
/// of its tables, and whether an option (`folder_flags`) moves it to another folder; none
/// when `inv` is not such a `run`. `yarn node ARGS` runs `node ARGS`.
pub(super) fn project_run_command<'w>(
    policy: &Policy,
    inv: &'w Invocation,
) -> Option<(Vec<&'w [Word]>, bool)> {
    if inv.name == "yarn" {
        let rest = skip_options(&inv.args, &[]);
        return (rest.first().map(|w| w.text.as_str()) == Some("node"))
            .then(|| (vec![rest], false));
    }
    if !Policy::builtin_kinds().project_runners.contains(&inv.name) {
        return None;
    }
    let commands = readings(policy, &inv.name, |eff| {
        let takes = |t: &str| eff.takes_value(t);
        let rest = skip_options_by(&inv.args, takes);
        match rest.split_first() {
            Some((run, after)) if run.text == "run" => skip_options_by(after, takes),
            _ => &[],
        }
    });
    if commands.is_empty() {
        return None;
    }
    let folder_options: Vec<&str> = policy
        .effects_readings(&inv.name)
        .into_iter()
        .flat_map(|e| e.folder_flags.iter())
        .collect();
    let moved = inv.args.iter().any(|w| {
        folder_options
            .iter()
            .any(|o| w.text == *o || w.text.strip_prefix(o).is_some_and(|r| r.starts_with('=')))
    });
    Some((commands, moved))
}

/// The wrapper that `inv` is, if it runs a command.
pub(super) fn wrapper_of(inv: &Invocation) -> Option<&'static Wrapper> {
    WRAPPERS
        .iter()
        .find(|w| w.name == inv.name && !(w.needs_command && inv.args.is_empty()))
}

/// The words after the wrappers that may stand before a downloader (`sudo curl …`), read
/// roughly: after a wrapper's name, every word that starts with `-` or holds `=` is taken
/// for an option, then its operands are skipped.
pub(super) fn peel_for_download(mut words: &[Word]) -> &[Word] {
    while let Some(w) = words.first().and_then(|first| {
        let (name, _) = program_name(&first.text);
        WRAPPERS.iter().find(|w| w.hides_download && w.name == name)
    }) {
        words = &words[1..];
        while words
            .first()
            .is_some_and(|w| w.text.starts_with('-') || w.text.contains('='))
        {
            words = &words[1..];
        }
        let operands = Policy::builtin_effects(w.name).map_or(0, |e| usize::from(e.operands));
        words = &words[operands.min(words.len())..];
    }
    words
}

impl Analyzer<'_> {
    /// A wrapper's option table in the policy (`[commands.sudo]` …): the options that
    /// take a value, `write_flags` naming a file it writes (`time -o FILE`).
    fn wrapper_effects(&self, w: &Wrapper) -> Effects {
        self.policy().effects(w.name).cloned().unwrap_or_default()
    }

    /// The commands wrapper `w` runs in `args`: read with its table, and with the built-in
    /// one too when a layer replaced it (a layer adds a reading, never hides one).
    fn wrapped(&self, w: &Wrapper, args: &[Word]) -> Vec<Vec<Word>> {
        readings(self.policy(), w.name, |eff| w.command(args, eff))
            .into_iter()
            .map(<[Word]>::to_vec)
            .collect()
    }

    /// `uv run CMD`, `poetry run CMD` …: the tool's own rule for the call, and CMD judged on
    /// its own, in a folder not known when an option moves it.
    pub(super) fn project_run(&mut self, inv: Invocation, cwd: Option<PathBuf>, ctx: &CmdCtx) {
        let Some((commands, moved)) = project_run_command(self.policy(), &inv) else {
            return;
        };
        let commands: Vec<Vec<Word>> = commands.into_iter().map(<[Word]>::to_vec).collect();
        let extra = inv.extra_args_unknown;
        self.push_with_effects(inv);
        for command in commands {
            let cwd = if moved { None } else { cwd.clone() };
            self.words(&command, cwd, ctx, extra);
        }
    }

    /// `npx NAME …` (or `npm exec`, `pnpm exec`, `yarn exec` NAME) where NAME is the project's
    /// own `node_modules/.bin/NAME` in the folder it runs in: npx runs that program and
    /// fetches nothing, so the call is judged as `npx --no-install NAME …`. Anything else
    /// is left as it is (npx may download a package and run it).
    pub(super) fn project_bin(&self, inv: Invocation, cwd: Option<&Path>) -> Invocation {
        let Some(words) = exec_target(&inv) else {
            return inv;
        };
        let Some(cwd) = cwd else {
            return inv;
        };
        let bin = cwd.join("node_modules/.bin").join(&words[0].text);
        if self.env.fs.canonicalize(&bin).is_none() {
            return inv;
        }
        // The first of npx's `offline_flags`: `--no-install`.
        let Some(offline) =
            Policy::builtin_effects("npx").and_then(|e| e.offline_flags.iter().next())
        else {
            return inv;
        };
        let args = std::iter::once(Word::lit(offline))
            .chain(words.iter().cloned())
            .collect();
        Invocation {
            name: "npx".into(),
            args,
            ..inv
        }
    }

    /// `npx --no-install CMD`: npx's own rule for the call; CMD judged on its own when it is
    /// a shell, an interpreter or a program whose effects the policy lists (`rm`, found on
    /// `PATH`); a tool of the project's is its code, as `npm run` is. A `-c` script always.
    pub(super) fn npx_local(&mut self, inv: Invocation, cwd: Option<PathBuf>, ctx: &CmdCtx) {
        let Some(runs) = local_npx(self.policy(), &inv) else {
            return;
        };
        let runs = runs.map_err(|cs| cs.into_iter().map(<[Word]>::to_vec).collect::<Vec<_>>());
        let extra = inv.extra_args_unknown;
        self.push_with_effects(inv);
        match runs {
            Ok(script) => self.script(&script, cwd, ctx.depth + 1),
            Err(commands) => {
                for command in commands {
                    let name = command
                        .first()
                        .map(|w| program_name(&w.text).0)
                        .unwrap_or_default();
                    let policy = self.policy();
                    if policy.is_shell(&name)
                        || policy.is_interpreter(&name)
                        || policy.effects(&name).is_some()
                    {
                        self.words(&command, cwd.clone(), ctx, extra);
                    }
                }
            }
        }
    }

    /// Peels wrapper `w` off `inv` and analyses the command it runs.
    pub(super) fn peel(
        &mut self,
        w: &Wrapper,
        inv: Invocation,
        cwd: Option<PathBuf>,
        ctx: &CmdCtx,
        extra: bool,
    ) {
        match w.peel {
            Peel::Options => {
                self.wrapper_outputs(w, &inv, cwd.as_deref(), ctx);
                let commands = self.wrapped(w, &inv.args);
                self.push(inv);
                for rest in commands {
                    self.words(&rest, cwd.clone(), ctx, extra);
                }
            }
            Peel::Lookup if looks_up(&inv.args) => self.push(inv),
            Peel::Replaced | Peel::Lookup => {
                for rest in self.wrapped(w, &inv.args) {
                    self.words(&rest, cwd.clone(), ctx, extra);
                }
            }
            Peel::Busybox if inv.args.is_empty() => self.push(inv),
            Peel::Busybox => self.words(&inv.args, cwd, ctx, extra),
            Peel::Env => self.env_cmd(inv, cwd, ctx, extra),
            Peel::Xargs => self.xargs(w, inv, cwd, ctx),
            Peel::Flock => self.flock(w, inv, cwd, ctx, extra),
            Peel::Coproc => self.coproc(inv, cwd, ctx, extra),
        }
    }

    /// `coproc CMD`, `coproc [NAME] { …; }`, `coproc [NAME] ( … )`. The grammar reads a
    /// brace group after `coproc` as words (`{`, then the first command's), its other
    /// commands as commands of their own; a subshell as one word of its source.
    fn coproc(&mut self, inv: Invocation, cwd: Option<PathBuf>, ctx: &CmdCtx, extra: bool) {
        let args = inv.args.clone();
        self.push(inv);
        let group = |w: Option<&Word>| w.is_some_and(|w| w.literal && w.text == "{");
        let sub = |w: Option<&Word>| {
            w.filter(|w| !w.literal)
                .and_then(|w| w.text.strip_prefix('(')?.strip_suffix(')'))
                .map(str::to_string)
        };
        let rest = if group(args.first()) {
            &args[1..]
        } else if group(args.get(1)) {
            &args[2..]
        } else if let Some(code) = sub(args.first()).or_else(|| sub(args.get(1))) {
            self.script(&code, cwd, ctx.depth + 1);
            return;
        } else {
            &args[..]
        };
        self.words(rest, cwd, ctx, extra);
    }

    /// The files a wrapper's options write (`time -o FILE`), or the command it pipes into
    /// (`strace -o '|CMD'`).
    fn wrapper_outputs(&mut self, w: &Wrapper, inv: &Invocation, cwd: Option<&Path>, ctx: &CmdCtx) {
        let outputs = self.wrapper_effects(w).write_flags;
        let Some(first) = outputs.iter().next() else {
            return;
        };
        let origin = format!("{} {first}", w.name);
        for i in 0..inv.args.len() {
            let Some(f) = outputs.iter().find_map(|o| flag_value(&inv.args, i, o)) else {
                continue;
            };
            match f.text.strip_prefix(['|', '!']) {
                Some(code) if w.output_pipes => {
                    let code = Word {
                        text: code.to_string(),
                        literal: f.literal,
                    };
                    self.code_string(&code, cwd.map(Path::to_path_buf), ctx);
                }
                _ => self.access(AccessKind::Write, &f, cwd, &origin),
            }
        }
    }

    /// `flock FILE COMMAND…` or `flock FILE -c SCRIPT` (the `code_flags` of its tables).
    fn flock(
        &mut self,
        w: &Wrapper,
        inv: Invocation,
        cwd: Option<PathBuf>,
        ctx: &CmdCtx,
        extra: bool,
    ) {
        let commands = self.wrapped(w, &inv.args);
        let mut code = List::default();
        for eff in self.policy().effects_readings(w.name) {
            code.extend(&eff.code_flags);
        }
        self.push(inv);
        for rest in commands {
            if let Some(pos) = rest.iter().position(|a| code.contains(&a.text)) {
                if let Some(code) = rest.get(pos + 1) {
                    self.code_string(code, cwd.clone(), ctx);
                }
            } else if rest.len() > 1 {
                self.words(&rest[1..], cwd.clone(), ctx, extra);
            }
        }
    }

    /// `env [OPTIONS] [NAME=VALUE…] [COMMAND…]`.
    pub(super) fn env_cmd(
        &mut self,
        mut inv: Invocation,
        cwd: Option<PathBuf>,
        ctx: &CmdCtx,
        extra: bool,
    ) {
        let args = inv.args.clone();
        let tables: Vec<Effects> = {
            let none = Effects::default();
            let t = self.policy().effects_readings("env");
            if t.is_empty() {
                vec![none]
            } else {
                t.into_iter().cloned().collect()
            }
        };
        let readings: Vec<EnvOptions> = tables
            .iter()
            .map(|eff| self.env_options(&args, cwd.clone(), ctx.depth, eff))
            .collect();
        // An option may lack its value.
        let rest_of = |o: &EnvOptions| &args[o.command_at.min(args.len())..];
        if readings
            .iter()
            .all(|o| rest_of(o).is_empty() && o.split_string.is_none())
        {
            // No command: `env` prints the environment. Its assignments only add to what
            // it prints, so they are dropped, leaving the options for the rules to read.
            inv.args.retain(|a| !is_assignment(&a.text));
            self.push(inv);
            return;
        }
        self.push(inv);
        for opts in &readings {
            let rest = rest_of(opts);
            match &opts.split_string {
                Some(s) if s.literal => {
                    let text = format!("{} {}", s.text, join_words(rest));
                    self.script(&text, opts.cwd.clone(), ctx.depth + 1);
                }
                Some(_) => self.dynamic_code(ctx, "env -S runs text known only at run time"),
                None => self.words(rest, opts.cwd.clone(), ctx, extra),
            }
        }
    }

    /// Reads `env`'s options and assignments (each assignment is judged as it is read).
    fn env_options(
        &mut self,
        args: &[Word],
        mut cwd: Option<PathBuf>,
        depth: usize,
        eff: &Effects,
    ) -> EnvOptions {
        let mut i = 0;
        let mut split_string: Option<Word> = None;
        let mut assignments: Vec<(String, Word)> = Vec::new();
        while i < args.len() {
            let t = args[i].text.as_str();
            if t == "--" {
                i += 1;
                break;
            }
            // `code_flags` (`-S`, `--split-string`): the command as one string, split.
            if let Some((u, n)) = option_use_at(args, i, eff, &eff.code_flags) {
                split_string = u.value;
                i += n;
                continue;
            }
            // The folder the command runs in: `-C DIR`, `--chdir=DIR`, `-CDIR`.
            if let Some((dir, n)) = folder_use(args, i, &eff.folder_flags) {
                cwd = dir.and_then(|d| self.resolve(&d, cwd.as_deref()).lexical.map(PathBuf::from));
                i += n;
                continue;
            }
            if eff.takes_value(t) {
                i += 2;
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
                assignments.push((name.to_string(), value));
                i += 1;
                continue;
            }
            break;
        }
        // Judged together: git's numbered settings come in several variables.
        self.env_assignments(&assignments, cwd.clone(), depth);
        EnvOptions {
            command_at: i,
            split_string,
            cwd,
        }
    }

    /// `xargs [OPTIONS] [COMMAND…]`: the command runs with arguments read from the input,
    /// judged with the words that input gives it (see `listed`): added at the end, or in
    /// place of the replace string (`-I {}`).
    fn xargs(&mut self, w: &Wrapper, inv: Invocation, cwd: Option<PathBuf>, ctx: &CmdCtx) {
        let options = leading_options(&inv.args);
        // The files its options read (`-a FILE`), as its table says.
        let reads = self.wrapper_effects(w).read_flags;
        for i in 0..options.len() {
            for flag in reads.iter() {
                if let Some(f) = flag_value(options, i, flag) {
                    self.access(
                        AccessKind::Read,
                        &f,
                        cwd.as_deref(),
                        &format!("xargs {flag}"),
                    );
                }
            }
        }
        let mut commands = self.wrapped(w, &inv.args);
        // The replace string, from the `replace_flags` of its tables.
        let tables: Vec<Effects> = self
            .policy()
            .effects_readings(w.name)
            .into_iter()
            .cloned()
            .collect();
        let mut replace_flags = List::default();
        for eff in &tables {
            replace_flags.extend(&eff.replace_flags);
        }
        let takes_value = |f: &str| tables.iter().any(|e| e.takes_value(f));
        let args = inv.args.clone();
        self.push(inv);
        if commands.is_empty() {
            // With no command, xargs runs `echo` with its input.
            commands.push(vec![Word::lit("echo")]);
        }
        for rest in commands {
            // Its own options are the words before the command (a value too: `-n 1 -I{}`).
            let own = &args[..args.len().saturating_sub(rest.len())];
            let replace =
                replace_string(own, &replace_flags, takes_value).filter(|r| !r.is_empty());
            let split = xargs_split(own, &tables);
            let input = listed::input(ctx.script, ctx.cmd, &split, ctx.depth == 0);
            self.xargs_command(rest, replace, input, cwd.clone(), ctx);
        }
    }

    /// One reading of the command xargs runs, with the words of its input.
    fn xargs_command(
        &mut self,
        mut rest: Vec<Word>,
        replace: Option<String>,
        input: listed::Input,
        cwd: Option<PathBuf>,
        ctx: &CmdCtx,
    ) {
        // After `--` every word the input gives is an operand, whatever it looks like.
        let end_of_options = |r: Option<&str>| {
            rest.iter()
                .skip(1)
                .take_while(|w| r.is_none_or(|r| w.text != r))
                .any(|w| w.text == "--")
        };
        let operands = input.never_options || end_of_options(replace.as_deref());
        match replace {
            Some(r) => {
                let mut filled = Vec::with_capacity(rest.len() + input.words.len());
                for w in rest {
                    if w.text == r {
                        filled.extend(input.words.iter().cloned());
                    } else if w.text.contains(&r) {
                        // Part of a word (`--file={}`), or the program's name: unknown.
                        filled.push(Word {
                            literal: false,
                            ..w
                        });
                    } else {
                        filled.push(w);
                    }
                }
                rest = filled;
            }
            None => rest.extend(input.words.iter().cloned()),
        }
        let added = !input.exact;
        if operands {
            self.found_words(&rest, cwd, ctx, added, input.trees);
        } else {
            self.input_words(&rest, cwd, ctx, added, input.trees);
        }
    }
}

/// What `env`'s words before its command say.
struct EnvOptions {
    /// Where the command starts.
    command_at: usize,
    /// The text of `-S`, to be split into a command.
    split_string: Option<Word>,
    /// The folder the command runs in (`-C DIR`).
    cwd: Option<PathBuf>,
}

/// `command -v NAME`, `command -V NAME`: looks the name up rather than running it.
fn looks_up(args: &[Word]) -> bool {
    args.iter()
        .take_while(|a| a.text.starts_with('-'))
        .any(|a| a.text.contains('v') || a.text.contains('V'))
}

/// The words read as xargs options: up to the first that does not start with `-`.
fn leading_options(args: &[Word]) -> &[Word] {
    let end = args
        .iter()
        .position(|a| !a.text.starts_with('-'))
        .map_or(args.len(), |p| p + 1);
    &args[..end]
}

/// How xargs splits its input, read from its options (short ones also in a cluster, `-0r`)
/// as its tables say: `null_flags` split at NUL bytes, `line_flags` and `replace_flags` at
/// lines or a delimiter, `read_flags` read the input from a file; in a cluster, the letters
/// after one that takes a value (`value_flags`, or only in its word: `attached_flags`) are
/// that value.
fn xargs_split(options: &[Word], tables: &[Effects]) -> listed::Split {
    let any = |f: &str, list: fn(&Effects) -> &List| tables.iter().any(|e| list(e).contains(f));
    let mut split = listed::Split {
        nul: false,
        other: false,
        from_file: false,
    };
    let mut note = |f: &str| {
        split.nul |= any(f, |e| &e.null_flags);
        split.other |= any(f, |e| &e.line_flags) || any(f, |e| &e.replace_flags);
        split.from_file |= any(f, |e| &e.read_flags);
    };
    for a in options {
        let t = a.text.as_str();
        if t.starts_with("--") {
            note(t.split_once('=').map_or(t, |(n, _)| n));
            continue;
        }
        let Some(letters) = t.strip_prefix('-') else {
            continue;
        };
        for c in letters.chars() {
            let f = format!("-{c}");
            note(&f);
            let valued = tables
                .iter()
                .any(|e| e.takes_value(&f) || e.attached_flags.contains(&f));
            if valued {
                break;
            }
        }
    }
    split
}

/// Whether a word is a variable assignment (`NAME=value`).
fn is_assignment(word: &str) -> bool {
    word.split_once('=')
        .is_some_and(|(name, _)| is_env_name(name))
}

/// The folder option of `folder_flags` at word `i`, if it is one: its value (the next word,
/// or after `=` for a long option, or the rest of a short option's word) and how many words
/// it takes.
fn folder_use(
    args: &[Word],
    i: usize,
    folder_flags: &crate::engine::policy::List,
) -> Option<(Option<Word>, usize)> {
    let w = &args[i];
    folder_flags.iter().find_map(|f| {
        if w.text == f {
            return Some((args.get(i + 1).cloned(), 2));
        }
        let rest = w.text.strip_prefix(f)?;
        let value = if f.starts_with("--") {
            rest.strip_prefix('=')?
        } else if f.len() == 2 && !rest.is_empty() {
            rest
        } else {
            return None;
        };
        let dir = Word {
            text: value.to_string(),
            literal: w.literal,
        };
        Some((Some(dir), 1))
    })
}
