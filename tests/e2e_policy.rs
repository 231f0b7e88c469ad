//! The policy tiers inside the real Claude Code client, against the product as
//! `./install.sh` installs it into a scratch HOME (the binary in
//! `~/.local/bin`, the hook entries in `~/.claude/settings.json`, the agent
//! pack in `~/.claude`). Every scenario is checked on disk and in git, and by
//! what the scripted model was told.
//!
//! Forbidden calls are made both in the default autonomy (`confirm`, where an
//! `ask` is a denial in `-p`) and after the user typed
//! `/programmer autonomy auto` (where Confirm calls run): a call that is only
//! Confirm would run there, so its refusal proves the Forbidden tier. Each
//! denial is also checked to be a `deny` naming its rule, not an `ask`.

mod support;

use anyhow::Result;
use serde_json::{json, Value};
use std::fs;
use std::os::unix::fs::PermissionsExt;
use support::e2e::*;

fn scenario(turns: Vec<Value>) -> Value {
    json!({"threads": [{"name": "main", "turns": turns}]})
}

/// Forbidden is refused, Safe runs unasked, Confirm is asked (a denial in
/// `-p`), and after the user's `/programmer autonomy auto` Confirm runs while
/// Forbidden stays refused.
#[test]
fn tiers_forbidden_safe_confirm() -> Result<()> {
    let main = vec![
        // run 1: default autonomy (confirm)
        turn(&[bash("rm_home", "rm -rf ~/*")]),
        turn(&[bash("reset_hard", "git reset --hard")]),
        turn(&[bash("compound", "git status && rm -rf ~/*")]),
        turn(&[bash("ls", "ls")]),
        turn(&[bash("git_status", "git status")]),
        turn(&[bash("touch", "touch made.txt")]),
        say("run 1 done"),
        // run 2: `/programmer autonomy auto`
        say("autonomy noted"),
        // run 3: autonomy auto
        turn(&[bash("touch_auto", "touch made.txt")]),
        turn(&[bash("rm_home_auto", "rm -rf ~/*")]),
        turn(&[bash("reset_hard_auto", "git reset --hard HEAD")]),
        say("run 3 done"),
    ];
    let Some(e2e) = E2e::start(&scenario(main)) else {
        return Ok(());
    };
    e2e.install_product()?;
    e2e.init_repo(&[("tracked.txt", "committed\n"), ("README.md", "# demo\n")])?;
    let proj = e2e.project_path();
    fs::write(proj.join("tracked.txt"), "dirty work\n")?;
    let marker = e2e.home.path().join("important/keep.txt");
    fs::create_dir_all(marker.parent().unwrap())?;
    fs::write(&marker, "keep me\n")?;

    let run = e2e.run_claude("look around the repository", None)?;
    assert_eq!(run.result(), "run 1 done", "{:#}", run.json);
    let sid = run.session_id().to_string();
    e2e.assert_denied(&run, "rm_home", "fs.rm-broad");
    e2e.assert_denied(&run, "reset_hard", "git.reset-hard");
    e2e.assert_denied(&run, "compound", "fs.rm-broad");
    let ls = e2e.assert_ran(&run, "ls");
    assert!(
        ls.contains("tracked.txt") && ls.contains("README.md"),
        "ls output did not reach the model: {ls:?}"
    );
    let st = e2e.assert_ran(&run, "git_status");
    assert!(
        st.contains("modified:") && st.contains("tracked.txt"),
        "git status output did not reach the model: {st:?}"
    );
    e2e.assert_asked(&run, "touch", "fs.change");
    assert_eq!(fs::read_to_string(&marker)?, "keep me\n", "rm -rf ~/* ran");
    assert_eq!(
        fs::read_to_string(proj.join("tracked.txt"))?,
        "dirty work\n",
        "git reset --hard ran"
    );
    assert!(!proj.join("made.txt").exists(), "an asked call ran in -p");

    let run2 = e2e.run_claude("/programmer autonomy auto", Some(&sid))?;
    assert_eq!(run2.result(), "autonomy noted", "{:#}", run2.json);
    assert_eq!(e2e.status(&sid)?["autonomy"], "auto");

    let run3 = e2e.run_claude("now make the file", Some(&sid))?;
    assert_eq!(run3.result(), "run 3 done", "{:#}", run3.json);
    e2e.assert_ran(&run3, "touch_auto");
    assert!(
        proj.join("made.txt").exists(),
        "Confirm did not run in auto"
    );
    e2e.assert_denied(&run3, "rm_home_auto", "fs.rm-broad");
    e2e.assert_denied(&run3, "reset_hard_auto", "git.reset-hard");
    assert_eq!(fs::read_to_string(&marker)?, "keep me\n", "rm -rf ~/* ran");
    assert_eq!(
        fs::read_to_string(proj.join("tracked.txt"))?,
        "dirty work\n",
        "git reset --hard ran"
    );
    assert_eq!(e2e.git(&proj, &["log", "--format=%s"])?, "initial\n");
    assert!(e2e.proxy_attempts().is_empty());
    Ok(())
}

