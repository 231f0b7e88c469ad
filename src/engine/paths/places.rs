//! The places path patterns name (`~`, `{home}`, `{state}`, `{config}`, `{binary}`) and
//! filling them in: one pass over a pattern, no copy for the many that name none, and
//! `{binary}` standing for every copy of the hook the settings run.

use std::path::{Path, PathBuf};

/// The places path patterns may refer to.
#[derive(Debug, Clone)]
pub struct Places {
    pub home: PathBuf,
    /// The product's state dir.
    pub state_dir: PathBuf,
    /// Claude Code's config dir (`$CLAUDE_CONFIG_DIR` or `~/.claude`).
    pub config_dir: PathBuf,
    /// The running binary, when known.
    pub binary: Option<PathBuf>,
    /// The programmer-hook binaries Claude Code's settings run (the `command` of its own
    /// handlers in `{config}/settings.json`), which `{binary}` names too.
    pub installed: Vec<PathBuf>,
    /// The environment the call inherits sets `CDPATH` (not empty): a `cd NAME` there may go
    /// to a folder of it, as one the script sets does.
    pub cdpath: bool,
}

/// Expands the placeholders a path pattern may use: `~`, `{home}`, `{state}`, `{config}`,
/// `{binary}` (the running binary). Returns `None` when the pattern names a place that is not
/// known.
pub fn expand_pattern<'a>(pattern: &'a str, places: &Places) -> Option<std::borrow::Cow<'a, str>> {
    expand_with(pattern, places, places.binary.as_deref())
}

/// Every expansion of a path pattern: as [`expand_pattern`], with `{binary}` standing for the
/// running binary and for each binary the installed settings run.
pub fn expand_pattern_all<'a, 'p>(
    pattern: &'a str,
    places: &'p Places,
) -> impl Iterator<Item = std::borrow::Cow<'a, str>> + 'p
where
    'a: 'p,
{
    // A cheap test first: this runs for every pattern of the path lists on every call.
    let installed =
        if !places.installed.is_empty() && pattern.contains('{') && pattern.contains("{binary}") {
            places.installed.as_slice()
        } else {
            &[]
        };
    expand_pattern(pattern, places).into_iter().chain(
        installed
            .iter()
            .filter_map(move |b| expand_with(pattern, places, Some(b))),
    )
}

fn expand_with<'a>(
    pattern: &'a str,
    places: &Places,
    binary: Option<&Path>,
) -> Option<std::borrow::Cow<'a, str>> {
    // Most patterns name no place: no copy for them.
    if !pattern.starts_with('~') && !pattern.contains('{') {
        return Some(std::borrow::Cow::Borrowed(pattern));
    }
    let home = places.home.to_string_lossy();
    let mut out = String::with_capacity(pattern.len() + home.len());
    let mut rest = pattern;
    if pattern == "~" || pattern.starts_with("~/") {
        out.push_str(&home);
        rest = &pattern[1..];
    }
    // One pass over the pattern: each place name is filled in once, and what is filled in
    // is not read again.
    while let Some(i) = rest.find('{') {
        out.push_str(&rest[..i]);
        let tail = &rest[i..];
        let (name, value) = if tail.starts_with("{home}") {
            ("{home}", home.clone())
        } else if tail.starts_with("{state}") {
            ("{state}", places.state_dir.to_string_lossy())
        } else if tail.starts_with("{config}") {
            ("{config}", places.config_dir.to_string_lossy())
        } else if tail.starts_with("{binary}") {
            ("{binary}", binary?.to_string_lossy())
        } else {
            ("{", std::borrow::Cow::Borrowed("{"))
        };
        out.push_str(&value);
        rest = &tail[name.len()..];
    }
    out.push_str(rest);
    Some(std::borrow::Cow::Owned(out))
}

/// The places the tests of this folder resolve against.
#[cfg(test)]
pub(super) fn test_places() -> Places {
    Places {
        home: PathBuf::from("/home/u"),
        state_dir: PathBuf::from("/home/u/.claude/state/programmer"),
        config_dir: PathBuf::from("/home/u/.claude"),
        binary: Some(PathBuf::from("/home/u/.local/bin/programmer-hook")),
        installed: vec![PathBuf::from("/opt/ph/programmer-hook")],
        cdpath: false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_name_places() {
        let p = test_places();
        let cases: &[(&str, Option<&str>)] = &[
            (".env", Some(".env")),
            ("~", Some("/home/u")),
            ("~/.ssh/**", Some("/home/u/.ssh/**")),
            ("~other/x", Some("~other/x")),
            ("{home}/.aws/**", Some("/home/u/.aws/**")),
            ("{state}/**", Some("/home/u/.claude/state/programmer/**")),
            (
                "{config}/settings.json",
                Some("/home/u/.claude/settings.json"),
            ),
            ("{binary}", Some("/home/u/.local/bin/programmer-hook")),
            (
                "{home}/{state}",
                Some("/home/u//home/u/.claude/state/programmer"),
            ),
            ("/a/{x}/b", Some("/a/{x}/b")),
            ("/a/{", Some("/a/{")),
        ];
        for (pattern, want) in cases {
            assert_eq!(expand_pattern(pattern, &p).as_deref(), *want, "{pattern}");
        }
        let no_binary = Places {
            binary: None,
            ..test_places()
        };
        assert_eq!(expand_pattern("{binary}", &no_binary), None);
    }

    #[test]
    fn binary_names_every_installed_copy() {
        let all: Vec<String> = expand_pattern_all("{binary}", &test_places())
            .map(|p| p.into_owned())
            .collect();
        assert_eq!(
            all,
            [
                "/home/u/.local/bin/programmer-hook",
                "/opt/ph/programmer-hook"
            ]
        );
        assert_eq!(expand_pattern_all("~/.ssh/**", &test_places()).count(), 1);
    }
}
