//! What a role and a phase may not do: the refusals that override the policy's verdict on a
//! tool call (a reviewer that writes, a commit in phase implement, a write in phase review).
//! A phase's restrictions are a table of rules, the first whose trigger fires refuses.

use super::phase::{Phase, Workflow};
use super::roles::{self, BashScope, Role, WriteScope};
use crate::engine::policy::{Kinds, Tier};
use crate::engine::tools::Tool;

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
    /// The call runs a git subcommand that changes history or the index (one of the
    /// policy's `kinds.git_history`; see [`Call::with_git`]).
    pub git_changes: bool,
    /// The call runs a git subcommand that makes history (`kinds.git_commits`).
    pub git_commits: bool,
    /// `programmer-hook` is run (its own rules decide; it is never a history change).
    pub subagent_type: Option<String>,
}

impl Call {
    /// The call with the git subcommands it runs (git's own, and those other programs run
    /// on git's behalf) looked up in the policy's kinds.
    pub fn with_git(mut self, git: &[String], kinds: &Kinds) -> Call {
        self.git_changes = git.iter().any(|g| kinds.git_history.contains(g));
        self.git_commits = git.iter().any(|g| kinds.git_commits.contains(g));
        self
    }

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
    if !r.may_commit && call.git_changes {
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
    /// The call runs git subcommands that make history (`kinds.git_commits`).
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
            Trigger::Commits => call.git_commits,
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
