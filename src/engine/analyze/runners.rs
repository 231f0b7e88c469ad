//! Programs that run commands given in their options: the `run_flags` of a program's table
//! (`tar --to-command`, `rsync -e`, `zip -TT`), and those read here: `vim -c '!…'`, `gdb -ex
//! 'shell …'`, `script -c`, `parallel`. What each runs is judged where its text is known;
//! the program's own rule says the rest.
//!
//! A program with a table whose options hold a command in its own language (`command_flags`:
//! `vim -c`, `gdb -ex`) or a program to run (`program_flags`: `gdb --args`) has those
//! options' values judged here, whatever else its table says: which options they are comes
//! from every table of the program (a layer's and the built-in one, so a layer adds
//! options and never hides one), and the shell commands in them are found by the reader
//! of the program's language here (vim's `:!CMD`, gdb's `!CMD`, `shell CMD`, `pipe … |
//! CMD`). A table does not make the program's other arguments data: a program that may run
//! them in ways no table describes (gdb's `python …`, the program it debugs) is one of the
//! `runners` (`policy/00-paths.toml`), whose arguments `hidden` reads as possible commands
//! as it reads those of a program the policy does not know.

use super::effects::select;
use super::flow::{literal_output, stage_before};
use super::git_args::shell_quote;
use super::{Analyzer, CmdCtx, Invocation, SignalName};
use crate::engine::args::Recursion;
use crate::engine::args::{
    flag_matches, flag_value, option_uses, positionals, replace_string, table_flag_value, OptionUse,
};
use crate::engine::policy::{run_flag_name, AccessKind, Effects, List, Policy};
use crate::engine::shell::{Stdin, Word};

/// How many argument combinations of `parallel … ::: …` are judged one by one.
const MAX_PARALLEL_JOBS: usize = 32;

