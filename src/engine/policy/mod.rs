//! The policy: rules as data, and the layers they come from.
//!
//! A policy is built from files of one schema (see `policy/README.md`): path lists, command
//! effects, the lists of shells, interpreters and downloaders, and rules. The defaults in
//! `policy/` are compiled into the binary. A user file may add rules, replace a rule by id or
//! disable it; a project file comes from an untrusted repository and may only make things
//! stricter, so anything in it that would relax the policy is refused with a clear error.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

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
use generated::{BUILTIN_ANY_RULES, BUILTIN_COMMAND_INDEX, BUILTIN_EFFECTS_INDEX};

/// Text in a policy: borrowed from the binary for the built-in policy, owned when read
/// from a user's or a project's file.
pub type Text = Cow<'static, str>;

/// A list of words (command names, flags, globs), stored as one string.
///
/// Policy files are read on every hook call; one allocation per list instead of one per
/// word keeps that cheap. It reads and writes as an ordinary list of strings (a single
/// string is read as a list of one word). Inside, each word is preceded by [`SEP`], so an
/// empty word (as in `args_is = [""]`, "no arguments") is kept.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct List(Text);

pub mod schema;
pub mod validate;

pub use schema::SEP;

impl List {
    pub fn iter(&self) -> impl Iterator<Item = &str> + Clone {
        self.0.split(SEP).skip(1)
    }
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    pub fn len(&self) -> usize {
        self.iter().count()
    }
    /// Whether `word` is one of the words: found with one substring search of the
    /// stored text, cheaper than going word by word on the everyday path.
    pub fn contains(&self, word: &str) -> bool {
        if word.contains(SEP) {
            return false;
        }
        let text = self.0.as_ref();
        text.match_indices(word).any(|(at, _)| {
            let end = at + word.len();
            text[..at].ends_with(SEP) && (end == text.len() || text[end..].starts_with(SEP))
        })
    }
    pub fn push(&mut self, word: &str) {
        let s = self.0.to_mut();
        s.push(SEP);
        s.push_str(word);
    }
    pub fn extend(&mut self, other: &List) {
        if self.0.is_empty() {
            self.0 = other.0.clone();
        } else if !other.0.is_empty() {
            self.0.to_mut().push_str(&other.0);
        }
    }
    /// A list from its stored form (each word preceded by [`SEP`]), for the built-in policy.
    pub const fn from_static(joined: &'static str) -> List {
        List(Cow::Borrowed(joined))
    }
}

impl<'a> IntoIterator for &'a List {
    type Item = &'a str;
    type IntoIter = Box<dyn Iterator<Item = &'a str> + 'a>;
    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

impl<S: AsRef<str>> FromIterator<S> for List {
    fn from_iter<I: IntoIterator<Item = S>>(it: I) -> Self {
        let mut l = List::default();
        for w in it {
            l.push(w.as_ref());
        }
        l
    }
}

impl Serialize for List {
    fn serialize<Se: serde::Serializer>(&self, ser: Se) -> Result<Se::Ok, Se::Error> {
        ser.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for List {
    fn deserialize<D: serde::Deserializer<'de>>(de: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = List;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list of strings")
            }
            fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<List, A::Error> {
                let mut l = List::default();
                while let Some(w) = seq.next_element::<std::borrow::Cow<'de, str>>()? {
                    if w.contains(SEP) {
                        return Err(serde::de::Error::custom(
                            "list words may not contain the control character U+001F",
                        ));
                    }
                    l.push(&w);
                }
                Ok(l)
            }
            // A plain string is a list of one word.
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<List, E> {
                if v.contains(SEP) {
                    return Err(E::custom(
                        "list words may not contain the control character U+001F",
                    ));
                }
                let mut l = List::default();
                l.push(v);
                Ok(l)
            }
        }
        de.deserialize_any(V)
    }
}

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
    pub id: Text,
    #[serde(default = "default_tier")]
    pub tier: Tier,
    #[serde(default)]
    pub reason: Text,
    /// What to do instead (shown with a denial).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub instead: Option<Text>,
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
    /// [`schema::NEVER_RELAXED_EFFECTS`] may not be relaxable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<Text>,
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
    pub line_regex: Option<Text>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line_not_regex: Option<Text>,
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
    pub signal: Option<Text>,

    /// Inline examples this rule must match / must not match (see `policy test`).
    #[serde(default, rename = "match", skip_serializing_if = "Vec::is_empty")]
    pub examples_match: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_match: Vec<String>,
}

