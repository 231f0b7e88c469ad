//! The npm packages `scripts/package-npm.sh` packs, without installing them: the main
//! package's manifest (the launcher as the command, the postinstall, one optional
//! dependency per platform given and none for the others, the agent pack), each platform
//! package's `os`/`cpu`/`libc`, and the inputs the script refuses. `tests/e2e_npm.rs`
//! installs the packages and runs them in the real client.

#![cfg(unix)]

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use programmer_hook::workflow::pack::PACK_FILES;
use serde_json::{json, Value};

const VERSION: &str = env!("CARGO_PKG_VERSION");

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn package(args: &[&str]) -> Output {
    Command::new("bash")
        .arg(repo().join("scripts/package-npm.sh"))
        .args(args)
        .output()
        .expect("running package-npm.sh")
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A small executable standing in for another platform's binary (never run here).
fn fake_binary(dir: &Path, name: &str) -> PathBuf {
    let p = dir.join(name);
    fs::write(&p, "#!/bin/sh\necho not for this machine\n").expect("write");
    fs::set_permissions(&p, fs::Permissions::from_mode(0o755)).expect("chmod");
    p
}

/// The text of `member` in a tarball.
fn member(tarball: &Path, member: &str) -> String {
    let out = Command::new("tar")
        .arg("-xzOf")
        .arg(tarball)
        .arg(member)
        .output()
        .expect("tar");
    assert!(out.status.success(), "{}: {}", member, text(&out));
    String::from_utf8(out.stdout).expect("UTF-8")
}

fn members(tarball: &Path) -> Vec<String> {
    let out = Command::new("tar")
        .arg("-tzf")
        .arg(tarball)
        .output()
        .expect("tar");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}

fn npm() -> bool {
    let found = Command::new("npm").arg("--version").output().is_ok();
    if !found {
        eprintln!("npm_package: SKIPPED: npm is not installed");
    }
    found
}

#[test]
fn the_packages_name_their_platforms_and_carry_the_pack() {
    if !npm() {
        return;
    }
    let t = tempfile::tempdir().expect("tempdir");
    let mac = fake_binary(t.path(), "mac");
    let arm = fake_binary(t.path(), "arm");
    let out_dir = t.path().join("out");
    let out = package(&[
        &out_dir.to_string_lossy(),
        "--binary",
        &format!("darwin-arm64={}", mac.display()),
        &format!("--binary=linux-arm64={}", arm.display()),
    ]);
    let log = text(&out);
    assert!(out.status.success(), "{log}");
    assert!(
        log.contains("No binary given for: linux-x64 darwin-x64"),
        "{log}"
    );

    let main = out_dir.join(format!("programmer-hook-{VERSION}.tgz"));
    let manifest: Value =
        serde_json::from_str(&member(&main, "package/package.json")).expect("JSON");
    assert_eq!(manifest["name"], "programmer-hook");
    assert_eq!(manifest["version"], VERSION);
    assert_eq!(
        manifest["bin"],
        json!({"programmer-hook": "bin/programmer-hook"})
    );
    assert_eq!(
        manifest["scripts"]["postinstall"],
        "PROGRAMMER_HOOK_PLACE=1 bin/programmer-hook --version"
    );
    assert_eq!(
        manifest["optionalDependencies"],
        json!({"programmer-hook-darwin-arm64": VERSION, "programmer-hook-linux-arm64": VERSION})
    );
    assert_eq!(
        member(&main, "package/bin/programmer-hook"),
        fs::read_to_string(repo().join("bin/programmer-hook")).expect("launcher"),
        "the command is the repository's launcher"
    );
    for (rel, body) in PACK_FILES {
        assert_eq!(member(&main, &format!("package/{rel}")), *body, "{rel}");
    }

    // (platform, os, cpu, libc): a binary that is not a static ELF gets glibc only.
    for (platform, os, cpu, libc) in [
        ("darwin-arm64", "darwin", "arm64", Value::Null),
        ("linux-arm64", "linux", "arm64", json!(["glibc"])),
    ] {
        let tgz = out_dir.join(format!("programmer-hook-{platform}-{VERSION}.tgz"));
        let m: Value = serde_json::from_str(&member(&tgz, "package/package.json")).expect("JSON");
        assert_eq!(m["name"], format!("programmer-hook-{platform}"));
        assert_eq!(m["version"], VERSION);
        assert_eq!(m["os"], json!([os]), "{platform}");
        assert_eq!(m["cpu"], json!([cpu]), "{platform}");
        assert_eq!(m["libc"], libc, "{platform}");
        let mut files = members(&tgz);
        files.sort();
        assert_eq!(
            files,
            ["package/package.json", "package/programmer-hook"],
            "{platform}"
        );
    }
    assert!(!out_dir
        .join(format!("programmer-hook-linux-x64-{VERSION}.tgz"))
        .exists());
}

#[test]
fn the_package_script_refuses_what_it_cannot_package() {
    let t = tempfile::tempdir().expect("tempdir");
    let out_dir = t.path().join("out");
    let out_dir = out_dir.to_string_lossy();
    let fake = fake_binary(t.path(), "fake");
    let plain = t.path().join("plain");
    fs::write(&plain, "x").expect("write");
    let cases: Vec<(Vec<String>, &str)> = vec![
        (vec![], "no OUT_DIR given"),
        (
            vec![
                out_dir.to_string(),
                "--binary".into(),
                format!("windows-x64={}", fake.display()),
            ],
            "unknown platform windows-x64",
        ),
        (
            vec![
                out_dir.to_string(),
                "--binary".into(),
                format!("darwin-x64={}", fake.display()),
                "--binary".into(),
                format!("darwin-x64={}", fake.display()),
            ],
            "two binaries for darwin-x64",
        ),
        (
            vec![
                out_dir.to_string(),
                "--binary".into(),
                format!("darwin-x64={}", plain.display()),
            ],
            "is not an executable file",
        ),
        (
            vec![
                out_dir.to_string(),
                "--binary".into(),
                fake.display().to_string(),
            ],
            "answers --version with",
        ),
        (
            vec![out_dir.to_string(), "--bogus".into()],
            "unknown option: --bogus",
        ),
    ];
    for (args, needle) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = package(&args);
        let t = text(&out);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {t}");
        assert!(t.contains(needle), "{args:?}: {needle}: {t}");
    }
}
