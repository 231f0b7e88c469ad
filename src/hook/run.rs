//! The run of one hook call: read the event, decide, answer, log.
//!
//! For `PreToolUse` and `PreSkillShellCommand` the answer always carries an explicit
//! `permissionDecision` (`allow`, `ask` or `deny`) and a reason naming the tier and rule.
//! Anything that goes wrong while deciding one of these (unreadable input, a field of the
//! wrong type, a policy file that does not load, a panic) ends in exit status 2 with a
//! one-line reason on stderr, which Claude Code treats as a denial. Claude Code lets a call
//! through when a hook prints something that is not JSON and exits 0, so on exit 0 this
//! module always prints a JSON object.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde_json::{json, Value};

use super::events;
use super::protocol::{
    decision_word, gate_answer, parse_event, reason_text, subject_of, Answer, Event, EventName,
};
use crate::engine::classify::{self, Decision};
use crate::engine::paths::Places;
use crate::engine::policy::{self, Policy, Tier, WorkflowSettings};
use crate::log::{audit, outcomes};
use crate::workflow::{clock, state};

/// Runs the whole hook on raw stdin bytes.
pub fn run(bytes: &[u8]) -> Answer {
    let started = std::time::Instant::now();
    let event = match parse_event(bytes) {
        Ok(e) => e,
        Err(e) => {
            // A malformed event that surely is not a gate (a prompt, a subagent's start)
            // is not worth blocking the user over; anything else is blocked.
            if let Some(name) = non_gate_event_name(bytes) {
                return Answer::json(json!({
                    "systemMessage": format!("programmer-hook: could not read the {name} event: {e:#}")
                }));
            }
            let reason = format!("{e:#}");
            log_blocked(None, bytes, &reason, started.elapsed());
            return Answer::block(&reason);
        }
    };
    if !event.is_gate() {
        // Workflow events never block on our own failure: the user is told instead.
        let (updated, recorded) = match state::places() {
            Ok(places) => (
                workflow_event(&event, &places),
                outcomes::record(&places.state_dir, &seen(&event), &clock::now()),
            ),
            // Events without a meaning here need no state.
            Err(_) if event.kind().is_none() => (Ok(json!({})), Ok(())),
            Err(e) => (Err(e), Ok(())),
        };
        let mut v = match updated {
            Ok(v) => v,
            Err(e) => json!({
                "systemMessage": format!("programmer-hook: could not update the workflow for {}: {e:#}", event.name)
            }),
        };
        if let Err(e) = recorded {
            add_message(&mut v, &format!("programmer-hook: could not record in the audit log what became of the calls asked about: {e:#}"));
        }
        return Answer::json(v);
    }
    match gate(&event, started) {
        Ok(a) => a,
        Err(e) => {
            let reason = format!("{e:#}");
            log_blocked(Some(&event), bytes, &reason, started.elapsed());
            Answer::block(&reason)
        }
    }
}

/// What a non-gate event says about earlier asks, for the log.
fn seen(event: &Event) -> outcomes::Seen<'_> {
    outcomes::Seen {
        event: &event.name,
        session: &event.session_id,
        source: event.raw.get("source").and_then(Value::as_str),
        tool_use_id: event.raw.get("tool_use_id").and_then(Value::as_str),
    }
}

/// The name of an event that is valid JSON with a string `hook_event_name` naming a
/// non-gate event, when the rest of it could not be read.
fn non_gate_event_name(bytes: &[u8]) -> Option<String> {
    let v: Value = serde_json::from_slice(bytes).ok()?;
    let name = v.get("hook_event_name")?.as_str()?;
    let kind = EventName::parse(name);
    (!kind.is_some_and(EventName::is_gate) && v.get("tool_name").is_none()
        || kind.is_some_and(EventName::is_tool_result))
    .then(|| name.to_string())
}

/// Handles an event that is not a gate (prompts, subagents, tool results).
fn workflow_event(event: &Event, places: &Places) -> Result<Value> {
    // The events the installer registers are the ones with a meaning here; gate events
    // never reach this function.
    if event.kind().is_none() {
        return Ok(json!({}));
    }
    let policy = load_policy(places, event.cwd.as_deref());
    let max_rounds = policy
        .as_ref()
        .map(|p| p.workflow.max_review_rounds)
        .unwrap_or(WorkflowSettings::DEFAULT_REVIEW_ROUNDS);
    let env = events::Env {
        places,
        lists: None,
        kinds: None,
        now: clock::now(),
        max_rounds,
    };
    events::other(&env, event, move || policy)
}

