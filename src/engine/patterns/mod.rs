//! A list of path patterns, each with what a path must hold to match it.
//!
//! Every word of a command is classed as a possible path against the secret, protected and
//! runs-later lists, a few hundred patterns in all, so trying each pattern in turn with
//! [`glob_match`] is most of the cost of a call that names a path. Most patterns end in a
//! name without wildcards (`~/.aws/credentials`, `.npmrc`) or name a folder and all it
//! holds (`~/.ssh/**`): such a pattern can match only a path whose last name, or one of
//! whose names, is that name. [`PatternSet`] notes that name for each pattern once, when
//! the list is expanded, and compares it before the pattern is walked. The note is only a
//! necessary condition: [`glob_match`] still decides, so a set matches exactly what its
//! patterns match one by one.

use std::borrow::Cow;
use std::cell::OnceCell;

use super::policy::need::{name_bit, need_of};
pub use super::policy::Need;

use super::paths::{component_match, expand_pattern_all, glob_match, last_name, Places, Resolved};
use super::policy::{builtin_path_needs, List};

/// One pattern as the policy writes it, what a path must hold to match it, and its
/// expansions (the places it names filled in), made on the first path that holds it.
#[derive(Debug)]
struct Entry<'a> {
    raw: &'a str,
    need: Need,
    /// The last name is the same once the places are filled in.
    stable_last: bool,
    expanded: OnceCell<Vec<Cow<'a, str>>>,
}

/// Path patterns as the policy lists them, with what a path must hold to match each; a
/// pattern's places (`~`, `{config}` …) are filled in only when a path could match it.
#[derive(Debug)]
pub struct PatternSet<'a> {
    entries: Vec<Entry<'a>>,
    places: &'a Places,
}

impl Entry<'_> {
    /// The pattern's last name, where it is the same once the places are filled in.
    fn last_name(&self) -> &str {
        match self.need {
            Need::Last(s, e) | Need::LastLike(s, e) => &self.raw[s..e],
            _ => last_name(self.raw),
        }
    }
}

impl<'a> PatternSet<'a> {
    pub fn new(patterns: impl IntoIterator<Item = &'a str>, places: &'a Places) -> PatternSet<'a> {
        let entries = patterns.into_iter().map(|raw| (raw, need_of(raw)));
        PatternSet::from_entries(entries, places)
    }

    /// The set of a policy's path list: the needs of a built-in list were worked out when
    /// the binary was built, those of a list a layer changed are read here.
    pub fn of_list(list: &'a List, places: &'a Places) -> PatternSet<'a> {
        match builtin_path_needs(list) {
            Some(entries) => PatternSet::from_entries(entries.iter().copied(), places),
            None => PatternSet::new(list.iter(), places),
        }
    }

    fn from_entries(
        entries: impl Iterator<Item = (&'a str, Need)>,
        places: &'a Places,
    ) -> PatternSet<'a> {
        let entries = entries
            .map(|(raw, need)| Entry {
                raw,
                need,
                stable_last: !matches!(need, Need::Anything) || raw.ends_with("/**"),
                expanded: OnceCell::new(),
            })
            .collect();
        PatternSet { entries, places }
    }

    /// The expanded patterns `keep` does not turn away, told only the pattern's last name
    /// (the expanded one's: a pattern whose last name holds a place is kept without
    /// asking). Only those are expanded.
    pub fn expanded_where<'s, F>(
        &'s self,
        keep: F,
    ) -> impl Iterator<Item = &'s str> + use<'s, 'a, F>
    where
        F: Fn(&str) -> bool + 's,
    {
        self.entries
            .iter()
            .filter(move |e| !e.stable_last || keep(e.last_name()))
            .flat_map(|e| {
                let direct = names_no_place(e.raw);
                let expanded: &[Cow<'a, str>] = if direct { &[] } else { self.expansions(e) };
                direct
                    .then_some(e.raw)
                    .into_iter()
                    .chain(expanded.iter().map(|c| c.as_ref()))
            })
    }

    /// Whether some pattern matches some form of the path (as [`Resolved::matches`] would
    /// find, pattern by pattern).
    pub fn matches(&self, p: &Resolved) -> bool {
        p.forms().any(|f| self.matches_path(f))
    }

    /// Whether some pattern matches the absolute path `path`.
    pub fn matches_path(&self, path: &str) -> bool {
        let base = last_name(path);
        let mut bits = None;
        self.entries.iter().any(|e| {
            let may = match e.need {
                Need::Anything => true,
                Need::Last(s, end) => e.raw[s..end] == *base,
                Need::LastLike(s, end) => component_match(&e.raw[s..end], base),
                Need::Name(bit) => *bits.get_or_insert_with(|| name_bits(path)) & bit != 0,
            };
            may && if names_no_place(e.raw) {
                glob_match(e.raw, path)
            } else {
                self.expansions(e).iter().any(|p| glob_match(p, path))
            }
        })
    }

    fn expansions<'s>(&self, e: &'s Entry<'a>) -> &'s [Cow<'a, str>] {
        e.expanded
            .get_or_init(|| expand_pattern_all(e.raw, self.places).collect())
    }
}

