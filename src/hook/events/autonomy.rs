//! Autonomy `auto` at the gate: which Confirm calls run without asking, as the session's
//! setting, the managed policy and Claude Code's sandbox allow (where a call runs, in the
//! sandbox or confined by the hook, is [`confinement`]'s to say).

use super::Env;
use crate::engine::classify::Decision;
use crate::engine::policy::schema::LIST_RUN;
use crate::engine::policy::Tier;
use crate::hook::managed::{self, ManagedAutonomy};
use crate::hook::protocol::Event;
use crate::workflow::state;
use crate::workflow::Autonomy;

use super::confinement;
use super::outcome::GateOutcome;
use crate::confine::Profile;

/// Session autonomy `auto`: a relaxable Confirm call runs without asking; a contained one
/// (code inside the project the hook cannot read) runs without asking only inside Claude
/// Code's sandbox; any other opaque one is still asked; Forbidden never changes. The
/// managed policy may allow less ([`managed`]): nothing, or only calls in the sandbox.
pub(super) fn apply_autonomy(
    env: &Env,
    event: &Event,
    decision: &mut Decision,
    out: &mut GateOutcome,
) {
    if decision.verdict.tier != Tier::Confirm
        || event.session_id.is_empty()
        || state::autonomy(env.state_dir(), &event.session_id) != Autonomy::Auto
    {
        return;
    }
    let v = &mut decision.verdict;
    if !(v.relaxable || v.contained) {
        v.reason = format!("{} ({STILL_ASKED})", v.reason);
        return;
    }
    // Read only now: these are the verdicts the managed policy and the settings can change.
    let managed = managed::load();
    if let ManagedAutonomy::Never(why) = &managed {
        v.reason = format!("{} (asked even under autonomy auto: {why})", v.reason);
        return;
    }
    if v.relaxable && managed == ManagedAutonomy::Allowed {
        out.relaxed_by = Some("autonomy");
        v.reason = format!(
            "{} (relaxable Confirm, allowed because this session's autonomy is auto)",
            v.reason
        );
        return;
    }
    // Sandboxed calls only: a contained one, or any under a sandbox-only managed policy.
    let in_sandbox = confinement::sandboxed(env, event);
    if v.contained && managed == ManagedAutonomy::Allowed && in_sandbox.is_err() {
        if let Ok(()) = confinement::confinable(event) {
            out.relaxed_by = Some("confinement");
            out.confine = Some(Profile::Project);
            v.reason = format!("{} ({CONFINED})", v.reason);
            return;
        }
    }
    match (in_sandbox, v.contained) {
        (Ok(()), true) => {
            out.relaxed_by = Some("sandbox");
            v.reason = format!("{} ({SANDBOXED})", v.reason);
        }
        (Ok(()), false) => {
            out.relaxed_by = Some("sandbox");
            v.reason = format!("{} (relaxable Confirm, allowed because this session's autonomy is auto and the call runs in Claude Code's sandbox, where the managed policy allows auto)", v.reason);
        }
        (Err(why), true) => {
            v.reason = format!("{} ({NOT_SANDBOXED}: {why}; {TURN_ON})", v.reason)
        }
        (Err(why), false) => {
            v.reason = format!("{} (asked even under autonomy auto: the managed policy allows auto only inside Claude Code's sandbox, and this call would not run in it: {why}; {TURN_ON})", v.reason)
        }
    }
}

/// A listing that runs project code only to find what it lists (every Confirm part is
/// contained and of the effect [`LIST_RUN`]: `pytest --collect-only`, `cargo test --
/// --list`) runs without asking in any session when it will run in Claude Code's sandbox,
/// which confines that code; outside it, it is asked, and the reason says why. Not under a
/// managed policy that lets `auto` relax nothing. Whether it was decided here (else
/// [`apply_autonomy`] decides).
pub(super) fn apply_sandboxed_listing(
    env: &Env,
    event: &Event,
    decision: &mut Decision,
    out: &mut GateOutcome,
) -> bool {
    let confirm = || decision.parts.iter().filter(|p| p.tier == Tier::Confirm);
    let listing = decision.verdict.tier == Tier::Confirm
        && decision.verdict.contained
        && confirm().next().is_some()
        && confirm().all(|p| p.contained && p.effect.as_deref() == Some(LIST_RUN));
    if !listing {
        return false;
    }
    // In an `auto` session, a listing asked is asked as any contained call is.
    let auto = !event.session_id.is_empty()
        && state::autonomy(env.state_dir(), &event.session_id) == Autonomy::Auto;
    let v = &mut decision.verdict;
    match confinement::sandboxed(env, event) {
        Ok(()) => match managed::load() {
            ManagedAutonomy::Never(_) if auto => false,
            ManagedAutonomy::Never(why) => {
                v.reason = format!("{} (asked: {why})", v.reason);
                true
            }
            _ => {
                out.relaxed_by = Some("sandbox");
                v.reason = format!("{} ({LISTED_IN_SANDBOX})", v.reason);
                true
            }
        },
        Err(why) => {
            match (confinement::confinable(event), managed::load()) {
                (Ok(()), ManagedAutonomy::Never(_)) if auto => false,
                (Ok(()), ManagedAutonomy::Never(m)) => {
                    v.reason = format!("{} (asked: {m})", v.reason);
                    true
                }
                (Ok(()), _) => {
                    out.relaxed_by = Some("confinement");
                    out.confine = Some(Profile::Read);
                    v.reason = format!("{} ({LISTED_CONFINED})", v.reason);
                    true
                }
                (Err(_), _) if auto => false,
                (Err(c), _) => {
                    v.reason = format!("{} ({LISTED_OUTSIDE}: {why}, and it cannot be confined here: {c}; {TURN_ON})", v.reason);
                    true
                }
            }
        }
    }
}

/// Why an opaque Confirm call is still asked in a session whose autonomy is `auto`.
pub const STILL_ASKED: &str = "asked even under autonomy auto, which relaxes only effects the hook understood inside the project: this one hides what runs, reaches outside the project, touches secrets or cannot be undone";

/// Why a listing or a checker ran without asking outside Claude Code's sandbox.
pub const LISTED_CONFINED: &str = "it only lists or checks, and the project code it runs to do so is confined: allowed because the call runs confined in the read profile (no file written, secrets unreadable)";

/// Why a contained call ran without asking in an `auto` session outside Claude Code's
/// sandbox.
pub const CONFINED: &str = "project code the hook cannot read, allowed because this session's autonomy is auto and the call runs confined in the project profile (writes only in the project and the temporary folders, secrets unreadable, protected paths put back, `programmer-hook undo` brings back what it changed)";

/// Why a listing ran without asking.
pub const LISTED_IN_SANDBOX: &str = "it only lists, and the project code it runs to do so is confined: allowed because the call runs in Claude Code's sandbox";

/// Why a listing is asked.
pub const LISTED_OUTSIDE: &str = "asked: it runs project code to find what it lists, which runs without asking only inside Claude Code's sandbox, and this call would not run in it";

/// Why a contained call ran without asking.
pub const SANDBOXED: &str = "project code the hook cannot read, allowed because this session's autonomy is auto and the call runs in Claude Code's sandbox";

/// Why a contained call is still asked in an `auto` session.
pub const NOT_SANDBOXED: &str = "asked even under autonomy auto: this runs code the hook cannot read, which auto lets run only confined (by the hook, where the kernel has Landlock, or in Claude Code's sandbox), and this call would run in neither";

/// How to turn the sandbox on.
pub const TURN_ON: &str = "`programmer-hook install-hooks --sandbox` turns the sandbox on (`programmer-hook doctor` shows its state)";
