//! Rules: the tiers, the classes a rule matches on, and the rules in force.

use std::borrow::Cow;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::{List, PolicyText};

/// The autonomy tiers, from least to most restrictive.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize, Serialize,
)]
#[serde(rename_all = "lowercase")]
pub enum Tier {
    Safe,
    #[default]
    Confirm,
    Forbidden,
}

impl fmt::Display for Tier {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Tier::Safe => "Safe",
            Tier::Confirm => "Confirm",
            Tier::Forbidden => "Forbidden",
        })
    }
}

/// Whether an access reads or writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum AccessKind {
    Read,
    Write,
}

/// Classes a path can fall in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum PathClass {
    /// The product's own files, Claude Code settings, `~/.ssh`, `/etc`: never written.
    Protected,
    /// Secrets: `.env`, keys, credentials.
    Sensitive,
    /// System folders.
    System,
    /// `/`, home, the working directory, their ancestors, a top-level folder, their contents.
    Broad,
    /// Not known before the shell runs (a variable, a substitution).
    Unknown,
    /// Outside the folder the call runs in and the temporary folders (`/tmp`, `/var/tmp`).
    Outside,
    /// A file another program runs later, or the agent reads as instructions (the
    /// `runs_later` list): hook managers' configurations, editor tasks, a folder on `PATH`.
    RunsLater,
    /// A repository's `.git` folder or anything in it: its refs, objects, `packed-refs`,
    /// logs, index (whoever deletes or rewrites them, history may be lost).
    GitHistory,
}

/// Classes of the host path a container mounts (`-v SRC:DST`, `--mount source=SRC`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum MountClass {
    /// The file system's root, `/`.
    Root,
    /// The home folder or one of its ancestors, or another user's home folder.
    Home,
    /// A folder of the `system` path list.
    System,
    /// A path of the `sensitive` list: keys, credentials, `~/.ssh`, `~/.gnupg`.
    Secrets,
    /// A container engine's socket (the `engine_sockets` list) or a folder that holds one.
    EngineSocket,
    /// Mounted writable: a path of the `protected` list, or a folder above one of its
    /// paths from the root (`~/.claude`, which holds the settings).
    Protected,
}

/// One rule. Every matcher that is given must hold.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    pub id: PolicyText,
    #[serde(default = "default_tier")]
    pub tier: Tier,
    #[serde(default)]
    pub reason: PolicyText,
    /// What to do instead (shown with a denial).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instead: Option<PolicyText>,
    /// Applies only when no other rule of its kind matched.
    #[serde(default, skip_serializing_if = "is_false")]
    pub fallback: bool,
    /// For a Confirm rule: what it matches was understood (a named write in the project,
    /// an install, a build, a git write…), so a session whose autonomy is `auto` may run
    /// it without asking. Without it a Confirm rule is opaque: always asked.
    #[serde(default, skip_serializing_if = "is_false")]
    pub relaxable: bool,
    /// For a Confirm rule: what it matches runs code inside the project that the hook
    /// cannot read (a build, a test run, a script, an interpreter), whose effects the hook
    /// cannot see but Claude Code's sandbox confines. A session whose autonomy is `auto` runs
    /// it without asking only when the call runs in that sandbox; otherwise it is asked.
    #[serde(default, skip_serializing_if = "is_false")]
    pub contained: bool,
    /// For a Confirm rule: what the call it matches does (`git-recoverable`,
    /// `discard-work` …), shown in `policy check` and the audit log. The effects of
    /// [`super::schema::NEVER_RELAXED_EFFECTS`] may not be relaxable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<PolicyText>,
    /// Removes a rule of the same id from a lower layer.
    #[serde(default, skip_serializing_if = "is_false")]
    pub disabled: bool,

    /// Tool names (globs) this rule applies to, for tool rules.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub tool: List,
    /// Command names (basenames) for command rules; `*` for any.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub command: List,
    /// Leading positional words, e.g. `status` or `stash list`; any of them.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub subcommand: List,
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub flags_any: List,
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub flags_none: List,
    /// Glob patterns; some argument (after the name) must match one.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub args_any: List,
    /// Glob patterns; no argument may match any.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub args_none: List,
    /// Regex over the command line (words joined by single spaces).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line_regex: Option<PolicyText>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line_not_regex: Option<PolicyText>,
    /// The arguments, joined by single spaces, are exactly one of these.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub args_is: List,
    /// Every argument is one of these: an option named here (a cluster `-abc` letter by
    /// letter) with its value (per `value_flags`), or a positional word matching one of the
    /// globs here that do not start with `-`.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub args_only: List,
    /// Maximum number of positional arguments (e.g. `0` for a bare `env`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_positional: Option<usize>,
    /// Some positional argument (or, for access rules, the path) is in one of these classes.
    #[serde(default, skip_serializing_if = "<[PathClass]>::is_empty")]
    pub path_class: Cow<'static, [PathClass]>,
    /// For container commands: some host path the arguments mount (`-v`, `--volume`,
    /// `--mount`) is in one of these classes.
    #[serde(default, skip_serializing_if = "<[MountClass]>::is_empty")]
    pub mount_source: Cow<'static, [MountClass]>,
    /// For access rules: the kind of access.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub access: Option<AccessKind>,
    /// For signal rules: the signal name raised by the analysis.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signal: Option<PolicyText>,

    /// Inline examples this rule must match / must not match (see `policy test`).
    #[serde(default, rename = "match", skip_serializing_if = "Vec::is_empty")]
    pub examples_match: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_match: Vec<String>,

    /// The rule comes from the managed policy of the machine, whose verdicts the user's and
    /// a project's rules cannot loosen (set when the layer is merged, never read from a file).
    #[serde(skip)]
    pub managed: bool,
    /// The rule comes from the user's or a project's file (set when the layer is merged):
    /// such a rule matching does not keep the managed policy's fallbacks from applying.
    #[serde(skip)]
    pub layered: bool,
}

pub(super) fn default_tier() -> Tier {
    Tier::Confirm
}
fn is_false(b: &bool) -> bool {
    !*b
}

/// What kind of fact a rule applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RuleKind {
    Tool,
    Command,
    Access,
    Signal,
}

impl Rule {
    pub fn kind(&self) -> Option<RuleKind> {
        let kinds = [
            (!self.tool.is_empty(), RuleKind::Tool),
            (!self.command.is_empty(), RuleKind::Command),
            (self.access.is_some(), RuleKind::Access),
            (self.signal.is_some(), RuleKind::Signal),
        ];
        let mut found = kinds.iter().filter(|(on, _)| *on).map(|(_, k)| *k);
        let first = found.next();
        if found.next().is_some() {
            return None;
        }
        first
    }
}

/// A rule in force: one compiled into the binary, referenced where it lies, or one a
/// layer's file added, on the heap. A pointer either way: the list of some 500 rules every
/// call builds stays a few kilobytes (a `Cow<Rule>` is as large as a rule, and writing
/// that list cost every call dozens of freshly zeroed pages).
#[derive(Debug, Clone)]
pub enum RuleRef {
    Builtin(&'static Rule),
    Layer(Box<Rule>),
}

impl std::ops::Deref for RuleRef {
    type Target = Rule;
    fn deref(&self) -> &Rule {
        match self {
            RuleRef::Builtin(r) => r,
            RuleRef::Layer(r) => r,
        }
    }
}

impl RuleRef {
    /// The rule as a value of its own.
    pub fn into_owned(self) -> Rule {
        match self {
            RuleRef::Builtin(r) => r.clone(),
            RuleRef::Layer(r) => *r,
        }
    }
}
