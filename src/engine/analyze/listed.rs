//! What `xargs` reads: the words its input gives the command it runs.
//!
//! The input of `PRODUCER | xargs CMD` becomes arguments of CMD, so they are judged as CMD's
//! arguments: the names a file lister prints (`find`, `fd`, `git ls-files`, `rg --files`)
//! as the words that stand for them (a folder searched, or a glob under it, as `find -exec`
//! fills `{}`), text known exactly (`echo a b | xargs …`) as its words, and anything else as
//! one word known only at run time (which may name any file, a secret too).
//!
//! A name is surely one whole argument, never taken for an option, only when the names are
//! separated by NUL bytes on both sides (`find ROOT … -print0 | xargs -0`) and each starts
//! with a folder searched. With blank or line separation a name holding a blank or a line
//! break (`a --write b.rs`) gives xargs several words, and `git ls-files`, `fd` and `rg`
//! print names as they are (a tracked file may be called `--write`).
//!
//! Which options keep a lister's output plain names, or make it print more, are the
//! listers' built-in tables' (`not_listing_flags`, `exec_flags` and `write_flags` of find
//! and fd, `listing_flags` of `git ls-files`, `lister_flags` of rg), as are those that name
//! the files (`found_name_flags`, `extension_flags`) and `-print0` (`null_flags`).

use super::find::{finds_trees, found_files, grammar, is_flag, is_option, leading_options};
use super::flow::{literal_output, stage_before};
use super::program_name;
use crate::engine::args::Recursion;
use crate::engine::policy::Effects;
use crate::engine::shell::{Script, SimpleCommand, Stdin, Word};

/// The words xargs adds to its command.
pub(super) struct Input {
    /// What the added words may be.
    pub words: Vec<Word>,
    /// Every added word is one whole name starting with a folder searched: never an option.
    pub never_options: bool,
    /// The words are the input itself, known exactly (`echo a b | xargs …`): none is added
    /// at run time.
    pub exact: bool,
    /// The names are those of every file in the trees of the folders in `words` (`find ~
    /// -type f`): the command they are given reads those trees.
    pub trees: Recursion,
}

impl Input {
    /// The call's own input, which Claude Code leaves empty: the command runs once with
    /// no word added (GNU xargs; others not at all). It names nothing, but is not taken
    /// as known: a verdict that words added at run time could make Forbidden stays asked
    /// (`xargs rm -rf`).
    fn none() -> Input {
        Input {
            words: Vec::new(),
            never_options: true,
            exact: false,
            trees: Recursion::No,
        }
    }

    /// Input nothing is known of: one word known only at run time.
    fn unknown() -> Input {
        Input {
            words: vec![Word {
                text: "$(…)".into(),
                literal: false,
            }],
            never_options: false,
            exact: false,
            trees: Recursion::No,
        }
    }
}

/// How xargs splits its input, from its options.
pub(super) struct Split {
    /// `-0`, `--null`: at NUL bytes only.
    pub nul: bool,
    /// `-d`, `--delimiter`, `-I`, `-L` and their kin: not at blanks alone.
    pub other: bool,
    /// `-a FILE`, `--arg-file`: the input is a file, not standard input.
    pub from_file: bool,
}

/// What xargs, run by simple command `cmd` of `script`, gives its command; `top`: the
/// script is the call's own, not one nested in a string or a file.
pub(super) fn input(script: &Script, cmd: &SimpleCommand, split: &Split, top: bool) -> Input {
    if split.from_file {
        return Input::unknown();
    }
    if cmd.redirects.iter().any(|r| r.op.contains('<')) {
        return Input::unknown();
    }
    let text = match &cmd.stdin {
        Some(Stdin::Heredoc { body, expanding }) if !expanding || !body.contains(['$', '`']) => {
            Some(body.clone())
        }
        Some(Stdin::HereString(w)) if w.literal => Some(w.text.clone()),
        Some(_) => return Input::unknown(),
        None => None,
    };
    let producer = match (text, cmd.pipe) {
        (Some(t), _) => return known_text(&t, split),
        (None, Some((p, s))) => match stage_before(script, p, s) {
            Some(c) => c,
            None if reads_call_input(script, cmd, top) => return Input::none(),
            None => return Input::unknown(),
        },
        (None, None) if reads_call_input(script, cmd, top) => return Input::none(),
        (None, None) => return Input::unknown(),
    };
    if let Some(t) = literal_output(producer) {
        return known_text(&t, split);
    }
    lister(producer, split).unwrap_or_else(Input::unknown)
}

