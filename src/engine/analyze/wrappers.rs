//! Wrappers peeled: `sudo`, `env`, `timeout`, `nice`, `xargs` … and the command they run.

use std::path::PathBuf;

use super::{join_words, Analyzer, CmdCtx, Invocation};
use crate::engine::args::skip_options;
use crate::engine::policy::AccessKind;
use crate::engine::shell::Word;

impl Analyzer<'_> {
    /// A wrapper whose options we skip generically before the command it runs.
    pub(super) fn wrapper(
        &mut self,
        inv: Invocation,
        cwd: Option<PathBuf>,
        ctx: &CmdCtx,
        extra: bool,
    ) {
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

    pub(super) fn env_cmd(
        &mut self,
        inv: Invocation,
        mut cwd: Option<PathBuf>,
        ctx: &CmdCtx,
        extra: bool,
    ) {
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

    pub(super) fn xargs(&mut self, inv: Invocation, cwd: Option<PathBuf>, ctx: &CmdCtx) {
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
}

/// Whether a word is a variable assignment (`NAME=value`).
pub(super) fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        let mut chars = name.chars();
        chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}
