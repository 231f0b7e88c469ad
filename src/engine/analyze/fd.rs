//! `fd`: its own options, and the commands of `-x`/`--exec` and `-X`/`--exec-batch`.
//!
//! fd runs each command with the paths it finds (in place of `{}` and its kin, or added at
//! the end): the command is judged on its own with those paths, as `find -exec` is. The
//! paths start with a folder searched (`./` when none is named: fd adds it when it runs a
//! command), so they are never taken for options, unless `--strip-cwd-prefix` takes the
//! `./` away or a placeholder gives a bare file name (`{/}`, `{/.}`).
//!
//! Which options run a command, name the folders searched, narrow the names found or take
//! the `./` away are fd's table's (`[commands.fd]`, the built-in one); the placeholders and
//! the `;` that ends a command are read here.

use std::path::PathBuf;

use super::find::{grammar, is_flag, is_option, take_commands};
use super::{Analyzer, CmdCtx, Invocation};
use crate::engine::args::Recursion;
use crate::engine::policy::Effects;
use crate::engine::shell::Word;

/// The word that ends the command of fd's `-x`, `-X`.
const EXEC_END: &str = ";";

/// Placeholders that stand for a found path, starting with the folder searched.
const PATH_PLACEHOLDERS: &[&str] = &["{}", "{.}", "{//}"];
/// All placeholders: `{/}` and `{/.}` are a bare file name.
const PLACEHOLDERS: &[&str] = &["{}", "{.}", "{//}", "{/}", "{/.}"];

impl Analyzer<'_> {
    /// `fd [OPTIONS] [PATTERN] [PATH…] [-x CMD…]`: fd itself, then each command it runs.
    pub(super) fn fd(&mut self, inv: Invocation, cwd: Option<PathBuf>, ctx: &CmdCtx) {
        let Some(table) = grammar(&inv.name) else {
            return self.without_grammar(inv);
        };
        let (kept, commands) = split_commands(&inv.args, table);
        let found = found_paths(&kept, table);
        let trees = finds_trees(&kept, table, &found);
        let stripped = kept.iter().any(|w| is_option(&table.bare_flags, &w.text));
        // `--base-directory DIR` runs fd, and so the commands, in DIR.
        let moved = kept.iter().any(|w| is_option(&table.folder_flags, &w.text));
        let cwd = if moved { None } else { cwd };
        // Its own words are judged by its table (`--ignore-file FILE` is read).
        self.push_with_effects(Invocation { args: kept, ..inv });
        for cmd in commands {
            let (cmd, bare) = with_found(cmd, &found);
            if bare || stripped {
                self.input_words(&cmd, cwd.clone(), ctx, true, trees);
            } else {
                self.found_words(&cmd, cwd.clone(), ctx, true, trees);
            }
        }
    }
}

/// fd's own words (with each command's program name kept, in view of fd's rules) and the
/// commands of its `exec_flags`. The value of an option is never a command's start: the
/// arity is the built-in table's, which a layer cannot change.
fn split_commands(args: &[Word], table: &Effects) -> (Vec<Word>, Vec<Vec<Word>>) {
    let (kept, commands) = take_commands(args, table, &[EXEC_END], true);
    (kept, commands.into_iter().map(|(cmd, _)| cmd).collect())
}

/// Whether the paths fd finds stand for every file in the trees of the folders in `found`
/// (no extension or glob narrows them: see [`found_paths`]), without the hidden names
/// unless an option of its `hidden_flags` is given (`fd -H`).
pub(super) fn finds_trees(kept: &[Word], table: &Effects, found: &[Word]) -> Recursion {
    if found.iter().any(|w| w.text.contains("**")) {
        Recursion::No
    } else if kept.iter().any(|w| is_flag(&table.hidden_flags, &w.text)) {
        Recursion::Tree
    } else {
        Recursion::VisibleTree
    }
}

/// What the found paths are, as words: under each folder searched (an operand after the
/// pattern, a `root_flags` value, or `.`), `**/*.EXT` for each `extension_flags` value,
/// `**/GLOB` for a pattern that `glob_flags` make a glob, or the folder itself.
pub(super) fn found_paths(kept: &[Word], table: &Effects) -> Vec<Word> {
    let mut positional: Vec<&Word> = Vec::new();
    let mut extensions: Vec<&str> = Vec::new();
    let mut roots: Vec<Word> = Vec::new();
    let mut glob = false;
    let mut i = 0;
    while i < kept.len() {
        let w = &kept[i];
        let t = w.text.as_str();
        if t == "--" {
            positional.extend(kept[i + 1..].iter());
            break;
        }
        if t.starts_with('-') && t.len() > 1 {
            glob |= table.glob_flags.contains(t);
            if table.takes_value(t) {
                if let Some(v) = kept.get(i + 1) {
                    if table.extension_flags.contains(t) {
                        extensions.push(&v.text);
                    } else if table.root_flags.contains(t) {
                        roots.push(v.clone());
                    }
                }
                i += 1;
            } else if let Some((o, v)) = t.split_once('=') {
                if table.extension_flags.contains(o) {
                    extensions.push(v);
                } else if table.root_flags.contains(o) {
                    roots.push(Word {
                        text: v.to_string(),
                        literal: w.literal,
                    });
                }
            }
        } else if !kept
            .get(i.wrapping_sub(1))
            .is_some_and(|p| is_flag(&table.exec_flags, &p.text))
        {
            positional.push(w);
        }
        i += 1;
    }
    let pattern = positional.first().map(|w| w.text.as_str());
    roots.extend(positional.iter().skip(1).map(|w| (*w).clone()));
    if roots.is_empty() {
        roots.push(Word::lit("."));
    }
    let under = |r: &Word, tail: &str| Word {
        text: format!("{}/**/{tail}", r.text.trim_end_matches('/')),
        literal: false,
    };
    roots
        .iter()
        .flat_map(|r| {
            let mut out: Vec<Word> = extensions
                .iter()
                .map(|e| under(r, &format!("*.{}", e.trim_start_matches('.'))))
                .collect();
            if out.is_empty() {
                out.push(match pattern {
                    Some(p) if glob && !p.contains('/') => under(r, p),
                    _ => r.clone(),
                });
            }
            out
        })
        .collect()
}

/// The command with its placeholders filled with the found paths (an implicit `{}` at the
/// end when it has none), and whether some placeholder gives a bare file name or sits
/// inside a word, which could then be read as an option.
fn with_found(cmd: Vec<Word>, found: &[Word]) -> (Vec<Word>, bool) {
    let mut out = Vec::with_capacity(cmd.len() + found.len());
    let mut placed = false;
    let mut bare = false;
    for (i, w) in cmd.into_iter().enumerate() {
        if i > 0 && PATH_PLACEHOLDERS.contains(&w.text.as_str()) {
            out.extend(found.iter().cloned());
            placed = true;
        } else if PLACEHOLDERS.iter().any(|p| w.text.contains(p)) {
            placed = true;
            bare = true;
            out.push(Word {
                literal: false,
                ..w
            });
        } else {
            out.push(w);
        }
    }
    if !placed {
        out.extend(found.iter().cloned());
    }
    (out, bare)
}