/// Adds a message for the user to an answer (after any it already has).
fn add_message(answer: &mut Value, message: &str) {
    if let Value::Object(m) = answer {
        let text = match m.get("systemMessage").and_then(Value::as_str) {
            Some(old) => format!("{old}\n{message}"),
            None => message.to_string(),
        };
        m.insert("systemMessage".into(), json!(text));
    }
}

/// Decides a gate event.
fn gate(event: &Event, started: std::time::Instant) -> Result<Answer> {
    let places = state::places()?;
    let policy = load_policy(&places, event.cwd.as_deref())?;
    let tool = event.tool_name.as_deref().unwrap_or_default();
    let fs = super::code_store::StoredFs::new(&places);
    let ctx = crate::engine::Context {
        policy: &policy,
        places: &places,
        fs: &fs,
        cwd: event.cwd.as_deref(),
    };
    let decision = if event.kind() == Some(EventName::PreSkillShellCommand) {
        let cmd = event
            .tool_input
            .get("command")
            .and_then(Value::as_str)
            .context("PreSkillShellCommand event has no `tool_input.command` string")?;
        classify::classify_command(cmd, &ctx)
    } else {
        classify::classify(tool, &event.tool_input, &ctx)?
    };
    let env = events::Env {
        places: &places,
        lists: Some(&policy.paths),
        kinds: Some(&policy.kinds),
        now: clock::now(),
        max_rounds: policy.workflow.max_review_rounds,
    };
    let mut decision = decision;
    // What a read-only role or phase may run is decided by the built-in rules: a rule of
    // the user's or a project's file can make a call Safe, not make it write nothing.
    let full_tier = decision.verdict.tier;
    let builtin_tier = || -> Option<Tier> {
        if !policy.is_customised() {
            return Some(full_tier);
        }
        let builtin = Policy::builtin().ok()?;
        let ctx = crate::engine::Context {
            policy: &builtin,
            ..ctx
        };
        let d = if event.kind() == Some(EventName::PreSkillShellCommand) {
            let cmd = event.tool_input.get("command").and_then(Value::as_str)?;
            classify::classify_command(cmd, &ctx)
        } else {
            classify::classify(tool, &event.tool_input, &ctx).ok()?
        };
        Some(d.verdict.tier)
    };
    let outcome = events::gate(&env, event, &mut decision, &builtin_tier);
    let mut reason = reason_text(&decision, None);
    if let Some(e) = &outcome.escalation {
        reason.push_str(". ");
        reason.push_str(e);
    }
    if outcome.answer_tier(&decision) == Tier::Confirm && non_interactive() {
        reason.push_str(". ");
        reason.push_str(&let_through(
            &decision,
            state::autonomy(&places.state_dir, &event.session_id)
                == crate::workflow::Autonomy::Auto,
        ));
    }
    let took = started.elapsed();
    let problem = record(&places, event, &decision, &outcome, took, &policy);
    let mut answer = gate_answer(
        &event.name,
        outcome.answer_tier(&decision),
        &reason,
        outcome.context.as_deref(),
    );
    if let Some(profile) = outcome.confine {
        confine_answer(&mut answer, event, &decision, profile, &places, &policy)?;
    }
    // The process ends right after this answer: freeing the policy would only cost time.
    std::mem::forget(policy);
    // The decision stands whether or not it is logged, but the user is told.
    if let Some(p) = problem {
        if let Ok(mut v) = serde_json::from_str::<Value>(&answer.stdout) {
            add_message(&mut v, &p);
            answer.stdout = v.to_string();
        }
    }
    Ok(answer)
}