/// Whether a pattern is its own expansion (see [`super::paths::expand_pattern`]).
fn names_no_place(raw: &str) -> bool {
    !raw.starts_with('~') && !raw.as_bytes().contains(&b'{')
}

/// The bits of all the names of a path.
fn name_bits(path: &str) -> u64 {
    path.split('/').fold(0, |acc, n| acc | name_bit(n))
}

#[cfg(test)]
mod tests {
    use super::*;

    static PLACES: std::sync::LazyLock<Places> =
        std::sync::LazyLock::new(crate::engine::examples::example_places);

    const PATTERNS: &[&str] = &[
        "~/.ssh/**",
        "{config}/settings.json",
        "{config}/**",
        "{binary}",
        "~",
        "/home/u/.ssh/**",
        ".env",
        "*.pem",
        "id_rsa*",
        "/home/u/.aws/credentials",
        "/proc/*/environ",
        ".git/modules/**/hooks/**",
        "/home/u/.mozilla/**/logins.json",
        "/dev/sd*",
        ".husky/**",
        "/**",
        "**",
        "a/*/**",
    ];

    const PATHS: &[&str] = &[
        "/home/u/.ssh",
        "/home/u/.ssh/id_ed25519",
        "/home/u/.sshx/a",
        "/p/.env",
        "/p/.env/x",
        "/p/cert.pem",
        "/p/pem",
        "/home/u/.ssh2/id_rsa.pub",
        "/home/u/.aws/credentials",
        "/home/u/x/.aws/credentials",
        "/proc/12/environ",
        "/p/.git/modules/m/hooks/pre-commit",
        "/p/.git/modules/m/n/hooks",
        "/home/u/.mozilla/a/b/logins.json",
        "/dev/sda1",
        "/p/.husky/pre-commit",
        "/p/husky/pre-commit",
        "/p/a/b/c",
        "/",
        "",
        "/p/src/main.rs",
        "/p/é/ü.pem",
        "/home/user/.ssh/config",
        "/home/user/.claude/settings.json",
        "/home/user/.claude",
        "/home/user/.local/bin/programmer-hook",
        "/home/user",
    ];

    #[test]
    fn a_set_matches_what_its_patterns_match_one_by_one() {
        for pat in PATTERNS {
            let set = PatternSet::new([*pat], &PLACES);
            for path in PATHS {
                let one_by_one = expand_pattern_all(pat, &PLACES).any(|e| glob_match(&e, path));
                assert_eq!(set.matches_path(path), one_by_one, "{pat} against {path}");
            }
        }
        let all = PatternSet::new(PATTERNS.iter().copied(), &PLACES);
        for path in PATHS {
            let one_by_one = all
                .expanded_where(|_| true)
                .any(|pat| glob_match(pat, path));
            assert_eq!(all.matches_path(path), one_by_one, "{path}");
        }
    }

