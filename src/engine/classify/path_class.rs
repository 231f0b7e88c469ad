//! Which classes a resolved path is in (`protected`, `sensitive`, `system`, `broad`,
//! `outside`, `runs-later`, `git-history`, `unknown`; for a container's host path, the
//! mount classes), against the policy's path lists expanded once per call; and the plain
//! names no class can hold, found without resolving them. Answers only: which rule a class
//! makes match is the judging's business.

use std::borrow::Cow;
use std::cell::{OnceCell, RefCell};
use std::collections::HashMap;
use std::path::Path;

use crate::engine::paths::{self, component_match, Places, Resolved};
use crate::engine::patterns::PatternSet;
use crate::engine::policy::{List, MountClass, PathClass};
use crate::engine::shell::Word;
use crate::engine::Context;

/// The path classes of one call: the context's lists and places, and what is worked out
/// from them once, on first use.
pub(super) struct PathClasses<'a> {
    pub(super) ctx: &'a Context<'a>,
    lists: OnceCell<ExpandedLists<'a>>,
    /// The call's folder, as given and with its symlinks followed.
    workspace: OnceCell<Vec<String>>,
    /// Whether the call's folder lies outside every tree the path lists name (see
    /// `plain_name`).
    plain_folder: OnceCell<bool>,
    /// The secret and protected patterns that name a file by its name alone (`.env`).
    name_patterns: OnceCell<Cow<'a, [&'a str]>>,
    /// Whether a folder holds a secret (see `holds_a_secret`), by folder, whether hidden
    /// names count and whether its tree is looked at.
    pub(super) trees: RefCell<HashMap<(String, bool, bool), bool>>,
}

impl<'a> PathClasses<'a> {
    pub(super) fn new(ctx: &'a Context<'a>) -> Self {
        PathClasses {
            ctx,
            lists: OnceCell::new(),
            workspace: OnceCell::new(),
            plain_folder: OnceCell::new(),
            name_patterns: OnceCell::new(),
            trees: RefCell::new(HashMap::new()),
        }
    }

