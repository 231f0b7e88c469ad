//! The built-in policy: the files of `policy/`, compiled into the binary by `build.rs`.

use std::borrow::Cow;

use anyhow::Result;

use super::*;

/// One built-in policy file, compiled into the binary by `build.rs`.
pub struct BuiltinFile {
    pub name: &'static str,
    /// The TOML source, with the inline examples (read by `policy test`).
    pub source: &'static str,
    pub paths: PathLists,
    pub kinds: Kinds,
    pub commands: &'static [(&'static str, Effects)],
    pub workflow: Option<WorkflowSettings>,
    pub rules: &'static [Rule],
}

mod generated {
    use super::need::Need;
    use super::*;
    include!(concat!(env!("OUT_DIR"), "/default_policy.rs"));
}
pub use generated::DEFAULT_FILES;
pub(super) use generated::{BUILTIN_ANY_RULES, BUILTIN_COMMAND_INDEX, BUILTIN_EFFECTS_INDEX};
use generated::{BUILTIN_KINDS, BUILTIN_NAME_PATTERNS, BUILTIN_PATHLISTS, BUILTIN_PATH_NEEDS};

/// The patterns of names alone (see [`schema::names_only`]) of the built-in `sensitive` and
/// `protected` lists, found by `build.rs`, with those lists as they were joined.
pub struct NamePatterns {
    sensitive: &'static str,
    protected: &'static str,
    names: &'static [&'static str],
}

/// Each pattern of `list` and what a path must hold to match it (see [`super::need`]),
/// when it is one of the built-in path lists as `build.rs` joined them, which worked them
/// out; `None` for a list a layer changed.
pub fn builtin_path_needs(list: &List) -> Option<&'static [(&'static str, super::need::Need)]> {
    let stored = list.stored();
    BUILTIN_PATH_NEEDS
        .iter()
        .find(|(text, _)| *text == stored)
        .map(|(_, needs)| *needs)
}

impl Policy {
    /// The built-in kind lists, whatever a layer adds to them.
    pub fn builtin_kinds() -> &'static Kinds {
        &BUILTIN_KINDS
    }

    /// The built-in defaults.
    pub fn builtin() -> Result<Policy> {
        let mut p = Policy::default();
        for f in DEFAULT_FILES {
            let origin = p.add_origin(Layer::Default, Cow::Borrowed(f.name))?;
            p.rules.extend(f.rules.iter().map(RuleRef::Builtin));
            p.rule_origins
                .extend(std::iter::repeat_n(origin, f.rules.len()));
            if let Some(w) = &f.workflow {
                p.workflow = w.clone();
            }
        }
        // The files' lists joined in order, as `build.rs` joined them.
        p.paths = BUILTIN_PATHLISTS.clone();
        p.kinds = BUILTIN_KINDS.clone();
        Ok(p)
    }

    /// The files' path and kind lists joined one file after another, as a layer joins
    /// them: what [`Policy::builtin`] borrows from `build.rs` instead.
    #[cfg(test)]
    pub(super) fn builtin_lists_joined() -> (PathLists, Kinds) {
        let (mut paths, mut kinds) = (PathLists::default(), Kinds::default());
        for f in DEFAULT_FILES {
            paths.extend(&f.paths);
            kinds.extend(&f.kinds);
        }
        (paths, kinds)
    }

    /// The patterns of the `sensitive` and `protected` lists that name a file by its name
    /// alone (`.env`, `*.pem`): the only ones a word without a folder can match. Those of
    /// the built-in lists are found at build time; lists a layer changed are read here.
    pub fn name_patterns(&self) -> Cow<'_, [&str]> {
        let b = &BUILTIN_NAME_PATTERNS;
        let lists = &self.paths;
        if lists.sensitive.stored() == b.sensitive && lists.protected.stored() == b.protected {
            return Cow::Borrowed(b.names);
        }
        let all = lists.sensitive.iter().chain(lists.protected.iter());
        Cow::Owned(
            all.filter(|p| !p.is_empty() && schema::names_only(p))
                .collect(),
        )
    }
}
