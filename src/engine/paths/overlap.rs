//! Whether a shell glob can name a path a pattern matches (`cp x ~/.claude/settings.jso?`
//! writes a protected file): two patterns compared with each other rather than a pattern
//! with a path. Apart from the matching it stands on, as it answers a harder question, for
//! the few words that hold a glob.

use super::glob::{component_match, last_name};

/// Whether some path that the shell glob `glob` (an absolute path whose names may hold
/// `*`, `?` and `[…]`) can name matches the path pattern `pattern` (see [`glob_match`]):
/// `cp x ~/.claude/settings.jso?` writes `settings.json` if it exists, or would once it
/// does. Conservative: a `[…]` class is taken to match any one character.
pub fn glob_overlaps(pattern: &str, glob: &str) -> bool {
    glob_overlaps_any(std::iter::once(pattern), glob)
}

/// Whether [`glob_overlaps`] holds for one of `patterns`.
pub fn glob_overlaps_any<'p>(patterns: impl IntoIterator<Item = &'p str>, glob: &str) -> bool {
    let owned: Vec<String> = glob
        .trim_start_matches('/')
        .split('/')
        .map(class_as_any)
        .collect();
    let g: Vec<&str> = owned.iter().map(String::as_str).collect();
    patterns.into_iter().any(|pattern| {
        if !pattern.contains('/') {
            return g
                .last()
                .is_some_and(|base| components_overlap(pattern, base));
        }
        // The pattern's last name, unless `**`, is matched against the glob's last one:
        // where those cannot overlap, nothing is split.
        let last = last_name(pattern);
        if last != "**" && g.last().is_some_and(|base| !components_overlap(last, base)) {
            return false;
        }
        let pat: Vec<&str> = pattern.trim_start_matches('/').split('/').collect();
        if pattern.starts_with('/') {
            overlap_from(&pat, &g)
        } else {
            (0..g.len()).any(|i| overlap_from(&pat, &g[i..]))
        }
    })
}

/// Whether the last name of `pattern` may agree with the last name of `glob`: false only
/// where [`glob_overlaps`] is false for that reason alone, before anything is split.
pub fn last_names_overlap(pattern: &str, glob: &str) -> bool {
    let last = last_name(pattern);
    last == "**" || components_overlap(last, &class_as_any(last_name(glob)))
}

/// Whether pattern names `pat` (`**` spans names) can match glob names `g` in full.
fn overlap_from(pat: &[&str], g: &[&str]) -> bool {
    // reach[j]: pattern prefix so far can match the first j glob names.
    let mut reach = vec![false; g.len() + 1];
    reach[0] = true;
    for p in pat {
        let mut next = vec![false; g.len() + 1];
        for j in 0..=g.len() {
            if !reach[j] {
                continue;
            }
            if *p == "**" {
                next[j..].iter_mut().for_each(|n| *n = true);
                break;
            }
            if j < g.len() && components_overlap(p, g[j]) {
                next[j + 1] = true;
            }
        }
        reach = next;
        // No prefix of the glob's names is matched any more: nothing later can match.
        if !reach.contains(&true) {
            return false;
        }
    }
    reach[g.len()]
}

/// A glob name with each `[…]` class written as `?`.
fn class_as_any(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut chars = name.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '[' {
            let rest: String = chars.clone().collect();
            // `[]…]` and `[!]…]` hold a `]` as their first member.
            let skip = usize::from(rest.starts_with(['!', '^']));
            let first_is_bracket = rest[skip..].starts_with(']');
            let from = skip + usize::from(first_is_bracket);
            if let Some(close) = rest.get(from..).and_then(|r| r.find(']')) {
                for _ in 0..from + close + 1 {
                    chars.next();
                }
                out.push('?');
                continue;
            }
        }
        out.push(c);
    }
    out
}

/// Whether two names with `*` and `?` can both match one name.
fn components_overlap(a: &str, b: &str) -> bool {
    // The text before the first wildcard and after the last must agree as far as both go:
    // most pairs differ there, and are told apart without the search below.
    let wild = |c: char| c == '*' || c == '?';
    fn head(s: &str) -> &str {
        s.find(['*', '?']).map_or(s, |p| &s[..p])
    }
    fn tail(s: &str) -> &str {
        s.rfind(['*', '?']).map_or(s, |p| &s[p + 1..])
    }
    let (ha, hb) = (head(a), head(b));
    if !(ha.starts_with(hb) || hb.starts_with(ha)) {
        return false;
    }
    let (ta, tb) = (tail(a), tail(b));
    if !(ta.ends_with(tb) || tb.ends_with(ta)) {
        return false;
    }
    if !a.contains(wild) || !b.contains(wild) {
        return if a.contains(wild) {
            component_match(a, b)
        } else {
            component_match(b, a)
        };
    }
    overlap_search(a, b)
}

/// The search behind [`components_overlap`]: whether both names can reach their ends
/// giving the same characters.
fn overlap_search(a: &str, b: &str) -> bool {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let width = b.len() + 1;
    let mut seen = vec![false; (a.len() + 1) * width];
    let mut stack = vec![(0usize, 0usize)];
    while let Some((i, j)) = stack.pop() {
        if std::mem::replace(&mut seen[i * width + j], true) {
            continue;
        }
        if i == a.len() && j == b.len() {
            return true;
        }
        let (x, y) = (a.get(i).copied(), b.get(j).copied());
        if x == Some('*') {
            stack.push((i + 1, j));
        }
        if y == Some('*') {
            stack.push((i, j + 1));
        }
        // Both give one character: the same, or either is a wildcard.
        if let (Some(x), Some(y)) = (x, y) {
            let agree = x == y || matches!(x, '*' | '?') || matches!(y, '*' | '?');
            if agree && !(x == '*' && y == '*') {
                let ni = if x == '*' { i } else { i + 1 };
                let nj = if y == '*' { j } else { j + 1 };
                stack.push((ni, nj));
            }
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glob_overlaps_patterns() {
        let cases: &[(&str, &str, bool)] = &[
            (
                "/home/u/.claude/settings.json",
                "/home/u/.claude/settings.jso?",
                true,
            ),
            ("/home/u/.claude/settings.json", "/home/u/.claude/*", true),
            (
                "/home/u/.claude/settings.json",
                "/home/u/.cl*/s*.json",
                true,
            ),
            (
                "/home/u/.claude/settings.json",
                "/home/u/.claude/*.toml",
                false,
            ),
            ("/home/u/.ssh/**", "/home/u/.ssh/authorized_key[s]", true),
            ("/home/u/.ssh/**", "/home/u/.ss?", true),
            ("/home/u/.ssh/**", "/home/u/.s[s]h/x/y", true),
            ("/home/u/.ssh/**", "/home/u/p/*", false),
            ("/home/u/.bashrc", "/home/u/.bash*", true),
            ("/home/u/.bashrc", "/home/u/p/.bash*", false),
            (
                ".claude/settings.json",
                "/home/u/p/.claude/settings.js[o]n",
                true,
            ),
            (".claude/settings.json", "/home/u/p/build/*.o", false),
            ("id_rsa*", "/home/u/x/id_*", true),
            ("*.pem", "/home/u/p/*.rs", false),
            ("/dev/sd*", "/dev/s?a", true),
        ];
        for (pat, glob, want) in cases {
            assert_eq!(glob_overlaps(pat, glob), *want, "{pat} {glob}");
        }
    }
}
