//! The workflow state machine: phases, gates and what each phase and role may do.
//!
//! plan → (user types `approve`) → implement → (reviewer spawned, tests passed) → review →
//! `Status: APPROVE` → commit → (a successful `git commit`) → done; `CHANGES_REQUESTED`
//! goes back to implement, and after too many rounds to halted until the user types
//! `/programmer continue`. Only the user moves the gates that need a human: those come from
//! prompts the user typed, which the model cannot produce.
//!
//! Everything here is pure: the hook reads the state, calls these functions with plain
//! values, and writes back what they return.

use serde::{Deserialize, Serialize};

use crate::engine::policy::Tier;
use crate::engine::tools::Tool;
use crate::workflow::pack;
use crate::workflow::roles::{self, BashScope, Role, WriteScope};

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
    fn halted_reason(&self) -> &'static str {
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

/// The outcome of a user command: the new workflow and a message for the agent and user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Transition {
    pub workflow: Option<Workflow>,
    pub message: String,
}

impl Transition {
    fn new(workflow: Option<Workflow>, message: impl Into<String>) -> Self {
        Transition {
            workflow,
            message: message.into(),
        }
    }
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

/// A reviewer's verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReviewVerdict {
    Approve,
    ChangesRequested,
}

/// Finds the `Status:` line of a review. Exactly one verdict line must be present.
pub fn parse_verdict(text: &str) -> Option<ReviewVerdict> {
    let mut found = None;
    for line in text.lines() {
        let l = line
            .trim()
            .trim_start_matches(['-', '*', '#', '>', ' '])
            .trim();
        let l = l.trim_matches('*').trim();
        let Some(v) = l.strip_prefix("Status:") else {
            continue;
        };
        let v = v.trim().trim_matches(['*', '`', '.']).trim();
        let this = match v {
            "APPROVE" => ReviewVerdict::Approve,
            "CHANGES_REQUESTED" => ReviewVerdict::ChangesRequested,
            _ => continue,
        };
        if found.is_some_and(|f| f != this) {
            return None;
        }
        found = Some(this);
    }
    found
}

/// Applies a review verdict. Only a workflow in phase review takes one; anything else is a
/// stale or stray verdict and changes nothing.
pub fn apply_verdict(mut w: Workflow, v: ReviewVerdict, max_rounds: u32, now: &str) -> Transition {
    if w.phase != Phase::Review {
        let m = format!(
            "programmer-hook: a review verdict arrived in phase `{}` and was ignored (only the verdict of the current review counts).",
            w.phase.name()
        );
        return Transition {
            workflow: Some(w),
            message: m,
        };
    }
    w.updated = now.to_string();
    w.reviewer = None;
    match v {
        ReviewVerdict::Approve => {
            w.phase = Phase::Commit;
            w.last_verdict = Some("APPROVE".into());
        }
        ReviewVerdict::ChangesRequested => {
            w.round += 1;
            w.last_verdict = Some("CHANGES_REQUESTED".into());
            w.phase = if w.round >= max_rounds {
                Phase::Halted
            } else {
                Phase::Implement
            };
        }
    }
    let m = format!(
        "programmer-hook: the reviewer said {}. {}",
        w.last_verdict.as_deref().unwrap_or(""),
        w.summary(max_rounds)
    );
    Transition {
        workflow: Some(w),
        message: m,
    }
}

/// What the restrictions need to know about a tool call.
#[derive(Debug, Clone, Default)]
pub struct Call {
    pub tool: String,
    /// The tier the policy gave the call.
    pub tier: Option<Tier>,
    /// The call is Safe only by a rule of the user's or a project's policy file (or a
    /// suggested one): the built-in rules alone do not know it writes nothing. A
    /// read-only role or phase holds it as not Safe.
    pub widened: bool,
    /// Resolved paths the call writes (file tools and Bash alike).
    pub writes: Vec<String>,
    /// `git` subcommands the call runs.
    pub git: Vec<String>,
    /// `programmer-hook` is run (its own rules decide; it is never a history change).
    pub subagent_type: Option<String>,
}

impl Call {
    /// Whether the hook knows the call writes nothing: Safe by the policy in force, and by
    /// the built-in rules alone (no user, project or suggested rule widened it).
    pub fn read_only(&self) -> bool {
        self.tier.is_none_or(|t| t == Tier::Safe) && !self.widened
    }
}

