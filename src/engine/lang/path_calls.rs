//! The shape the library calls of every language share: a function given paths reads,
//! writes or deletes them (`os.remove(p)`, `fs.rmSync(p)`, `FileUtils.rm_rf(p)`,
//! `unlink($p)`).
//!
//! Each language lists its functions of this shape as rows of a table ([`PathCall`]): the
//! names, and for each path argument what is done to it. Its reader finds the row of a
//! call ([`find`]), evaluates the arguments the row names, and pushes the effects
//! ([`effects`]); the calls that do something else stay code in the reader.

use super::{Effect, Text};

/// What a call does to a path it is given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Does {
    Read,
    Write,
    Delete,
    /// Deletes a folder with everything in it.
    DeleteTree,
    /// Is what a link the call makes points to (symbolic, or a hard link); the row's
    /// written path is the link. The call is judged as `ln` is (see [`effects`]).
    LinkTarget {
        symbolic: bool,
    },
}

impl Does {
    /// The effect of doing this to `path`.
    pub(crate) fn on(self, path: Text) -> Effect {
        match self {
            Does::Read => Effect::Read(path),
            Does::Write => Effect::Write(path),
            Does::Delete => Effect::Delete {
                path,
                recursive: false,
            },
            Does::DeleteTree => Effect::Delete {
                path,
                recursive: true,
            },
            // Alone (no link in the row), what is linked to is at least read.
            Does::LinkTarget { .. } => Effect::Read(path),
        }
    }
}

/// Which arguments of a call hold a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Arg {
    /// The argument at this position, or (where the language has them) the keyword
    /// argument of this name.
    At(usize, &'static str),
    /// Every argument from this position on, lists spread into their items (`FileUtils.rm
    /// [a, b]`); none at all stands for a path not known.
    From(usize),
}

/// One path argument of a call, and what the call does to it.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PathArg {
    pub does: Does,
    pub arg: Arg,
}

/// The path at position `at` (or keyword `keyword`) is read.
pub(crate) const fn read(at: usize, keyword: &'static str) -> PathArg {
    PathArg {
        does: Does::Read,
        arg: Arg::At(at, keyword),
    }
}

/// The path at position `at` (or keyword `keyword`) is written.
pub(crate) const fn write(at: usize, keyword: &'static str) -> PathArg {
    PathArg {
        does: Does::Write,
        arg: Arg::At(at, keyword),
    }
}

/// The path at position `at` (or keyword `keyword`) is deleted.
pub(crate) const fn delete(at: usize, keyword: &'static str) -> PathArg {
    PathArg {
        does: Does::Delete,
        arg: Arg::At(at, keyword),
    }
}

/// The folder at position `at` (or keyword `keyword`) is deleted with all it holds.
pub(crate) const fn delete_tree(at: usize, keyword: &'static str) -> PathArg {
    PathArg {
        does: Does::DeleteTree,
        arg: Arg::At(at, keyword),
    }
}

/// The path at position `at` (or keyword `keyword`) is what a symbolic link points to.
pub(crate) const fn symlink_target(at: usize, keyword: &'static str) -> PathArg {
    PathArg {
        does: Does::LinkTarget { symbolic: true },
        arg: Arg::At(at, keyword),
    }
}

/// The path at position `at` (or keyword `keyword`) is what a hard link is made to.
pub(crate) const fn hardlink_target(at: usize, keyword: &'static str) -> PathArg {
    PathArg {
        does: Does::LinkTarget { symbolic: false },
        arg: Arg::At(at, keyword),
    }
}

/// Every path from position `from` on has `does` done to it.
pub(crate) const fn each_from(from: usize, does: Does) -> PathArg {
    PathArg {
        does,
        arg: Arg::From(from),
    }
}

/// A call of two paths (`src`, `dst` by keyword) that copies the first to the second.
pub(crate) const COPY: &[PathArg] = &[read(0, "src"), write(1, "dst")];
/// A call of two paths that moves (renames) the first to the second.
pub(crate) const MOVE: &[PathArg] = &[write(0, "src"), write(1, "dst")];
/// A call of two paths that makes the second a symbolic link to the first.
pub(crate) const SYMLINK: &[PathArg] = &[symlink_target(0, "src"), write(1, "dst")];
/// A call of two paths that makes the second a hard link to the first.
pub(crate) const HARDLINK: &[PathArg] = &[hardlink_target(0, "src"), write(1, "dst")];

/// The calls of two paths that keep their POSIX names in PHP's functions and in the `fs`
/// of Node and Deno.
pub(crate) const POSIX_PAIRS: &[PathCall<&str>] = &[
    PathCall {
        names: &["rename"],
        paths: MOVE,
    },
    PathCall {
        names: &["copy"],
        paths: COPY,
    },
    PathCall {
        names: &["symlink"],
        paths: SYMLINK,
    },
    PathCall {
        names: &["link"],
        paths: HARDLINK,
    },
];

/// One row of a language's table: the names of the calls (`K` is how the language names
/// a call: a full name, or a class and a method), and what each does to its paths.
pub(crate) struct PathCall<K: 'static> {
    pub names: &'static [K],
    pub paths: &'static [PathArg],
}

/// The path arguments of the call whose name `is_call` accepts, if the table lists it.
pub(crate) fn find<K>(
    table: &'static [PathCall<K>],
    is_call: impl Fn(&K) -> bool,
) -> Option<&'static [PathArg]> {
    table
        .iter()
        .find(|row| row.names.iter().any(&is_call))
        .map(|row| row.paths)
}

/// The effects of a call on its paths: every argument the row names is evaluated first
/// (`paths_of` gives the paths it holds), in the row's order, then the effects follow in
/// the same order.
///
/// A row that makes links (a [`Does::LinkTarget`] and the link it writes) is judged as
/// `ln` is: each target with each link, `ln -s -- TARGET LINK` or `ln -- TARGET LINK`, so
/// a link to a file outside the project, a secret or a protected one is asked as `ln`'s is.
pub(crate) fn effects(row: &[PathArg], mut paths_of: impl FnMut(Arg) -> Vec<Text>) -> Vec<Effect> {
    let paths: Vec<Vec<Text>> = row.iter().map(|p| paths_of(p.arg)).collect();
    let link = row.iter().find_map(|p| match p.does {
        Does::LinkTarget { symbolic } => Some(symbolic),
        _ => None,
    });
    if let Some(symbolic) = link {
        let of = |want: fn(Does) -> bool| -> Vec<Text> {
            row.iter()
                .zip(&paths)
                .filter(|(p, _)| want(p.does))
                .flat_map(|(_, t)| t.iter().cloned())
                .collect()
        };
        let targets = of(|d| matches!(d, Does::LinkTarget { .. }));
        let links = of(|d| d == Does::Write);
        let mut out = Vec::new();
        for t in &targets {
            for l in &links {
                let mut argv = vec![Text::lit("ln")];
                if symbolic {
                    argv.push(Text::lit("-s"));
                }
                argv.extend([Text::lit("--"), t.clone(), l.clone()]);
                out.push(Effect::Exec(argv));
            }
        }
        if !out.is_empty() {
            return out;
        }
    }
    row.iter()
        .zip(paths)
        .flat_map(|(p, texts)| texts.into_iter().map(move |t| p.does.on(t)))
        .collect()
}