impl Analyzer<'_> {
    /// The commands a program runs from its options, judged; called for every program that
    /// has no part of its own.
    pub(super) fn option_commands(&mut self, inv: &Invocation, ctx: &CmdCtx) {
        self.run_flag_commands(inv, ctx);
        self.escaped_commands(inv, ctx);
        match inv.name.as_str() {
            "gdb" => self.gdb_commands(inv, ctx),
            "parallel" => self.parallel(inv, ctx),
            "script" => self.script_program(inv, ctx),
            n if Policy::builtin_kinds().vim_editors.contains(n) => self.vim_commands(inv, ctx),
            _ => {}
        }
    }

    /// The options of the program's table whose value is a command it runs
    /// (`run_flags`: `tar --to-command=CMD`, `-I PROG`, `rsync -e CMD`), read with the
    /// table's arity: each use raises `option-runs` (what the program hands the command,
    /// its input and arguments, is not seen, so the call is asked), and a value that is
    /// surely the option's is judged as a script (a forbidden one makes the call
    /// forbidden). A table of a user's or a project's file adds uses, never hides one.
    pub(super) fn run_flag_commands(&mut self, inv: &Invocation, ctx: &CmdCtx) {
        for (option, code, clear) in self.run_flag_values(inv) {
            self.facts.signal(
                SignalName::OptionRuns,
                format!("`{} {option}` runs `{}`", inv.name, code.text),
            );
            // `-xIf zstd`: the value may be `f` or `zstd`; asked for either way.
            if clear {
                self.code_string(&code, inv.cwd.clone(), ctx);
            }
        }
    }

    /// The shell commands a program runs from its own command language: after one of the
    /// `shell_escapes` of its table (psql's `\!`, sqlite3's `.shell`, fzf's `execute(…)`)
    /// in the value of one of its `command_flags` or in a positional argument of its
    /// `command_args` or, with `command_input`, in its input where that is known (`psql <<<
    /// '\! CMD'`); and, for a table with `runs_input`, its input (`at`, `batch`).
    /// Each is judged apart, as a command hidden in arguments is: a Forbidden one makes
    /// the call Forbidden (`exec.hidden-forbidden`), any other leaves the program's own
    /// verdict.
    fn escaped_commands(&mut self, inv: &Invocation, ctx: &CmdCtx) {
        if self.in_hidden {
            return;
        }
        for (eff, args) in self.escape_readings(inv) {
            let mut texts: Vec<Word> = option_uses(args, &eff, &eff.command_flags)
                .into_iter()
                .filter_map(|u| u.value)
                .collect();
            let mut whole: Vec<Word> = Vec::new();
            if let Some(spec) = eff.command_args {
                let pos = positionals(args, &eff.value_flags);
                let selected = select(&pos, spec).into_iter().cloned();
                // `gh alias set --shell NAME CMD`: the operand is a shell command whole.
                let shell = args
                    .iter()
                    .any(|a| eff.shell_flags.iter().any(|f| flag_matches(f, &a.text)));
                if shell {
                    whole.extend(selected);
                } else {
                    texts.extend(selected);
                }
            }
            if eff.command_input {
                texts.extend(known_input(ctx));
            }
            let escapes: Vec<&str> = eff.shell_escapes.iter().collect();
            let found = texts.iter().flat_map(|t| {
                escaped_shell_commands(&t.text, &escapes)
                    .into_iter()
                    .map(move |c| (c, t.literal))
            });
            let commands: Vec<(String, bool)> = found
                .chain(whole.iter().map(|w| (w.text.clone(), w.literal)))
                .collect();
            for (cmd, literal) in commands {
                let code = Word {
                    text: cmd.clone(),
                    literal,
                };
                let cwd = inv.cwd.clone();
                let facts = self.apart(|a| a.code_string(&code, cwd, ctx));
                self.keep_hidden(cmd, facts, false);
            }
            if eff.runs_input {
                let facts = self.apart(|a| a.stdin_code(inv, ctx, true));
                self.keep_hidden(format!("the input of {}", inv.name), facts, false);
            }
        }
    }

    /// The tables of `inv` that have `shell_escapes` or `runs_input`, each with the words
    /// it reads: the program's own with all its arguments, and one named for its
    /// subcommand (`[commands."gh alias set"]`) with the words after that subcommand.
    fn escape_readings<'i>(&self, inv: &'i Invocation) -> Vec<(Effects, &'i [Word])> {
        let wanted = |e: &&Effects| e.runs_input || !e.shell_escapes.is_empty();
        let policy = self.policy();
        let mut out: Vec<(Effects, &[Word])> = policy
            .effects_readings(&inv.name)
            .into_iter()
            .filter(wanted)
            .map(|e| (e.clone(), inv.args.as_slice()))
            .collect();
        let Some(top) = policy.effects(&inv.name) else {
            return out;
        };
        // The first two positional words, as the program's table reads them.
        let mut name = inv.name.to_string();
        let mut i = 0;
        let mut depth = 0;
        while i < inv.args.len() && depth < 2 {
            let t = inv.args[i].text.as_str();
            if t == "--" {
                break;
            }
            if t.starts_with('-') && t.len() > 1 {
                i += if top.takes_value(t) { 2 } else { 1 };
                continue;
            }
            name.push(' ');
            name.push_str(t);
            depth += 1;
            i += 1;
            let rest = &inv.args[i.min(inv.args.len())..];
            for e in policy.effects_readings(&name).into_iter().filter(wanted) {
                out.push((e.clone(), rest));
            }
        }
        out
    }

    /// A shell's `run_flags` name a file of code it runs first (`bash --rcfile FILE -i`,
    /// `--init-file`, yash's `--profile`): the file is read, and its code is asked about
    /// as code the hook does not follow (`code-opaque`; what can be read of it is judged
    /// too, as for `bash FILE`); its name is a file's, never a command's.
    pub(super) fn run_flag_files(&mut self, inv: &Invocation, ctx: &CmdCtx) {
        for (option, file, _) in self.run_flag_values(inv) {
            self.facts.signal(
                SignalName::CodeOpaque,
                format!("`{} {option}` runs the code of `{}`", inv.name, file.text),
            );
            self.runs_file(&file, inv.cwd.as_deref());
            self.access(
                AccessKind::Read,
                &file,
                inv.cwd.as_deref(),
                &format!("{} {option}", inv.name),
            );
            self.shell_script_file(&file, inv.cwd.clone(), ctx);
        }
    }

    /// The uses of the program's `run_flags` (see [`Self::run_flag_commands`]): the option,
    /// its value (after the prefix of a `--opt=PREFIX` entry), and whether the value is
    /// surely the option's.
    fn run_flag_values(&self, inv: &Invocation) -> Vec<(String, Word, bool)> {
        let tables = self.policy().effects_readings(&inv.name);
        let mut run = List::default();
        for eff in &tables {
            run.extend(&eff.run_flags);
        }
        if run.is_empty() {
            return Vec::new();
        }
        let readings: Vec<Effects> = tables.into_iter().cloned().collect();
        let mut uses: Vec<OptionUse> = Vec::new();
        for eff in &readings {
            for u in option_uses(&inv.args, eff, &run) {
                if !uses.contains(&u) {
                    uses.push(u);
                }
            }
        }
        let mut values = Vec::new();
        for u in uses {
            let prefix = u.entry.split_once('=').map(|(_, p)| p);
            let Some(value) = u.value else { continue };
            let code = match prefix {
                Some(p) => match value.text.strip_prefix(p) {
                    Some(c) => Word {
                        text: c.to_string(),
                        literal: value.literal,
                    },
                    None => continue,
                },
                None => value,
            };
            values.push((run_flag_name(&u.entry).to_string(), code, u.clear));
        }
        values
    }

    /// `vim -c CMD`, `--cmd CMD` (the `command_flags` of its table, vim's for the editors
    /// of its family that have none, with a layer's table adding to them), `+CMD`: an Ex
    /// command with `!` runs the rest of it in a shell (`!rm …`, `r !…`, `w !…`, `%!…`).
    /// The editor stays asked about (it can run commands in other ways); a command found
    /// here is judged too.
    fn vim_commands(&mut self, inv: &Invocation, ctx: &CmdCtx) {
        let args = &inv.args;
        let mut command_flags = List::default();
        for eff in self.policy().effects_readings(&inv.name) {
            command_flags.extend(&eff.command_flags);
        }
        if let Some(vim) = Policy::builtin_effects("vim") {
            command_flags.extend(&vim.command_flags);
        }
        let mut cmds: Vec<&Word> = Vec::new();
        for (i, a) in args.iter().enumerate() {
            if a.text == "--" {
                break;
            }
            if command_flags.contains(&a.text) {
                cmds.extend(args.get(i + 1));
            } else if a.text.len() > 1 && a.text.starts_with('+') {
                cmds.push(a);
            }
        }
        for c in cmds {
            let text = c.text.trim_start_matches('+');
            if let Some((_, shell)) = text.split_once('!') {
                let code = Word {
                    text: shell.to_string(),
                    literal: c.literal,
                };
                self.code_string(&code, inv.cwd.clone(), ctx);
            }
        }
    }

    /// `gdb -ex '!CMD'`, `-ex 'shell CMD'`, `-ex 'pipe … | CMD'` (the `command_flags` of
    /// its tables), and the program of `--args PROG ARGS…` (`program_flags`), which `run`
    /// starts.
    fn gdb_commands(&mut self, inv: &Invocation, ctx: &CmdCtx) {
        let args = &inv.args;
        let mut command_flags = List::default();
        let mut program_flags = List::default();
        for eff in self.policy().effects_readings(&inv.name) {
            command_flags.extend(&eff.command_flags);
            program_flags.extend(&eff.program_flags);
        }
        let opts: Vec<&str> = command_flags.iter().collect();
        let mut i = 0;
        while i < args.len() {
            let t = args[i].text.as_str();
            if program_flags.contains(t) {
                let prog = args[i + 1..].to_vec();
                self.words(&prog, inv.cwd.clone(), ctx, false);
                return;
            }
            let Some((v, n)) = value_at(args, i, &opts, &Effects::default()) else {
                i += 1;
                continue;
            };
            if let Some(code) = gdb_shell_text(&v.text) {
                let code = Word {
                    text: code,
                    literal: v.literal,
                };
                self.code_string(&code, inv.cwd.clone(), ctx);
            }
            i += n;
        }
    }

    /// `script [OPTIONS] [FILE]`: `-c CMD` runs CMD in a shell, else a shell reads the
    /// input; BSD's `script FILE CMD…` runs CMD. The typescript FILE (`typescript` when
    /// none is named) and the `-I`/`-O`/`-B`/`-T` logs are written.
    fn script_program(&mut self, inv: &Invocation, ctx: &CmdCtx) {
        for eff in self.tables(&inv.name) {
            let call = script_parts(&inv.args, &eff);
            self.script_call(call, inv, ctx);
        }
    }

    /// One reading of `script`'s words.
    fn script_call(&mut self, call: ScriptParts, inv: &Invocation, ctx: &CmdCtx) {
        let cwd = inv.cwd.clone();
        for log in &call.logs {
            self.access(AccessKind::Write, log, cwd.as_deref(), "script");
        }
        let file = call
            .positional
            .first()
            .cloned()
            .unwrap_or_else(|| Word::lit("typescript"));
        self.access(AccessKind::Write, &file, cwd.as_deref(), "script");
        if let Some(c) = &call.command {
            self.code_string(c, cwd.clone(), ctx);
        }
        if call.positional.len() > 1 {
            self.words(&call.positional[1..], cwd, ctx, false);
        } else if call.command.is_none() {
            self.stdin_code(inv, ctx, true);
        }
    }

    /// `parallel [OPTIONS] COMMAND ::: ARGS…`: the command once per argument (or
    /// combination of arguments), `{}` and its kin replaced, else the arguments appended;
    /// arguments read from a file or the input are unknown, as with `xargs`. Without a
    /// command, each argument is one.
    fn parallel(&mut self, inv: &Invocation, ctx: &CmdCtx) {
        for eff in self.tables(&inv.name) {
            let p = parallel_parts(&inv.args, &eff);
            self.parallel_jobs(p, inv, ctx);
        }
    }

    /// The tables a program's words are read with here (see [`Policy::effects_readings`]),
    /// an empty one when it has none.
    ///
    /// [`Policy::effects_readings`]: crate::engine::policy::Policy::effects_readings
    fn tables(&self, name: &str) -> Vec<Effects> {
        let tables = self.policy().effects_readings(name);
        if tables.is_empty() {
            return vec![Effects::default()];
        }
        tables.into_iter().cloned().collect()
    }

    /// The jobs of one reading of `parallel`'s words.
    fn parallel_jobs(&mut self, p: ParallelParts, inv: &Invocation, ctx: &CmdCtx) {
        let cwd = inv.cwd.clone();
        let known = if p.from_input {
            None
        } else {
            combinations(&p.sources)
        };
        if p.command.is_empty() {
            match known {
                Some(jobs) => {
                    for job in jobs {
                        for a in job {
                            self.code_string(&a, cwd.clone(), ctx);
                        }
                    }
                }
                None => self.facts.signal(
                    SignalName::DynamicScript,
                    "parallel runs commands read from its input",
                ),
            }
            return;
        }
        match known {
            Some(jobs) => {
                for job in jobs {
                    let code = parallel_job(&p.command, &p.replace, &job);
                    self.code_string(&code, cwd.clone(), ctx);
                }
            }
            None => {
                // Like `xargs`: words holding a replacement string are unknown, and
                // arguments may be added.
                let mut cmd = p.command.clone();
                let mut placed = false;
                for w in &mut cmd {
                    if w.text.contains('{') {
                        w.literal = false;
                        placed = true;
                    }
                }
                self.input_words(&cmd, cwd, ctx, !placed, Recursion::No);
            }
        }
    }
}

