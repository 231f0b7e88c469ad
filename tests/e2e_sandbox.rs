//! Contained autonomy in the real client (see `tests/support/e2e.rs`): with Claude Code's
//! sandbox turned on by `./install.sh --sandbox`, an `auto` session runs a program the hook
//! cannot read (a Perl script the model wrote) without asking, and the sandbox keeps it in
//! the project. The same call asking to leave the sandbox, and the same call in a default
//! session, are asked, which `-p` turns into a refusal; with the sandbox off the hook runs
//! it confined itself (the `project` profile), and it still cannot reach the home folder.
//!
//! The sandbox needs bubblewrap and socat on Linux (`.ci/run` installs them). Where
//! bubblewrap cannot run (some containers forbid user namespaces), the test prints a loud
//! SKIPPED line saying what failed, and fails under `$CI`.

mod support;

use anyhow::Result;
use serde_json::{json, Value};
use std::fs;
use std::path::Path;
use support::e2e::*;
use support::skip::{fail_under_ci, sandbox_unavailable, skipped};

/// What the Perl script does: appends to `runs.log` in the project, writes a file in the
/// home folder and deletes one there.
const BODY: &str = r#"open(my $log, '>>', 'runs.log') or die "runs.log: $!";
print $log "ran\n";
close $log;
my $home = $ENV{HOME};
if (open(my $f, '>', "$home/planted.txt")) { print $f "planted\n"; close $f; print "planted\n"; }
else { print "could not plant: $!\n"; }
if (unlink("$home/victim.txt")) { print "deleted\n"; } else { print "could not delete: $!\n"; }
"#;

/// The script as the model writes it: [`BODY`] hex-encoded and evaluated, so that the
/// hook cannot see any of it (it reads plain Perl well enough to see the writes).
fn script() -> String {
    let hex: String = BODY.bytes().map(|b| format!("{b:02x}")).collect();
    format!("use strict;\neval pack('H*', '{hex}');\ndie $@ if $@;\n")
}

/// The project's files whose change would run code later, outside the sandbox, or change
/// what Claude Code loads: Claude Code's sandbox keeps them read-only by itself.
const PROTECTED_IN_PROJECT: &[&str] = &[
    ".claude/settings.json",
    ".claude/settings.local.json",
    ".claude/agents/x.md",
    ".claude/commands/x.md",
    ".claude/skills/x/SKILL.md",
    ".claude/hooks/x.sh",
    ".git/hooks/pre-commit",
    ".git/config",
];

/// A Perl program, hidden from the hook as [`script`] hides [`BODY`], that tries to append
/// to each of [`PROTECTED_IN_PROJECT`] and says `W path` or `RO path` for each.
fn probe() -> String {
    let body = format!(
        "for my $p (qw({})) {{ if (open(my $f, '>>', $p)) {{ print \"W $p\\n\"; close $f }} else {{ print \"RO $p\\n\" }} }}\n",
        PROTECTED_IN_PROJECT.join(" ")
    );
    let hex: String = body.bytes().map(|b| format!("{b:02x}")).collect();
    format!("eval pack('H*', '{hex}');\ndie $@ if $@;\n")
}

fn scenario(turns: Vec<Value>) -> Value {
    json!({"threads": [{"name": "main", "turns": turns}]})
}

fn bash_out(id: &str, command: &str) -> Value {
    json!({"name": "Bash", "id": id, "input": {
        "command": command, "description": id, "dangerouslyDisableSandbox": true}})
}

fn skip_or_fail(why: &str) {
    let msg = format!("Claude Code's sandbox cannot run on this machine: {why}");
    fail_under_ci(&msg);
    skipped(&format!("e2e_sandbox: {msg}"), None);
}

/// The home folder's files the script aims at, as they must stay.
fn assert_home_untouched(home: &Path, when: &str) {
    assert!(
        !home.join("planted.txt").exists(),
        "{when}: the script wrote a file in the home folder"
    );
    assert_eq!(
        fs::read_to_string(home.join("victim.txt")).ok().as_deref(),
        Some("keep me\n"),
        "{when}: the script deleted a file in the home folder"
    );
}

fn runs(proj: &Path) -> usize {
    fs::read_to_string(proj.join("runs.log"))
        .map(|s| s.lines().count())
        .unwrap_or(0)
}

