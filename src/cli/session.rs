//! `status`, `approve`, `continue`, `abort` and `autonomy`: a session's workflow, steered
//! from the user's own terminal.

use anyhow::{bail, Result};
use clap::Args;
use serde_json::json;

use super::session_id;
use crate::engine::policy::WorkflowSettings;
use crate::hook;
use crate::setup::plugin;
use crate::workflow::{self, clock, pack, state, Autonomy, Workflow};

#[derive(Args)]
pub struct StatusArgs {
    /// The Claude Code session id, or a prefix of it only one session has (default: the most recent sessions).
    #[arg(long)]
    session: Option<String>,
    /// List every session the hook has seen in the last 7 days, not only those with a workflow.
    #[arg(long, conflicts_with = "session")]
    all: bool,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

#[derive(Args)]
pub struct SessionArg {
    /// The Claude Code session id, or a prefix of it only one session has (see
    /// `programmer-hook status --all`); without it, `approve`, `continue` and `abort` act
    /// only where exactly one workflow is open, and otherwise list the open ones.
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
    if a.all {
        return status_all(&places.state_dir, a.json);
    }
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
        let text = "no workflow sessions yet (start one in Claude Code with `/programmer <request>`; `programmer-hook status --all` lists every session the hook has seen)";
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

impl Control {
    fn name(self) -> &'static str {
        match self {
            Control::Approve => "approve",
            Control::Continue => "continue",
            Control::Abort => "abort",
        }
    }
}

/// The session a control command acts on: the given one, or, without `--session`, the
/// one session whose workflow is open. None open, or several (a session whose state file
/// cannot be read counts as open: the hook holds it halted), is an error that lists them,
/// so that a plan is never approved in a session the user did not mean.
fn pick_session(
    places: &crate::engine::paths::Places,
    arg: &SessionArg,
    c: Control,
) -> Result<String> {
    if let Some(id) = &arg.session {
        return known_session(places, id);
    }
    let open = open_workflows(&places.state_dir);
    let name = c.name();
    match open.as_slice() {
        [Open { id: Some(id), .. }] => {
            println!("the only open workflow is in session {id}");
            Ok(id.clone())
        }
        [] => bail!(
            "no session has an open workflow, so there is nothing to {name}; `programmer-hook status` shows where workflows stand"
        ),
        [one] => bail!(
            "the one open workflow is in a session whose state file cannot be read, so `{name}` acts on it only when named: run it again with --session ID:\n{}",
            open_listing(std::slice::from_ref(one))
        ),
        several => bail!(
            "{} workflows are open, so `{name}` needs to know which: run it again with --session ID (a prefix of the id will do):\n{}",
            several.len(),
            open_listing(several)
        ),
    }
}

/// An open workflow, for [`pick_session`].
struct Open {
    /// The session's id; `None` when its state file cannot be read.
    id: Option<String>,
    /// The file, for one that cannot be read.
    file: std::path::PathBuf,
    project: Option<String>,
    phase: String,
    /// When it last changed (the state file's time).
    changed: Option<std::time::SystemTime>,
}

/// Every session whose workflow is open (not done), most recently changed first.
fn open_workflows(state_dir: &std::path::Path) -> Vec<Open> {
    let mut out: Vec<Open> = std::fs::read_dir(state_dir.join("sessions"))
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .filter_map(|file| {
            let changed = std::fs::metadata(&file).and_then(|m| m.modified()).ok();
            let read = std::fs::read(&file)
                .ok()
                .and_then(|b| serde_json::from_slice::<state::SessionFile>(&b).ok());
            match read {
                Some(s) => {
                    let w = s.workflow.filter(Workflow::active)?;
                    Some(Open {
                        id: Some(s.session),
                        file,
                        project: w.project.clone(),
                        phase: w.phase.name().to_string(),
                        changed,
                    })
                }
                None => Some(Open {
                    id: None,
                    file,
                    project: None,
                    phase: "unreadable (held as halted)".into(),
                    changed,
                }),
            }
        })
        .collect();
    out.sort_by_key(|o| std::cmp::Reverse(o.changed));
    out
}

/// Open workflows as lines of a message: id, project, phase, age.
fn open_listing(open: &[Open]) -> String {
    let now = std::time::SystemTime::now();
    open.iter()
        .map(|o| {
            // A state file that cannot be read is named by its session's id where its
            // name is that id (ids of letters, digits, `-` and `_`).
            let id = match &o.id {
                Some(id) => id.clone(),
                None => format!(
                    "{} (state file {})",
                    o.file
                        .file_stem()
                        .map_or("?".into(), |s| s.to_string_lossy()),
                    o.file.display()
                ),
            };
            let age = o
                .changed
                .and_then(|t| now.duration_since(t).ok())
                .map_or("age unknown".to_string(), |d| {
                    format!("changed {} ago", age(d))
                });
            format!(
                "  {id}  project {}, phase {}, {age}",
                o.project.as_deref().unwrap_or("(none)"),
                o.phase
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A duration in the largest unit that fits: `40 s`, `12 min`, `3 h`, `2 days`.
fn age(d: std::time::Duration) -> String {
    let s = d.as_secs();
    match s {
        0..=59 => format!("{s} s"),
        60..=3599 => format!("{} min", s / 60),
        3600..=86_399 => format!("{} h", s / 3600),
        _ => match s / 86_400 {
            1 => "1 day".to_string(),
            n => format!("{n} days"),
        },
    }
}

/// A session id given on the command line, checked the same way by every command that
/// takes one (see `session_id`).
fn known_session(places: &crate::engine::paths::Places, id: &str) -> Result<String> {
    session_id::resolve(&places.state_dir, id)
}

/// How long ago a session was last seen for `status --all` and for `autonomy` to count it
/// as active.
const RECENT_DAYS: i64 = 7;
const ACTIVE_MINUTES: i64 = 60;

/// The sessions the hook saw since `ago` before now.
fn seen_since(state_dir: &std::path::Path, ago: chrono::TimeDelta) -> Vec<session_id::Seen> {
    let since = (chrono::Utc::now() - ago).to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
    session_id::seen(state_dir)
        .into_iter()
        .filter(|s| s.last >= since)
        .collect()
}

/// `status --all`: every session seen in the last days, newest first.
fn status_all(state_dir: &std::path::Path, as_json: bool) -> Result<i32> {
    let sessions = seen_since(state_dir, chrono::TimeDelta::days(RECENT_DAYS));
    if as_json {
        let v: Vec<_> = sessions
            .iter()
            .map(|s| {
                let file = state::load_session(state_dir, &s.id).ok();
                let mut j = file
                    .as_ref()
                    .map(|f| status_json(f, state::autonomy(state_dir, &s.id)))
                    .unwrap_or_else(|| json!({}));
                j["session"] = json!(s.id);
                j["last_seen"] = json!(s.last);
                j["calls"] = json!(s.calls);
                j["autonomy"] = json!(state::autonomy(state_dir, &s.id));
                j
            })
            .collect();
        println!(
            "{}",
            serde_json::to_string_pretty(&json!({ "sessions": v }))?
        );
        return Ok(0);
    }
    if sessions.is_empty() {
        println!("the hook has seen no session in the last {RECENT_DAYS} days");
        return Ok(0);
    }
    println!(
        "{:<38} {:<19} {:>6} {:<9} PHASE",
        "SESSION", "LAST SEEN (UTC)", "CALLS", "AUTONOMY"
    );
    for s in &sessions {
        let phase = if s.workflow {
            state::load_session(state_dir, &s.id)
                .ok()
                .and_then(|f| f.workflow)
                .filter(Workflow::active)
                .map(|w| w.phase.name().to_string())
                .unwrap_or_else(|| "none".into())
        } else {
            "none".into()
        };
        let autonomy = match state::autonomy(state_dir, &s.id) {
            Autonomy::Auto => "auto",
            Autonomy::Confirm => "confirm",
        };
        println!(
            "{:<38} {:<19} {:>6} {:<9} {phase}",
            s.id,
            s.last.get(..19).unwrap_or(&s.last).replace('T', " "),
            s.calls,
            autonomy
        );
    }
    Ok(0)
}

pub fn run_control(a: SessionArg, c: Control) -> Result<i32> {
    let places = state::places()?;
    let id = pick_session(&places, &a, c)?;
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
    let (id, why) = match &a.session.session {
        Some(id) => (known_session(&places, id)?, String::new()),
        None => {
            // A setting that may relax the hook names its session, or applies only where
            // one session alone is active.
            let active = seen_since(
                &places.state_dir,
                chrono::TimeDelta::minutes(ACTIVE_MINUTES),
            );
            match active.as_slice() {
                [one] => (
                    one.id.clone(),
                    format!(" (the only session active in the last {ACTIVE_MINUTES} minutes)"),
                ),
                [] => bail!(
                    "no session was active in the last {ACTIVE_MINUTES} minutes; name one with --session ID (`programmer-hook status --all` lists the recent ones)"
                ),
                several => bail!(
                    "{} sessions were active in the last {ACTIVE_MINUTES} minutes; name one with --session ID:\n{}",
                    several.len(),
                    session_id::listing(several)
                ),
            }
        }
    };
    let mode = if a.mode == "auto" {
        Autonomy::Auto
    } else {
        Autonomy::Confirm
    };
    state::set_autonomy(&places.state_dir, &id, mode)?;
    println!("session {id}{why}: autonomy is now {}", a.mode);
    Ok(0)
}
