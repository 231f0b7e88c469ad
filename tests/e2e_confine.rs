//! Confinement in the real client (see `tests/support/e2e.rs`), without Claude Code's
//! sandbox: the hook rewrites the calls it allows on a prediction so that they run
//! confined (`programmer-hook confine`).
//!
//! - A default session: a test listing whose `conftest.py` tries to append to
//!   `~/.bashrc` and print `~/.ssh/id_rsa` runs unasked; `~/.bashrc` is unchanged and the
//!   key never reaches the model. A `cd` in a confined call holds for the next call.
//! - An `auto` session: a test run whose `conftest.py` writes in the project, deletes a
//!   tracked project file and deletes a file in the home folder runs unasked; the project
//!   write happens, the home file is intact, the failing test still reports failure, and
//!   `programmer-hook undo` brings the project file back.
//!
//! Needs Landlock (Linux 6.2 or newer) and pytest (`.ci/run` installs it); where either is
//! missing the test prints a loud SKIPPED line, and fails under `$CI`.

mod support;

use anyhow::Result;
use serde_json::{json, Value};
use std::fs;
use std::process::Command;
use support::e2e::*;
use support::skip::{fail_under_ci, skipped};

const KEY: &str = "-----BEGIN OPENSSH PRIVATE KEY-----\nsecret-key-material-4242\n";

const LISTING_CONFTEST: &str = r#"import os
home = os.path.expanduser("~")
try:
    with open(os.path.join(home, ".bashrc"), "a") as f:
        f.write("echo pwned\n")
    print("WROTE-BASHRC")
except OSError as e:
    print("could not write bashrc:", e)
try:
    with open(os.path.join(home, ".ssh", "id_rsa")) as f:
        print("KEY:", f.read())
except OSError as e:
    print("could not read key:", e)
"#;

const RUN_CONFTEST: &str = r#"import os
with open("made.txt", "w") as f:
    f.write("made\n")
os.remove("tracked.txt")
try:
    os.remove(os.path.join(os.path.expanduser("~"), "victim.txt"))
    print("DELETED-VICTIM")
except OSError as e:
    print("could not delete victim:", e)
"#;

fn scenario(turns: Vec<Value>) -> Value {
    json!({"threads": [{"name": "main", "turns": turns}]})
}

fn unavailable() -> Option<String> {
    if !cfg!(target_os = "linux") {
        return Some("confinement is built on Linux's Landlock".into());
    }
    if let Err(why) = programmer_hook::confine::available() {
        return Some(why);
    }
    let pytest = Command::new("python3")
        .args(["-m", "pytest", "--version"])
        .output()
        .is_ok_and(|o| o.status.success());
    (!pytest).then(|| "pytest is not installed (python3 -m pip install pytest)".into())
}

fn git(dir: &std::path::Path, args: &[&str]) {
    let ok = Command::new("git")
        .args([
            "-c",
            "user.name=t",
            "-c",
            "user.email=t@t",
            "-c",
            "commit.gpgsign=false",
        ])
        .args(args)
        .current_dir(dir)
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(ok, "git {args:?}");
}

