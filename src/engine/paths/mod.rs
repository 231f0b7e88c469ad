//! Path resolution and path classes.
//!
//! A path in a tool call or a shell word is resolved the way the shell and the OS would see
//! it: `~`, `$HOME` and `${HOME}` expanded, made absolute against the event's working
//! directory, `.` and `..` folded, and symlinks of the longest existing ancestor followed.
//! The resolved path is then put into classes (`protected`, `sensitive`, `system`, `broad`,
//! `unknown`) from the policy's path lists. File-system access goes through [`Fs`], so the
//! classifier stays pure and tests can use a fake.

use std::path::{Component, Path, PathBuf};

mod fs;
mod glob;
mod overlap;
mod places;

pub use fs::{Fs, NoFs, RealFs};
pub use glob::{component_match, glob_match, is_above_pattern, last_name};
pub use overlap::{glob_overlaps, glob_overlaps_any, last_names_overlap};
pub use places::{expand_pattern, expand_pattern_all, Places};

/// A path after resolution.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// Absolute, `..`-folded path; `None` when it depends on an unknown variable or cwd.
    pub lexical: Option<String>,
    /// The same path with symlinks of its longest existing ancestor followed, when different.
    pub real: Option<String>,
    /// The word as written.
    pub raw: String,
    /// The word had an unknown variable, substitution or glob.
    pub dynamic: bool,
}

impl Resolved {
    /// The forms to test against patterns.
    pub fn forms(&self) -> impl Iterator<Item = &str> {
        self.lexical
            .iter()
            .chain(self.real.iter())
            .map(|s| s.as_str())
    }

    /// Whether any form matches a path pattern (already expanded, see [`expand_pattern`]).
    pub fn matches(&self, pattern: &str) -> bool {
        self.forms().any(|f| glob_match(pattern, f))
    }
}

/// Resolves `raw` (a path as written) against `cwd`.
pub fn resolve(
    raw: &str,
    literal: bool,
    cwd: Option<&Path>,
    places: &Places,
    fs: &dyn Fs,
) -> Resolved {
    let mut dynamic = !literal;
    let expanded = expand_home(raw, literal, &places.home);
    // The absolute path before `..` is folded, when it has one: the kernel follows a link
    // before it climbs out of it (`linkdir/../x` is in the link target's parent).
    let mut climbs: Option<PathBuf> = None;
    let lexical = match expanded {
        Some(p) => {
            if has_unknown_expansion(&p, literal) {
                dynamic = true;
                None
            } else {
                let p = proc_self(&p, cwd);
                let absolute = if p.starts_with('/') {
                    Some(PathBuf::from(p.as_ref()))
                } else {
                    // After `cd ~/.ss?` the folder is a glob too.
                    dynamic |= cwd.is_some_and(|c| c.to_string_lossy().contains(['*', '?', '[']));
                    cwd.map(|c| c.join(p.as_ref()))
                };
                if let Some(a) = &absolute {
                    if a.components().any(|c| c == Component::ParentDir) {
                        climbs = Some(a.clone());
                    }
                }
                absolute.map(|a| normalize(&a))
            }
        }
        None => {
            dynamic = true;
            None
        }
    };
    let real = match &climbs {
        Some(a) => physical(a, fs),
        None => lexical.as_deref().and_then(|l| follow_links(l, fs)),
    }
    .filter(|r| Some(r) != lexical.as_ref());
    Resolved {
        lexical,
        real,
        raw: raw.to_string(),
        dynamic,
    }
}

/// Expands a leading `~`, `$HOME` or `${HOME}`, and `~user` as that user's home folder:
/// next to ours (`/home/bob` when ours is `/home/user`), `/root` for root. `~+`, `~-`
/// and the like are left unknown.
fn expand_home(raw: &str, literal: bool, home: &Path) -> Option<String> {
    let home_text = home.to_string_lossy();
    if raw == "~" {
        return Some(home_text.to_string());
    }
    if let Some(rest) = raw.strip_prefix("~/") {
        return Some(format!("{home_text}/{rest}"));
    }
    if let Some(user) = raw.strip_prefix('~') {
        let (name, rest) = user.split_at(user.find('/').unwrap_or(user.len()));
        let is_user = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "._-".contains(c));
        if !is_user {
            return None;
        }
        let folder = match home.parent() {
            _ if name == "root" => PathBuf::from("/root"),
            Some(parent) if parent != Path::new("/") => parent.join(name),
            _ => Path::new("/home").join(name),
        };
        return Some(format!("{}{rest}", folder.to_string_lossy()));
    }
    let home = home_text;
    if !literal {
        for prefix in ["${HOME}", "$HOME"] {
            if let Some(rest) = raw.strip_prefix(prefix) {
                if rest.is_empty() || rest.starts_with('/') {
                    return Some(format!("{home}{rest}"));
                }
            }
        }
    }
    Some(raw.to_string())
}

