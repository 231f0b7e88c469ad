//! programmer-hook from its npm packages, in the real client: `scripts/package-npm.sh`
//! packs the tarballs from the binary cargo built, npm installs them offline into the
//! scratch HOME's `~/.local` (install scripts off, as many users run npm), and
//! `programmer-hook install` puts the native binary in the launcher's place and writes the
//! rest (no checkout, no compiler). Then, with a scripted model: the tiers, a reviewer's
//! write refused, a workflow started with `/programmer`; `uninstall`, which keeps the
//! state; the package with no binary for the machine, which writes nothing; and npm's own
//! postinstall, which puts the binary in place too.

mod support;

use anyhow::{bail, Context, Result};
use serde_json::{json, Value};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;
use support::e2e::*;
use support::launcher::{is_native, npm_platform};

const VERSION: &str = env!("CARGO_PKG_VERSION");

/// `scripts/package-npm.sh DIR --binary <the built binary>`: the tarballs, main first.
fn package(e2e: &E2e) -> Result<Vec<PathBuf>> {
    let dir = e2e.work.path().join("npm-packages");
    let out = Command::new("bash")
        .arg(repo().join("scripts/package-npm.sh"))
        .arg(&dir)
        .arg("--binary")
        .arg(built_binary())
        .output()
        .context("running package-npm.sh")?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "package-npm.sh failed: {text}");
    let main = dir.join(format!("programmer-hook-{VERSION}.tgz"));
    let platform = dir.join(format!("programmer-hook-{}-{VERSION}.tgz", npm_platform()));
    assert!(main.is_file() && platform.is_file(), "{text}");
    assert!(
        text.contains("No binary given for:"),
        "says which platforms are left out: {text}"
    );
    Ok(vec![main, platform])
}

