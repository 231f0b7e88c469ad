//! The Claude Code hook protocol: one event JSON on stdin, one answer on stdout.
//!
//! For `PreToolUse` and `PreSkillShellCommand` the answer always carries an explicit
//! `permissionDecision` (`allow`, `ask` or `deny`) and a reason naming the tier and rule.
//! Anything that goes wrong while deciding one of these (unreadable input, a field of the
//! wrong type, a policy file that does not load, a panic) ends in exit status 2 with a
//! one-line reason on stderr, which Claude Code treats as a denial. Claude Code lets a call
//! through when a hook prints something that is not JSON and exits 0, so on exit 0 this
//! module always prints a JSON object.

use std::io::Read;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde_json::{json, Map, Value};

use crate::classify::{self, Decision};
use crate::paths::{Places, RealFs};
use crate::policy::{self, Policy, Tier};
use crate::{audit, events, state};

/// The most input read from stdin.
pub const MAX_INPUT: usize = 4 * 1024 * 1024;

/// A hook event, with the fields the engine uses.
#[derive(Debug, Clone)]
pub struct Event {
    pub name: String,
    pub session_id: String,
    pub cwd: Option<PathBuf>,
    pub agent_id: Option<String>,
    pub agent_type: Option<String>,
    pub tool_name: Option<String>,
    pub tool_input: Value,
    pub raw: Value,
}

impl Event {
    /// Whether this event asks for a permission decision.
    pub fn is_gate(&self) -> bool {
        matches!(self.name.as_str(), "PreToolUse" | "PreSkillShellCommand")
    }
    /// The calling agent as logged: its type, or `main` for the main thread.
    pub fn agent(&self) -> String {
        match (&self.agent_type, &self.agent_id) {
            (Some(t), _) => t.clone(),
            (None, Some(_)) => "subagent".into(),
            (None, None) => "main".into(),
        }
    }
}

/// Reads stdin, bounded.
pub fn read_input(mut r: impl Read) -> Result<Vec<u8>> {
    let mut buf = Vec::new();
    r.by_ref()
        .take(MAX_INPUT as u64 + 1)
        .read_to_end(&mut buf)
        .context("cannot read the hook event from stdin")?;
    if buf.len() > MAX_INPUT {
        bail!("the hook event is larger than {} bytes", MAX_INPUT);
    }
    Ok(buf)
}

/// Parses an event. Gate events must have a tool name and an object input.
pub fn parse_event(bytes: &[u8]) -> Result<Event> {
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        bail!("no hook event on stdin (expected one JSON object from Claude Code)");
    }
    let text = std::str::from_utf8(bytes).context("the hook event is not valid UTF-8")?;
    let raw: Value = serde_json::from_str(text).context("the hook event is not valid JSON")?;
    let obj = raw
        .as_object()
        .context("the hook event is not a JSON object")?;
    let s = |k: &str| -> Result<Option<String>> {
        match obj.get(k) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(v)) => Ok(Some(v.clone())),
            Some(_) => bail!("field `{k}` of the hook event is not a string"),
        }
    };
    let name = s("hook_event_name")?.context("the hook event has no `hook_event_name`")?;
    let event = Event {
        session_id: s("session_id")?.unwrap_or_default(),
        cwd: s("cwd")?.filter(|c| !c.is_empty()).map(PathBuf::from),
        agent_id: s("agent_id")?,
        agent_type: s("agent_type")?,
        tool_name: s("tool_name")?,
        tool_input: obj.get("tool_input").cloned().unwrap_or(Value::Null),
        name,
        raw: raw.clone(),
    };
    if event.is_gate() {
        if event.tool_name.is_none() {
            bail!("{} event has no `tool_name`", event.name);
        }
        if !event.tool_input.is_object() {
            bail!("{} event has no `tool_input` object", event.name);
        }
        if event.cwd.as_deref().is_some_and(|c| !c.is_absolute()) {
            bail!("{} event has a relative `cwd`", event.name);
        }
    }
    Ok(event)
}

/// What the process prints and how it exits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

impl Answer {
    pub fn json(v: Value) -> Answer {
        Answer {
            stdout: v.to_string(),
            stderr: String::new(),
            code: 0,
        }
    }
    /// A blocking failure: exit 2 with a one-line reason.
    pub fn block(reason: &str) -> Answer {
        let one_line = reason.replace(['\n', '\r'], " ");
        Answer {
            stdout: String::new(),
            stderr: format!(
                "programmer-hook: blocked because the call could not be checked: {one_line}\n"
            ),
            code: 2,
        }
    }
}