fn default_tier() -> Tier {
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

/// Which of a command's positional arguments an effect applies to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Select {
    /// Every one.
    All,
    /// All but the first (`grep PATTERN FILE…`).
    AfterFirst,
    /// All but the last, when there are several (`cp SRC… DEST` reads).
    AllButLast,
    /// The last, when there are several (`cp SRC… DEST` writes).
    Last,
    /// The first.
    First,
}

/// What a command's first positional argument is, when it is not a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FirstValue {
    /// A file mode (`chmod 755 f`, `chmod u+x f`): not a file when it has a mode's shape.
    Mode,
    /// An owner or group (`chown bob:bob f`): not a file, unless `--reference` names the
    /// file to take them from.
    Owner,
}

/// What a command does to the paths in its arguments.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Effects {
    /// Which positional arguments it reads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reads: Option<Select>,
    /// Which positional arguments it writes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub writes: Option<Select>,
    /// Which positional arguments it only looks up, never opening them (`ls`, `stat`):
    /// neither read nor written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub names: Option<Select>,
    /// It copies or moves its other arguments into the last one, or into the folder given
    /// with a `write_flags` option, when that is a folder: `cp a b/` writes `b/a`.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub into_folder: bool,
    /// The table names every option the program takes (`flags` and the option lists
    /// below), and a positional argument that `reads` and `writes` do not select is data.
    /// Without it, an option the table does not list may take any word as a file, and so
    /// may a positional argument it does not select.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub complete: bool,
    /// Options that take no value (for a `complete` table).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub flags: List,
    /// `key=` arguments that name a file read (e.g. `if=` for dd).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub read_keys: List,
    /// The first positional argument is a mode or an owner, not a file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_is: Option<FirstValue>,
    /// `key=` arguments that name a written file (e.g. `of=` for dd).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub write_keys: List,
    /// Options that take a value in the next word (so the value is not a positional).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub value_flags: List,
    /// Options whose value names a file that is read (`--exclude-from FILE`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub read_flags: List,
    /// Options whose value names a written file (`-o FILE`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub write_flags: List,
    /// Options that give the pattern or script, so that `after-first` means `all`
    /// (`grep -e PAT FILE`, `sed -e SCRIPT FILE`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub pattern_flags: List,
    /// Options that make the command write the files it reads (`sed -i`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub in_place_flags: List,
    /// Options that make the command only read: what it would write, it reads instead
    /// (`gzip -c` prints, `tar -t` lists).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub read_only_flags: List,
    /// What it does to git history on git's behalf, by subcommand: `"version *: commit tag"`
    /// (`npm version patch` commits and tags). The words before `:` are the leading
    /// positional words (`*` is any word), the words after it git actions, which the
    /// workflow's phase gates treat as that git command.
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub git_actions: List,
    /// Options that mean it does none of its `git_actions` (`--no-git-tag-version`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub git_actions_unless: List,
    /// Options whose value names a file sent off the machine (`curl -T FILE`).
    #[serde(default, skip_serializing_if = "List::is_empty")]
    pub send_flags: List,
}

/// The path lists.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PathLists {
    #[serde(default)]
    pub protected: List,
    #[serde(default)]
    pub sensitive: List,
    #[serde(default)]
    pub not_sensitive: List,
    #[serde(default)]
    pub system: List,
    /// Container engines' sockets (a name alone matches at any depth).
    #[serde(default)]
    pub engine_sockets: List,
    /// Files another program runs later or the agent reads as instructions.
    #[serde(default)]
    pub runs_later: List,
}

impl PathLists {
    fn extend(&mut self, o: &PathLists) {
        self.protected.extend(&o.protected);
        self.sensitive.extend(&o.sensitive);
        self.not_sensitive.extend(&o.not_sensitive);
        self.system.extend(&o.system);
        self.engine_sockets.extend(&o.engine_sockets);
        self.runs_later.extend(&o.runs_later);
    }
}