/// Whether command `cmd` of `script` reads the input of the call itself, which Claude
/// Code leaves empty: the script is the call's own (not a string a shell, `ssh` or
/// `watch` runs, whose input may be anything), and nothing else feeds the command: no
/// pipeline around it but its first stage at the top, no redirection of its input (a
/// descriptor copied onto it, `0>&3`, is not told apart), no compound statement around it
/// with redirections, no function body (called with any input), no substitution (which
/// reads the input of the command it sits in), and no `exec` (which may redirect the rest
/// of the script's input), `coproc` (whose input the script writes), `eval` or `source` in
/// the script.
fn reads_call_input(script: &Script, cmd: &SimpleCommand, top: bool) -> bool {
    let first_stage_at_top = match cmd.pipe {
        None => true,
        Some((p, s)) => s == 0 && script.pipeline_parent.get(p).is_some_and(Option::is_none),
    };
    let feeds_later = |c: &SimpleCommand| {
        c.words
            .iter()
            .map(|w| w.text.as_str())
            .find(|t| !matches!(*t, "command" | "builtin"))
            .is_some_and(|t| matches!(t, "exec" | "coproc"))
    };
    top && first_stage_at_top
        && cmd.stdin.is_none()
        && cmd.redirects.iter().all(|r| r.writes() && !r.is_fd_dup())
        && !cmd.enclosed_input
        && cmd.function.is_none()
        && cmd.substituted_into.is_none()
        && !script.hidden_code
        && !script.commands.iter().any(feeds_later)
}

/// Text xargs reads as it is known: split at blanks as xargs splits it, when it holds no
/// quote or backslash (which xargs reads itself) and is split in the default way.
fn known_text(text: &str, split: &Split) -> Input {
    if split.nul || split.other || text.contains(['\'', '"', '\\']) {
        return Input::unknown();
    }
    let words: Vec<Word> = text.split_whitespace().map(Word::lit).collect();
    Input {
        words,
        never_options: false,
        exact: true,
        trees: Recursion::No,
    }
}

/// The names a file lister prints, when `c` is one whose output is only names.
fn lister(c: &SimpleCommand, split: &Split) -> Option<Input> {
    let first = c.words.first().filter(|w| w.literal)?;
    let (name, trusted) = program_name(&first.text);
    if !trusted || !c.assignments.is_empty() {
        return None;
    }
    let args = &c.words[1..];
    match name.as_str() {
        "find" => find(args, grammar("find")?, split),
        "fd" | "fdfind" => fd(args, grammar(&name)?),
        "git" => git_ls_files(args, grammar("git ls-files")?),
        "rg" => rg_files(args, grammar("rg")?),
        _ => None,
    }
}

/// Whether word `t` makes a lister with table `table` print more than names or do more
/// than list: one of its `not_listing_flags`, `exec_flags` or `write_flags`.
fn not_listing(table: &Effects, t: &str) -> bool {
    [
        &table.not_listing_flags,
        &table.exec_flags,
        &table.write_flags,
    ]
    .iter()
    .any(|l| is_option(l, t))
}

/// `find ROOTS… TESTS`, printing names only (no action but `-print` or `-print0`).
fn find(args: &[Word], table: &Effects, split: &Split) -> Option<Input> {
    if args.iter().any(|a| not_listing(table, &a.text)) {
        return None;
    }
    let words = found_files(args, table);
    let print0 = args.iter().any(|a| is_flag(&table.null_flags, &a.text));
    // The roots are words up to the first test; a root known only at run time may start
    // with `-`.
    let roots_plain = words.iter().all(|w| !w.text.starts_with('-'))
        && args
            .iter()
            .skip(leading_options(args, table))
            .take_while(|a| !a.text.starts_with('-') && a.text != "!" && a.text != "(")
            .all(|a| a.literal);
    Some(Input {
        never_options: split.nul && print0 && roots_plain,
        trees: finds_trees(args, table),
        words,
        exact: false,
    })
}