/// File tools on protected paths are refused even in autonomy `auto`: a
/// Write to `~/.ssh/config` and an Edit of the project's `.env` (both read
/// first, so the client's own "read before write" check passes) leave the
/// files as they were, while a Write to an ordinary file in the same run goes
/// through.
#[test]
fn file_tools_on_protected_paths() -> Result<()> {
    let Some(e2e) = E2e::start(&scenario(vec![])) else {
        return Ok(());
    };
    e2e.install_product()?;
    e2e.init_repo(&[("README.md", "# demo\n")])?;
    let proj = e2e.project_path();
    let env_file = proj.join(".env");
    fs::write(&env_file, "SECRET=1\n")?;
    let ssh = e2e.home.path().join(".ssh");
    fs::create_dir_all(&ssh)?;
    fs::set_permissions(&ssh, fs::Permissions::from_mode(0o700))?;
    let ssh_config = ssh.join("config");
    fs::write(&ssh_config, "Host example\n")?;
    let ssh_s = ssh_config.to_string_lossy().into_owned();
    // A new file: the client refuses to overwrite a file the session has not read.
    let ssh_rc = ssh.join("rc").to_string_lossy().into_owned();
    let keys = ssh.join("authorized_keys").to_string_lossy().into_owned();
    let env_s = env_file.to_string_lossy().into_owned();
    let notes = proj.join("notes.txt").to_string_lossy().into_owned();
    e2e.set_scenario(&scenario(vec![
        // run 1: `/programmer autonomy auto`
        say("autonomy noted"),
        // run 2
        turn(&[read("read_env", &env_s)]),
        turn(&[edit("edit_env", &env_s, "SECRET=1", "SECRET=2")]),
        turn(&[write("write_env", &env_s, "SECRET=3\n")]),
        turn(&[bash("bash_env", "echo SECRET=4 > .env")]),
        turn(&[read("read_ssh", &ssh_s)]),
        turn(&[write("write_ssh", &ssh_rc, "ProxyCommand sh\n")]),
        // The client refuses an Edit of a file the session has not read (the read above
        // was asked, so refused in `-p` mode): the same change through Bash.
        turn(&[bash("edit_ssh", &format!("sed -i s/example/evil/ {ssh_s}"))]),
        turn(&[write("write_keys", &keys, "ssh-ed25519 AAAA evil\n")]),
        turn(&[write("write_notes", &notes, "ordinary file\n")]),
        say("run 2 done"),
    ]))?;

    let run = e2e.run_claude("/programmer autonomy auto", None)?;
    let sid = run.session_id().to_string();
    assert_eq!(e2e.status(&sid)?["autonomy"], "auto");
    let run = e2e.run_claude("tidy the configuration", Some(&sid))?;
    assert_eq!(run.result(), "run 2 done", "{:#}", run.json);

    // Secrets are read only with the user's say, even under autonomy auto (in `-p` mode
    // an ask is refused).
    e2e.assert_asked(&run, "read_env", "file.read-secret");
    e2e.assert_denied(&run, "edit_env", "path.secret-write");
    e2e.assert_denied(&run, "write_env", "path.secret-write");
    e2e.assert_denied(&run, "bash_env", "path.secret-write");
    e2e.assert_asked(&run, "read_ssh", "file.read-secret");
    e2e.assert_denied(&run, "write_ssh", "path.protected-write");
    e2e.assert_denied(&run, "edit_ssh", "path.protected-write");
    e2e.assert_denied(&run, "write_keys", "path.protected-write");
    e2e.assert_ran(&run, "write_notes");

    assert_eq!(fs::read_to_string(&env_file)?, "SECRET=1\n");
    assert_eq!(fs::read_to_string(&ssh_config)?, "Host example\n");
    assert!(!ssh.join("authorized_keys").exists());
    assert!(!ssh.join("rc").exists());
    assert_eq!(
        fs::read_to_string(proj.join("notes.txt"))?,
        "ordinary file\n",
        "the control Write did not go through"
    );
    Ok(())
}

