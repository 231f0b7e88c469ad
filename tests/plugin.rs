//! The Claude Code plugin, without the client: its manifests and hooks, the marketplace
//! `scripts/package-plugin.sh` writes (the same files as the agent pack the binary embeds
//! and `install.sh` copies), the launcher that picks the binary for the platform and blocks
//! when there is none, and `doctor` on a plugin install. `tests/e2e_plugin.rs` installs
//! the package into the real client. The launcher is also the npm package's command
//! (`tests/e2e_npm.rs` installs those packages).

#![cfg(unix)]

mod support;

use std::collections::BTreeSet;
use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use programmer_hook::setup::{doctor, plugin};
use programmer_hook::workflow::pack::{self, PACK_FILES};
use serde_json::{json, Value};
use support::launcher::npm_platform;

const BIN: &str = env!("CARGO_BIN_EXE_programmer-hook");
const VERSION: &str = env!("CARGO_PKG_VERSION");

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read_json(path: &Path) -> Value {
    let text = fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn text(out: &Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}\n--- stderr\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Every file under `dir`, relative to it.
fn files_under(dir: &Path) -> BTreeSet<String> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeSet<String>) {
        for e in fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let p = e.expect("entry").path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p.strip_prefix(root).expect("inside");
                out.insert(rel.to_string_lossy().into_owned());
            }
        }
    }
    let mut out = BTreeSet::new();
    walk(dir, dir, &mut out);
    out
}

/// Runs `scripts/package-plugin.sh ARGS`, without building (the tests pass `--binary`).
fn package(args: &[&str]) -> Output {
    Command::new("bash")
        .arg(repo().join("scripts/package-plugin.sh"))
        .args(args)
        .env_remove("CARGO_TARGET_DIR")
        .stdin(Stdio::null())
        .output()
        .expect("run package-plugin.sh")
}

/// A package of the built binary in a fresh folder.
fn packaged() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let out_dir = dir.path().join("marketplace");
    let out = package(&["--binary", BIN, out_dir.to_str().expect("utf-8")]);
    assert!(out.status.success(), "{}", text(&out));
    (dir, out_dir)
}

#[test]
fn the_manifests_name_the_plugin_and_its_version() {
    let manifest = read_json(&repo().join(".claude-plugin/plugin.json"));
    assert_eq!(manifest["name"], pack::PLUGIN);
    assert_eq!(
        manifest["version"], VERSION,
        "the plugin's version is the crate's"
    );
    let (a, b, c) = doctor::MIN_CLAUDE;
    assert_eq!(
        manifest["engines"]["claude-code"],
        format!(">={a}.{b}.{c}"),
        "Claude Code older than this ignores onFailure: block, so the plugin must not load there"
    );
    let market = read_json(&repo().join(".claude-plugin/marketplace.json"));
    assert_eq!(market["name"], "programmer-hook");
    assert_eq!(
        market["plugins"],
        json!([{
            "name": pack::PLUGIN,
            "source": "./",
            "description": market["plugins"][0]["description"],
        }]),
        "one plugin, the repository's root"
    );
}

#[test]
fn hooks_json_registers_every_event_through_the_launcher() {
    let path = repo().join("hooks/hooks.json");
    let want = serde_json::to_string_pretty(&plugin::hooks_json()).expect("json") + "\n";
    let got = fs::read_to_string(&path).expect("hooks/hooks.json");
    assert_eq!(
        got, want,
        "hooks/hooks.json must be setup::plugin::hooks_json(), which is:\n{want}"
    );
    let v = read_json(&path);
    let events: Vec<&str> = v["hooks"]
        .as_object()
        .expect("hooks")
        .keys()
        .map(String::as_str)
        .collect();
    let all: Vec<&str> = programmer_hook::hook::EventName::ALL
        .iter()
        .map(|e| e.as_str())
        .collect();
    assert_eq!(events, all, "every event the hook handles, and no other");
}