/// Lists of programs with a special meaning to the analysis.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct Kinds {
    /// Shells: `-c STRING` is a script, standard input is a script.
    #[serde(default)]
    pub shells: List,
    /// Interpreters: standard input is code.
    #[serde(default)]
    pub interpreters: List,
    /// Programs that fetch remote content.
    #[serde(default)]
    pub downloaders: List,
    /// Programs that send data off the machine: a file they name that is not a known
    /// local read (`ssh -i KEY`) is sent.
    #[serde(default)]
    pub network: List,
    /// Of those, copiers that send only when an operand names another host
    /// (`scp f host:`, not `scp a b`).
    #[serde(default)]
    pub remote_copy: List,
    /// Environment variables (globs) that change what a program loads or runs.
    #[serde(default)]
    pub exec_env: List,
    /// Environment variables whose value is itself a command (`GIT_PAGER=cat`): analysed.
    #[serde(default)]
    pub command_env: List,
    /// `git -c key=value` keys that are harmless (globs).
    #[serde(default)]
    pub git_safe_config: List,
    /// Git setting keys whose value is a command (globs, `core.pager`): the value is judged
    /// as one. Other keys that are not harmless are opaque.
    #[serde(default)]
    pub git_command_config: List,
    /// Programs that run the rest of their arguments as a command, and that the policy
    /// knows for their own verdict (`pkexec CMD`): a forbidden command among their
    /// arguments makes the call forbidden.
    #[serde(default)]
    pub runners: List,
    /// Runners whose command runs on another machine or in a container (`ssh HOST CMD`,
    /// `docker exec C CMD`): there only a rule about the command itself counts, not one
    /// about the local files its words would name.
    #[serde(default)]
    pub remote_runners: List,
}

impl Kinds {
    fn extend(&mut self, o: &Kinds) {
        self.shells.extend(&o.shells);
        self.interpreters.extend(&o.interpreters);
        self.downloaders.extend(&o.downloaders);
        self.network.extend(&o.network);
        self.remote_copy.extend(&o.remote_copy);
        self.exec_env.extend(&o.exec_env);
        self.command_env.extend(&o.command_env);
        self.git_safe_config.extend(&o.git_safe_config);
        self.git_command_config.extend(&o.git_command_config);
        self.runners.extend(&o.runners);
        self.remote_runners.extend(&o.remote_runners);
    }
}

/// Workflow settings.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct WorkflowSettings {
    /// Rounds of requested changes before the workflow halts.
    #[serde(default = "default_rounds")]
    pub max_review_rounds: u32,
    /// Days the daily audit log files are kept (0: forever); only the user's file may say.
    #[serde(default = "default_retention")]
    pub log_retention_days: u32,
}

impl WorkflowSettings {
    /// Rounds of requested changes before a workflow halts, unless a policy says otherwise.
    pub const DEFAULT_REVIEW_ROUNDS: u32 = schema::DEFAULT_REVIEW_ROUNDS;
}

fn default_rounds() -> u32 {
    schema::DEFAULT_REVIEW_ROUNDS
}

fn default_retention() -> u32 {
    schema::DEFAULT_LOG_RETENTION_DAYS
}

impl Default for WorkflowSettings {
    fn default() -> Self {
        WorkflowSettings {
            max_review_rounds: default_rounds(),
            log_retention_days: default_retention(),
        }
    }
}

/// One policy file as written.
#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct PolicyFile {
    #[serde(default)]
    pub paths: PathLists,
    #[serde(default)]
    pub kinds: Kinds,
    #[serde(default)]
    pub commands: BTreeMap<Text, Effects>,
    #[serde(default)]
    pub workflow: Option<WorkflowSettings>,
    #[serde(default, rename = "rule")]
    pub rules: Vec<Rule>,
}

/// Where a layer comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Layer {
    Default,
    User,
    Project,
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

impl fmt::Display for Layer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Layer::Default => "default",
            Layer::User => "user",
            Layer::Project => "project",
        })
    }
}

