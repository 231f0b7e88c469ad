//! What each hook event does to the workflow, with the state it reads and writes.
//!
//! This is the I/O edge around the pure [`workflow`] module: it loads the session, the
//! project and the autonomy setting, calls the pure functions, and writes back what they
//! return under the state files' locks. Gate events (`PreToolUse`) get the role and phase
//! restrictions on top of the policy's verdict; the other events move the workflow and
//! give the agents context.

use std::path::Path;

use anyhow::Result;
use serde_json::{json, Value};

use super::managed::{self, ManagedAutonomy};
use super::protocol::{Event, EventName};
use crate::engine::analyze::Facts;
use crate::engine::classify::{self, Decision, Verdict};
use crate::engine::paths::{Places, RealFs};
use crate::engine::policy::{AccessKind, PathLists, Policy, Tier};
use crate::engine::sandbox;
use crate::engine::tools::Tool;
use crate::workflow::escalation;
use crate::workflow::pack;
use crate::workflow::projects::{self, Project, WorkItem};
use crate::workflow::roles::{self, Role};
use crate::workflow::state::{self, Loaded, SessionFile};
use crate::workflow::{self, Autonomy, Call, Phase, Plan, PromptCommand, Refusal, Workflow};

/// Everything an event handler needs from the environment.
pub struct Env<'a> {
    pub places: &'a Places,
    /// The policy's path lists, for the sandbox decision (gate events only).
    pub lists: Option<&'a PathLists>,
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

/// The facts of a call as the workflow restrictions see them.
fn call_view(event: &Event, decision: &Decision) -> Call {
    let facts: &Facts = &decision.facts;
    let writes = facts
        .accesses
        .iter()
        .filter(|a| a.kind == AccessKind::Write)
        .map(|a| a.path.lexical.clone().unwrap_or_else(|| a.path.raw.clone()))
        .collect();
    // Git's own subcommands, and what other programs do on git's behalf (`npm version`).
    let git = facts
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
    Call {
        tool: event.tool_name.clone().unwrap_or_default(),
        tier: Some(decision.verdict.tier),
        widened: false,
        writes,
        git,
        subagent_type,
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
        instead: "ask the user to remove or rename that file (or reinstall the pack with `./install.sh`); `programmer-hook doctor` shows every such file".into(),
    })
}

/// What the workflow adds to a gate answer.
#[derive(Debug, Default)]
pub struct GateOutcome {
    /// Context for the agent (e.g. a phase change).
    pub context: Option<String>,
    /// The workflow phase the call was judged in, when a workflow is active.
    pub phase: Option<&'static str>,
    /// What let a Confirm call run without asking: `autonomy` for a relaxable one,
    /// `sandbox` for a contained one in Claude Code's sandbox; its tier stays Confirm, the
    /// answer is `allow`.
    pub relaxed_by: Option<&'static str>,
    /// Where the call goes when it needs escalating (see [`escalation`]), for the answer.
    pub escalation: Option<String>,
}

impl GateOutcome {
    /// The tier the answer is given for: Safe for a Confirm call that was relaxed.
    pub fn answer_tier(&self, decision: &Decision) -> Tier {
        match (decision.verdict.tier, self.relaxed_by) {
            (Tier::Confirm, Some(_))
                if decision.verdict.relaxable || decision.verdict.contained =>
            {
                Tier::Safe
            }
            (t, _) => t,
        }
    }
}

/// Why an opaque Confirm call is still asked in a session whose autonomy is `auto`.
pub const STILL_ASKED: &str = "asked even under autonomy auto, which relaxes only effects the hook understood inside the project: this one hides what runs, reaches outside the project, touches secrets or cannot be undone";

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
    let mut call = call_view(event, decision);
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
    apply_autonomy(env, event, decision, &mut out);
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