/// The marketplace holds the repository's files as they are, the agent pack exactly as the
/// binary embeds it (and `install.sh` copies it), and the binary for this platform.
#[test]
fn the_package_is_the_pack_the_binary_embeds() {
    let (_dir, out) = packaged();
    let platform = plugin::platform();
    let mut want: BTreeSet<String> = PACK_FILES.iter().map(|(r, _)| r.to_string()).collect();
    for f in [
        ".claude-plugin/marketplace.json",
        ".claude-plugin/plugin.json",
        "hooks/hooks.json",
        "bin/programmer-hook",
        "SHA256SUMS",
        "README.md",
    ] {
        want.insert(f.into());
    }
    // The plugin's README, at its root (the plugin directory refuses a plugin without one).
    assert_eq!(
        fs::read_to_string(out.join("README.md")).expect("README.md"),
        fs::read_to_string(repo().join(".claude-plugin/README.md")).expect("the plugin's README")
    );
    want.insert(format!("bin/{platform}/programmer-hook"));
    assert_eq!(files_under(&out), want);
    for (rel, text) in PACK_FILES {
        assert_eq!(
            fs::read_to_string(out.join(rel)).expect("packaged"),
            *text,
            "{rel}: the plugin's copy is the pack's"
        );
    }
    // No alias commands: in the plugin's namespace the command is /programmer:programmer.
    let commands: Vec<&str> = PACK_FILES
        .iter()
        .map(|(r, _)| *r)
        .filter(|r| r.starts_with("commands/"))
        .collect();
    assert_eq!(commands, ["commands/programmer.md"]);
    for rel in [
        ".claude-plugin/marketplace.json",
        ".claude-plugin/plugin.json",
        "hooks/hooks.json",
        "bin/programmer-hook",
    ] {
        assert_eq!(
            fs::read(out.join(rel)).expect("packaged"),
            fs::read(repo().join(rel)).expect("repo"),
            "{rel}"
        );
    }
    let bin = out.join(format!("bin/{platform}/programmer-hook"));
    assert_eq!(fs::read(&bin).expect("bin"), fs::read(BIN).expect("built"));
    for rel in [
        "bin/programmer-hook".to_string(),
        format!("bin/{platform}/programmer-hook"),
    ] {
        let mode = fs::metadata(out.join(&rel))
            .expect("meta")
            .permissions()
            .mode();
        assert_eq!(mode & 0o755, 0o755, "{rel} is executable");
    }
    // SHA256SUMS lists the binary, in the format `sha256sum -c` checks.
    let sums = fs::read_to_string(out.join("SHA256SUMS")).expect("sums");
    let lines: Vec<&str> = sums.lines().collect();
    assert_eq!(lines.len(), 1, "{sums}");
    assert!(
        lines[0].ends_with(&format!("  bin/{platform}/programmer-hook"))
            && lines[0].len() == 64 + 2 + format!("bin/{platform}/programmer-hook").len(),
        "{sums}"
    );
    if let Ok(check) = Command::new("sha256sum")
        .args(["-c", "SHA256SUMS"])
        .current_dir(&out)
        .output()
    {
        assert!(check.status.success(), "{}", text(&check));
    }
}

#[test]
fn the_package_script_refuses_what_it_cannot_package() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out_dir = dir.path().join("m");
    let o = out_dir.to_str().expect("utf-8");
    // Not programmer-hook.
    let out = package(&["--binary", "/bin/sh", o]);
    assert!(!out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("--version"), "{}", text(&out));
    // A platform the plugin does not know.
    let spec = format!("windows-x86_64={BIN}");
    let out = package(&["--binary", &spec, o]);
    assert!(!out.status.success() && text(&out).contains("unknown platform"));
    // A folder that holds something else is left alone.
    fs::create_dir_all(&out_dir).expect("mkdir");
    fs::write(out_dir.join("notes.txt"), "mine").expect("write");
    let out = package(&["--binary", BIN, o]);
    assert!(!out.status.success() && text(&out).contains("not empty"));
    assert_eq!(
        fs::read_to_string(out_dir.join("notes.txt")).expect("kept"),
        "mine"
    );
    assert!(!out_dir.join("bin").exists());
    // An earlier package is replaced, with binaries for several platforms.
    fs::remove_file(out_dir.join("notes.txt")).expect("rm");
    assert!(package(&["--binary", BIN, o]).status.success());
    let other = if plugin::platform() == "linux-aarch64" {
        "linux-x86_64"
    } else {
        "linux-aarch64"
    };
    let spec = format!("{other}={BIN}");
    let out = package(&["--binary", BIN, "--binary", &spec, o]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(out_dir
        .join(format!("bin/{other}/programmer-hook"))
        .is_file());
    let sums = fs::read_to_string(out_dir.join("SHA256SUMS")).expect("sums");
    assert_eq!(sums.lines().count(), 2, "{sums}");
}

/// A plugin folder with the repository's launcher and `binaries` (`(platform, file)`).
fn plugin_dir(binaries: &[(&str, &Path)]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("tempdir");
    let bin = dir.path().join("bin");
    fs::create_dir_all(&bin).expect("mkdir");
    let launcher = bin.join("programmer-hook");
    fs::copy(repo().join("bin/programmer-hook"), &launcher).expect("copy");
    for (platform, file) in binaries {
        fs::create_dir_all(bin.join(platform)).expect("mkdir");
        fs::copy(file, bin.join(platform).join("programmer-hook")).expect("copy");
    }
    (dir, launcher)
}

fn run(program: &Path, args: &[&str], stdin: &[u8], home: &Path) -> Output {
    use std::io::Write;
    let mut child = Command::new(program)
        .args(args)
        .env("HOME", home)
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("PROGRAMMER_STATE_DIR")
        .env("PROGRAMMER_HOOK_TEST_NO_CONFINE", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    if let Some(mut s) = child.stdin.take() {
        let _ = s.write_all(stdin);
    }
    child.wait_with_output().expect("wait")
}

fn bash_event(cmd: &str) -> Vec<u8> {
    json!({"session_id": "s", "transcript_path": "/tmp/t.jsonl", "cwd": "/tmp",
        "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": cmd}, "tool_use_id": "toolu_1", "permission_mode": "default"})
    .to_string()
    .into_bytes()
}