    /// The built-in secret, protected, runs-later and system lists, expanded as a call
    /// expands them.
    fn builtin_sets() -> Vec<PatternSet<'static>> {
        static POLICY: std::sync::LazyLock<crate::engine::policy::Policy> =
            std::sync::LazyLock::new(|| {
                crate::engine::policy::Policy::builtin().expect("defaults load")
            });
        let l = &POLICY.paths;
        [
            &l.sensitive,
            &l.protected,
            &l.runs_later,
            &l.system,
            &l.not_sensitive,
        ]
        .into_iter()
        .map(|list| PatternSet::new(list.iter(), &PLACES))
        .collect()
    }

    proptest::proptest! {
        /// Paths made of the names the built-in patterns use (and a few others) are
        /// matched by a set exactly as by its patterns one by one.
        #[test]
        fn the_builtin_sets_match_as_their_patterns_do(
            names in proptest::collection::vec(
                proptest::sample::select(vec![
                    "home", "user", ".ssh", "id_ed25519", "id_rsa.pub", ".aws", "credentials",
                    ".env", ".env.example", "x.pem", ".git", "hooks", "modules", "m", "config",
                    "etc", "shadow", "proc", "1", "environ", ".claude", "settings.json",
                    "project", "src", "main.rs", ".husky", "pre-commit", "site-packages",
                    "a.pth", ".mozilla", "logins.json", "dev", "sda", "usr", "bin", "",
                    ".local", ".config", "gh", "hosts.yml", "CLAUDE.md", "rules", "é",
                ]),
                0..8,
            )
        ) {
            let path = format!("/{}", names.join("/"));
            for set in builtin_sets() {
                let one_by_one = set.expanded_where(|_| true).any(|p| glob_match(p, &path));
                proptest::prop_assert_eq!(set.matches_path(&path), one_by_one, "{}", path);
            }
        }
    }

    /// A glob is found to overlap the patterns kept for it by their last names exactly
    /// when it overlaps some pattern.
    #[test]
    fn patterns_kept_by_last_name_are_all_a_glob_can_overlap() {
        let globs = [
            "/home/user/project/**/*.rs",
            "/home/user/.ssh/*",
            "/home/user/.claude/settings.jso?",
            "/home/user/.claude/*",
            "/home/user/*",
            "/p/.env*",
            "/p/.git/hooks/*",
            "/p/[ab].pem",
            "/etc/*",
            "/home/user/.local/bin/programmer-*",
            "/*",
        ];
        let mut overlapping = 0;
        for set in builtin_sets() {
            for g in globs {
                let all = crate::engine::paths::glob_overlaps_any(set.expanded_where(|_| true), g);
                let kept = crate::engine::paths::glob_overlaps_any(
                    set.expanded_where(|last| crate::engine::paths::last_names_overlap(last, g)),
                    g,
                );
                assert_eq!(kept, all, "{g}");
                overlapping += usize::from(all);
            }
        }
        assert!(
            overlapping > 10,
            "the globs overlap patterns: {overlapping}"
        );
    }

    /// The needs `build.rs` worked out for the built-in lists are those read at run time,
    /// and a list a layer changed has its needs read again.
    #[test]
    fn the_builtin_lists_needs_are_read_at_build_time() {
        let policy = crate::engine::policy::Policy::builtin().expect("defaults load");
        let l = &policy.paths;
        for list in [
            &l.sensitive,
            &l.protected,
            &l.runs_later,
            &l.system,
            &l.not_sensitive,
        ] {
            let built = builtin_path_needs(list).expect("a built-in list");
            let read: Vec<(&str, Need)> = list.iter().map(|p| (p, need_of(p))).collect();
            assert_eq!(built, read.as_slice());
        }
        let mut changed = l.sensitive.clone();
        changed.push("*.vault");
        assert!(builtin_path_needs(&changed).is_none());
        let set = PatternSet::of_list(&changed, &PLACES);
        assert!(set.matches_path("/p/x.vault"));
        assert!(set.matches_path("/home/user/.ssh/id_ed25519"));
    }

    #[test]
    fn each_pattern_notes_what_a_path_must_hold() {
        let need = |p| format!("{:?}", need_of(p));
        assert_eq!(need(".env"), "Last(0, 4)");
        assert_eq!(need("/home/u/.aws/credentials"), "Last(13, 24)");
        assert_eq!(need("*.pem"), "LastLike(0, 5)");
        assert_eq!(
            need("/home/u/.ssh/**"),
            format!("Name({})", name_bit(".ssh"))
        );
        assert_eq!(need("a/*/**"), format!("Name({})", name_bit("a")));
        assert_eq!(need("/**"), "Anything");
        assert_eq!(need("{binary}"), "Anything");
        assert_eq!(need("~/.ssh/**"), format!("Name({})", name_bit(".ssh")));
        assert_eq!(need("{state}/**"), "Anything");
        assert_eq!(need("{config}/settings.json"), "Last(9, 22)");
        assert_eq!(need("~"), "Anything");
        assert_eq!(need("a/~b"), "Last(2, 4)");
        assert_eq!(need("~/x/**/y/**"), format!("Name({})", name_bit("y")));
        assert_eq!(need("~/x/*/**"), format!("Name({})", name_bit("x")));
        assert_eq!(need(".git/modules/**/config"), "Last(16, 22)");
        assert_eq!(need("/dev/sd*"), "LastLike(5, 8)");
        assert_eq!(need("dir/"), "Anything");
    }
}
