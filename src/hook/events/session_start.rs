//! `SessionStart`: a new client forgets the subagents of before, and the agent is told its context.

use std::path::Path;

use anyhow::Result;
use serde_json::{json, Value};

use super::context::{context_answer, session_context};
use super::Env;
use crate::engine::paths::Places;
use crate::hook::protocol::Event;
use crate::workflow::roles;
use crate::workflow::state;

/// A session starts or resumes in a new client: no subagent of before runs any more.
pub(super) fn session_start(env: &Env, event: &Event) -> Result<Value> {
    let source = event.raw.get("source").and_then(Value::as_str);
    if matches!(source, Some("startup" | "resume"))
        && !event.session_id.is_empty()
        && state::load_session(env.state_dir(), &event.session_id)?.agents
            != roles::Agents::default()
    {
        state::update_session(env.state_dir(), &event.session_id, |s| {
            s.agents = roles::Agents::default();
        })?;
    }
    let mut answer = context_answer(&event.name, &session_context(env, event, None));
    if let Some(m) = two_installs(env.places, std::env::var_os("CLAUDE_PLUGIN_ROOT")) {
        answer["systemMessage"] = json!(m);
    }
    Ok(answer)
}

/// When this hook runs as the plugin (its binary is under `plugin_root`) and Claude Code's
/// `settings.json` runs another programmer-hook binary too, every call is decided and logged
/// twice: what to tell the user at the session's start, and how to keep one.
fn two_installs(places: &Places, plugin_root: Option<std::ffi::OsString>) -> Option<String> {
    let root = Path::new(plugin_root.as_deref().filter(|r| !r.is_empty())?);
    let binary = places.binary.as_deref()?;
    if !binary.starts_with(root) || places.installed.is_empty() {
        return None;
    }
    let other = places.installed[0].display();
    Some(format!(
        "programmer-hook: both the plugin and the hook entries in {} (running {other}) are active, so every call is decided and logged twice. Keep one: `{other} uninstall-hooks` (or ./install.sh --uninstall) keeps the plugin, or `claude plugin uninstall` the plugin; `programmer-hook doctor` says the same.",
        places.config_dir.join("settings.json").display()
    ))
}