    fn lists(&self) -> &ExpandedLists<'a> {
        self.lists.get_or_init(|| {
            ExpandedLists::new(
                &self.ctx.policy.paths,
                &self.ctx.policy.managed_sensitive,
                self.ctx.places,
            )
        })
    }

    /// Whether a resolved path is in a class.
    pub(super) fn in_class(&self, p: &Resolved, class: PathClass, cwd: Option<&Path>) -> bool {
        let places = self.ctx.places;
        let lists = self.lists();
        match class {
            // A glob writes every protected file it could match, whether or not it exists.
            PathClass::Protected if p.dynamic && p.forms().any(has_glob) => {
                lists.protected().matches(p)
                    || p.forms().any(|f| {
                        paths::glob_overlaps_any(
                            lists
                                .protected()
                                .expanded_where(|last| paths::last_names_overlap(last, f)),
                            f,
                        )
                    })
            }
            PathClass::Protected => lists.protected().matches(p),
            PathClass::Sensitive if p.dynamic && has_glob(&p.raw) => {
                // `cat .env?`, `cat ~/.aws/*`: could the glob name a secret? (For a write,
                // see `in_class_written`.)
                p.forms().any(|f| {
                    let skeleton = glob_skeleton(f);
                    let last = skeleton.rsplit('/').next().unwrap_or(&skeleton);
                    let mut candidates = lists
                        .sensitive()
                        .expanded_where(|name| last_names_may_agree(last, name));
                    candidates.any(|pat| {
                        if !last_names_may_agree(last, pat) {
                            return false;
                        }
                        let sample = sample_path(pat, &skeleton);
                        paths::glob_match(&skeleton, &sample)
                    })
                })
            }
            PathClass::Sensitive => self.names_a_secret(p),
            PathClass::System => lists.system().matches(p),
            // Broad against the folder the command runs in and the one the call started in
            // (`cd .. && rm -rf project` deletes the working folder too). A folder in a
            // temporary folder the command moved into (`d=$(mktemp -d); cd "$d"; …; rm -rf
            // "$d"`) is not the working folder of anything but that command.
            PathClass::Broad => {
                let system = &self.ctx.policy.paths.system;
                let moved_into_temp = |c: &Path| {
                    Some(c) != self.ctx.cwd
                        && TEMP_FOLDERS.iter().any(|t| {
                            c.to_str()
                                .and_then(|c| c.strip_prefix(t))
                                .is_some_and(|rest| rest.len() > 1 && rest.starts_with('/'))
                        })
                };
                let here = cwd.filter(|c| !moved_into_temp(c));
                paths::is_broad(p, here, &places.home, system)
                    || paths::is_broad(p, self.ctx.cwd, &places.home, system)
            }
            PathClass::Unknown => p.lexical.is_none(),
            PathClass::Outside => p.lexical.is_some() && p.forms().any(|f| !self.in_workspace(f)),
            PathClass::RunsLater => lists.runs_later().matches(p),
            PathClass::GitHistory => p.forms().any(paths::in_git_folder),
        }
    }

    /// Whether a form of the path is on the `sensitive` list and none on `not_sensitive`,
    /// or one is on the managed policy's `sensitive` list, which no later layer lifts.
    /// [`Self::in_class`] for a path the call writes. A glob there names a secret or git's
    /// history by the names its folder holds now, which the shell expands it to (`rm -rf
    /// build/*` where `build` holds no key and no `.git` writes neither). Only for a write:
    /// what an earlier part of the call puts in the folder (`git pull; cat keys/*`) is read
    /// unseen, while a write of it harms nothing the call did not bring; a read stays
    /// judged by what the glob could match.
    pub(super) fn in_class_written(&self, p: &Resolved, class: PathClass) -> bool {
        if p.dynamic && has_glob(&p.raw) {
            let secret = |path: &str| {
                let r = paths::resolve(path, true, None, self.ctx.places, self.ctx.fs);
                self.names_a_secret(&r)
            };
            let wanted: Option<&dyn Fn(&str) -> bool> = match class {
                PathClass::Sensitive => Some(&secret),
                PathClass::GitHistory => Some(&paths::in_git_folder),
                _ => None,
            };
            if let Some(wanted) = wanted {
                let found: Option<Vec<bool>> = p
                    .forms()
                    .map(|f| self.glob_matches_there(f, wanted))
                    .collect();
                if let Some(found) = found.filter(|f| !f.is_empty()) {
                    return found.into_iter().any(|x| x);
                }
            }
        }
        self.in_class(p, class, None)
    }

    /// Whether a glob whose wildcards are all in its last name (`build/*`, `dist/*.js`)
    /// matches, among the names its folder holds now, a path `wanted` holds for (a secret,
    /// git's history): the shell expands it to those. A folder that is not there holds
    /// none (the glob stays a word naming nothing of the kind). None when that cannot be
    /// known: wildcards in a folder's name, a bracket or brace, a file system the call
    /// cannot look at, a folder too large to list whole.
    fn glob_matches_there(&self, form: &str, wanted: &dyn Fn(&str) -> bool) -> Option<bool> {
        /// Folders with more names than this are judged by their glob alone.
        const MAX_NAMES: usize = 4096;
        let (parent, last) = form.rsplit_once('/')?;
        let parent = if parent.is_empty() { "/" } else { parent };
        // Only a folder named from the root is looked at: a relative one would be looked up
        // from wherever the hook runs, not where the command will.
        if !form.starts_with('/') || has_glob(parent) || last.contains(['[', ']', '{', '}']) {
            return None;
        }
        let fs = self.ctx.fs;
        let Some(names) = fs.list_dir(Path::new(parent), MAX_NAMES) else {
            // Not there, on a file system that has its ancestors: nothing to match.
            let missing = fs.canonicalize(Path::new(parent)).is_none()
                && Path::new(parent)
                    .ancestors()
                    .any(|a| fs.canonicalize(a).is_some());
            return missing.then_some(false);
        };
        if names.len() >= MAX_NAMES {
            return None;
        }
        Some(names.iter().any(|(name, _)| {
            component_match(last, name)
                && wanted(&format!("{}/{name}", parent.trim_end_matches('/')))
        }))
    }

    pub(super) fn names_a_secret(&self, p: &Resolved) -> bool {
        let lists = self.lists();
        lists.sensitive().matches(p)
            && (!lists.not_sensitive().matches(p) || lists.managed_sensitive().matches(p))
    }

    /// Whether an absolute path is the folder the call runs in (as given, or with its
    /// symlinks followed) or inside it, or inside a temporary folder.
    fn in_workspace(&self, path: &str) -> bool {
        let inside = |base: &str| path.starts_with(&format!("{}/", base.trim_end_matches('/')));
        let cwd = self.workspace.get_or_init(|| {
            self.ctx.cwd.map_or_else(Vec::new, |cwd| {
                let r = paths::resolve(
                    &cwd.to_string_lossy(),
                    true,
                    None,
                    self.ctx.places,
                    self.ctx.fs,
                );
                r.forms().map(str::to_string).collect()
            })
        });
        cwd.iter().any(|c| c == path || inside(c)) || TEMP_FOLDERS.iter().any(|t| inside(t))
    }

    /// Whether a container's host path, writable or not, is in a mount class.
    pub(super) fn in_mount_class(&self, p: &Resolved, writable: bool, class: MountClass) -> bool {
        let home = &self.ctx.places.home;
        // Expanded here, not with the other lists: only container commands ask.
        let expanded = |list: &'a List| -> Vec<Cow<'a, str>> {
            list.iter()
                .flat_map(|s| paths::expand_pattern_all(s, self.ctx.places))
                .collect()
        };
        match class {
            MountClass::Root => p.forms().any(|f| f == "/"),
            MountClass::Home => p.forms().any(|f| paths::is_home_folder(f, home)),
            MountClass::System => self.in_class(p, PathClass::System, None),
            // Docker expands no glob: a source is a secret by its forms, as written.
            MountClass::Secrets => self.names_a_secret(p),
            MountClass::EngineSocket => {
                let sockets = expanded(&self.ctx.policy.paths.engine_sockets);
                // A socket's name decides even where its folder is known only at run time
                // (`$XDG_RUNTIME_DIR/docker.sock`).
                let base = p.raw.trim_end_matches('/').rsplit('/').next().unwrap_or("");
                sockets.iter().any(|s| {
                    p.matches(s)
                        || (!s.contains('/') && component_match(s, base))
                        || p.forms().any(|f| paths::is_above_pattern(f, s))
                })
            }
            // A protected path, or a folder above one named from the root (the hook's
            // settings, state and binary; not a project's own `.git/config`, which every
            // project folder holds).
            MountClass::Protected => {
                writable
                    && (self.in_class(p, PathClass::Protected, None)
                        || expanded(&self.ctx.policy.paths.protected)
                            .iter()
                            .filter(|s| s.starts_with('/'))
                            .any(|s| p.forms().any(|f| paths::is_above_pattern(f, s))))
            }
        }
    }

    /// Whether a word is a plain name (`status`, `install`, `src`) in the call's own folder
    /// that no class can hold, found without resolving it: no `/`, `~`, glob or expansion,
    /// no name-only secret pattern (`.env`, `*.pem`, `credentials`) matches it, it is no
    /// symbolic link, and the call's folder lies in none of the trees the path lists name
    /// (no component of it starts with a dot or is `Library`, and it is not under a system
    /// folder). Most words of everyday commands are such names.
    pub(super) fn plain_name(&self, w: &Word, cwd: Option<&Path>) -> bool {
        let t = w.text.as_str();
        if !w.literal
            || t.is_empty()
            || t.contains('/')
            || t.starts_with('~')
            || t == "."
            || t == ".."
            || has_glob(t)
            || !self.plain_folder(cwd)
        {
            return false;
        }
        let name_only = self
            .name_patterns
            .get_or_init(|| self.ctx.policy.name_patterns());
        !name_only.iter().any(|p| component_match(p, t))
            && cwd.is_none_or(|c| self.ctx.fs.read_link(&c.join(t)).is_none())
    }

    /// Whether `cwd` is the call's folder, or a folder in it, and lies outside the trees
    /// the path lists name (see [`plain_folder`]).
    fn plain_folder(&self, cwd: Option<&Path>) -> bool {
        let (Some(cwd), Some(start)) = (cwd, self.ctx.cwd) else {
            return false;
        };
        cwd.starts_with(start)
            && *self.plain_folder.get_or_init(|| plain_folder(start))
            && (cwd == start || plain_folder(cwd))
    }
}

