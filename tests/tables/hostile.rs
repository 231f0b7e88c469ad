//! Hostile input through the real binary: huge, deep, broken or mistyped events.
//!
//! Every case must be answered without the process dying of a signal, and a PreToolUse
//! must never be allowed: it is denied or asked (exit 0 with a decision) or blocked (exit
//! 2); a command over the analysis budget is asked by `shell.too-large`. No case is timed:
//! the hook bounds its own work (the parse budget, the parser's processor time), and a
//! process still running after [`WATCHDOG`] is killed, which fails the case. Each process runs under `prlimit --as` (1 GiB of address
//! space) when `prlimit` exists, and its peak memory is read with `/usr/bin/time` when that
//! exists; without them only the time and exit status are checked.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

/// How long a process may run before it is killed as hung (far beyond any answer, even of
/// a debug build on a loaded machine: a limit against hanging, not a measure).
const WATCHDOG: Duration = Duration::from_secs(120);
/// The address space each hook process may use.
const MAX_ADDRESS_SPACE: u64 = 1 << 30;
/// The peak resident memory allowed, in KiB.
const MAX_RSS_KIB: u64 = 512 * 1024;

struct Outcome {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    took: Duration,
    peak_kib: Option<u64>,
}

fn tool(name: &str) -> Option<PathBuf> {
    let p = PathBuf::from(name);
    p.is_file().then_some(p)
}

fn run(input: Vec<u8>, home: &Path) -> Outcome {
    let bin = PathBuf::from(env!("CARGO_BIN_EXE_programmer-hook"));
    let prlimit = tool("/usr/bin/prlimit");
    let time = tool("/usr/bin/time");
    let mut argv: Vec<String> = Vec::new();
    if let Some(p) = &prlimit {
        argv.push(p.display().to_string());
        argv.push(format!("--as={MAX_ADDRESS_SPACE}"));
        argv.push("--".into());
    }
    if let Some(t) = &time {
        argv.push(t.display().to_string());
        argv.push("-f".into());
        argv.push("programmer-hook-test-maxrss=%M".into());
    }
    argv.push(bin.display().to_string());
    argv.push("hook".into());
    let mut child = Command::new(&argv[0])
        .args(&argv[1..])
        .env("HOME", home)
        .env("PROGRAMMER_STATE_DIR", home.join("state"))
        .env_remove("CLAUDE_CONFIG_DIR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn the hook");
    let start = Instant::now();
    let mut stdin = child.stdin.take().expect("stdin");
    // The hook may stop reading early (input too large): a broken pipe is fine.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stdout, &mut s);
        s
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        let _ = std::io::Read::read_to_end(&mut stderr, &mut s);
        s
    });
    let status = loop {
        if let Some(s) = child.try_wait().expect("wait") {
            break s;
        }
        if start.elapsed() > WATCHDOG {
            let _ = child.kill();
            break child.wait().expect("wait after kill");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let took = start.elapsed();
    let _ = writer.join();
    let stdout = String::from_utf8_lossy(&out_reader.join().expect("stdout")).into_owned();
    let raw_err = String::from_utf8_lossy(&err_reader.join().expect("stderr")).into_owned();
    let mut peak_kib = None;
    let mut stderr = String::new();
    for line in raw_err.lines() {
        match line.strip_prefix("programmer-hook-test-maxrss=") {
            Some(v) => peak_kib = v.trim().parse().ok(),
            None if line.starts_with("Command exited with non-zero status") => {}
            None => {
                stderr.push_str(line);
                stderr.push('\n');
            }
        }
    }
    // `time` reports a signal death as its own exit status; look at its message too.
    let signalled = raw_err.contains("Command terminated by signal");
    Outcome {
        code: if signalled { None } else { status.code() },
        stdout,
        stderr,
        took,
        peak_kib,
    }
}

fn pre_bash(command: &str) -> Vec<u8> {
    json!({
        "session_id": "hostile", "cwd": "/tmp", "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": command}
    })
    .to_string()
    .into_bytes()
}

/// What a case must get.
#[derive(Clone, Copy, PartialEq)]
enum Want {
    /// A gate event: deny or ask (exit 0), or exit 2; never allow.
    NotAllowed,
    /// Exit 2: the event cannot be checked.
    Blocked,
    /// Exit 0 with JSON (any decision: the input is odd but harmless).
    Answered,
    /// Asked by `shell.too-large`: over the budget of what is analysed one by one.
    TooLarge,
}

