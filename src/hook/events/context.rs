//! What an agent is told when it starts: the project, the preferences, the phase and its role.

use serde_json::{json, Value};

use super::{project_of, Env};
use crate::hook::protocol::Event;
use crate::workflow::roles::{self, Role};
use crate::workflow::state;

pub(super) fn context_answer(event_name: &str, text: &str) -> Value {
    if text.is_empty() {
        return json!({});
    }
    json!({"hookSpecificOutput": {"hookEventName": event_name, "additionalContext": text}})
}

/// Project, preferences, phase and role, for an agent's start.
pub(super) fn session_context(env: &Env, event: &Event, role: Option<&Role>) -> String {
    let mut parts = Vec::new();
    if let Some((name, p)) = project_of(env, event.cwd.as_deref()) {
        match p {
            Ok(p) => parts.push(p.context(&name)),
            Err(e) => parts.push(format!("programmer-hook: {e}")),
        }
    }
    if let Some(prefs) = state::preferences(env.state_dir()) {
        parts.push(format!("Coding preferences: {prefs}"));
    }
    if let Ok(s) = state::load_session(env.state_dir(), &event.session_id) {
        if let Some(w) = s.workflow.filter(|w| w.active()) {
            parts.push(w.summary(env.max_rounds));
        }
    }
    let role = role.or_else(|| {
        event
            .agent_type
            .as_deref()
            .and_then(|t| roles::role_of(Some(t)))
    });
    if let Some(r) = role {
        parts.push(format!("Your role is {}, which {}. The hook refuses anything beyond that, so do not retry a refused call.", r.name, r.limits));
    }
    parts.join("\n")
}