/// Self-protection: the model cannot turn the hook off or act as the user.
/// Run 1 (autonomy `confirm`): `programmer-hook autonomy auto`,
/// `programmer-hook approve` and `programmer-hook uninstall-hooks` through
/// Bash are denied, and a Confirm call afterwards is still asked. Runs 2-3
/// (after the user's `/programmer autonomy auto`): Write, Edit and `sed -i`
/// of `~/.claude/settings.json`, and writes to the state dir (the session
/// file, the autonomy file, preferences) and to the installed binary are
/// denied; every file is unchanged.
#[test]
fn self_protection() -> Result<()> {
    let Some(e2e) = E2e::start(&scenario(vec![])) else {
        return Ok(());
    };
    e2e.install_product()?;
    e2e.init_repo(&[("README.md", "# demo\n")])?;
    let proj = e2e.project_path();
    let settings = e2e.settings_path();
    let settings_s = settings.to_string_lossy().into_owned();
    let state = e2e.state_dir();
    let prefs = state.join("preferences.json");
    let prefs_s = prefs.to_string_lossy().into_owned();
    let bin = e2e.hook_bin();

    e2e.set_scenario(&scenario(vec![
        // run 1, autonomy confirm
        turn(&[bash("ctl_autonomy", "programmer-hook autonomy auto")]),
        turn(&[bash("ctl_approve", "programmer-hook approve")]),
        turn(&[bash("ctl_uninstall", "programmer-hook uninstall-hooks")]),
        turn(&[bash("touch_after", "touch after.txt")]),
        say("run 1 done"),
    ]))?;
    let run = e2e.run_claude("let yourself do more", None)?;
    assert_eq!(run.result(), "run 1 done", "{:#}", run.json);
    let sid = run.session_id().to_string();
    e2e.assert_denied(&run, "ctl_autonomy", "programmer-hook.control");
    e2e.assert_denied(&run, "ctl_approve", "programmer-hook.control");
    e2e.assert_denied(&run, "ctl_uninstall", "programmer-hook.control");
    e2e.assert_asked(&run, "touch_after", "fs.change");
    assert!(!proj.join("after.txt").exists());
    assert_eq!(e2e.status(&sid)?["autonomy"], "confirm");

    // The user switches autonomy to auto; then only Forbidden stops a call.
    let session_file = state.join(format!("sessions/{sid}.json"));
    let session_s = session_file.to_string_lossy().into_owned();
    let autonomy_s = state
        .join("session-autonomy.json")
        .to_string_lossy()
        .into_owned();
    e2e.set_scenario(&scenario(vec![
        turn(&[bash("ctl_autonomy", "programmer-hook autonomy auto")]),
        turn(&[bash("ctl_approve", "programmer-hook approve")]),
        turn(&[bash("ctl_uninstall", "programmer-hook uninstall-hooks")]),
        turn(&[bash("touch_after", "touch after.txt")]),
        say("run 1 done"),
        // run 2: `/programmer autonomy auto`
        say("autonomy noted"),
        // run 3
        turn(&[read("read_settings", &settings_s)]),
        // `disableAllHooks` is a real setting: it would switch the hook off.
        turn(&[write(
            "write_settings",
            &settings_s,
            "{\"disableAllHooks\": true}\n",
        )]),
        turn(&[edit(
            "edit_settings",
            &settings_s,
            "\"hooks\": {",
            "\"disableAllHooks\": true,\n  \"hooks\": {",
        )]),
        turn(&[bash(
            "sed_settings",
            "sed -i 's/\"block\"/\"ignore\"/' ~/.claude/settings.json",
        )]),
        turn(&[bash("rm_settings", "rm -f ~/.claude/settings.json")]),
        turn(&[read("read_session", &session_s)]),
        turn(&[write("write_session", &session_s, "{}\n")]),
        turn(&[bash(
            "bash_autonomy",
            "echo '{}' > ~/.claude/state/programmer/session-autonomy.json",
        )]),
        turn(&[read("read_prefs", &prefs_s)]),
        turn(&[edit("edit_prefs", &prefs_s, "\"style\"", "\"hacked\"")]),
        turn(&[bash(
            "replace_bin",
            "cp /bin/true ~/.local/bin/programmer-hook",
        )]),
        turn(&[bash("touch_auto", "touch auto.txt")]),
        say("run 3 done"),
    ]))?;
    let run2 = e2e.run_claude("/programmer autonomy auto", Some(&sid))?;
    assert_eq!(run2.result(), "autonomy noted", "{:#}", run2.json);
    assert_eq!(e2e.status(&sid)?["autonomy"], "auto");

    let before: Vec<(String, Vec<u8>)> = [&settings_s, &session_s, &autonomy_s, &prefs_s]
        .iter()
        .map(|p| Ok((p.to_string(), fs::read(p)?)))
        .collect::<Result<_>>()?;
    let bin_before = fs::read(&bin)?;

    let run3 = e2e.run_claude("make the hook less strict", Some(&sid))?;
    assert_eq!(run3.result(), "run 3 done", "{:#}", run3.json);
    e2e.assert_ran(&run3, "read_settings");
    e2e.assert_denied(&run3, "write_settings", "path.protected-write");
    e2e.assert_denied(&run3, "edit_settings", "path.protected-write");
    e2e.assert_denied(&run3, "sed_settings", "path.protected-write");
    e2e.assert_denied(&run3, "rm_settings", "path.protected-write");
    e2e.assert_ran(&run3, "read_session");
    e2e.assert_denied(&run3, "write_session", "path.protected-write");
    e2e.assert_denied(&run3, "bash_autonomy", "path.protected-write");
    e2e.assert_ran(&run3, "read_prefs");
    e2e.assert_denied(&run3, "edit_prefs", "path.protected-write");
    e2e.assert_denied(&run3, "replace_bin", "path.protected-write");
    // The control: a Confirm call runs in this mode.
    e2e.assert_ran(&run3, "touch_auto");
    assert!(proj.join("auto.txt").exists());

    for (path, bytes) in &before {
        assert!(
            fs::read(path)? == *bytes,
            "{path} changed:\n{}",
            fs::read_to_string(path).unwrap_or_default()
        );
    }
    assert!(fs::read(&bin)? == bin_before, "the hook binary changed");
    assert_eq!(e2e.status(&sid)?["autonomy"], "auto");
    Ok(())
}

