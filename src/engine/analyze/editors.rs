//! `sed`: the files its script writes and the commands it runs.

use std::path::PathBuf;

use super::{Analyzer, CmdCtx, Invocation};
use crate::engine::args::positionals;
use crate::engine::policy::AccessKind;
use crate::engine::shell::Word;

impl Analyzer<'_> {
    /// `sed`: what its script writes and runs, and its declared effects (`sed -i`).
    pub(super) fn sed(&mut self, inv: Invocation, cwd: Option<PathBuf>, ctx: &CmdCtx) {
        self.sed_commands(&inv, cwd, ctx);
        self.effects(&inv);
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
}

/// The `w`/`W` (write a file) and `e` (run a command) commands of one line of a sed script,
/// with the rest of the line, which is their argument. A letter counts when it starts a
/// command (after an address, `;`, `{`, `}` or `!`) or ends an `s` command's flags.
pub(super) fn sed_line_commands(line: &str) -> Vec<(char, &str)> {
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
