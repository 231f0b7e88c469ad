//! The verdicts: the one a fact takes from the rules it matched (the strictest, the
//! fallbacks when no ordinary rule matched, the managed policy's rules as a floor), and the
//! one the whole call takes from its parts (the most restrictive, so a compound command is
//! never safer than its most dangerous part). What a rule matches is the matchers' business;
//! this module only chooses among the rules that did.

use std::cell::RefCell;

use crate::engine::analyze::Facts;
use crate::engine::policy::{Policy, Rule, Tier};

/// The verdict on one fact, or on the whole call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Verdict {
    pub tier: Tier,
    pub rule: String,
    pub reason: String,
    pub instead: Option<String>,
    /// What was judged: a command, a path, a tool.
    pub subject: String,
    /// A Confirm verdict whose effect the hook understood (its rule is `relaxable`), which
    /// autonomy `auto` may let run without asking. Always false for Safe and Forbidden,
    /// and for a whole call with any opaque Confirm part.
    pub relaxable: bool,
    /// A Confirm verdict on code inside the project the hook cannot read (its rule is
    /// `contained`), which autonomy `auto` may let run without asking when the call runs
    /// in Claude Code's sandbox. For a whole call: every Confirm part is relaxable or
    /// contained, and at least one is contained.
    pub contained: bool,
    /// What the Confirm rule says the call does (its `effect`): why it is relaxable or not.
    pub effect: Option<String>,
    /// A Safe verdict of a rule the user's or the managed policy's file added: a choice
    /// not to be asked (`programmer-hook suggest` writes such rules for test runs and
    /// installs), not the defaults' prediction that the command only reads.
    pub chosen: bool,
}

/// The decision on a tool call: the deciding verdict and the verdict of each part.
#[derive(Debug, Clone)]
pub struct Decision {
    pub verdict: Verdict,
    pub parts: Vec<Verdict>,
    /// Every rule that applied to some part (for `policy test` and explanations).
    pub matched: Vec<String>,
    /// What the call was found to do (programs, file accesses, signals).
    pub facts: Facts,
}

/// The decision on a call from the verdicts of its parts: the most restrictive, each part
/// listed once.
pub(super) fn decide(
    mut parts: Vec<Verdict>,
    tool: &str,
    matched: Vec<String>,
    facts: Facts,
) -> Decision {
    // A command judged in several folders (after a `cd`) or reached twice gives the same
    // verdict more than once; each is listed once, in the order first found.
    let mut seen = std::collections::HashSet::new();
    parts.retain(|p| seen.insert((p.tier, p.rule.clone(), p.subject.clone())));
    let verdict = parts
        .iter()
        .max_by_key(|v| v.tier)
        .cloned()
        .filter(|v| parts.iter().all(|p| p.tier <= v.tier))
        .unwrap_or_else(|| Verdict {
            tier: Tier::Safe,
            rule: "shell.empty".into(),
            reason: "nothing to run".into(),
            instead: None,
            subject: tool.to_string(),
            relaxable: false,
            contained: false,
            effect: None,
            chosen: false,
        });
    // The first part with the highest tier decides, so messages name the earliest culprit;
    // among Confirm parts the first opaque one that is not contained, then the first
    // contained one, so a relaxable or contained part never hides a stricter one. A call
    // is relaxable only when every Confirm part is.
    let top = verdict.tier;
    let mut verdict = parts
        .iter()
        .find(|p| p.tier == top && !p.relaxable && !p.contained)
        .or_else(|| parts.iter().find(|p| p.tier == top && !p.relaxable))
        .or_else(|| parts.iter().find(|p| p.tier == top))
        .cloned()
        .unwrap_or(verdict);
    let confirm = || parts.iter().filter(|p| p.tier == Tier::Confirm);
    verdict.relaxable = top == Tier::Confirm && confirm().all(|p| p.relaxable);
    verdict.contained =
        top == Tier::Confirm && !verdict.relaxable && confirm().all(|p| p.relaxable || p.contained);
    Decision {
        verdict,
        parts,
        matched,
        facts,
    }
}

/// The most restrictive matching rule, with fallbacks when no ordinary rule matched. Every
/// rule that applied is noted in `matched` (borrowed once the rules are read: reading them
/// runs the matchers).
pub(super) fn pick<'r>(
    policy: &Policy,
    matched: &RefCell<Vec<String>>,
    rules: impl Iterator<Item = &'r Rule>,
    subject: &str,
) -> Option<Verdict> {
    let mut ordinary: Vec<&Rule> = Vec::new();
    let mut fallback: Vec<&Rule> = Vec::new();
    for r in rules {
        if r.fallback {
            fallback.push(r);
        } else {
            ordinary.push(r);
        }
    }
    // The managed policy's fallbacks are a floor too: a rule of the user's or a
    // project's file matching keeps the default fallbacks from applying, not those.
    let managed_fallbacks: Vec<&Rule> =
        if !ordinary.is_empty() && policy.has_managed_rules() && ordinary.iter().all(|r| r.layered)
        {
            fallback.iter().copied().filter(|r| r.managed).collect()
        } else {
            Vec::new()
        };
    let mut applied = if ordinary.is_empty() {
        fallback
    } else {
        ordinary
    };
    let ordinary_count = applied.len();
    applied.extend(managed_fallbacks);
    let mut matched = matched.borrow_mut();
    for r in &applied {
        if !matched.iter().any(|m| *m == r.id) {
            matched.push(r.id.to_string());
        }
    }
    let mut best: Option<&Rule> = None;
    for r in &applied[..ordinary_count] {
        if best.is_none_or(|b| r.tier > b.tier) {
            best = Some(r);
        }
    }
    // The managed policy's rules are a floor: the strictest of them that matched
    // stands unless a rule of the same tier is as strict, so no rule of a later layer
    // (Safe, or a relaxable or contained Confirm) loosens it.
    if policy.has_managed_rules() {
        for r in applied.iter().filter(|r| r.managed) {
            if best.is_none_or(|b| strictness(r) > strictness(b)) {
                best = Some(r);
            }
        }
    }
    best.map(|r| Verdict {
        tier: r.tier,
        rule: r.id.to_string(),
        reason: r.reason.to_string(),
        instead: r.instead.as_deref().map(str::to_string),
        subject: subject.to_string(),
        relaxable: r.tier == Tier::Confirm && r.relaxable,
        contained: r.tier == Tier::Confirm && r.contained,
        effect: r.effect.as_deref().map(str::to_string),
        chosen: r.tier == Tier::Safe && (r.layered || r.managed),
    })
}

/// How strict a rule's verdict is: its tier, then, for Confirm, opaque (always asked) over
/// contained (run by `auto` in the sandbox) over relaxable (run by `auto`).
fn strictness(r: &Rule) -> (Tier, u8) {
    let asked = match (r.tier, r.relaxable, r.contained) {
        (Tier::Confirm, true, _) => 0,
        (Tier::Confirm, false, true) => 1,
        _ => 2,
    };
    (r.tier, asked)
}
