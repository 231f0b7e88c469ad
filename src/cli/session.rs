//! `status`, `approve`, `continue`, `abort` and `autonomy`: a session's workflow, steered
//! from the user's own terminal.

use anyhow::{bail, Context, Result};
use clap::Args;
use serde_json::json;

use crate::engine::policy::WorkflowSettings;
use crate::hook;
use crate::hook::audit;
use crate::setup::plugin;
use crate::workflow::{self, clock, pack, state, Autonomy, Workflow};

#[derive(Args)]
pub struct StatusArgs {
    /// The Claude Code session id (default: the most recent sessions).
    #[arg(long)]
    session: Option<String>,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct SessionArg {
    /// The Claude Code session id (see `programmer-hook status`); default: the most recent
    /// session with an active workflow.
    #[arg(long)]
    session: Option<String>,
}

#[derive(Args)]
pub struct AutonomyArgs {
    /// `auto` or `confirm`.
    #[arg(value_parser = ["auto", "confirm"])]
    mode: String,
    #[command(flatten)]
    session: SessionArg,
}

fn status_json(s: &state::SessionFile, autonomy: Autonomy) -> serde_json::Value {
    let w = s.workflow.as_ref();
    json!({
        "session": s.session,
        "phase": w.filter(|w| w.active()).map(|w| w.phase.name()).unwrap_or("none"),
        "project": w.and_then(|w| w.project.clone()),
        "request": w.map(|w| w.request.clone()),
        "autonomy": autonomy,
        "round": w.map(|w| w.round).unwrap_or(0),
        "plan": w.and_then(|w| w.plan.as_ref().map(|p| p.path.clone())),
        "last_verdict": w.and_then(|w| w.last_verdict.clone()),
        "updated": w.map(|w| w.updated.clone()),
        "note": w.and_then(|w| w.note.clone()),
    })
}

pub fn run_status(a: StatusArgs) -> Result<i32> {
    let places = state::places()?;
    let sessions = match &a.session {
        Some(id) => vec![state::load_session(
            &places.state_dir,
            &known_session(&places, id)?,
        )?],
        None => state::recent_sessions(&places.state_dir, 10),
    };
    if a.json {
        let v: Vec<_> = sessions
            .iter()
            .map(|s| status_json(s, state::autonomy(&places.state_dir, &s.session)))
            .collect();
        let out = match (&a.session, v.len()) {
            (Some(_), _) => v.into_iter().next().unwrap_or(json!({"phase": "none"})),
            _ => json!({ "sessions": v }),
        };
        println!("{}", serde_json::to_string_pretty(&out)?);
        return Ok(0);
    }
    if sessions.is_empty() {
        let text =
            "no workflow sessions yet (start one in Claude Code with `/programmer <request>`)";
        println!("{}", pack::spelled(text, plugin::runs_as_plugin()));
        return Ok(0);
    }
    for s in &sessions {
        let v = status_json(s, state::autonomy(&places.state_dir, &s.session));
        println!("session {}", s.session);
        for k in [
            "phase",
            "project",
            "request",
            "autonomy",
            "round",
            "plan",
            "last_verdict",
            "updated",
            "note",
        ] {
            if let Some(x) = v.get(k).filter(|x| !x.is_null()) {
                let text = x
                    .as_str()
                    .map(str::to_string)
                    .unwrap_or_else(|| x.to_string());
                println!(
                    "  {k:<13} {}",
                    pack::spelled(&text, plugin::runs_as_plugin())
                );
            }
        }
    }
    Ok(0)
}

#[derive(Clone, Copy)]
pub enum Control {
    Approve,
    Continue,
    Abort,
}

/// The session a control command acts on: the given one, or the most recent active one.
fn pick_session(places: &crate::engine::paths::Places, arg: &SessionArg) -> Result<String> {
    if let Some(id) = &arg.session {
        return known_session(places, id);
    }
    state::recent_sessions(&places.state_dir, 50)
        .into_iter()
        .find(|s| s.workflow.as_ref().is_some_and(Workflow::active))
        .map(|s| s.session)
        .context(
            "no session has an active workflow; pass --session ID (see `programmer-hook status`)",
        )
}

/// A session id given on the command line, checked the same way by every command that
/// takes one: the hook must have seen the session, in a workflow prompt (it keeps a state
/// file for those) or in a tool call it decided (the audit log names the session).
fn known_session(places: &crate::engine::paths::Places, id: &str) -> Result<String> {
    if state::session_path(&places.state_dir, id).is_file()
        || audit::mentions_session(&places.state_dir, id)
    {
        return Ok(id.to_string());
    }
    bail!(
        "no session {id:?} is known (the hook has seen no prompt or tool call of it); `programmer-hook status` lists the recent ones"
    )
}

pub fn run_control(a: SessionArg, c: Control) -> Result<i32> {
    let places = state::places()?;
    let id = pick_session(&places, &a)?;
    let cmd = match c {
        Control::Approve => workflow::PromptCommand::Approve,
        Control::Continue => workflow::PromptCommand::Continue,
        Control::Abort => workflow::PromptCommand::Abort,
    };
    let max = hook::load_policy(&places, None)
        .map(|p| p.workflow.max_review_rounds)
        .unwrap_or(WorkflowSettings::DEFAULT_REVIEW_ROUNDS);
    let now = clock::now();
    let before = state::load_session(&places.state_dir, &id)?;
    let phase_before = before.workflow.as_ref().map(|w| w.phase);
    let message = state::update_session(&places.state_dir, &id, |s| {
        crate::hook::events::apply_to_session(s, &cmd, max, &now, |r, q| {
            Workflow::new(r, q, None, "", &now)
        })
        .message
    })?;
    println!(
        "session {id}: {}",
        message.trim_start_matches("programmer-hook: ")
    );
    let after = state::load_session(&places.state_dir, &id)?;
    Ok(
        if after.workflow.as_ref().map(|w| w.phase) == phase_before && !matches!(c, Control::Abort)
        {
            1
        } else {
            0
        },
    )
}

pub fn run_autonomy(a: AutonomyArgs) -> Result<i32> {
    let places = state::places()?;
    let id = match &a.session.session {
        Some(id) => known_session(&places, id)?,
        None => state::recent_sessions(&places.state_dir, 1)
            .into_iter()
            .next()
            .map(|s| s.session)
            .context("no session yet; pass --session ID (see `programmer-hook status`)")?,
    };
    let mode = if a.mode == "auto" {
        Autonomy::Auto
    } else {
        Autonomy::Confirm
    };
    state::set_autonomy(&places.state_dir, &id, mode)?;
    println!("session {id}: autonomy is now {}", a.mode);
    Ok(0)
}