/// The value that word `i` gives one of `flags`, read with the arity of the table `eff`
/// (see [`table_flag_value`]), and how many words that takes: 2 when the value is the next
/// word.
fn value_at(args: &[Word], i: usize, flags: &[&str], eff: &Effects) -> Option<(Word, usize)> {
    let t = args.get(i)?.text.as_str();
    flags.iter().find_map(|f| {
        let v = table_flag_value(args, i, f, eff)?;
        let short = f.len() == 2 && !f.starts_with("--");
        let in_next = !eff.attached_flags.contains(f)
            && (t == *f || (short && !t.starts_with("--") && t.ends_with(&f[1..])));
        Some((v, if in_next { 2 } else { 1 }))
    })
}

/// What the words of `script` say.
struct ScriptParts {
    /// `-c CMD`.
    command: Option<Word>,
    /// The typescript file, and in BSD's form the command after it.
    positional: Vec<Word>,
    /// The logs it writes (`-I`, `-O`, `-B`, `-T`, `--log-*`, `-tFILE`), in order.
    logs: Vec<Word>,
}

/// Reads the options and words of `script ARGS` with the arity of its table `eff`:
/// `code_flags` (`-c`, `--command`) give the command, `write_flags` the logs it writes
/// (`-t[FILE]`, of `attached_flags`, only in its own word), the other `value_flags` take a
/// value.
fn script_parts(args: &[Word], eff: &Effects) -> ScriptParts {
    let command: Vec<&str> = eff.code_flags.iter().collect();
    let logs: Vec<&str> = eff.write_flags.iter().collect();
    let other: Vec<&str> = eff
        .value_flags
        .iter()
        .filter(|f| !command.contains(f) && !eff.write_flags.contains(f))
        .collect();
    let mut parts = ScriptParts {
        command: None,
        positional: Vec::new(),
        logs: Vec::new(),
    };
    let mut i = 0;
    while i < args.len() {
        let t = args[i].text.as_str();
        if !parts.positional.is_empty() && !t.starts_with('-') {
            // BSD: everything after the file is the command, options too.
            parts.positional.extend(args[i..].iter().cloned());
            break;
        }
        if let Some((v, n)) = value_at(args, i, &command, eff) {
            parts.command = Some(v);
            i += n;
            continue;
        }
        if let Some((log, n)) = value_at(args, i, &logs, eff) {
            parts.logs.push(log);
            i += n;
            continue;
        }
        if let Some((_, n)) = value_at(args, i, &other, eff) {
            i += n;
            continue;
        }
        if !t.starts_with('-') || t == "-" {
            parts.positional.push(args[i].clone());
        }
        i += 1;
    }
    parts
}

