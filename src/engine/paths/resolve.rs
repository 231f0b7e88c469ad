//! A path as written resolved the way the shell and the kernel would see it: `~`, `~user`,
//! `$HOME` and `${HOME}` expanded, made absolute against the folder the command runs in,
//! `/proc/self/root` and `/proc/self/cwd` read through, `.` and `..` folded, and the links
//! of its longest existing ancestor followed (a link before a `..` after it, as the kernel
//! does; a dangling link to where it points). What is not known until run time stays
//! unknown.

use std::path::{Component, Path, PathBuf};

use super::fs::Fs;
use super::glob::glob_match;
use super::places::Places;

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

    /// Whether any form matches a path pattern (already expanded, see
    /// [`expand_pattern`](super::places::expand_pattern)).
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

pub(super) fn has_unknown_expansion(p: &str, literal: bool) -> bool {
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

/// The names of a path in order, `..` kept as a name (the root and `.` left out).
fn names(p: &Path) -> impl Iterator<Item = std::ffi::OsString> + '_ {
    p.components().filter_map(|c| match c {
        Component::Normal(n) => Some(n.to_os_string()),
        Component::ParentDir => Some("..".into()),
        _ => None,
    })
}

/// The path the kernel reaches for the absolute path `a`, whose `..` are not folded: each
/// name in turn, a link (existing or dangling) replaced by its target as it is met, and `..`
/// taken from where that leads. Names that do not exist stay as written.
fn physical(a: &Path, fs: &dyn Fs) -> Option<String> {
    let mut queue: std::collections::VecDeque<std::ffi::OsString> = names(a).collect();
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
            let parts: Vec<std::ffi::OsString> = names(&target).collect();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::paths::fs::NoFs;
    use crate::engine::paths::places::test_places;

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
}