/// Rewrites an `allow` answer so that the command runs confined in `profile`. Fails (and
/// so blocks the call) when the rewritten input cannot be made: the call must not run
/// unconfined on a verdict that assumed confinement.
fn confine_answer(
    answer: &mut Answer,
    event: &Event,
    decision: &Decision,
    profile: crate::confine::Profile,
    places: &Places,
    policy: &Policy,
) -> Result<()> {
    let binary = places.binary.as_deref().context(
        "the path of the running programmer-hook is not known, so the call cannot be run confined",
    )?;
    let project = super::sandbox_settings::project_dir(event.cwd.as_deref())
        .unwrap_or_else(|| places.home.clone());
    let scratch = events::scratch(&decision.facts, &policy.kinds, &project, &places.home);
    let readable = events::credentials(&decision.facts, &policy.kinds, &project, &places.home);
    let input = events::confined_input(
        event,
        profile,
        binary,
        &places.state_dir,
        &scratch,
        &readable,
    )
    .context("the Bash call has no command to confine")?;
    let mut v: Value = serde_json::from_str(&answer.stdout).context("the answer")?;
    let out = v
        .get_mut("hookSpecificOutput")
        .and_then(Value::as_object_mut)
        .context("the answer has no hookSpecificOutput")?;
    out.insert("updatedInput".into(), input);
    if let Some(Value::String(r)) = out.get_mut("permissionDecisionReason") {
        r.push_str(&format!(
            " (runs confined, profile {}: {})",
            profile.name(),
            profile.summary()
        ));
    }
    answer.stdout = v.to_string();
    Ok(())
}

/// Whether the client runs with no one to ask (`claude -p`, whose hooks see
/// `CLAUDE_CODE_ENTRYPOINT=sdk-cli`): there an ask is refused, with only its reason shown.
fn non_interactive() -> bool {
    std::env::var_os("CLAUDE_CODE_ENTRYPOINT").is_some_and(|e| e == "sdk-cli")
}

/// The clause an ask ends with in a run with no one to ask: how the user lets such a call
/// through. `/programmer autonomy auto` only where it would (a call whose effect the hook
/// understood, in a session not in `auto` yet); for the hook's own commands, the user's
/// terminal.
fn let_through(d: &Decision, auto: bool) -> String {
    let v = &d.verdict;
    let how = if v.rule.starts_with("programmer-hook.") {
        "run it yourself in a terminal, or approve it in an interactive session"
    } else if (v.relaxable || v.contained) && !auto {
        "approve it in an interactive session, or allow it with `/programmer autonomy auto` or a rule in your policy"
    } else {
        "approve it in an interactive session, or allow it with a rule in your policy"
    };
    format!("`claude -p` cannot ask, so it refuses this call: {how}")
}

/// Logs a decision, leaves the marker of an ask, and sweeps old log files when due.
/// Returns what went wrong, for the user.
fn record(
    places: &Places,
    event: &Event,
    d: &Decision,
    outcome: &events::GateOutcome,
    took: std::time::Duration,
    policy: &Policy,
) -> Option<String> {
    if let Err(e) = log_decision(places, event, d, outcome, took) {
        return Some(format!(
            "programmer-hook: this decision could not be written to the audit log: {e:#}"
        ));
    }
    let id = event.raw.get("tool_use_id").and_then(Value::as_str);
    if let (Some(id), Tier::Confirm) = (id, outcome.answer_tier(d)) {
        if let Err(e) = outcomes::asked(&places.state_dir, &event.session_id, id) {
            return Some(format!(
                "programmer-hook: whether you approve this call cannot be recorded in the audit log: {e:#}"
            ));
        }
    }
    let today = chrono::Utc::now().date_naive();
    let days = policy.workflow.log_retention_days;
    match outcomes::sweep_if_due(&places.state_dir, days, today) {
        Err(e) => Some(format!(
            "programmer-hook: old audit log files could not be removed: {e:#}"
        )),
        Ok(_) => None,
    }
}

/// The policy for an event: defaults, the managed policy, the user's file, and the
/// project's file.
pub fn load_policy(places: &Places, cwd: Option<&Path>) -> Result<Policy> {
    let managed = super::managed::policy_path();
    let user = policy::user_policy_path(&places.state_dir);
    let project = cwd.and_then(|c| find_project_policy(c, &places.home));
    Policy::load(Some(&managed), Some(&user), project.as_deref()).map_err(|e| {
        e.context("the policy could not be loaded; fix the file (see `programmer-hook policy validate FILE`)")
    })
}

/// Walks up from `cwd` to the repository root (or home) looking for a project policy.
pub fn find_project_policy(cwd: &Path, home: &Path) -> Option<PathBuf> {
    let mut dir = Some(cwd);
    let mut steps = 0;
    while let Some(d) = dir {
        let candidate = policy::project_policy_path(d);
        if candidate.is_file() {
            return Some(candidate);
        }
        if d == home || d.join(".git").exists() || steps > 32 {
            return None;
        }
        steps += 1;
        dir = d.parent();
    }
    None
}

