//! The confinement profiles, applied for real by `programmer-hook confine` in a scratch
//! home and project: one line a case, each checked by what the command could do to the
//! files; and a property: every Safe example of the policy, run confined in `read`,
//! leaves the scratch home and project as they were.
//!
//! Needs Landlock (Linux 6.2 or newer); elsewhere each test prints a SKIPPED line, and
//! fails under `$CI` on Linux.

mod support;

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use support::skip::{fail_under_ci, skipped};

struct Scratch {
    _dir: tempfile::TempDir,
    home: PathBuf,
    proj: PathBuf,
    tmp: PathBuf,
}

fn scratch() -> Scratch {
    // Not under /tmp, which a `project` call may write whole.
    let dir =
        tempfile::TempDir::with_prefix_in("confine-", env!("CARGO_TARGET_TMPDIR")).expect("temp");
    let root = dir.path().canonicalize().expect("canonical");
    let home = root.join("home");
    let proj = home.join("proj");
    let tmp = root.join("tmp");
    for d in [
        &home.join(".ssh"),
        &proj.join(".git/hooks"),
        &proj.join("src"),
        &tmp,
    ] {
        fs::create_dir_all(d).expect("mkdir");
    }
    fs::write(home.join(".ssh/id_rsa"), "KEY-MATERIAL\n").unwrap();
    fs::write(home.join(".bashrc"), "# mine\n").unwrap();
    fs::write(proj.join("a.txt"), "hello\n").unwrap();
    fs::write(proj.join(".env"), "TOKEN=ENV-MATERIAL\n").unwrap();
    fs::write(proj.join(".git/config"), "[core]\n").unwrap();
    fs::write(proj.join("src/main.rs"), "fn main() {}\n").unwrap();
    Scratch {
        _dir: dir,
        home,
        proj,
        tmp,
    }
}

fn confine(s: &Scratch, profile: &str, cmd: &str) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_programmer-hook"))
        .args(["confine", profile, "--project"])
        .arg(&s.proj)
        .args(["--", cmd])
        .current_dir(&s.proj)
        .env("HOME", &s.home)
        .env("TMPDIR", &s.tmp)
        .env_remove("CLAUDE_PROJECT_DIR")
        .env("PROGRAMMER_HOOK_TEST_MANAGED_DIR", s.tmp.join("managed"))
        .output()
        .expect("runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap_or(-1), text)
}

fn unavailable() -> bool {
    if let Err(why) = programmer_hook::confine::available() {
        let msg = format!("confinement cannot be tested here: {why}");
        if cfg!(target_os = "linux") {
            fail_under_ci(&msg);
        }
        skipped(&format!("confine: {msg}"), None);
        return true;
    }
    false
}

/// (profile, command, exits 0?, text the output must hold, file that must then hold
/// this text ("" for absent)).
const CASES: &[(&str, &str, bool, &str, &str, &str)] = &[
    ("read", "cat a.txt", true, "hello", "a.txt", "hello\n"),
    (
        "read",
        "echo x > new.txt",
        false,
        "Permission denied",
        "new.txt",
        "",
    ),
    (
        "read",
        "echo x >> a.txt",
        false,
        "Permission denied",
        "a.txt",
        "hello\n",
    ),
    ("read", "rm a.txt", false, "", "a.txt", "hello\n"),
    ("read", "mkdir d", false, "", "d", ""),
    (
        "read",
        "cat ~/.ssh/id_rsa",
        false,
        "Permission denied",
        "",
        "",
    ),
    ("read", "cat .env", false, "Permission denied", "", ""),
    (
        "read",
        "echo x >> ~/.bashrc",
        false,
        "",
        "../.bashrc",
        "# mine\n",
    ),
    ("read", "echo x > /dev/null && echo ok", true, "ok", "", ""),
    ("read", "ls ~/.ssh", true, "id_rsa", "", ""),
    ("read", "cd src && pwd", true, "/src", "", ""),
    ("read", "exit 7", false, "", "", ""),
    (
        "read",
        "echo x > \"$TMPDIR/t\" && cat \"$TMPDIR/t\"",
        true,
        "x",
        "",
        "",
    ),
    ("project", "echo x > new.txt", true, "", "new.txt", "x\n"),
    ("project", "rm a.txt", true, "", "a.txt", ""),
    ("project", "cat .env", true, "ENV-MATERIAL", "", ""),
    (
        "project",
        "cat ~/.ssh/id_rsa",
        false,
        "Permission denied",
        "",
        "",
    ),
    (
        "project",
        "echo x >> ~/.bashrc",
        false,
        "",
        "../.bashrc",
        "# mine\n",
    ),
    ("project", "echo x > ~/planted", false, "", "../planted", ""),
    (
        "project",
        "echo '[core] fsmonitor = x' >> .git/config",
        true,
        "put back",
        ".git/config",
        "[core]\n",
    ),
    (
        "project",
        "echo evil > .git/hooks/pre-commit",
        true,
        "moved to",
        ".git/hooks/pre-commit",
        "",
    ),
    (
        "project",
        "echo evil > .envrc",
        true,
        "moved to",
        ".envrc",
        "",
    ),
    (
        "project",
        "mkdir -p .claude/hooks && echo x > .claude/hooks/h.sh",
        true,
        "moved to",
        ".claude/hooks/h.sh",
        "",
    ),
    (
        "project",
        "echo x > \"$TMPDIR/t\" && cat \"$TMPDIR/t\"",
        true,
        "x",
        "",
        "",
    ),
];