/// The shell commands that follow an escape of `escapes` in `text`, a program's own
/// command language. An escape counts where it starts a word (not after a letter, digit,
/// `_` or `-`), and one that ends in a letter only where its word ends too (`system`, not
/// `systemctl`), in any case (`SYSTEM`). What follows it is the command: up to the matching bracket when it opens
/// one (`execute(CMD)`), up to the same mark again after another mark (`execute~CMD~`),
/// all the rest after `:` (`execute:CMD`), and otherwise up to the end of the line, or of
/// the bracket the escape stands in (Tcl's `[exec CMD]`).
fn escaped_shell_commands(text: &str, escapes: &[&str]) -> Vec<String> {
    let word_char = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    // Byte for byte the text, in lower case: mysql reads `SYSTEM` as `system`.
    let lower = text.to_ascii_lowercase();
    let mut out = Vec::new();
    for e in escapes.iter().filter(|e| !e.is_empty()) {
        let e = e.to_ascii_lowercase();
        let mut from = 0;
        while let Some(p) = lower.get(from..).and_then(|t| t.find(&e)) {
            let at = from + p;
            let end = at + e.len();
            from = end;
            let before = text[..at].chars().next_back();
            if before.is_some_and(word_char) {
                continue;
            }
            let rest = &text[end..];
            let next = rest.chars().next();
            let word_escape = e.chars().next_back().is_some_and(word_char);
            if word_escape && next.is_some_and(word_char) {
                continue;
            }
            let cmd = match next {
                Some(open @ ('(' | '[' | '{' | '<')) => bracketed(&rest[1..], open),
                Some(':') if word_escape => rest[1..].to_string(),
                Some(mark) if word_escape && !mark.is_whitespace() => {
                    let inner = &rest[mark.len_utf8()..];
                    inner.split(mark).next().unwrap_or(inner).to_string()
                }
                _ => {
                    let line = rest.split('\n').next().unwrap_or(rest);
                    match before {
                        Some(open @ ('(' | '[' | '{')) => bracketed(line, open),
                        _ => line.to_string(),
                    }
                }
            };
            let cmd = cmd.trim();
            if !cmd.is_empty() {
                out.push(cmd.to_string());
            }
        }
    }
    out
}

