//! The gates a workflow passes: the reviewer starts only after the tests passed since the
//! last change, and the approved plan stays the file that was approved.

use super::phase::{Phase, Workflow};
use super::restrictions::Refusal;

/// The test gate for spawning the reviewer: `None` when it may start, else why not.
pub fn review_gate(w: &Workflow, test_command: Option<&str>) -> Option<Refusal> {
    if !matches!(w.phase, Phase::Implement) {
        return Some(Refusal {
            rule: "phase.review-needs-implement",
            reason: format!(
                "a review starts from phase implement, and the workflow is in phase {}",
                w.phase.name()
            ),
            instead: "finish the current phase first".into(),
        });
    }
    let test = test_command?;
    if w.tests_passed_at == Some(w.changes) {
        return None;
    }
    Some(Refusal {
        rule: "gate.tests-before-review",
        reason: format!(
            "the project's tests have not passed since the last file change (test command: `{test}`)"
        ),
        instead: format!("run `{test}` exactly as written from the project root; when it passes, spawn the reviewer again"),
    })
}

/// The approved plan must be the file that was approved: `current` is the fingerprint of
/// the plan file now (`None` when it cannot be read).
pub fn plan_gate(w: &Workflow, current: Option<&str>) -> Option<Refusal> {
    let plan = w.plan.as_ref()?;
    let approved = plan.fingerprint.as_deref()?;
    if current == Some(approved) {
        return None;
    }
    Some(Refusal {
        rule: "gate.plan-changed",
        reason: format!(
            "the approved plan {} has changed (or is gone) since the user approved it",
            plan.path
        ),
        instead:
            "restore the plan as approved, or ask the user to `/programmer abort` and plan again"
                .into(),
    })
}

/// A stable content fingerprint (FNV-1a 64 and length); used to notice any change to an
/// approved plan, not as a cryptographic hash.
pub fn fingerprint(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("fnv1a64:{h:016x}:{}", bytes.len())
}
