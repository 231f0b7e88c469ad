//! What the process does before any work, through the real binary: the binary has its own
//! C `main` (Rust's start-up is skipped to save time on every call), so the guarantees
//! Rust's start-up used to give are checked here.

#![cfg(unix)]

use std::io::{Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn bin() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_programmer-hook"))
}

fn event(cwd: &Path) -> Vec<u8> {
    serde_json::json!({
        "session_id": "start-up", "transcript_path": "/dev/null", "cwd": cwd,
        "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "git status"}, "tool_use_id": "toolu_1",
        "permission_mode": "default"
    })
    .to_string()
    .into_bytes()
}

fn hook(home: &Path) -> Command {
    let mut c = Command::new(bin());
    c.arg("hook")
        .env("HOME", home)
        .env("PROGRAMMER_STATE_DIR", home.join("state"))
        .env_remove("CLAUDE_CONFIG_DIR")
        .stdin(Stdio::piped())
        .stderr(Stdio::piped());
    c
}

/// Runs `c` with `input` on its standard input; returns its status and standard error.
fn feed(mut c: Command, input: &[u8]) -> (std::process::ExitStatus, String) {
    let mut child = c.spawn().expect("spawn the hook");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input)
        .expect("write the event");
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("stderr")
        .read_to_string(&mut err)
        .expect("read stderr");
    (child.wait().expect("wait"), err)
}

#[test]
fn an_answer_to_a_closed_pipe_blocks_instead_of_dying_of_sigpipe() {
    let home = tempfile::tempdir().expect("tempdir");
    let (reader, writer) = std::io::pipe().expect("pipe");
    drop(reader);
    let mut c = hook(home.path());
    c.stdout(writer);
    let (status, err) = feed(c, &event(home.path()));
    assert_eq!(status.signal(), None, "killed by a signal: {status:?}");
    assert_eq!(status.code(), Some(2), "stderr: {err}");
    assert!(err.contains("answer could not be written"), "stderr: {err}");
}

#[test]
fn arguments_reach_the_command_line_parser() {
    // Without Rust's start-up the arguments still arrive: a wrong one is a usage error.
    let out = Command::new(bin())
        .args(["policy", "check", "--no-such-flag", "--", "ls"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--no-such-flag"), "stderr: {err}");
    let out = Command::new(bin())
        .args(["policy", "check", "--", "git status"])
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(0), "git status is Safe");
}
