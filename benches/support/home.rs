//! A scratch home for a benchmark: a folder under the system's temporary folder with a
//! project (a git work tree) in it, removed when dropped; and one timed run of the hook
//! in a home.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `bin hook` with `home` as its home and `input` on its stdin, as Claude Code does:
/// the wall time of the whole process, and what it printed.
pub fn run_hook(bin: &Path, home: &Path, input: &[u8]) -> (Duration, Vec<u8>) {
    let start = Instant::now();
    let mut child = Command::new(bin)
        .arg("hook")
        .env("HOME", home)
        .env_remove("PROGRAMMER_STATE_DIR")
        .env_remove("CLAUDE_CONFIG_DIR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(input);
    }
    let out = child.wait_with_output().expect("wait");
    assert!(out.status.code().is_some(), "killed by a signal");
    (start.elapsed(), out.stdout)
}

pub struct Home {
    pub dir: PathBuf,
}

impl Home {
    /// `programmer-hook-BENCH-PID-NAME` under the temporary folder, made afresh.
    pub fn new(bench: &str, name: &str) -> Home {
        let dir = std::env::temp_dir().join(format!(
            "programmer-hook-{bench}-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("project/.git")).expect("home");
        Home { dir }
    }
    /// The hook's state dir in this home.
    pub fn state(&self) -> PathBuf {
        self.dir.join(".claude/state/programmer")
    }
    pub fn project(&self) -> PathBuf {
        self.dir.join("project")
    }
}

impl Drop for Home {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
