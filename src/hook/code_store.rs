//! Where judgements of large snippets of code are kept between calls: a folder of the
//! state dir, one file per snippet (see [`crate::engine::lang::memo`] for what is kept and
//! why it can be trusted).
//!
//! The folder is `{state}/cache/code/<build>/`, where `<build>` names the running binary
//! by its size and modification time: a new build starts an empty folder and removes the
//! folders of older ones, so no judgement outlives the walker that made it. Each entry is
//! written atomically; the folder keeps the most recently written [`MAX_ENTRIES`]. A store
//! that cannot be read or written only makes the hook slower: the snippet is judged afresh.

use std::cell::OnceCell;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use crate::engine::paths::{Fs, Places, RealFs};
use crate::workflow::state;

/// The most judgements kept.
pub const MAX_ENTRIES: usize = 64;
/// The largest stored judgement read back (bytes).
const MAX_ENTRY_BYTES: u64 = 1 << 20;

/// The real file system, with a store of code judgements in the state dir.
pub struct StoredFs<'p> {
    places: &'p Places,
    /// The folder of this build's store, found the first time it is needed (most calls
    /// never need it).
    dir: OnceCell<Option<PathBuf>>,
}

impl<'p> StoredFs<'p> {
    /// The store of the running binary's build (none when the binary is not known).
    pub fn new(places: &'p Places) -> StoredFs<'p> {
        StoredFs {
            places,
            dir: OnceCell::new(),
        }
    }

    fn dir(&self) -> Option<&Path> {
        self.dir
            .get_or_init(|| {
                let build = build_name(self.places.binary.as_deref()?)?;
                Some(cache_root(&self.places.state_dir).join(build))
            })
            .as_deref()
    }

    fn entry(&self, key: &str) -> Option<PathBuf> {
        // Keys are hex digests; anything else never names a file.
        if key.is_empty() || !key.bytes().all(|b| b.is_ascii_hexdigit()) {
            return None;
        }
        Some(self.dir()?.join(format!("{key}.json")))
    }
}

/// The folder all builds' stores are in.
pub fn cache_root(state_dir: &Path) -> PathBuf {
    state_dir.join("cache/code")
}

/// A name for the build of `binary`: its size and modification time.
fn build_name(binary: &Path) -> Option<String> {
    let meta = fs::metadata(binary).ok()?;
    let modified = meta.modified().ok()?.duration_since(UNIX_EPOCH).ok()?;
    Some(format!("{:x}-{:x}", meta.len(), modified.as_nanos()))
}

impl Fs for StoredFs<'_> {
    fn canonicalize(&self, p: &Path) -> Option<PathBuf> {
        RealFs.canonicalize(p)
    }
    fn read_small(&self, p: &Path, max: usize) -> Option<String> {
        RealFs.read_small(p, max)
    }
    fn read_link(&self, p: &Path) -> Option<PathBuf> {
        RealFs.read_link(p)
    }
    fn list_dir(&self, p: &Path, max: usize) -> Option<Vec<(String, bool)>> {
        RealFs.list_dir(p, max)
    }
    fn recall(&self, key: &str) -> Option<String> {
        let path = self.entry(key)?;
        let meta = fs::symlink_metadata(&path).ok()?;
        if !meta.is_file() || meta.len() > MAX_ENTRY_BYTES {
            return None;
        }
        fs::read_to_string(&path).ok()
    }
    fn keep(&self, key: &str, value: &str) {
        let (Some(path), Some(dir)) = (self.entry(key), self.dir()) else {
            return;
        };
        let fresh = !dir.is_dir();
        if state::write_atomic(&path, value.as_bytes()).is_err() {
            return;
        }
        if fresh {
            remove_other_builds(dir);
        }
        keep_newest(dir, MAX_ENTRIES);
    }
}

/// Removes the stores of other builds next to `dir`.
fn remove_other_builds(dir: &Path) {
    let (Some(root), Some(own)) = (dir.parent(), dir.file_name()) else {
        return;
    };
    let Ok(entries) = fs::read_dir(root) else {
        return;
    };
    for e in entries.flatten() {
        if e.file_name() != own && e.file_type().is_ok_and(|t| t.is_dir()) {
            let _ = fs::remove_dir_all(e.path());
        }
    }
}

/// Removes all but the `n` most recently written entries of `dir`.
fn keep_newest(dir: &Path, n: usize) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    let mut files: Vec<(std::time::SystemTime, PathBuf)> = entries
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".json"))
        .filter_map(|e| Some((e.metadata().ok()?.modified().ok()?, e.path())))
        .collect();
    if files.len() <= n {
        return;
    }
    files.sort();
    for (_, p) in &files[..files.len() - n] {
        let _ = fs::remove_file(p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn places(state: &Path, binary: &Path) -> Places {
        Places {
            home: state.to_path_buf(),
            state_dir: state.to_path_buf(),
            config_dir: state.join("config"),
            binary: Some(binary.to_path_buf()),
            installed: Vec::new(),
            cdpath: false,
        }
    }

    #[test]
    fn an_entry_kept_is_recalled_and_other_keys_are_not() {
        let d = tempfile::tempdir().unwrap();
        let bin = d.path().join("bin");
        fs::write(&bin, "one build").unwrap();
        let at = places(d.path(), &bin);
        let s = StoredFs::new(&at);
        assert_eq!(s.recall("ab12"), None);
        s.keep("ab12", "[]");
        assert_eq!(s.recall("ab12").as_deref(), Some("[]"));
        assert_eq!(s.recall("ab13"), None);
        // A key that is not hex never names a file (no `../` ways out of the folder).
        s.keep("../x", "[]");
        assert_eq!(s.recall("../x"), None);
        assert!(!d.path().join("cache/x.json").exists());
    }

    #[test]
    fn a_new_build_starts_afresh_and_removes_the_old_store() {
        let d = tempfile::tempdir().unwrap();
        let bin = d.path().join("bin");
        fs::write(&bin, "one build").unwrap();
        let at = places(d.path(), &bin);
        let old = StoredFs::new(&at);
        old.keep("ab12", "[]");
        fs::write(&bin, "another, longer build").unwrap();
        let at = places(d.path(), &bin);
        let new = StoredFs::new(&at);
        assert_eq!(
            new.recall("ab12"),
            None,
            "a newer build trusts no older judgement"
        );
        new.keep("cd34", "[]");
        let builds = fs::read_dir(cache_root(d.path())).unwrap().count();
        assert_eq!(builds, 1, "the old build's store is removed");
    }

    #[test]
    fn only_the_newest_entries_are_kept() {
        let d = tempfile::tempdir().unwrap();
        let bin = d.path().join("bin");
        fs::write(&bin, "one build").unwrap();
        let at = places(d.path(), &bin);
        let s = StoredFs::new(&at);
        for i in 0..MAX_ENTRIES + 5 {
            s.keep(&format!("{i:04x}"), "[]");
        }
        let dir = s.dir().unwrap().to_path_buf();
        let n = fs::read_dir(&dir).unwrap().count();
        assert_eq!(n, MAX_ENTRIES);
    }
}
