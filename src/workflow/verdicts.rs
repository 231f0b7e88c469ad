//! The reviewer's verdict (`Status: APPROVE` or `Status: CHANGES_REQUESTED`) and where it
//! moves the workflow: to commit, back to implement, or to halted after too many rounds.

use super::phase::{Phase, Transition, Workflow};

/// A reviewer's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReviewVerdict {
    Approve,
    ChangesRequested,
}

/// Finds the `Status:` line of a review. Exactly one verdict line must be present.
pub fn parse_verdict(text: &str) -> Option<ReviewVerdict> {
    let mut found = None;
    for line in text.lines() {
        let l = line
            .trim()
            .trim_start_matches(['-', '*', '#', '>', ' '])
            .trim();
        let l = l.trim_matches('*').trim();
        let Some(v) = l.strip_prefix("Status:") else {
            continue;
        };
        let v = v.trim().trim_matches(['*', '`', '.']).trim();
        let this = match v {
            "APPROVE" => ReviewVerdict::Approve,
            "CHANGES_REQUESTED" => ReviewVerdict::ChangesRequested,
            _ => continue,
        };
        if found.is_some_and(|f| f != this) {
            return None;
        }
        found = Some(this);
    }
    found
}

/// Applies a review verdict. Only a workflow in phase review takes one; anything else is a
/// stale or stray verdict and changes nothing.
pub fn apply_verdict(mut w: Workflow, v: ReviewVerdict, max_rounds: u32, now: &str) -> Transition {
    if w.phase != Phase::Review {
        let m = format!(
            "programmer-hook: a review verdict arrived in phase `{}` and was ignored (only the verdict of the current review counts).",
            w.phase.name()
        );
        return Transition {
            workflow: Some(w),
            message: m,
        };
    }
    w.updated = now.to_string();
    w.reviewer = None;
    match v {
        ReviewVerdict::Approve => {
            w.phase = Phase::Commit;
            w.last_verdict = Some("APPROVE".into());
        }
        ReviewVerdict::ChangesRequested => {
            w.round += 1;
            w.last_verdict = Some("CHANGES_REQUESTED".into());
            w.phase = if w.round >= max_rounds {
                Phase::Halted
            } else {
                Phase::Implement
            };
        }
    }
    let m = format!(
        "programmer-hook: the reviewer said {}. {}",
        w.last_verdict.as_deref().unwrap_or(""),
        w.summary(max_rounds)
    );
    Transition {
        workflow: Some(w),
        message: m,
    }
}
