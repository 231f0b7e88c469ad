//! Whether a read of a folder's whole tree reads a secret: the folder is a home folder or
//! above a place the `sensitive` lists name, or a file or folder in its tree bears a
//! secret's name (among its first entries, breadth first). Apart from the path classes it
//! stands on: it is the one part of judging that lists folders, and it keeps its answers
//! for the call.

use std::path::Path;

use super::path_class::PathClasses;
use crate::engine::args::Recursion;
use crate::engine::paths::{self, component_match, Resolved};
use crate::engine::policy::{schema, List};

impl PathClasses<'_> {
    /// Whether a read of the tree under `p` (`recursion`, see
    /// [`crate::engine::args::reads_recursively`]) reads a secret: `p` is `/` or a folder
    /// above a path the `sensitive` lists name at a fixed place (the home folder holds
    /// `~/.ssh/**`, `/etc` holds `/etc/shadow`), or a file or folder in its tree is on them
    /// (`.env`, `deploy.pem`), among the first [`MAX_TREE_ENTRIES`] met breadth first
    /// (without the names that start with a dot when the reader leaves those out). A glob's
    /// tree starts at its last folder without one (`~/*` reads the home folder's). A path
    /// known only at run time is judged elsewhere (`secret-named`).
    pub(super) fn holds_a_secret(&self, p: &Resolved, recursion: Recursion) -> bool {
        if !recursion.is_tree() {
            return false;
        }
        let hidden = recursion == Recursion::Tree;
        let walk = recursion != Recursion::GlobInTree;
        p.forms().any(|f| {
            let root = if p.dynamic { glob_root(f) } else { f };
            let key = (root.to_string(), hidden, walk);
            if let Some(known) = self.trees.borrow().get(&key) {
                return *known;
            }
            let found = self.above_a_secret(root) || walk && self.tree_holds_a_secret(root, hidden);
            self.trees.borrow_mut().insert(key, found);
            found
        })
    }

    /// Whether the absolute folder `dir` is a home folder, a folder of home folders, or
    /// above a pattern of the `sensitive` lists that starts at a fixed place.
    fn above_a_secret(&self, dir: &str) -> bool {
        // Every user's home folder holds what `~/…` names in ours, and so do the folders
        // of home folders.
        let home = &self.ctx.places.home;
        if paths::is_home_folder(dir, home)
            || ["/home", "/Users"].contains(&dir)
            || home.parent().is_some_and(|h| Path::new(dir) == h)
        {
            return true;
        }
        // The patterns as written, `~` read in place (no list is expanded): a folder is
        // above one only if its first name after the root, or after the home folder for a
        // pattern that starts at `~`, agrees with the pattern's.
        let home = home.to_string_lossy();
        let in_home = dir
            .strip_prefix(home.trim_end_matches('/'))
            .filter(|r| r.starts_with('/'));
        let policy = self.ctx.policy;
        let lists = [&policy.paths.sensitive, &policy.managed_sensitive];
        lists.iter().flat_map(|l| l.iter()).any(|pat| {
            let (at, pat) = match pat.strip_prefix('~').or_else(|| pat.strip_prefix("{home}")) {
                Some(rest) if rest.starts_with('/') => match in_home {
                    Some(r) => (r, rest),
                    None => return false,
                },
                _ if pat.starts_with('/') => (dir, pat),
                _ if pat.starts_with('{') => {
                    return paths::expand_pattern(pat, self.ctx.places)
                        .is_some_and(|e| paths::is_above_pattern(dir, &e));
                }
                _ => return false,
            };
            let (mine, theirs) = (first_name(at), first_name(pat));
            (mine.is_empty() || theirs == "**" || component_match(theirs, mine))
                && paths::is_above_pattern(at, pat)
        })
    }

    /// Whether a file or folder in the tree under `dir` is on the `sensitive` lists (see
    /// [`Self::holds_a_secret`]). Only a pattern of a name alone can match there once the
    /// folder is above no pattern that starts at a fixed place, so each name is compared
    /// with those (a pattern relative to any folder, `config/*.key`, has each path judged
    /// in full). A symbolic link is not followed, and `.git` is not entered (git's objects
    /// and refs are named by hashes).
    fn tree_holds_a_secret(&self, dir: &str, hidden: bool) -> bool {
        // A folder that is not there, or empty, holds nothing: the lists are not read.
        let root = dir.trim_end_matches('/').to_string();
        let first = match self.ctx.fs.list_dir(Path::new(&root), MAX_TREE_ENTRIES) {
            Some(entries) if !entries.is_empty() => entries,
            _ => return false,
        };
        let policy = self.ctx.policy;
        fn names(l: &List) -> Vec<NamePattern<'_>> {
            l.iter()
                .filter(|p| schema::names_only(p) && !p.starts_with('~'))
                .map(NamePattern::new)
                .collect()
        }
        let secret = names(&policy.paths.sensitive);
        let lifted = names(&policy.paths.not_sensitive);
        let managed = names(&policy.managed_sensitive);
        let relative = policy
            .paths
            .sensitive
            .iter()
            .chain(policy.managed_sensitive.iter())
            .any(|p| p.contains('/') && !p.starts_with(['/', '~', '{']));
        let hit = |l: &[NamePattern], name: &str| l.iter().any(|p| p.matches(name));
        let mut queue = std::collections::VecDeque::from([root]);
        let mut first = Some(first);
        let mut left = MAX_TREE_ENTRIES;
        while let Some(folder) = queue.pop_front() {
            let listed = first
                .take()
                .or_else(|| self.ctx.fs.list_dir(Path::new(&folder), left));
            let Some(entries) = listed else {
                continue;
            };
            left = left.saturating_sub(entries.len());
            for (name, is_dir) in entries {
                if !hidden && name.starts_with('.') {
                    continue;
                }
                if hit(&managed, &name) || hit(&secret, &name) && !hit(&lifted, &name) {
                    return true;
                }
                let path = || format!("{folder}/{name}");
                if relative {
                    let r = Resolved {
                        lexical: Some(path()),
                        real: None,
                        raw: String::new(),
                        dynamic: false,
                    };
                    if self.names_a_secret(&r) {
                        return true;
                    }
                }
                if is_dir && name != ".git" {
                    queue.push_back(path());
                }
            }
            if left == 0 {
                break;
            }
        }
        false
    }
}