/// A restriction that overrides the policy's verdict with a denial.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub rule: &'static str,
    pub reason: String,
    pub instead: String,
}

/// Git subcommands that change history or the index (never the implementer's).
pub const GIT_HISTORY: &[&str] = &[
    "add",
    "commit",
    "push",
    "rebase",
    "reset",
    "merge",
    "cherry-pick",
    "revert",
    "tag",
    "am",
    "filter-branch",
    "filter-repo",
    "update-ref",
    "pull",
    "replace",
    "commit-tree",
    "notes",
    "stash",
    "branch",
    "switch",
    "checkout",
    "restore",
    "rm",
    "mv",
];

/// Git subcommands that make history (not allowed in phase implement).
pub const GIT_COMMIT: &[&str] = &[
    "add",
    "commit",
    "push",
    "rebase",
    "merge",
    "cherry-pick",
    "revert",
    "tag",
    "am",
    "filter-branch",
    "filter-repo",
    "update-ref",
    "commit-tree",
    "replace",
    "notes",
];

/// Whether `path` is a plan document of `root`: `<root>/docs/plans/YYYY-MM-DD-<topic>.md`.
pub fn is_plan_path(path: &str, root: &str) -> bool {
    let root = root.trim_end_matches('/');
    let Some(name) = path
        .strip_prefix(root)
        .and_then(|r| r.strip_prefix("/docs/plans/"))
    else {
        return false;
    };
    if name.contains('/') {
        return false;
    }
    let Some(stem) = name.strip_suffix(".md") else {
        return false;
    };
    let b = stem.as_bytes();
    let date_ok = b.len() > 11
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[5..7].iter().all(u8::is_ascii_digit)
        && b[7] == b'-'
        && b[8..10].iter().all(u8::is_ascii_digit)
        && b[10] == b'-';
    date_ok
        && stem[11..]
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

/// The role and phase restrictions on a call: a refusal, or `None` when the policy's
/// verdict stands. `role` is `None` for agents outside the pack (they get only the tiers).
pub fn restrict(call: &Call, role: Option<&Role>, wf: Option<&Workflow>) -> Option<Refusal> {
    if let Some(r) = role {
        if let Some(x) = restrict_role(call, r, wf) {
            return Some(x);
        }
    }
    match wf.filter(|w| w.active()) {
        Some(w) => restrict_phase(call, w),
        None => None,
    }
}

/// Whether `tool` is a file tool that writes.
fn is_write_tool(tool: &str) -> bool {
    Tool::parse(tool).is_some_and(Tool::writes_files)
}

fn restrict_role(call: &Call, r: &Role, wf: Option<&Workflow>) -> Option<Refusal> {
    let who = r.name;
    let writes = !call.writes.is_empty() || is_write_tool(&call.tool);
    match r.writes {
        WriteScope::Nothing if writes => {
            return Some(Refusal {
                rule: "role.no-write",
                reason: format!("the {who} never writes files ({})", r.limits),
                instead: "report what should change and let the implementer make the change".into(),
            })
        }
        WriteScope::Plans if writes => {
            let root = wf.map(|w| w.root.as_str()).unwrap_or("");
            let ok = !root.is_empty()
                && !call.writes.is_empty()
                && call.writes.iter().all(|p| is_plan_path(p, root))
                && is_write_tool(&call.tool);
            if !ok {
                return Some(Refusal {
                    rule: "role.planner-writes-plans-only",
                    reason: format!("the {who} writes only plan documents ({})", r.limits),
                    instead: "write the plan with the Write tool to docs/plans/YYYY-MM-DD-<topic>.md in the project".into(),
                });
            }
        }
        _ => {}
    }
    if r.bash == BashScope::SafeOnly && Tool::Bash.is(&call.tool) && !call.read_only() {
        return Some(Refusal {
            rule: "role.read-only-commands",
            reason: format!("the {who} runs only read-only (Safe) commands ({})", r.limits),
            instead: "use read-only commands (git diff, git log, ls, cat, rg); leave changes and test runs to the implementer".into(),
        });
    }
    if !r.may_commit && call.git.iter().any(|g| GIT_HISTORY.contains(&g.as_str())) {
        return Some(Refusal {
            rule: "role.no-history-changes",
            reason: format!(
                "the {who} never stages, commits, pushes or changes git history ({})",
                r.limits
            ),
            instead: "finish your report; the orchestrator commits after an approving review"
                .into(),
        });
    }
    None
}

fn restrict_phase(call: &Call, w: &Workflow) -> Option<Refusal> {
    if let Some(r) = plan_locked(call, w) {
        return Some(r);
    }
    phase_rules(w.phase)
        .iter()
        .find(|r| r.trigger.fires(call, w))
        .map(|r| Refusal {
            rule: r.rule,
            reason: r.why.reason(w),
            instead: r.instead.into(),
        })
}

/// The approved plan is locked once the workflow is past planning.
fn plan_locked(call: &Call, w: &Workflow) -> Option<Refusal> {
    if w.phase == Phase::Plan {
        return None;
    }
    let p = w.plan.as_ref()?;
    call.writes.contains(&p.path).then(|| Refusal {
        rule: "phase.plan-locked",
        reason: format!("the approved plan {} is locked", p.path),
        instead: "follow the plan as approved; if it must change, ask the user to `/programmer abort` and start over".into(),
    })
}

/// What a phase rule looks for in a call.
#[derive(Debug, Clone, Copy)]
enum Trigger {
    /// The call writes a file (a file tool, or a command that writes).
    Writes,
    /// The call writes something other than plan documents of the workflow's root with a
    /// file tool.
    WritesBesidesPlans,
    /// The call starts one of these agents of the pack.
    Spawns(&'static [&'static str]),
    /// The call runs git subcommands that make history ([`GIT_COMMIT`]).
    Commits,
    /// A Bash command the policy did not classify Safe.
    NotReadOnly,
}

