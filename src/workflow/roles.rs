//! Agent roles: what each agent of the pack may do, as the hook enforces it, and which
//! role holds each running subagent.
//!
//! The agent files in `agents/` declare a `tools:` list for Claude Code; this table is what
//! the hook holds them to whatever their files say. A test checks that the two agree, so
//! the markdown and the binary cannot drift apart. The main thread (no `agent_type`) is the
//! orchestrator.
//!
//! Subagents may start subagents (the planner its exploration agents, the reviewer a
//! second opinion). Claude Code's events name only the calling agent (`agent_id`,
//! `agent_type`), never its parent, so [`Agents`] links them: an `Agent` call that passes
//! the gate is a pending [`Spawn`] of its caller's role, and the `SubagentStart` that
//! follows takes the role of the spawns it may belong to. An agent started by a
//! planner or reviewer is held to that role however it is named; an agent no spawn
//! explains gets the most restrictive role in play, and never more than the
//! implementer's (never the main thread's).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

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
        tools: &[
            Tool::Read,
            Tool::Glob,
            Tool::Grep,
            Tool::Write,
            Tool::Bash,
            Tool::Agent,
            Tool::Skill,
            Tool::WebSearch,
            Tool::WebFetch,
        ],
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
        tools: &[Tool::Read, Tool::Glob, Tool::Grep, Tool::Bash, Tool::Agent],
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
    named(name)
}

/// A role by its name in [`ROLES`].
pub fn named(name: &str) -> Option<&'static Role> {
    ROLES.iter().find(|r| r.name == name)
}

/// How much a role may do, least first: the reviewer writes nothing; the planner only
/// plans; the implementer never commits; the orchestrator, and an agent with no role
/// (the tiers alone), may do what the tiers and phases allow.
fn latitude(role: Option<&Role>) -> u8 {
    match role.map(|r| r.name) {
        Some(REVIEWER) => 0,
        Some(PLANNER) => 1,
        Some(IMPLEMENTER) => 2,
        Some(_) => 3,
        None => 4,
    }
}

/// The more restrictive of two roles (`None`: no role, only the tiers).
pub fn stricter(a: Option<&'static Role>, b: Option<&'static Role>) -> Option<&'static Role> {
    if latitude(b) < latitude(a) {
        b
    } else {
        a
    }
}

/// An `Agent` call that passed the gate and whose subagent has not started, or is
/// still running (foreground spawns stay pending until their `PostToolUse`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Spawn {
    /// The call's `tool_use_id`.
    pub call: String,
    /// The `subagent_type` it asked for; `None` for the client's default agent.
    #[serde(default)]
    pub subagent_type: Option<String>,
    /// The role that holds the caller; `None` for the main thread and agents without one.
    #[serde(default)]
    pub by_role: Option<String>,
    /// The `agent_id` of the caller; `None` for the main thread.
    #[serde(default)]
    pub by_agent: Option<String>,
}

impl Spawn {
    /// Whether the main thread made the call.
    pub fn by_main(&self) -> bool {
        self.by_agent.is_none()
    }
}

/// A subagent that started and has not stopped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Running {
    pub agent_type: String,
    /// The role it is held to (`None`: no role, only the tiers).
    #[serde(default)]
    pub role: Option<String>,
    /// Whether the main thread started it and nothing else could have: only such a
    /// reviewer gives the verdict of a review.
    #[serde(default)]
    pub by_main: bool,
}

/// Who started which subagent, in a session.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Agents {
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub spawns: Vec<Spawn>,
    /// Running subagents by `agent_id`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub running: BTreeMap<String, Running>,
}

/// The most pending spawns and running agents kept; beyond them the oldest spawns go
/// (their agents then start unattributed, and get the most restrictive role in play).
const MAX_TRACKED: usize = 64;

/// Whether an agent reported as `agent_type` may be the one `subagent_type` asked for:
/// the same name, or any agent for a call that names none (the client's default).
fn may_be(subagent_type: Option<&str>, agent_type: &str) -> bool {
    subagent_type.is_none_or(|s| s == agent_type)
}