/// `fd [PATTERN] [PATH…]` without a command of its own: the names it prints.
fn fd(args: &[Word], table: &Effects) -> Option<Input> {
    if args.iter().any(|a| not_listing(table, &a.text)) {
        return None;
    }
    let words = super::fd::found_paths(args, table);
    Some(Input {
        trees: super::fd::finds_trees(args, table, &words),
        words,
        never_options: false,
        exact: false,
    })
}

/// `git ls-files [OPTIONS] [--] [PATHSPEC…]`, with options that print only names (its
/// table's `listing_flags`): under each pathspec (a glob under the working folder for one
/// with wildcards), or the working folder.
fn git_ls_files(args: &[Word], table: &Effects) -> Option<Input> {
    if args.first().map(|w| w.text.as_str()) != Some("ls-files") {
        return None;
    }
    let mut pathspecs: Vec<&Word> = Vec::new();
    let mut i = 1;
    let mut options = true;
    while let Some(a) = args.get(i) {
        let t = a.text.as_str();
        if options && t == "--" {
            options = false;
        } else if options && t.starts_with('-') {
            let (opt, _) = t.split_once('=').unwrap_or((t, ""));
            if !table.listing_flags.contains(opt) {
                return None;
            }
            if opt == t && table.takes_value(t) {
                i += 1;
            }
        } else {
            pathspecs.push(a);
        }
        i += 1;
    }
    let mut words = Vec::new();
    for p in pathspecs {
        // Pathspec magic (`:(glob)…`, `:!x`) says more than a glob.
        if p.text.starts_with(':') {
            return None;
        }
        words.push(if p.text.contains(['*', '?', '[']) {
            // A wildcard matches `/` too: `*.rs` is any `.rs` file below.
            let (dir, base) = p.text.rsplit_once('/').unwrap_or((".", &p.text));
            Word {
                text: format!("{}/**/{base}", dir.trim_end_matches('/')),
                literal: false,
            }
        } else {
            p.clone()
        });
    }
    if words.is_empty() {
        words.push(Word::lit("."));
    }
    // Only the files git tracks: a folder's tree is not read.
    Some(Input {
        words,
        never_options: false,
        exact: false,
        trees: Recursion::No,
    })
}

/// `rg --files [PATH…]` (its table's `lister_flags`): the names of the files it would
/// search, under each path (a `found_name_flags` glob, `-g GLOB`, narrows them), or the
/// working folder.
fn rg_files(args: &[Word], table: &Effects) -> Option<Input> {
    if !args.iter().any(|a| table.lister_flags.contains(&a.text)) {
        return None;
    }
    let mut roots: Vec<Word> = Vec::new();
    let mut globs: Vec<String> = Vec::new();
    let mut i = 0;
    while let Some(a) = args.get(i) {
        let t = a.text.as_str();
        if table.found_name_flags.contains(t) {
            globs.extend(args.get(i + 1).map(|g| g.text.clone()));
            i += 1;
        } else if let Some(g) = t
            .split_once('=')
            .filter(|(o, _)| o.starts_with("--") && table.found_name_flags.contains(o))
            .map(|(_, g)| g)
        {
            globs.push(g.to_string());
        } else if !t.starts_with('-') {
            // A value of an option not read here counts as a root too: more roots, never
            // fewer.
            roots.push(a.clone());
        }
        i += 1;
    }
    if roots.is_empty() {
        roots.push(Word::lit("."));
    }
    // Only plain globs narrow the names (`!x` excludes, `a/b` is anchored).
    let narrowing: Vec<&String> = globs
        .iter()
        .filter(|g| !g.starts_with('!') && !g.contains('/'))
        .collect();
    let words = if narrowing.is_empty() || narrowing.len() != globs.len() {
        roots
    } else {
        roots
            .iter()
            .flat_map(|r| {
                narrowing.iter().map(move |g| Word {
                    text: format!("{}/**/{g}", r.text.trim_end_matches('/')),
                    literal: false,
                })
            })
            .collect()
    };
    let trees = if words.iter().any(|w| w.text.contains("**")) {
        Recursion::No
    } else if args.iter().any(|a| is_flag(&table.hidden_flags, &a.text)) {
        Recursion::Tree
    } else {
        Recursion::VisibleTree
    };
    Some(Input {
        words,
        never_options: false,
        exact: false,
        trees,
    })
}