/// Session autonomy `auto`: a relaxable Confirm call runs without asking; a contained one
/// (code inside the project the hook cannot read) runs without asking only inside Claude
/// Code's sandbox; any other opaque one is still asked; Forbidden never changes. The
/// managed policy may allow less ([`managed`]): nothing, or only calls in the sandbox.
fn apply_autonomy(env: &Env, event: &Event, decision: &mut Decision, out: &mut GateOutcome) {
    if decision.verdict.tier != Tier::Confirm
        || event.session_id.is_empty()
        || state::autonomy(env.state_dir(), &event.session_id) != Autonomy::Auto
    {
        return;
    }
    let v = &mut decision.verdict;
    if !(v.relaxable || v.contained) {
        v.reason = format!("{} ({STILL_ASKED})", v.reason);
        return;
    }
    // Read only now: these are the verdicts the managed policy and the settings can change.
    let managed = managed::load();
    if let ManagedAutonomy::Never(why) = &managed {
        v.reason = format!("{} (asked even under autonomy auto: {why})", v.reason);
        return;
    }
    if v.relaxable && managed == ManagedAutonomy::Allowed {
        out.relaxed_by = Some("autonomy");
        v.reason = format!(
            "{} (relaxable Confirm, allowed because this session's autonomy is auto)",
            v.reason
        );
        return;
    }
    // Sandboxed calls only: a contained one, or any under a sandbox-only managed policy.
    match (sandboxed(env, event), v.contained) {
        (Ok(()), true) => {
            out.relaxed_by = Some("sandbox");
            v.reason = format!("{} ({SANDBOXED})", v.reason);
        }
        (Ok(()), false) => {
            out.relaxed_by = Some("sandbox");
            v.reason = format!("{} (relaxable Confirm, allowed because this session's autonomy is auto and the call runs in Claude Code's sandbox, where the managed policy allows auto)", v.reason);
        }
        (Err(why), true) => {
            v.reason = format!("{} ({NOT_SANDBOXED}: {why}; {TURN_ON})", v.reason)
        }
        (Err(why), false) => {
            v.reason = format!("{} (asked even under autonomy auto: the managed policy allows auto only inside Claude Code's sandbox, and this call would not run in it: {why}; {TURN_ON})", v.reason)
        }
    }
}

/// Why a contained call ran without asking.
pub const SANDBOXED: &str = "project code the hook cannot read, allowed because this session's autonomy is auto and the call runs in Claude Code's sandbox";
/// Why a contained call is still asked in an `auto` session.
pub const NOT_SANDBOXED: &str = "asked even under autonomy auto: this runs code the hook cannot read, which auto lets run only inside Claude Code's sandbox, and this call would not run in it";
/// How to turn the sandbox on.
pub const TURN_ON: &str = "`programmer-hook install-hooks --sandbox` turns the sandbox on (`programmer-hook doctor` shows its state)";