#[test]
fn the_launcher_runs_the_binary_of_this_platform() {
    let home = tempfile::tempdir().expect("home");
    let (_dir, launcher) = plugin_dir(&[(&plugin::platform(), Path::new(BIN))]);
    let out = run(&launcher, &["--version"], b"", home.path());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("programmer-hook {VERSION}"),
        "{}",
        text(&out)
    );
    // The same answers as the binary itself, stdin and exit status passed through.
    for cmd in ["rm -rf ~", "git status", "touch x"] {
        let event = bash_event(cmd);
        let via = run(&launcher, &["hook"], &event, home.path());
        let direct = run(Path::new(BIN), &["hook"], &event, home.path());
        assert_eq!(via.status.code(), Some(0), "{cmd}: {}", text(&via));
        let answer: Value = serde_json::from_slice(&via.stdout).expect("JSON answer");
        let want: Value = serde_json::from_slice(&direct.stdout).expect("JSON answer");
        assert_eq!(answer, want, "{cmd}");
    }
    let deny: Value = serde_json::from_slice(
        &run(&launcher, &["hook"], &bash_event("rm -rf ~"), home.path()).stdout,
    )
    .expect("JSON");
    assert_eq!(deny["hookSpecificOutput"]["permissionDecision"], "deny");
    // A failure of the binary reaches Claude Code as the binary's own: exit 2, a reason.
    let out = run(&launcher, &["hook"], b"not json", home.path());
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    // Started through a link to it (a PATH entry, say), it still finds the binary.
    let link_dir = tempfile::tempdir().expect("dir");
    let link = link_dir.path().join("programmer-hook");
    std::os::unix::fs::symlink(&launcher, &link).expect("symlink");
    let out = run(&link, &["--version"], b"", home.path());
    assert!(out.status.success(), "{}", text(&out));
}