/// The policy's path lists with `~` and the place names (`{home}`, `{state}` …) filled
/// in, once per call rather than once per path judged, each on its first use (a call that
/// names no path expands none). Most patterns name no place and are borrowed from the
/// policy as they are.
struct ExpandedLists<'a> {
    source: &'a crate::engine::policy::PathLists,
    /// The managed policy's sensitive paths, which `not_sensitive` does not lift.
    managed_source: &'a List,
    places: &'a Places,
    protected: OnceCell<PatternSet<'a>>,
    sensitive: OnceCell<PatternSet<'a>>,
    not_sensitive: OnceCell<PatternSet<'a>>,
    managed_sensitive: OnceCell<PatternSet<'a>>,
    system: OnceCell<PatternSet<'a>>,
    /// Only writes are checked against it.
    runs_later: OnceCell<PatternSet<'a>>,
}

impl<'a> ExpandedLists<'a> {
    fn new(
        source: &'a crate::engine::policy::PathLists,
        managed_source: &'a List,
        places: &'a Places,
    ) -> ExpandedLists<'a> {
        ExpandedLists {
            source,
            managed_source,
            places,
            protected: OnceCell::new(),
            sensitive: OnceCell::new(),
            not_sensitive: OnceCell::new(),
            managed_sensitive: OnceCell::new(),
            system: OnceCell::new(),
            runs_later: OnceCell::new(),
        }
    }

    fn expanded<'s>(&self, cell: &'s OnceCell<PatternSet<'a>>, l: &'a List) -> &'s PatternSet<'a> {
        cell.get_or_init(|| PatternSet::of_list(l, self.places))
    }

    fn protected(&self) -> &PatternSet<'a> {
        self.expanded(&self.protected, &self.source.protected)
    }
    fn sensitive(&self) -> &PatternSet<'a> {
        self.expanded(&self.sensitive, &self.source.sensitive)
    }
    fn not_sensitive(&self) -> &PatternSet<'a> {
        self.expanded(&self.not_sensitive, &self.source.not_sensitive)
    }
    fn managed_sensitive(&self) -> &PatternSet<'a> {
        self.expanded(&self.managed_sensitive, self.managed_source)
    }
    fn system(&self) -> &PatternSet<'a> {
        self.expanded(&self.system, &self.source.system)
    }
    fn runs_later(&self) -> &PatternSet<'a> {
        self.expanded(&self.runs_later, &self.source.runs_later)
    }
}