fn check(label: &str, input: Vec<u8>, want: Want, report: &mut Vec<String>) {
    let home = tempfile::tempdir().expect("tempdir");
    let size = input.len();
    let o = run(input, home.path());
    let line = format!(
        "{label:<44} {:>9} B  exit {:<4} {:>7.1} ms  {:>7} KiB  {}",
        size,
        o.code
            .map(|c| c.to_string())
            .unwrap_or_else(|| "signal".into()),
        o.took.as_secs_f64() * 1000.0,
        o.peak_kib
            .map(|k| k.to_string())
            .unwrap_or_else(|| "-".into()),
        decision(&o.stdout).unwrap_or("-"),
    );
    eprintln!("{line}");
    report.push(line);
    let code = o
        .code
        .unwrap_or_else(|| panic!("{label}: killed by a signal; stderr {}", o.stderr));
    if let Some(k) = o.peak_kib {
        assert!(k < MAX_RSS_KIB, "{label}: peak memory {k} KiB");
    }
    match want {
        Want::Blocked => {
            assert_eq!(code, 2, "{label}: {} {}", o.stdout, o.stderr);
            assert!(o.stdout.is_empty(), "{label}: stdout {}", o.stdout);
            assert!(
                o.stderr.starts_with("programmer-hook: blocked"),
                "{label}: {}",
                o.stderr
            );
        }
        Want::NotAllowed => match code {
            2 => assert!(o.stdout.is_empty(), "{label}: exit 2 with stdout"),
            0 => {
                let d = decision(&o.stdout)
                    .unwrap_or_else(|| panic!("{label}: no decision in {}", o.stdout));
                assert!(d == "deny" || d == "ask", "{label}: {d}: {}", o.stdout);
            }
            c => panic!("{label}: exit {c}: {}", o.stderr),
        },
        Want::TooLarge => {
            assert_eq!(code, 0, "{label}: {}", o.stderr);
            assert_eq!(decision(&o.stdout), Some("ask"), "{label}: {}", o.stdout);
            assert!(
                o.stdout.contains("[shell.too-large]"),
                "{label}: not over the budget: {}",
                o.stdout
            );
        }
        Want::Answered => {
            assert_eq!(code, 0, "{label}: {}", o.stderr);
            serde_json::from_str::<Value>(&o.stdout)
                .unwrap_or_else(|e| panic!("{label}: not JSON ({e}): {}", o.stdout));
        }
    }
}

fn decision(stdout: &str) -> Option<&'static str> {
    let v: Value = serde_json::from_str(stdout).ok()?;
    match v["hookSpecificOutput"]["permissionDecision"].as_str()? {
        "allow" => Some("allow"),
        "ask" => Some("ask"),
        "deny" => Some("deny"),
        _ => None,
    }
}

#[test]
fn huge_input() {
    let mut r = Vec::new();
    let ten_mb = 10 * 1024 * 1024;
    check(
        "10 MB of stdin (one command)",
        pre_bash(&"a".repeat(ten_mb)),
        Want::Blocked,
        &mut r,
    );
    check(
        "10 MB of stdin (not JSON)",
        vec![b'x'; ten_mb],
        Want::Blocked,
        &mut r,
    );
    // Just under the 4 MB input bound: a command far over the 512 KB analysed.
    let cmd = format!("rm -rf / {}", "x ".repeat(1_900_000));
    check("3.8 MB command", pre_bash(&cmd), Want::TooLarge, &mut r);
    // The largest command that is analysed, in many shapes.
    let n = 500 * 1024;
    check(
        "500 KB one word",
        pre_bash(&format!("echo {}", "a".repeat(n))),
        Want::Answered,
        &mut r,
    );
    let chain = "ls | ".repeat(n / 5) + "ls";
    check(
        "100,000-stage pipeline",
        pre_bash(&chain),
        Want::TooLarge,
        &mut r,
    );
    let and = "true && ".repeat(n / 8) + "true";
    check(
        "64,000 commands joined by &&",
        pre_bash(&and),
        Want::TooLarge,
        &mut r,
    );
    let subs = "echo $(ls) ".repeat(n / 11);
    check(
        "46,000 substitutions",
        pre_bash(&subs),
        Want::TooLarge,
        &mut r,
    );
    let quoted = format!("bash -c '{}'", "echo hi; ".repeat(n / 10));
    check(
        "bash -c with 50,000 commands",
        pre_bash(&quoted),
        Want::TooLarge,
        &mut r,
    );
}