impl Agents {
    /// The role a running agent is held to; `None` (outer) when it is not known.
    pub fn role_of(&self, agent_id: &str) -> Option<Option<&'static Role>> {
        self.running
            .get(agent_id)
            .map(|r| r.role.as_deref().and_then(named))
    }

    /// The role an agent no spawn explains is held to: the most restrictive in play (of the
    /// running agents, and `also`, a role the caller knows to be in play), and never more
    /// than the implementer's, so that it never has the main thread's right to commit.
    pub fn unattributed(&self, also: Option<&'static Role>) -> Option<&'static Role> {
        stricter(self.strictest_in_play(also), named(IMPLEMENTER))
    }

    /// The most restrictive role in play: of the running agents, and `also` (a role the
    /// caller knows to be in play). `None` when none is.
    pub fn strictest_in_play(&self, also: Option<&'static Role>) -> Option<&'static Role> {
        let running = self
            .running
            .values()
            .filter_map(|r| r.role.as_deref().and_then(named));
        running.chain(also).min_by_key(|r| latitude(Some(r)))
    }

    /// An `Agent` call `call` by agent `by_agent` (`None`: the main thread), held to
    /// `by_role`, passed the gate. A call id seen again replaces its spawn.
    pub fn spawned(
        &mut self,
        call: &str,
        subagent_type: Option<&str>,
        by_role: Option<&'static Role>,
        by_agent: Option<&str>,
    ) {
        self.spawns.retain(|s| s.call != call);
        if self.spawns.len() >= MAX_TRACKED {
            self.spawns.remove(0);
        }
        self.spawns.push(Spawn {
            call: call.to_string(),
            subagent_type: subagent_type.map(str::to_string),
            by_role: by_role.map(|r| r.name.to_string()),
            by_agent: by_agent.map(str::to_string),
        });
    }

    /// The `Agent` call `call` finished (or failed): its spawn is no longer pending.
    pub fn call_ended(&mut self, call: &str) {
        self.spawns.retain(|s| s.call != call);
    }

    /// Subagent `agent_id` of `agent_type` started; records and returns the role it is
    /// held to, the stricter of its own (a pack agent's) and its spawner's. The pending
    /// spawns that may have started it decide the spawner; when several may have, the
    /// most restrictive of their roles holds it, and it counts as the main thread's only
    /// when all of them are the main thread's. When none may have, the agent cannot be
    /// attributed, and [`Agents::unattributed`] says what holds it.
    pub fn started(
        &mut self,
        agent_id: &str,
        agent_type: &str,
        also: Option<&'static Role>,
    ) -> Running {
        let own = role_of(Some(agent_type));
        let candidates: Vec<&Spawn> = self
            .spawns
            .iter()
            .filter(|s| may_be(s.subagent_type.as_deref(), agent_type))
            .collect();
        let (inherited, by_main) = if candidates.is_empty() {
            (self.unattributed(also), false)
        } else {
            let inherited = candidates
                .iter()
                .map(|s| {
                    s.by_role
                        .as_deref()
                        .and_then(named)
                        .filter(|r| r.name != ORCHESTRATOR)
                })
                .fold(None, |acc: Option<Option<&'static Role>>, r| {
                    Some(match acc {
                        None => r,
                        Some(a) => stricter(a, r),
                    })
                })
                .flatten();
            (inherited, candidates.iter().all(|s| s.by_main()))
        };
        let held = stricter(own, inherited);
        let record = Running {
            agent_type: agent_type.to_string(),
            role: held.map(|r| r.name.to_string()),
            by_main,
        };
        if self.running.len() >= MAX_TRACKED && !self.running.contains_key(agent_id) {
            // Keep the most restrictive: an agent dropped here would later count as
            // unattributed, which is held to the most restrictive role in play anyway.
            if let Some(k) = self
                .running
                .iter()
                .max_by_key(|(_, r)| latitude(r.role.as_deref().and_then(named)))
                .map(|(k, _)| k.clone())
            {
                self.running.remove(&k);
            }
        }
        self.running.insert(agent_id.to_string(), record.clone());
        record
    }

    /// The main thread's turn ended (a new prompt came): its calls are over, so none of
    /// its spawns is pending any more (one left by a call that never ran would otherwise
    /// make every later agent of that type look ambiguous).
    pub fn main_turn_ended(&mut self) {
        self.spawns.retain(|s| !s.by_main());
    }

    /// Subagent `agent_id` stopped; gives what was recorded of it. Its own calls are
    /// over, so its spawns are no longer pending either.
    pub fn stopped(&mut self, agent_id: &str) -> Option<Running> {
        self.spawns
            .retain(|s| s.by_agent.as_deref() != Some(agent_id));
        self.running.remove(agent_id)
    }
}