/// `npm install -g --prefix PREFIX --offline [EXTRA] TARBALLS`, in the scratch HOME.
fn npm_install(e2e: &E2e, prefix: &Path, extra: &[&str], tarballs: &[PathBuf]) -> Result<()> {
    let started = Instant::now();
    let out = Command::new("npm")
        .args(["install", "-g", "--offline", "--no-audit", "--no-fund"])
        .arg("--prefix")
        .arg(prefix)
        .args(extra)
        .args(tarballs)
        .env("HOME", e2e.home.path())
        .env("npm_config_cache", e2e.work.path().join("npm-cache"))
        .env("npm_config_update_notifier", "false")
        .current_dir(e2e.work.path())
        .output()
        .context("running npm")?;
    if !out.status.success() {
        bail!(
            "npm install failed: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    eprintln!(
        "e2e_npm: npm install -g {} from {} tarballs took {:?}",
        extra.join(" "),
        tarballs.len(),
        started.elapsed()
    );
    Ok(())
}

fn text(out: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn npm_packages_installed_offline_with_install_scripts_off() -> Result<()> {
    let Some(e2e) = E2e::start(&json!({"threads": []})) else {
        return Ok(());
    };
    let tarballs = package(&e2e)?;

    // Only the main package (no binary for this machine): the command says what it found
    // and what to do, and writes nothing.
    let bare = e2e.work.path().join("npm-bare");
    npm_install(
        &e2e,
        &bare,
        &["--ignore-scripts", "--omit=optional"],
        &tarballs[..1],
    )?;
    let out = e2e.run_as_user(&bare.join("bin/programmer-hook"), &["install"])?;
    let t = text(&out);
    assert_eq!(out.status.code(), Some(2), "{t}");
    assert!(
        t.contains(&format!(
            "has no programmer-hook-{} for this machine ({})",
            npm_platform(),
            npm_platform()
        )) && t.contains("npm install -g programmer-hook"),
        "{t}"
    );
    assert!(!e2e.settings_path().exists(), "hook entries written: {t}");
    assert!(!e2e.state_dir().exists(), "{t}");
    let platform_tarball = tarballs[1].file_name().context("name")?.to_string_lossy();
    assert!(t.contains(&format!("DIR/{platform_tarball}")), "{t}");
    // With install scripts on, npm's postinstall fails the install of the main tarball
    // alone, and names the platform's tarball beside the file it was installed from.
    let err = npm_install(
        &e2e,
        &e2e.work.path().join("npm-main-only"),
        &[],
        &tarballs[..1],
    )
    .expect_err("the main package alone cannot be installed with its scripts on");
    let err = format!("{err:#}");
    assert!(
        err.contains(&format!(
            "npm install -g {} {}",
            tarballs[0].display(),
            tarballs[1].display()
        )),
        "{err}"
    );

    // The packages, install scripts off: `programmer-hook` is the launcher until the first
    // `programmer-hook install` puts the binary in its place.
    let prefix = e2e.home.path().join(".local");
    npm_install(&e2e, &prefix, &["--ignore-scripts"], &tarballs)?;
    let command = prefix.join("lib/node_modules/programmer-hook/bin/programmer-hook");
    assert!(!is_native(&command), "the launcher before the first run");
    assert_eq!(
        fs::canonicalize(e2e.hook_bin())?,
        fs::canonicalize(&command)?,
        "PATH's programmer-hook is the package's command"
    );
    for part in [
        "agents/code-reviewer.md",
        "commands/programmer.md",
        "skills/programmer-add-project/SKILL.md",
    ] {
        assert!(
            command
                .parent()
                .and_then(Path::parent)
                .context("package")?
                .join(part)
                .is_file(),
            "{part}"
        );
    }
    let out = e2e.run_as_user(&e2e.hook_bin(), &["install"])?;
    let log = text(&out);
    assert!(out.status.success(), "{log}");
    assert!(log.contains("no problems found"), "doctor: {log}");
    assert!(
        is_native(&command),
        "the binary is in the launcher's place: {log}"
    );
    let settings = fs::read_to_string(e2e.settings_path())?;
    assert!(settings.contains(&*command.to_string_lossy()), "{settings}");
    assert!(e2e
        .home
        .path()
        .join(".claude/agents/code-reviewer.md")
        .is_file());
    assert!(e2e
        .home
        .path()
        .join(".claude/commands/programmer.md")
        .is_file());
    let record: Value =
        serde_json::from_str(&fs::read_to_string(e2e.state_dir().join("install.json"))?)?;
    assert_eq!(record["method"], "command", "{record}");
    // Again: nothing changes.
    let again = text(&e2e.run_as_user(&e2e.hook_bin(), &["install"])?);
    assert!(
        !again.contains("  installed: ") && !again.contains(": changed: "),
        "{again}"
    );

    let (run, which) = e2e.quick_workflow("/programmer", "code-reviewer", &[])?;
    let sid = run.session_id().to_string();
    // The agents run the binary npm put on PATH.
    assert_eq!(which.trim(), e2e.hook_bin().to_string_lossy(), "{which}");
    let st = e2e.status(&sid)?;
    assert_eq!(st["request"], "greet by name", "{st}");
    assert_eq!(st["phase"], "implement", "{st}");
    assert_eq!(st["last_verdict"], "CHANGES_REQUESTED", "{st}");
    let session_file = e2e.state_dir().join(format!("sessions/{sid}.json"));
    assert!(session_file.is_file());

    // Uninstall: the entries, the pack and the record go, and so does the settings file
    // the install created, with nothing left in it (one backup of it stays); the state
    // stays; the one npm command it prints removes the rest, the platform package
    // installed by name too.
    let out = e2e.run_as_user(&e2e.hook_bin(), &["uninstall"])?;
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(!e2e.settings_path().exists(), "{t}");
    let config = e2e.home.path().join(".claude");
    let backups: Vec<String> = fs::read_dir(&config)?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("settings.json.bak-"))
        .collect();
    assert_eq!(backups.len(), 1, "{backups:?}");
    assert!(!config.join("agents/code-reviewer.md").exists());
    assert!(!e2e.state_dir().join("install.json").exists());
    assert!(session_file.is_file(), "the uninstall removed the state");
    let platform_package = format!("programmer-hook-{}", npm_platform());
    let line = format!("npm uninstall -g programmer-hook {platform_package}");
    assert!(t.contains(&line), "{t}");
    // doctor now says what is left and how to remove it, not how to install again.
    let out = e2e.run_as_user(&e2e.hook_bin(), &["doctor"])?;
    let d = text(&out);
    assert_eq!(out.status.code(), Some(1), "{d}");
    assert!(
        d.contains("programmer-hook is not installed any more")
            && d.contains(&format!("fix: {line}"))
            && d.contains("kept on purpose"),
        "{d}"
    );
    for fix in d.lines().filter(|l| l.trim_start().starts_with("fix: ")) {
        assert!(
            !fix.contains(" install"),
            "a fix that installs again: {fix}"
        );
    }
    let out = Command::new("npm")
        .args(["uninstall", "-g", "--prefix"])
        .arg(&prefix)
        .args(["programmer-hook", &platform_package])
        .env("HOME", e2e.home.path())
        .env("npm_config_update_notifier", "false")
        .output()?;
    assert!(out.status.success(), "{}", text(&out));
    assert!(!e2e.hook_bin().exists() && !command.exists());
    let modules = prefix.join("lib/node_modules");
    let left: Vec<String> = fs::read_dir(&modules)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.starts_with("programmer-hook"))
                .collect()
        })
        .unwrap_or_default();
    assert!(left.is_empty(), "left in {}: {left:?}", modules.display());

    // With install scripts on, npm's postinstall puts the binary in place.
    let scripted = e2e.work.path().join("npm-scripted");
    npm_install(&e2e, &scripted, &[], &tarballs)?;
    let placed = scripted.join("lib/node_modules/programmer-hook/bin/programmer-hook");
    assert!(is_native(&placed), "postinstall put the binary in place");
    let out = e2e.run_as_user(&scripted.join("bin/programmer-hook"), &["--version"])?;
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("programmer-hook {VERSION}")
    );
    assert!(
        e2e.proxy_attempts().is_empty(),
        "client tried to reach other hosts: {:?}",
        e2e.proxy_attempts()
    );
    Ok(())
}
