//! The classes a resolved path is in by its shape alone, without a list: broad (`/`, the
//! home folder or the working folder, one above them, a system folder, or all they hold),
//! a home folder, in git's history (`.git`, a bare repository's refs). The policy's lists
//! decide the other classes; these are what no list can say.

use std::path::Path;

use super::glob::component_match;
use super::resolve::{has_unknown_expansion, normalize, Resolved};

/// Whether `path` is `/`, the home folder or one of its ancestors, the working directory
/// or one of its ancestors, a listed system folder, or a top-level folder; or the contents
/// (`/*`) of any of these.
pub fn is_broad(
    r: &Resolved,
    cwd: Option<&Path>,
    home: &Path,
    system: &crate::engine::policy::List,
) -> bool {
    if r.lexical.is_none() {
        // Relative to a working folder that is not known: `.`, `..` or `*` there could be
        // anything, so they count as broad.
        if cwd.is_none() && !has_unknown_expansion(&r.raw, false) && !r.raw.starts_with('/') {
            let at = normalize(&Path::new("/unknown-cwd/x").join(&r.raw));
            let at = strip_contents_glob(&at);
            return !at.starts_with("/unknown-cwd/x/");
        }
        return dynamic_is_broad(&r.raw);
    }
    r.forms().any(|p| {
        let p = strip_contents_glob(p);
        if p == "/" || p.matches('/').count() <= 1 {
            return true;
        }
        if is_home_folder(p, home) {
            return true;
        }
        if let Some(c) = cwd {
            if is_ancestor_or_same(p, c) {
                return true;
            }
        }
        system.iter().any(|s| s == p)
    })
}

/// Whether the absolute, folded path `p` is a repository's `.git` folder or in it: some
/// name of it is `.git`, or a glob that may be (`.gi?`); or it is the history of a bare
/// repository (`repo.git/refs`, `repo.git/packed-refs`).
pub fn in_git_folder(p: &str) -> bool {
    const HISTORY: &[&str] = &[
        "refs",
        "objects",
        "packed-refs",
        "logs",
        "HEAD",
        "reftable",
        "shallow",
    ];
    let names: Vec<&str> = p.split('/').collect();
    names.iter().enumerate().any(|(i, name)| {
        *name == ".git"
            || (name.contains(['*', '?', '[']) && component_match(name, ".git"))
            || (name.ends_with(".git") && names.get(i + 1).is_some_and(|n| HISTORY.contains(n)))
    })
}

/// Whether the absolute, folded path `p` is `base` or one of its ancestors.
fn is_ancestor_or_same(p: &str, base: &Path) -> bool {
    let b = normalize(base);
    p == "/" || b == p || b.starts_with(&format!("{p}/"))
}

/// Whether the absolute, folded path `p` is the home folder `home` or one of its
/// ancestors, or a user's home folder: next to ours, or in the usual places (`/home/NAME`,
/// `/Users/NAME`).
pub fn is_home_folder(p: &str, home: &Path) -> bool {
    if is_ancestor_or_same(p, home) {
        return true;
    }
    let parent = Path::new(p).parent();
    let homes = [
        home.parent(),
        Some(Path::new("/home")),
        Some(Path::new("/Users")),
    ];
    homes
        .iter()
        .flatten()
        .any(|h| *h != Path::new("/") && parent == Some(*h))
}

/// `X/*`, `X/.*`, `X/*.*` stand for everything in X.
fn strip_contents_glob(p: &str) -> &str {
    for suffix in ["/*", "/.*", "/*.*", "/.[!.]*", "/**"] {
        if let Some(base) = p.strip_suffix(suffix) {
            return if base.is_empty() { "/" } else { base };
        }
    }
    if p == "/*" {
        return "/";
    }
    p
}

