//! `UserPromptSubmit` and `UserPromptExpansion`: the user's `/programmer` commands move the
//! workflow and set the session's autonomy.

use anyhow::Result;
use serde_json::{json, Value};

use super::{project_of, Env};
use crate::hook::managed::{self, ManagedAutonomy};
use crate::hook::protocol::{Event, EventName};
use crate::workflow::roles;
use crate::workflow::state::{self, SessionFile};
use crate::workflow::{self, Autonomy, PromptCommand, Workflow};

pub(super) fn prompt(env: &Env, event: &Event) -> Result<Value> {
    // A prompt starts a new turn of the main thread: its earlier calls are over.
    if !event.session_id.is_empty()
        && event.kind() == Some(EventName::UserPromptSubmit)
        && state::load_session(env.state_dir(), &event.session_id)?
            .agents
            .spawns
            .iter()
            .any(roles::Spawn::by_main)
    {
        state::update_session(env.state_dir(), &event.session_id, |s| {
            s.agents.main_turn_ended();
        })?;
    }
    let source = event.raw.get("source").and_then(Value::as_str);
    if !matches!(source, None | Some("user")) {
        return Ok(json!({}));
    }
    let Some(text) = event.raw.get("prompt").and_then(Value::as_str) else {
        return Ok(json!({}));
    };
    let Some(cmd) = workflow::parse_prompt(text) else {
        return Ok(json!({}));
    };
    if event.session_id.is_empty() {
        return Ok(
            json!({"systemMessage": "programmer-hook: this prompt has no session id, so the workflow cannot be tracked"}),
        );
    }
    let key = text.trim().to_string();
    let is_expansion = event.kind() == Some(EventName::UserPromptExpansion);
    let cwd = event.cwd.clone();
    let max_rounds = env.max_rounds;
    let project = project_of(env, cwd.as_deref());
    let root = match &project {
        Some((_, Ok(p))) => p.path.clone(),
        _ => cwd
            .as_deref()
            .map(|c| c.to_string_lossy().to_string())
            .unwrap_or_default(),
    };
    let project_name = project.as_ref().map(|(n, _)| n.clone());
    let now = env.now.clone();
    let state_dir = env.state_dir().to_path_buf();
    let outcome = state::update_session(env.state_dir(), &event.session_id, |s| {
        // The expansion of a prompt already acted on counts once.
        if is_expansion && s.last_prompt.as_deref() == Some(key.as_str()) {
            s.last_prompt = None;
            return None;
        }
        s.last_prompt = (!is_expansion).then(|| key.clone());
        s.session = event.session_id.clone();
        Some(apply_to_session(s, &cmd, max_rounds, &now, |req, quick| {
            Workflow::new(req, quick, project_name.clone(), &root, &now)
        }))
    })?;
    let Some(outcome) = outcome else {
        return Ok(json!({}));
    };
    let mut message = outcome.message;
    if let PromptCommand::Autonomy(a) = cmd {
        if let Err(e) = state::set_autonomy(&state_dir, &event.session_id, a) {
            message = format!("programmer-hook: the autonomy setting could not be saved: {e:#}");
        } else if a == Autonomy::Auto {
            match managed::load() {
                ManagedAutonomy::Allowed => {}
                ManagedAutonomy::SandboxOnly => message.push_str(" The managed policy of this machine allows auto only for calls that run in Claude Code's sandbox."),
                ManagedAutonomy::Never(why) => message.push_str(&format!(" But {why}: every Confirm call is still asked.")),
            }
        }
    }
    Ok(json!({
        "systemMessage": message,
        "hookSpecificOutput": {"hookEventName": event.name, "additionalContext": message},
    }))
}

/// Applies a user's command to a session (read under its lock): the plan's fingerprint is
/// taken from the file as it is now, for `approve`.
pub fn apply_to_session(
    s: &mut SessionFile,
    cmd: &PromptCommand,
    max_rounds: u32,
    now: &str,
    start: impl FnOnce(&str, bool) -> Workflow,
) -> workflow::Transition {
    let fp = s
        .workflow
        .as_ref()
        .and_then(|w| w.plan.as_ref())
        .and_then(|p| std::fs::read(&p.path).ok())
        .map(|b| workflow::fingerprint(&b));
    let o = workflow::apply_command(s.workflow.clone(), cmd, start, fp, max_rounds, now);
    s.workflow = o.workflow.clone();
    o
}
