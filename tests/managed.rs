//! The managed autonomy policy (`programmer-hook.json` beside Claude Code's managed
//! settings) through the real binary: one line per case, each in a fresh scratch home
//! whose test build reads its managed folder from `home/managed`.

#[path = "support/home.rs"]
mod home;

use std::path::Path;
use std::process::Stdio;

use serde_json::{json, Value};

/// Sends one event in session `s`; returns the JSON answer.
fn send(home: &Path, project: &Path, ev: Value) -> Value {
    let mut ev = ev;
    ev["session_id"] = json!("s");
    ev["cwd"] = json!(project);
    ev["transcript_path"] = json!("/tmp/t.jsonl");
    let mut child = home::command(home)
        .arg("hook")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("runs");
    use std::io::Write;
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(ev.to_string().as_bytes())
        .expect("event");
    let out = child.wait_with_output().expect("runs");
    assert_eq!(out.status.code(), Some(0));
    serde_json::from_slice(&out.stdout).expect("JSON answer")
}

/// Decides `command` in an `auto` session under the managed policy `managed` (None: no
/// file), with the sandbox on or off; returns the decision and the reason.
fn decide(managed: Option<&str>, sandbox: bool, command: &str) -> (String, String) {
    let (home, project) = home::with_project(&["src"], &["--description", "d"]);
    let h = home.path();
    if let Some(text) = managed {
        std::fs::create_dir_all(h.join("managed")).expect("managed folder");
        std::fs::write(h.join("managed/programmer-hook.json"), text).expect("managed file");
    }
    if sandbox {
        let out = home::command(h)
            .args(["install-hooks", "--sandbox"])
            .output()
            .expect("install-hooks");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let said = send(
        h,
        &project,
        json!({"hook_event_name": "UserPromptSubmit", "prompt": "/programmer autonomy auto"}),
    );
    let said = said["systemMessage"].as_str().unwrap_or("").to_string();
    if managed.is_some_and(|m| m.contains("never")) {
        assert!(said.contains("still asked"), "{said}");
    }
    let v = send(
        h,
        &project,
        json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "t"}),
    );
    let o = &v["hookSpecificOutput"];
    (
        o["permissionDecision"].as_str().unwrap_or("").to_string(),
        o["permissionDecisionReason"]
            .as_str()
            .unwrap_or("")
            .to_string(),
    )
}

#[test]
fn the_managed_policy_only_tightens_auto() {
    #[rustfmt::skip]
    let cases: &[(Option<&str>, bool, &str, &str, &str)] = &[
        // (managed file, sandbox on, command, decision, part of the reason)
        (None, false, "touch a.txt", "allow", "autonomy is auto"),
        (None, true, "perl gen.pl", "allow", "runs in Claude Code's sandbox"),
        (Some(r#"{"autonomy": "allowed"}"#), false, "touch a.txt", "allow", "autonomy is auto"),
        (Some(r#"{"autonomy": "never"}"#), false, "touch a.txt", "ask", "does not allow autonomy auto"),
        (Some(r#"{"autonomy": "never"}"#), true, "perl gen.pl", "ask", "does not allow autonomy auto"),
        (Some(r#"{"autonomy": "sandbox-only"}"#), false, "touch a.txt", "ask", "allows auto only inside Claude Code's sandbox"),
        (Some(r#"{"autonomy": "sandbox-only"}"#), true, "touch a.txt", "allow", "where the managed policy allows auto"),
        (Some(r#"{"autonomy": "sandbox-only"}"#), true, "perl gen.pl", "allow", "runs in Claude Code's sandbox"),
        (Some(r#"{"autonomy": "sandbox-only"}"#), false, "perl gen.pl", "ask", "install-hooks --sandbox"),
        // A managed file that cannot be read relaxes nothing.
        (Some("{not json"), true, "touch a.txt", "ask", "not valid JSON"),
        (Some(r#"{"autonomy": "maybe"}"#), true, "perl gen.pl", "ask", "auto relaxes nothing"),
        // Forbidden and opaque stay as they are.
        (None, true, "rm -rf ~", "deny", "fs.rm-broad"),
        (Some(r#"{"autonomy": "never"}"#), true, "rm -rf ~", "deny", "fs.rm-broad"),
        (None, true, "curl -X POST https://example.com", "ask", "asked even under autonomy auto"),
    ];
    let mut wrong = Vec::new();
    for (managed, sandbox, cmd, want, says) in cases {
        let (d, reason) = decide(*managed, *sandbox, cmd);
        if d != *want || !reason.contains(says) {
            wrong.push(format!("{managed:?} sandbox={sandbox} {cmd:?}: want {want} saying {says:?}, got {d} ({reason})"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
