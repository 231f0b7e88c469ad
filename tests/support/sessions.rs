//! Hook calls through the real binary in two sessions of one scratch machine: `confirm`
//! (the default autonomy) and `auto` (after `programmer-hook autonomy auto --session auto`).
//!
//! The machine mirrors the imaginary one of `engine::examples` (home `…/home/user`,
//! working folder `…/home/user/project`, the state in `~/.claude/state/programmer`, the
//! binary installed as `~/.local/bin/programmer-hook`), under `CARGO_TARGET_TMPDIR` (or the
//! home's cache when that is in `/tmp`) so that it is not inside a temporary folder. A table case written for the imaginary machine
//! runs here with `/home/user` replaced by the scratch home.

#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use serde_json::{json, Value};

use super::scratch;

/// Set in a test build, the hook judges as where the kernel has no confinement.
pub const NO_CONFINE: &str = "PROGRAMMER_HOOK_TEST_NO_CONFINE";

/// The session whose autonomy is `auto`.
pub const AUTO: &str = "auto";
/// A session with the default autonomy.
pub const CONFIRM: &str = "confirm";

pub struct Machine {
    pub home: PathBuf,
    pub project: PathBuf,
    pub bin: PathBuf,
    /// The managed folder of this machine (see `hook::sandbox_settings::managed_dir`):
    /// empty unless a test writes there.
    pub managed: PathBuf,
    /// Whether the hook confines the calls it allows on a prediction here (see
    /// `programmer_hook::confine`); the other machines judge as where the kernel has no
    /// confinement (`PROGRAMMER_HOOK_TEST_NO_CONFINE`).
    pub confine: bool,
    /// Variables the hook runs with, as Claude Code's environment would hold them.
    pub env: Vec<(String, String)>,
}

/// One answer of the hook.
#[derive(Debug, Clone)]
pub struct Answer {
    pub decision: String,
    pub reason: String,
    /// The whole JSON answer (Null for a blocked call).
    pub raw: Value,
}

impl Answer {
    /// The rule id the reason names (`programmer-hook: Tier [rule] …`).
    pub fn rule(&self) -> &str {
        self.reason
            .split_once('[')
            .and_then(|(_, r)| r.split_once(']'))
            .map_or("", |(id, _)| id)
    }
}

