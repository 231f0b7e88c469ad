//! The gate: the policy's verdict on a tool call, with the roles, the phases, the review
//! gate and the session's autonomy on top, and where a call that needs escalating goes.

use std::path::Path;

use anyhow::Result;
use serde_json::Value;

use super::autonomy::{apply_autonomy, apply_sandboxed_listing};
use super::outcome::GateOutcome;
use super::{project_of, Env};
use crate::engine::analyze::Facts;
use crate::engine::classify::{Decision, Verdict};
use crate::engine::policy::{AccessKind, Kinds, Tier};
use crate::engine::tools::Tool;
use crate::hook::protocol::{Event, EventName};
use crate::workflow::escalation;
use crate::workflow::pack;
use crate::workflow::roles::{self, Role};
use crate::workflow::state::{self, SessionFile};
use crate::workflow::{self, Call, Phase, Refusal, Workflow};

/// The facts of a call as the workflow restrictions see them, with the git subcommands it
/// runs looked up in the policy's kinds (without them, any git subcommand counts as one
/// that makes history).
fn call_view(event: &Event, decision: &Decision, kinds: Option<&Kinds>) -> Call {
    let facts: &Facts = &decision.facts;
    let writes = facts
        .accesses
        .iter()
        .filter(|a| a.kind == AccessKind::Write)
        .map(|a| a.path.lexical.clone().unwrap_or_else(|| a.path.raw.clone()))
        .collect();
    // Git's own subcommands, and what other programs do on git's behalf (`npm version`).
    let git: Vec<String> = facts
        .invocations
        .iter()
        .filter(|i| i.name == "git")
        .filter_map(|i| i.args.first().map(|w| w.text.clone()))
        .chain(facts.git_actions.iter().map(|a| a.action.clone()))
        .collect();
    let subagent_type = event
        .tool_name
        .as_deref()
        .and_then(Tool::parse)
        .is_some_and(Tool::spawns_agent)
        .then(|| {
            event
                .tool_input
                .get("subagent_type")
                .and_then(Value::as_str)
                .map(|s| roles::pack_agent(s).unwrap_or(s).to_string())
        })
        .flatten();
    let call = Call {
        tool: event.tool_name.clone().unwrap_or_default(),
        tier: Some(decision.verdict.tier),
        widened: false,
        writes,
        subagent_type,
        ..Call::default()
    };
    match kinds {
        Some(k) => call.with_git(&git, k),
        None => Call {
            git_changes: !git.is_empty(),
            git_commits: !git.is_empty(),
            ..call
        },
    }
}

/// The session as a gate reads it: its workflow and who runs which subagent. When its
/// state cannot be read, the workflow is a halted one (the phase is unknown, so the call is
/// held to read-only work, with a note saying why), and no agent is known.
struct Session {
    workflow: Option<Workflow>,
    agents: roles::Agents,
    readable: bool,
}

fn session_of(env: &Env, event: &Event) -> Session {
    let session = if event.session_id.is_empty() {
        Ok(SessionFile::default())
    } else {
        state::load_session(env.state_dir(), &event.session_id)
    };
    match session {
        Ok(s) => Session {
            workflow: s.workflow,
            agents: s.agents,
            readable: true,
        },
        Err(e) => Session {
            workflow: Some(Workflow::halted(
                format!("The workflow state could not be read: {e:#}."),
                &env.now,
            )),
            agents: roles::Agents::default(),
            readable: false,
        },
    }
}

/// The role that holds the calling agent (see [`roles::held_role`]). When the session's
/// state cannot be read, a subagent is held to the most restrictive role of all.
fn held_role(event: &Event, session: &Session) -> Option<&'static Role> {
    let unknown = (!session.readable)
        .then(|| roles::named(roles::REVIEWER))
        .flatten();
    roles::held_role(
        event.agent_id.as_deref(),
        event.agent_type.as_deref(),
        &session.agents,
        unknown,
    )
}

fn refuse(decision: &mut Decision, r: Refusal, who: &str) {
    decision.verdict = Verdict {
        tier: Tier::Forbidden,
        rule: r.rule.to_string(),
        reason: format!("{} ({who})", r.reason),
        instead: Some(r.instead),
        subject: decision.verdict.subject.clone(),
        relaxable: false,
        contained: false,
        effect: None,
        chosen: false,
    };
}

/// Starting the planner, implementer or reviewer is refused when the definition Claude Code
/// would load for that name is not the pack's own (a project's `.claude/agents/` wins over
/// the user's agents): the gates trust these agents, so an impostor may not stand in for
/// one. A plugin's agents (`PLUGIN:NAME`) are loaded from the plugin and are not shadowed.
fn definition_gate(env: &Env, event: &Event, call: &Call) -> Option<Refusal> {
    let name = call.subagent_type.as_deref()?;
    let raw = event
        .tool_input
        .get("subagent_type")
        .and_then(Value::as_str)?;
    if raw.contains(':') || ![roles::PLANNER, roles::IMPLEMENTER, roles::REVIEWER].contains(&name) {
        return None;
    }
    let places = env.places;
    let dirs = pack::agent_dirs(event.cwd.as_deref(), &places.home, &places.config_dir);
    let problem = pack::definition_problem(name, &dirs)?;
    Some(Refusal {
        rule: "gate.agent-definition",
        reason: format!("the `{name}` agent cannot be trusted: {problem}"),
        instead: "ask the user to remove or rename that file; `programmer-hook doctor` shows every such file and the fix for this install".into(),
    })
}

