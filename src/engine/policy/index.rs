//! Finding what applies to a program name in the merged policy: its command rules (through
//! an index of them), its effects and the kinds it is of.

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};
use std::sync::atomic::{AtomicU32, Ordering};

use super::builtin::{BUILTIN_ANY_RULES, BUILTIN_COMMAND_INDEX, BUILTIN_EFFECTS_INDEX};
use super::{schema, Effects, Policy, PolicyText, Rule, RuleKind, RuleRef, DEFAULT_FILES};

/// A counter a shared policy can bump; a copy starts from the same count.
#[derive(Debug, Default)]
pub(super) struct Counter(pub(super) AtomicU32);

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
pub(super) struct CommandIndex {
    /// For each name: the positions in [`Policy::rules`] of its own rules and the `*`
    /// rules, in policy order (ties between rules are settled by that order).
    pub(super) by_name: HashMap<String, Vec<u32>>,
    /// The positions of the `*` rules, for names no rule names.
    pub(super) any: Vec<u32>,
}

impl CommandIndex {
    pub(super) fn build(rules: &[RuleRef]) -> CommandIndex {
        let (by_name, any) = schema::command_index(rules.iter().map(|r| r.command.iter()));
        CommandIndex {
            by_name: by_name.into_iter().collect(),
            any,
        }
    }
}

impl Policy {
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

    pub fn rules_of(&self, kind: RuleKind) -> impl Iterator<Item = &Rule> {
        self.rules.iter().map(|r| &**r).filter(move |r| {
            // The field of the kind first: most rules are of another kind, and this runs
            // over every rule for each signal judged.
            let own = match kind {
                RuleKind::Tool => !r.tool.is_empty(),
                RuleKind::Command => !r.command.is_empty(),
                RuleKind::Access => r.access.is_some(),
                RuleKind::Signal => r.signal.is_some(),
            };
            own && r.kind() == Some(kind)
        })
    }

    /// What a command does to its arguments: a user's or project's entry, else the
    /// built-in one (found through the index `build.rs` made, without copying).
    pub fn effects(&self, name: &str) -> Option<&Effects> {
        self.commands
            .get(name)
            .or_else(|| Self::builtin_effects(name))
    }

    /// The built-in table of a command, whatever a layer says.
    pub fn builtin_effects(name: &str) -> Option<&'static Effects> {
        let i = BUILTIN_EFFECTS_INDEX
            .binary_search_by(|(n, _, _)| (*n).cmp(name))
            .ok()?;
        let (_, file, entry) = BUILTIN_EFFECTS_INDEX[i];
        DEFAULT_FILES
            .get(file as usize)?
            .commands
            .get(entry as usize)
            .map(|(_, e)| e)
    }

    /// The tables a command's arguments are read with where a mechanism peels or runs
    /// them: the one in force and, when a user's or a project's file replaced the built-in
    /// one, that too, so that a layer's table can add readings but never take one away.
    pub fn effects_readings(&self, name: &str) -> Vec<&Effects> {
        let builtin = Self::builtin_effects(name);
        match (self.commands.get(name), builtin) {
            (Some(layer), Some(b)) => vec![layer, b],
            (Some(layer), None) => vec![layer],
            (None, b) => b.into_iter().collect(),
        }
    }

    /// Every command's effects in force (for `policy show`).
    pub fn all_effects(&self) -> BTreeMap<PolicyText, Effects> {
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
