//! `git`: global options peeled, `-c` settings judged, files read from history.

use std::path::PathBuf;

use super::{Analyzer, Invocation};
use crate::engine::paths;
use crate::engine::policy::AccessKind;
use crate::engine::shell::Word;

impl Analyzer<'_> {
    /// `git [GLOBAL OPTIONS] COMMAND …`: the rules see the command; `-C DIR` moves it.
    pub(super) fn git(&mut self, mut inv: Invocation, cwd: Option<PathBuf>) {
        let args = std::mem::take(&mut inv.args);
        let (i, cwd) = self.git_global_options(&args, cwd);
        inv.args = args[i.min(args.len())..].to_vec(); // `git -C` may lack its value
        inv.cwd = cwd;
        self.history_reads(&inv);
        self.effects(&inv);
        self.push(inv);
    }

    /// Reads git's global options, judging those that change what it runs; gives where
    /// the command starts and the folder it runs in.
    fn git_global_options(
        &mut self,
        args: &[Word],
        mut cwd: Option<PathBuf>,
    ) -> (usize, Option<PathBuf>) {
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
        (i, cwd)
    }

    /// `git show REV:PATH`, `git cat-file -p REV:PATH` print a file from history.
    fn history_reads(&mut self, inv: &Invocation) {
        if !matches!(
            inv.args.first().map(|w| w.text.as_str()),
            Some("show" | "cat-file" | "grep" | "log" | "diff")
        ) {
            return;
        }
        for a in inv.args.iter().skip(1) {
            if let Some((_, path)) = a.text.split_once(':') {
                if !path.is_empty() && !a.text.starts_with('-') {
                    let w = Word {
                        text: path.to_string(),
                        literal: a.literal,
                    };
                    self.access(AccessKind::Read, &w, inv.cwd.as_deref(), "git");
                }
            }
        }
    }

    pub(super) fn git_config(&mut self, kv: &str) {
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
}