/// `$X/`, `"$X"/*`: an empty or unset variable turns these into `/` or `/*`. A variable
/// alone (`"$X"`) is a path known only at run time, not a broad one: empty, it names
/// nothing (`rm -rf ""` deletes nothing); so is `${X:?}/`, which stops the shell when `X`
/// is empty or unset.
fn dynamic_is_broad(raw: &str) -> bool {
    let t = raw.trim_matches('"');
    if !t.starts_with('$') {
        return false;
    }
    let var_end = if t.starts_with("${") {
        t.find('}').map(|i| i + 1).unwrap_or(t.len())
    } else {
        1 + t[1..]
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(t.len() - 1)
    };
    let never_empty = t[..var_end].contains(":?");
    let rest = t[var_end..].trim_start_matches('"');
    !never_empty && matches!(rest, "/" | "/*" | "/.*" | "/**")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::paths::fs::NoFs;
    use crate::engine::paths::places::test_places;
    use crate::engine::paths::resolve::resolve;

    #[test]
    fn home_folders() {
        let home = Path::new("/var/home/u");
        let cases: &[(&str, bool)] = &[
            ("/var/home/u", true),
            ("/var/home", true),
            ("/var", true),
            ("/", true),
            ("/var/home/bob", true),
            ("/home/bob", true),
            ("/Users/bob", true),
            ("/var/home/u/project", false),
            ("/var/home/u/.ssh", false),
            ("/var/lib", false),
            ("/home/bob/p", false),
        ];
        for (p, want) in cases {
            assert_eq!(is_home_folder(p, home), *want, "{p}");
        }
    }

    #[test]
    fn broad_without_a_working_folder() {
        let system = crate::engine::policy::List::default();
        let cases: &[(&str, bool)] = &[
            (".", true),
            ("..", true),
            ("*", true),
            ("./", true),
            ("build", false),
            ("a/b", false),
        ];
        for (raw, want) in cases {
            let r = resolve(raw, !raw.contains('*'), None, &test_places(), &NoFs);
            assert_eq!(
                is_broad(&r, None, Path::new("/home/u"), &system),
                *want,
                "{raw}"
            );
        }
    }

    #[test]
    fn git_folders() {
        for (p, want) in [
            ("/h/p/.git", true),
            ("/h/p/.git/refs/heads/main", true),
            ("/h/p/sub/.git/packed-refs", true),
            ("/h/p/.gi?/objects", true),
            ("/h/p/.g*", true),
            ("/h/p/.gitignore", false),
            ("/h/p/.github/workflows/ci.yml", false),
            ("/h/p/x.git/refs/heads/main", true),
            ("/h/p/x.git/packed-refs", true),
            ("/h/p/x.git/README", false),
            ("/h/p/x.git", false),
        ] {
            assert_eq!(in_git_folder(p), want, "{p}");
        }
    }

    #[test]
    fn broad_paths() {
        let cwd = Path::new("/home/u/p");
        let system: crate::engine::policy::List = ["/usr", "/usr/lib"].into_iter().collect();
        let cases: &[(&str, bool, bool)] = &[
            ("/", true, true),
            ("/*", false, true),
            ("~", true, true),
            ("~/", true, true),
            ("~/*", false, true),
            (".", true, true),
            ("*", false, true),
            ("..", true, true),
            ("/home", true, true),
            ("/home/bob", true, true),
            ("~bob", true, true),
            ("/home/bob/p", true, false),
            ("/usr/lib", true, true),
            ("/usr/lib/x", true, false),
            ("build", true, false),
            ("./target", true, false),
            ("~/p/build", true, false),
            ("$HOME", false, true),
            ("$X", false, false),
            ("\"$X\"", false, false),
            ("$X/", false, true),
            ("\"$X\"/", false, true),
            ("$X/*", false, true),
            ("${X}/.*", false, true),
            ("${X:?}/", false, false),
            ("${X:?unset}/*", false, false),
            ("${X?}/", false, true),
            ("$X/build", false, false),
        ];
        for (raw, lit, want) in cases {
            let r = resolve(raw, *lit, Some(cwd), &test_places(), &NoFs);
            assert_eq!(
                is_broad(&r, Some(cwd), Path::new("/home/u"), &system),
                *want,
                "{raw}"
            );
        }
    }
}