/// The decision word Claude Code expects for a tier.
pub fn decision_word(t: Tier) -> &'static str {
    match t {
        Tier::Safe => "allow",
        Tier::Confirm => "ask",
        Tier::Forbidden => "deny",
    }
}

/// The reason shown with a decision: tier, rule id, why, what, and for a denial what to do.
pub fn reason_text(d: &Decision, extra: Option<&str>) -> String {
    let v = &d.verdict;
    let mut s = format!("programmer-hook: {} [{}] {}", v.tier, v.rule, v.reason);
    if !v.subject.is_empty() {
        s.push_str(&format!(" — `{}`", crate::audit::subject(&v.subject)));
    }
    if let Some(e) = extra {
        s.push_str(". ");
        s.push_str(e);
    }
    if v.tier == Tier::Forbidden {
        match &v.instead {
            Some(i) => s.push_str(&format!(". Instead: {i}")),
            None => s.push_str(
                ". This is never allowed; ask the user to do it themselves if it is really needed",
            ),
        }
    }
    s
}

/// The JSON answer to a gate event.
pub fn gate_answer(event_name: &str, tier: Tier, reason: &str, context: Option<&str>) -> Answer {
    let mut out = Map::new();
    out.insert("hookEventName".into(), json!(event_name));
    out.insert("permissionDecision".into(), json!(decision_word(tier)));
    out.insert("permissionDecisionReason".into(), json!(reason));
    if let Some(c) = context {
        out.insert("additionalContext".into(), json!(c));
    }
    Answer::json(json!({ "hookSpecificOutput": Value::Object(out) }))
}

/// The text a gate event asks about: the command, the path, or the tool name.
pub fn subject_of(event: &Event) -> String {
    let input = &event.tool_input;
    for k in [
        "command",
        "file_path",
        "notebook_path",
        "path",
        "url",
        "query",
        "subagent_type",
    ] {
        if let Some(v) = input.get(k).and_then(Value::as_str) {
            return v.to_string();
        }
    }
    String::new()
}

/// Runs the whole hook on raw stdin bytes.
pub fn run(bytes: &[u8]) -> Answer {
    let event = match parse_event(bytes) {
        Ok(e) => e,
        Err(e) => {
            // A malformed event that surely is not a gate (a prompt, a subagent's start)
            // is not worth blocking the user over; anything else is blocked.
            if let Some(name) = non_gate_event_name(bytes) {
                return Answer::json(json!({
                    "systemMessage": format!("programmer-hook: could not read the {name} event: {e:#}")
                }));
            }
            return Answer::block(&format!("{e:#}"));
        }
    };
    if !event.is_gate() {
        // Workflow events never block on our own failure: the user is told instead.
        return match workflow_event(&event) {
            Ok(v) => Answer::json(v),
            Err(e) => Answer::json(json!({
                "systemMessage": format!("programmer-hook: could not update the workflow for {}: {e:#}", event.name)
            })),
        };
    }
    match gate(&event) {
        Ok(a) => a,
        Err(e) => Answer::block(&format!("{e:#}")),
    }
}

/// The name of an event that is valid JSON with a string `hook_event_name` naming a
/// non-gate event, when the rest of it could not be read.
fn non_gate_event_name(bytes: &[u8]) -> Option<String> {
    let v: Value = serde_json::from_slice(bytes).ok()?;
    let name = v.get("hook_event_name")?.as_str()?;
    (!matches!(name, "PreToolUse" | "PreSkillShellCommand") && v.get("tool_name").is_none()
        || matches!(name, "PostToolUse" | "PostToolUseFailure"))
    .then(|| name.to_string())
}

/// Handles an event that is not a gate (prompts, subagents, tool results).
fn workflow_event(event: &Event) -> Result<Value> {
    // The events the installer registers are the ones with a meaning here; gate events
    // never reach this function.
    if !crate::install::EVENTS.contains(&event.name.as_str()) {
        return Ok(json!({}));
    }
    let places = state::places()?;
    let policy = load_policy(&places, event.cwd.as_deref());
    let max_rounds = policy
        .as_ref()
        .map(|p| p.workflow.max_review_rounds)
        .unwrap_or(3);
    let env = events::Env {
        places: &places,
        now: now(),
        max_rounds,
    };
    events::other(&env, event, move || policy)
}

fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// Decides a gate event.
fn gate(event: &Event) -> Result<Answer> {
    let places = state::places()?;
    let policy = load_policy(&places, event.cwd.as_deref())?;
    let tool = event.tool_name.as_deref().unwrap_or_default();
    let ctx = classify::Context {
        policy: &policy,
        places: &places,
        fs: &RealFs,
        cwd: event.cwd.as_deref(),
    };
    let decision = if event.name == "PreSkillShellCommand" {
        let cmd = event
            .tool_input
            .get("command")
            .and_then(Value::as_str)
            .context("PreSkillShellCommand event has no `tool_input.command` string")?;
        classify::classify_command(cmd, &ctx)
    } else {
        classify::classify(tool, &event.tool_input, &ctx)?
    };
    let env = events::Env {
        places: &places,
        now: now(),
        max_rounds: policy.workflow.max_review_rounds,
    };
    let mut decision = decision;
    let outcome = events::gate(&env, event, &mut decision);
    let reason = reason_text(&decision, None);
    let logged = log_decision(&places, event, &decision, outcome.phase);
    // The process ends right after this answer: freeing the policy would only cost time.
    std::mem::forget(policy);
    let mut answer = gate_answer(
        &event.name,
        decision.verdict.tier,
        &reason,
        outcome.context.as_deref(),
    );
    // The decision stands whether or not it is logged, but the user is told.
    if let Err(e) = logged {
        if let Ok(Value::Object(mut m)) = serde_json::from_str::<Value>(&answer.stdout) {
            m.insert(
                "systemMessage".into(),
                json!(format!(
                    "programmer-hook: this decision could not be written to the audit log: {e:#}"
                )),
            );
            answer.stdout = Value::Object(m).to_string();
        }
    }
    Ok(answer)
}

/// The policy for an event: defaults, the user's file, and the project's file.
pub fn load_policy(places: &Places, cwd: Option<&Path>) -> Result<Policy> {
    let user = policy::user_policy_path(&places.state_dir);
    let project = cwd.and_then(|c| find_project_policy(c, &places.home));
    Policy::load(Some(&user), project.as_deref()).map_err(|e| {
        e.context("the policy could not be loaded; fix the file (see `programmer-hook policy validate FILE`)")
    })
}

/// Walks up from `cwd` to the repository root (or home) looking for a project policy.
pub fn find_project_policy(cwd: &Path, home: &Path) -> Option<PathBuf> {
    let mut dir = Some(cwd);
    let mut steps = 0;
    while let Some(d) = dir {
        let candidate = policy::project_policy_path(d);
        if candidate.is_file() {
            return Some(candidate);
        }
        if d == home || d.join(".git").exists() || steps > 32 {
            return None;
        }
        steps += 1;
        dir = d.parent();
    }
    None
}

fn log_decision(places: &Places, event: &Event, d: &Decision, phase: Option<&str>) -> Result<()> {
    let entry = audit::Entry {
        time: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        session: event.session_id.clone(),
        agent: event.agent(),
        event: event.name.clone(),
        tool: event.tool_name.clone().unwrap_or_default(),
        decision: decision_word(d.verdict.tier).into(),
        tier: d.verdict.tier.to_string(),
        rule: d.verdict.rule.clone(),
        subject: audit::subject(&subject_of(event)),
        phase: phase.map(str::to_string),
    };
    audit::append(&places.state_dir, &entry)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_input_blocks() {
        let cases: &[&[u8]] = &[
            b"",
            b"   ",
            b"not json",
            b"[1,2]",
            b"\xff\xfe",
            br#"{"hook_event_name": 5}"#,
            br#"{"hook_event_name":"PreToolUse","tool_input":{}}"#,
            br#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":"ls"}"#,
            br#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{},"cwd":"rel"}"#,
        ];
        for c in cases {
            let a = run(c);
            assert_eq!(a.code, 2, "{:?}", String::from_utf8_lossy(c));
            assert!(a.stdout.is_empty());
            assert!(a.stderr.starts_with("programmer-hook: blocked"));
        }
    }

    #[test]
    fn other_events_answer_json() {
        let a = run(br#"{"hook_event_name":"Notification","message":"x"}"#);
        assert_eq!(a.code, 0);
        assert_eq!(a.stdout, "{}");
    }
}