/// The file a layer was read from: one of the built-in files (`policy/NAME.toml`), the
/// user's file or a project's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Origin {
    pub layer: Layer,
    pub file: Text,
}

/// What a later layer did to a rule of an earlier one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Override {
    /// A rule of the same id took its place.
    Replaced,
    /// `disabled = true` removed it.
    Disabled,
}

/// A rule that is no longer in force as its layer wrote it, and the layer that changed it.
#[derive(Debug, Clone)]
pub struct Overridden {
    /// The rule as the earlier layer had it.
    pub rule: RuleRef,
    /// Where that rule came from.
    pub origin: Origin,
    pub action: Override,
    /// The layer that replaced or disabled it.
    pub by: Origin,
}

/// The merged policy the classifier uses.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    pub paths: PathLists,
    pub kinds: Kinds,
    /// Command effects from user and project files; the built-in ones are in
    /// [`DEFAULT_FILES`] (see [`Policy::effects`]).
    pub commands: BTreeMap<Text, Effects>,
    pub workflow: WorkflowSettings,
    /// The rules in force: the built-in ones borrowed from the binary, others owned.
    /// Changed only through [`Policy::merge`], which keeps [`Policy::index`] in step.
    rules: Vec<RuleRef>,
    /// The layers merged, in order: each built-in file, then the user's and a project's.
    origins: Vec<Origin>,
    /// For each rule in force, at the same position: the index in [`Policy::origins`] of
    /// the layer it came from (kept in step by [`Policy::merge`]).
    rule_origins: Vec<u16>,
    /// The rules a later layer replaced or disabled, in the order that happened.
    overridden: Vec<Overridden>,
    /// The protected paths a project's file added, so that a denial can say the project's
    /// own policy is why.
    pub project_protected: List,
    /// Whether a layer changed the rules. While it has not, command rules are found in
    /// the index `build.rs` made of the built-in rules; after, in [`Policy::index`].
    custom_rules: bool,
    /// Which command rules apply to which program name, built once enough names were
    /// looked up (see [`Policy::command_rules`]).
    index: OnceLock<CommandIndex>,
    /// How many names were looked up by scanning the rules.
    scans: Counter,
}

/// A counter a shared policy can bump; a copy starts from the same count.
#[derive(Debug, Default)]
struct Counter(AtomicU32);

impl Clone for Counter {
    fn clone(&self) -> Counter {
        Counter(AtomicU32::new(self.0.load(Ordering::Relaxed)))
    }
}

/// How many names are looked up by scanning the rules before an index is built.
const SCANS_BEFORE_INDEX: u32 = 8;

/// Command rules by program name, so a command with thousands of programs costs one hash
/// lookup per program rather than a scan of every rule.
#[derive(Debug, Clone, Default)]
struct CommandIndex {
    /// For each name: the positions in [`Policy::rules`] of its own rules and the `*`
    /// rules, in policy order (ties between rules are settled by that order).
    by_name: HashMap<String, Vec<u32>>,
    /// The positions of the `*` rules, for names no rule names.
    any: Vec<u32>,
}

