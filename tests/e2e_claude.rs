//! The e2e harness itself, with a trivial shell-script hook (see
//! `tests/support/e2e.rs` and `tests/e2e/README.md`).

mod support;

use anyhow::Result;
use serde_json::json;
use std::process::Command;
use support::e2e::*;

/// The harness itself, with a trivial shell-script hook: a Bash call whose
/// command contains "forbidden" is denied, others run, in the main thread
/// and in a custom subagent; `--resume` continues the session.
#[test]
fn trivial_hook_denies_forbidden_bash_in_main_thread_and_subagent() -> Result<()> {
    let scenario = json!({
        "threads": [
            {"name": "helper", "match": "E2E-HELPER-TASK", "turns": [
                {"tool_uses": [{"name": "Bash", "id": "sub_forbidden",
                    "input": {"command": "touch sub-forbidden.txt", "description": "denied in subagent"}}]},
                {"tool_uses": [{"name": "Bash", "id": "sub_allowed",
                    "input": {"command": "touch sub-allowed.txt", "description": "allowed in subagent"}}]},
                {"text": "helper finished"}
            ]},
            {"name": "main", "turns": [
                {"text": "Creating files.", "tool_uses": [{"name": "Bash", "id": "allowed",
                    "input": {"command": "touch allowed.txt", "description": "allowed"}}]},
                {"tool_uses": [{"name": "Bash", "id": "forbidden",
                    "input": {"command": "touch forbidden.txt", "description": "denied"}}]},
                {"tool_uses": [{"name": "Agent", "id": "spawn",
                    "input": {"description": "helper task", "subagent_type": "helper",
                              "prompt": "E2E-HELPER-TASK: create files", "run_in_background": false}}]},
                {"text": "First prompt done."},
                // second client run (--resume) continues the same list
                {"tool_uses": [{"name": "Bash", "id": "resumed",
                    "input": {"command": "touch resumed.txt", "description": "after resume"}}]},
                {"text": "Second prompt done."}
            ]}
        ]
    });
    let Some(e2e) = E2e::start(&scenario) else {
        return Ok(());
    };
    let hook = e2e.test_hook_script()?;
    e2e.write_settings_with_hook(&hook, &[])?;
    e2e.write_agent("helper", Some("Bash, Read"), "You are a test helper.")?;

    let version = Command::new(&e2e.client)
        .arg("--version")
        .env("HOME", e2e.home.path())
        .output()?;
    let version = String::from_utf8_lossy(&version.stdout);
    assert!(
        version.starts_with(CLIENT_VERSION),
        "expected Claude Code {CLIENT_VERSION}, got {version:?}"
    );

    let run = e2e.run_claude("make some files", None)?;
    assert!(run.status.success(), "client failed: {run:?}");
    assert_eq!(run.result(), "First prompt done.", "{:#}", run.json);
    let proj = e2e.project_path();
    assert!(
        proj.join("allowed.txt").exists(),
        "allowed Bash call did not run"
    );
    assert!(!proj.join("forbidden.txt").exists(), "denied Bash call ran");
    assert!(
        proj.join("sub-allowed.txt").exists(),
        "allowed subagent call did not run"
    );
    assert!(
        !proj.join("sub-forbidden.txt").exists(),
        "denied subagent call ran"
    );

    // What the model was told.
    let ok = e2e.tool_result("allowed").expect("tool_result for allowed");
    assert_eq!(ok["is_error"], false, "{ok}");
    for id in ["forbidden", "sub_forbidden"] {
        let r = e2e
            .tool_result(id)
            .unwrap_or_else(|| panic!("no tool_result for {id}"));
        assert_eq!(r["is_error"], true, "{r}");
        let content = r["content"].as_str().unwrap_or_default();
        assert!(
            content.starts_with("PreToolUse:Bash hook error: ")
                && content.contains("forbidden by test hook"),
            "{r}"
        );
        assert!(
            run.denied(id),
            "{id} not in permission_denials: {:?}",
            run.denials()
        );
    }
    assert!(!run.denied("allowed"));
    assert_eq!(e2e.requests("helper").len(), 3, "subagent turns");

    // What the hook was sent.
    let pre = e2e.hook_events_named("PreToolUse");
    let main_bash = pre
        .iter()
        .find(|e| e["tool_use_id"] == "toolu_allowed")
        .expect("PreToolUse for allowed");
    assert_eq!(main_bash["tool_name"], "Bash");
    assert_eq!(main_bash["tool_input"]["command"], "touch allowed.txt");
    assert_eq!(main_bash["permission_mode"], "default");
    assert_eq!(main_bash["session_id"], run.session_id());
    assert!(main_bash.get("agent_id").is_none() && main_bash.get("agent_type").is_none());
    let sub_bash = pre
        .iter()
        .find(|e| e["tool_use_id"] == "toolu_sub_forbidden")
        .expect("PreToolUse in subagent");
    assert_eq!(sub_bash["agent_type"], "helper");
    let agent_id = sub_bash["agent_id"]
        .as_str()
        .expect("agent_id in subagent PreToolUse");
    let start = e2e.hook_events_named("SubagentStart");
    assert_eq!(start.len(), 1);
    assert_eq!(start[0]["agent_id"], agent_id);
    assert_eq!(start[0]["agent_type"], "helper");
    let stop = e2e.hook_events_named("SubagentStop");
    assert_eq!(stop[0]["last_assistant_message"], "helper finished");
    let session_start = e2e.hook_events_named("SessionStart");
    assert_eq!(session_start[0]["source"], "startup");
    assert_eq!(
        e2e.hook_events_named("UserPromptSubmit")[0]["prompt"],
        "make some files"
    );

    // A second prompt in the same session.
    let run2 = e2e.run_claude("continue", Some(run.session_id()))?;
    assert!(run2.status.success(), "client failed: {run2:?}");
    assert_eq!(run2.session_id(), run.session_id());
    assert_eq!(run2.result(), "Second prompt done.");
    assert!(proj.join("resumed.txt").exists());
    assert!(
        run2.denials().is_empty(),
        "denials are per run: {:?}",
        run2.denials()
    );
    let sources: Vec<_> = e2e
        .hook_events_named("SessionStart")
        .iter()
        .map(|e| e["source"].clone())
        .collect();
    assert_eq!(sources, [json!("startup"), json!("resume")]);

    assert!(
        e2e.proxy_attempts().is_empty(),
        "client tried to reach other hosts: {:?}",
        e2e.proxy_attempts()
    );
    eprintln!(
        "e2e: client runs took {:?} and {:?}",
        run.elapsed, run2.elapsed
    );
    Ok(())
}
