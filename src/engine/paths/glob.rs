//! Path patterns matched against paths: `**` across names, `*` and `?` within one name
//! (`component_match`, which also matches a shell word against a glob), a pattern without
//! a leading `/` at any depth, and whether a folder lies above what a pattern names. The
//! ground floor of the path lists: nothing here resolves a path or knows a place.

/// Glob matching for paths: `**` matches any number of whole components (including none),
/// `*` any run of characters within one component, `?` one character. Patterns that do not
/// start with `/` match at any depth (as if prefixed with `**/`).
pub fn glob_match(pattern: &str, path: &str) -> bool {
    // The common case, a bare name such as `.env` or `*.pem`: only the last component.
    if !pattern.contains('/') {
        let base = path.rsplit('/').next().unwrap_or(path);
        return component_match(pattern, base);
    }
    // A folder named without wildcards and everything under it (`~/.ssh/**`, `.husky/**`):
    // compared as text, without splitting.
    if let Some(folder) = pattern.strip_suffix("/**") {
        let folder = folder.trim_start_matches('/');
        if !folder.is_empty() && !folder.contains(['*', '?']) && !folder.contains("**") {
            return under_folder(
                folder,
                path.trim_start_matches('/'),
                pattern.starts_with('/'),
            );
        }
    }
    // Both ends are anchored, so a last component other than `**` must match the path's
    // last one: most patterns fail there, before anything is split.
    let last = pattern.rsplit('/').next().unwrap_or(pattern);
    let base = path.rsplit('/').next().unwrap_or(path);
    if last != "**" && !component_match(last, base) {
        return false;
    }
    let pat: Vec<&str> = pattern.trim_start_matches('/').split('/').collect();
    let pth: Vec<&str> = path.trim_start_matches('/').split('/').collect();
    if pattern.starts_with('/') {
        match_components(&pat, &pth)
    } else {
        (0..pth.len()).any(|i| match_components(&pat, &pth[i..]))
    }
}

/// The text after the last `/` (all of it when there is none).
pub fn last_name(s: &str) -> &str {
    match s.as_bytes().iter().rposition(|&b| b == b'/') {
        Some(i) => &s[i + 1..],
        None => s,
    }
}

/// Whether `path` is the folder `folder` (whole components, no wildcards) or inside it:
/// from its start when `anchored`, else at any depth. Both are without a leading `/`.
fn under_folder(folder: &str, path: &str, anchored: bool) -> bool {
    let ends_component = |end: usize| end == path.len() || path.as_bytes()[end] == b'/';
    if anchored {
        return path.starts_with(folder) && ends_component(folder.len());
    }
    path.match_indices(folder).any(|(at, _)| {
        (at == 0 || path.as_bytes()[at - 1] == b'/') && ends_component(at + folder.len())
    })
}

fn match_components(pat: &[&str], path: &[&str]) -> bool {
    // Iterative with backtracking on the last `**`.
    let (mut p, mut s) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while s < path.len() {
        if p < pat.len() && pat[p] == "**" {
            star = Some((p, s));
            p += 1;
        } else if p < pat.len() && component_match(pat[p], path[s]) {
            p += 1;
            s += 1;
        } else if let Some((sp, ss)) = star {
            p = sp + 1;
            s = ss + 1;
            star = Some((sp, ss + 1));
        } else {
            return false;
        }
    }
    while p < pat.len() && pat[p] == "**" {
        p += 1;
    }
    p == pat.len()
}

/// `*` and `?` within one path component (or one shell word).
pub fn component_match(pat: &str, s: &str) -> bool {
    // The pattern's text before its first wildcard must start the name and its text after
    // the last one end it: most names fail there, before the walk below. Compared as
    // bytes, which is the same as comparing the characters.
    let (p, t) = (pat.as_bytes(), s.as_bytes());
    let wild = |b: &u8| matches!(b, b'*' | b'?');
    let Some(first) = p.iter().position(wild) else {
        return p == t;
    };
    let last = p.iter().rposition(wild).unwrap_or(first);
    if !t.starts_with(&p[..first]) || !t.ends_with(&p[last + 1..]) {
        return false;
    }
    if pat.is_ascii() && s.is_ascii() {
        return wildcard(pat.as_bytes(), s.as_bytes());
    }
    let p: Vec<char> = pat.chars().collect();
    let t: Vec<char> = s.chars().collect();
    wildcard(&p, &t)
}

/// `*` and `?` matching over any sequence of units, iterative with one backtrack point.
fn wildcard<T: Copy + PartialEq + From<u8>>(p: &[T], t: &[T]) -> bool {
    let star = T::from(b'*');
    let any = T::from(b'?');
    let (mut i, mut j) = (0usize, 0usize);
    let mut back: Option<(usize, usize)> = None;
    while j < t.len() {
        if i < p.len() && (p[i] == any || p[i] == t[j]) && p[i] != star {
            i += 1;
            j += 1;
        } else if i < p.len() && p[i] == star {
            back = Some((i, j));
            i += 1;
        } else if let Some((si, sj)) = back {
            i = si + 1;
            j = sj + 1;
            back = Some((si, sj + 1));
        } else {
            return false;
        }
    }
    while i < p.len() && p[i] == star {
        i += 1;
    }
    i == p.len()
}