impl CommandIndex {
    fn build(rules: &[RuleRef]) -> CommandIndex {
        let (by_name, any) = schema::command_index(rules.iter().map(|r| r.command.iter()));
        CommandIndex {
            by_name: by_name.into_iter().collect(),
            any,
        }
    }
}

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

    /// The defaults plus the user and project layers that exist.
    pub fn load(user_file: Option<&Path>, project_file: Option<&Path>) -> Result<Policy> {
        let mut p = Policy::builtin()?;
        for (path, layer) in [(user_file, Layer::User), (project_file, Layer::Project)] {
            let Some(path) = path else { continue };
            let text = match std::fs::read_to_string(path) {
                Ok(t) => t,
                // No file (or a state dir that is not a folder): no layer. The gate decides on
                // the defaults; `doctor` reports a broken state dir.
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::NotFound | std::io::ErrorKind::NotADirectory
                    ) =>
                {
                    continue
                }
                Err(e) => {
                    return Err(e)
                        .with_context(|| format!("cannot read policy file {}", path.display()))
                }
            };
            let file = parse_file(&text, path)?;
            p.merge(file, layer, &path.display().to_string())?;
        }
        Ok(p)
    }

    /// Adds one layer. Project layers may only add restrictions.
    pub fn merge(&mut self, file: PolicyFile, layer: Layer, source: &str) -> Result<()> {
        let mut problems = self.file_problems(&file, layer);
        for (i, r) in file.rules.iter().enumerate() {
            problems.extend(self.rule_problems(r, i, layer));
        }
        problems.extend(duplicate_ids(&file.rules));
        if !problems.is_empty() {
            bail!("{source}: {}", problems.join("; "));
        }
        self.index = OnceLock::new();
        self.scans = Counter::default();
        self.custom_rules |= !file.rules.is_empty();
        let by = self.add_origin(layer, Cow::Owned(source.to_string()))?;
        for r in file.rules {
            if let Some(pos) = self.rules.iter().position(|x| x.id == r.id) {
                let (action, was, from) = if r.disabled {
                    let was = self.rules.remove(pos);
                    (Override::Disabled, was, self.rule_origins.remove(pos))
                } else {
                    let was = std::mem::replace(&mut self.rules[pos], RuleRef::Layer(Box::new(r)));
                    let from = std::mem::replace(&mut self.rule_origins[pos], by);
                    (Override::Replaced, was, from)
                };
                self.overridden.push(Overridden {
                    rule: was,
                    origin: self.origins[usize::from(from)].clone(),
                    action,
                    by: self.origins[usize::from(by)].clone(),
                });
            } else if !r.disabled {
                self.rules.push(RuleRef::Layer(Box::new(r)));
                self.rule_origins.push(by);
            }
        }
        self.paths.extend(&file.paths);
        if layer == Layer::Project {
            self.project_protected.extend(&file.paths.protected);
        }
        self.kinds.extend(&file.kinds);
        self.commands.extend(file.commands);
        if let Some(w) = file.workflow {
            self.workflow = w;
        }
        Ok(())
    }

    /// What is wrong with rule `r` (the `index`-th of its file) in a file of `layer`, merged
    /// over this policy: every problem, so that `policy validate` can list them all.
    pub fn rule_problems(&self, r: &Rule, index: usize, layer: Layer) -> Vec<String> {
        let mut out = Vec::new();
        if r.id.trim().is_empty() {
            out.push(format!("rule #{} has no id", index + 1));
            return out;
        }
        let id = &r.id;
        if !r.disabled && r.kind().is_none() {
            out.push(format!(
                "rule {id:?} must name exactly one of `tool`, `command`, `access` or `signal`"
            ));
        }
        if r.relaxable && r.tier != Tier::Confirm {
            out.push(format!(
                "rule {id:?} is {} but sets `relaxable = true`; only Confirm rules may be relaxable",
                r.tier
            ));
        }
        if r.contained && r.tier != Tier::Confirm {
            out.push(format!(
                "rule {id:?} is {} but sets `contained = true`; only Confirm rules may be contained",
                r.tier
            ));
        }
        if r.contained && r.relaxable {
            out.push(format!(
                "rule {id:?} sets both `relaxable` and `contained`; a rule is one or the other"
            ));
        }
        if let Some(e) = r.effect.as_deref() {
            out.extend(
                schema::effect_problem(e, r.tier == Tier::Confirm, r.relaxable, r.contained)
                    .map(|p| format!("rule {id:?}: {p}")),
            );
        }
        if let Some(s) = r.signal.as_deref().filter(|s| !schema::SIGNALS.contains(s)) {
            out.push(format!(
                "rule {id:?} names the signal {s:?}, which the analysis never raises (one of: {})",
                schema::SIGNALS.join(", ")
            ));
        }
        // The defaults' regexes are checked by the test suite, not on every hook call.
        if layer != Layer::Default {
            for re in r.line_regex.iter().chain(r.line_not_regex.iter()) {
                if let Err(e) = regex_lite::Regex::new(re) {
                    out.push(format!("rule {id:?} has an invalid regex {re:?}: {e}"));
                }
            }
        }
        let exists = self.rules.iter().any(|x| x.id == r.id);
        if r.disabled && !exists && layer != Layer::Project {
            out.push(format!(
                "rule {id:?} is disabled, but no rule has that id (`programmer-hook policy show` lists them)"
            ));
        }
        if layer == Layer::Project {
            out.extend(project_rule_problem(r, exists));
        }
        out
    }

    /// What is wrong with the parts of a file other than its rules, in a file of `layer`:
    /// a project file may only make the policy stricter.
    pub fn file_problems(&self, file: &PolicyFile, layer: Layer) -> Vec<String> {
        let mut out = Vec::new();
        if layer != Layer::Project {
            return out;
        }
        if !file.paths.not_sensitive.is_empty() {
            out.push("`paths.not_sensitive` would relax the policy; a project policy may only add to protected, sensitive, system and engine_sockets paths".to_string());
        }
        for name in file.commands.keys() {
            if self.effects(name).is_some() {
                out.push(format!("the effects of {name:?} are already defined; a project policy may not change them"));
            }
        }
        if file.workflow.is_some() {
            out.push("a project policy may not change workflow settings".to_string());
        }
        if !file.kinds.git_safe_config.is_empty() {
            out.push("`kinds.git_safe_config` would relax the policy; a project policy may not add to it".to_string());
        }
        out
    }

    /// The rules in force, in order.
    pub fn rules(&self) -> &[RuleRef] {
        &self.rules
    }

    /// The rules in force, in order, each with the layer and file it came from.
    pub fn rules_with_origins(&self) -> impl Iterator<Item = (&Rule, &Origin)> {
        self.rules
            .iter()
            .zip(&self.rule_origins)
            .map(|(r, &o)| (&**r, &self.origins[usize::from(o)]))
    }

    /// The rules a later layer replaced or disabled, in the order that happened.
    pub fn overridden(&self) -> &[Overridden] {
        &self.overridden
    }

    /// The layers merged so far, in order (each built-in file is one).
    pub fn origins(&self) -> &[Origin] {
        &self.origins
    }

    /// Where the layers came from, for messages: the built-in defaults, then each file.
    pub fn sources(&self) -> Vec<String> {
        let mut out = Vec::new();
        if self.origins.iter().any(|o| o.layer == Layer::Default) {
            out.push("built-in defaults".to_string());
        }
        out.extend(
            self.origins
                .iter()
                .filter(|o| o.layer != Layer::Default)
                .map(|o| o.file.to_string()),
        );
        out
    }

    /// Records a layer; returns its index in [`Policy::origins`].
    fn add_origin(&mut self, layer: Layer, file: Text) -> Result<u16> {
        let index = u16::try_from(self.origins.len())
            .context("too many policy layers merged into one policy")?;
        self.origins.push(Origin { layer, file });
        Ok(index)
    }

    /// Rules that may apply to a command name (its own and the `*` rules), in policy order.
    pub fn command_rules<'a>(&'a self, name: &str) -> Box<dyn Iterator<Item = &'a Rule> + 'a> {
        let positions: &[u32] = if self.custom_rules {
            // A layer changed the rules. Building an index costs about as much as a few
            // scans of all rules, so the first few names are found by a scan.
            let index = match self.index.get() {
                Some(index) => index,
                None if self.scans.0.fetch_add(1, Ordering::Relaxed) < SCANS_BEFORE_INDEX => {
                    let name = name.to_string();
                    return Box::new(
                        self.rules
                            .iter()
                            .map(|r| &**r)
                            .filter(move |r| r.command.iter().any(|c| c == name || c == "*")),
                    );
                }
                None => self.index.get_or_init(|| CommandIndex::build(&self.rules)),
            };
            index.by_name.get(name).unwrap_or(&index.any)
        } else {
            BUILTIN_COMMAND_INDEX
                .binary_search_by(|(n, _)| (*n).cmp(name))
                .map_or(BUILTIN_ANY_RULES, |i| BUILTIN_COMMAND_INDEX[i].1)
        };
        Box::new(positions.iter().map(|&i| &*self.rules[i as usize]))
    }

    /// Whether a layer above the defaults (the user's or a project's file) was merged.
    pub fn is_customised(&self) -> bool {
        self.origins.iter().any(|o| o.layer != Layer::Default)
    }

    pub fn rules_of(&self, kind: RuleKind) -> impl Iterator<Item = &Rule> {
        self.rules
            .iter()
            .map(|r| &**r)
            .filter(move |r| r.kind() == Some(kind))
    }

    /// What a command does to its arguments: a user's or project's entry, else the
    /// built-in one (found through the index `build.rs` made, without copying).
    pub fn effects(&self, name: &str) -> Option<&Effects> {
        self.commands.get(name).or_else(|| {
            let i = BUILTIN_EFFECTS_INDEX
                .binary_search_by(|(n, _, _)| (*n).cmp(name))
                .ok()?;
            let (_, file, entry) = BUILTIN_EFFECTS_INDEX[i];
            DEFAULT_FILES
                .get(file as usize)?
                .commands
                .get(entry as usize)
                .map(|(_, e)| e)
        })
    }

    /// Every command's effects in force (for `policy show`).
    pub fn all_effects(&self) -> BTreeMap<Text, Effects> {
        let mut all = BTreeMap::new();
        for f in DEFAULT_FILES {
            for (n, e) in f.commands {
                all.insert(Cow::Borrowed(*n), e.clone());
            }
        }
        all.extend(self.commands.iter().map(|(k, v)| (k.clone(), v.clone())));
        all
    }

    pub fn is_shell(&self, name: &str) -> bool {
        self.kinds.shells.iter().any(|s| s == name)
    }
    pub fn is_interpreter(&self, name: &str) -> bool {
        self.kinds.interpreters.iter().any(|s| s == name)
    }
    pub fn is_downloader(&self, name: &str) -> bool {
        self.kinds.downloaders.iter().any(|s| s == name)
    }
    pub fn is_network(&self, name: &str) -> bool {
        self.kinds.network.contains(name)
    }
    pub fn is_remote_copy(&self, name: &str) -> bool {
        self.kinds.remote_copy.contains(name)
    }
}

