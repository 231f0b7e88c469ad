//! Scratch folders that outlive one test but not the test binary: a machine made once per
//! binary (a `static`, which Rust never drops) is removed when the process exits, whether
//! its tests passed or failed, and a folder left by a binary that was killed is removed by
//! the next run. Folders are named `NAME-PID` so that a run can tell whose they are.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// The folders to remove when the process exits.
static AT_EXIT: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

extern "C" fn remove_registered() {
    let dirs = match AT_EXIT.lock() {
        Ok(mut d) => std::mem::take(&mut *d),
        Err(poisoned) => std::mem::take(&mut *poisoned.into_inner()),
    };
    for d in dirs {
        let _ = std::fs::remove_dir_all(d);
    }
}

/// Removes `dir` when the process exits: on the test harness's normal return and on its
/// `exit` after failed tests alike (both run the C library's exit handlers).
pub fn remove_at_exit(dir: &Path) {
    let mut dirs = AT_EXIT.lock().unwrap_or_else(|p| p.into_inner());
    if dirs.is_empty() {
        // SAFETY: `remove_registered` is a plain function that touches only the list.
        unsafe {
            libc::atexit(remove_registered);
        }
    }
    dirs.push(dir.to_path_buf());
}

/// A fresh folder `root/NAME-PID` for this process, removed when it exits; the folders
/// `NAME-PID` in `root` whose process is gone (killed before it could clean up) are removed
/// first.
pub fn process_dir(root: &Path, name: &str) -> PathBuf {
    sweep(root, name);
    let dir = root.join(format!("{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    remove_at_exit(&dir);
    dir
}

/// Removes the folders `root/NAME-PID` of processes that no longer run.
pub fn sweep(root: &Path, name: &str) {
    let Ok(entries) = std::fs::read_dir(root) else {
        return;
    };
    let prefix = format!("{name}-");
    for e in entries.filter_map(|e| e.ok()) {
        let file = e.file_name();
        let Some(pid) = file
            .to_str()
            .and_then(|f| f.strip_prefix(&prefix))
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !running(pid) {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// Whether a process `pid` runs (signal 0 checks without sending anything; EPERM means it
/// runs as someone else).
fn running(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return false;
    };
    // SAFETY: kill with signal 0 only checks that the process exists.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// Puts the binary at `to` without a second copy on disk when it can (a hard link to the
/// one cargo built), else copies it.
pub fn place_binary(from: &Path, to: &Path) {
    if std::fs::hard_link(from, to).is_err() {
        std::fs::copy(from, to).expect("copy the binary");
    }
}
