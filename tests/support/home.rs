//! A scratch home for tests that run the binary: a temporary folder as `HOME`, with the
//! git project `work/demo` in it registered by `add-project`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The binary, run with `home` as its home and working folder, and without the variables
/// that would point it at another state, config or project dir; its managed folder (a
/// test build's, see `hook::sandbox_settings::managed_dir`) is `home/managed`.
pub fn command(home: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_programmer-hook"));
    c.env("HOME", home)
        .env_remove("PROGRAMMER_STATE_DIR")
        .env_remove("CLAUDE_CONFIG_DIR")
        .env_remove("CLAUDE_PROJECT_DIR")
        .env("PROGRAMMER_HOOK_TEST_MANAGED_DIR", home.join("managed"))
        .env("PROGRAMMER_HOOK_TEST_NO_CONFINE", "1")
        .current_dir(home);
    c
}

/// A fresh home holding the project `work/demo` (with `.git` and the folders `dirs`),
/// registered as `demo` by `add-project --name demo --path …` and `args`.
pub fn with_project(dirs: &[&str], args: &[&str]) -> (tempfile::TempDir, PathBuf) {
    let home = tempfile::tempdir().expect("tempdir");
    let project = home.path().join("work/demo");
    for d in dirs.iter().chain(&[".git"]) {
        std::fs::create_dir_all(project.join(d)).expect("mkdir");
    }
    let out = command(home.path())
        .args(["add-project", "--name", "demo", "--path"])
        .arg(&project)
        .args(args)
        .output()
        .expect("add-project runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    (home, project)
}
