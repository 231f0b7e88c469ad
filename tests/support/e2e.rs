//! The end-to-end harness shared by `tests/e2e_*.rs` (each as `support::e2e`): the real Claude Code
//! client, driven by a scripted model (`tests/e2e/mock_model.py`) on
//! 127.0.0.1, in a scratch HOME.
//!
//! The client is looked up in `$CLAUDE_BIN`, else in
//! `<repo>/target/e2e-client/node_modules/@anthropic-ai/claude-code-<platform>/claude`
//! (install it with `tests/e2e/install-client.sh`).  Without a client the
//! tests print a loud SKIPPED line and pass, except when `$CI` is set: then
//! they fail.  See `tests/e2e/README.md` for the protocol facts these tests
//! rely on.
//!
//! Debugging: `E2E_KEEP=1` keeps every scratch folder (paths are printed);
//! `E2E_FULL_BODIES=1` makes the mock log whole request bodies.  When a test
//! panics, the harness prints the mock log, the hook events, the product's
//! audit log and the client's stderr.

// Each test binary uses a different part of the harness.
#![allow(dead_code)]

use anyhow::{anyhow, bail, Context, Result};
use serde_json::{json, Value};
use std::cell::Cell;
use std::fs;
use std::io::{BufRead, BufReader};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};
use tempfile::TempDir;

use super::skip::{fail_under_ci, skipped};

/// The client version the tests are written against.
pub const CLIENT_VERSION: &str = "2.1.332";
/// Kill a client run that takes longer than this.
const RUN_TIMEOUT: Duration = Duration::from_secs(120);
/// The mock model exits by itself after this many seconds.
const SERVER_LIFETIME_SECS: u32 = 900;

/// Events `write_settings_with_hook` registers the hook for.
const HOOK_EVENTS: &[&str] = &[
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "UserPromptSubmit",
    "UserPromptExpansion",
    "SessionStart",
    "SessionEnd",
    "SubagentStart",
    "SubagentStop",
    "Stop",
];

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn platform() -> &'static str {
    match (std::env::consts::OS, std::env::consts::ARCH) {
        ("linux", "aarch64") => "linux-arm64",
        ("macos", "x86_64") => "darwin-x64",
        ("macos", "aarch64") => "darwin-arm64",
        _ => "linux-x64",
    }
}

fn client_path() -> PathBuf {
    match std::env::var_os("CLAUDE_BIN") {
        Some(p) if !p.is_empty() => PathBuf::from(p),
        _ => repo()
            .join("target/e2e-client/node_modules/@anthropic-ai")
            .join(format!("claude-code-{}", platform()))
            .join("claude"),
    }
}

/// The client binary, or `None` (after a loud SKIPPED line) when it is not
/// installed.  Panics when it is missing under CI.
fn find_client() -> Option<PathBuf> {
    let path = client_path();
    if path.is_file() {
        return Some(path);
    }
    let msg = format!(
        "Claude Code client not installed (looked for {}); \
         run tests/e2e/install-client.sh or set CLAUDE_BIN",
        path.display()
    );
    fail_under_ci(&msg);
    skipped(
        "Claude Code client not installed, run tests/e2e/install-client.sh",
        Some(&msg),
    );
    None
}

fn write_executable(path: &Path, text: &str) -> Result<()> {
    fs::write(path, text).with_context(|| format!("writing {}", path.display()))?;
    fs::set_permissions(path, fs::Permissions::from_mode(0o755))?;
    Ok(())
}

/// Quote for a POSIX shell script.
fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