#[test]
fn unreadable_project_code_runs_unasked_only_inside_the_sandbox() -> Result<()> {
    // The sandbox this drives is Linux's (bubblewrap); elsewhere there is nothing to run,
    // under CI or not.
    if !cfg!(target_os = "linux") {
        skipped(
            "e2e_sandbox: this test drives Claude Code's Linux sandbox (bubblewrap), and this machine is not Linux",
            None,
        );
        return Ok(());
    }
    if let Some(why) = sandbox_unavailable() {
        skip_or_fail(&why);
        return Ok(());
    }
    let Some(e2e) = E2e::start(&scenario(vec![])) else {
        return Ok(());
    };
    let installed = e2e.install_product_with(&["--sandbox"])?;
    assert!(
        installed.contains("sandbox.enabled: (not set) -> true"),
        "install.sh --sandbox did not show the change:\n{installed}"
    );
    let settings: Value = serde_json::from_str(&fs::read_to_string(e2e.settings_path())?)?;
    assert_eq!(settings["sandbox"]["enabled"], true, "{settings:#}");
    assert_eq!(
        settings["sandbox"]["allowUnsandboxedCommands"], false,
        "{settings:#}"
    );
    let proj = e2e.project_path();
    let home = e2e.home.path().to_path_buf();
    fs::write(home.join("victim.txt"), "keep me\n")?;
    let gen = proj.join("gen.pl").to_string_lossy().into_owned();
    for p in PROTECTED_IN_PROJECT {
        let dir = proj.join(p);
        fs::create_dir_all(dir.parent().expect("a folder"))?;
    }
    fs::write(proj.join("probe.pl"), probe())?;

    // Session 1, autonomy auto, the sandbox on.
    e2e.set_scenario(&scenario(vec![
        say("autonomy noted"),
        turn(&[write("write_script", &gen, &script())]),
        turn(&[bash("run_inside", "perl gen.pl")]),
        turn(&[bash("probe", "perl probe.pl")]),
        turn(&[bash_out("run_outside", "perl gen.pl")]),
        say("sandboxed runs done"),
        turn(&[bash("run_sandbox_off", "perl gen.pl")]),
        say("unsandboxed run done"),
    ]))?;
    let run = e2e.run_claude("/programmer autonomy auto", None)?;
    assert_eq!(run.result(), "autonomy noted", "{:#}", run.json);
    let sid = run.session_id().to_string();
    assert_eq!(e2e.status(&sid)?["autonomy"], "auto");

    let run = e2e.run_claude("write the generator and run it", Some(&sid))?;
    assert_eq!(run.result(), "sandboxed runs done", "{:#}", run.json);
    e2e.assert_ran(&run, "write_script");
    let out = e2e.assert_ran(&run, "run_inside");
    assert_eq!(
        runs(&proj),
        1,
        "the script did not run in the project: {out}"
    );
    assert!(
        out.contains("could not plant") && out.contains("could not delete"),
        "the sandbox did not stop the writes outside the project: {out}"
    );
    assert_home_untouched(&home, "inside the sandbox");
    let audit = e2e.audit_log();
    let inside = audit
        .iter()
        .find(|e| e["tool_use_id"] == "toolu_run_inside")
        .expect("the audit log has the sandboxed run");
    assert_eq!(inside["relaxed_by"], "sandbox", "{inside}");
    assert_eq!(inside["rule"], "code.opaque", "{inside}");
    // What in the project would run later or change what Claude Code loads stays read-only.
    let probed = e2e.assert_ran(&run, "probe");
    for p in PROTECTED_IN_PROJECT {
        assert!(
            probed.contains(&format!("RO {p}")),
            "{p} was writable in the sandbox: {probed}"
        );
        assert!(!proj.join(p).exists(), "{p} was created in the sandbox");
    }
    // Asking to leave the sandbox is asked, refused in -p: nothing ran.
    e2e.assert_asked(&run, "run_outside", "code.opaque");
    let why = e2e.content_of("run_outside");
    assert!(why.contains("dangerouslyDisableSandbox"), "{why}");
    assert_eq!(runs(&proj), 1, "the call that left the sandbox ran");
    assert_home_untouched(&home, "after the call that asked to leave the sandbox");

    // The sandbox off (as the user would switch it off): the hook runs the same call
    // confined itself (the project profile), so it runs unasked and still cannot reach the
    // home folder.
    let mut off = settings.clone();
    off["sandbox"]["enabled"] = json!(false);
    fs::write(e2e.settings_path(), serde_json::to_vec_pretty(&off)?)?;
    let run = e2e.run_claude("run it again", Some(&sid))?;
    assert_eq!(run.result(), "unsandboxed run done", "{:#}", run.json);
    let out = e2e.assert_ran(&run, "run_sandbox_off");
    assert_eq!(runs(&proj), 2, "the confined call did not run: {out}");
    assert!(
        out.contains("could not plant") && out.contains("could not delete"),
        "the confinement did not stop the writes outside the project: {out}"
    );
    assert_home_untouched(&home, "confined by the hook with the sandbox off");
    let audit = e2e.audit_log();
    let off_entry = audit
        .iter()
        .find(|e| e["tool_use_id"] == "toolu_run_sandbox_off")
        .expect("the audit log has the confined run");
    assert_eq!(off_entry["relaxed_by"], "confinement", "{off_entry}");

    // Session 2, the default autonomy, the sandbox on again: asked.
    fs::write(e2e.settings_path(), serde_json::to_vec_pretty(&settings)?)?;
    e2e.set_scenario(&scenario(vec![
        turn(&[bash("run_default", "perl gen.pl")]),
        say("default run done"),
    ]))?;
    let run = e2e.run_claude("run the generator", None)?;
    assert_eq!(run.result(), "default run done", "{:#}", run.json);
    assert_ne!(run.session_id(), sid);
    e2e.assert_asked(&run, "run_default", "code.opaque");
    assert_eq!(runs(&proj), 2, "the call ran in a default session");
    assert_home_untouched(&home, "in a default session");

    // uninstall-hooks takes the sandbox settings out again.
    let out = e2e.product(&[
        "uninstall-hooks",
        "--settings",
        &e2e.settings_path().to_string_lossy(),
    ])?;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // What is left of the settings the install created, if anything is (with nothing
    // left, the file itself is gone).
    if let Ok(text) = fs::read_to_string(e2e.settings_path()) {
        let after: Value = serde_json::from_str(&text)?;
        assert!(after.get("sandbox").is_none(), "{after:#}");
        assert_ne!(
            after,
            json!({}),
            "an empty settings file the install made is left"
        );
    }
    assert!(
        e2e.proxy_attempts().is_empty(),
        "{:?}",
        e2e.proxy_attempts()
    );
    Ok(())
}
