//! programmer-hook as a Claude Code plugin, in the real client: the marketplace that
//! `scripts/package-plugin.sh` writes is checked with `claude plugin validate --strict` (and
//! `--profile directory`, the plugin directory's checks) and
//! installed into a scratch HOME with `claude plugin marketplace add` and `claude plugin
//! install` (no install.sh, no settings.json entries of ours, nothing in `~/.local/bin`).
//! Then, with a scripted model: the tiers, a reviewer's write refused under the plugin's
//! agent name `programmer:code-reviewer`, a workflow started with `/programmer:programmer`,
//! `doctor` on the install, every call blocked once the plugin has no binary for the
//! machine, and an uninstall that keeps the state.

mod support;

use anyhow::{Context, Result};
use programmer_hook::setup::plugin::platform;
use serde_json::{json, Value};
use std::fs;
use std::path::{Path, PathBuf};
use support::e2e::*;
use support::launcher::is_native;
use support::skip::{fail_under_ci, sandbox_unavailable, skipped};

const MARKETPLACE: &str = "programmer-hook";
const PLUGIN_ID: &str = "programmer@programmer-hook";

/// `scripts/package-plugin.sh --binary <the built binary> DIR`.
fn package(e2e: &E2e) -> Result<PathBuf> {
    let dir = e2e.work.path().join("marketplace");
    let out = std::process::Command::new("bash")
        .arg(repo().join("scripts/package-plugin.sh"))
        .arg("--binary")
        .arg(built_binary())
        .arg(&dir)
        .output()
        .context("running package-plugin.sh")?;
    assert!(
        out.status.success(),
        "package-plugin.sh failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(dir)
}

/// Where Claude Code recorded the install (`installed_plugins.json`).
fn install_path(e2e: &E2e) -> Result<PathBuf> {
    let record: Value = serde_json::from_str(&fs::read_to_string(
        e2e.home
            .path()
            .join(".claude/plugins/installed_plugins.json"),
    )?)?;
    let entry = &record["plugins"][PLUGIN_ID][0];
    assert_eq!(entry["scope"], "user", "{record:#}");
    Ok(PathBuf::from(
        entry["installPath"].as_str().context("no installPath")?,
    ))
}

fn status(e2e: &E2e, launcher: &Path, session: &str) -> Result<Value> {
    let out = e2e.run_as_user(launcher, &["status", "--json", "--session", session])?;
    assert!(
        out.status.success(),
        "status: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(serde_json::from_slice(&out.stdout)?)
}

/// Puts the repository's launcher back in each plugin folder, in place of the binary the
/// launcher put there on its first run.
fn reset_launchers(roots: &[PathBuf]) -> Result<()> {
    for root in roots {
        let tmp = root.join("bin/.launcher.tmp");
        fs::copy(repo().join("bin/programmer-hook"), &tmp)?;
        fs::rename(&tmp, root.join("bin/programmer-hook"))?;
    }
    Ok(())
}

/// Moves this platform's binary out of each plugin folder (to `away/N`), or back.
fn move_binaries(roots: &[PathBuf], away: &Path, back_as: Option<&str>) -> Result<()> {
    for (n, root) in roots.iter().enumerate() {
        let parked = away.join(n.to_string());
        match back_as {
            None => {
                fs::create_dir_all(away)?;
                fs::rename(root.join("bin").join(platform()), &parked)?;
            }
            Some(name) => fs::rename(&parked, root.join("bin").join(name))?,
        }
    }
    Ok(())
}

#[test]
fn plugin_from_the_packaged_marketplace() -> Result<()> {
    let Some(e2e) = E2e::start(&json!({"threads": []})) else {
        return Ok(());
    };
    let market = package(&e2e)?;
    // The client's own checks of the marketplace and its plugin, and of the repository.
    for dir in [&market, &repo()] {
        let out = e2e.claude_cli(&["plugin", "validate", "--strict", &dir.to_string_lossy()])?;
        assert!(
            out.contains("Validation passed"),
            "{}: {out}",
            dir.display()
        );
        for part in [
            "agents: programmer:code-reviewer",
            "commands: programmer:programmer",
            "skills: programmer:programmer-add-project",
        ] {
            assert!(out.contains(part), "{part}: {out}");
        }
        // What the plugin directory would refuse a submission for (a missing README, …):
        // nothing (claude_cli fails on a non-zero exit).
        let out = e2e.claude_cli(&[
            "plugin",
            "validate",
            "--profile",
            "directory",
            &dir.to_string_lossy(),
        ])?;
        assert!(!out.contains("README_MISSING"), "{}: {out}", dir.display());
    }

    // The two commands of the README, from the packaged folder.
    let added = e2e.claude_cli(&["plugin", "marketplace", "add", &market.to_string_lossy()])?;
    assert!(
        added.contains(&format!("Successfully added marketplace: {MARKETPLACE}")),
        "{added}"
    );
    let installed = e2e.claude_cli(&["plugin", "install", PLUGIN_ID])?;
    assert!(
        installed.contains(&format!("Successfully installed plugin: {PLUGIN_ID}")),
        "{installed}"
    );
    let cache = install_path(&e2e)?;
    assert!(
        cache.ends_with(format!(
            "plugins/cache/programmer-hook/programmer/{}",
            env!("CARGO_PKG_VERSION")
        )),
        "{}",
        cache.display()
    );
    let settings: Value = serde_json::from_str(&fs::read_to_string(e2e.settings_path())?)?;
    assert_eq!(settings["enabledPlugins"][PLUGIN_ID], true, "{settings:#}");
    assert!(settings.get("hooks").is_none(), "no hook entries of ours");
    assert!(!e2e.hook_bin().exists(), "nothing in ~/.local/bin");
    let launcher = market.join("bin/programmer-hook");

    // Run 1: the plugin's command starts a workflow; the tiers and the reviewer's role hold.
    let (run, which) = e2e.quick_workflow(
        "/programmer:programmer",
        "programmer:code-reviewer",
        &[bash("rv_diff", "git diff")],
    )?;
    let sid = run.session_id().to_string();
    let proj = e2e.project_path();
    // The plugin's bin/ is on the agents' PATH: `programmer-hook` is its launcher.
    assert!(
        which.trim().ends_with("/bin/programmer-hook")
            && (which.contains(&*market.to_string_lossy())
                || which.contains(&*cache.to_string_lossy())),
        "{which}"
    );
    let why = e2e.content_of("rv_write");
    assert!(why.contains("role code-reviewer"), "{why}");
    e2e.assert_ran(&run, "rv_diff");
    // The launcher the client ran (the one on the agents' PATH) put the binary in its own
    // place on its first run: no shell per call after it.
    assert!(
        is_native(Path::new(which.trim())),
        "the plugin's command is the binary itself after its first run: {which}"
    );
    // The workflow: started in implement by the plugin's command, moved to review by the
    // spawn of `programmer:code-reviewer`, and back by that reviewer's verdict.
    let st = status(&e2e, &launcher, &sid)?;
    assert_eq!(st["request"], "greet by name", "{st}");
    assert_eq!(st["phase"], "implement", "{st}");
    assert_eq!(st["round"], 1, "{st}");
    assert_eq!(st["last_verdict"], "CHANGES_REQUESTED", "{st}");
    let denial = e2e
        .audit_log()
        .into_iter()
        .find(|d| d["rule"] == "role.no-write")
        .context("the reviewer's denial is in the audit log")?;
    assert_eq!(denial["agent"], "programmer:code-reviewer", "{denial}");
    // The state is in the state dir every install uses, not in the plugin's folders.
    let session_file = e2e.state_dir().join(format!("sessions/{sid}.json"));
    assert!(session_file.is_file(), "{}", session_file.display());
    for dir in [
        market.clone(),
        cache.clone(),
        e2e.home.path().join(".claude/plugins"),
    ] {
        let found = find_named(&dir, &format!("{sid}.json"));
        assert!(
            found.is_empty(),
            "session state in the plugin's folders: {found:?}"
        );
    }

    // doctor, run from the plugin, recognises the install the client recorded.
    let out = e2e.run_as_user(&launcher, &["doctor", "--json"])?;
    let report: Value = serde_json::from_slice(&out.stdout)?;
    assert_eq!(out.status.code(), Some(0), "{report:#}");
    let plugin = report["checks"]
        .as_array()
        .context("checks")?
        .iter()
        .find(|c| c["check"] == "plugin")
        .context("the plugin check")?
        .clone();
    let detail = plugin["detail"].as_str().unwrap_or_default();
    assert!(
        detail.contains(PLUGIN_ID) && detail.contains("enabled"),
        "{detail}"
    );
    let on_path = report["checks"]
        .as_array()
        .context("checks")?
        .iter()
        .find(|c| c["check"] == "binary on PATH")
        .context("the PATH check")?
        .clone();
    let detail = on_path["detail"].as_str().unwrap_or_default();
    let link = format!("ln -s {} ~/.local/bin/programmer-hook", launcher.display());
    assert!(
        detail.contains(&link),
        "doctor names the marketplace's launcher for a terminal: {detail}"
    );
    // The link it names: `programmer-hook` in a terminal, with no versioned path, and its
    // messages spell the command as the plugin does.
    fs::create_dir_all(e2e.local_bin())?;
    std::os::unix::fs::symlink(&launcher, e2e.hook_bin())?;
    let out = e2e.product(&["status", "--session", &sid])?;
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && text.contains("greet by name"),
        "{text}"
    );
    let fresh = e2e.work.path().join("fresh-state");
    let out = e2e
        .user_command(&e2e.hook_bin())
        .env("PROGRAMMER_STATE_DIR", &fresh)
        .arg("status")
        .output()?;
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("`/programmer:programmer <request>`"),
        "{text}"
    );
    fs::remove_file(e2e.hook_bin())?;

    sandbox_beside_the_plugin(&e2e, &launcher)?;

    // Run 2: with a rule that allows Bash, only the hook stands in the way. The plugin
    // becomes a copy that was never run and has no binary for this machine, during the
    // run: the call is blocked, and the model is told how to fix it.
    let mut settings: Value = serde_json::from_str(&fs::read_to_string(e2e.settings_path())?)?;
    settings["permissions"] = json!({"allow": ["Bash"]});
    e2e.write_settings(&settings)?;
    e2e.set_scenario(&json!({"threads": [{"name": "main", "turns": [
        json!({"wait_for": e2e.gate_path("missing"),
               "tool_uses": [bash("m_after", "touch after.txt")]}),
        say("run 2 done"),
    ]}]}))?;
    let roots = vec![market.clone(), cache.clone()];
    let away = e2e.work.path().join("binaries");
    let (r, a) = (roots.clone(), away.clone());
    let breaker = e2e.on_turn("m_after", "missing", move || {
        move_binaries(&r, &a, None).expect("removing the plugin's binary");
        reset_launchers(&r).expect("putting the launcher back");
    });
    let run = e2e.run_claude("make a file", None)?;
    assert!(breaker.join().expect("breaker thread"), "turn never played");
    assert_eq!(run.result(), "run 2 done", "{:#}", run.json);
    assert!(
        !proj.join("after.txt").exists(),
        "the call ran without a hook"
    );
    let r = e2e.result_of("m_after");
    let content = r["content"].as_str().unwrap_or_default();
    assert_eq!(r["is_error"], true, "{r}");
    assert!(
        content.starts_with("PreToolUse:Bash hook error: ")
            && content.contains(
                "programmer-hook: blocked: this copy of the plugin has no programmer-hook binary"
            )
            && content.contains("scripts/package-plugin.sh"),
        "{content}"
    );
    assert!(run.denied("m_after"), "{:?}", run.denials());

    // Runs 3 and 4: a session that starts without a binary for this machine (none, then
    // only another platform's) is blocked at its first prompt; the model is never called.
    e2e.set_scenario(&json!({"threads": [{"name": "main", "turns": [
        turn(&[bash("m_early", "touch early.txt")]),
        say("not reached"),
    ]}]}))?;
    for (n, other) in [(3, None), (4, Some("macos-aarch64"))] {
        if let Some(name) = other {
            move_binaries(&roots, &away, Some(name))?;
        }
        let requests = e2e.requests("main").len();
        let run = e2e.run_claude("make a file", None)?;
        let result = run.result();
        let needle = match other {
            None => "has no programmer-hook binary (it needs".to_string(),
            Some(name) => format!(
                "has no programmer-hook binary for {} (it has: {name})",
                platform()
            ),
        };
        assert!(
            result.starts_with("UserPromptSubmit operation blocked by hook:")
                && result.contains("programmer-hook: blocked: ")
                && result.contains(&needle),
            "run {n}: {:#}",
            run.json
        );
        assert_eq!(
            e2e.requests("main").len(),
            requests,
            "run {n}: the model was called"
        );
        assert!(!proj.join("early.txt").exists());
    }

    // Uninstalling the plugin keeps the state dir.
    e2e.claude_cli(&["plugin", "uninstall", PLUGIN_ID])?;
    let record = fs::read_to_string(
        e2e.home
            .path()
            .join(".claude/plugins/installed_plugins.json"),
    )?;
    assert!(!record.contains(PLUGIN_ID), "{record}");
    assert!(session_file.is_file(), "the uninstall removed the state");
    // doctor, through the marketplace's launcher (its binary back in place), says what
    // the uninstall left and how to remove each, not how to install again.
    for root in &roots {
        fs::rename(
            root.join("bin/macos-aarch64"),
            root.join("bin").join(platform()),
        )?;
    }
    let out = e2e.run_as_user(&launcher, &["doctor"])?;
    let d = String::from_utf8_lossy(&out.stdout).into_owned();
    assert_eq!(out.status.code(), Some(1), "{d}");
    let cache_root = e2e
        .home
        .path()
        .join(".claude/plugins/cache/programmer-hook");
    for want in [
        "programmer-hook is not installed any more".to_string(),
        format!("fix: rm -rf {}", cache_root.display()),
        "fix: claude plugin marketplace remove programmer-hook".to_string(),
        format!("fix: {} uninstall-hooks", launcher.display()),
        "kept on purpose".to_string(),
    ] {
        assert!(d.contains(&want), "{want}: {d}");
    }
    for fix in d.lines().filter(|l| l.trim_start().starts_with("fix: ")) {
        assert!(
            !fix.contains(" install"),
            "a fix that installs again: {fix}"
        );
    }
    let out = e2e.run_as_user(&launcher, &["uninstall-hooks"])?;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let settings: Value = serde_json::from_str(&fs::read_to_string(e2e.settings_path())?)?;
    assert!(settings.get("sandbox").is_none(), "{settings:#}");
    // As the README says: removing the marketplace too leaves nothing of it registered.
    let marketplace = PLUGIN_ID.split_once('@').map_or("", |(_, m)| m);
    e2e.claude_cli(&["plugin", "marketplace", "remove", marketplace])?;
    let listed = e2e.claude_cli(&["plugin", "marketplace", "list"])?;
    assert!(!listed.contains(marketplace), "{listed}");
    assert!(
        e2e.proxy_attempts().is_empty(),
        "client tried to reach other hosts: {:?}",
        e2e.proxy_attempts()
    );
    Ok(())
}