/// A broken installation blocks calls instead of letting them through. The
/// settings are the installed ones plus a `permissions.allow: ["Bash"]` rule,
/// so only the hook stands between a `touch` and the disk (the last run, with
/// the hook entries taken out, shows that the rule alone lets it run).
///
/// Runs 1-2: the hook binary is removed (then made non-executable) while the
/// client waits for the model's answer, so the session and the prompt start
/// with a working hook and the Bash call meets the broken one: it is blocked
/// by `onFailure: "block"`. Runs 3-4: a session that starts with the broken
/// binary is blocked at its prompt, before the model is ever called.
#[test]
fn broken_installation_blocks() -> Result<()> {
    let Some(e2e) = E2e::start(&scenario(vec![])) else {
        return Ok(());
    };
    e2e.install_product()?;
    e2e.init_repo(&[("README.md", "# demo\n")])?;
    let proj = e2e.project_path();
    let installed: Value = serde_json::from_str(&fs::read_to_string(e2e.settings_path())?)?;
    let mut settings = installed.clone();
    settings["permissions"] = json!({"allow": ["Bash"]});
    e2e.write_settings(&settings)?;
    let bin = e2e.hook_bin();
    let moved = e2e.work.path().join("programmer-hook.moved");

    // Run 1: the binary disappears during the run.
    e2e.set_scenario(&scenario(vec![
        json!({"wait_for": e2e.gate_path("missing"),
               "tool_uses": [bash("touch_missing", "touch missing.txt")]}),
        say("run 1 done"),
    ]))?;
    let (b, m) = (bin.clone(), moved.clone());
    let breaker = e2e.on_turn("touch_missing", "missing", move || {
        fs::rename(&b, &m).expect("removing the hook binary");
    });
    let run = e2e.run_claude("make a file", None)?;
    assert!(breaker.join().expect("breaker thread"), "turn never played");
    assert_eq!(run.result(), "run 1 done", "{:#}", run.json);
    assert!(
        !proj.join("missing.txt").exists(),
        "the hook binary is missing and the call ran anyway"
    );
    assert_blocked_by_on_failure(&e2e, &run, "touch_missing", "ENOENT");

    // Run 2: the binary loses its execute bit during the run.
    fs::rename(&moved, &bin)?;
    e2e.set_scenario(&scenario(vec![
        json!({"wait_for": e2e.gate_path("noexec"),
               "tool_uses": [bash("touch_noexec", "touch noexec.txt")]}),
        say("run 2 done"),
    ]))?;
    let b = bin.clone();
    let breaker = e2e.on_turn("touch_noexec", "noexec", move || {
        fs::set_permissions(&b, fs::Permissions::from_mode(0o644)).expect("chmod");
    });
    let run = e2e.run_claude("make a file", None)?;
    assert!(breaker.join().expect("breaker thread"), "turn never played");
    assert_eq!(run.result(), "run 2 done", "{:#}", run.json);
    assert!(
        !proj.join("noexec.txt").exists(),
        "the hook binary is not executable and the call ran anyway"
    );
    assert_blocked_by_on_failure(&e2e, &run, "touch_noexec", "EACCES");

    // Runs 3-4: sessions that start broken never reach the model.
    e2e.set_scenario(&scenario(vec![
        turn(&[bash("touch_early", "touch early.txt")]),
        say("not reached"),
    ]))?;
    for (errno, broken) in [("EACCES", true), ("ENOENT", false)] {
        if !broken {
            fs::rename(&bin, &moved)?;
        }
        let requests = e2e.requests("main").len();
        let run = e2e.run_claude("make a file", None)?;
        let result = run.result();
        assert!(
            result.starts_with("UserPromptSubmit operation blocked by hook:")
                && result.contains("blocking because onFailure is \"block\"")
                && result.contains(errno),
            "{:#}",
            run.json
        );
        assert_eq!(e2e.requests("main").len(), requests, "the model was called");
        assert!(!proj.join("early.txt").exists());
    }

    // The control: without the hook entries the same rule lets it run.
    let mut no_hooks = settings.clone();
    no_hooks.as_object_mut().unwrap().remove("hooks");
    e2e.write_settings(&no_hooks)?;
    e2e.set_scenario(&scenario(vec![
        turn(&[bash("touch_nohook", "touch nohook.txt")]),
        say("control done"),
    ]))?;
    let run = e2e.run_claude("make a file", None)?;
    e2e.assert_ran(&run, "touch_nohook");
    assert!(proj.join("nohook.txt").exists(), "the control did not run");
    Ok(())
}

/// Call `id` reached the PreToolUse hook, which could not be started
/// (`errno`), and `onFailure: "block"` turned that into a denial.
fn assert_blocked_by_on_failure(e2e: &E2e, run: &ClaudeRun, id: &str, errno: &str) {
    let r = e2e.result_of(id);
    let content = r["content"].as_str().unwrap_or_default();
    assert_eq!(r["is_error"], true, "{r}");
    assert!(
        content.starts_with("PreToolUse:Bash hook error: ")
            && content.contains("blocking because onFailure is \"block\"")
            && content.contains(errno),
        "{id}: {content:?}"
    );
    assert!(run.denied(id), "{:?}", run.denials());
}
