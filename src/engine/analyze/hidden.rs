//! Commands hidden in the arguments of a program that may run them.
//!
//! A program the policy does not know (`proot`, `flatpak-spawn --host`, `./run.sh`), and a
//! known runner (the `runners` and `remote_runners` kinds: `pkexec`, `ssh HOST`, `docker
//! exec`), may run its
//! arguments as a command: a tail of them (`proot rm -rf ~`) or one argument that holds a
//! script (`someprog -c 'rm -rf ~'`, `--exec='…'`). Each such reading is analysed apart,
//! as facts of its own ([`Hidden`]); the classifier makes the call Forbidden when one of
//! them is (`exec.hidden-forbidden`), and leaves the program's own verdict otherwise. A
//! program whose arguments the policy knows (`echo`, `grep PATTERN`, `git commit -m`) is
//! not read this way: its words stay data. A program with a table whose options run
//! commands (`gdb -ex`, `--args`) has those read by `runners`; that its table exists does
//! not make its other words data, so one that may run them in ways its table does not
//! describe (gdb: `-ex 'python …'`, the program it debugs) is one of the `runners`.

use std::path::PathBuf;

use super::{Analyzer, CmdCtx, Facts, Invocation};
use crate::engine::shell::Word;

/// How many tails and how many script arguments of one program are read.
const MAX_TAILS: usize = 32;
const MAX_SCRIPT_ARGS: usize = 16;
/// Longer arguments are not read as scripts (the parse budget bounds them too).
const MAX_SCRIPT_LEN: usize = 4096;

/// One reading of a program's arguments as a command, and what it would do.
#[derive(Debug, Clone)]
pub struct Hidden {
    /// The command as read (a tail of the arguments, or one argument's script).
    pub command: String,
    pub facts: Facts,
    /// It runs on another machine or in a container (a remote runner's command): the
    /// local files its words name are not what it touches.
    pub elsewhere: bool,
}

impl Analyzer<'_> {
    /// Whether the arguments of `inv` may be a command it runs: a program the policy does
    /// not know (no rule names it and it has no declared effects), or a known runner.
    pub(super) fn may_run_arguments(&self, inv: &Invocation) -> bool {
        if self.in_hidden || inv.args.is_empty() {
            return false;
        }
        let policy = self.policy();
        let kinds = &policy.kinds;
        if kinds
            .runners
            .iter()
            .chain(kinds.remote_runners.iter())
            .any(|r| r == inv.name)
        {
            return true;
        }
        policy.effects(&inv.name).is_none()
            && policy
                .command_rules(&inv.name)
                .all(|r| r.command.iter().all(|c| c == "*"))
    }

    /// Analyses every tail of the arguments that starts with a word a program could be
    /// named by, and every argument that holds a script, each apart.
    pub(super) fn hidden_commands(&mut self, inv: &Invocation, cwd: Option<PathBuf>, ctx: &CmdCtx) {
        let args = &inv.args;
        let extra = inv.extra_args_unknown;
        let elsewhere = self
            .policy()
            .kinds
            .remote_runners
            .iter()
            .any(|r| r == inv.name);
        let starts = args
            .iter()
            .enumerate()
            .filter(|(_, w)| w.literal && may_name_program(&w.text))
            .map(|(i, _)| i)
            .take(MAX_TAILS)
            .collect::<Vec<_>>();
        for i in starts {
            let tail = &args[i..];
            let facts = self.apart(|a| a.words(tail, cwd.clone(), ctx, extra));
            self.keep_hidden(display(tail), facts, elsewhere);
        }
        let scripts = args
            .iter()
            .filter_map(script_text)
            .take(MAX_SCRIPT_ARGS)
            .collect::<Vec<_>>();
        for text in scripts {
            let facts = self.apart(|a| a.script(&text, cwd.clone(), ctx.depth + 1));
            self.keep_hidden(text, facts, elsewhere);
        }
    }

    /// Runs `f` with facts of its own, which it returns; the budgets stay shared.
    pub(super) fn apart(&mut self, f: impl FnOnce(&mut Self)) -> Facts {
        let outer = std::mem::take(&mut self.facts);
        let was = std::mem::replace(&mut self.in_hidden, true);
        f(self);
        self.in_hidden = was;
        std::mem::replace(&mut self.facts, outer)
    }

    pub(super) fn keep_hidden(&mut self, command: String, facts: Facts, elsewhere: bool) {
        let found = !facts.invocations.is_empty()
            || !facts.accesses.is_empty()
            || !facts.signals.is_empty()
            || !facts.within.is_empty();
        if found {
            self.facts.hidden.push(Hidden {
                command,
                facts,
                elsewhere,
            });
        }
    }
}

/// Whether a word could name the program of a command: not an option, an assignment or
/// empty.
fn may_name_program(t: &str) -> bool {
    !t.is_empty() && !t.starts_with('-') && !t.starts_with('=')
}

/// The script an argument may hold: the argument, or the value of `--opt=VALUE`, when it
/// has more than one word or a shell operator. A single word is read as a tail already.
fn script_text(w: &Word) -> Option<String> {
    if !w.literal {
        return None;
    }
    let text = match w.text.split_once('=') {
        Some((opt, value)) if opt.starts_with('-') => value,
        _ => w.text.as_str(),
    };
    let scripty = text
        .trim()
        .contains(|c: char| c.is_whitespace() || ";|&<>`".contains(c))
        || text.contains("$(");
    (scripty && text.len() <= MAX_SCRIPT_LEN).then(|| text.to_string())
}

/// Words as a reader would type them: a word with blanks or shell operators in single
/// quotes.
fn display(words: &[Word]) -> String {
    let mut out = String::new();
    for w in words {
        if !out.is_empty() {
            out.push(' ');
        }
        let plain = !w.text.is_empty()
            && !w
                .text
                .contains(|c: char| c.is_whitespace() || ";|&<>()`'\"$\\".contains(c));
        if plain || !w.literal {
            out.push_str(&w.text);
        } else {
            out.push('\'');
            out.push_str(&w.text.replace('\'', "'\\''"));
            out.push('\'');
        }
    }
    out
}
