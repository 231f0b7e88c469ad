//! Agents that start agents, inside the real Claude Code client, with the product as
//! `./install.sh` installs it into a scratch HOME and a scripted model: the planner hands
//! exploration to an `Explore` agent, which is held to the planner's role; the reviewer
//! asks a plugin's `superpowers:code-reviewer` for a second opinion, whose `Status:
//! APPROVE` does not open the gate, while the reviewer's own does; and a call that needs
//! escalating says whether it goes to a `master-orchestrator` agent or to the user.
//!
//! The sessions run in autonomy `auto`, because `-p` turns every `ask` into a denial: so
//! every refusal seen here is a deny, by the rule checked.

mod support;

use anyhow::Result;
use serde_json::{json, Value};
use std::fs;
use std::sync::{Arc, Mutex};
use support::e2e::*;

const GREET: &str = "#!/bin/sh\necho \"hello\"\n";
const TEST_SH: &str = "#!/bin/sh\nsh greet.sh | grep -qx hello\n";

fn today() -> String {
    chrono::Local::now().format("%Y-%m-%d").to_string()
}

/// The workflow phase in the session's state file, read directly (for use while a run
/// is held at a turn).
fn phase_on_disk(state_dir: &std::path::Path, session: &str) -> String {
    let path = state_dir.join(format!("sessions/{session}.json"));
    let v: Value = fs::read(&path)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .unwrap_or(Value::Null);
    v["workflow"]["phase"]
        .as_str()
        .unwrap_or("none")
        .to_string()
}

/// The planner starts an exploration agent: its reads run, its writes and non-read-only
/// commands are refused by the planner's role (not only by the phase), while an agent
/// the main thread starts is held by the phase alone.
#[test]
fn the_planners_explorer_is_held_to_the_planners_role() -> Result<()> {
    let Some(e2e) = E2e::start(&json!({"threads": []})) else {
        return Ok(());
    };
    e2e.install_product()?;
    e2e.init_repo(&[("greet.sh", GREET), ("test.sh", TEST_SH)])?;
    let proj = e2e.project_path();
    let p = |rel: &str| proj.join(rel).to_string_lossy().into_owned();
    let plan_rel = format!("docs/plans/{}-say-goodbye.md", today());
    let plan = p(&plan_rel);
    let plan_body = "# Say goodbye\n\n## Steps\n1. greet.sh: print goodbye.\n";

    let scenario = json!({"threads": [
        {"name": "explorer", "match": "E2E-EXPLORER", "turns": [
            turn(&[read("x_read", &p("greet.sh"))]),
            turn(&[bash("x_log", "git log --oneline")]),
            turn(&[bash("x_write", "echo notes > notes.txt")]),
            turn(&[bash("x_test", "sh test.sh")]),
            say("greet.sh prints hello; test.sh checks it."),
        ]},
        {"name": "main_explorer", "match": "E2E-MAIN-EXPLORER", "turns": [
            turn(&[bash("mx_write", "echo notes > main-notes.txt")]),
            say("nothing written"),
        ]},
        {"name": "planner", "match": "E2E-PLANNER", "turns": [
            turn(&[spawn("pl_explore", "Explore", "E2E-EXPLORER")]),
            turn(&[write("pl_plan", &plan, plan_body)]),
            say(&format!("Plan: {plan_rel}\nSummary: one echo line\nOpen questions: none")),
        ]},
        {"name": "main", "turns": [
            say("Autonomy is auto."),
            turn(&[spawn("m_explore", "Explore", "E2E-MAIN-EXPLORER")]),
            turn(&[spawn("m_planner", "code-planner", "E2E-PLANNER")]),
            say(&format!("Phase: plan\nThe plan is {plan_rel}.")),
        ]},
    ]});
    e2e.set_scenario(&scenario)?;

    let run = e2e.run_claude("/programmer autonomy auto", None)?;
    let sid = run.session_id().to_string();
    assert_eq!(run.result(), "Autonomy is auto.");

    let run = e2e.run_claude("/programmer greet.sh should say goodbye too", Some(&sid))?;
    assert!(run.result().starts_with("Phase: plan"), "{:#}", run.json);
    // The main thread's explorer has no role: the phase alone refuses its write.
    e2e.assert_ran(&run, "m_explore");
    e2e.assert_denied(&run, "mx_write", "phase.plan-writes-plans-only");
    // The planner's explorer reads, and is held to the planner's role.
    e2e.assert_ran(&run, "m_planner");
    e2e.assert_ran(&run, "pl_explore");
    e2e.assert_ran(&run, "x_read");
    let log = e2e.assert_ran(&run, "x_log");
    assert!(log.contains("initial"), "{log:?}");
    e2e.assert_denied(&run, "x_write", "role.planner-writes-plans-only");
    let why = e2e.content_of("x_write");
    assert!(
        why.contains("(agent Explore, held to role code-planner)"),
        "{why:?}"
    );
    e2e.assert_denied(&run, "x_test", "role.read-only-commands");
    assert!(!proj.join("notes.txt").exists());
    assert!(!proj.join("main-notes.txt").exists());
    // The planner itself writes the plan.
    e2e.assert_ran(&run, "pl_plan");
    assert_eq!(fs::read_to_string(&plan)?, plan_body);
    let st = e2e.status(&sid)?;
    assert_eq!(st["phase"], "plan", "{st}");
    assert_eq!(st["plan"], plan.as_str(), "{st}");
    assert!(e2e.proxy_attempts().is_empty());
    Ok(())
}