/// The text of a command's input where it is known: a here-document, a here-string, or
/// what the stage before it in a pipeline prints (`echo TEXT |`, `printf … |`); not when
/// a redirection feeds it a file.
fn known_input(ctx: &CmdCtx) -> Option<Word> {
    let cmd = ctx.cmd;
    match &cmd.stdin {
        Some(Stdin::Heredoc { body, .. }) => Some(Word::lit(body)),
        Some(Stdin::HereString(w)) => Some(w.clone()),
        None if cmd.redirects.iter().any(|r| !r.writes()) => None,
        None => {
            let (pid, stage) = cmd.pipe?;
            let prev = stage_before(ctx.script, pid, stage)?;
            literal_output(prev).map(|t| Word::lit(&t))
        }
    }
}

/// The text up to the bracket that closes `open` (all of it when none does).
fn bracketed(text: &str, open: char) -> String {
    let close = match open {
        '(' => ')',
        '[' => ']',
        '{' => '}',
        _ => '>',
    };
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        if c == open {
            depth += 1;
        } else if c == close {
            if depth == 0 {
                return text[..i].to_string();
            }
            depth -= 1;
        }
    }
    text.to_string()
}

/// The shell command of a gdb command: `!CMD`, `shell CMD` (abbreviated too), `pipe … |
/// CMD`, `| … | CMD`.
fn gdb_shell_text(cmd: &str) -> Option<String> {
    let cmd = cmd.trim_start();
    if let Some(rest) = cmd.strip_prefix('!') {
        return Some(rest.to_string());
    }
    if let Some(rest) = cmd.strip_prefix('|') {
        return rest.split_once('|').map(|(_, c)| c.to_string());
    }
    let (first, rest) = cmd.split_once(char::is_whitespace).unwrap_or((cmd, ""));
    if first.len() >= 2 && "shell".starts_with(first) {
        return Some(rest.to_string());
    }
    if first == "pipe" {
        return rest.split_once('|').map(|(_, c)| c.to_string());
    }
    None
}

