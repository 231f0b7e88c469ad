//! The merged policy and the layers it is built from: the defaults, then the user's file,
//! then a project's, each recorded with where it came from.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use anyhow::{bail, Context, Result};
use serde::Serialize;

use super::checks::duplicate_ids;
use super::index::{CommandIndex, Counter};
use super::{
    parse_file, Effects, Kinds, List, PathLists, PolicyFile, PolicyText, Rule, RuleRef,
    WorkflowSettings,
};

/// Where a layer comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Layer {
    Default,
    /// The managed policy of the machine, beside Claude Code's managed settings: a floor
    /// the later layers cannot lower.
    Managed,
    User,
    Project,
}

impl fmt::Display for Layer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Layer::Default => "default",
            Layer::Managed => "managed",
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
    pub file: PolicyText,
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
    /// [`super::DEFAULT_FILES`] (see [`Policy::effects`]).
    pub commands: BTreeMap<PolicyText, Effects>,
    pub workflow: WorkflowSettings,
    /// The rules in force: the built-in ones borrowed from the binary, others owned.
    /// Changed only through [`Policy::merge`], which keeps [`Policy::index`] in step.
    pub(super) rules: Vec<RuleRef>,
    /// The layers merged, in order: each built-in file, then the user's and a project's.
    pub(super) origins: Vec<Origin>,
    /// For each rule in force, at the same position: the index in [`Policy::origins`] of
    /// the layer it came from (kept in step by [`Policy::merge`]).
    pub(super) rule_origins: Vec<u16>,
    /// The rules a later layer replaced or disabled, in the order that happened.
    pub(super) overridden: Vec<Overridden>,
    /// The protected paths a project's file added, so that a denial can say the project's
    /// own policy is why.
    pub project_protected: List,
    /// The sensitive paths the managed policy added: a later layer's `not_sensitive` does
    /// not take them off the list.
    pub managed_sensitive: List,
    /// Whether the managed policy brought rules, whose verdicts are a floor (see
    /// [`Rule::managed`]).
    pub(super) managed_rules: bool,
    /// Whether a layer changed the rules. While it has not, command rules are found in
    /// the index `build.rs` made of the built-in rules; after, in [`Policy::index`].
    pub(super) custom_rules: bool,
    /// Which command rules apply to which program name, built once enough names were
    /// looked up (see [`Policy::command_rules`]).
    pub(super) index: OnceLock<CommandIndex>,
    /// How many names were looked up by scanning the rules.
    pub(super) scans: Counter,
}

impl Policy {
    /// The defaults plus the managed, user and project layers that exist. A managed file
    /// that exists but does not load is an error naming it, as a user's or project's is:
    /// the hook then denies every call, the strictest reading of rules it cannot read.
    pub fn load(
        managed_file: Option<&Path>,
        user_file: Option<&Path>,
        project_file: Option<&Path>,
    ) -> Result<Policy> {
        let mut p = Policy::builtin()?;
        let layers = [
            (managed_file, Layer::Managed),
            (user_file, Layer::User),
            (project_file, Layer::Project),
        ];
        for (path, layer) in layers {
            let Some(path) = path else { continue };
            if layer == Layer::Managed {
                p.merge_file(path, layer).with_context(|| {
                    format!(
                        "the managed policy {} does not load, so every tool call is denied until the administrator of this machine fixes it",
                        path.display()
                    )
                })?;
            } else {
                p.merge_file(path, layer)?;
            }
        }
        Ok(p)
    }

    /// Reads and merges one layer's file; a file that is not there is no layer.
    fn merge_file(&mut self, path: &Path, layer: Layer) -> Result<()> {
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
                return Ok(())
            }
            Err(e) => {
                return Err(e)
                    .with_context(|| format!("cannot read policy file {}", path.display()))
            }
        };
        let file = parse_file(&text, path)?;
        self.merge(file, layer, &path.display().to_string())
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
        self.managed_rules |= layer == Layer::Managed && !file.rules.is_empty();
        for mut r in file.rules {
            r.managed = layer == Layer::Managed;
            r.layered = matches!(layer, Layer::User | Layer::Project);
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
        if layer == Layer::Managed {
            self.managed_sensitive.extend(&file.paths.sensitive);
        }
        self.kinds.extend(&file.kinds);
        self.commands.extend(file.commands);
        if let Some(w) = file.workflow {
            self.workflow = w;
        }
        Ok(())
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
    pub(super) fn add_origin(&mut self, layer: Layer, file: PolicyText) -> Result<u16> {
        let index = u16::try_from(self.origins.len())
            .context("too many policy layers merged into one policy")?;
        self.origins.push(Origin { layer, file });
        Ok(index)
    }

    /// Whether the managed policy brought rules: their verdicts are then a floor that the
    /// classifier keeps whatever the later layers' rules say.
    pub fn has_managed_rules(&self) -> bool {
        self.managed_rules
    }

    /// Whether a layer above the defaults (the managed, the user's or a project's file) was
    /// merged.
    pub fn is_customised(&self) -> bool {
        self.origins.iter().any(|o| o.layer != Layer::Default)
    }
}

/// The user's policy file inside the state dir.
pub fn user_policy_path(state_dir: &Path) -> PathBuf {
    state_dir.join("policy.toml")
}

/// The project policy file of a repository.
pub fn project_policy_path(project_root: &Path) -> PathBuf {
    project_root.join(".claude").join("programmer-policy.toml")
}
