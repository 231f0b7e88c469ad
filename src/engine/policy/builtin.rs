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
    use super::*;
    include!(concat!(env!("OUT_DIR"), "/default_policy.rs"));
}
pub use generated::DEFAULT_FILES;
pub(super) use generated::{BUILTIN_ANY_RULES, BUILTIN_COMMAND_INDEX, BUILTIN_EFFECTS_INDEX};

impl Policy {
    /// The built-in defaults.
    pub fn builtin() -> Result<Policy> {
        let mut p = Policy::default();
        for f in DEFAULT_FILES {
            let origin = p.add_origin(Layer::Default, Cow::Borrowed(f.name))?;
            p.rules.extend(f.rules.iter().map(RuleRef::Builtin));
            p.rule_origins
                .extend(std::iter::repeat_n(origin, f.rules.len()));
            p.paths.extend(&f.paths);
            p.kinds.extend(&f.kinds);
            if let Some(w) = &f.workflow {
                p.workflow = w.clone();
            }
        }
        Ok(p)
    }
}
