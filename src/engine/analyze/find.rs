//! `find`: its own options, the files it writes, and the commands of `-exec`.

use std::path::{Path, PathBuf};

use super::{Analyzer, CmdCtx, Invocation};
use crate::engine::policy::AccessKind;
use crate::engine::shell::Word;

impl Analyzer<'_> {
    /// `find ROOTS… EXPRESSION`: find itself, then each command of its `-exec`s.
    pub(super) fn find(&mut self, inv: Invocation, cwd: Option<PathBuf>, ctx: &CmdCtx) {
        let (kept, inner) = self.find_expression(&inv.args, cwd.as_deref());
        let found = found_files(&kept);
        self.push_with_effects(Invocation {
            args: kept.clone(),
            ..inv
        });
        for (cmd, in_found_folder) in inner {
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
            // `-execdir` runs it in each found file's folder, which is not known here.
            let at = if in_found_folder { None } else { cwd.clone() };
            self.found_words(&cmd, at, ctx, has_placeholder);
        }
    }

    /// Analyses the command of `find -exec` or `fd -x`, whose added arguments (when
    /// `added`) are paths found under the folders searched.
    pub(super) fn found_words(
        &mut self,
        cmd: &[Word],
        cwd: Option<PathBuf>,
        ctx: &CmdCtx,
        added: bool,
    ) {
        let outer = std::mem::replace(&mut self.found_paths, true);
        self.words(cmd, cwd, ctx, added);
        self.found_paths = outer;
    }

    /// Analyses a command whose added arguments come from elsewhere (`xargs`' input,
    /// `parallel`'s): they may be anything, options included.
    pub(super) fn input_words(
        &mut self,
        cmd: &[Word],
        cwd: Option<PathBuf>,
        ctx: &CmdCtx,
        added: bool,
    ) {
        let outer = std::mem::replace(&mut self.found_paths, false);
        self.words(cmd, cwd, ctx, added);
        self.found_paths = outer;
    }

    /// Takes the commands of `-exec`, `-execdir`, `-ok`, `-okdir` out of find's words (the
    /// name of the program each runs stays, in view of find's own rules: `-exec rm`), and
    /// records the files that `-fprint` and its kin write. Gives the words kept and the
    /// commands, each with whether it runs in the found file's folder (`-execdir`).
    fn find_expression(
        &mut self,
        args: &[Word],
        cwd: Option<&Path>,
    ) -> (Vec<Word>, Vec<(Vec<Word>, bool)>) {
        let mut i = 0;
        let mut kept = Vec::new();
        let mut inner: Vec<(Vec<Word>, bool)> = Vec::new();
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
                kept.extend(cmd.first().cloned());
                inner.push((cmd, matches!(t, "-execdir" | "-okdir")));
                continue;
            }
            if matches!(t, "-fprint" | "-fprint0" | "-fprintf" | "-fls") {
                if let Some(f) = args.get(i + 1) {
                    self.access(AccessKind::Write, f, cwd, t);
                }
            }
            kept.push(args[i].clone());
            i += 1;
        }
        (kept, inner)
    }
}

/// What `{}` stands for: when find names the files it looks for, a glob under each folder
/// searched (`find . -name .env -exec cat {} \;` reads `./**/.env`); otherwise the folders
/// searched themselves, as `grep -r x DIR` reads DIR (`find ~/.ssh -exec cat {} +` reads
/// `~/.ssh`).
pub(super) fn found_files(kept: &[Word]) -> Vec<Word> {
    let names: Vec<&Word> = kept
        .windows(2)
        .filter(|w| matches!(w[0].text.as_str(), "-name" | "-iname"))
        .map(|w| &w[1])
        .collect();
    // Find's own leading options (`-L`, `-D debugopts`, `-O3`) come before the folders.
    let mut start = 0;
    while let Some(w) = kept.get(start) {
        match w.text.as_str() {
            "-H" | "-L" | "-P" => start += 1,
            "-D" => start += 2,
            t if t.starts_with("-O") => start += 1,
            _ => break,
        }
    }
    let roots: Vec<&Word> = kept
        .iter()
        .skip(start)
        .take_while(|w| !w.text.starts_with('-') && w.text != "!" && w.text != "(")
        .collect();
    let roots = if roots.is_empty() {
        vec![Word::lit(".")]
    } else {
        roots.into_iter().cloned().collect()
    };
    if names.is_empty() {
        return roots;
    }
    roots
        .iter()
        .flat_map(|r| {
            names.iter().map(move |n| Word {
                text: format!("{}/**/{}", r.text.trim_end_matches('/'), n.text),
                literal: false,
            })
        })
        .collect()
}
