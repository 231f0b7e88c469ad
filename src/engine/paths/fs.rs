//! The file-system questions path resolution and judging ask (what a path is once its
//! links are followed, a link's target, a folder's entries, a small file's text, a kept
//! judgement), behind one trait: the real file system answers them for the hook, and a
//! file system where nothing exists (or a test's fake) keeps the classifier pure.

use std::path::{Path, PathBuf};

/// The file-system questions path resolution needs.
pub trait Fs {
    /// The canonical form of `p` if it exists (symlinks followed).
    fn canonicalize(&self, p: &Path) -> Option<PathBuf>;
    /// The text of `p` when it is a regular file of at most `max` bytes in UTF-8 (a script
    /// a command runs). Nothing by default: a file system that cannot say has no scripts.
    fn read_small(&self, _p: &Path, _max: usize) -> Option<String> {
        None
    }
    /// The target of `p` if it is a symbolic link (whether or not the target exists).
    fn read_link(&self, _p: &Path) -> Option<PathBuf> {
        None
    }
    /// A judgement of a snippet of code kept under `key` by [`Fs::keep`] (see
    /// [`crate::engine::lang::memo`]). Nothing by default: no store.
    fn recall(&self, _key: &str) -> Option<String> {
        None
    }
    /// Keeps a judgement under `key`; a store that cannot write simply forgets it.
    fn keep(&self, _key: &str, _value: &str) {}
    /// The entries of the folder `p`, each a name and whether it is a folder (a symbolic
    /// link is not followed: it is no folder here), at most `max` of them. Nothing when
    /// `p` is no folder or cannot be read, and by default: a file system that cannot say
    /// holds no files.
    fn list_dir(&self, _p: &Path, _max: usize) -> Option<Vec<(String, bool)>> {
        None
    }
}

/// The real file system.
pub struct RealFs;

impl Fs for RealFs {
    fn canonicalize(&self, p: &Path) -> Option<PathBuf> {
        std::fs::canonicalize(p).ok()
    }
    fn read_small(&self, p: &Path, max: usize) -> Option<String> {
        let meta = std::fs::metadata(p).ok()?;
        if !meta.is_file() || meta.len() > max as u64 {
            return None;
        }
        let bytes = std::fs::read(p).ok()?;
        if bytes.len() > max {
            return None;
        }
        String::from_utf8(bytes).ok()
    }
    fn read_link(&self, p: &Path) -> Option<PathBuf> {
        std::fs::read_link(p).ok()
    }
    fn list_dir(&self, p: &Path, max: usize) -> Option<Vec<(String, bool)>> {
        let entries = std::fs::read_dir(p).ok()?;
        let mut out = Vec::new();
        for e in entries.take(max) {
            let Ok(e) = e else { continue };
            let dir = e.file_type().is_ok_and(|t| t.is_dir());
            out.push((e.file_name().to_string_lossy().into_owned(), dir));
        }
        Some(out)
    }
}

/// A file system where nothing exists: resolution stays lexical.
pub struct NoFs;

impl Fs for NoFs {
    fn canonicalize(&self, _: &Path) -> Option<PathBuf> {
        None
    }
}
