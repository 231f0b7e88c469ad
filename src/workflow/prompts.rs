//! The prompts the user types to steer the workflow (`/programmer …`, `approve`), and
//! what each does to the session's workflow.

use super::pack;
use super::phase::{Autonomy, Phase, Plan, Transition, Workflow};

/// What a user prompt asks of the workflow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PromptCommand {
    Start {
        request: String,
        quick: bool,
    },
    Approve,
    Continue,
    Abort,
    Status,
    Autonomy(Autonomy),
    /// `/programmer` with arguments it does not understand, or none.
    Help(String),
}

/// Reads a user prompt. Only whole prompts count: `approve` alone on its line (any case),
/// or a prompt that starts with `/programmer`, one of its other names (`/code`, `/dev`), or
/// the plugin's `/programmer:programmer`.
pub fn parse_prompt(text: &str) -> Option<PromptCommand> {
    let t = text.trim();
    if t.eq_ignore_ascii_case("approve") || t.eq_ignore_ascii_case("approved") {
        return Some(PromptCommand::Approve);
    }
    let body = t.strip_prefix('/')?;
    let rest = pack::prompt_command_names().find_map(|c| {
        body.strip_prefix(c.as_ref())
            .filter(|r| r.is_empty() || r.starts_with(char::is_whitespace))
    })?;
    let rest = rest.trim();
    let (word, tail) = match rest.split_once(char::is_whitespace) {
        Some((w, t)) => (w, t.trim()),
        None => (rest, ""),
    };
    let cmd = match word.to_ascii_lowercase().as_str() {
        "" => PromptCommand::Help(String::new()),
        "approve" if tail.is_empty() => PromptCommand::Approve,
        "continue" if tail.is_empty() => PromptCommand::Continue,
        "abort" if tail.is_empty() => PromptCommand::Abort,
        "status" if tail.is_empty() => PromptCommand::Status,
        "autonomy" => match tail.to_ascii_lowercase().as_str() {
            "auto" => PromptCommand::Autonomy(Autonomy::Auto),
            "confirm" => PromptCommand::Autonomy(Autonomy::Confirm),
            _ => PromptCommand::Help("autonomy takes `auto` or `confirm`".into()),
        },
        "quick" if !tail.is_empty() => PromptCommand::Start {
            request: tail.to_string(),
            quick: true,
        },
        "quick" => {
            PromptCommand::Help("quick needs a request: `/programmer quick <request>`".into())
        }
        _ => PromptCommand::Start {
            request: rest.to_string(),
            quick: false,
        },
    };
    Some(cmd)
}

/// Applies a user command to the session's workflow. `plan_fingerprint` is the current
/// fingerprint of the recorded plan file (read by the caller), needed for `approve`.
pub fn apply_command(
    wf: Option<Workflow>,
    cmd: &PromptCommand,
    start: impl FnOnce(&str, bool) -> Workflow,
    plan_fingerprint: Option<String>,
    max_rounds: u32,
    now: &str,
) -> Transition {
    let active = wf.as_ref().filter(|w| w.active()).cloned();
    match cmd {
        PromptCommand::Start { request, quick } => {
            let mut w = start(request, *quick);
            w.updated = now.to_string();
            start_workflow(w, active.as_ref(), max_rounds)
        }
        PromptCommand::Approve => match active {
            Some(w) => approve_plan(w, plan_fingerprint, max_rounds, now),
            None => Transition::new(
                wf,
                "programmer-hook: nothing to approve: no workflow is active. Start one with `/programmer <request>`.",
            ),
        },
        PromptCommand::Continue => match active {
            Some(w) => continue_halted(w, max_rounds, now),
            None => Transition::new(wf, "programmer-hook: no workflow is active; nothing to continue."),
        },
        PromptCommand::Abort => match active {
            Some(w) => abort(w, now),
            None => Transition::new(wf, "programmer-hook: no workflow is active; nothing to abort."),
        },
        PromptCommand::Status => {
            let m = match &active {
                Some(w) => w.summary(max_rounds),
                None => "programmer-hook: no workflow is active. Start one with `/programmer <request>`.".into(),
            };
            Transition::new(wf, m)
        }
        PromptCommand::Autonomy(a) => Transition::new(wf, autonomy_message(*a)),
        PromptCommand::Help(why) => {
            let m = help_message(why, active.as_ref(), max_rounds);
            Transition::new(wf, m)
        }
    }
}

