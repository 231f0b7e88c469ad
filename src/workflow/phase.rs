//! Where a workflow stands: its phase and what each phase lets happen, the plan, the
//! record kept for one session, and the session's autonomy.
//!
//! plan → (user types `approve`) → implement → (reviewer spawned, tests passed) → review →
//! `Status: APPROVE` → commit → (a successful `git commit`) → done; `CHANGES_REQUESTED`
//! goes back to implement, and after too many rounds to halted until the user types
//! `/programmer continue`. Only the user moves the gates that need a human: those come from
//! prompts the user typed ([`super::prompts`]), which the model cannot produce.
//!
//! Everything in the workflow's rooms is pure: the hook reads the state, calls them with
//! plain values, and writes back what they return.

use serde::{Deserialize, Serialize};

/// Where a workflow stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Phase {
    Plan,
    Implement,
    Review,
    Commit,
    Halted,
    Done,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Plan => "plan",
            Phase::Implement => "implement",
            Phase::Review => "review",
            Phase::Commit => "commit",
            Phase::Halted => "halted",
            Phase::Done => "done",
        }
    }

    /// What may happen in this phase, for the agents' context.
    pub fn guidance(self) -> &'static str {
        match self {
            Phase::Plan => "Phase plan: explore read-only and write the plan to docs/plans/YYYY-MM-DD-<topic>.md in the project; no other writes, only read-only commands, and the implementer may not start. The user approves the plan by typing `approve`.",
            Phase::Implement => "Phase implement: change the code as the approved plan says (the plan file itself is locked) and run the project's tests; no git add, commit or push. Spawn the code-reviewer when the tests pass after the last change.",
            Phase::Review => "Phase review: the code-reviewer reads the change; nothing may be written and only read-only commands run. Its final message must hold a line `Status: APPROVE` or `Status: CHANGES_REQUESTED`.",
            Phase::Commit => "Phase commit: the review approved the change; stage and commit it (`git add`, `git commit`). Other writes are refused. A successful commit ends the workflow.",
            Phase::Halted => "Phase halted: the review asked for changes too many times. Only read-only commands run until the user types `/programmer continue` (or `/programmer abort`).",
            Phase::Done => "No workflow is active.",
        }
    }
}

/// The approved plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Plan {
    pub path: String,
    /// A content fingerprint taken at approval; any later change is refused.
    #[serde(default)]
    pub fingerprint: Option<String>,
}

/// The workflow of one Claude Code session.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Workflow {
    pub phase: Phase,
    #[serde(default)]
    pub request: String,
    #[serde(default)]
    pub quick: bool,
    /// The registered project, when the session's folder is in one.
    #[serde(default)]
    pub project: Option<String>,
    /// The project root plans are written under.
    #[serde(default)]
    pub root: String,
    /// The latest plan document written in phase plan (approved once phase is past plan).
    #[serde(default)]
    pub plan: Option<Plan>,
    /// Rounds of requested changes so far.
    #[serde(default)]
    pub round: u32,
    #[serde(default)]
    pub last_verdict: Option<String>,
    /// Counts file changes; the test gate compares it with `tests_passed_at`.
    #[serde(default)]
    pub changes: u64,
    #[serde(default)]
    pub tests_passed_at: Option<u64>,
    /// The reviewer subagent of the current review, when known: only its verdict counts.
    #[serde(default)]
    pub reviewer: Option<String>,
    #[serde(default)]
    pub started: String,
    #[serde(default)]
    pub updated: String,
    /// Why the workflow is halted or restricted, when not by review rounds.
    #[serde(default)]
    pub note: Option<String>,
}

impl Workflow {
    pub fn new(request: &str, quick: bool, project: Option<String>, root: &str, now: &str) -> Self {
        Workflow {
            phase: if quick { Phase::Implement } else { Phase::Plan },
            request: request.to_string(),
            quick,
            project,
            root: root.to_string(),
            plan: None,
            round: 0,
            last_verdict: None,
            changes: 0,
            tests_passed_at: None,
            reviewer: None,
            started: now.to_string(),
            updated: now.to_string(),
            note: None,
        }
    }

    /// A workflow held in phase `halted` because its state cannot be trusted; `note` says
    /// why and what the user can do. Only read-only work runs until the user resumes or
    /// aborts it.
    pub fn halted(note: String, now: &str) -> Self {
        let mut w = Workflow::new("", false, None, "", now);
        w.phase = Phase::Halted;
        w.note = Some(note);
        w
    }

    /// What may happen now, for the agents' context: the phase's guidance, told for this
    /// workflow (a quick one has no plan; a halted one may be halted for another reason than
    /// review rounds, which its note gives).
    pub fn guidance(&self) -> String {
        match self.phase {
            Phase::Implement if self.plan.is_none() => "Phase implement (no plan: a quick workflow): change the code as the request says and run the project's tests; no git add, commit or push. Spawn the code-reviewer when the tests pass after the last change.".to_string(),
            Phase::Halted if self.note.is_some() => "Phase halted: the workflow state could not be trusted (see the note). Only read-only commands run until the user types `/programmer continue` (or `/programmer abort`).".to_string(),
            p => p.guidance().to_string(),
        }
    }

    /// Why the workflow is halted, for refusals.
    pub(super) fn halted_reason(&self) -> &'static str {
        if self.note.is_some() {
            "the workflow is halted because its state could not be trusted"
        } else {
            "the workflow is halted after too many review rounds"
        }
    }

    pub fn active(&self) -> bool {
        self.phase != Phase::Done
    }

    /// A one-paragraph summary for the user and the agents.
    pub fn summary(&self, max_rounds: u32) -> String {
        let mut s = format!("programmer-hook: workflow phase `{}`", self.phase.name());
        if let Some(p) = &self.project {
            s.push_str(&format!(", project `{p}`"));
        }
        if !self.request.is_empty() {
            s.push_str(&format!(", request: {}", one_line(&self.request, 200)));
        }
        if let Some(p) = &self.plan {
            s.push_str(&format!(", plan {}", p.path));
        }
        s.push_str(&format!(", review round {}/{max_rounds}", self.round));
        if let Some(v) = &self.last_verdict {
            s.push_str(&format!(", last verdict {v}"));
        }
        s.push_str(". ");
        s.push_str(&self.guidance());
        if let Some(n) = &self.note {
            s.push(' ');
            s.push_str(n);
        }
        s
    }
}

/// Session autonomy: whether Confirm asks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Autonomy {
    #[default]
    Confirm,
    Auto,
}

/// The outcome of a user command: the new workflow and a message for the agent and user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transition {
    pub workflow: Option<Workflow>,
    pub message: String,
}

impl Transition {
    pub(super) fn new(workflow: Option<Workflow>, message: impl Into<String>) -> Self {
        Transition {
            workflow,
            message: message.into(),
        }
    }
}

/// `s` on one line, cut to `max` characters.
fn one_line(s: &str, max: usize) -> String {
    let flat: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() > max {
        let mut t: String = flat.chars().take(max).collect();
        t.push('…');
        t
    } else {
        flat
    }
}