/// Applies roles, phases, the review gate and autonomy to a gate decision, and says
/// where a call that needs escalating goes.
///
/// `builtin_tier` gives the tier of the call under the built-in rules alone; it is asked
/// only when a read-only role or phase would let a Safe Bash call run.
pub fn gate(
    env: &Env,
    event: &Event,
    decision: &mut Decision,
    builtin_tier: &dyn Fn() -> Option<Tier>,
) -> GateOutcome {
    let mut out = decide(env, event, decision, builtin_tier);
    out.confine = super::confinement::profile(env, event, decision, &mut out);
    let v = &decision.verdict;
    let asked_or_denied = out.answer_tier(decision) != Tier::Safe;
    // A contained call is a routine confirmation too: a build or test run, which the
    // sandbox lets `auto` run.
    if asked_or_denied && escalation::needed(v.tier, &v.rule, v.relaxable || v.contained) {
        let places = env.places;
        let to = escalation::target(event.cwd.as_deref(), &places.home, &places.config_dir);
        out.escalation = Some(escalation::note(&to, event.agent_id.is_none()));
    }
    out
}

fn decide(
    env: &Env,
    event: &Event,
    decision: &mut Decision,
    builtin_tier: &dyn Fn() -> Option<Tier>,
) -> GateOutcome {
    let mut out = GateOutcome::default();
    // Forbidden already: nothing below could make it stricter, and its reason is the
    // most precise one.
    if decision.verdict.tier == Tier::Forbidden {
        if !event.session_id.is_empty() {
            out.phase = state::load_session(env.state_dir(), &event.session_id)
                .ok()
                .and_then(|s| s.workflow)
                .filter(|w| w.active())
                .map(|w| w.phase.name());
        }
        return out;
    }
    let session = session_of(env, event);
    let wf = session.workflow.clone();
    out.phase = wf.as_ref().filter(|w| w.active()).map(|w| w.phase.name());
    let mut call = call_view(event, decision, env.kinds);
    let role = held_role(event, &session);
    if call.tier == Some(Tier::Safe)
        && Tool::Bash.is(&call.tool)
        && holds_to_read_only(role, wf.as_ref())
    {
        call.widened = builtin_tier().is_none_or(|t| t != Tier::Safe);
    }
    if let Some((r, by, note)) = restriction(event, role, &call, wf.as_ref()) {
        refuse(decision, r, &by);
        if let Some(n) = note {
            decision.verdict.reason.push_str(&format!(". {n}"));
        }
        return out;
    }
    if let Some(r) = definition_gate(env, event, &call) {
        refuse(decision, r, "the agent pack");
        return out;
    }
    // Spawning the reviewer moves the workflow to review, behind the test gate.
    if call.subagent_type.as_deref() == Some(roles::REVIEWER) {
        if let Some(w) = wf.as_ref().filter(|w| w.active()) {
            match start_review(env, event, w) {
                Ok(context) => out.context = context,
                Err((r, by)) => {
                    refuse(decision, r, &by);
                    return out;
                }
            }
        }
    }
    // The project's test command, run exactly as registered, is a test run: it runs
    // project code, so it is contained however little of it the hook can see (`sh
    // test.sh`), never when a part is Forbidden.
    if decision.verdict.tier == Tier::Confirm
        && !decision.verdict.relaxable
        && is_registered_test(env, event, wf.as_ref())
    {
        decision.verdict.contained = true;
        decision.verdict.reason = format!(
            "{} (the project's registered test command)",
            decision.verdict.reason
        );
    }
    if !apply_sandboxed_listing(env, event, decision, &mut out) {
        apply_autonomy(env, event, decision, &mut out);
    }
    if let Err(e) = record_spawn(env, event, role) {
        refuse(
            decision,
            Refusal {
                rule: "gate.agent-unrecorded",
                reason: format!("the hook could not record who starts this agent, so it could not hold the agent to its role: {e:#}"),
                instead: "try again; if it keeps failing, run `programmer-hook doctor`".into(),
            },
            "the agent pack",
        );
    }
    out
}

/// Whether the caller's role or the workflow's phase lets only read-only commands run.
fn holds_to_read_only(role: Option<&Role>, wf: Option<&Workflow>) -> bool {
    role.is_some_and(|r| r.bash == roles::BashScope::SafeOnly)
        || wf.is_some_and(|w| {
            w.active() && matches!(w.phase, Phase::Plan | Phase::Review | Phase::Halted)
        })
}

