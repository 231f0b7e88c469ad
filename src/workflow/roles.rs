//! Agent roles: what each agent of the pack may do, as the hook enforces it.
//!
//! The agent files in `agents/` declare a `tools:` list for Claude Code; this table is what
//! the hook holds them to whatever their files say. A test checks that the two agree, so
//! the markdown and the binary cannot drift apart. The main thread (no `agent_type`) is the
//! orchestrator.

use super::pack::PLUGIN;
use crate::engine::tools::Tool;

/// Where a role may write files.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriteScope {
    /// Never writes.
    Nothing,
    /// Only plan documents: `<project>/docs/plans/YYYY-MM-DD-<topic>.md`.
    Plans,
    /// Anywhere the tiers allow.
    Tiers,
}

/// What a role may run in Bash.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BashScope {
    /// Only commands the policy classifies Safe.
    SafeOnly,
    /// Whatever the tiers allow.
    Tiers,
}

/// One agent role.
#[derive(Debug, Clone, Copy)]
pub struct Role {
    /// The agent's `name` (its `agent_type` in hook events).
    pub name: &'static str,
    /// The model its agent file asks for.
    pub model: &'static str,
    /// The tools its agent file lists.
    pub tools: &'static [Tool],
    pub writes: WriteScope,
    pub bash: BashScope,
    /// Whether it may run `git add`, `git commit`, `git push` and other history changes.
    pub may_commit: bool,
    /// A one-line summary of its limits, for denials and context.
    pub limits: &'static str,
}

pub const ORCHESTRATOR: &str = "programmer-orchestrator";
pub const PLANNER: &str = "code-planner";
pub const IMPLEMENTER: &str = "code-implementer";
pub const REVIEWER: &str = "code-reviewer";

/// The pack's roles.
pub const ROLES: &[Role] = &[
    Role {
        name: ORCHESTRATOR,
        model: "opus",
        tools: &[Tool::Read, Tool::Glob, Tool::Grep, Tool::Bash, Tool::Agent, Tool::TodoWrite],
        writes: WriteScope::Tiers,
        bash: BashScope::Tiers,
        may_commit: true,
        limits: "routes work to the planner, implementer and reviewer; commits only after an approving review",
    },
    Role {
        name: PLANNER,
        model: "sonnet",
        tools: &[Tool::Read, Tool::Glob, Tool::Grep, Tool::Write, Tool::Bash, Tool::WebSearch, Tool::WebFetch],
        writes: WriteScope::Plans,
        bash: BashScope::SafeOnly,
        may_commit: false,
        limits: "writes only plan documents under docs/plans/ and runs only read-only commands",
    },
    Role {
        name: IMPLEMENTER,
        model: "sonnet",
        tools: &[Tool::Read, Tool::Write, Tool::Edit, Tool::MultiEdit, Tool::Bash, Tool::Glob, Tool::Grep],
        writes: WriteScope::Tiers,
        bash: BashScope::Tiers,
        may_commit: false,
        limits: "changes code and runs tests, but never stages, commits, pushes or rewrites history",
    },
    Role {
        name: REVIEWER,
        model: "sonnet",
        tools: &[Tool::Read, Tool::Glob, Tool::Grep, Tool::Bash],
        writes: WriteScope::Nothing,
        bash: BashScope::SafeOnly,
        may_commit: false,
        limits: "reads and runs only read-only commands; never writes",
    },
];

/// The pack's agent an `agent_type` (or an Agent call's `subagent_type`) names. Roles are
/// keyed by the exact name Claude Code reports: the agent's own name, as a source install
/// loads it from the config dir (`code-reviewer`), or the same name in the plugin's
/// namespace (`programmer:code-reviewer`). Any other name names none of them: another
/// plugin's `other:code-reviewer`, a nested `programmer:sub:code-reviewer`, a different
/// case or spelling.
pub fn pack_agent(agent_type: &str) -> Option<&'static str> {
    let name = agent_type
        .strip_prefix(PLUGIN)
        .and_then(|rest| rest.strip_prefix(':'))
        .unwrap_or(agent_type);
    ROLES.iter().map(|r| r.name).find(|n| *n == name)
}

/// The role of a calling agent, keyed as [`pack_agent`] says; the main thread (no agent
/// type) is the orchestrator. Other agents have no role.
pub fn role_of(agent_type: Option<&str>) -> Option<&'static Role> {
    let name = match agent_type {
        None => ORCHESTRATOR,
        Some(t) => pack_agent(t)?,
    };
    ROLES.iter().find(|r| r.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roles_resolve() {
        assert_eq!(role_of(None).map(|r| r.name), Some(ORCHESTRATOR));
        assert_eq!(
            role_of(Some("code-reviewer")).map(|r| r.name),
            Some(REVIEWER)
        );
        assert!(role_of(Some("Explore")).is_none());
    }

    #[test]
    fn roles_are_keyed_by_the_exact_name() {
        let cases: &[(&str, Option<&str>)] = &[
            // A source install: the agent's own name.
            ("code-reviewer", Some(REVIEWER)),
            ("code-planner", Some(PLANNER)),
            ("code-implementer", Some(IMPLEMENTER)),
            ("programmer-orchestrator", Some(ORCHESTRATOR)),
            // The plugin: the same names in its namespace.
            ("programmer:code-reviewer", Some(REVIEWER)),
            ("programmer:code-planner", Some(PLANNER)),
            ("programmer:code-implementer", Some(IMPLEMENTER)),
            ("programmer:programmer-orchestrator", Some(ORCHESTRATOR)),
            // Anything else is not one of the pack's agents.
            ("other:code-reviewer", None),
            ("pack:code-planner", None),
            ("programmer:sub:code-reviewer", None),
            ("programmer:", None),
            ("programmer", None),
            (":code-reviewer", None),
            ("programmerx:code-reviewer", None),
            ("Code-Reviewer", None),
            ("code-reviewer ", None),
            ("code-reviewer-2", None),
            ("my-code-reviewer", None),
            ("", None),
        ];
        for (agent_type, want) in cases {
            assert_eq!(pack_agent(agent_type), *want, "{agent_type:?}");
            assert_eq!(
                role_of(Some(agent_type)).map(|r| r.name),
                *want,
                "{agent_type:?}"
            );
        }
    }
}