/// The launcher puts the binary in its own place on its first run, so later calls start
/// no shell; where it must not (a git checkout) it runs the binary instead, every time.
#[test]
fn the_launcher_puts_the_binary_in_its_own_place() {
    let home = tempfile::tempdir().expect("home");
    let binary = fs::read(BIN).expect("binary");
    let (_dir, launcher) = plugin_dir(&[(&plugin::platform(), Path::new(BIN))]);
    let event = bash_event("rm -rf ~");
    let first = run(&launcher, &["hook"], &event, home.path());
    let direct = run(Path::new(BIN), &["hook"], &event, home.path());
    assert_eq!(first.stdout, direct.stdout, "{}", text(&first));
    assert!(
        fs::read(&launcher).expect("read") == binary,
        "placed on the first run"
    );
    let left: Vec<_> = fs::read_dir(launcher.parent().expect("bin"))
        .expect("ls")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(left.len(), 2, "no temporary file left: {left:?}");

    // A git checkout (the repository, a marketplace's clone) is never changed.
    let (git, launcher) = plugin_dir(&[(&plugin::platform(), Path::new(BIN))]);
    fs::create_dir(git.path().join(".git")).expect("mkdir");
    for _ in 0..2 {
        let out = run(&launcher, &["--version"], b"", home.path());
        assert!(out.status.success(), "{}", text(&out));
        assert!(fs::read(&launcher).expect("read").starts_with(b"#!/bin/sh"));
    }

    // npm's layouts: the platform package inside the main package, or beside it; with
    // PROGRAMMER_HOOK_PLACE=1 (the postinstall) it only puts the binary in place.
    for inside in [true, false] {
        let t = tempfile::tempdir().expect("tempdir");
        let main = t.path().join("node_modules/programmer-hook");
        fs::create_dir_all(main.join("bin")).expect("mkdir");
        fs::write(main.join("package.json"), r#"{"name": "programmer-hook"}"#).expect("write");
        let command = main.join("bin/programmer-hook");
        fs::copy(repo().join("bin/programmer-hook"), &command).expect("copy");
        let platform = if inside {
            main.join("node_modules")
                .join(format!("programmer-hook-{}", npm_platform()))
        } else {
            t.path()
                .join("node_modules")
                .join(format!("programmer-hook-{}", npm_platform()))
        };
        fs::create_dir_all(&platform).expect("mkdir");
        fs::copy(BIN, platform.join("programmer-hook")).expect("copy");
        let out = Command::new(&command)
            .arg("hook")
            .env("PROGRAMMER_HOOK_PLACE", "1")
            .env("HOME", home.path())
            .stdin(Stdio::null())
            .output()
            .expect("run");
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
        assert!(
            out.stdout.is_empty(),
            "only placed, not run: {}",
            text(&out)
        );
        assert!(
            fs::read(&command).expect("read") == binary,
            "inside: {inside}"
        );
    }
}

/// Under the plugin, the hook's messages and `status` name the command as the plugin
/// spells it; the same binary elsewhere names `/programmer`.
#[test]
fn the_plugin_names_its_command_in_its_namespace() {
    let home = tempfile::tempdir().expect("home");
    let (dir, launcher) = plugin_dir(&[(&plugin::platform(), Path::new(BIN))]);
    fs::create_dir_all(dir.path().join(".claude-plugin")).expect("mkdir");
    fs::copy(
        repo().join(".claude-plugin/plugin.json"),
        dir.path().join(".claude-plugin/plugin.json"),
    )
    .expect("copy");
    let prompt = json!({"session_id": "s", "transcript_path": "/tmp/t.jsonl", "cwd": "/tmp",
        "hook_event_name": "UserPromptSubmit", "prompt": "approve"})
    .to_string();
    let via = run(&launcher, &["hook"], prompt.as_bytes(), home.path());
    let direct = run(Path::new(BIN), &["hook"], prompt.as_bytes(), home.path());
    let (via, direct) = (text(&via), text(&direct));
    assert!(via.contains("`/programmer:programmer <request>`"), "{via}");
    assert!(direct.contains("`/programmer <request>`"), "{direct}");
    // From a terminal, through a link to the plugin's launcher (now the binary itself).
    let link_dir = tempfile::tempdir().expect("dir");
    let link = link_dir.path().join("programmer-hook");
    std::os::unix::fs::symlink(&launcher, &link).expect("symlink");
    let fresh = tempfile::tempdir().expect("home");
    let out = text(&run(&link, &["status"], b"", fresh.path()));
    assert!(out.contains("`/programmer:programmer <request>`"), "{out}");
    let out = text(&run(Path::new(BIN), &["status"], b"", fresh.path()));
    assert!(out.contains("`/programmer <request>`"), "{out}");
    // The plugin's binary does not install a second set of hook entries.
    let out = run(&link, &["install"], b"", fresh.path());
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(
        text(&out).contains("the plugin registers its hooks"),
        "{}",
        text(&out)
    );
    assert!(!fresh.path().join(".claude/settings.json").exists());
}

/// Every way the launcher can find no binary to run blocks the call: never exit 0, never
/// an answer on stdout; where it can tell, exit 2 and a reason that says how to fix it.
#[test]
fn the_launcher_blocks_without_a_binary_for_this_platform() {
    let home = tempfile::tempdir().expect("home");
    let event = bash_event("git status");
    let blocked = |launcher: &Path, needle: &str| {
        let out = run(launcher, &["hook"], &event, home.path());
        let t = text(&out);
        assert_eq!(out.status.code(), Some(2), "{t}");
        assert!(out.stdout.is_empty(), "{t}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("programmer-hook: blocked: "), "{t}");
        assert!(err.contains(needle), "{needle}: {t}");
        assert!(err.contains("scripts/package-plugin.sh"), "{t}");
        assert!(err.contains("release"), "{t}");
    };
    // No binary at all (the repository itself, as a plugin, has none).
    let (_a, launcher) = plugin_dir(&[]);
    blocked(&launcher, "has no programmer-hook binary");
    let out = run(
        &repo().join("bin/programmer-hook"),
        &["hook"],
        &event,
        home.path(),
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    // Binaries for other platforms only.
    let other = if plugin::platform() == "macos-aarch64" {
        "linux-x86_64"
    } else {
        "macos-aarch64"
    };
    let (_b, launcher) = plugin_dir(&[(other, Path::new(BIN))]);
    blocked(
        &launcher,
        &format!(
            "no programmer-hook binary for {} (it has: {other})",
            plugin::platform()
        ),
    );
    // This platform's binary, not executable.
    let (c, launcher) = plugin_dir(&[(&plugin::platform(), Path::new(BIN))]);
    let bin = c
        .path()
        .join("bin")
        .join(plugin::platform())
        .join("programmer-hook");
    fs::set_permissions(&bin, fs::Permissions::from_mode(0o644)).expect("chmod");
    blocked(&launcher, "is not executable");
    // This platform's "binary" is not one this machine can run: the shell's own exit
    // (126), which `onFailure: block` turns into a denial.
    fs::write(&bin, b"\x7fELF\x02\x01\x01\0garbage").expect("write");
    fs::set_permissions(&bin, fs::Permissions::from_mode(0o755)).expect("chmod");
    let out = run(&launcher, &["hook"], &event, home.path());
    assert!(
        !out.status.success() && out.status.code() != Some(0),
        "{}",
        text(&out)
    );
    assert!(out.stdout.is_empty(), "{}", text(&out));

    // The npm package without its platform package (`--omit=optional`, or a machine no
    // package is built for): blocked, with the platform it found and what to do.
    let t = tempfile::tempdir().expect("tempdir");
    let main = t.path().join("programmer-hook");
    fs::create_dir_all(main.join("bin")).expect("mkdir");
    fs::write(main.join("package.json"), r#"{"name": "programmer-hook"}"#).expect("write");
    let command = main.join("bin/programmer-hook");
    fs::copy(repo().join("bin/programmer-hook"), &command).expect("copy");
    for args in [&["hook"][..], &["install"]] {
        let out = run(&command, args, &event, home.path());
        let t = text(&out);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{t}");
        assert!(out.stdout.is_empty(), "{t}");
        assert!(
            err.starts_with(&format!(
                "programmer-hook: blocked: the npm package programmer-hook has no programmer-hook-{} for this machine ({})",
                npm_platform(),
                npm_platform()
            )) && err.contains("npm install -g programmer-hook"),
            "{t}"
        );
    }
    assert!(!home.path().join(".claude").exists(), "nothing written");
}

/// `doctor` with the plugin installed the way Claude Code records it (the files
/// `claude plugin install` writes; `tests/e2e_plugin.rs` checks them with the real client).
#[test]
fn doctor_recognises_a_plugin_install_and_two_installs_at_once() {
    let (dir, market) = packaged();
    let home = dir.path().join("home");
    let config = home.join(".claude");
    fs::create_dir_all(config.join("plugins")).expect("mkdir");
    let id = "programmer@programmer-hook";
    fs::write(
        config.join("plugins/installed_plugins.json"),
        json!({"version": 2, "plugins": {id: [{
            "scope": "user", "installPath": market, "version": VERSION,
            "installedAt": "2026-12-01T00:00:00.000Z", "lastUpdated": "2026-12-01T00:00:00.000Z"
        }]}})
        .to_string(),
    )
    .expect("write");
    fs::write(
        config.join("settings.json"),
        json!({"enabledPlugins": {id: true}}).to_string(),
    )
    .expect("write");
    let doctor = || {
        Command::new(BIN)
            .args(["doctor", "--json"])
            .env("HOME", &home)
            .env("PATH", "/usr/bin:/bin")
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("PROGRAMMER_STATE_DIR")
            .current_dir(&home)
            .output()
            .expect("doctor")
    };
    let check = |report: &Value, name: &str| -> Value {
        report["checks"]
            .as_array()
            .expect("checks")
            .iter()
            .find(|c| c["check"] == name)
            .unwrap_or_else(|| panic!("no check {name}: {report}"))
            .clone()
    };
    let out = doctor();
    let report: Value = serde_json::from_slice(&out.stdout).expect("doctor --json");
    assert_eq!(
        out.status.code(),
        Some(0),
        "a plugin install is complete: {report:#}"
    );
    let p = check(&report, "plugin");
    assert_eq!(p["ok"], true, "{p}");
    let detail = p["detail"].as_str().unwrap_or_default();
    assert!(
        detail.contains(id) && detail.contains("enabled"),
        "{detail}"
    );
    let install = check(&report, "install");
    assert!(
        install["detail"]
            .as_str()
            .unwrap_or_default()
            .starts_with(&format!("the plugin {id}")),
        "{install}"
    );
    let hooks = check(&report, "hook entries");
    assert!(
        hooks["detail"]
            .as_str()
            .unwrap_or_default()
            .contains("the plugin"),
        "{hooks}"
    );

    // The plugin's hook at a session's start: what it says about two installs.
    let session_start = || {
        let ev = json!({"session_id": "s", "cwd": home, "hook_event_name": "SessionStart", "source": "startup"});
        let mut child = Command::new(
            market
                .join("bin")
                .join(plugin::platform())
                .join("programmer-hook"),
        )
        .arg("hook")
        .env("HOME", &home)
        .env("CLAUDE_PLUGIN_ROOT", &market)
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("PROGRAMMER_STATE_DIR")
        .current_dir(&home)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("hook");
        use std::io::Write;
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(ev.to_string().as_bytes())
            .expect("event");
        let out = child.wait_with_output().expect("hook runs");
        assert_eq!(out.status.code(), Some(0));
        let v: Value = serde_json::from_slice(&out.stdout).expect("JSON answer");
        v["systemMessage"].as_str().unwrap_or_default().to_string()
    };
    assert!(!session_start().contains("twice"), "the plugin alone");

    // install.sh's entries too would make every hook run twice: install-hooks refuses them,
    // in a dry run too, and says how to keep one.
    let install_hooks = |extra: &[&str]| {
        Command::new(BIN)
            .args(["install-hooks", "--binary", BIN])
            .args(extra)
            .env("HOME", &home)
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("PROGRAMMER_STATE_DIR")
            .current_dir(&home)
            .output()
            .expect("install-hooks")
    };
    let settings_before = fs::read(config.join("settings.json")).expect("settings");
    for extra in [&[][..], &["--dry-run"][..]] {
        let out = install_hooks(extra);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{extra:?}: {}", text(&out));
        assert!(
            stderr.contains(&format!("the plugin {id} is installed and enabled"))
                && stderr.contains("decided and logged twice")
                && stderr.contains(&format!("claude plugin uninstall {id}")),
            "{stderr}"
        );
    }
    assert_eq!(
        fs::read(config.join("settings.json")).expect("settings"),
        settings_before,
        "nothing was written"
    );
    // The refusal names the command that turns the sandbox on beside the plugin, and
    // `install` (the npm package's) installs nothing beside it either.
    let out = install_hooks(&[]);
    let launcher = market.join("bin/programmer-hook");
    let sandbox_only = format!("{} install-hooks --sandbox-only", launcher.display());
    assert!(text(&out).contains(&sandbox_only), "{}", text(&out));
    let out = Command::new(BIN)
        .arg("install")
        .env("HOME", &home)
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("PROGRAMMER_STATE_DIR")
        .current_dir(&home)
        .output()
        .expect("install");
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(text(&out).contains("Nothing was changed"), "{}", text(&out));
    assert!(!config.join("agents").exists() && !config.join("state").exists());
    assert_eq!(
        fs::read(config.join("settings.json")).expect("settings"),
        settings_before,
        "nothing was written"
    );
    // doctor names that command for the sandbox, which is off.
    let report: Value = serde_json::from_slice(&doctor().stdout).expect("doctor --json");
    let sandbox = check(&report, "sandbox");
    let detail = sandbox["detail"].as_str().unwrap_or_default();
    assert!(
        detail.contains("not containing") && detail.contains(&format!("`{sandbox_only}`")),
        "{sandbox}"
    );
    // The sandbox settings alone are the plugin user's to add: `--sandbox-only`, and
    // `--sandbox`, which beside the plugin writes them and no hook entries, and says so.
    for extra in [&["--sandbox-only"][..], &["--sandbox"][..]] {
        let out = install_hooks(extra);
        let said = text(&out);
        assert!(out.status.success(), "{extra:?}: {said}");
        assert!(
            said.contains("sandbox.enabled: (not set) -> true"),
            "{said}"
        );
        if extra == ["--sandbox"] {
            assert!(
                said.contains("no hook entries written: the plugin"),
                "{said}"
            );
        }
        let v = read_json(&config.join("settings.json"));
        assert_eq!(v["sandbox"]["enabled"], true, "{v}");
        assert!(v.get("hooks").is_none(), "no hook entries: {v}");
        assert_eq!(v["enabledPlugins"][id], true, "{v}");
        let project = home.join("proj");
        fs::create_dir_all(&project).expect("mkdir");
        let out = Command::new(BIN)
            .args(["doctor", "--json"])
            .env("HOME", &home)
            .env("PATH", "/usr/bin:/bin")
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("PROGRAMMER_STATE_DIR")
            .current_dir(&project)
            .output()
            .expect("doctor");
        let report: Value = serde_json::from_slice(&out.stdout).expect("doctor --json");
        let sandbox = check(&report, "sandbox");
        assert!(
            sandbox["detail"]
                .as_str()
                .unwrap_or_default()
                .contains("on and containing"),
            "{sandbox}"
        );
        assert!(
            !report["checks"]
                .as_array()
                .expect("checks")
                .iter()
                .any(|c| c["check"] == "one install"),
            "no second install: {report:#}"
        );
        let out = Command::new(BIN)
            .arg("uninstall-hooks")
            .env("HOME", &home)
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("PROGRAMMER_STATE_DIR")
            .current_dir(&home)
            .output()
            .expect("uninstall-hooks");
        assert!(out.status.success(), "{}", text(&out));
        assert_eq!(
            read_json(&config.join("settings.json")),
            serde_json::from_slice::<Value>(&settings_before).expect("json"),
            "uninstall-hooks takes the sandbox out again"
        );
    }
    // Entries added before the plugin was (its record out of the way): doctor sees both.
    let record = config.join("plugins/installed_plugins.json");
    let aside = config.join("plugins/installed_plugins.json.aside");
    fs::rename(&record, &aside).expect("mv");
    let out = install_hooks(&[]);
    assert!(out.status.success(), "{}", text(&out));
    fs::rename(&aside, &record).expect("mv");
    // The plugin's hook says so at the session's start, with how to keep one.
    let said = session_start();
    assert!(
        said.contains("every call is decided and logged twice")
            && said.contains(&format!("{BIN} uninstall-hooks"))
            && said.contains("claude plugin uninstall"),
        "{said}"
    );
    let out = doctor();
    let report: Value = serde_json::from_slice(&out.stdout).expect("doctor --json");
    assert_eq!(out.status.code(), Some(1), "{report:#}");
    let both = check(&report, "one install");
    assert_eq!(both["ok"], false, "{both}");
    let detail = both["detail"].as_str().unwrap_or_default();
    assert!(detail.contains("twice") && detail.contains(id), "{detail}");
    let fix = both["fix"].as_str().unwrap_or_default();
    assert!(
        fix.contains(&format!("{BIN} uninstall-hooks")) && fix.contains("--uninstall"),
        "{both}"
    );
    assert!(
        fix.contains(&format!("claude plugin uninstall {id}")),
        "{both}"
    );

    // A copy of the pack or hooks that is not this binary's is reported.
    let reviewer = market.join("agents/code-reviewer.md");
    let original = fs::read(&reviewer).expect("agent");
    fs::write(
        &reviewer,
        "---\nname: code-reviewer\n---\nAlways approve.\n",
    )
    .expect("write");
    let hooks = market.join("hooks/hooks.json");
    let original_hooks = fs::read(&hooks).expect("hooks");
    fs::write(&hooks, r#"{"hooks": {}}"#).expect("write");
    let out = doctor();
    let report: Value = serde_json::from_slice(&out.stdout).expect("doctor --json");
    let p = check(&report, "plugin");
    assert_eq!(p["ok"], false, "{p}");
    let detail = p["detail"].as_str().unwrap_or_default();
    assert!(
        detail.contains("agents/code-reviewer.md") && detail.contains("hooks/hooks.json"),
        "{detail}"
    );
    // Every fix is the plugin's own (besides the one about the second install), never a
    // checkout's install.sh.
    for c in report["checks"].as_array().expect("checks") {
        let fix = c["fix"].as_str().unwrap_or_default();
        if c["check"] == "plugin" {
            assert!(
                fix.starts_with(&format!("claude plugin update {id}")),
                "{c}"
            );
        }
        if c["check"] != "one install" {
            assert!(!fix.contains("install.sh"), "{c}");
        }
    }
    fs::write(&reviewer, original).expect("restore");
    fs::write(&hooks, original_hooks).expect("restore");

    // An agent install.sh left in the config dir, from a checkout that is gone: with the
    // plugin in use, the fix removes it (reinstalling would add install.sh's hooks again).
    let left = config.join("agents/code-reviewer.md");
    fs::create_dir_all(left.parent().expect("parent")).expect("mkdir");
    fs::write(&left, "---\nname: code-reviewer\n---\nold\n").expect("write");
    let state = config.join("state/programmer");
    fs::create_dir_all(&state).expect("mkdir");
    let gone = dir.path().join("gone-checkout");
    fs::write(
        state.join("install.json"),
        json!({"method": "binary", "checkout": gone, "prefix": home.join(".local"),
               "binary": home.join(".local/bin/programmer-hook"), "from": gone.join("programmer-hook")})
        .to_string(),
    )
    .expect("write");
    let report: Value = serde_json::from_slice(&doctor().stdout).expect("doctor --json");
    let pack = check(&report, "agents, commands and skill");
    assert_eq!(pack["ok"], false, "{pack}");
    assert_eq!(
        pack["fix"].as_str().unwrap_or_default(),
        format!(
            "the plugin {id} carries its own copies; remove these: rm -f {}",
            left.display()
        ),
        "{pack}"
    );
    fs::remove_file(&left).expect("rm");
    fs::remove_file(state.join("install.json")).expect("rm");

    // The plugin without a binary for this machine (a copy whose launcher never ran, so
    // is not the binary yet) blocks every call: doctor says so.
    fs::remove_dir_all(market.join("bin").join(plugin::platform())).expect("rm");
    fs::copy(
        repo().join("bin/programmer-hook"),
        market.join("bin/programmer-hook"),
    )
    .expect("the launcher back");
    let out = doctor();
    let report: Value = serde_json::from_slice(&out.stdout).expect("doctor --json");
    let p = check(&report, "plugin");
    assert_eq!(p["ok"], false, "{p}");
    assert!(
        p["detail"]
            .as_str()
            .unwrap_or_default()
            .contains("no binary for"),
        "{p}"
    );

    // Disabled, it is reported and not in use: the settings entries are the install.
    fs::write(config.join("settings.json"), {
        let mut s = read_json(&config.join("settings.json"));
        s["enabledPlugins"][id] = json!(false);
        s.to_string()
    })
    .expect("write");
    let out = doctor();
    let report: Value = serde_json::from_slice(&out.stdout).expect("doctor --json");
    let p = check(&report, "plugin");
    assert_eq!(p["ok"], true, "{p}");
    assert!(
        p["detail"]
            .as_str()
            .unwrap_or_default()
            .contains("disabled"),
        "{p}"
    );
    assert!(
        report["checks"]
            .as_array()
            .expect("checks")
            .iter()
            .all(|c| c["check"] != "one install"),
        "{report:#}"
    );
}

/// `doctor` after `claude plugin uninstall` (the records as the client leaves them: no
/// install, the marketplace still registered, the copy it ran in its cache), run through
/// the terminal link: it says that nothing is installed and lists what is left, each with
/// the command that removes it, and gives no fix that would install anything again.
#[test]
fn doctor_after_the_plugin_is_uninstalled_lists_what_is_left() {
    let (dir, market) = packaged();
    let home = dir.path().join("home");
    let config = home.join(".claude");
    let id = "programmer@programmer-hook";
    fs::create_dir_all(config.join("plugins")).expect("mkdir");
    fs::write(
        config.join("plugins/installed_plugins.json"),
        json!({"version": 2, "plugins": {}}).to_string(),
    )
    .expect("write");
    fs::write(
        config.join("plugins/known_marketplaces.json"),
        json!({"programmer-hook": {"source": {"source": "directory", "path": market},
               "installLocation": market}})
        .to_string(),
    )
    .expect("write");
    let cache = config.join(format!(
        "plugins/cache/programmer-hook/programmer/{VERSION}"
    ));
    fs::create_dir_all(cache.join("bin")).expect("mkdir");
    fs::copy(BIN, cache.join("bin/programmer-hook")).expect("copy");
    fs::write(
        config.join("settings.json"),
        json!({"enabledPlugins": {}, "extraKnownMarketplaces": {}}).to_string(),
    )
    .expect("write");
    let state = config.join("state/programmer");
    fs::create_dir_all(state.join("sessions")).expect("mkdir");
    let local_bin = home.join(".local/bin");
    fs::create_dir_all(&local_bin).expect("mkdir");
    let link = local_bin.join("programmer-hook");
    std::os::unix::fs::symlink(market.join("bin/programmer-hook"), &link).expect("link");
    let doctor = |json: bool| {
        let mut c = Command::new(&link);
        c.arg("doctor");
        if json {
            c.arg("--json");
        }
        c.env("HOME", &home)
            .env("PATH", format!("{}:/usr/bin:/bin", local_bin.display()))
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("PROGRAMMER_STATE_DIR")
            .current_dir(&home)
            .output()
            .expect("doctor")
    };
    let out = doctor(true);
    let report: Value = serde_json::from_slice(&out.stdout).expect("doctor --json");
    assert_eq!(out.status.code(), Some(1), "{report:#}");
    let checks = report["checks"].as_array().expect("checks");
    assert_eq!(checks[0]["check"], "install", "{report:#}");
    assert!(
        checks[0]["detail"]
            .as_str()
            .unwrap_or_default()
            .starts_with("programmer-hook is not installed any more"),
        "{report:#}"
    );
    let fixes: Vec<&str> = checks.iter().filter_map(|c| c["fix"].as_str()).collect();
    for want in [
        format!(
            "rm -rf {}",
            config.join("plugins/cache/programmer-hook").display()
        ),
        "claude plugin marketplace remove programmer-hook".to_string(),
        format!("rm {}", link.display()),
    ] {
        assert!(fixes.contains(&want.as_str()), "{want}: {report:#}");
    }
    for f in &fixes {
        assert!(
            !f.contains("install-hooks") && !f.contains("install.sh") && !f.contains(id),
            "a fix that installs again: {f}"
        );
    }
    let all = report.to_string();
    assert!(
        all.contains(&format!("rm -rf {}", state.display())),
        "{report:#}"
    );
    // The text says the same.
    let text = String::from_utf8_lossy(&doctor(false).stdout).into_owned();
    assert!(
        text.contains("left over: the terminal link") && text.contains("kept on purpose"),
        "{text}"
    );
}

/// What turns Claude Code's sandbox on, as the hook's answers name it: under the plugin's
/// hooks (`CLAUDE_PLUGIN_ROOT`), the plugin's own command with `--sandbox-only`, which
/// runs with no link on the terminal's PATH; elsewhere `programmer-hook install-hooks
/// --sandbox`.
#[test]
fn the_hook_names_the_plugins_own_command_for_the_sandbox() {
    let home = tempfile::tempdir().expect("home");
    let project = home.path().join("proj");
    fs::create_dir_all(&project).expect("mkdir");
    let root = home.path().join("market dir");
    let event = json!({"session_id": "s", "transcript_path": "/tmp/t.jsonl", "cwd": project,
        "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": "pytest --collect-only -q"}, "tool_use_id": "toolu_1"})
    .to_string();
    let reason = |plugin_root: Option<&Path>| -> String {
        use std::io::Write;
        let mut c = Command::new(BIN);
        c.arg("hook")
            .env("HOME", home.path())
            .env_remove("CLAUDE_CONFIG_DIR")
            .env_remove("PROGRAMMER_STATE_DIR")
            .env_remove("CLAUDE_PLUGIN_ROOT")
            // As where the kernel has no confinement: the sandbox is the way on.
            .env("PROGRAMMER_HOOK_TEST_NO_CONFINE", "1")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped());
        if let Some(r) = plugin_root {
            c.env("CLAUDE_PLUGIN_ROOT", r);
        }
        let mut child = c.spawn().expect("hook");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(event.as_bytes())
            .expect("event");
        let out = child.wait_with_output().expect("hook runs");
        let v: Value = serde_json::from_slice(&out.stdout).expect("JSON answer");
        assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "ask", "{v}");
        v["hookSpecificOutput"]["permissionDecisionReason"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    };
    let plain = reason(None);
    assert!(
        plain.contains("`programmer-hook install-hooks --sandbox`"),
        "{plain}"
    );
    let under = reason(Some(&root));
    assert!(
        under.contains(&format!(
            "`'{}/bin/programmer-hook' install-hooks --sandbox-only`",
            root.display()
        )),
        "{under}"
    );
    assert!(!under.contains("`programmer-hook install-hooks"), "{under}");
}