/// Whether the absolute, folded path `p` is a folder above something the absolute path
/// pattern `pattern` matches (see [`glob_match`]): `/run/user/1000` is above
/// `/run/user/*/docker.sock`. A pattern of a name alone has no folder above it.
pub fn is_above_pattern(p: &str, pattern: &str) -> bool {
    if !pattern.starts_with('/') {
        return false;
    }
    let pat: Vec<&str> = pattern.trim_start_matches('/').split('/').collect();
    let names: Vec<&str> = p.split('/').filter(|n| !n.is_empty()).collect();
    for (at, name) in names.iter().enumerate() {
        match pat.get(at) {
            Some(&"**") => return true,
            Some(want) if at + 1 < pat.len() && component_match(want, name) => {}
            _ => return false,
        }
    }
    names.len() < pat.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_wildcards() {
        let cases: &[(&str, &str, bool)] = &[
            (".env", ".env", true),
            (".env", ".envrc", false),
            (".env.*", ".env.local", true),
            (".env.*", ".env", false),
            ("*.pem", "key.pem", true),
            ("*.pem", "key.pem.bak", false),
            ("id_rsa*", "id_rsa.pub", true),
            ("id_rsa*", "xid_rsa", false),
            ("a*a", "a", false),
            ("a*a", "aa", true),
            ("a?c", "abc", true),
            ("a?c", "ac", false),
            ("*", "", true),
            ("?", "", false),
            ("?", "é", true),
            ("é*", "été", true),
            ("*é", "été", true),
            ("*é", "ét", false),
            ("*cred*", "my-credentials", true),
            ("", "", true),
            ("", "x", false),
        ];
        for (pat, name, want) in cases {
            assert_eq!(component_match(pat, name), *want, "{pat} {name}");
            // The same answer as the walk alone, character by character.
            let (p, t): (Vec<char>, Vec<char>) = (pat.chars().collect(), name.chars().collect());
            assert_eq!(wildcard(&p, &t), *want, "{pat} {name}");
        }
    }

    #[test]
    fn globs() {
        let cases: &[(&str, &str, bool)] = &[
            ("/etc/**", "/etc/passwd", true),
            ("/etc/**", "/etc", true),
            ("/etc/**", "/etcx", false),
            ("**/.env", "/a/b/.env", true),
            (".env", "/a/b/.env", true),
            (".env.*", "/a/.env.local", true),
            ("*.pem", "/a/k.pem", true),
            ("/home/u/.ssh/**", "/home/u/.ssh/id_rsa", true),
            ("/a/*/c", "/a/b/c", true),
            ("/a/*/c", "/a/b/x/c", false),
            ("/a/**/c", "/a/b/x/c", true),
            // The last component decides early; `**` last matches any end.
            ("a/b", "/x/a/b", true),
            ("a/b", "/x/a/b/c", false),
            ("a/*.toml", "/x/a/p.toml", true),
            ("a/*.toml", "/x/a/p.json", false),
            ("/a/**", "/a/b/c.txt", true),
            ("/a/b/", "/a/b", false),
            ("/a/b/", "/a/b/", true),
            // A folder without wildcards and what is under it, read as text.
            (".husky/**", "/p/.husky/pre-commit", true),
            (".husky/**", "/p/.husky", true),
            (".husky/**", "/p/x.husky/pre-commit", false),
            (".husky/**", "/p/.huskyx/pre-commit", false),
            (".husky/**", ".husky/a", true),
            ("a/b/**", "/x/a/b/c", true),
            ("a/b/**", "/x/a/bc/d", false),
            ("a/b/**", "/x/a/a/b", true),
            ("/home/u/.local/bin/**", "/home/u/.local/bin", true),
            ("/home/u/.local/bin/**", "/home/u/.local/binx", false),
            ("/home/u/.local/bin/**", "/home/u/.local", false),
            ("/etc/**", "etc/hosts", true),
        ];
        for (p, s, want) in cases {
            assert_eq!(glob_match(p, s), *want, "{p} {s}");
            // The same answer as matching component by component.
            let pat: Vec<&str> = p.trim_start_matches('/').split('/').collect();
            let pth: Vec<&str> = s.trim_start_matches('/').split('/').collect();
            let by_components = if p.starts_with('/') {
                match_components(&pat, &pth)
            } else {
                (0..pth.len()).any(|i| match_components(&pat, &pth[i..]))
            };
            if p.contains('/') {
                assert_eq!(glob_match(p, s), by_components, "{p} {s}");
            }
        }
    }

    #[test]
    fn folders_above_a_pattern() {
        let cases: &[(&str, &str, bool)] = &[
            ("/var/run", "/var/run/docker.sock", true),
            ("/var", "/var/run/docker.sock", true),
            ("/", "/var/run/docker.sock", true),
            ("/var/run/docker.sock", "/var/run/docker.sock", false),
            ("/var/lib", "/var/run/docker.sock", false),
            ("/run/user/1000", "/run/user/*/docker.sock", true),
            (
                "/run/user/1000/podman",
                "/run/user/*/podman/podman.sock",
                true,
            ),
            ("/run/user/1000/x", "/run/user/*/docker.sock", false),
            ("/a/b/c", "/a/**", true),
            ("/var/run", "docker.sock", false),
        ];
        for (p, pattern, want) in cases {
            assert_eq!(is_above_pattern(p, pattern), *want, "{p} {pattern}");
        }
    }
}