impl Machine {
    /// The machine of this test binary, made once.
    pub fn get() -> &'static Machine {
        static M: OnceLock<Machine> = OnceLock::new();
        M.get_or_init(|| Machine::make("sessions", false, false))
    }

    /// A second machine, the same but with Claude Code's sandbox on in the user's settings
    /// as `install-hooks --sandbox` writes it: there `auto` also runs contained calls.
    pub fn sandboxed() -> &'static Machine {
        static M: OnceLock<Machine> = OnceLock::new();
        M.get_or_init(|| Machine::make("sandboxed", true, false))
    }

    /// A third machine, without Claude Code's sandbox, where the hook confines the calls it
    /// allows on a prediction (where the kernel lets it).
    pub fn confined() -> &'static Machine {
        static M: OnceLock<Machine> = OnceLock::new();
        M.get_or_init(|| Machine::make("confined", false, true))
    }

    /// A machine of its own, for a test that puts files in its project: `name` tells its
    /// folder from the others'.
    pub fn fresh(name: &str, sandbox: bool) -> Machine {
        Machine::make(name, sandbox, false)
    }

    /// A confining machine of its own (see [`Machine::confined`]).
    pub fn fresh_confined(name: &str) -> Machine {
        Machine::make(name, false, true)
    }

    fn make(name: &str, sandbox: bool, confine: bool) -> Machine {
        let root = scratch::process_dir(&scratch_root(), name);
        let home = root.join("home/user");
        let project = home.join("project");
        std::fs::create_dir_all(&project).expect("scratch project");
        let bin_dir = home.join(".local/bin");
        std::fs::create_dir_all(&bin_dir).expect("scratch bin dir");
        let managed = root.join("managed");
        std::fs::create_dir_all(&managed).expect("scratch managed folder");
        let bin = bin_dir.join("programmer-hook");
        scratch::place_binary(Path::new(env!("CARGO_BIN_EXE_programmer-hook")), &bin);
        let m = Machine {
            home,
            project,
            bin,
            managed,
            confine,
            env: Vec::new(),
        };
        if sandbox {
            // The binary was just copied here: retried while another thread's fork holds it.
            let out = retry_busy(|| m.command().args(["install-hooks", "--sandbox"]).output())
                .expect("install-hooks runs");
            assert!(
                out.status.success(),
                "install-hooks --sandbox: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        // As the user does it: the prompt, typed in the session.
        m.prompt(AUTO, "/programmer autonomy auto");
        m.prompt(CONFIRM, "hello");
        m
    }

    /// Writes each `(path relative to the home folder, content)`, making its folders.
    pub fn write_files(&self, files: &[(&str, &str)]) {
        for (name, content) in files {
            let path = self.home.join(name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent).expect("scratch folder");
            }
            std::fs::write(&path, content).expect("scratch file");
        }
    }

    pub fn command(&self) -> Command {
        let mut c = Command::new(&self.bin);
        c.env("HOME", &self.home)
            .env_remove("PROGRAMMER_STATE_DIR")
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("CLAUDE_PROJECT_DIR")
            .env("PROGRAMMER_HOOK_TEST_MANAGED_DIR", &self.managed)
            .current_dir(&self.project);
        if !self.confine {
            c.env(NO_CONFINE, "1");
        }
        // The tests' own shell may set CDPATH; the machine's environment decides.
        c.env_remove("CDPATH");
        c.envs(self.env.iter().map(|(k, v)| (k, v)));
        c
    }

    pub fn state_dir(&self) -> PathBuf {
        self.home.join(".claude/state/programmer")
    }

    /// Text of the imaginary machine in this one.
    pub fn here(&self, text: &str) -> String {
        text.replace("/home/user", &self.home.to_string_lossy())
    }

    /// Sends a prompt the user typed in a session (a `UserPromptSubmit` event).
    pub fn prompt(&self, session: &str, text: &str) {
        let ev = json!({
            "session_id": session,
            "transcript_path": "/tmp/t.jsonl",
            "cwd": self.project,
            "hook_event_name": "UserPromptSubmit",
            "prompt": text,
        });
        // The binary was just copied here: another test thread's fork may still hold it open
        // for a moment ("text file busy").
        let mut child = retry_busy(|| {
            self.command()
                .arg("hook")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
        })
        .expect("spawns");
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(ev.to_string().as_bytes()).expect("event");
        drop(stdin);
        let out = child.wait_with_output().expect("runs");
        assert_eq!(
            out.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    /// Sends one PreToolUse event in a session.
    pub fn pre(&self, session: &str, tool: &str, input: Value) -> Answer {
        let ev = json!({
            "session_id": session,
            "transcript_path": "/tmp/t.jsonl",
            "cwd": self.project,
            "hook_event_name": "PreToolUse",
            "tool_name": tool,
            "tool_input": input,
            "tool_use_id": "toolu_1",
        });
        let mut child = retry_busy(|| {
            self.command()
                .arg("hook")
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
        })
        .expect("spawns");
        let bytes = ev.to_string().into_bytes();
        let mut stdin = child.stdin.take().expect("stdin");
        let writer = std::thread::spawn(move || {
            let _ = stdin.write_all(&bytes);
        });
        let out = child.wait_with_output().expect("runs");
        let _ = writer.join();
        let stdout = String::from_utf8_lossy(&out.stdout);
        if out.status.code() == Some(2) {
            // A call that could not be checked is blocked: a denial.
            return Answer {
                decision: "deny".into(),
                reason: String::from_utf8_lossy(&out.stderr).to_string(),
                raw: Value::Null,
            };
        }
        assert_eq!(out.status.code(), Some(0), "{tool}: {stdout}");
        let v: Value = serde_json::from_str(&stdout).expect("JSON answer");
        let o = &v["hookSpecificOutput"];
        Answer {
            decision: o["permissionDecision"].as_str().unwrap_or("").to_string(),
            reason: o["permissionDecisionReason"]
                .as_str()
                .unwrap_or("")
                .to_string(),
            raw: v.clone(),
        }
    }

    /// Runs a table case (a Bash command, `tool:NAME PATH`, `tool:NAME {JSON}` for a
    /// tool's whole input, `tool:PowerShell SCRIPT`) in a session.
    pub fn example(&self, session: &str, example: &str) -> Answer {
        let example = self.here(example);
        match example.strip_prefix("tool:") {
            Some(rest) => {
                let (tool, arg) = match rest.split_once(' ') {
                    Some((t, a)) => (t, Some(a)),
                    None => (rest, None),
                };
                let input = match (tool, arg) {
                    (_, Some(a)) if a.starts_with('{') => {
                        serde_json::from_str(a).expect("a table case's tool input is JSON")
                    }
                    ("PowerShell", Some(a)) => json!({"command": a}),
                    ("NotebookEdit", Some(p)) => {
                        json!({"notebook_path": self.path(p), "new_source": ""})
                    }
                    ("Glob" | "Grep", Some(p)) => json!({"path": self.path(p), "pattern": "x"}),
                    (_, Some(p)) => {
                        let p = self.path(p);
                        json!({"file_path": p, "content": "", "old_string": "", "new_string": ""})
                    }
                    (_, None) => json!({}),
                };
                self.pre(session, tool, input)
            }
            None => self.pre(session, "Bash", json!({ "command": example })),
        }
    }

    /// A path of a table case: absolute, `~/…`, or relative to the project.
    fn path(&self, p: &str) -> String {
        if let Some(rest) = p.strip_prefix("~/") {
            self.home.join(rest).to_string_lossy().to_string()
        } else if Path::new(p).is_absolute() {
            p.to_string()
        } else {
            self.project.join(p).to_string_lossy().to_string()
        }
    }
}

/// Runs a process of the copied binary, again while it is "busy": a process forked by
/// another test thread may hold the copy open for a moment (ETXTBSY).
fn retry_busy<T>(mut run: impl FnMut() -> std::io::Result<T>) -> std::io::Result<T> {
    let mut tries = 0;
    loop {
        match run() {
            Err(e) if e.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 50 => {
                tries += 1;
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
            r => return r,
        }
    }
}

/// Where the scratch machines go: the target folder's, unless the checkout itself is in a
/// temporary folder (`/tmp`, `/var/tmp`), which the policy treats as scratch space for
/// writes; then a folder in the real home's cache.
pub fn scratch_root() -> PathBuf {
    let target = PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let temporary = ["/tmp", "/var/tmp"].iter().any(|t| target.starts_with(t));
    match std::env::var_os("HOME").filter(|_| temporary) {
        Some(home) => PathBuf::from(home).join(".cache/programmer-hook-tests"),
        None => target,
    }
}

/// Runs every case in the `auto` session, on two threads, and returns those not denied
/// there, with what they got: on the plain machine, on the one with Claude Code's sandbox
/// on and on the one where the hook confines calls, where `auto` relaxes more (and
/// Forbidden must not change).
pub fn not_denied_in_auto(cases: &[String]) -> Vec<String> {
    not_decided_in_auto(cases, "deny", false)
}

/// [`not_denied_in_auto`] for cases judged in the imaginary machine, whose folders hold
/// nothing the binary can look at: a case the binary does not deny in the default
/// session of the same machine either (a glob whose folder here holds no secret) is
/// judged there by what the machine holds, and auto is only held to that.
pub fn not_denied_in_auto_where_denied_here(cases: &[String]) -> Vec<String> {
    not_decided_in_auto(cases, "deny", true)
}

/// Runs every case in the `auto` session, as [`not_denied_in_auto`] does, and returns those
/// not asked there: what is never relaxed is asked in `auto` too, with Claude Code's
/// sandbox on or not.
pub fn not_asked_in_auto(cases: &[String]) -> Vec<String> {
    not_decided_in_auto(cases, "ask", false)
}

fn not_decided_in_auto(cases: &[String], want: &'static str, here: bool) -> Vec<String> {
    if cases.is_empty() {
        return Vec::new();
    }
    let half = cases.len().div_ceil(2).max(1);
    let machines = [
        (Machine::get(), "auto"),
        (Machine::sandboxed(), "sandboxed auto"),
        (Machine::confined(), "confined auto"),
    ];
    std::thread::scope(|s| {
        let handles: Vec<_> = machines
            .iter()
            .flat_map(|&(m, name)| cases.chunks(half).map(move |chunk| (m, name, chunk)))
            .map(|(m, name, chunk)| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .filter_map(|c| {
                            let a = m.example(AUTO, c);
                            let weaker = a.decision != want
                                && (!here || m.example(CONFIRM, c).decision == want);
                            weaker.then(|| {
                                let head: String = c.chars().take(120).collect();
                                format!(
                                    "{head:?}: {} in the {name} session ({})",
                                    a.decision, a.reason
                                )
                            })
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("thread"))
            .collect()
    })
}