/// Whether a folder lies outside the trees the default path lists name: no component starts
/// with a dot (`~/.ssh`, `.git`, `.claude`) or is `Library`, and it is under no system folder.
fn plain_folder(dir: &Path) -> bool {
    const SYSTEM: &[&str] = &[
        "etc", "usr", "bin", "sbin", "lib", "lib32", "lib64", "boot", "dev", "proc", "sys",
        "System", "private",
    ];
    let mut parts = dir.iter().filter_map(|c| c.to_str()).filter(|c| *c != "/");
    let first_ok = parts.clone().next().is_none_or(|f| !SYSTEM.contains(&f));
    first_ok && parts.all(|c| !c.starts_with('.') && c != "Library")
}

/// Folders outside the project where writes are still ordinary work.
const TEMP_FOLDERS: &[&str] = &["/tmp", "/var/tmp", "/private/tmp", "/private/var/tmp"];

pub(super) fn has_glob(t: &str) -> bool {
    t.contains(['*', '?', '[', '{'])
}

/// Whether the last name of a [`sample_path`] of `pattern` can match `last`, the last name
/// of a glob's skeleton: its text before the first `*` and after the last. A necessary
/// condition of the glob matching the sample (a `*` never spans a `/`), checked without
/// building the sample; a `**` in either last name decides nothing here.
fn last_names_may_agree(last: &str, pattern: &str) -> bool {
    let base = paths::last_name(pattern);
    let double_star = |s: &str| s.as_bytes().windows(2).any(|w| w == b"**");
    if double_star(last) {
        return true;
    }
    if double_star(base) {
        // The sample's last name is the pattern's with `**` as `x` and `*` left out
        // (`~/.ssh/**` gives `x`).
        return base == "**" && component_match(last, "x")
            || base != "**" && component_match(last, &base.replace("**", "x").replace('*', ""));
    }
    // Compared as bytes, which is the same as comparing the characters (`*` is one byte,
    // and no other character's encoding holds it).
    let (l, b) = (last.as_bytes(), base.as_bytes());
    let star = l.iter().position(|&c| c == b'*');
    let head = star.map_or(l, |i| &l[..i]);
    let tail = l
        .iter()
        .rposition(|&c| c == b'*')
        .map_or(l, |i| &l[i + 1..]);
    if !b.contains(&b'*') {
        // The sample's last name is the pattern's own.
        return b.starts_with(head) && b.ends_with(tail) && (star.is_some() || b == l);
    }
    // The sample's last name is the pattern's with its `*` left out.
    let mut bytes = b.iter().filter(|&&c| c != b'*');
    let starts = head.iter().all(|h| bytes.next() == Some(h));
    let mut back = b.iter().rev().filter(|&&c| c != b'*');
    let ends = tail.iter().rev().all(|t| back.next() == Some(t));
    let length = || b.iter().filter(|&&c| c != b'*').count();
    starts && ends && (star.is_some() || length() == l.len())
}