/// An `Agent` call about to be let through is recorded as a pending spawn of the role
/// that holds its caller, so that the agent it starts is held to it (see
/// [`roles::Agents`]).
fn record_spawn(env: &Env, event: &Event, role: Option<&'static Role>) -> Result<()> {
    let spawns = event
        .tool_name
        .as_deref()
        .and_then(Tool::parse)
        .is_some_and(Tool::spawns_agent);
    if !spawns || event.session_id.is_empty() {
        return Ok(());
    }
    let call = event
        .raw
        .get("tool_use_id")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let subagent_type = event
        .tool_input
        .get("subagent_type")
        .and_then(Value::as_str);
    state::update_session(env.state_dir(), &event.session_id, |s| {
        s.agents
            .spawned(call, subagent_type, role, event.agent_id.as_deref());
    })
}

/// The role or phase restriction the call breaks, if any: the refusal, who or what
/// refuses it (`role code-reviewer`, `phase plan`), and the workflow's note.
fn restriction(
    event: &Event,
    role: Option<&'static Role>,
    call: &Call,
    wf: Option<&Workflow>,
) -> Option<(Refusal, String, Option<String>)> {
    let r = workflow::restrict(call, role, wf)?;
    let by = if r.rule.starts_with("role.") {
        let own = roles::role_of(event.agent_type.as_deref()).map(|r| r.name);
        match (role, &event.agent_type) {
            (Some(r), Some(t)) if own != Some(r.name) => {
                format!("agent {t}, held to role {}", r.name)
            }
            (Some(r), None) if event.agent_id.is_some() => {
                format!("unknown subagent, held to role {}", r.name)
            }
            (Some(r), _) => format!("role {}", r.name),
            (None, Some(t)) => format!("agent {t}"),
            (None, None) => "unknown subagent".into(),
        }
    } else {
        wf.filter(|w| w.active())
            .map(|w| format!("phase {}", w.phase.name()))
            .unwrap_or_default()
    };
    Some((r, by, wf.and_then(|w| w.note.clone())))
}

/// The reviewer is spawned in workflow `w`: the plan and test gates must pass, and the
/// workflow moves from implement to review. Gives the context to tell the agent, or the
/// refusal and who refuses.
fn start_review(
    env: &Env,
    event: &Event,
    w: &Workflow,
) -> Result<Option<String>, (Refusal, String)> {
    let project = w
        .project
        .as_ref()
        .and_then(|_| project_of(env, Some(Path::new(&w.root))));
    let test = match &project {
        Some((_, Ok(p))) => Ok(p.test.clone()),
        Some((_, Err(e))) => Err(e.clone()),
        None => Ok(None),
    };
    let plan_now = w
        .plan
        .as_ref()
        .and_then(|p| std::fs::read(&p.path).ok())
        .map(|b| workflow::fingerprint(&b));
    let gate = match &test {
        Ok(t) => workflow::plan_gate(w, plan_now.as_deref())
            .or_else(|| workflow::review_gate(w, t.as_deref())),
        Err(e) => Some(Refusal {
            rule: "gate.project-unreadable",
            reason: format!("the review cannot be gated on the project's tests: {e}"),
            instead: "fix or re-register the project (`programmer-hook add-project`), then spawn the reviewer again".into(),
        }),
    };
    if let Some(r) = gate {
        return Err((r, format!("phase {}", w.phase.name())));
    }
    let now = env.now.clone();
    let moved = state::update_session(env.state_dir(), &event.session_id, |s| {
        if let Some(w) = s.workflow.as_mut().filter(|w| w.phase == Phase::Implement) {
            w.phase = Phase::Review;
            w.reviewer = None;
            w.updated = now;
            true
        } else {
            false
        }
    });
    match moved {
        Ok(true) => Ok(Some("programmer-hook: the workflow is now in phase review. Nothing is written until the reviewer's verdict.".to_string())),
        Ok(false) => Ok(None),
        Err(e) => Err((
            Refusal {
                rule: "gate.state-unwritable",
                reason: format!("the move to phase review could not be recorded: {e:#}"),
                instead: "fix the state folder (see `programmer-hook doctor`), then try again".into(),
            },
            "phase implement".to_string(),
        )),
    }
}

/// Whether a Bash call is exactly the test command of the project it runs in (the
/// workflow's project, else the registered project of its folder).
fn is_registered_test(env: &Env, event: &Event, wf: Option<&Workflow>) -> bool {
    if !event.tool_name.as_deref().is_some_and(|t| Tool::Bash.is(t))
        || event.kind() != Some(EventName::PreToolUse)
    {
        return false;
    }
    let Some(command) = event.tool_input.get("command").and_then(Value::as_str) else {
        return false;
    };
    let project = match wf.filter(|w| w.active() && w.project.is_some()) {
        Some(w) => project_of(env, Some(Path::new(&w.root))),
        None => project_of(env, event.cwd.as_deref()),
    };
    let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    match project {
        Some((_, Ok(p))) => p
            .test
            .as_deref()
            .is_some_and(|t| !norm(t).is_empty() && norm(t) == norm(command)),
        _ => false,
    }
}
