//! Keeps the protected paths inside the project as they were across a `project` call.
//!
//! Landlock grants a folder whole, so a `project` call can write anywhere in the project;
//! but some paths there run later or change what Claude Code loads (`.git/hooks`,
//! `.git/config`, `.claude/settings.json`, the runs-later files such as `.envrc`). The
//! guard reads them before the call and puts them back after it: a changed or deleted one
//! is written back, a new one is moved to the state folder's quarantine. It reports each.

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

/// The most files and bytes the guard keeps: a project with more protected files than
/// this is not run confined in `project` (the call fails before it runs).
const MAX_FILES: usize = 4000;
const MAX_BYTES: usize = 64 << 20;

/// Folders under a guarded root that are never protected content (git's object store).
const SKIP: &[&str] = &["objects", "refs", "logs", "lfs"];

/// What the protected paths of a project held: relative path → (content, mode).
#[derive(Debug, Default)]
pub struct Kept {
    root: PathBuf,
    patterns: Vec<String>,
    files: BTreeMap<PathBuf, (Vec<u8>, u32)>,
}

/// The relative patterns of the policy's protected and runs-later lists that can be looked
/// for inside a project (those that start with a plain name).
pub fn project_patterns<'a>(lists: impl Iterator<Item = &'a str>) -> Vec<String> {
    lists
        .filter(|p| !p.starts_with(['~', '/', '{', '*', '?', '[']))
        .map(str::to_string)
        .collect()
}

/// Reads the files of `root` that match `patterns`.
pub fn keep(root: &Path, patterns: &[String]) -> Result<Kept> {
    let mut k = Kept {
        root: root.to_path_buf(),
        patterns: patterns.to_vec(),
        files: BTreeMap::new(),
    };
    let mut bytes = 0usize;
    for rel in matching(root, patterns)? {
        let full = root.join(&rel);
        let content =
            std::fs::read(&full).with_context(|| format!("reading {}", full.display()))?;
        let mode = std::fs::metadata(&full)?.permissions().mode();
        bytes += content.len();
        if k.files.len() >= MAX_FILES || bytes > MAX_BYTES {
            bail!("the project holds more protected files than the guard keeps ({MAX_FILES} files, {} MB)", MAX_BYTES >> 20);
        }
        k.files.insert(rel, (content, mode));
    }
    Ok(k)
}

/// Puts every protected file back as it was; a new one is moved into `quarantine`.
/// Returns what was put back, one line each.
pub fn restore(k: &Kept, quarantine: &Path) -> Result<Vec<String>> {
    let mut notes = Vec::new();
    let now = matching(&k.root, &k.patterns)?;
    for rel in &now {
        if k.files.contains_key(rel) {
            continue;
        }
        let from = k.root.join(rel);
        let to = quarantine.join(rel);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::rename(&from, &to)
            .or_else(|_| std::fs::copy(&from, &to).and_then(|_| std::fs::remove_file(&from)))
            .with_context(|| format!("moving {} away", from.display()))?;
        notes.push(format!(
            "{} was created; moved to {}",
            rel.display(),
            to.display()
        ));
    }
    for (rel, (content, mode)) in &k.files {
        let full = k.root.join(rel);
        let same = std::fs::read(&full).ok().as_ref() == Some(content)
            && std::fs::metadata(&full)
                .map(|m| m.permissions().mode())
                .ok()
                == Some(*mode);
        if same {
            continue;
        }
        let existed = full.exists();
        if let Some(parent) = full.parent() {
            std::fs::create_dir_all(parent)?;
        }
        if std::fs::symlink_metadata(&full).is_ok_and(|m| !m.is_file()) {
            let _ = std::fs::remove_dir_all(&full).or_else(|_| std::fs::remove_file(&full));
        }
        let tmp = full.with_extension("programmer-hook-restore");
        std::fs::write(&tmp, content)?;
        std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(*mode))?;
        std::fs::rename(&tmp, &full)?;
        notes.push(format!(
            "{} was {}; put back",
            rel.display(),
            if existed { "changed" } else { "deleted" }
        ));
    }
    Ok(notes)
}

/// The files under `root` that match a pattern, relative to it.
fn matching(root: &Path, patterns: &[String]) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    for p in patterns {
        let parts: Vec<&str> = p.split('/').filter(|s| !s.is_empty()).collect();
        let literal: Vec<&str> = parts
            .iter()
            .take_while(|c| !c.contains(['*', '?', '[']))
            .copied()
            .collect();
        let base = root.join(literal.join("/"));
        walk(&base, root, &parts, &mut out, 0)?;
    }
    out.sort();
    out.dedup();
    Ok(out)
}