/// What `parallel`'s words say.
struct ParallelParts {
    command: Vec<Word>,
    /// The argument lists after `:::` (None for a list known only at run time: `::::
    /// FILE`, a word not known).
    sources: Vec<Option<Vec<Word>>>,
    /// Arguments come from the input or a file (`-a`).
    from_input: bool,
    replace: String,
}

/// Reads `parallel ARGS` with the arity of its table `eff`: its `replace_flags` give the
/// replace string, its `read_flags` (`-a FILE`) the arguments.
fn parallel_parts(args: &[Word], eff: &Effects) -> ParallelParts {
    let mut from_input = true;
    let mut i = 0;
    while i < args.len() {
        let t = args[i].text.as_str();
        if t == "--" {
            i += 1;
            break;
        }
        if !t.starts_with('-') || t == "-" {
            break;
        }
        if eff
            .read_flags
            .iter()
            .any(|f| t == f || flag_value(args, i, f).is_some())
        {
            from_input = false;
        }
        i += if eff.takes_value(t) { 2 } else { 1 };
    }
    let options = &args[..i.min(args.len())];
    let replace = replace_string(options, &eff.replace_flags, |f| eff.takes_value(f))
        .filter(|r| !r.is_empty())
        .unwrap_or_else(|| "{}".to_string());
    let rest = &args[i.min(args.len())..];
    let is_sep = |w: &Word| matches!(w.text.as_str(), ":::" | ":::+" | "::::" | "::::+");
    let cmd_end = rest.iter().position(is_sep).unwrap_or(rest.len());
    let mut sources: Vec<Option<Vec<Word>>> = Vec::new();
    let mut j = cmd_end;
    while j < rest.len() {
        let file_list = rest[j].text.starts_with("::::");
        let end = rest[j + 1..]
            .iter()
            .position(is_sep)
            .map_or(rest.len(), |p| j + 1 + p);
        let list = &rest[j + 1..end];
        let known = !file_list && list.iter().all(|w| w.literal);
        sources.push(known.then(|| list.to_vec()));
        j = end;
    }
    // An `-a FILE` still counts as unknown arguments.
    let from_input = sources.is_empty() || !from_input;
    ParallelParts {
        command: rest[..cmd_end].to_vec(),
        sources,
        from_input,
        replace,
    }
}

