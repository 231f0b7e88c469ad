//! A scratch home for a benchmark: a folder under the system's temporary folder with a
//! project (a git work tree) in it, removed when dropped.

use std::path::PathBuf;

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