impl Trigger {
    fn fires(self, call: &Call, w: &Workflow) -> bool {
        let writes = !call.writes.is_empty() || is_write_tool(&call.tool);
        match self {
            Trigger::Writes => writes,
            Trigger::WritesBesidesPlans => {
                writes
                    && !(is_write_tool(&call.tool)
                        && !call.writes.is_empty()
                        && call.writes.iter().all(|p| is_plan_path(p, &w.root)))
            }
            Trigger::Spawns(agents) => call
                .subagent_type
                .as_deref()
                .is_some_and(|s| agents.contains(&s)),
            Trigger::Commits => call.git.iter().any(|g| GIT_COMMIT.contains(&g.as_str())),
            Trigger::NotReadOnly => Tool::Bash.is(&call.tool) && !call.read_only(),
        }
    }
}

/// Why a phase rule refuses a call.
#[derive(Debug, Clone, Copy)]
enum Why {
    Said(&'static str),
    /// Only read-only commands run in the workflow's phase.
    ReadOnlyPhase,
    /// The only file written in phase plan is the plan.
    PlansOnly,
    /// The workflow is halted (after review rounds, or because its state is not trusted).
    Halted,
}

impl Why {
    fn reason(self, w: &Workflow) -> String {
        match self {
            Why::Said(s) => s.into(),
            Why::ReadOnlyPhase => format!(
                "in phase {} only read-only (Safe) commands run",
                w.phase.name()
            ),
            Why::PlansOnly => format!(
                "in phase plan the only file written is the plan, {}/docs/plans/YYYY-MM-DD-<topic>.md",
                w.root
            ),
            Why::Halted => w.halted_reason().into(),
        }
    }
}

/// One restriction of a phase: the first rule of the phase whose trigger fires refuses.
#[derive(Debug)]
struct PhaseRule {
    trigger: Trigger,
    rule: &'static str,
    why: Why,
    instead: &'static str,
}

const ASK_TO_RESUME: &str = "ask the user to type `/programmer continue` or `/programmer abort`";
const AWAIT_VERDICT: &str = "wait for the reviewer's verdict";

const PLAN_RULES: &[PhaseRule] = &[
    PhaseRule {
        trigger: Trigger::Spawns(&[roles::IMPLEMENTER]),
        rule: "phase.plan-no-implementer",
        why: Why::Said("the implementer may not start before the user approves the plan"),
        instead: "finish the plan and ask the user to type `approve`",
    },
    PhaseRule {
        trigger: Trigger::WritesBesidesPlans,
        rule: "phase.plan-writes-plans-only",
        why: Why::PlansOnly,
        instead: "write the plan there with the Write tool, then ask the user to type `approve`",
    },
    PhaseRule {
        trigger: Trigger::NotReadOnly,
        rule: "phase.plan-read-only",
        why: Why::ReadOnlyPhase,
        instead: "explore with read-only commands and write the plan; changes come after `approve`",
    },
];

const IMPLEMENT_RULES: &[PhaseRule] = &[PhaseRule {
    trigger: Trigger::Commits,
    rule: "phase.implement-no-commit",
    why: Why::Said("nothing is committed before the review approves the change"),
    instead: "run the tests, then spawn the code-reviewer",
}];

const REVIEW_RULES: &[PhaseRule] = &[
    PhaseRule {
        trigger: Trigger::Writes,
        rule: "phase.review-no-write",
        why: Why::Said("nothing is written while the change is under review"),
        instead: AWAIT_VERDICT,
    },
    PhaseRule {
        trigger: Trigger::Spawns(&[roles::IMPLEMENTER]),
        rule: "phase.review-no-implementer",
        why: Why::Said("the implementer does not start while the change is under review"),
        instead: AWAIT_VERDICT,
    },
    PhaseRule {
        trigger: Trigger::NotReadOnly,
        rule: "phase.review-read-only",
        why: Why::ReadOnlyPhase,
        instead: AWAIT_VERDICT,
    },
];

const COMMIT_RULES: &[PhaseRule] = &[PhaseRule {
    trigger: Trigger::Writes,
    rule: "phase.commit-no-write",
    why: Why::Said("after an approving review only the commit happens; files may not change"),
    instead: "stage and commit the reviewed change with git add and git commit",
}];

const HALTED_RULES: &[PhaseRule] = &[
    PhaseRule {
        trigger: Trigger::Writes,
        rule: "phase.halted",
        why: Why::Halted,
        instead: ASK_TO_RESUME,
    },
    PhaseRule {
        trigger: Trigger::Spawns(&[roles::IMPLEMENTER, roles::REVIEWER]),
        rule: "phase.halted",
        why: Why::Halted,
        instead: ASK_TO_RESUME,
    },
    PhaseRule {
        trigger: Trigger::NotReadOnly,
        rule: "phase.halted",
        why: Why::ReadOnlyPhase,
        instead: ASK_TO_RESUME,
    },
];

/// The restrictions of a phase, in the order they are checked.
fn phase_rules(p: Phase) -> &'static [PhaseRule] {
    match p {
        Phase::Plan => PLAN_RULES,
        Phase::Implement => IMPLEMENT_RULES,
        Phase::Review => REVIEW_RULES,
        Phase::Commit => COMMIT_RULES,
        Phase::Halted => HALTED_RULES,
        Phase::Done => &[],
    }
}

