//! `find`: its own options, the files it writes, and the commands of `-exec`.

use std::path::PathBuf;

use super::{Analyzer, CmdCtx, Invocation};
use crate::engine::policy::AccessKind;
use crate::engine::shell::Word;

impl Analyzer<'_> {
    pub(super) fn find(&mut self, inv: Invocation, cwd: Option<PathBuf>, ctx: &CmdCtx) {
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
}