fn has_unknown_expansion(p: &str, literal: bool) -> bool {
    !literal && (p.contains('$') || p.contains('`') || p.contains("(…)"))
}

/// Folds `.` and `..` without touching the file system.
pub fn normalize(p: &Path) -> String {
    let mut parts: Vec<String> = Vec::new();
    for c in p.components() {
        match c {
            Component::RootDir | Component::Prefix(_) => parts.clear(),
            Component::CurDir => {}
            Component::ParentDir => {
                parts.pop();
            }
            Component::Normal(s) => parts.push(s.to_string_lossy().into_owned()),
        }
    }
    format!("/{}", parts.join("/"))
}

/// `/proc/self/root/x` (also `thread-self`'s and a process's by number) is `/x`, and
/// `/proc/self/cwd/x` is `x` in the folder the command runs in, when that is known.
fn proc_self<'a>(p: &'a str, cwd: Option<&Path>) -> std::borrow::Cow<'a, str> {
    use std::borrow::Cow;
    let Some(rest) = p.strip_prefix("/proc/") else {
        return Cow::Borrowed(p);
    };
    let (who, rest) = rest.split_once('/').unwrap_or((rest, ""));
    let this = who == "self" || who == "thread-self";
    let a_process = !who.is_empty() && who.bytes().all(|b| b.is_ascii_digit());
    if !(this || a_process) {
        return Cow::Borrowed(p);
    }
    let (what, tail) = rest.split_once('/').unwrap_or((rest, ""));
    match (what, cwd) {
        ("root", _) => Cow::Owned(format!("/{tail}")),
        ("cwd", Some(c)) if this => Cow::Owned(format!("{}/{tail}", c.to_string_lossy())),
        _ => Cow::Borrowed(p),
    }
}

/// The path the kernel reaches for the absolute path `a`, whose `..` are not folded: each
/// name in turn, a link (existing or dangling) replaced by its target as it is met, and `..`
/// taken from where that leads. Names that do not exist stay as written.
fn physical(a: &Path, fs: &dyn Fs) -> Option<String> {
    let mut queue: std::collections::VecDeque<std::ffi::OsString> = a
        .components()
        .filter_map(|c| match c {
            Component::Normal(n) => Some(n.to_os_string()),
            Component::ParentDir => Some("..".into()),
            _ => None,
        })
        .collect();
    let mut at = PathBuf::from("/");
    let mut links = 0;
    while let Some(name) = queue.pop_front() {
        if name == ".." {
            at.pop();
            continue;
        }
        if name == "." {
            continue;
        }
        at.push(&name);
        if let Some(target) = fs.read_link(&at) {
            links += 1;
            if links > MAX_DANGLING_LINKS {
                return None;
            }
            at.pop();
            if target.is_absolute() {
                at = PathBuf::from("/");
            }
            let parts: Vec<std::ffi::OsString> = target
                .components()
                .filter_map(|c| match c {
                    Component::Normal(n) => Some(n.to_os_string()),
                    Component::ParentDir => Some("..".into()),
                    _ => None,
                })
                .collect();
            for p in parts.into_iter().rev() {
                queue.push_front(p);
            }
        }
    }
    Some(normalize(&at))
}

/// How many dangling links one path is followed through.
const MAX_DANGLING_LINKS: usize = 40;

/// Follows symlinks of the longest existing ancestor of `p`, and a link on the way whose
/// target does not exist (yet): writing through it creates the target.
fn follow_links(p: &str, fs: &dyn Fs) -> Option<String> {
    let mut current = p.to_string();
    for _ in 0..MAX_DANGLING_LINKS {
        match follow_once(&current, fs) {
            Ok(real) => return real,
            Err(next) => current = next,
        }
    }
    Some(current)
}