/// Claude Code's sandbox, turned on beside the plugin with the plugin's own
/// `install-hooks --sandbox-only`: in an `auto` session, a project's test run (code the
/// hook cannot read) is asked before and runs unasked after, confined. Where the sandbox
/// cannot run on this machine, this part is skipped loudly (a failure under CI).
fn sandbox_beside_the_plugin(e2e: &E2e, launcher: &Path) -> Result<()> {
    if !cfg!(target_os = "linux") {
        skipped("e2e_plugin: the sandbox part drives Linux's sandbox", None);
        return Ok(());
    }
    if let Some(why) = sandbox_unavailable() {
        let msg = format!("Claude Code's sandbox cannot run on this machine: {why}");
        fail_under_ci(&msg);
        skipped(&format!("e2e_plugin: {msg}"), None);
        return Ok(());
    }
    let proj = e2e.project_path();
    fs::write(
        proj.join("test.sh"),
        "echo ran >> test-runs.log\necho '1 passed'\n",
    )?;
    e2e.set_scenario(&json!({"threads": [{"name": "main", "turns": [
        say("autonomy noted"),
        turn(&[bash("t_before", "sh test.sh")]),
        say("asked"),
        turn(&[bash("t_sandboxed", "sh test.sh")]),
        say("tests ran"),
    ]}]}))?;
    let run = e2e.run_claude("/programmer:programmer autonomy auto", None)?;
    assert_eq!(run.result(), "autonomy noted", "{:#}", run.json);
    let sid = run.session_id().to_string();
    assert_eq!(status(e2e, launcher, &sid)?["autonomy"], "auto");

    // The sandbox off, on a machine where the hook cannot confine (as without Landlock):
    // the test run is asked even in `auto`, and the reason says what turns the sandbox on.
    e2e.no_confine.set(true);
    let run = e2e.run_claude("run the tests", Some(&sid))?;
    assert_eq!(run.result(), "asked", "{:#}", run.json);
    e2e.assert_asked(&run, "t_before", "run.interpreter");
    let why = e2e.content_of("t_before");
    let turn_on = format!("`{} install-hooks --sandbox-only`", launcher.display());
    assert!(why.contains(&turn_on), "the plugin's own command: {why}");
    assert!(!proj.join("test-runs.log").exists(), "the test ran unasked");

    // The plugin's own programmer-hook turns it on: the sandbox settings, no hook entries.
    let out = e2e.run_as_user(launcher, &["install-hooks", "--sandbox-only"])?;
    let said = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("sandbox.enabled: (not set) -> true"),
        "{said}"
    );
    let settings: Value = serde_json::from_str(&fs::read_to_string(e2e.settings_path())?)?;
    assert_eq!(settings["sandbox"]["enabled"], true, "{settings:#}");
    assert_eq!(settings["enabledPlugins"][PLUGIN_ID], true, "{settings:#}");
    assert!(
        settings.get("hooks").is_none(),
        "no hook entries: {settings:#}"
    );

    // Now the test runs without asking, in the sandbox.
    let run = e2e.run_claude("run the tests again", Some(&sid))?;
    assert_eq!(run.result(), "tests ran", "{:#}", run.json);
    let out = e2e.assert_ran(&run, "t_sandboxed");
    assert!(out.contains("1 passed"), "{out}");
    assert_eq!(
        fs::read_to_string(proj.join("test-runs.log"))?,
        "ran\n",
        "the test ran once"
    );
    let entry = e2e
        .audit_log()
        .into_iter()
        .find(|e| e["tool_use_id"] == "toolu_t_sandboxed")
        .context("the sandboxed run is in the audit log")?;
    assert_eq!(entry["relaxed_by"], "sandbox", "{entry}");
    Ok(())
}

/// Files named `name` under `dir`.
fn find_named(dir: &Path, name: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(find_named(&p, name));
        } else if p.file_name().is_some_and(|n| n == name) {
            out.push(p);
        }
    }
    out
}