#[test]
fn deep_nesting() {
    let mut r = Vec::new();
    let n = 100_000;
    let parens = "(".repeat(n) + "ls" + &")".repeat(n);
    check(
        "100,000 nested ( )",
        pre_bash(&parens),
        Want::NotAllowed,
        &mut r,
    );
    let unclosed = "(".repeat(n) + "ls";
    check(
        "100,000 unclosed (",
        pre_bash(&unclosed),
        Want::NotAllowed,
        &mut r,
    );
    let subs = "echo ".to_string() + &"$(".repeat(n) + "ls" + &")".repeat(n);
    check(
        "100,000 nested $( )",
        pre_bash(&subs),
        Want::NotAllowed,
        &mut r,
    );
    let unclosed_subs = "echo ".to_string() + &"$(".repeat(n);
    check(
        "100,000 unclosed $(",
        pre_bash(&unclosed_subs),
        Want::NotAllowed,
        &mut r,
    );
    let braces = "{ ".repeat(n / 2) + "ls" + &"; }".repeat(n / 2);
    check(
        "50,000 nested { }",
        pre_bash(&braces),
        Want::NotAllowed,
        &mut r,
    );
    let ifs = "if true; then ".repeat(20_000) + "ls" + &"; fi".repeat(20_000);
    check("20,000 nested if", pre_bash(&ifs), Want::NotAllowed, &mut r);
    let quotes = "\"$(".repeat(50_000) + "ls" + &")\"".repeat(50_000);
    check(
        "50,000 nested \"$( )\"",
        pre_bash(&quotes),
        Want::NotAllowed,
        &mut r,
    );
    let backticks = "echo ".to_string() + &"`".repeat(n);
    check(
        "100,000 backquotes",
        pre_bash(&backticks),
        Want::NotAllowed,
        &mut r,
    );
    // Nested `bash -c` strings, each one level of quoting deeper.
    let mut s = "rm -rf /".to_string();
    for _ in 0..10 {
        s = format!("bash -c {}", shell_quote(&s));
    }
    check("10 nested bash -c", pre_bash(&s), Want::NotAllowed, &mut r);
    let json_deep = "[".repeat(n).into_bytes();
    check("100,000 nested JSON [", json_deep, Want::Blocked, &mut r);
    let obj_deep = r#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":"#
        .to_string()
        + &r#"{"a":"#.repeat(n);
    check(
        "100,000 nested JSON objects",
        obj_deep.into_bytes(),
        Want::Blocked,
        &mut r,
    );
    let deep_but_valid = json!({
        "hook_event_name": "PreToolUse", "tool_name": "Bash", "cwd": "/tmp",
        "tool_input": {"command": "ls", "x": nested_json(100)}
    });
    check(
        "valid JSON 100 levels deep",
        deep_but_valid.to_string().into_bytes(),
        Want::Answered,
        &mut r,
    );
}

fn nested_json(depth: usize) -> Value {
    (0..depth).fold(json!(1), |v, _| json!([v]))
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', "'\\''"))
}

#[test]
fn heredocs() {
    let mut r = Vec::new();
    let body = "echo hello world\n".repeat(1024 * 1024 / 17);
    check(
        "1 MB heredoc",
        pre_bash(&format!("cat <<'EOF'\n{body}EOF")),
        Want::NotAllowed,
        &mut r,
    );
    let body = "echo hello world\n".repeat(400 * 1024 / 17);
    check(
        "400 KB heredoc into bash",
        pre_bash(&format!("bash <<'EOF'\n{body}EOF")),
        Want::NotAllowed,
        &mut r,
    );
    check(
        "400 KB heredoc, cat",
        pre_bash(&format!("cat <<'EOF'\n{body}EOF")),
        Want::Answered,
        &mut r,
    );
    let unterminated = format!("cat <<EOF\n{}", "$(ls)\n".repeat(50_000));
    check(
        "unterminated heredoc of $( )",
        pre_bash(&unterminated),
        Want::NotAllowed,
        &mut r,
    );
    let many = "cat <<E\nx\nE\n".repeat(20_000);
    check("20,000 heredocs", pre_bash(&many), Want::NotAllowed, &mut r);
}

