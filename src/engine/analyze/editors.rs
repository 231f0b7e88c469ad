//! `sed`: the files its script writes and the commands it runs.

use std::path::PathBuf;

use super::{Analyzer, CmdCtx, Invocation, SignalName};
use crate::engine::args::positionals;
use crate::engine::policy::AccessKind;
use crate::engine::shell::Word;

impl Analyzer<'_> {
    /// `sed`: what its script writes and runs, and its declared effects (`sed -i`).
    pub(super) fn sed(&mut self, inv: Invocation, cwd: Option<PathBuf>, ctx: &CmdCtx) {
        self.sed_commands(&inv, cwd, ctx);
        self.push_with_effects(inv);
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
                    match kind {
                        // `e` alone, or the `e` flag of `s`: the text read is run.
                        'e' if arg.text.is_empty() => self.facts.signal(
                            SignalName::StdinCode,
                            format!("`{}` runs the text it reads as commands", inv.display),
                        ),
                        _ if arg.text.is_empty() => {}
                        'e' => self.code_string(&arg, cwd.clone(), ctx),
                        'r' => self.access(AccessKind::Read, &arg, cwd.as_deref(), "sed"),
                        _ => self.access(AccessKind::Write, &arg, cwd.as_deref(), "sed"),
                    }
                }
            }
        }
    }
}

/// The `w`/`W` (write a file), `r`/`R` (read a file) and `e` (run a command, or alone the
/// text read) commands of one line of a sed script, with the rest of the line, which is
/// their argument (empty for `e` alone). A letter counts when it starts a command (after an
/// address, `;`, `{`, `}` or `!`) or ends an `s` command's flags.
pub(super) fn sed_line_commands(line: &str) -> Vec<(char, &str)> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    for (i, &c) in b.iter().enumerate() {
        if !matches!(c, b'w' | b'W' | b'e' | b'r' | b'R') {
            continue;
        }
        let before = if i == 0 { b' ' } else { b[i - 1] };
        let starts = matches!(
            before,
            b' ' | b'\t' | b';' | b'{' | b'}' | b'!' | b'/' | b'$' | b'0'
                ..=b'9' | b'g' | b'p' | b'I' | b'i' | b'M' | b'm'
        );
        let after = b.get(i + 1).copied();
        let has_arg = matches!(after, Some(b' ' | b'\t'))
            || (matches!(c, b'w' | b'W') && after.is_some_and(|a| a == b'/'));
        let alone = c == b'e' && matches!(after, None | Some(b';' | b'}'));
        let kind = match c {
            b'e' => 'e',
            b'r' | b'R' => 'r',
            _ => 'w',
        };
        if starts && alone {
            out.push(('e', ""));
        } else if starts && has_arg {
            out.push((kind, &line[i + 1..]));
        }
    }
    out
}