/// Whether a gate call runs in Claude Code's sandbox: a Bash call that does not ask to
/// leave it, in a project whose effective settings contain it. Else why not.
fn sandboxed(env: &Env, event: &Event) -> Result<(), String> {
    if !event.tool_name.as_deref().is_some_and(|t| Tool::Bash.is(t))
        || event.kind() != Some(EventName::PreToolUse)
    {
        return Err("only Bash calls run in the sandbox".into());
    }
    if sandbox::call_leaves_sandbox(&event.tool_input) {
        return Err("the call asks to leave the sandbox (`dangerouslyDisableSandbox`)".into());
    }
    let lists = env.lists.ok_or("the policy's paths are not known here")?;
    let project = super::sandbox_settings::project_dir(event.cwd.as_deref())
        .ok_or("the call has no working folder")?;
    let c = super::sandbox_settings::containment(env.places, lists, &project);
    match c.problems.as_slice() {
        [] => Ok(()),
        [one] => Err(one.clone()),
        [first, rest @ ..] => Err(format!("{first} (and {} more)", rest.len())),
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

/// The answer to a non-gate event.
pub fn other(env: &Env, event: &Event, policy: impl FnOnce() -> Result<Policy>) -> Result<Value> {
    match event.kind() {
        Some(EventName::UserPromptSubmit | EventName::UserPromptExpansion) => prompt(env, event),
        Some(EventName::SessionStart) => session_start(env, event),
        Some(EventName::SubagentStart) => subagent_start(env, event),
        Some(EventName::SubagentStop) => subagent_stop(env, event),
        Some(EventName::PostToolUse | EventName::PostToolUseFailure) => {
            post_tool(env, event, policy)
        }
        _ => Ok(json!({})),
    }
}

/// A session starts or resumes in a new client: no subagent of before runs any more.
fn session_start(env: &Env, event: &Event) -> Result<Value> {
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

fn context_answer(event_name: &str, text: &str) -> Value {
    if text.is_empty() {
        return json!({});
    }
    json!({"hookSpecificOutput": {"hookEventName": event_name, "additionalContext": text}})
}

/// Project, preferences, phase and role, for an agent's start.
fn session_context(env: &Env, event: &Event, role: Option<&Role>) -> String {
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

fn prompt(env: &Env, event: &Event) -> Result<Value> {
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

fn subagent_start(env: &Env, event: &Event) -> Result<Value> {
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

fn subagent_stop(env: &Env, event: &Event) -> Result<Value> {
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
fn review_result(
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

fn post_tool(env: &Env, event: &Event, policy: impl FnOnce() -> Result<Policy>) -> Result<Value> {
    if event.session_id.is_empty() {
        return Ok(json!({}));
    }
    let tool = event.tool_name.as_deref().and_then(Tool::parse);
    let call = event.raw.get("tool_use_id").and_then(Value::as_str);
    let session = match (tool.is_some_and(Tool::spawns_agent), call) {
        // The Agent call is over: its spawn is no longer pending.
        (true, Some(call)) => state::update_session(env.state_dir(), &event.session_id, |s| {
            s.agents.call_ended(call);
            s.clone()
        })?,
        _ => state::load_session(env.state_dir(), &event.session_id)?,
    };
    let Some(w) = session.workflow.filter(|w| w.active()) else {
        return Ok(json!({}));
    };
    let failed = event.kind() == Some(EventName::PostToolUseFailure);
    match tool {
        Some(t) if t.writes_files() && !failed => {
            let path = ["file_path", "notebook_path"]
                .iter()
                .find_map(|k| event.tool_input.get(*k).and_then(Value::as_str))
                .unwrap_or("")
                .to_string();
            let path = crate::engine::paths::normalize(Path::new(&path));
            let is_plan = w.phase == Phase::Plan && workflow::is_plan_path(&path, &w.root);
            let now = env.now.clone();
            state::update_session(env.state_dir(), &event.session_id, |s| {
                if let Some(w) = s.workflow.as_mut() {
                    w.changes += 1;
                    w.updated = now;
                    if is_plan && w.phase == Phase::Plan {
                        w.plan = Some(Plan {
                            path: path.clone(),
                            fingerprint: None,
                        });
                    }
                }
            })?;
            if is_plan {
                return Ok(
                    json!({"hookSpecificOutput": {"hookEventName": event.name, "additionalContext": format!("programmer-hook: plan recorded: {path}. Show it to the user and ask them to type `approve`.")}}),
                );
            }
            Ok(json!({}))
        }
        Some(Tool::Bash) => post_bash(env, event, &w, failed, policy),
        // The main thread's reviewer came back; a reviewer any subagent started is a
        // helper, whose verdict never counts.
        Some(t) if t.spawns_agent() && !failed && event.agent_id.is_none() => {
            let sub = event
                .tool_input
                .get("subagent_type")
                .and_then(Value::as_str)
                .and_then(roles::pack_agent);
            if sub != Some(roles::REVIEWER) {
                return Ok(json!({}));
            }
            let resp = event.raw.get("tool_response");
            if resp.and_then(|r| r.get("status")).and_then(Value::as_str) != Some("completed") {
                return Ok(json!({}));
            }
            let text: String = resp
                .and_then(|r| r.get("content"))
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(|c| c.get("text").and_then(Value::as_str))
                        .collect::<Vec<_>>()
                        .join("\n")
                })
                .unwrap_or_default();
            let agent = resp.and_then(|r| r.get("agentId")).and_then(Value::as_str);
            review_result(env, event, &text, agent, true, false)
        }
        _ => Ok(json!({})),
    }
}

fn post_bash(
    env: &Env,
    event: &Event,
    w: &Workflow,
    failed: bool,
    policy: impl FnOnce() -> Result<Policy>,
) -> Result<Value> {
    let command = event
        .tool_input
        .get("command")
        .and_then(Value::as_str)
        .unwrap_or("");
    let is_test = project_test_command(env, w).is_some_and(|t| runs_test(command, &t));
    let policy = policy()?;
    let ctx = crate::engine::Context {
        policy: &policy,
        places: env.places,
        fs: &RealFs,
        cwd: event.cwd.as_deref(),
    };
    let d = classify::classify_command(command, &ctx);
    let commits = d
        .facts
        .invocations
        .iter()
        .any(|i| i.name == "git" && i.args.first().is_some_and(|a| a.text == "commit"));
    let run = BashRun {
        is_test,
        failed,
        changed: !is_test && d.verdict.tier > Tier::Safe && !commits,
        finished: !failed && commits && w.phase == Phase::Commit,
    };
    record_bash_run(env, event, &run)?;
    if run.finished {
        let summary = commit_subject(&d.facts, event).unwrap_or_else(|| "commit".into());
        return Ok(finish_workflow(env, event, w.project.as_deref(), &summary));
    }
    if is_test {
        let m = if failed {
            "programmer-hook: the project's tests failed; the review cannot start until they pass."
        } else {
            "programmer-hook: the project's tests passed; the reviewer may start if nothing changes first."
        };
        return Ok(
            json!({"hookSpecificOutput": {"hookEventName": event.name, "additionalContext": m}}),
        );
    }
    Ok(json!({}))
}

/// The test command of the workflow's project, when it has one registered.
fn project_test_command(env: &Env, w: &Workflow) -> Option<String> {
    w.project
        .as_ref()
        .and_then(|_| project_of(env, Some(Path::new(&w.root))))
        .and_then(|(_, p)| p.ok())
        .and_then(|p| p.test)
}

/// What a finished Bash call means for the workflow.
struct BashRun {
    /// It ran the project's tests (which `failed` or passed).
    is_test: bool,
    failed: bool,
    /// It may have changed files (not Safe, not the tests, not a commit).
    changed: bool,
    /// It was the commit that ends the workflow.
    finished: bool,
}

/// Records a Bash call in the session's workflow: a test run sets or clears the test gate,
/// a change counts, the final commit ends the workflow.
fn record_bash_run(env: &Env, event: &Event, run: &BashRun) -> Result<()> {
    let now = env.now.clone();
    state::update_session(env.state_dir(), &event.session_id, |s| {
        let Some(w) = s.workflow.as_mut() else { return };
        w.updated = now.clone();
        if run.is_test {
            w.tests_passed_at = if run.failed { None } else { Some(w.changes) };
        } else if run.changed {
            w.changes += 1;
        }
        if run.finished {
            w.phase = Phase::Done;
            w.note = Some("committed".into());
        }
    })?;
    Ok(())
}

/// The answer to the commit that ended the workflow, adding it to the `project`'s recent
/// work.
fn finish_workflow(env: &Env, event: &Event, project: Option<&str>, summary: &str) -> Value {
    let mut message = None;
    if let Some(name) = project {
        let item = WorkItem {
            date: env.today(),
            summary: summary.to_string(),
        };
        if let Err(e) = projects::record_work(env.state_dir(), name, item) {
            message = Some(format!("programmer-hook: the commit was made but could not be added to the project's recent work: {e:#}"));
        }
    }
    let m = message.unwrap_or_else(|| {
        format!("programmer-hook: committed \"{summary}\"; the workflow is done.")
    });
    json!({"systemMessage": m, "hookSpecificOutput": {"hookEventName": event.name, "additionalContext": m}})
}

/// Whether a command runs the test command so that its exit status is the tests': the
/// command itself, or the last step of an `&&` chain (e.g. `cd app && cargo test`).
pub fn runs_test(command: &str, test: &str) -> bool {
    let norm = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let c = norm(command);
    let t = norm(test);
    !t.is_empty() && (c == t || c.ends_with(&format!("&& {t}")))
}

/// The subject of a commit: the first `-m` message's first line, else git's own report.
fn commit_subject(facts: &Facts, event: &Event) -> Option<String> {
    for inv in facts.invocations.iter().filter(|i| i.name == "git") {
        let mut it = inv.args.iter();
        while let Some(a) = it.next() {
            let msg = if a.text == "-m" || a.text == "--message" {
                it.next().map(|w| w.text.clone())
            } else {
                a.text
                    .strip_prefix("--message=")
                    .or_else(|| a.text.strip_prefix("-m").filter(|r| !r.is_empty()))
                    .map(str::to_string)
            };
            if let Some(m) = msg {
                let line = m.lines().next().unwrap_or("").trim().to_string();
                if !line.is_empty() && !line.contains("$(…)") {
                    return Some(line);
                }
            }
        }
    }
    // `[main 1a2b3c4] subject` in git's output.
    let out = event
        .raw
        .get("tool_response")
        .and_then(|r| r.get("stdout"))
        .and_then(Value::as_str)?;
    out.lines().find_map(|l| {
        let l = l.trim();
        l.starts_with('[')
            .then(|| l.split_once("] ").map(|(_, s)| s.trim().to_string()))
            .flatten()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn test_runs() {
        let cases: &[(&str, bool)] = &[
            ("cargo test", true),
            ("  cargo   test ", true),
            ("cd app && cargo test", true),
            ("cargo test | tail", false),
            ("cargo test; true", false),
            ("cargo test --lib", false),
            ("echo cargo test", false),
        ];
        for (c, want) in cases {
            assert_eq!(runs_test(c, "cargo test"), *want, "{c}");
        }
    }
}