#[test]
fn each_profile_allows_and_refuses_what_it_says() {
    if unavailable() {
        return;
    }
    for &(profile, cmd, ok, says, file, holds) in CASES {
        let s = scratch();
        let (code, out) = confine(&s, profile, cmd);
        assert_eq!(code == 0, ok, "{profile}: `{cmd}` exited {code}:\n{out}");
        assert!(
            out.contains(says),
            "{profile}: `{cmd}` did not say {says:?}:\n{out}"
        );
        if !file.is_empty() {
            let got = fs::read_to_string(s.proj.join(file)).unwrap_or_default();
            assert_eq!(got, holds, "{profile}: `{cmd}` left {file}:\n{out}");
        }
    }
}

#[test]
fn a_failure_after_a_refusal_ends_with_one_line_saying_so() {
    if unavailable() {
        return;
    }
    let s = scratch();
    let (code, out) = confine(&s, "read", "echo x > new.txt");
    assert_ne!(code, 0);
    let last = out.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("programmer-hook: this command ran confined (profile read")
            && last.contains("dangerouslyDisableSandbox"),
        "{out}"
    );
    // A failure without a refusal says nothing of the confinement.
    let (code, out) = confine(&s, "read", "echo failing >&2; exit 3");
    assert_eq!(code, 3);
    assert!(!out.contains("ran confined"), "{out}");
}

#[test]
fn an_unknown_profile_is_a_usage_error_and_runs_nothing() {
    let s = scratch();
    let (code, out) = confine(&s, "everything", "echo x > new.txt");
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("use `read` or `project`"), "{out}");
    assert!(!s.proj.join("new.txt").exists());
}

/// Every file under a folder, with its content.
fn tree(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            match e.file_type() {
                Ok(t) if t.is_dir() => stack.push(p),
                Ok(_) => {
                    out.insert(p.clone(), fs::read(&p).unwrap_or_default());
                }
                Err(_) => {}
            }
        }
    }
    out
}

#[test]
fn every_safe_example_run_confined_changes_nothing_in_home_or_project() {
    if unavailable() {
        return;
    }
    let mut examples: Vec<String> = Vec::new();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("policy");
    for e in fs::read_dir(&dir).expect("policy/").flatten() {
        if e.path().extension().is_none_or(|x| x != "toml") {
            continue;
        }
        let v: toml::Value = toml::from_str(&fs::read_to_string(e.path()).unwrap()).unwrap();
        for r in v
            .get("rule")
            .and_then(|r| r.as_array())
            .into_iter()
            .flatten()
        {
            if r.get("tier").and_then(|t| t.as_str()) != Some("safe") {
                continue;
            }
            for m in r
                .get("match")
                .and_then(|m| m.as_array())
                .into_iter()
                .flatten()
            {
                examples.extend(m.as_str().map(str::to_string));
            }
        }
    }
    assert!(
        examples.len() > 200,
        "only {} Safe examples",
        examples.len()
    );
    let s = scratch();
    let before = tree(&s.home);
    // A fixed sample (every fourth), each bounded in time.
    for cmd in examples.iter().step_by(4) {
        let wrapped = format!("timeout 2 bash -c {} </dev/null", shell_quote(cmd));
        let _ = confine(&s, "read", &wrapped);
        let after = tree(&s.home);
        assert_eq!(before, after, "`{cmd}` changed the scratch home or project");
    }
}

fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

#[test]
fn where_confinement_cannot_be_set_up_the_command_does_not_run() {
    let s = scratch();
    let out = Command::new(env!("CARGO_BIN_EXE_programmer-hook"))
        .args(["confine", "read", "--", "echo x > new.txt"])
        .current_dir(&s.proj)
        .env("HOME", &s.home)
        .env("PROGRAMMER_HOOK_TEST_NO_CONFINE", "1")
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(126));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("the command did not run"), "{err}");
    assert!(!s.proj.join("new.txt").exists());
}

#[test]
fn stopping_the_runner_stops_what_the_command_started() {
    if unavailable() {
        return;
    }
    let s = scratch();
    let marker = format!("confine-stop-{}", std::process::id());
    let mut child = Command::new(env!("CARGO_BIN_EXE_programmer-hook"))
        .args(["confine", "read", "--"])
        .arg(format!("sleep 300 & echo started; wait # {marker}"))
        .current_dir(&s.proj)
        .env("HOME", &s.home)
        .env("TMPDIR", &s.tmp)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("runs");
    use std::io::Read;
    let mut first = [0u8; 8];
    child
        .stdout
        .as_mut()
        .expect("stdout")
        .read_exact(&mut first)
        .expect("the command started");
    // SAFETY: sends SIGTERM to our own child.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGTERM) };
    let status = child.wait().expect("waits");
    assert_eq!(status.code(), Some(128 + libc::SIGTERM), "{status:?}");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let left = Command::new("pgrep")
        .args(["-f", &marker])
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    assert!(left.is_empty(), "processes left running: {left}");
}
