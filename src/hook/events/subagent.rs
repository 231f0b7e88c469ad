//! `SubagentStart` and `SubagentStop`: who runs which subagent, the role it is held to, and
//! the reviewer's verdict.

use anyhow::Result;
use serde_json::{json, Value};

use super::context::{context_answer, session_context};
use super::Env;
use crate::hook::protocol::Event;
use crate::workflow::roles;
use crate::workflow::state;
use crate::workflow::{self, Phase};

pub(super) fn subagent_start(env: &Env, event: &Event) -> Result<Value> {
    let (Some(id), Some(agent_type)) = (event.agent_id.clone(), event.agent_type.clone()) else {
        return Ok(context_answer(
            &event.name,
            &session_context(env, event, None),
        ));
    };
    let own = roles::role_of(Some(&agent_type));
    let held = if event.session_id.is_empty() {
        own
    } else {
        state::update_session(env.state_dir(), &event.session_id, |s| {
            let started = s.agents.started(&id, &agent_type, None);
            // Only a reviewer the main thread started gives the verdict of a review.
            let is_reviewer = own.map(|r| r.name) == Some(roles::REVIEWER)
                && started.role.as_deref() == Some(roles::REVIEWER);
            if is_reviewer && started.by_main {
                if let Some(w) = s.workflow.as_mut().filter(|w| w.phase == Phase::Review) {
                    w.reviewer = Some(id.clone());
                }
            }
            started.role.as_deref().and_then(roles::named)
        })?
    };
    let mut context = session_context(env, event, held);
    if let Some(r) = held.filter(|r| own.map(|o| o.name) != Some(r.name)) {
        context.push_str(&format!("\nYou were started by an agent in the role {0} (or the hook cannot tell who started you), so you are held to that role: the hook refuses you what it refuses the {0}.", r.name));
    }
    Ok(context_answer(&event.name, &context))
}

pub(super) fn subagent_stop(env: &Env, event: &Event) -> Result<Value> {
    if event.session_id.is_empty() {
        return Ok(json!({}));
    }
    let record = match &event.agent_id {
        Some(id) => state::load_session(env.state_dir(), &event.session_id)?
            .agents
            .running
            .get(id)
            .cloned(),
        None => None,
    };
    let own = event
        .agent_type
        .as_deref()
        .and_then(|t| roles::role_of(Some(t)));
    let answer = if own.map(|r| r.name) == Some(roles::REVIEWER) {
        let message = event
            .raw
            .get("last_assistant_message")
            .and_then(Value::as_str)
            .unwrap_or("");
        let retrying = event
            .raw
            .get("stop_hook_active")
            .and_then(Value::as_bool)
            .unwrap_or(false);
        // The main thread's own reviewer: not a helper another agent started.
        let trusted = record
            .as_ref()
            .is_some_and(|r| r.by_main && r.role.as_deref() == Some(roles::REVIEWER));
        review_result(
            env,
            event,
            message,
            event.agent_id.as_deref(),
            trusted,
            !retrying,
        )?
    } else {
        json!({})
    };
    // A reviewer sent back for its verdict goes on running.
    let sent_back = answer.get("decision").and_then(Value::as_str) == Some("block");
    if let (Some(id), false, Some(_)) = (&event.agent_id, sent_back, &record) {
        state::update_session(env.state_dir(), &event.session_id, |s| {
            s.agents.stopped(id);
        })?;
    }
    Ok(answer)
}

/// Applies a reviewer's final message. Only the reviewer of the current review decides
/// it: the one recorded when it started, or, when none was, one `trusted` to be the one the
/// main thread started. With `ask_again`, a message without a verdict sends the
/// reviewer back to give one.
pub(super) fn review_result(
    env: &Env,
    event: &Event,
    message: &str,
    agent_id: Option<&str>,
    trusted: bool,
    ask_again: bool,
) -> Result<Value> {
    let verdict = workflow::parse_verdict(message);
    let now = env.now.clone();
    let agent_id = agent_id.map(str::to_string);
    let outcome = state::update_session(env.state_dir(), &event.session_id, |s| {
        let w = s.workflow.clone()?;
        if w.phase != Phase::Review {
            return None;
        }
        match &w.reviewer {
            Some(expected) if agent_id.as_ref() != Some(expected) => return None,
            None if !trusted => return None,
            _ => {}
        }
        let v = verdict?;
        let o = workflow::apply_verdict(w, v, env.max_rounds, &now);
        s.workflow = o.workflow.clone();
        Some(o.message)
    })?;
    match (outcome, verdict) {
        (Some(m), _) => Ok(json!({"systemMessage": m})),
        (None, None) if ask_again && trusted && in_review(env, event) => Ok(json!({
            "decision": "block",
            "reason": "programmer-hook: your review has no verdict. End your final message with exactly one line `Status: APPROVE` or `Status: CHANGES_REQUESTED`."
        })),
        _ => Ok(json!({})),
    }
}

fn in_review(env: &Env, event: &Event) -> bool {
    state::load_session(env.state_dir(), &event.session_id)
        .ok()
        .and_then(|s| s.workflow)
        .is_some_and(|w| w.phase == Phase::Review)
}