/// The role that holds a calling agent: `agent_id` and `agent_type` as the event gives
/// them, `agents` the session's record and `also` a role the caller knows to be in play.
/// The main thread (no `agent_id`) has the role its type names (the orchestrator when
/// none); a subagent the role recorded when it started; a subagent with no record the
/// stricter of its own role and [`Agents::unattributed`], never the main thread's.
pub fn held_role(
    agent_id: Option<&str>,
    agent_type: Option<&str>,
    agents: &Agents,
    also: Option<&'static Role>,
) -> Option<&'static Role> {
    let Some(id) = agent_id else {
        return role_of(agent_type);
    };
    if let Some(held) = agents.role_of(id) {
        return held;
    }
    let own = agent_type.and_then(|t| role_of(Some(t)));
    stricter(own, agents.unattributed(also))
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

    fn name(r: Option<&Role>) -> Option<&str> {
        r.map(|r| r.name)
    }

    #[test]
    fn stricter_is_the_one_that_may_do_less() {
        let r = |n: &str| named(n);
        let cases: &[(Option<&str>, Option<&str>, Option<&str>)] = &[
            (Some(REVIEWER), Some(PLANNER), Some(REVIEWER)),
            (Some(PLANNER), Some(REVIEWER), Some(REVIEWER)),
            (Some(PLANNER), Some(IMPLEMENTER), Some(PLANNER)),
            (Some(IMPLEMENTER), Some(ORCHESTRATOR), Some(IMPLEMENTER)),
            (None, Some(ORCHESTRATOR), Some(ORCHESTRATOR)),
            (None, Some(PLANNER), Some(PLANNER)),
            (Some(REVIEWER), None, Some(REVIEWER)),
            (None, None, None),
        ];
        for (a, b, want) in cases {
            let got = stricter(a.and_then(r), b.and_then(r));
            assert_eq!(name(got), *want, "{a:?} {b:?}");
        }
    }

    /// One step of a session: a spawn (`by` is `main` or an agent id), a start, a call
    /// ended, or a stop.
    enum Step {
        Spawn(&'static str, Option<&'static str>, &'static str),
        Start(&'static str, &'static str),
        Ended(&'static str),
        Stop(&'static str),
        /// A new prompt: the main thread's turn ended.
        Prompt,
    }
    use Step::*;

    /// The main thread has started the planner, `p` (its call `c1`).
    const PLANNER_STARTED: &[Step] = &[
        Spawn("c1", Some("code-planner"), "main"),
        Start("p", "code-planner"),
    ];
    /// The main thread has started the reviewer, `r` (its call `c1`).
    const REVIEWER_STARTED: &[Step] = &[
        Spawn("c1", Some("code-reviewer"), "main"),
        Start("r", "code-reviewer"),
    ];

    /// A session of `parts`, one after the other.
    fn play(parts: &[&[Step]]) -> Agents {
        let mut a = Agents::default();
        let mut types: BTreeMap<&str, &str> = BTreeMap::new();
        for s in parts.iter().copied().flatten() {
            match s {
                Spawn(call, sub, by) => {
                    let id = (*by != "main").then_some(*by);
                    let role = held_role(id, id.and_then(|i| types.get(i).copied()), &a, None);
                    a.spawned(call, *sub, role, id);
                }
                Start(id, t) => {
                    types.insert(id, t);
                    a.started(id, t, None);
                }
                Ended(call) => a.call_ended(call),
                Stop(id) => {
                    a.stopped(id);
                }
                Prompt => a.main_turn_ended(),
            }
        }
        a
    }

    #[test]
    fn agents_are_held_to_the_role_of_who_started_them() {
        // A session, then the role the agent it started last is held to, and whether that
        // agent is the main thread's.
        type Case<'a> = (&'a [&'a [Step]], Option<&'a str>, bool);
        let cases: &[Case] = &[
            // The main thread's agents have their own roles, or none.
            (&[PLANNER_STARTED], Some(PLANNER), true),
            (
                &[&[Spawn("c1", Some("Explore"), "main"), Start("x", "Explore")]],
                None,
                true,
            ),
            (
                &[&[Spawn("c1", None, "main"), Start("x", "general-purpose")]],
                None,
                true,
            ),
            (&[REVIEWER_STARTED], Some(REVIEWER), true),
            // What the planner starts is held to the planner, however it is named.
            (
                &[
                    PLANNER_STARTED,
                    &[Spawn("c2", Some("Explore"), "p"), Start("x", "Explore")],
                ],
                Some(PLANNER),
                false,
            ),
            (
                &[
                    PLANNER_STARTED,
                    &[
                        Spawn("c2", Some("code-implementer"), "p"),
                        Start("i", "code-implementer"),
                    ],
                ],
                Some(PLANNER),
                false,
            ),
            (
                &[
                    PLANNER_STARTED,
                    &[Spawn("c2", None, "p"), Start("g", "general-purpose")],
                ],
                Some(PLANNER),
                false,
            ),
            // ... and the agents those start, in turn.
            (
                &[
                    PLANNER_STARTED,
                    &[
                        Spawn("c2", None, "p"),
                        Start("g", "general-purpose"),
                        Spawn("c3", Some("Explore"), "g"),
                        Start("x", "Explore"),
                    ],
                ],
                Some(PLANNER),
                false,
            ),
            // A reviewer started by the planner is held to the stricter reviewer, and is not
            // the main thread's.
            (
                &[
                    PLANNER_STARTED,
                    &[
                        Spawn("c2", Some("code-reviewer"), "p"),
                        Start("r", "code-reviewer"),
                    ],
                ],
                Some(REVIEWER),
                false,
            ),
            // What the reviewer starts is held to the reviewer: a second opinion too.
            (
                &[
                    REVIEWER_STARTED,
                    &[
                        Spawn("c2", Some("superpowers:code-reviewer"), "r"),
                        Start("h", "superpowers:code-reviewer"),
                    ],
                ],
                Some(REVIEWER),
                false,
            ),
            // The orchestrator's role is not inherited.
            (
                &[&[
                    Spawn("c1", Some("Explore"), "main"),
                    Start("x", "Explore"),
                    Spawn("c2", Some("Explore"), "x"),
                    Start("y", "Explore"),
                ]],
                None,
                false,
            ),
            // Two pending spawns of one type, by the main thread and the planner: the
            // agent that starts could be either, so the planner holds it, and it is not
            // the main thread's.
            (
                &[
                    PLANNER_STARTED,
                    &[
                        Spawn("c2", Some("Explore"), "p"),
                        Spawn("c3", Some("Explore"), "main"),
                        Start("x", "Explore"),
                    ],
                ],
                Some(PLANNER),
                false,
            ),
            // Once the planner's call is over, the main thread's next agent is its own.
            (
                &[
                    PLANNER_STARTED,
                    &[
                        Spawn("c2", Some("Explore"), "p"),
                        Start("x", "Explore"),
                        Stop("x"),
                        Ended("c2"),
                        Spawn("c3", Some("Explore"), "main"),
                        Start("y", "Explore"),
                    ],
                ],
                None,
                true,
            ),
            // A spawn whose call never ran is dropped when its caller is done: at the
            // main thread's next prompt, or when the agent that made it stops.
            (
                &[&[
                    Spawn("c1", None, "main"),
                    Prompt,
                    Spawn("c2", Some("code-reviewer"), "main"),
                    Start("r", "code-reviewer"),
                ]],
                Some(REVIEWER),
                true,
            ),
            (
                &[
                    REVIEWER_STARTED,
                    &[
                        Spawn("c2", Some("Explore"), "r"),
                        Stop("r"),
                        Ended("c1"),
                        Spawn("c3", Some("Explore"), "main"),
                        Start("y", "Explore"),
                    ],
                ],
                None,
                true,
            ),
            // ... but not while it may still run.
            (
                &[&[
                    Spawn("c1", None, "main"),
                    Spawn("c2", Some("code-reviewer"), "main"),
                    Start("r", "code-reviewer"),
                ]],
                Some(REVIEWER),
                true,
            ),
            (
                &[
                    PLANNER_STARTED,
                    &[
                        Spawn("c2", None, "p"),
                        Prompt,
                        Spawn("c3", Some("code-reviewer"), "main"),
                        Start("r", "code-reviewer"),
                    ],
                ],
                Some(REVIEWER),
                false,
            ),
            // No spawn explains an agent: the most restrictive role in play holds it.
            (
                &[REVIEWER_STARTED, &[Start("u", "general-purpose")]],
                Some(REVIEWER),
                false,
            ),
            (
                &[PLANNER_STARTED, &[Start("u", "code-implementer")]],
                Some(PLANNER),
                false,
            ),
            (
                &[&[Start("u", "code-implementer")]],
                Some(IMPLEMENTER),
                false,
            ),
            // With nothing in play, at most the implementer's: it never commits.
            (&[&[Start("u", "Explore")]], Some(IMPLEMENTER), false),
            (
                &[&[Start("u", "programmer-orchestrator")]],
                Some(IMPLEMENTER),
                false,
            ),
            // A spawn for another type explains nothing.
            (
                &[
                    REVIEWER_STARTED,
                    &[Spawn("c2", Some("Explore"), "main"), Start("u", "Plan")],
                ],
                Some(REVIEWER),
                false,
            ),
        ];
        for (i, (parts, want, main)) in cases.iter().enumerate() {
            let a = play(parts);
            let Some((id, t)) = parts.iter().copied().flatten().rev().find_map(|s| match s {
                Start(id, t) => Some((*id, *t)),
                _ => None,
            }) else {
                panic!("case {i}: no agent starts");
            };
            let rec = a
                .running
                .get(id)
                .unwrap_or_else(|| panic!("case {i}: {id} not running"));
            assert_eq!(rec.role.as_deref(), *want, "case {i}");
            assert_eq!(rec.by_main, *main, "case {i}");
            assert_eq!(
                name(held_role(Some(id), Some(t), &a, None)),
                *want,
                "case {i}"
            );
        }
    }

    #[test]
    fn unattributed_callers_get_the_strictest_role_in_play_never_the_main_threads() {
        let planner_running = play(&[PLANNER_STARTED]);
        let reviewer_running = play(&[REVIEWER_STARTED]);
        let nothing = Agents::default();
        let reviewer = named(REVIEWER);
        type Case<'a> = (
            &'a Agents,
            Option<&'a str>,
            Option<&'a str>,
            Option<&'static Role>,
            Option<&'a str>,
        );
        let cases: &[Case] = &[
            // The main thread: its own type's role, the orchestrator when none.
            (&nothing, None, None, None, Some(ORCHESTRATOR)),
            (&planner_running, None, None, None, Some(ORCHESTRATOR)),
            (&nothing, None, Some("code-reviewer"), None, Some(REVIEWER)),
            // An agent id with no record: never the orchestrator's role.
            (&planner_running, Some("ghost"), None, None, Some(PLANNER)),
            (
                &planner_running,
                Some("ghost"),
                Some("Explore"),
                None,
                Some(PLANNER),
            ),
            (
                &planner_running,
                Some("ghost"),
                Some("programmer-orchestrator"),
                None,
                Some(PLANNER),
            ),
            (
                &reviewer_running,
                Some("ghost"),
                Some("code-planner"),
                None,
                Some(REVIEWER),
            ),
            (
                &nothing,
                Some("ghost"),
                Some("code-implementer"),
                None,
                Some(IMPLEMENTER),
            ),
            (&nothing, Some("ghost"), None, None, Some(IMPLEMENTER)),
            (
                &nothing,
                Some("ghost"),
                Some("programmer-orchestrator"),
                None,
                Some(IMPLEMENTER),
            ),
            // What the caller knows to be in play counts too (a state that cannot be read).
            (&nothing, Some("ghost"), None, reviewer, Some(REVIEWER)),
            (
                &nothing,
                Some("ghost"),
                Some("code-implementer"),
                reviewer,
                Some(REVIEWER),
            ),
            // A recorded agent keeps its record.
            (
                &planner_running,
                Some("p"),
                Some("code-planner"),
                None,
                Some(PLANNER),
            ),
        ];
        for (i, (agents, id, t, also, want)) in cases.iter().enumerate() {
            assert_eq!(name(held_role(*id, *t, agents, *also)), *want, "case {i}");
        }
    }

    #[test]
    fn what_is_tracked_stays_bounded() {
        let mut a = Agents::default();
        for i in 0..200 {
            a.spawned(&format!("c{i}"), Some("Explore"), None, None);
            a.started(&format!("x{i}"), "Explore", None);
        }
        assert!(a.spawns.len() <= MAX_TRACKED);
        assert!(a.running.len() <= MAX_TRACKED);
        // A call id seen again replaces its spawn.
        a.spawned("c199", Some("Plan"), None, None);
        assert_eq!(a.spawns.iter().filter(|s| s.call == "c199").count(), 1);
    }
}