fn read_jsonl(path: &Path) -> Vec<Value> {
    let Ok(text) = fs::read_to_string(path) else {
        return Vec::new();
    };
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

/// Tool-use ids in scenarios may be given without the `toolu_` prefix.
fn tool_use_id(id: &str) -> String {
    if id.starts_with("toolu_") {
        id.to_string()
    } else {
        format!("toolu_{id}")
    }
}

/// One `claude -p` run.
#[derive(Debug)]
pub struct ClaudeRun {
    /// The single JSON object `--output-format json` printed.
    pub json: Value,
    pub stderr: String,
    pub status: ExitStatus,
    pub elapsed: Duration,
}

impl ClaudeRun {
    pub fn session_id(&self) -> &str {
        self.json["session_id"].as_str().unwrap_or_default()
    }

    pub fn result(&self) -> &str {
        self.json["result"].as_str().unwrap_or_default()
    }

    /// `permission_denials`: `[{tool_name, tool_use_id, tool_input}]`.
    pub fn denials(&self) -> Vec<Value> {
        self.json["permission_denials"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }

    pub fn denied(&self, id: &str) -> bool {
        let id = tool_use_id(id);
        self.denials()
            .iter()
            .any(|d| d["tool_use_id"].as_str() == Some(id.as_str()))
    }
}

/// A scratch HOME and project, a scripted model server, and the client.
pub struct E2e {
    pub client: PathBuf,
    /// `$HOME` for the client: `.claude/settings.json`, agents, commands.
    pub home: TempDir,
    /// The client's working directory (`cwd` / `CLAUDE_PROJECT_DIR`).
    pub project: TempDir,
    /// Scenario, logs, hook scripts and the client's TMPDIR.
    pub work: TempDir,
    server: Child,
    server_stdin: Option<ChildStdin>,
    pub port: u16,
    runs: Cell<u32>,
    /// The hook judges as where the kernel has no confinement (a test build reads
    /// `PROGRAMMER_HOOK_TEST_NO_CONFINE`), for a test of what happens without it.
    pub no_confine: Cell<bool>,
}

impl E2e {
    /// Starts the mock model with `scenario`.  `None` means the client is
    /// not installed and the test should return (a SKIPPED line was printed).
    pub fn start(scenario: &Value) -> Option<E2e> {
        let client = find_client()?;
        Some(Self::start_with(client, scenario).expect("starting the e2e harness"))
    }

    fn start_with(client: PathBuf, scenario: &Value) -> Result<E2e> {
        let mut home = TempDir::with_prefix("e2e-home-")?;
        let mut project = TempDir::with_prefix("e2e-proj-")?;
        let mut work = TempDir::with_prefix("e2e-work-")?;
        if std::env::var_os("E2E_KEEP").is_some() {
            home.disable_cleanup(true);
            project.disable_cleanup(true);
            work.disable_cleanup(true);
            eprintln!(
                "E2E_KEEP: home={} project={} work={}",
                home.path().display(),
                project.path().display(),
                work.path().display()
            );
        }
        fs::create_dir_all(home.path().join(".claude/agents"))?;
        fs::create_dir_all(home.path().join(".claude/commands"))?;
        fs::create_dir_all(work.path().join("tmp"))?;

        let scenario_path = work.path().join("scenario.json");
        fs::write(&scenario_path, serde_json::to_vec_pretty(scenario)?)?;
        let mut cmd = Command::new("python3");
        cmd.arg(repo().join("tests/e2e/mock_model.py"))
            .arg("--scenario")
            .arg(&scenario_path)
            .arg("--log")
            .arg(work.path().join("mock.jsonl"))
            .arg("--timeout")
            .arg(SERVER_LIFETIME_SECS.to_string())
            .arg("--exit-on-stdin-eof");
        if std::env::var_os("E2E_FULL_BODIES").is_some() {
            cmd.arg("--full-bodies");
        }
        let mut server = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(fs::File::create(work.path().join("mock.stderr"))?)
            .spawn()
            .context("starting python3 tests/e2e/mock_model.py")?;
        let server_stdin = server.stdin.take();
        let stdout = server.stdout.take().expect("piped stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut line = String::new();
            let _ = BufReader::new(stdout).read_line(&mut line);
            let _ = tx.send(line);
        });
        let line = rx.recv_timeout(Duration::from_secs(20)).unwrap_or_default();
        let port = line
            .trim()
            .strip_prefix("PORT ")
            .and_then(|p| p.parse::<u16>().ok());
        let Some(port) = port else {
            let _ = server.kill();
            let _ = server.wait();
            let err = fs::read_to_string(work.path().join("mock.stderr")).unwrap_or_default();
            bail!("mock model did not report its port (got {line:?}); stderr:\n{err}");
        };
        Ok(E2e {
            client,
            home,
            project,
            work,
            server,
            server_stdin,
            port,
            runs: Cell::new(0),
            no_confine: Cell::new(false),
        })
    }

    pub fn project_path(&self) -> PathBuf {
        self.project
            .path()
            .canonicalize()
            .unwrap_or_else(|_| self.project.path().to_path_buf())
    }

    /// Replaces the scenario; the mock re-reads it on every request.
    pub fn set_scenario(&self, scenario: &Value) -> Result<()> {
        let tmp = self.work.path().join("scenario.json.tmp");
        fs::write(&tmp, serde_json::to_vec_pretty(scenario)?)?;
        fs::rename(&tmp, self.work.path().join("scenario.json"))?;
        Ok(())
    }

    /// Writes `$HOME/.claude/settings.json`.
    pub fn write_settings(&self, settings: &Value) -> Result<()> {
        let path = self.home.path().join(".claude/settings.json");
        fs::write(&path, serde_json::to_vec_pretty(settings)?)?;
        Ok(())
    }

    /// One exec-form, fail-closed command hook entry.
    pub fn hook_entry(command: &Path, args: &[&str]) -> Value {
        json!({
            "type": "command",
            "command": command,
            "args": args,
            "timeout": 10,
            "onFailure": "block",
        })
    }

    /// Settings that register `command args...` for every event in
    /// [`HOOK_EVENTS`] (matcher `*`).
    pub fn settings_with_hook(command: &Path, args: &[&str]) -> Value {
        let mut hooks = serde_json::Map::new();
        for event in HOOK_EVENTS {
            hooks.insert(
                event.to_string(),
                json!([{ "matcher": "*", "hooks": [Self::hook_entry(command, args)] }]),
            );
        }
        json!({ "hooks": hooks })
    }

    /// Writes settings registering `command args...` as the hook for every
    /// event in [`HOOK_EVENTS`].  For the real binary:
    /// `write_settings_with_hook(Path::new(env!("CARGO_BIN_EXE_programmer-hook")), &["hook"])`.
    pub fn write_settings_with_hook(&self, command: &Path, args: &[&str]) -> Result<()> {
        self.write_settings(&Self::settings_with_hook(command, args))
    }

    /// Writes `$HOME/.claude/agents/<name>.md`; `tools` is the frontmatter
    /// allowlist (e.g. `"Bash, Read"`), `None` to inherit all tools.
    pub fn write_agent(&self, name: &str, tools: Option<&str>, body: &str) -> Result<()> {
        let tools = tools.map(|t| format!("tools: {t}\n")).unwrap_or_default();
        let text =
            format!("---\nname: {name}\ndescription: Test agent {name}\n{tools}---\n{body}\n");
        fs::write(
            self.home.path().join(format!(".claude/agents/{name}.md")),
            text,
        )?;
        Ok(())
    }

    /// Writes `$HOME/.claude/commands/<name>.md` (a `/name` slash command).
    pub fn write_command(&self, name: &str, text: &str) -> Result<()> {
        fs::write(
            self.home.path().join(format!(".claude/commands/{name}.md")),
            text,
        )?;
        Ok(())
    }

    /// Copies the `*.md` files of `src` (e.g. `<repo>/agents`) into
    /// `$HOME/.claude/<sub>` (e.g. `agents`).
    pub fn install_markdown_dir(&self, src: &Path, sub: &str) -> Result<()> {
        let dest = self.home.path().join(".claude").join(sub);
        fs::create_dir_all(&dest)?;
        for entry in fs::read_dir(src).with_context(|| format!("reading {}", src.display()))? {
            let path = entry?.path();
            if path.extension().is_some_and(|e| e == "md") {
                fs::copy(&path, dest.join(path.file_name().unwrap()))?;
            }
        }
        Ok(())
    }

    /// Where hook scripts made by this harness append each stdin payload.
    pub fn hook_events_path(&self) -> PathBuf {
        self.work.path().join("hook-events.jsonl")
    }

    /// The trivial policy hook: logs each payload to [`hook_events_path`],
    /// denies PreToolUse when the payload contains `forbidden`, answers
    /// `ask` when it contains `askme`, allows other PreToolUse calls, and
    /// prints nothing for other events.
    pub fn test_hook_script(&self) -> Result<PathBuf> {
        let path = self.work.path().join("test-hook.sh");
        let log = sh_quote(&self.hook_events_path().to_string_lossy());
        let decide = |d: &str, why: &str| {
            format!(
                r#"printf '%s\n' '{{"hookSpecificOutput":{{"hookEventName":"PreToolUse","permissionDecision":"{d}","permissionDecisionReason":"{why}"}}}}'"#
            )
        };
        let script = format!(
            "#!/bin/sh\n\
             input=$(cat)\n\
             printf '%s\\n' \"$input\" >> {log}\n\
             case \"$input\" in\n\
             *'\"hook_event_name\":\"PreToolUse\"'*)\n\
             \x20 case \"$input\" in\n\
             \x20   *forbidden*) {deny} ;;\n\
             \x20   *askme*) {ask} ;;\n\
             \x20   *) {allow} ;;\n\
             \x20 esac ;;\n\
             esac\n\
             exit 0\n",
            deny = decide("deny", "forbidden by test hook"),
            ask = decide("ask", "test hook asks"),
            allow = decide("allow", "test hook allows"),
        );
        write_executable(&path, &script)?;
        Ok(path)
    }

    /// A wrapper that appends each payload to [`hook_events_path`] and then
    /// execs `target args...` with the same stdin, to record what the real
    /// hook binary was sent.
    pub fn tee_hook_script(&self, target: &Path, args: &[&str]) -> Result<PathBuf> {
        let path = self.work.path().join("tee-hook.sh");
        let log = sh_quote(&self.hook_events_path().to_string_lossy());
        let mut exec = sh_quote(&target.to_string_lossy());
        for a in args {
            exec.push(' ');
            exec.push_str(&sh_quote(a));
        }
        let script = format!(
            "#!/bin/sh\ninput=$(cat)\nprintf '%s\\n' \"$input\" >> {log}\n\
             printf '%s\\n' \"$input\" | exec {exec}\n"
        );
        write_executable(&path, &script)?;
        Ok(path)
    }

    fn client_env(&self) -> Vec<(&'static str, String)> {
        let base = format!("http://127.0.0.1:{}", self.port);
        let tmp = self.work.path().join("tmp").to_string_lossy().into_owned();
        let mut env = vec![
            ("PATH", self.path_var()),
            ("HOME", self.home.path().to_string_lossy().into_owned()),
            ("LANG", "C.UTF-8".into()),
            ("TMPDIR", tmp.clone()),
            ("CLAUDE_CODE_TMPDIR", tmp),
            ("ANTHROPIC_BASE_URL", base.clone()),
            ("ANTHROPIC_API_KEY", "sk-ant-e2e-mock-key".into()),
            ("DISABLE_TELEMETRY", "1".into()),
            ("DISABLE_ERROR_REPORTING", "1".into()),
            ("DISABLE_AUTOUPDATER", "1".into()),
            ("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1".into()),
            // Anything that escapes to another host goes through the mock,
            // which refuses it and logs a "proxy" entry.
            ("HTTPS_PROXY", base.clone()),
            ("HTTP_PROXY", base.clone()),
            ("https_proxy", base.clone()),
            ("http_proxy", base),
            ("NO_PROXY", "127.0.0.1,localhost".into()),
            ("no_proxy", "127.0.0.1,localhost".into()),
            // A test build of the hook reads its managed folder here (empty unless a
            // test writes there), not in /etc/claude-code.
            (
                "PROGRAMMER_HOOK_TEST_MANAGED_DIR",
                self.managed_dir().to_string_lossy().into_owned(),
            ),
        ];
        if self.no_confine.get() {
            env.push(("PROGRAMMER_HOOK_TEST_NO_CONFINE", "1".into()));
        }
        env
    }

    /// The managed folder the product's test build reads (see `client_env`).
    pub fn managed_dir(&self) -> PathBuf {
        self.work.path().join("managed")
    }

    /// `claude -p PROMPT --output-format json [--resume ID]` in the project
    /// folder, killed after [`RUN_TIMEOUT`].
    pub fn run_claude(&self, prompt: &str, resume: Option<&str>) -> Result<ClaudeRun> {
        self.run_claude_with(prompt, resume, &[])
    }

    pub fn run_claude_with(
        &self,
        prompt: &str,
        resume: Option<&str>,
        extra_args: &[&str],
    ) -> Result<ClaudeRun> {
        let n = self.runs.get() + 1;
        self.runs.set(n);
        let out_path = self.work.path().join(format!("run-{n}.stdout"));
        let err_path = self.work.path().join(format!("run-{n}.stderr"));
        let mut cmd = Command::new(&self.client);
        cmd.arg("-p").arg(prompt).arg("--output-format").arg("json");
        if let Some(id) = resume {
            cmd.arg("--resume").arg(id);
        }
        cmd.args(extra_args)
            .current_dir(self.project.path())
            .env_clear()
            .envs(self.client_env())
            .stdin(Stdio::null())
            .stdout(fs::File::create(&out_path)?)
            .stderr(fs::File::create(&err_path)?)
            .process_group(0);
        let start = Instant::now();
        let mut child = cmd
            .spawn()
            .with_context(|| format!("starting {}", self.client.display()))?;
        let status = loop {
            if let Some(status) = child.try_wait()? {
                break status;
            }
            if start.elapsed() > RUN_TIMEOUT {
                // The client runs in its own process group; end the group
                // (hooks, Bash tool children) and then the client itself.
                let _ = Command::new("kill")
                    .arg("-KILL")
                    .arg("--")
                    .arg(format!("-{}", child.id()))
                    .status();
                let _ = child.kill();
                let _ = child.wait();
                bail!(
                    "claude run {n} timed out after {:?}; stderr:\n{}",
                    RUN_TIMEOUT,
                    fs::read_to_string(&err_path).unwrap_or_default()
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        let elapsed = start.elapsed();
        let stdout = fs::read_to_string(&out_path)?;
        let stderr = fs::read_to_string(&err_path)?;
        let json = stdout
            .lines()
            .rev()
            .find_map(|l| {
                serde_json::from_str::<Value>(l.trim())
                    .ok()
                    .filter(Value::is_object)
            })
            .ok_or_else(|| {
                anyhow!(
                    "claude run {n} ({status}) printed no JSON object\n\
                     stdout:\n{stdout}\nstderr:\n{stderr}"
                )
            })?;
        Ok(ClaudeRun {
            json,
            stderr,
            status,
            elapsed,
        })
    }

    /// Everything the mock logged so far (see `tests/e2e/mock_model.py`).
    pub fn server_log(&self) -> Vec<Value> {
        read_jsonl(&self.work.path().join("mock.jsonl"))
    }

    /// Messages requests the mock assigned to `thread`.
    pub fn requests(&self, thread: &str) -> Vec<Value> {
        self.server_log()
            .into_iter()
            .filter(|e| e["type"] == "request" && e["thread"] == thread)
            .collect()
    }

    /// What came back to the model for a scripted tool use:
    /// `{tool_use_id, tool_name, input, is_error, content, thread}`.
    pub fn tool_result(&self, id: &str) -> Option<Value> {
        let id = tool_use_id(id);
        self.server_log()
            .into_iter()
            .find(|e| e["type"] == "tool_result" && e["tool_use_id"].as_str() == Some(&id))
    }

    /// Attempts of the client to reach other hosts (all refused).
    pub fn proxy_attempts(&self) -> Vec<Value> {
        self.server_log()
            .into_iter()
            .filter(|e| e["type"] == "proxy")
            .collect()
    }

    /// Payloads recorded by [`test_hook_script`] / [`tee_hook_script`].
    pub fn hook_events(&self) -> Vec<Value> {
        read_jsonl(&self.hook_events_path())
    }

    pub fn hook_events_named(&self, event: &str) -> Vec<Value> {
        self.hook_events()
            .into_iter()
            .filter(|e| e["hook_event_name"] == event)
            .collect()
    }

    fn dump(&self) {
        eprintln!(
            "===== e2e: mock model log ({}) =====",
            self.work.path().display()
        );
        for e in self.server_log() {
            let mut e = e;
            if let Some(o) = e.as_object_mut() {
                o.remove("body");
                o.remove("headers");
                o.remove("first_user_text");
                // Logged again, in full, as their own "tool_result" entries.
                o.remove("tool_results");
                o.remove("tools");
                if let Some(Value::String(c)) = o.get_mut("content") {
                    if c.chars().count() > 600 {
                        *c = c.chars().take(600).collect::<String>() + "…";
                    }
                }
            }
            eprintln!("{e}");
        }
        eprintln!("===== e2e: hook events =====");
        for e in self.hook_events() {
            eprintln!("{e}");
        }
        let audit = self.audit_log();
        if !audit.is_empty() {
            eprintln!("===== e2e: programmer-hook audit log =====");
            for e in audit {
                eprintln!("{e}");
            }
        }
        for n in 1..=self.runs.get() {
            let err = self.work.path().join(format!("run-{n}.stderr"));
            let text = fs::read_to_string(err).unwrap_or_default();
            if !text.trim().is_empty() {
                eprintln!("===== e2e: client run {n} stderr =====\n{text}");
            }
        }
    }
}

impl Drop for E2e {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.dump();
        }
        drop(self.server_stdin.take());
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

/// The product's binary, as cargo built it for this test run.
pub fn built_binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_programmer-hook"))
}

/// The product as `./install.sh` installs it into the scratch HOME, the
/// scratch project as a git repository, and checks on what the client did.
impl E2e {
    /// `$HOME/.local/bin`, where `install.sh` puts the binary; first on the
    /// client's `PATH`, as on a user's machine.
    pub fn local_bin(&self) -> PathBuf {
        self.home.path().join(".local/bin")
    }

    /// The installed hook binary (what settings.json runs).
    pub fn hook_bin(&self) -> PathBuf {
        self.local_bin().join("programmer-hook")
    }

    pub fn settings_path(&self) -> PathBuf {
        self.home.path().join(".claude/settings.json")
    }

    /// The product's state dir in the scratch HOME.
    pub fn state_dir(&self) -> PathBuf {
        self.home.path().join(".claude/state/programmer")
    }

    /// `PATH` for the client and the installer: `~/.local/bin`, the client's
    /// own folder (so `doctor` finds `claude`), then the inherited `PATH`.
    fn path_var(&self) -> String {
        let inherited =
            std::env::var("PATH").unwrap_or_else(|_| "/usr/local/bin:/usr/bin:/bin".into());
        let client_dir = self
            .client
            .parent()
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_default();
        format!(
            "{}:{client_dir}:{inherited}",
            self.local_bin().to_string_lossy()
        )
    }

    /// Environment for commands the test runs as the user would in a terminal.
    pub fn user_command(&self, program: &Path) -> Command {
        let mut cmd = Command::new(program);
        cmd.env_clear()
            .env("PATH", self.path_var())
            .env("HOME", self.home.path())
            .env("LANG", "C.UTF-8")
            .env("TMPDIR", self.work.path().join("tmp"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("PROGRAMMER_HOOK_TEST_MANAGED_DIR", self.managed_dir())
            .current_dir(self.work.path())
            .stdin(Stdio::null());
        cmd
    }

    /// Runs `./install.sh --binary <the built binary>` with `HOME` set to the
    /// scratch home, as a user would (with `~/.local/bin` on `PATH`). It must
    /// succeed, `doctor` included. Returns its output.
    pub fn install_product(&self) -> Result<String> {
        self.install_product_with(&[])
    }

    /// [`E2e::install_product`] with more options for `install.sh` (`--sandbox`).
    pub fn install_product_with(&self, options: &[&str]) -> Result<String> {
        let out = self
            .user_command(Path::new("bash"))
            .arg(repo().join("install.sh"))
            .arg("--binary")
            .arg(built_binary())
            .args(options)
            .output()
            .context("running install.sh")?;
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        fs::write(self.work.path().join("install.log"), &text)?;
        if !out.status.success() {
            bail!("install.sh failed ({}):\n{text}", out.status);
        }
        let settings = fs::read_to_string(self.settings_path())
            .context("install.sh wrote no settings.json")?;
        if !settings.contains(&*self.hook_bin().to_string_lossy()) {
            bail!(
                "settings.json does not run {}:\n{settings}",
                self.hook_bin().display()
            );
        }
        Ok(text)
    }

    /// Runs the installed `programmer-hook ARGS` as the user would in a terminal.
    pub fn product(&self, args: &[&str]) -> Result<std::process::Output> {
        self.user_command(&self.hook_bin())
            .args(args)
            .output()
            .context("running the installed programmer-hook")
    }

    /// `programmer-hook status --json --session ID`.
    pub fn status(&self, session: &str) -> Result<Value> {
        let out = self.product(&["status", "--json", "--session", session])?;
        if !out.status.success() {
            bail!(
                "programmer-hook status failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        serde_json::from_slice(&out.stdout).context("status --json printed no JSON")
    }

    /// The decisions in the product's audit log (`<state>/audit/*.jsonl`).
    pub fn audit_log(&self) -> Vec<Value> {
        let Ok(dir) = fs::read_dir(self.state_dir().join("audit")) else {
            return Vec::new();
        };
        let mut files: Vec<PathBuf> = dir.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        files.sort();
        files.iter().flat_map(|f| read_jsonl(f)).collect()
    }

    /// Runs `git ARGS` in `dir` with the scratch HOME; fails when git does.
    pub fn git(&self, dir: &Path, args: &[&str]) -> Result<String> {
        let out = self
            .user_command(Path::new("git"))
            .current_dir(dir)
            .args(args)
            .output()
            .context("running git")?;
        if !out.status.success() {
            bail!(
                "git {args:?} failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// Makes the project a git repository holding `files`, committed as
    /// `initial`, with a committer identity in the repository's own config
    /// (so the client's `git commit` works too).
    pub fn init_repo(&self, files: &[(&str, &str)]) -> Result<()> {
        let proj = self.project_path();
        self.git(&proj, &["init", "-q", "-b", "main"])?;
        for (k, v) in [
            ("user.name", "E2E Test"),
            ("user.email", "e2e@example.invalid"),
            ("commit.gpgsign", "false"),
        ] {
            self.git(&proj, &["config", k, v])?;
        }
        for (name, text) in files {
            let path = proj.join(name);
            if let Some(dir) = path.parent() {
                fs::create_dir_all(dir)?;
            }
            fs::write(&path, text)?;
        }
        self.git(&proj, &["add", "-A"])?;
        self.git(&proj, &["commit", "-q", "-m", "initial"])?;
        Ok(())
    }

    /// The `tool_result` the model got for a scripted call; panics when the
    /// call never produced one (it was never made).
    pub fn result_of(&self, id: &str) -> Value {
        self.tool_result(id)
            .unwrap_or_else(|| panic!("no tool_result for {id}: the call was never answered"))
    }

    /// Text of the `tool_result` for `id`.
    pub fn content_of(&self, id: &str) -> String {
        self.result_of(id)["content"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// Asserts programmer-hook DENIED call `id` (a `deny`, not an `ask`) by
    /// `rule`: the model got `PreToolUse:<Tool> hook error: programmer-hook:
    /// Forbidden [<rule>] …`, and the run lists the call as denied.
    pub fn assert_denied(&self, run: &ClaudeRun, id: &str, rule: &str) {
        let r = self.result_of(id);
        let content = r["content"].as_str().unwrap_or_default();
        assert_eq!(r["is_error"], true, "{id}: {r}");
        let prefix = format!(
            "PreToolUse:{} hook error: programmer-hook: Forbidden [{rule}]",
            r["tool_name"].as_str().unwrap_or("")
        );
        assert!(
            content.starts_with(&prefix),
            "{id}: expected a denial starting with {prefix:?}, got {content:?}"
        );
        assert!(
            run.denied(id),
            "{id} not in permission_denials: {:?}",
            run.denials()
        );
    }

    /// Asserts programmer-hook ASKED about call `id` (Confirm, by `rule`),
    /// which `-p` turns into a denial: the model got the reason alone.
    pub fn assert_asked(&self, run: &ClaudeRun, id: &str, rule: &str) {
        let r = self.result_of(id);
        let content = r["content"].as_str().unwrap_or_default();
        assert_eq!(r["is_error"], true, "{id}: {r}");
        let prefix = format!("programmer-hook: Confirm [{rule}]");
        assert!(
            content.starts_with(&prefix),
            "{id}: expected an ask starting with {prefix:?}, got {content:?}"
        );
        // `-p` refuses an ask with only its reason: that says how to let the call through.
        assert!(
            content.contains("`claude -p` cannot ask, so it refuses this call: "),
            "{id}: the ask does not say how to let it through: {content:?}"
        );
        assert!(
            run.denied(id),
            "{id} not in permission_denials: {:?}",
            run.denials()
        );
    }

    /// Asserts call `id` ran (no error, not denied); returns its output.
    pub fn assert_ran(&self, run: &ClaudeRun, id: &str) -> String {
        let r = self.result_of(id);
        assert_eq!(r["is_error"], false, "{id} did not run cleanly: {r}");
        assert!(!run.denied(id), "{id} is in permission_denials");
        r["content"].as_str().unwrap_or_default().to_string()
    }

    /// What the tests of an install (the npm package's, the plugin's) put it through in
    /// the client: `COMMAND quick greet by name` (`/programmer`, or the plugin's
    /// `/programmer:programmer`) in a fresh repository, where `rm -rf ~` is denied, `git
    /// status` runs, `touch made.txt` is asked, and the reviewer the main thread starts
    /// (`reviewer`, the agent's name under this install) is refused its write;
    /// `reviewer_calls` are the reviewer's next calls, one a turn, before its verdict
    /// (changes requested). Returns the run and what `command -v programmer-hook` printed
    /// in it: the `programmer-hook` the agents run.
    pub fn quick_workflow(
        &self,
        command: &str,
        reviewer: &str,
        reviewer_calls: &[Value],
    ) -> Result<(ClaudeRun, String)> {
        const GREET: &str = "#!/bin/sh\necho hello\n";
        self.init_repo(&[("greet.sh", GREET)])?;
        let proj = self.project_path();
        let keep = self.home.path().join("keep/marker");
        fs::create_dir_all(keep.parent().context("parent")?)?;
        fs::write(&keep, "still here")?;
        let review = "## Review\nStatus: CHANGES_REQUESTED\n\n## Required changes\n- [minor] greet.sh: greet by name\n";
        let mut reviewer_turns = vec![turn(&[bash("rv_write", "echo reviewed >> greet.sh")])];
        reviewer_turns.extend(reviewer_calls.iter().map(|c| turn(std::slice::from_ref(c))));
        reviewer_turns.push(say(review));
        self.set_scenario(&json!({"threads": [
            {"name": "reviewer", "match": "E2E-INSTALL-REVIEWER", "turns": reviewer_turns},
            {"name": "main", "turns": [
                turn(&[bash("m_rm", "rm -rf ~")]),
                turn(&[bash("m_status", "git status")]),
                turn(&[bash("m_which", "command -v programmer-hook")]),
                turn(&[bash("m_touch", "touch made.txt")]),
                turn(&[spawn("m_review", reviewer, "E2E-INSTALL-REVIEWER")]),
                say("Phase: implement"),
            ]},
        ]}))?;
        let run = self.run_claude(&format!("{command} quick greet by name"), None)?;
        assert_eq!(run.result(), "Phase: implement", "{:#}", run.json);
        self.assert_denied(&run, "m_rm", "fs.rm-broad");
        assert!(keep.is_file(), "rm -rf ~ ran");
        let out = self.assert_ran(&run, "m_status");
        assert!(out.contains("On branch main"), "{out}");
        let which = self.assert_ran(&run, "m_which");
        self.assert_asked(&run, "m_touch", "fs.change");
        assert!(!proj.join("made.txt").exists());
        self.assert_ran(&run, "m_review");
        self.assert_denied(&run, "rv_write", "role.no-write");
        assert_eq!(fs::read_to_string(proj.join("greet.sh"))?, GREET);
        Ok((run, which))
    }
}

/// A scripted Bash call.
pub fn bash(id: &str, command: &str) -> Value {
    json!({"name": "Bash", "id": id, "input": {"command": command, "description": id}})
}

/// A scripted Write call.
pub fn write(id: &str, path: &str, content: &str) -> Value {
    json!({"name": "Write", "id": id, "input": {"file_path": path, "content": content}})
}

/// A scripted Edit call.
pub fn edit(id: &str, path: &str, old: &str, new: &str) -> Value {
    json!({"name": "Edit", "id": id, "input": {"file_path": path, "old_string": old, "new_string": new}})
}

/// A scripted Read call.
pub fn read(id: &str, path: &str) -> Value {
    json!({"name": "Read", "id": id, "input": {"file_path": path}})
}

/// A scripted foreground subagent: its prompt starts with `token`, which
/// must be the `match` of the subagent's thread.
pub fn spawn(id: &str, subagent_type: &str, token: &str) -> Value {
    json!({"name": "Agent", "id": id, "input": {
        "description": format!("{subagent_type} task"),
        "subagent_type": subagent_type,
        "prompt": format!("{token}: do your part of the scripted e2e workflow"),
        "run_in_background": false}})
}

/// One model turn making `calls` (in parallel when several).
pub fn turn(calls: &[Value]) -> Value {
    json!({"tool_uses": calls})
}

/// One model turn that ends with `text`.
pub fn say(text: &str) -> Value {
    json!({"text": text})
}

impl E2e {
    /// A path for a scripted turn's `"wait_for"`: the mock holds that turn's
    /// answer until the file exists.
    pub fn gate_path(&self, name: &str) -> PathBuf {
        self.work.path().join(format!("gate-{name}"))
    }

    /// Starts a thread that waits until the mock is about to play the turn
    /// holding tool call `id` (a turn with `"wait_for": gate_path(gate)`),
    /// runs `action`, and then opens the gate. Join it after the run: it
    /// returns whether the turn was seen.
    pub fn on_turn(
        &self,
        id: &str,
        gate: &str,
        action: impl FnOnce() + Send + 'static,
    ) -> std::thread::JoinHandle<bool> {
        let log = self.work.path().join("mock.jsonl");
        let gate = self.gate_path(gate);
        let id = tool_use_id(id);
        std::thread::spawn(move || {
            let start = Instant::now();
            let seen = loop {
                let found = read_jsonl(&log).iter().any(|e| {
                    e["type"] == "request"
                        && e["response"]["tool_uses"]
                            .as_array()
                            .is_some_and(|u| u.iter().any(|t| t["id"] == id.as_str()))
                });
                if found {
                    break true;
                }
                if start.elapsed() > RUN_TIMEOUT {
                    break false;
                }
                std::thread::sleep(Duration::from_millis(10));
            };
            if seen {
                action();
            }
            let _ = fs::write(&gate, b"go");
            seen
        })
    }
}

/// The client's own subcommands (`claude plugin …`) and the product run by a path, as the
/// user would in a terminal, for the plugin suite (`tests/e2e_plugin.rs`).
impl E2e {
    /// `claude ARGS` (not `-p`) with the scratch HOME and the client's environment, in the
    /// work folder; fails when the client exits non-zero. Returns stdout and stderr.
    pub fn claude_cli(&self, args: &[&str]) -> Result<String> {
        let out = Command::new(&self.client)
            .args(args)
            .current_dir(self.work.path())
            .env_clear()
            .envs(self.client_env())
            .stdin(Stdio::null())
            .output()
            .with_context(|| format!("starting claude {args:?}"))?;
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        if !out.status.success() {
            bail!("claude {args:?} failed ({}):\n{text}", out.status);
        }
        Ok(text)
    }

    /// Runs `program ARGS` as the user would in a terminal (scratch HOME, `PATH`).
    pub fn run_as_user(&self, program: &Path, args: &[&str]) -> Result<std::process::Output> {
        self.user_command(program)
            .args(args)
            .output()
            .with_context(|| format!("running {}", program.display()))
    }
}