fn walk(
    at: &Path,
    root: &Path,
    parts: &[&str],
    out: &mut Vec<PathBuf>,
    depth: usize,
) -> Result<()> {
    if depth > 12 || out.len() > MAX_FILES {
        return Ok(());
    }
    let Ok(meta) = std::fs::symlink_metadata(at) else {
        return Ok(());
    };
    let rel = at.strip_prefix(root).unwrap_or(at).to_path_buf();
    if meta.is_file() || meta.file_type().is_symlink() {
        let comps: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().to_string())
            .collect();
        let comps: Vec<&str> = comps.iter().map(String::as_str).collect();
        if glob(parts, &comps) && meta.is_file() {
            out.push(rel);
        }
        return Ok(());
    }
    if meta.is_dir() {
        for e in std::fs::read_dir(at)? {
            let e = e?;
            let name = e.file_name();
            if depth > 0 && SKIP.iter().any(|s| name == *s) {
                continue;
            }
            walk(&e.path(), root, parts, out, depth + 1)?;
        }
    }
    Ok(())
}

/// Whether path components match pattern components (`**` any number of components, `*`
/// and `?` within one).
pub fn glob(pat: &[&str], path: &[&str]) -> bool {
    match pat.split_first() {
        None => path.is_empty(),
        Some((&"**", rest)) => (0..=path.len()).any(|i| glob(rest, &path[i..])),
        Some((p, rest)) => match path.split_first() {
            Some((c, tail)) => component(p.as_bytes(), c.as_bytes()) && glob(rest, tail),
            None => false,
        },
    }
}

fn component(p: &[u8], s: &[u8]) -> bool {
    match p.split_first() {
        None => s.is_empty(),
        Some((b'*', rest)) => (0..=s.len()).any(|i| component(rest, &s[i..])),
        Some((b'?', rest)) => !s.is_empty() && component(rest, &s[1..]),
        Some((c, rest)) => s.first() == Some(c) && component(rest, &s[1..]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        let cases: &[(&str, &str, bool)] = &[
            (".git/hooks/**", ".git/hooks/pre-commit", true),
            (".git/hooks/**", ".git/hooksx/a", false),
            (".git/config", ".git/config", true),
            (".git/config", ".git/config.worktree", false),
            (".git/modules/**/config", ".git/modules/a/b/config", true),
            (".husky/**", ".husky/_/h", true),
            ("site-packages/*.pth", "site-packages/x.pth", true),
            (".envrc", "sub/.envrc", false),
        ];
        for (p, path, want) in cases {
            let pp: Vec<&str> = p.split('/').collect();
            let cc: Vec<&str> = path.split('/').collect();
            assert_eq!(glob(&pp, &cc), *want, "{p} {path}");
        }
    }

    #[test]
    fn puts_back_changed_deleted_and_new_files() {
        let d = tempfile::tempdir().unwrap();
        let root = d.path().join("p");
        std::fs::create_dir_all(root.join(".git/hooks")).unwrap();
        std::fs::write(root.join(".git/config"), "[core]\n").unwrap();
        std::fs::write(root.join(".git/hooks/pre-push"), "#!/bin/sh\n").unwrap();
        let pats =
            project_patterns([".git/config", ".git/hooks/**", ".envrc", "~/.ssh/**"].into_iter());
        let kept = keep(&root, &pats).unwrap();
        std::fs::write(root.join(".git/config"), "[core]\nfsmonitor = evil\n").unwrap();
        std::fs::remove_file(root.join(".git/hooks/pre-push")).unwrap();
        std::fs::write(root.join(".git/hooks/pre-commit"), "evil").unwrap();
        std::fs::write(root.join(".envrc"), "evil").unwrap();
        std::fs::write(root.join("src.rs"), "fine").unwrap();
        let q = d.path().join("q");
        let notes = restore(&kept, &q).unwrap();
        assert_eq!(notes.len(), 4, "{notes:?}");
        assert_eq!(
            std::fs::read_to_string(root.join(".git/config")).unwrap(),
            "[core]\n"
        );
        assert!(root.join(".git/hooks/pre-push").exists());
        assert!(!root.join(".git/hooks/pre-commit").exists());
        assert!(!root.join(".envrc").exists());
        assert!(q.join(".envrc").exists());
        assert!(root.join("src.rs").exists());
    }
}