/// Every combination of one argument from each list, when all are known and few.
fn combinations(sources: &[Option<Vec<Word>>]) -> Option<Vec<Vec<Word>>> {
    let mut jobs: Vec<Vec<Word>> = vec![Vec::new()];
    for s in sources {
        let list = s.as_ref()?;
        let mut next = Vec::new();
        for job in &jobs {
            for a in list {
                let mut j = job.clone();
                j.push(a.clone());
                next.push(j);
            }
        }
        if next.len() > MAX_PARALLEL_JOBS {
            return None;
        }
        jobs = next;
    }
    Some(jobs)
}

/// The shell text `parallel` runs for one job: the command's words joined, each
/// replacement string (`{}`, `{1}`, `{.}`, `{/}`, `{//}`, `{/.}`, `{#}`, `{%}`) filled with the
/// quoted argument, or the arguments appended when there is none.
fn parallel_job(command: &[Word], replace: &str, job: &[Word]) -> Word {
    let mut text = command
        .iter()
        .map(|w| w.text.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    let literal = command.iter().all(|w| w.literal);
    let all = job
        .iter()
        .map(|w| w.text.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    let q = |s: &str| shell_quote(&[Word::lit(s)]);
    let mut placed = false;
    let mut fill = |text: &mut String, pat: &str, value: &str| {
        if text.contains(pat) {
            *text = text.replace(pat, &q(value));
            placed = true;
        }
    };
    for (n, a) in job.iter().enumerate() {
        fill(&mut text, &format!("{{{}}}", n + 1), &a.text);
    }
    let (dir, base) = all.rsplit_once('/').unwrap_or(("", all.as_str()));
    let stem = |s: &str| {
        s.rsplit_once('.')
            .map_or(s.to_string(), |(a, _)| a.to_string())
    };
    fill(&mut text, "{//}", dir);
    fill(&mut text, "{/.}", &stem(base));
    fill(&mut text, "{/}", base);
    fill(&mut text, "{.}", &stem(&all));
    fill(&mut text, "{#}", "1");
    fill(&mut text, "{%}", "1");
    fill(&mut text, replace, &all);
    if !placed {
        text.push(' ');
        text.push_str(&shell_quote(job));
    }
    Word { text, literal }
}
