//! `PostToolUse` and `PostToolUseFailure`: what a finished call did to the workflow (a write
//! counts, a plan is recorded, a test run sets the test gate, the last commit ends it).

use std::path::Path;

use anyhow::Result;
use serde_json::{json, Value};

use super::subagent::review_result;
use super::{project_of, Env};
use crate::engine::analyze::Facts;
use crate::engine::classify;
use crate::engine::paths::RealFs;
use crate::engine::policy::{Policy, Tier};
use crate::engine::tools::Tool;
use crate::hook::protocol::{Event, EventName};
use crate::workflow::projects::{self, WorkItem};
use crate::workflow::roles;
use crate::workflow::state;
use crate::workflow::{self, Phase, Plan, Workflow};

pub(super) fn post_tool(
    env: &Env,
    event: &Event,
    policy: impl FnOnce() -> Result<Policy>,
) -> Result<Value> {
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
