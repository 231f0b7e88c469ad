//! The Claude Code hook protocol: the event read from stdin and the answer written back.
//!
//! These are plain types and pure functions, below everything that handles an event, so
//! the run of a call and the workflow's event handlers (`run.rs`, `events.rs`) share
//! them without importing each other. The field names and answer shapes follow Claude
//! Code's hook documentation.

use std::io::Read;
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use serde_json::{json, Map, Value};

use crate::engine::classify::Decision;
use crate::engine::policy::Tier;

/// The hook events the product handles; the installer registers exactly these.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventName {
    PreToolUse,
    PreSkillShellCommand,
    PostToolUse,
    PostToolUseFailure,
    UserPromptSubmit,
    UserPromptExpansion,
    SessionStart,
    SubagentStart,
    SubagentStop,
}

impl EventName {
    /// Every event handled, in the order the installer writes them.
    pub const ALL: [EventName; 9] = [
        EventName::PreToolUse,
        EventName::PreSkillShellCommand,
        EventName::PostToolUse,
        EventName::PostToolUseFailure,
        EventName::UserPromptSubmit,
        EventName::UserPromptExpansion,
        EventName::SessionStart,
        EventName::SubagentStart,
        EventName::SubagentStop,
    ];

    /// The name as Claude Code spells it in `hook_event_name` and `settings.json`.
    pub fn as_str(self) -> &'static str {
        match self {
            EventName::PreToolUse => "PreToolUse",
            EventName::PreSkillShellCommand => "PreSkillShellCommand",
            EventName::PostToolUse => "PostToolUse",
            EventName::PostToolUseFailure => "PostToolUseFailure",
            EventName::UserPromptSubmit => "UserPromptSubmit",
            EventName::UserPromptExpansion => "UserPromptExpansion",
            EventName::SessionStart => "SessionStart",
            EventName::SubagentStart => "SubagentStart",
            EventName::SubagentStop => "SubagentStop",
        }
    }

    /// The event of a name, when it is one the product handles.
    pub fn parse(name: &str) -> Option<EventName> {
        EventName::ALL.into_iter().find(|e| e.as_str() == name)
    }

    /// Whether the event asks for a permission decision.
    pub fn is_gate(self) -> bool {
        matches!(
            self,
            EventName::PreToolUse | EventName::PreSkillShellCommand
        )
    }

    /// Whether the event reports a tool call that ran.
    pub fn is_tool_result(self) -> bool {
        matches!(self, EventName::PostToolUse | EventName::PostToolUseFailure)
    }
}

/// The most input read from stdin.
pub const MAX_INPUT: usize = 4 * 1024 * 1024;

impl std::fmt::Display for EventName {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

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
        self.kind().is_some_and(EventName::is_gate)
    }
    /// The event, when it is one the product handles.
    pub fn kind(&self) -> Option<EventName> {
        EventName::parse(&self.name)
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
    let mut event = Event {
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
    // A tool result of a call the hook ran confined carries the rewritten command: the
    // workflow reads the command the agent gave (a gate always judges the text it gets).
    if event.kind().is_some_and(EventName::is_tool_result) {
        let original = event
            .tool_input
            .get("command")
            .and_then(Value::as_str)
            .and_then(crate::confine::wrap::unwrap);
        if let (Some(o), Some(input)) = (original, event.tool_input.as_object_mut()) {
            input.insert("command".into(), Value::String(o));
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
        s.push_str(&format!(" — `{}`", crate::log::audit::subject(&v.subject)));
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
