//! The state dir and safe file writes.
//!
//! The state dir is `$PROGRAMMER_STATE_DIR`, else `$CLAUDE_CONFIG_DIR/state/programmer`,
//! else `~/.claude/state/programmer`. Every write of a state file takes an exclusive lock on
//! a sibling `.lock` file, writes a temporary file in the same folder, syncs it and renames
//! it over the old one, so a reader sees the old or the new file and never half of one, and
//! concurrent hook processes never lose each other's updates. A file that does not parse is
//! moved aside (never overwritten) and reported.

use std::fs::{self, File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::engine::paths::Places;
use crate::workflow::installed;

/// The user's home folder.
pub fn home_dir() -> Option<PathBuf> {
    std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)
        .or_else(std::env::home_dir)
}

/// Claude Code's config dir: `$CLAUDE_CONFIG_DIR`, else `~/.claude`.
pub fn config_dir(home: &Path) -> PathBuf {
    match std::env::var_os("CLAUDE_CONFIG_DIR").filter(|v| !v.is_empty()) {
        Some(d) => PathBuf::from(d),
        None => home.join(".claude"),
    }
}

/// The product's state dir.
pub fn state_dir(home: &Path) -> PathBuf {
    if let Some(d) = std::env::var_os("PROGRAMMER_STATE_DIR").filter(|v| !v.is_empty()) {
        return PathBuf::from(d);
    }
    config_dir(home).join("state").join("programmer")
}

/// The places path patterns refer to, from the environment.
pub fn places() -> Result<Places> {
    let home = home_dir().context("cannot tell the home folder: HOME is not set")?;
    let config_dir = config_dir(&home);
    // The binaries the installed hook entries run are protected like the running one. A
    // settings file that cannot be read names none (doctor reports it).
    let binary = std::env::current_exe().ok();
    let mut installed = fs::read_to_string(config_dir.join("settings.json"))
        .map(|text| installed::installed_binaries(&text, &home))
        .unwrap_or_default();
    installed.retain(|b| Some(b) != binary.as_ref());
    Ok(Places {
        state_dir: state_dir(&home),
        config_dir,
        binary,
        installed,
        home,
        cdpath: std::env::var_os("CDPATH").is_some_and(|v| !v.is_empty()),
    })
}

/// An exclusive lock on `<path>.lock`, released when dropped.
pub struct Lock {
    _file: File,
}

/// Locks `path` for a read-modify-write.
pub fn lock(path: &Path) -> Result<Lock> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    }
    let lock_path = sibling(path, ".lock");
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .with_context(|| format!("cannot open lock file {}", lock_path.display()))?;
    file.lock()
        .with_context(|| format!("cannot lock {}", lock_path.display()))?;
    Ok(Lock { _file: file })
}

fn sibling(path: &Path, suffix: &str) -> PathBuf {
    let mut name = path
        .file_name()
        .map(|n| n.to_os_string())
        .unwrap_or_default();
    name.push(suffix);
    path.with_file_name(name)
}

/// A name beside `path` that nothing uses yet: `FILE.LABEL-STAMP`, with `-N` added when
/// that is taken, so a file kept aside never replaces an earlier one.
pub fn free_sibling(path: &Path, label: &str) -> PathBuf {
    let base = sibling(path, &format!(".{label}-{}", super::clock::file_stamp()));
    let mut candidate = base.clone();
    let mut n = 1;
    while candidate.symlink_metadata().is_ok() {
        candidate = sibling(&base, &format!("-{n}"));
        n += 1;
    }
    candidate
}