#[test]
fn calls_allowed_on_a_prediction_run_confined_in_the_real_client() -> Result<()> {
    if let Some(why) = unavailable() {
        let msg = format!("confinement cannot be tested here: {why}");
        fail_under_ci(&msg);
        skipped(&format!("e2e_confine: {msg}"), None);
        return Ok(());
    }
    let Some(e2e) = E2e::start(&scenario(vec![])) else {
        return Ok(());
    };
    e2e.install_product()?;
    let proj = e2e.project_path();
    let home = e2e.home.path().to_path_buf();
    fs::create_dir_all(home.join(".ssh"))?;
    fs::write(home.join(".ssh/id_rsa"), KEY)?;
    fs::write(home.join(".bashrc"), "# mine\n")?;
    fs::write(home.join("victim.txt"), "keep me\n")?;
    fs::create_dir_all(proj.join("sub"))?;
    fs::write(proj.join("sub/keep.txt"), "x\n")?;
    fs::write(proj.join("tracked.txt"), "tracked\n")?;
    fs::write(
        proj.join("test_x.py"),
        "def test_fails():\n    assert False\n",
    )?;
    fs::write(proj.join("conftest.py"), LISTING_CONFTEST)?;
    git(&proj, &["init", "-q"]);
    git(&proj, &["add", "-A"]);
    git(&proj, &["commit", "-q", "-m", "start"]);

    // A default session: the listing runs unasked, confined in the read profile.
    e2e.set_scenario(&scenario(vec![
        turn(&[bash(
            "list",
            "python3 -m pytest --collect-only -q -s -p no:cacheprovider",
        )]),
        turn(&[bash("cd_sub", "cd sub && git status --short")]),
        turn(&[bash("where", "pwd")]),
        say("listed"),
    ]))?;
    let run = e2e.run_claude("list the tests", None)?;
    assert_eq!(run.result(), "listed", "{:#}", run.json);
    let listed = e2e.assert_ran(&run, "list");
    assert!(
        listed.contains("test_x.py"),
        "the listing did not list: {listed}"
    );
    assert!(listed.contains("could not write bashrc"), "{listed}");
    assert!(listed.contains("could not read key"), "{listed}");
    assert_eq!(fs::read_to_string(home.join(".bashrc"))?, "# mine\n");
    let bodies = serde_json::to_string(&e2e.server_log())?;
    assert!(
        !bodies.contains("secret-key-material"),
        "the key reached the model"
    );
    let audit = e2e.audit_log();
    let entry = audit
        .iter()
        .find(|e| e["tool_use_id"] == "toolu_list")
        .expect("the listing is in the audit log");
    assert_eq!(entry["relaxed_by"], "confinement", "{entry}");
    assert_eq!(entry["confined"], "read", "{entry}");
    e2e.assert_ran(&run, "cd_sub");
    let whereami = e2e.assert_ran(&run, "where");
    assert!(
        whereami.trim_end().ends_with("/sub"),
        "the cd did not hold: {whereami}"
    );

    // An `auto` session: the test run runs unasked, confined in the project profile.
    fs::write(proj.join("conftest.py"), RUN_CONFTEST)?;
    e2e.set_scenario(&scenario(vec![
        say("autonomy noted"),
        turn(&[bash("test", "python3 -m pytest -q -s -p no:cacheprovider")]),
        say("tested"),
    ]))?;
    let run = e2e.run_claude("/programmer autonomy auto", None)?;
    assert_eq!(run.result(), "autonomy noted", "{:#}", run.json);
    let sid = run.session_id().to_string();
    let run = e2e.run_claude("run the tests", Some(&sid))?;
    assert_eq!(run.result(), "tested", "{:#}", run.json);
    assert!(
        !run.denied("toolu_test"),
        "the test run was not let through"
    );
    let r = e2e.result_of("test");
    assert_eq!(r["is_error"], true, "the failing test did not fail: {r}");
    let out = r["content"].as_str().unwrap_or_default();
    assert!(out.contains("1 failed"), "{out}");
    assert!(out.contains("could not delete victim"), "{out}");
    assert_eq!(fs::read_to_string(proj.join("made.txt"))?, "made\n");
    assert!(
        !proj.join("tracked.txt").exists(),
        "the project delete did not happen"
    );
    assert_eq!(fs::read_to_string(home.join("victim.txt"))?, "keep me\n");
    let audit = e2e.audit_log();
    let entry = audit
        .iter()
        .find(|e| e["tool_use_id"] == "toolu_test")
        .expect("the test run is in the audit log");
    assert_eq!(entry["confined"], "project", "{entry}");

    let undo = e2e.product(&["undo", "--session", &sid])?;
    assert!(
        undo.status.success(),
        "undo failed: {}{}",
        String::from_utf8_lossy(&undo.stdout),
        String::from_utf8_lossy(&undo.stderr)
    );
    assert_eq!(fs::read_to_string(proj.join("tracked.txt"))?, "tracked\n");
    assert!(
        !proj.join("made.txt").exists(),
        "undo left the created file"
    );
    Ok(())
}