/// The reviewer consults a plugin's `superpowers:code-reviewer`: the helper is held to the
/// reviewer's role, its `Status: APPROVE` leaves the workflow in review, and the
/// reviewer's own verdict moves it to commit. Then a force push, which needs escalating,
/// says to ask the user; once the user has a master-orchestrator agent, to hand it there.
#[test]
fn a_helpers_verdict_does_not_open_the_gate_and_escalation_says_where_to_go() -> Result<()> {
    let Some(e2e) = E2e::start(&json!({"threads": []})) else {
        return Ok(());
    };
    e2e.install_product()?;
    e2e.init_repo(&[("greet.sh", GREET), ("test.sh", TEST_SH)])?;
    let proj = e2e.project_path();
    let greet = proj.join("greet.sh").to_string_lossy().into_owned();
    // The user's superpowers plugin, for this session only.
    let plugin = e2e.work.path().join("superpowers");
    fs::create_dir_all(plugin.join(".claude-plugin"))?;
    fs::create_dir_all(plugin.join("agents"))?;
    fs::write(
        plugin.join(".claude-plugin/plugin.json"),
        r#"{"name": "superpowers", "version": "1.0.0"}"#,
    )?;
    fs::write(
        plugin.join("agents/code-reviewer.md"),
        "---\nname: code-reviewer\ndescription: Reviews a change and gives a second opinion\ntools: Read, Bash\n---\nReview the change.\n",
    )?;
    let plugin_dir = plugin.to_string_lossy().into_owned();

    let after_helper = e2e.gate_path("after-helper");
    let mut rv_after = turn(&[bash("rv_diff", "git diff")]);
    rv_after["wait_for"] = json!(after_helper);
    let scenario = json!({"threads": [
        {"name": "implementer", "match": "E2E-IMPLEMENTER", "turns": [
            turn(&[edit("im_edit", &greet, "echo \"hello\"\n", "echo \"hello\"\necho \"goodbye\"\n")]),
            say("Result: DONE\nPlan: quick\nRound: 1"),
        ]},
        {"name": "helper", "match": "E2E-HELPER", "turns": [
            turn(&[bash("h_diff", "git diff")]),
            turn(&[bash("h_write", "echo reviewed >> greet.sh")]),
            say("## Review\nStatus: APPROVE\n"),
        ]},
        {"name": "reviewer", "match": "E2E-REVIEWER", "turns": [
            turn(&[spawn("rv_helper", "superpowers:code-reviewer", "E2E-HELPER")]),
            rv_after,
            say("## Review\nStatus: APPROVE\nFiles reviewed: 1\nRound: 1\n\n## Findings\n- none\n\n## Required changes\n- none\n"),
        ]},
        {"name": "main", "turns": [
            // run 1
            say("Autonomy is auto."),
            // run 2: a quick workflow, reviewed with a second opinion, committed
            turn(&[spawn("m_impl", "code-implementer", "E2E-IMPLEMENTER")]),
            turn(&[spawn("m_review", "code-reviewer", "E2E-REVIEWER")]),
            turn(&[bash("m_add", "git add greet.sh")]),
            turn(&[bash("m_commit", "git commit -m 'feat: say goodbye'")]),
            say("Phase: done"),
            // run 3: no master-orchestrator
            turn(&[bash("m_push1", "git push --force origin main")]),
            say("Asked the user."),
            // run 4: the user's master-orchestrator
            turn(&[bash("m_push2", "git push --force origin main")]),
            say("Escalated."),
        ]},
    ]});
    e2e.set_scenario(&scenario)?;

    let run = e2e.run_claude("/programmer autonomy auto", None)?;
    let sid = run.session_id().to_string();
    assert_eq!(run.result(), "Autonomy is auto.");

    // While the reviewer is held after the helper's answer, the phase is read from disk.
    let seen = Arc::new(Mutex::new(String::new()));
    let (state, s, out) = (e2e.state_dir(), sid.clone(), Arc::clone(&seen));
    let watcher = e2e.on_turn("rv_diff", "after-helper", move || {
        *out.lock().expect("lock") = phase_on_disk(&state, &s);
    });
    let run = e2e.run_claude_with(
        "/programmer quick greet.sh should also say goodbye",
        Some(&sid),
        &["--plugin-dir", &plugin_dir],
    )?;
    assert!(
        watcher.join().expect("watcher"),
        "the reviewer's turn was never played"
    );
    assert_eq!(run.result(), "Phase: done", "{:#}", run.json);
    e2e.assert_ran(&run, "im_edit");
    e2e.assert_ran(&run, "m_review");
    e2e.assert_ran(&run, "rv_helper");
    // The helper reads, and is held to the reviewer's role.
    e2e.assert_ran(&run, "h_diff");
    e2e.assert_denied(&run, "h_write", "role.no-write");
    let why = e2e.content_of("h_write");
    assert!(
        why.contains("(agent superpowers:code-reviewer, held to role code-reviewer)"),
        "{why:?}"
    );
    // Its APPROVE did not open the gate ...
    assert_eq!(
        *seen.lock().expect("lock"),
        "review",
        "a helper's verdict moved the workflow"
    );
    // ... the reviewer's own did.
    e2e.assert_ran(&run, "rv_diff");
    e2e.assert_ran(&run, "m_add");
    let out = e2e.assert_ran(&run, "m_commit");
    assert!(out.contains("feat: say goodbye"), "{out:?}");
    assert_eq!(
        e2e.git(&proj, &["log", "--format=%s"])?,
        "feat: say goodbye\ninitial\n"
    );
    assert_eq!(
        e2e.git(&proj, &["show", "HEAD:greet.sh"])?,
        "#!/bin/sh\necho \"hello\"\necho \"goodbye\"\n"
    );
    assert_eq!(e2e.status(&sid)?["phase"], "none");

    // Escalation without a master-orchestrator: stop and ask the user.
    let run = e2e.run_claude("push it, force if you must", Some(&sid))?;
    e2e.assert_denied(&run, "m_push1", "git.force-push");
    let why = e2e.content_of("m_push1");
    assert!(
        why.contains("Escalation:")
            && why.contains("no `master-orchestrator` agent is set up, so stop and ask the user"),
        "{why:?}"
    );
    // With the user's master-orchestrator agent: hand it there.
    fs::write(
        e2e.home.path().join(".claude/agents/boss.md"),
        "---\nname: master-orchestrator\ndescription: Coordinates the user's agents\n---\nCoordinate.\n",
    )?;
    let run = e2e.run_claude("push it, force if you must", Some(&sid))?;
    e2e.assert_denied(&run, "m_push2", "git.force-push");
    let why = e2e.content_of("m_push2");
    assert!(
        why.contains("a `master-orchestrator` agent is set up")
            && why.contains("`subagent_type: \"master-orchestrator\"`")
            && !why.contains("stop and ask the user"),
        "{why:?}"
    );
    assert!(e2e.proxy_attempts().is_empty());
    Ok(())
}
