//! How the hook's cost grows with what it is given and with what it has kept: command
//! length, policy size, audit log size, registered projects, and a session's history.
//! Run with `cargo bench --bench scaling`.
//!
//! Each point is the median (and 90th percentile) wall time of a fresh `programmer-hook
//! hook` process answering one event, as Claude Code runs it. The cost should stay flat in
//! the size of history (log, projects, session) and grow at most linearly in the size of
//! the input (command, policy).

#[path = "support/home.rs"]
mod home;
use home::{run_hook, Home};
use std::io::Write;
use std::path::Path;
use std::time::Duration;

use serde_json::{json, Value};

/// Runs per point (`SCALING_ROUNDS` to change).
fn rounds() -> usize {
    std::env::var("SCALING_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(31)
}

fn bin() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_programmer-hook"))
}

fn measure(home: &Path, input: &[u8]) -> (f64, f64, String) {
    let mut times = Vec::new();
    let mut answer = Vec::new();
    for _ in 0..rounds() {
        let (t, out) = run_hook(bin(), home, input);
        times.push(t);
        answer = out;
    }
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let decision = serde_json::from_slice::<Value>(&answer)
        .ok()
        .and_then(|v| {
            v["hookSpecificOutput"]["permissionDecision"]
                .as_str()
                .map(str::to_string)
        })
        .unwrap_or_else(|| "-".into());
    (
        ms(times[times.len() / 2]),
        ms(times[times.len() * 9 / 10]),
        decision,
    )
}

fn pre_bash(home: &Home, session: &str, cmd: &str) -> Vec<u8> {
    json!({
        "session_id": session, "cwd": home.project(), "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": cmd}
    })
    .to_string()
    .into_bytes()
}

fn row(dimension: &str, size: &str, r: (f64, f64, String)) {
    println!(
        "| {dimension:<22} | {size:>16} | {:>9.2} | {:>9.2} | {:<6} |",
        r.0, r.1, r.2
    );
}