#[test]
fn broken_bytes() {
    let mut r = Vec::new();
    check(
        "NUL in the command",
        pre_bash("ls\0; rm -rf /"),
        Want::NotAllowed,
        &mut r,
    );
    check(
        "raw NUL bytes",
        b"{\"hook_event_name\":\"PreToolUse\"\0}".to_vec(),
        Want::Blocked,
        &mut r,
    );
    check("only NUL bytes", vec![0u8; 100_000], Want::Blocked, &mut r);
    let mut bad =
        br#"{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls "#
            .to_vec();
    bad.extend_from_slice(&[0xff, 0xfe, 0xc0, 0x80]);
    bad.extend_from_slice(br#""}}"#);
    check("invalid UTF-8 in the command", bad, Want::Blocked, &mut r);
    check(
        "lone surrogate escape",
        br#"{"hook_event_name":"PreToolUse","tool_name":"Bash","cwd":"/tmp","tool_input":{"command":"ls \ud800"}}"#.to_vec(),
        Want::Blocked,
        &mut r,
    );
    check(
        "UTF-8 BOM",
        [&[0xef, 0xbb, 0xbf][..], &pre_bash("ls")].concat(),
        Want::Blocked,
        &mut r,
    );
    check("empty stdin", Vec::new(), Want::Blocked, &mut r);
    check(
        "two events",
        [pre_bash("ls"), pre_bash("ls")].concat(),
        Want::Blocked,
        &mut r,
    );
    check(
        "truncated event",
        pre_bash("ls")[..30].to_vec(),
        Want::Blocked,
        &mut r,
    );
    check(
        "right-to-left override",
        pre_bash("ls \u{202e}fr- mr"),
        Want::Answered,
        &mut r,
    );
}

#[test]
fn wrong_types_and_unknown_events() {
    let mut r = Vec::new();
    let gate = |v: Value| v.to_string().into_bytes();
    let blocked: &[(&str, Value)] = &[
        (
            "tool_input a string",
            json!({"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":"rm -rf /"}),
        ),
        (
            "tool_input an array",
            json!({"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":["rm","-rf","/"]}),
        ),
        (
            "command an array",
            json!({"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":["rm","-rf","/"]}}),
        ),
        (
            "command a number",
            json!({"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":5}}),
        ),
        (
            "command null",
            json!({"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":null}}),
        ),
        (
            "no command",
            json!({"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{}}),
        ),
        (
            "file_path a number",
            json!({"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":1}}),
        ),
        (
            "tool_name a number",
            json!({"hook_event_name":"PreToolUse","tool_name":7,"tool_input":{}}),
        ),
        (
            "no tool_name",
            json!({"hook_event_name":"PreToolUse","tool_input":{"command":"ls"}}),
        ),
        (
            "cwd an object",
            json!({"hook_event_name":"PreToolUse","tool_name":"Bash","cwd":{},"tool_input":{"command":"ls"}}),
        ),
        (
            "relative cwd",
            json!({"hook_event_name":"PreToolUse","tool_name":"Bash","cwd":"a/b","tool_input":{"command":"ls"}}),
        ),
        (
            "session_id a number",
            json!({"hook_event_name":"PreToolUse","session_id":1,"tool_name":"Bash","tool_input":{"command":"ls"}}),
        ),
        ("event name a number", json!({"hook_event_name":1})),
        (
            "event name missing",
            json!({"tool_name":"Bash","tool_input":{"command":"ls"}}),
        ),
        ("a JSON array", json!([{"hook_event_name":"PreToolUse"}])),
        ("a JSON string", json!("PreToolUse")),
        ("JSON null", json!(null)),
        (
            "skill command missing",
            json!({"hook_event_name":"PreSkillShellCommand","tool_name":"Skill","tool_input":{}}),
        ),
    ];
    for (label, v) in blocked {
        check(label, gate(v.clone()), Want::Blocked, &mut r);
    }
    let answered: &[(&str, Value, Want)] = &[
        (
            "unknown event",
            json!({"hook_event_name":"BrandNewEvent","x":[1,2]}),
            Want::Answered,
        ),
        (
            "empty event name",
            json!({"hook_event_name":""}),
            Want::Answered,
        ),
        (
            "Notification",
            json!({"hook_event_name":"Notification","message":"x"}),
            Want::Answered,
        ),
        (
            "PostToolUse of odd input",
            json!({"hook_event_name":"PostToolUse","session_id":"s","tool_name":"Bash","tool_input":[1]}),
            Want::Answered,
        ),
        (
            "prompt a number",
            json!({"hook_event_name":"UserPromptSubmit","session_id":"s","prompt":5}),
            Want::Answered,
        ),
        (
            "unknown tool",
            json!({"hook_event_name":"PreToolUse","tool_name":"Nope","cwd":"/tmp","tool_input":{}}),
            Want::NotAllowed,
        ),
        (
            "extra fields of every type",
            json!({"hook_event_name":"PreToolUse","tool_name":"Bash","cwd":"/tmp","tool_input":{"command":"rm -rf /","timeout":[],"description":{}},"x":null,"permission_mode":7}),
            Want::NotAllowed,
        ),
    ];
    for (label, v, want) in answered {
        check(label, gate(v.clone()), *want, &mut r);
    }
}
