//! The user's files, changed with care: a JSON file (`settings.json`, a
//! `model-policy.json`) is parsed and left untouched when it does not parse, and written
//! back only when the edit changed it, in the indentation it had, through a symlink to
//! its target, with its permissions; and before any file of the user's is replaced, a
//! copy of the old one is kept next to it (one backup a file, the newest).

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::Serialize;
use serde_json::{json, Value};

use crate::workflow::{clock, state};

/// What an edit of a JSON file did.
#[derive(Debug)]
pub enum FileChange {
    Unchanged,
    /// Written (or, in a dry run, would be); the backup of the old file, if there was one.
    Changed {
        backup: Option<PathBuf>,
    },
}

impl FileChange {
    /// Whether the file was (or, in a dry run, would be) written.
    pub fn changed(&self) -> bool {
        matches!(self, FileChange::Changed { .. })
    }
}

/// Reads a JSON file, applies `edit`, and writes the result back if it differs: a backup
/// first, then an atomic replace that keeps the file's permissions (and, for a symlink,
/// writes its target). A file that is not valid JSON is left untouched and is an error.
/// A missing file counts as `{}` when `create` is set, and is an error otherwise.
pub fn edit_json_file(
    path: &Path,
    dry_run: bool,
    create: bool,
    edit: impl FnOnce(&mut Value) -> Result<()>,
) -> Result<FileChange> {
    let old = match fs::read(path) {
        Ok(b) => Some(b),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && create => None,
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let mut value = match &old {
        Some(bytes) if !bytes.iter().all(u8::is_ascii_whitespace) => {
            serde_json::from_slice::<Value>(bytes).with_context(|| {
                format!(
                    "{} is not valid JSON, so it was left untouched; fix it (or move it away) and run this again",
                    path.display()
                )
            })?
        }
        _ => json!({}),
    };
    let before = value.clone();
    edit(&mut value).with_context(|| format!("cannot update {}", path.display()))?;
    if old.is_some() && same_json(&before, &value) {
        return Ok(FileChange::Unchanged);
    }
    let indent = old.as_deref().map(detect_indent).unwrap_or(b"  ".to_vec());
    let mut text = to_pretty(&value, &indent)?;
    text.push(b'\n');
    // One backup a run: a second change of the file in the same run (the sandbox after
    // the hook entries) keeps the first one's, the file as it was before the run.
    let earlier = backed_up_in_this_run(path);
    let backup = match &earlier {
        Some(b) => Some(b.clone()),
        None => old.as_ref().map(|_| backup_name(path)),
    };
    if dry_run {
        return Ok(FileChange::Changed { backup });
    }
    // Write through a symlink (dotfile managers link settings.json) instead of replacing it.
    let target = match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => fs::canonicalize(path)
            .with_context(|| format!("cannot follow the symlink {}", path.display()))?,
        _ => path.to_path_buf(),
    };
    let perms = fs::metadata(&target).ok().map(|m| m.permissions());
    if let (None, Some(b), Some(bytes)) = (&earlier, &backup, &old) {
        state::write_backup(b, bytes)?;
        prune_backups(path, KEPT_BACKUPS);
        if let Ok(mut done) = BACKED_UP.lock() {
            done.push((path.to_path_buf(), b.clone()));
        }
    }
    state::write_atomic(&target, &text)?;
    if let Some(p) = perms {
        fs::set_permissions(&target, p)
            .with_context(|| format!("cannot restore the permissions of {}", target.display()))?;
    }
    Ok(FileChange::Changed { backup })
}

/// The files this process has backed up, with their backups.
static BACKED_UP: std::sync::Mutex<Vec<(PathBuf, PathBuf)>> = std::sync::Mutex::new(Vec::new());

/// The backup this process made of `path` already, if it made one that is still there.
fn backed_up_in_this_run(path: &Path) -> Option<PathBuf> {
    let done = BACKED_UP.lock().ok()?;
    done.iter()
        .rev()
        .find(|(p, b)| p == path && b.exists())
        .map(|(_, b)| b.clone())
}

/// Order-sensitive equality, so that an edit that only moves keys still counts.
pub(crate) fn same_json(a: &Value, b: &Value) -> bool {
    serde_json::to_string(a).ok() == serde_json::to_string(b).ok()
}

/// The indentation a JSON text uses (its first indented line), default two spaces.
fn detect_indent(text: &[u8]) -> Vec<u8> {
    for line in text.split(|&b| b == b'\n').skip(1) {
        let ws: Vec<u8> = line
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .copied()
            .collect();
        if !ws.is_empty() && ws.len() < line.len() {
            return ws;
        }
    }
    b"  ".to_vec()
}

fn to_pretty(value: &Value, indent: &[u8]) -> Result<Vec<u8>> {
    let mut out = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(indent);
    let mut ser = serde_json::Serializer::with_formatter(&mut out, fmt);
    value.serialize(&mut ser).context("cannot serialise JSON")?;
    Ok(out)
}

/// How many backups of one file are kept (`install.sh` keeps as many): the file as it was
/// before the last change, not one per run.
pub const KEPT_BACKUPS: usize = 1;

/// Removes all but the newest `keep` backups of `path` (`<file>.bak-STAMP[-N]`). A backup
/// that cannot be removed stays: keeping too many is better than failing the install.
pub fn prune_backups(path: &Path, keep: usize) {
    let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else {
        return;
    };
    let prefix = format!("{}.bak-", name.to_string_lossy());
    let Ok(entries) = fs::read_dir(if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    }) else {
        return;
    };
    let mut backups: Vec<(String, PathBuf)> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let n = e.file_name().to_string_lossy().to_string();
            let stamp = n.strip_prefix(&prefix)?;
            // STAMP, then `-N` for a second backup in the same second: order by both.
            let (s, k) = stamp.split_once('-').unwrap_or((stamp, "0"));
            let key = format!("{s:0>20}-{k:0>6}");
            Some((key, e.path()))
        })
        .collect();
    backups.sort();
    let extra = backups.len().saturating_sub(keep);
    for (_, p) in backups.into_iter().take(extra) {
        let _ = fs::remove_file(p);
    }
}

/// `<file>.bak-YYYYmmddHHMMSS`, with `-N` added when a backup of that second is there:
/// one more than the highest, so that the new backup sorts after it (a name freed by
/// pruning is not taken again).
pub fn backup_name(path: &Path) -> PathBuf {
    let stamp = clock::file_stamp();
    let base = format!("{}.bak-{stamp}", path.display());
    let name = Path::new(&base)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let highest = fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            match n.strip_prefix(&name)? {
                "" => Some(0),
                rest => rest.strip_prefix('-')?.parse::<u64>().ok(),
            }
        })
        .max();
    match highest {
        None => PathBuf::from(base),
        Some(n) => PathBuf::from(format!("{base}-{}", n + 1)),
    }
}