/// One step of [`follow_links`]: the path with its longest existing ancestor's links
/// followed, or (as `Err`) where a dangling link on the way points.
fn follow_once(p: &str, fs: &dyn Fs) -> Result<Option<String>, String> {
    let mut ancestor = Path::new(p);
    let mut rest: Vec<&std::ffi::OsStr> = Vec::new();
    let with_rest = |mut out: PathBuf, rest: &[&std::ffi::OsStr]| {
        for r in rest.iter().rev() {
            out.push(r);
        }
        normalize(&out)
    };
    loop {
        if let Some(real) = fs.canonicalize(ancestor) {
            return Ok(Some(with_rest(real, &rest)));
        }
        if let Some(target) = fs.read_link(ancestor) {
            let base = ancestor.parent().unwrap_or_else(|| Path::new("/"));
            return Err(with_rest(base.join(target), &rest));
        }
        let Some(name) = ancestor.file_name() else {
            return Ok(None);
        };
        rest.push(name);
        let Some(parent) = ancestor.parent() else {
            return Ok(None);
        };
        ancestor = parent;
    }
}

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
    use super::places::test_places;
    use super::*;

    #[test]
    fn resolves() {
        let cwd = Path::new("/home/u/p");
        let cases: &[(&str, bool, Option<&str>)] = &[
            ("a.txt", true, Some("/home/u/p/a.txt")),
            ("../x/./y", true, Some("/home/u/x/y")),
            ("~/.ssh/id", true, Some("/home/u/.ssh/id")),
            ("$HOME/.ssh", false, Some("/home/u/.ssh")),
            ("${HOME}", false, Some("/home/u")),
            ("$X/a", false, None),
            ("/etc/../etc/passwd", true, Some("/etc/passwd")),
            ("~bob/x", true, Some("/home/bob/x")),
            ("~u/.ssh", true, Some("/home/u/.ssh")),
            ("~root", true, Some("/root")),
            ("~+/x", true, None),
        ];
        for (raw, lit, want) in cases {
            let r = resolve(raw, *lit, Some(cwd), &test_places(), &NoFs);
            assert_eq!(r.lexical.as_deref(), *want, "{raw}");
        }
    }

    /// A file system holding only a dangling link `/home/u/p/rc -> ../.bashrc` (the target
    /// missing) and the folders above it.
    struct DanglingFs;

    impl Fs for DanglingFs {
        fn canonicalize(&self, p: &Path) -> Option<PathBuf> {
            let s = p.to_str()?;
            matches!(s, "/" | "/home" | "/home/u" | "/home/u/p").then(|| p.to_path_buf())
        }
        fn read_link(&self, p: &Path) -> Option<PathBuf> {
            (p == Path::new("/home/u/p/rc")).then(|| PathBuf::from("../.bashrc"))
        }
    }

    /// `/home/u/p/sshdir -> /home/u/.ssh` and `/home/u/p/up -> ../..` (relative).
    struct LinkedFs;

    impl Fs for LinkedFs {
        fn canonicalize(&self, _: &Path) -> Option<PathBuf> {
            None
        }
        fn read_link(&self, p: &Path) -> Option<PathBuf> {
            match p.to_str()? {
                "/home/u/p/sshdir" => Some(PathBuf::from("/home/u/.ssh")),
                "/home/u/p/up" => Some(PathBuf::from("../..")),
                _ => None,
            }
        }
    }

    /// A link is followed before a `..` after it, as the kernel does; `/proc/self/root` is
    /// the root and `/proc/self/cwd` the folder the command runs in.
    #[test]
    fn paths_as_the_kernel_resolves_them() {
        let cwd = Path::new("/home/u/p");
        let cases: &[(&str, &str)] = &[
            ("sshdir/../.ssh/config", "/home/u/.ssh/config"),
            ("sshdir/../.bashrc", "/home/u/.bashrc"),
            ("./sshdir/../../x", "/home/x"),
            ("up/../etc/passwd", "/etc/passwd"),
            (
                "src/../sshdir/../.aws/credentials",
                "/home/u/.aws/credentials",
            ),
            ("/proc/self/root/home/u/.ssh/id", "/home/u/.ssh/id"),
            ("/proc/1/root/etc/hosts", "/etc/hosts"),
            ("/proc/thread-self/cwd/../.bashrc", "/home/u/.bashrc"),
        ];
        for (raw, want) in cases {
            let r = resolve(raw, true, Some(cwd), &test_places(), &LinkedFs);
            let forms: Vec<&str> = r.forms().collect();
            assert!(forms.contains(want), "{raw}: {forms:?}");
        }
        let r = resolve("src/../a.txt", true, Some(cwd), &test_places(), &LinkedFs);
        assert_eq!(r.real, None);
    }

    #[test]
    fn dangling_links_lead_to_their_target() {
        let r = resolve(
            "rc",
            true,
            Some(Path::new("/home/u/p")),
            &test_places(),
            &DanglingFs,
        );
        assert_eq!(r.lexical.as_deref(), Some("/home/u/p/rc"));
        assert_eq!(r.real.as_deref(), Some("/home/u/.bashrc"));
        let r = resolve(
            "new.txt",
            true,
            Some(Path::new("/home/u/p")),
            &test_places(),
            &DanglingFs,
        );
        assert_eq!(r.real, None);
    }

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
