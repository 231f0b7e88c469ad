//! `find`: its own options, and the commands of `-exec` and its kin.
//!
//! Which options come before the folders searched, which start a command, which write a
//! file and which name the files found are find's table's (`[commands.find]` in
//! `policy/17-options-clis.toml`, the built-in one: a layer cannot make a command's words
//! find's own); where a command ends (`;` or `+`) and what `{}` stands for are read here.

use std::path::PathBuf;

use super::SignalName;
use super::{Analyzer, CmdCtx, Invocation};
use crate::engine::args::Recursion;
use crate::engine::policy::{AccessKind, Effects, List, Policy};
use crate::engine::shell::Word;

/// The words that end the command of `find -exec`: `;` runs it once per file, `+` once
/// with many.
const EXEC_ENDS: &[&str] = &[";", "+"];

/// The built-in table of a program whose grammar an analyser reads, when it has one.
pub(super) fn grammar(name: &str) -> Option<&'static Effects> {
    Policy::builtin_effects(name)
}

/// Whether word `t` is one of the options of `list`, alone or, a long one, with its value
/// after `=` (`--format=FMT`).
pub(super) fn is_option(list: &List, t: &str) -> bool {
    t.starts_with('-')
        && (list.contains(t)
            || t.split_once('=')
                .is_some_and(|(o, _)| o.starts_with("--") && list.contains(o)))
}

/// Whether word `t` is one of the options of `list`, alone: a word that does not start
/// with `-` is turned away before the list is searched.
pub(super) fn is_flag(list: &List, t: &str) -> bool {
    t.starts_with('-') && list.contains(t)
}

impl Analyzer<'_> {
    /// A finder (`find`, `fd`) whose built-in table lacks its grammar: where a command of
    /// it begins is not known, so it may run one.
    pub(super) fn without_grammar(&mut self, inv: Invocation) {
        self.facts.signal(
            SignalName::OptionRuns,
            format!("`{}` may run a command", inv.name),
        );
        self.push_with_effects(inv);
    }

    /// `find ROOTS… EXPRESSION`: find itself, then each command of its `-exec`s.
    pub(super) fn find(&mut self, inv: Invocation, cwd: Option<PathBuf>, ctx: &CmdCtx) {
        let Some(table) = grammar(&inv.name) else {
            return self.without_grammar(inv);
        };
        let (kept, inner) = find_expression(&inv.args, table);
        let found = found_files(&kept, table);
        let trees = finds_trees(&kept, table);
        // A layer's table of find replaces the built-in one: the files the built-in one
        // says find writes (`-fprint FILE`) are written whatever the layer's says.
        let layered = self
            .policy()
            .effects(&inv.name)
            .is_some_and(|e| !std::ptr::eq(e, table));
        if layered {
            for (i, w) in kept.iter().enumerate() {
                if let Some(f) = kept
                    .get(i + 1)
                    .filter(|_| table.write_flags.contains(&w.text))
                {
                    self.access(AccessKind::Write, f, cwd.as_deref(), &inv.name);
                }
            }
        }
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
            let trees = if has_placeholder {
                trees
            } else {
                Recursion::No
            };
            self.found_words(&cmd, at, ctx, has_placeholder, trees);
        }
    }

    /// Analyses the command of `find -exec` or `fd -x`, whose added arguments (when
    /// `added`) are paths found under the folders searched.
    /// `trees`: the found paths stand for every file in the trees of folders (see
    /// [`finds_trees`]), so what the command reads there it reads of the whole tree.
    pub(super) fn found_words(
        &mut self,
        cmd: &[Word],
        cwd: Option<PathBuf>,
        ctx: &CmdCtx,
        added: bool,
        trees: Recursion,
    ) {
        let outer = std::mem::replace(&mut self.found_paths, true);
        let outer_trees = std::mem::replace(&mut self.found_trees, trees);
        self.words(cmd, cwd, ctx, added);
        self.found_paths = outer;
        self.found_trees = outer_trees;
    }

    /// Analyses a command whose added arguments come from elsewhere (`xargs`' input,
    /// `parallel`'s): they may be anything, options included.
    pub(super) fn input_words(
        &mut self,
        cmd: &[Word],
        cwd: Option<PathBuf>,
        ctx: &CmdCtx,
        added: bool,
        trees: Recursion,
    ) {
        let outer = std::mem::replace(&mut self.found_paths, false);
        let outer_trees = std::mem::replace(&mut self.found_trees, trees);
        self.words(cmd, cwd, ctx, added);
        self.found_paths = outer;
        self.found_trees = outer_trees;
    }
}