/// A shell glob as a path pattern: `?`, `[…]` and `{…}` become `*`.
fn glob_skeleton(p: &str) -> String {
    let mut out = String::with_capacity(p.len());
    let mut depth = 0usize;
    for c in p.chars() {
        match c {
            '[' | '{' => {
                if depth == 0 {
                    out.push('*');
                }
                depth += 1;
            }
            ']' | '}' if depth > 0 => depth -= 1,
            '?' if depth == 0 => out.push('*'),
            _ if depth > 0 => {}
            _ => out.push(c),
        }
    }
    out
}

/// A concrete path that a path-list pattern stands for, placed next to `near` when the
/// pattern matches at any depth: `**` and `*` become a plain name.
fn sample_path(pattern: &str, near: &str) -> String {
    let concrete = pattern
        .replace("/**", "/x")
        .replace("**/", "")
        .replace("**", "x")
        .replace('*', "");
    if concrete.starts_with('/') {
        concrete
    } else {
        let dir = near.rsplit_once('/').map(|(d, _)| d).unwrap_or("");
        format!("{dir}/{concrete}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The quick test of last names never turns away a glob that names a secret: for every
    /// pattern of the built-in `sensitive` list and globs of many shapes, whenever the
    /// skeleton matches the sample, the quick test lets it through.
    #[test]
    fn last_names_never_turn_away_a_match() {
        let policy = crate::engine::policy::Policy::builtin().expect("defaults load");
        let globs = [
            "/p/**/*.rs",
            "/p/*.env",
            "/p/.env*",
            "/p/*",
            "/p/**",
            "/h/.ssh/*",
            "/h/.ssh/id_*",
            "/h/.aws/cred*",
            "/p/src/*.pem",
            "/p/*.key",
            "/p/.e?v",
            "/p/secrets/*.json",
            "/p/a*b",
            "/h/.config/gh/*",
            "/p/*rc",
            "/p/.npm*",
            "/p/id_rsa*",
            "/p/*.p12",
            "/p/x",
            "/h/.ssh/x*",
            "/p/?",
        ];
        let mut matched = 0;
        for pat in policy.paths.sensitive.iter() {
            for g in globs {
                let skeleton = glob_skeleton(g);
                let last = skeleton.rsplit('/').next().unwrap_or(&skeleton);
                let sample = sample_path(pat, &skeleton);
                if paths::glob_match(&skeleton, &sample) {
                    matched += 1;
                    assert!(last_names_may_agree(last, pat), "{pat} under {g}");
                }
            }
        }
        assert!(matched > 20, "the globs name secrets: {matched}");
        assert!(!last_names_may_agree("*.rs", ".env"));
        assert!(last_names_may_agree("*.env", ".env"));
        assert!(last_names_may_agree("id_*", "id_rsa*"));
        assert!(!last_names_may_agree("*.rs", "~/.ssh/**"));
        assert!(last_names_may_agree("x*", "~/.ssh/**"));
    }
}