/// How many files and folders a search for a secret in a tree a command reads looks at
/// (see [`PathClasses::holds_a_secret`]): a tree larger than that is judged by its first ones.
const MAX_TREE_ENTRIES: usize = 2048;

/// A pattern of a name alone, read once: a plain name, `*.ext` and `prefix*` are compared
/// without globbing, any other as a glob.
enum NamePattern<'p> {
    Exact(&'p str),
    Ends(&'p str),
    Starts(&'p str),
    Glob(&'p str),
}

impl<'p> NamePattern<'p> {
    fn new(pattern: &'p str) -> NamePattern<'p> {
        let glob = |s: &str| s.contains(['*', '?', '[']);
        if !glob(pattern) {
            NamePattern::Exact(pattern)
        } else if let Some(end) = pattern.strip_prefix('*').filter(|e| !glob(e)) {
            NamePattern::Ends(end)
        } else if let Some(start) = pattern.strip_suffix('*').filter(|s| !glob(s)) {
            NamePattern::Starts(start)
        } else {
            NamePattern::Glob(pattern)
        }
    }

    fn matches(&self, name: &str) -> bool {
        match self {
            NamePattern::Exact(p) => *p == name,
            NamePattern::Ends(e) => name.ends_with(e),
            NamePattern::Starts(s) => name.starts_with(s),
            NamePattern::Glob(g) => component_match(g, name),
        }
    }
}

/// The first name of an absolute path (`/etc/shadow` → `etc`); empty for `/`.
fn first_name(p: &str) -> &str {
    p.trim_start_matches('/').split('/').next().unwrap_or("")
}

/// The folder a glob's tree starts at: its last folder before a name with a glob
/// (`/home/user/*` → `/home/user`, `/a/*/b` → `/a`).
fn glob_root(p: &str) -> &str {
    let mut end = 0;
    for (i, c) in p.char_indices() {
        if c == '/' {
            end = i;
        } else if matches!(c, '*' | '?' | '[') {
            return if end == 0 { "/" } else { &p[..end] };
        }
    }
    p
}