/// A project file comes from an untrusted repository: each of its rules may only make the
/// policy stricter.
fn project_rule_problem(r: &Rule, exists: bool) -> Option<String> {
    let id = &r.id;
    if exists {
        return Some(format!("rule {id:?} already exists; a project policy may only add new rules, not replace or disable existing ones"));
    }
    if r.relaxable {
        return Some(format!("rule {id:?} sets `relaxable = true`, which would let autonomy auto run it without asking; a project policy may only make the policy stricter"));
    }
    if r.contained {
        return Some(format!("rule {id:?} sets `contained = true`, which would let autonomy auto run it without asking inside the sandbox; a project policy may only make the policy stricter"));
    }
    if r.disabled || r.tier == Tier::Safe || r.fallback {
        return Some(format!("rule {id:?} would relax the policy; a project policy may only add Confirm or Forbidden rules"));
    }
    None
}

/// A rule id given twice in one file: the second would silently replace the first.
pub fn duplicate_ids(rules: &[Rule]) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    rules
        .iter()
        .filter(|r| !r.id.trim().is_empty() && !seen.insert(r.id.as_ref()))
        .map(|r| format!("rule {:?} is given twice in this file", r.id))
        .collect()
}

/// Parses a policy file, turning TOML errors into messages with line and column.
pub fn parse_file(text: &str, path: &Path) -> Result<PolicyFile> {
    toml::from_str::<PolicyFile>(text).map_err(|e| {
        let (line, col) = e.span().map(|s| line_col(text, s.start)).unwrap_or((0, 0));
        anyhow::anyhow!(
            "{}:{}:{}: {}",
            path.display(),
            line,
            col,
            e.message().trim()
        )
    })
}

/// 1-based line and column of a byte offset.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..offset.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let col = before
        .rsplit('\n')
        .next()
        .map(|l| l.chars().count())
        .unwrap_or(0)
        + 1;
    (line, col)
}

/// The user's policy file inside the state dir.
pub fn user_policy_path(state_dir: &Path) -> PathBuf {
    state_dir.join("policy.toml")
}

/// The project policy file of a repository.
pub fn project_policy_path(project_root: &Path) -> PathBuf {
    project_root.join(".claude").join("programmer-policy.toml")
}

#[cfg(test)]
mod tests;