/// Logs a gate decision: the answer given, and the tier the policy gave (a Confirm call
/// that autonomy let run is logged as `allow`, tier Confirm, `relaxed_by: autonomy`).
fn log_decision(
    places: &Places,
    event: &Event,
    d: &Decision,
    outcome: &events::GateOutcome,
    took: std::time::Duration,
) -> Result<()> {
    let answer = outcome.answer_tier(d);
    let tool_use_id = event
        .raw
        .get("tool_use_id")
        .and_then(Value::as_str)
        .map(str::to_string);
    let entry = audit::Entry {
        time: clock::now(),
        session: event.session_id.clone(),
        agent: event.agent(),
        event: event.name.clone(),
        tool: event.tool_name.clone().unwrap_or_default(),
        decision: decision_word(answer).into(),
        tier: d.verdict.tier.to_string(),
        rule: d.verdict.rule.clone(),
        relaxable: d.verdict.relaxable,
        contained: d.verdict.contained,
        effect: d.verdict.effect.clone(),
        relaxed_by: (answer != d.verdict.tier)
            .then_some(outcome.relaxed_by)
            .flatten()
            .map(str::to_string),
        subject: audit::subject(&subject_of(event)),
        phase: outcome.phase.map(str::to_string),
        cwd: event.cwd.as_ref().map(|c| c.to_string_lossy().to_string()),
        tool_use_id,
        took_us: Some(u64::try_from(took.as_micros()).unwrap_or(u64::MAX)),
        blocked: None,
        confined: outcome.confine.map(|p| p.name().to_string()),
    };
    audit::append(&places.state_dir, &entry)
}

/// Records a call blocked because it could not be checked, with the reason, as far as the
/// event can be read. The block stands whether or not this can be written.
fn log_blocked(event: Option<&Event>, bytes: &[u8], reason: &str, took: std::time::Duration) {
    let Ok(places) = state::places() else {
        return;
    };
    let raw: Value = serde_json::from_slice(bytes).unwrap_or(Value::Null);
    let field = |k: &str| raw.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let entry = audit::Entry {
        time: clock::now(),
        session: event.map_or_else(|| field("session_id"), |e| e.session_id.clone()),
        agent: event.map_or_else(|| "main".to_string(), Event::agent),
        event: event.map_or_else(|| field("hook_event_name"), |e| e.name.clone()),
        tool: event
            .and_then(|e| e.tool_name.clone())
            .unwrap_or_else(|| field("tool_name")),
        decision: "deny".into(),
        tier: "Forbidden".into(),
        rule: "hook.blocked".into(),
        relaxable: false,
        contained: false,
        effect: None,
        relaxed_by: None,
        subject: event
            .map(|e| audit::subject(&subject_of(e)))
            .unwrap_or_default(),
        phase: None,
        cwd: event.and_then(|e| e.cwd.as_ref().map(|c| c.to_string_lossy().to_string())),
        tool_use_id: raw
            .get("tool_use_id")
            .and_then(Value::as_str)
            .map(str::to_string),
        took_us: Some(u64::try_from(took.as_micros()).unwrap_or(u64::MAX)),
        blocked: Some(audit::subject(reason)),
        confined: None,
    };
    let _ = audit::append(&places.state_dir, &entry);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_input_blocks() {
        let cases: &[&[u8]] = &[
            b"",
            b"   ",
            b"not json",
            b"[1,2]",
            b"\xff\xfe",
            br#"{"hook_event_name": 5}"#,
            br#"{"hook_event_name":"PreToolUse","tool_input":{}}"#,
            br#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":"ls"}"#,
            br#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{},"cwd":"rel"}"#,
        ];
        for c in cases {
            let a = run(c);
            assert_eq!(a.code, 2, "{:?}", String::from_utf8_lossy(c));
            assert!(a.stdout.is_empty());
            assert!(a.stderr.starts_with("programmer-hook: blocked"));
        }
    }

    #[test]
    fn other_events_answer_json() {
        let a = run(br#"{"hook_event_name":"Notification","message":"x"}"#);
        assert_eq!(a.code, 0);
        assert_eq!(a.stdout, "{}");
    }
}