/// Takes the commands of find's `exec_flags` (`-exec`, `-execdir`, `-ok`, `-okdir`) out of
/// its words (the name of the program each runs stays, in view of find's own rules: `-exec
/// rm`). Gives the words kept and the commands, each with whether it runs in the found
/// file's folder (`exec_dir_flags`: `-execdir`).
fn find_expression(args: &[Word], table: &Effects) -> (Vec<Word>, Vec<(Vec<Word>, bool)>) {
    take_commands(args, table, EXEC_ENDS, false)
}

/// Takes the commands of a finder's `exec_flags` out of its words, each up to one of `ends`
/// (or the end): the words kept (the program name of each command stays, in view of the
/// finder's own rules) and the commands, each with whether it runs in the found file's
/// folder (`exec_dir_flags`). With `values`, the value of an option that takes one (as the
/// table says) is kept as a word, never read as a command's start (fd's options).
pub(super) fn take_commands(
    args: &[Word],
    table: &Effects,
    ends: &[&str],
    values: bool,
) -> (Vec<Word>, Vec<(Vec<Word>, bool)>) {
    let mut i = 0;
    let mut kept = Vec::new();
    let mut inner: Vec<(Vec<Word>, bool)> = Vec::new();
    while i < args.len() {
        let t = args[i].text.as_str();
        if is_flag(&table.exec_flags, t) {
            kept.push(args[i].clone());
            let mut cmd = Vec::new();
            i += 1;
            while i < args.len() && !ends.contains(&args[i].text.as_str()) {
                cmd.push(args[i].clone());
                i += 1;
            }
            i += 1;
            kept.extend(cmd.first().cloned());
            inner.push((cmd, table.exec_dir_flags.contains(t)));
            continue;
        }
        kept.push(args[i].clone());
        if values && table.takes_value(t) {
            if let Some(v) = args.get(i + 1) {
                kept.push(v.clone());
            }
            i += 1;
        }
        i += 1;
    }
    (kept, inner)
}

/// Whether the files find finds are every file in the trees of the folders it searches:
/// it names no files it looks for (`found_name_flags`), so `{}` stands for the folders
/// (see [`found_files`]), whose trees the command given them reads (`find ~ -type f
/// -exec cat {} +`).
pub(super) fn finds_trees(kept: &[Word], table: &Effects) -> Recursion {
    let named = kept
        .iter()
        .any(|w| is_flag(&table.found_name_flags, &w.text));
    if named {
        Recursion::No
    } else {
        Recursion::Tree
    }
}

/// What `{}` stands for: when find names the files it looks for (`found_name_flags`:
/// `-name`), a glob under each folder searched (`find . -name .env -exec cat {} \;` reads
/// `./**/.env`); otherwise the folders searched themselves, as `grep -r x DIR` reads DIR
/// (`find ~/.ssh -exec cat {} +` reads `~/.ssh`).
pub(super) fn found_files(kept: &[Word], table: &Effects) -> Vec<Word> {
    let names: Vec<&Word> = kept
        .windows(2)
        .filter(|w| is_flag(&table.found_name_flags, &w[0].text))
        .map(|w| &w[1])
        .collect();
    let roots: Vec<&Word> = kept
        .iter()
        .skip(leading_options(kept, table))
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

/// How many of the words are find's own leading options and their values (`-L`, `-D
/// DEBUGOPTS`, `-O3`), which come before the folders searched: one of `attached_flags`
/// takes its value only in its own word.
pub(super) fn leading_options(args: &[Word], table: &Effects) -> usize {
    let mut start = 0;
    while let Some(w) = args.get(start) {
        let t = w.text.as_str();
        if !t.starts_with('-') {
            break;
        }
        let attached = table
            .attached_flags
            .iter()
            .any(|f| table.leading_flags.contains(f) && t.starts_with(f));
        if attached {
            start += 1;
        } else if table.leading_flags.contains(t) {
            start += if table.takes_value(t) { 2 } else { 1 };
        } else {
            break;
        }
    }
    start
}

#[cfg(test)]
mod tests {
    use super::grammar;

    /// The readers of find, fd and the listers fall back to asking when a program has no
    /// built-in table; the built-in policy gives each one its grammar, and fd's two names
    /// one grammar.
    #[test]
    fn the_finders_and_listers_have_their_grammar() {
        for name in ["find", "fd", "fdfind"] {
            let t = grammar(name).expect("a built-in table");
            assert!(t
                .exec_flags
                .contains(if name == "find" { "-exec" } else { "-x" }));
            assert!(!t.not_listing_flags.is_empty(), "{name}");
        }
        let find = grammar("find").expect("find's table");
        assert!(find.leading_flags.contains("-L") && find.write_flags.contains("-fprint"));
        assert!(grammar("rg").is_some_and(|t| t.lister_flags.contains("--files")));
        assert!(grammar("git ls-files").is_some_and(|t| t.listing_flags.contains("-z")));
        let json = |n: &str| serde_json::to_value(grammar(n)).expect("a table as JSON");
        assert_eq!(json("fd"), json("fdfind"));
    }
}