/// Writes `bytes` to `path` atomically (temporary file, sync, rename).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let tmp = sibling(path, &format!(".tmp.{}", std::process::id()));
    let result = (|| -> Result<()> {
        let mut f =
            File::create(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
        f.write_all(bytes)
            .with_context(|| format!("cannot write {}", tmp.display()))?;
        f.sync_all()
            .with_context(|| format!("cannot sync {}", tmp.display()))?;
        fs::rename(&tmp, path).with_context(|| format!("cannot replace {}", path.display()))?;
        Ok(())
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// Writes the backup `path` of a file about to change: a new file (never one that exists),
/// synced before the original is replaced.
pub fn write_backup(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut f = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .with_context(|| format!("cannot create the backup {}", path.display()))?;
    f.write_all(bytes)
        .and_then(|_| f.sync_all())
        .with_context(|| format!("cannot write the backup {}", path.display()))
}

/// The outcome of reading a JSON state file.
pub enum Loaded<T> {
    Missing,
    Ok(T),
    /// The file did not parse; it was moved to `kept` and must be reported.
    Corrupt {
        kept: PathBuf,
        error: String,
    },
}

/// Reads a JSON file. A file that does not parse is moved aside under a new name.
pub fn read_json<T: DeserializeOwned>(path: &Path) -> Result<Loaded<T>> {
    let bytes = match fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Loaded::Missing),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    match serde_json::from_slice::<T>(&bytes) {
        Ok(v) => Ok(Loaded::Ok(v)),
        Err(e) => {
            let kept = free_sibling(path, "corrupt");
            fs::rename(path, &kept)
                .with_context(|| format!("cannot move corrupt {} aside", path.display()))?;
            Ok(Loaded::Corrupt {
                kept,
                error: e.to_string(),
            })
        }
    }
}

/// Writes a value as pretty JSON, atomically.
pub fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<()> {
    let mut bytes = serde_json::to_vec_pretty(value).context("cannot serialise state")?;
    bytes.push(b'\n');
    write_atomic(path, &bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atomic_write_and_corrupt_file_kept() {
        let dir = tempfile::tempdir().expect("tempdir");
        let p = dir.path().join("a.json");
        write_json(&p, &serde_json::json!({"a": 1})).expect("write");
        match read_json::<serde_json::Value>(&p).expect("read") {
            Loaded::Ok(v) => assert_eq!(v["a"], 1),
            _ => panic!("expected a value"),
        }
        fs::write(&p, b"{not json").expect("corrupt");
        match read_json::<serde_json::Value>(&p).expect("read") {
            Loaded::Corrupt { kept, .. } => {
                assert_eq!(fs::read(&kept).expect("kept"), b"{not json");
                assert!(!p.exists());
            }
            _ => panic!("expected corrupt"),
        }
    }
}

/// The per-session file: the workflow and what was last done with user prompts.
#[derive(Debug, Clone, Default, serde::Serialize, serde::Deserialize)]
pub struct SessionFile {
    #[serde(default)]
    pub session: String,
    #[serde(default)]
    pub workflow: Option<crate::workflow::Workflow>,
    /// The last user prompt acted on (`prompt_id`, or its text), so that the
    /// UserPromptSubmit and UserPromptExpansion of one prompt count once.
    #[serde(default)]
    pub last_prompt: Option<String>,
    /// Which subagents run and which role holds each.
    #[serde(default)]
    pub agents: crate::workflow::roles::Agents,
}

/// A file-name-safe form of a session id.
pub fn session_key(id: &str) -> String {
    let ok = !id.is_empty()
        && id.len() <= 128
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if ok {
        id.to_string()
    } else {
        crate::workflow::fingerprint(id.as_bytes()).replace(':', "-")
    }
}

pub fn session_path(state_dir: &Path, id: &str) -> PathBuf {
    state_dir
        .join("sessions")
        .join(format!("{}.json", session_key(id)))
}

/// Reads a session. A corrupt file is kept aside and the session is halted (never relaxed),
/// with a note saying where the old file went.
pub fn load_session(state_dir: &Path, id: &str) -> Result<SessionFile> {
    let path = session_path(state_dir, id);
    Ok(match read_json::<SessionFile>(&path)? {
        Loaded::Ok(s) => s,
        Loaded::Missing => SessionFile {
            session: id.to_string(),
            ..SessionFile::default()
        },
        Loaded::Corrupt { kept, error } => {
            let w = crate::workflow::Workflow::halted(
                format!(
                    "The session's state file was not valid JSON ({error}); it was kept as {}. Type `/programmer abort` to clear the workflow or `/programmer continue` to resume.",
                    kept.display()
                ),
                &super::clock::now(),
            );
            let s = SessionFile {
                session: id.to_string(),
                workflow: Some(w),
                last_prompt: None,
                agents: Default::default(),
            };
            write_json(&path, &s)?;
            s
        }
    })
}

/// Reads, changes and writes a session under its lock.
pub fn update_session<R>(
    state_dir: &Path,
    id: &str,
    f: impl FnOnce(&mut SessionFile) -> R,
) -> Result<R> {
    let path = session_path(state_dir, id);
    let _lock = lock(&path)?;
    let mut s = load_session(state_dir, id)?;
    let before = serde_json::to_vec(&s).ok();
    let r = f(&mut s);
    if serde_json::to_vec(&s).ok() != before {
        write_json(&path, &s)?;
    }
    Ok(r)
}

/// Recent session files, newest first.
pub fn recent_sessions(state_dir: &Path, limit: usize) -> Vec<SessionFile> {
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = fs::read_dir(state_dir.join("sessions"))
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    files.sort_by_key(|f| std::cmp::Reverse(f.0));
    files
        .into_iter()
        .take(limit)
        .filter_map(|(_, p)| {
            fs::read(&p)
                .ok()
                .and_then(|b| serde_json::from_slice(&b).ok())
        })
        .collect()
}

pub fn autonomy_path(state_dir: &Path) -> PathBuf {
    state_dir.join("session-autonomy.json")
}

/// The session's autonomy. Anything unreadable means `confirm` (never a relaxation).
pub fn autonomy(state_dir: &Path, id: &str) -> crate::workflow::Autonomy {
    fs::read(autonomy_path(state_dir))
        .ok()
        .and_then(|b| {
            serde_json::from_slice::<std::collections::BTreeMap<String, crate::workflow::Autonomy>>(
                &b,
            )
            .ok()
        })
        .and_then(|m| m.get(id).copied())
        .unwrap_or_default()
}

/// Sets the session's autonomy.
pub fn set_autonomy(state_dir: &Path, id: &str, a: crate::workflow::Autonomy) -> Result<()> {
    let path = autonomy_path(state_dir);
    let _lock = lock(&path)?;
    let mut map: std::collections::BTreeMap<String, crate::workflow::Autonomy> =
        match read_json(&path)? {
            Loaded::Ok(m) => m,
            Loaded::Missing => Default::default(),
            Loaded::Corrupt { kept, .. } => {
                eprintln!(
                    "warning: {} was not valid JSON; it was kept as {}",
                    path.display(),
                    kept.display()
                );
                Default::default()
            }
        };
    match a {
        crate::workflow::Autonomy::Confirm => {
            map.remove(id);
        }
        crate::workflow::Autonomy::Auto => {
            map.insert(id.to_string(), a);
        }
    }
    write_json(&path, &map)
}

/// The user's preferences file, as text for the agents (empty when absent or invalid).
pub fn preferences(state_dir: &Path) -> Option<String> {
    let v: serde_json::Value =
        serde_json::from_slice(&fs::read(state_dir.join("preferences.json")).ok()?).ok()?;
    let empty = v.as_object().is_some_and(|o| {
        o.values()
            .all(|x| x.as_object().is_some_and(|m| m.is_empty()))
    });
    (!empty).then(|| v.to_string())
}