/// The test gate for spawning the reviewer: `None` when it may start, else why not.
pub fn review_gate(w: &Workflow, test_command: Option<&str>) -> Option<Refusal> {
    if !matches!(w.phase, Phase::Implement) {
        return Some(Refusal {
            rule: "phase.review-needs-implement",
            reason: format!(
                "a review starts from phase implement, and the workflow is in phase {}",
                w.phase.name()
            ),
            instead: "finish the current phase first".into(),
        });
    }
    let test = test_command?;
    if w.tests_passed_at == Some(w.changes) {
        return None;
    }
    Some(Refusal {
        rule: "gate.tests-before-review",
        reason: format!(
            "the project's tests have not passed since the last file change (test command: `{test}`)"
        ),
        instead: format!("run `{test}` exactly as written from the project root; when it passes, spawn the reviewer again"),
    })
}

/// The approved plan must be the file that was approved: `current` is the fingerprint of
/// the plan file now (`None` when it cannot be read).
pub fn plan_gate(w: &Workflow, current: Option<&str>) -> Option<Refusal> {
    let plan = w.plan.as_ref()?;
    let approved = plan.fingerprint.as_deref()?;
    if current == Some(approved) {
        return None;
    }
    Some(Refusal {
        rule: "gate.plan-changed",
        reason: format!(
            "the approved plan {} has changed (or is gone) since the user approved it",
            plan.path
        ),
        instead:
            "restore the plan as approved, or ask the user to `/programmer abort` and plan again"
                .into(),
    })
}

/// A stable content fingerprint (FNV-1a 64 and length); used to notice any change to an
/// approved plan, not as a cryptographic hash.
pub fn fingerprint(bytes: &[u8]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    format!("fnv1a64:{h:016x}:{}", bytes.len())
}

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

#[cfg(test)]
#[path = "machine_tests.rs"]
mod tests;
