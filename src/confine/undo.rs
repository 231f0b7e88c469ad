//! Saves a project's files before a `project` call and brings back what the call changed.
//!
//! The project's files are saved as git trees in a repository of the product's own, in the
//! state folder (`undo/<name>.git`), with the project as its work tree: the project's
//! index, stash, HEAD, refs and settings are never touched, and a project that is not a
//! git repository is saved the same way. The project's `.gitignore` files are honoured
//! (and build folders such as `target/` and `node_modules/` left out), so ignored files are
//! not saved. Each run is a line of `undo/<session>.jsonl`: the tree before the call and
//! the tree after it; `undo` brings each file the call changed or deleted back to its
//! state before, and removes each file it created, unless the file has changed again since
//! (then it is left and named).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};

/// Left out of every save, beside the project's own ignore files.
const EXCLUDE: &str = "node_modules/\ntarget/\n.venv/\nvenv/\n__pycache__/\n.mypy_cache/\n.pytest_cache/\n.ruff_cache/\n.gradle/\nbuild/\ndist/\n.next/\n.tox/\n";

/// One saved run.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Saved {
    pub time: String,
    pub project: PathBuf,
    pub store: PathBuf,
    pub before: String,
    pub after: String,
    pub command: String,
}

/// The folder of the saves.
pub fn dir(state: &Path) -> PathBuf {
    state.join("undo")
}

/// The store of a project: one per project folder.
pub fn store_of(state: &Path, project: &Path) -> PathBuf {
    use sha2::{Digest, Sha256};
    let h = Sha256::digest(project.as_os_str().as_encoded_bytes());
    let name: String = h.iter().take(8).map(|b| format!("{b:02x}")).collect();
    dir(state).join(format!("{name}.git"))
}

fn git(store: &Path, project: &Path) -> Command {
    let mut c = Command::new("git");
    c.arg(format!("--git-dir={}", store.display()))
        .arg(format!("--work-tree={}", project.display()))
        .args([
            "-c",
            "core.autocrlf=false",
            "-c",
            "core.fsmonitor=false",
            "-c",
            "core.hooksPath=/dev/null",
        ])
        .env_remove("GIT_DIR")
        .env_remove("GIT_WORK_TREE")
        .env_remove("GIT_INDEX_FILE")
        .env_remove("GIT_OBJECT_DIRECTORY")
        .env_remove("GIT_ALTERNATE_OBJECT_DIRECTORIES")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .current_dir(project)
        .stdin(Stdio::null());
    c
}

fn output(mut c: Command, what: &str) -> Result<String> {
    let out = c
        .stderr(Stdio::piped())
        .stdout(Stdio::piped())
        .output()
        .with_context(|| format!("could not run git to {what} (is git installed?)"))?;
    if !out.status.success() {
        bail!(
            "git could not {what}: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Saves the project's files now: the id of the tree.
pub fn save(state: &Path, project: &Path) -> Result<String> {
    let store = store_of(state, project);
    if !store.join("HEAD").exists() {
        std::fs::create_dir_all(&store)?;
        let mut c = Command::new("git");
        c.args(["init", "--bare", "-q"])
            .arg(&store)
            .stdin(Stdio::null());
        output(c, "make the store for undo")?;
        std::fs::create_dir_all(store.join("info"))?;
        std::fs::write(store.join("info/exclude"), EXCLUDE)?;
    }
    let mut add = git(&store, project);
    add.args(["add", "-A", "--ignore-errors", "."]);
    // A file that cannot be read is left out, not a failure of the save.
    let _ = output(add, "save the project's files");
    output(
        {
            let mut c = git(&store, project);
            c.arg("write-tree");
            c
        },
        "save the project's files",
    )
}

/// Records a run in the session's list, and keeps its trees from git's clean-up.
pub fn record(state: &Path, session: &str, s: &Saved) -> Result<()> {
    let safe: String = session
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect();
    if safe.is_empty() {
        bail!("no session to record the save under");
    }
    let n = list(state, session).map(|l| l.len()).unwrap_or(0);
    for (name, tree) in [("before", &s.before), ("after", &s.after)] {
        let mut c = Command::new("git");
        c.arg(format!("--git-dir={}", s.store.display()))
            .args([
                "update-ref",
                &format!("refs/programmer-hook/{safe}/{n}/{name}"),
                tree,
            ])
            .stdin(Stdio::null());
        output(c, "keep the saved files")?;
    }
    let path = dir(state).join(format!("{safe}.jsonl"));
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .with_context(|| format!("opening {}", path.display()))?;
    writeln!(f, "{}", serde_json::to_string(s)?)?;
    Ok(())
}

/// The saved runs of a session, oldest first.
pub fn list(state: &Path, session: &str) -> Result<Vec<Saved>> {
    let safe: String = session
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
        .collect();
    let path = dir(state).join(format!("{safe}.jsonl"));
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(e).with_context(|| format!("reading {}", path.display())),
    };
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            serde_json::from_str(l)
                .with_context(|| format!("a line of {} is not a saved run", path.display()))
        })
        .collect()
}

/// What `undo` did to one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Undone {
    Restored(String),
    Removed(String),
    /// Changed again since the run: left as it is.
    Left(String),
}

/// Brings back the files a run changed, deleted or created, as they were before it.
pub fn undo(s: &Saved, force: bool) -> Result<Vec<Undone>> {
    let mut c = git(&s.store, &s.project);
    c.args([
        "diff-tree",
        "-r",
        "--no-renames",
        "--name-status",
        "-z",
        &s.before,
        &s.after,
    ]);
    let out = c
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .context("could not run git")?;
    if !out.status.success() {
        bail!(
            "git could not compare the saved files: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    let fields: Vec<&[u8]> = out
        .stdout
        .split(|b| *b == 0)
        .filter(|f| !f.is_empty())
        .collect();
    let mut done = Vec::new();
    for pair in fields.chunks(2) {
        let [status, path] = pair else { continue };
        let path = String::from_utf8_lossy(path).to_string();
        let full = s.project.join(&path);
        // What the file is now must be what the run left, unless forced.
        let now = blob_id(&s.store, &s.project, &full);
        let after = tree_blob(&s.store, &s.project, &s.after, &path);
        if !force && now != after {
            done.push(Undone::Left(path));
            continue;
        }
        if status.first() == Some(&b'A') {
            std::fs::remove_file(&full).with_context(|| format!("removing {}", full.display()))?;
            done.push(Undone::Removed(path));
        } else {
            let tmp_index = s.store.join(format!("undo-index-{}", std::process::id()));
            let mut c = git(&s.store, &s.project);
            c.env("GIT_INDEX_FILE", &tmp_index)
                .args(["checkout", &s.before, "--"])
                .arg(&path);
            let r = output(c, "bring the file back");
            let _ = std::fs::remove_file(&tmp_index);
            r?;
            done.push(Undone::Restored(path));
        }
    }
    Ok(done)
}

fn blob_id(store: &Path, project: &Path, full: &Path) -> Option<String> {
    if !full.is_file() {
        return None;
    }
    let mut c = git(store, project);
    c.args(["hash-object", "--no-filters"]).arg(full);
    output(c, "hash a file").ok()
}

fn tree_blob(store: &Path, project: &Path, tree: &str, path: &str) -> Option<String> {
    let mut c = git(store, project);
    c.args(["rev-parse", "-q", "--verify", &format!("{tree}:{path}")]);
    output(c, "find a saved file").ok()
}