/// `/programmer <request>`: the new workflow `w`, replacing the `active` one if any.
fn start_workflow(w: Workflow, active: Option<&Workflow>, max_rounds: u32) -> Transition {
    let mut m = String::new();
    if let Some(old) = active {
        m.push_str(&format!(
            "programmer-hook: the previous workflow (phase `{}`) was replaced. ",
            old.phase.name()
        ));
    }
    m.push_str(&w.summary(max_rounds));
    Transition::new(Some(w), m)
}

/// `approve`: the plan written in phase plan is locked at its current `fingerprint` and
/// the workflow moves to implement; in any other case nothing changes.
fn approve_plan(
    mut w: Workflow,
    fingerprint: Option<String>,
    max_rounds: u32,
    now: &str,
) -> Transition {
    if w.phase != Phase::Plan {
        let m = format!(
            "programmer-hook: nothing to approve: the workflow is in phase `{}`, not `plan`; nothing changed.",
            w.phase.name()
        );
        return Transition::new(Some(w), m);
    }
    match (&w.plan, fingerprint) {
        (Some(p), Some(fp)) => {
            let path = p.path.clone();
            w.plan = Some(Plan {
                path: path.clone(),
                fingerprint: Some(fp),
            });
            w.phase = Phase::Implement;
            w.updated = now.to_string();
            let m = format!(
                "programmer-hook: the user approved the plan {path}; it is now locked. {}",
                w.summary(max_rounds)
            );
            Transition::new(Some(w), m)
        }
        (Some(p), None) => {
            let m = format!(
                "programmer-hook: the plan {} cannot be read, so it was not approved; nothing changed. Write the plan again and ask the user to approve it.",
                p.path
            );
            Transition::new(Some(w), m)
        }
        (None, _) => Transition::new(
            Some(w),
            "programmer-hook: there is no plan to approve yet (none was written to docs/plans/ in this workflow); nothing changed. The planner writes the plan first.",
        ),
    }
}

/// `/programmer continue`: a halted workflow goes back to implement with its review rounds
/// counted afresh; any other is left as it is.
fn continue_halted(mut w: Workflow, max_rounds: u32, now: &str) -> Transition {
    if w.phase != Phase::Halted {
        let m = format!(
            "programmer-hook: the workflow is not halted (phase `{}`); nothing changed.",
            w.phase.name()
        );
        return Transition::new(Some(w), m);
    }
    w.phase = Phase::Implement;
    w.round = 0;
    w.note = None;
    w.updated = now.to_string();
    let m = format!(
        "programmer-hook: the user let the workflow continue; review rounds start again. {}",
        w.summary(max_rounds)
    );
    Transition::new(Some(w), m)
}

/// `/programmer abort`: the workflow ends where it is.
fn abort(mut w: Workflow, now: &str) -> Transition {
    w.phase = Phase::Done;
    w.note = Some("aborted by the user".into());
    w.updated = now.to_string();
    Transition::new(
        Some(w),
        "programmer-hook: the user aborted the workflow. Files stay as they are; no workflow is active.",
    )
}

/// `/programmer autonomy auto|confirm`: what the session's autonomy now means.
fn autonomy_message(a: Autonomy) -> &'static str {
    match a {
        Autonomy::Auto => "programmer-hook: autonomy is now `auto` for this session: Confirm actions whose effect the hook understood run without asking; the ones it cannot see through are still asked; Forbidden ones stay refused.",
        Autonomy::Confirm => "programmer-hook: autonomy is now `confirm` for this session: changes ask the user first.",
    }
}

/// `/programmer` alone or not understood: the commands, `why` the prompt was not one, and
/// where the `active` workflow stands.
fn help_message(why: &str, active: Option<&Workflow>, max_rounds: u32) -> String {
    let mut m = String::from("programmer-hook: `/programmer <request>` starts a workflow (plan → approve → implement → review → commit); `/programmer quick <request>` skips planning; `approve`, `/programmer status`, `continue`, `abort`, `autonomy auto|confirm` steer it.");
    if !why.is_empty() {
        m = format!("programmer-hook: {why}. {m}");
    }
    if let Some(w) = active {
        m.push(' ');
        m.push_str(&w.summary(max_rounds));
    }
    m
}