fn main() {
    println!(
        "| {:<22} | {:>16} | {:>9} | {:>9} | {:<6} |",
        "dimension", "size", "median ms", "p90 ms", "answer"
    );
    println!(
        "|{:-<24}|{:->18}|{:->11}|{:->11}|{:-<8}|",
        "", "", "", "", ""
    );

    // 1. Command length: a realistic unit repeated (whole units, so the command stays
    // valid). Past the parsing budget it is not analysed part by part (Confirm), and past
    // 512 KB not parsed at all.
    let home = Home::new("scaling", "length");
    let unit = "git status && ls -la src | grep rs; echo \"done $(date)\"; ";
    for size in [100usize, 1_000, 10_000, 100_000, 500_000, 1_000_000] {
        let cmd = unit.repeat((size / unit.len()).max(1));
        row(
            "command length",
            &format!("{} B", cmd.len()),
            measure(&home.dir, &pre_bash(&home, "s", &cmd)),
        );
    }
    drop(home);

    // 2. Policy size: a user policy of N rules, half of them for a named program and half
    // for every program (`*`), so each one is matched against every command.
    for n in [10usize, 100, 1_000] {
        let home = Home::new("scaling", &format!("policy{n}"));
        std::fs::create_dir_all(home.state()).expect("state");
        let mut toml = String::new();
        for i in 0..n {
            let command = if i.is_multiple_of(2) {
                format!("tool{i}")
            } else {
                "*".into()
            };
            toml.push_str(&format!(
                "[[rule]]\nid = \"user.r{i}\"\ntier = \"confirm\"\nreason = \"generated rule {i}\"\ncommand = [\"{command}\"]\nargs_any = [\"--generated-{i}\"]\nline_not_regex = \"^nothing{i}$\"\n\n"
            ));
        }
        std::fs::write(home.state().join("policy.toml"), toml).expect("policy");
        let ev = pre_bash(&home, "s", "git status && ls -la src | grep rs");
        row("user policy rules", &n.to_string(), measure(&home.dir, &ev));
    }

    // 3. Audit log: today's file already holds N lines; the hook only appends.
    for n in [0usize, 1_000_000] {
        let home = Home::new("scaling", &format!("audit{n}"));
        let audit = home.state().join("audit");
        std::fs::create_dir_all(&audit).expect("audit");
        let day = chrono_today();
        let line = json!({"time": format!("{day}T00:00:00.000Z"), "session": "old", "agent": "main",
            "event": "PreToolUse", "tool": "Bash", "decision": "allow", "tier": "Safe",
            "rule": "git.read", "subject": "git status"})
        .to_string() + "\n";
        let mut f = std::io::BufWriter::new(
            std::fs::File::create(audit.join(format!("{day}.jsonl"))).expect("log"),
        );
        for _ in 0..n {
            f.write_all(line.as_bytes()).expect("write");
        }
        // On disk before timing, so that write-back does not slow the runs down.
        f.into_inner().expect("flush").sync_all().expect("sync");
        let ev = pre_bash(&home, "s", "git status");
        row("audit log lines", &n.to_string(), measure(&home.dir, &ev));
    }

    // 4. Registered projects: N project files and their index; the event is in the last.
    for n in [0usize, 10, 100, 1_000] {
        let home = Home::new("scaling", &format!("projects{n}"));
        let dir = home.state().join("projects");
        std::fs::create_dir_all(&dir).expect("projects");
        let mut index = serde_json::Map::new();
        for i in 0..n {
            let path = if i + 1 == n {
                home.project()
            } else {
                home.dir.join(format!("other/p{i}"))
            };
            let p = json!({"path": path, "description": format!("project {i}"), "stack": ["rust"],
                "conventions": "", "recentWork": [], "activeTodos": [], "test": "cargo test"});
            std::fs::write(dir.join(format!("p{i}.json")), p.to_string()).expect("project");
            index.insert(format!("p{i}"), json!(path));
        }
        // Written last, so that it is not older than the folder.
        std::thread::sleep(Duration::from_millis(20));
        std::fs::write(dir.join("index.json"), Value::Object(index).to_string()).expect("index");
        let ev =
            json!({"session_id": "s", "cwd": home.project(), "hook_event_name": "SessionStart",
            "source": "startup"})
            .to_string()
            .into_bytes();
        row(
            "registered projects",
            &n.to_string(),
            measure(&home.dir, &ev),
        );
    }

    // 5. A session's history: a workflow session that has seen N events (PostToolUse writes
    // and gate decisions, run for real), then one more gate decision.
    let home = Home::new("scaling", "session");
    let start =
        json!({"session_id": "long", "cwd": home.project(), "hook_event_name": "UserPromptSubmit",
        "prompt": "/programmer quick keep going"})
        .to_string()
        .into_bytes();
    run_hook(bin(), &home.dir, &start);
    let mut done = 0usize;
    for n in [0usize, 100, 1_000, 10_000] {
        while done < n {
            let ev = if done.is_multiple_of(2) {
                json!({"session_id": "long", "cwd": home.project(), "hook_event_name": "PostToolUse",
                    "tool_name": "Write", "tool_input": {"file_path": home.project().join(format!("src/f{done}.rs")), "content": ""},
                    "tool_response": {}})
            } else {
                json!({"session_id": "long", "cwd": home.project(), "hook_event_name": "PreToolUse",
                    "tool_name": "Bash", "tool_input": {"command": "git status"}})
            };
            run_hook(bin(), &home.dir, ev.to_string().as_bytes());
            done += 1;
        }
        let size = std::fs::metadata(home.state().join("sessions/long.json"))
            .map(|m| m.len())
            .unwrap_or(0);
        let ev = pre_bash(&home, "long", "cargo test");
        row(
            "session events",
            &format!("{n} ({size} B file)"),
            measure(&home.dir, &ev),
        );
    }
}

fn chrono_today() -> String {
    chrono::Utc::now().format("%Y-%m-%d").to_string()
}
