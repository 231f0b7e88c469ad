//! The declared effects of known programs: which of their words are files read and written.

use std::path::Path;

use super::{Analyzer, Invocation};
use crate::engine::args::{flag_matches, flag_value, positionals};
use crate::engine::paths;
use crate::engine::policy::{AccessKind, Effects, List, Select};
use crate::engine::shell::Word;

impl Analyzer<'_> {
    /// Declared effects: which arguments a command reads and writes.
    pub(super) fn effects(&mut self, inv: &Invocation) {
        let Some(eff) = self.policy().effects(&inv.name).cloned() else {
            return;
        };
        let positional = positionals(&inv.args, &eff.value_flags);
        let has_flag = |flags: &List| {
            inv.args
                .iter()
                .any(|a| flags.iter().any(|f| flag_matches(f, &a.text)))
        };
        let in_place = has_flag(&eff.in_place_flags);
        // `gzip -c f`, `tar -tf a.tar`: the files it would write are only read.
        let write = if has_flag(&eff.read_only_flags) && !in_place {
            AccessKind::Read
        } else {
            AccessKind::Write
        };
        if let Some(spec) = eff.reads {
            let spec = if spec == Select::AfterFirst && has_flag(&eff.pattern_flags) {
                Select::All
            } else {
                spec
            };
            for w in select(&positional, spec) {
                self.access(AccessKind::Read, w, inv.cwd.as_deref(), &inv.name);
                if in_place {
                    self.access(AccessKind::Write, w, inv.cwd.as_deref(), &inv.name);
                }
            }
        }
        if let Some(spec) = eff.writes {
            for w in select(&positional, spec) {
                self.access(write, w, inv.cwd.as_deref(), &inv.name);
            }
        }
        if eff.into_folder {
            self.landing_in_folder(inv, &eff, &positional, write);
        }
        self.flag_effects(inv, &eff, write);
    }

    /// Whether a path is on the policy's protected list.
    fn is_protected(&self, w: &Word, cwd: Option<&Path>) -> bool {
        let path = self.resolve(w, cwd);
        self.policy().paths.protected.iter().any(|pat| {
            paths::expand_pattern(pat, self.env.places).is_some_and(|p| path.matches(&p))
        })
    }

    /// `cp a b/`, `mv a ~/.ssh`, `cp -t DIR a`: what lands in the folder. Whether the
    /// target is a folder is not known, so both readings count.
    fn landing_in_folder(
        &mut self,
        inv: &Invocation,
        eff: &Effects,
        positional: &[&Word],
        write: AccessKind,
    ) {
        let cwd = inv.cwd.as_deref();
        let target_flag = inv.args.iter().enumerate().find_map(|(i, _)| {
            eff.write_flags
                .iter()
                .find_map(|f| flag_value(&inv.args, i, f))
        });
        let (folder, sources) = match (&target_flag, positional.split_last()) {
            (Some(t), _) => (Some(t), positional),
            (None, Some((last, rest))) if !rest.is_empty() => (Some(*last), rest),
            _ => (None, &positional[..0]),
        };
        let Some(folder) = folder else {
            return;
        };
        for src in sources.iter().filter(|s| s.literal) {
            let name = src.text.trim_end_matches('/');
            let name = name.rsplit('/').next().unwrap_or(name);
            if name.is_empty() || name == "." || name == ".." {
                continue;
            }
            let w = Word {
                text: format!("{}/{name}", folder.text.trim_end_matches('/')),
                literal: folder.literal,
            };
            // Only where it matters: a file landing on a protected path. Elsewhere the
            // write to the target already counts.
            if self.is_protected(&w, cwd) {
                self.access(write, &w, cwd, &inv.name);
            }
        }
    }

    /// Files named by options and keys: `-o FILE`, `--exclude-from FILE`, `of=FILE`.
    fn flag_effects(&mut self, inv: &Invocation, eff: &Effects, write: AccessKind) {
        let cwd = inv.cwd.as_deref();
        for (i, a) in inv.args.iter().enumerate() {
            for k in &eff.write_keys {
                if let Some(v) = a.text.strip_prefix(k) {
                    let w = Word {
                        text: v.to_string(),
                        literal: a.literal,
                    };
                    self.access(write, &w, cwd, &inv.name);
                }
            }
            for f in &eff.read_flags {
                if let Some(v) = flag_value(&inv.args, i, f) {
                    self.access(AccessKind::Read, &v, cwd, &inv.name);
                }
            }
            for f in &eff.write_flags {
                if let Some(v) = flag_value(&inv.args, i, f) {
                    self.access(write, &v, cwd, &inv.name);
                }
            }
        }
    }
}

pub(super) fn select<'w>(pos: &[&'w Word], spec: Select) -> Vec<&'w Word> {
    match spec {
        Select::All => pos.to_vec(),
        Select::AfterFirst => pos.iter().skip(1).copied().collect(),
        Select::AllButLast if pos.len() > 1 => pos[..pos.len() - 1].to_vec(),
        Select::Last if pos.len() > 1 => pos.last().copied().into_iter().collect(),
        Select::AllButLast | Select::Last => Vec::new(),
        Select::First => pos.first().copied().into_iter().collect(),
    }
}
