//! What each hook event does to the workflow, with the state it reads and writes.
//!
//! This is the I/O edge around the pure [`crate::workflow`] module: it loads the session, the
//! project and the autonomy setting, calls the pure functions, and writes back what they
//! return under the state files' locks. Gate events (`PreToolUse`) get the role and phase
//! restrictions on top of the policy's verdict; the other events move the workflow and
//! give the agents context.
//!
//! [`gate`] decides `PreToolUse` and `PreSkillShellCommand` calls, with [`autonomy`] for a
//! session whose autonomy is `auto`; [`prompt`], [`session_start`], [`subagent`] and
//! [`post_tool`] handle the other events, each in its own file, and [`context`] writes what
//! they tell an agent when it starts.

use std::path::Path;

use anyhow::Result;
use serde_json::{json, Value};

use super::protocol::{Event, EventName};
use crate::engine::paths::Places;
use crate::engine::policy::{Kinds, PathLists, Policy};
use crate::workflow::projects::{self, Project};
use crate::workflow::state::Loaded;

mod autonomy;
mod confinement;
mod context;
mod gate;
mod outcome;
mod post_tool;
mod prompt;
mod session_start;
mod subagent;

pub use autonomy::{CONFINED, LISTED_CONFINED, NOT_SANDBOXED, SANDBOXED, STILL_ASKED, TURN_ON};
pub use confinement::{confined_input, credentials, scratch, ASKS_UNCONFINED};
pub use gate::gate;
pub use outcome::GateOutcome;
pub use post_tool::runs_test;
pub use prompt::apply_to_session;

/// Everything an event handler needs from the environment.
pub struct Env<'a> {
    pub places: &'a Places,
    /// The policy's path lists, for the sandbox decision (gate events only).
    pub lists: Option<&'a PathLists>,
    /// The policy's kinds, for the git subcommands the workflow restrictions look for
    /// (gate events only).
    pub kinds: Option<&'a Kinds>,
    pub now: String,
    /// Rounds of requested changes before the workflow halts.
    pub max_rounds: u32,
}

impl Env<'_> {
    fn state_dir(&self) -> &Path {
        &self.places.state_dir
    }
    fn today(&self) -> String {
        self.now.get(..10).unwrap_or(&self.now).to_string()
    }
}

/// The project of a folder: its name and file, when registered.
fn project_of(env: &Env, cwd: Option<&Path>) -> Option<(String, Result<Project, String>)> {
    let cwd = cwd?;
    let name = projects::find_for(env.state_dir(), cwd).ok().flatten()?;
    let p = match projects::load(env.state_dir(), &name) {
        Ok(Loaded::Ok(p)) => Ok(p),
        Ok(Loaded::Missing) => return None,
        Ok(Loaded::Corrupt { kept, error }) => Err(format!(
            "the project file of `{name}` was not valid JSON ({error}); it was kept as {}",
            kept.display()
        )),
        Err(e) => Err(format!("{e:#}")),
    };
    Some((name, p))
}

/// The answer to a non-gate event.
pub fn other(env: &Env, event: &Event, policy: impl FnOnce() -> Result<Policy>) -> Result<Value> {
    match event.kind() {
        Some(EventName::UserPromptSubmit | EventName::UserPromptExpansion) => {
            prompt::prompt(env, event)
        }
        Some(EventName::SessionStart) => session_start::session_start(env, event),
        Some(EventName::SubagentStart) => subagent::subagent_start(env, event),
        Some(EventName::SubagentStop) => subagent::subagent_stop(env, event),
        Some(EventName::PostToolUse | EventName::PostToolUseFailure) => {
            post_tool::post_tool(env, event, policy)
        }
        _ => Ok(json!({})),
    }
}
