//! The check of what a launcher leaves in its place.
//!
//! The plugin's and the npm package's command, `bin/programmer-hook`, is an `sh` script
//! until the native binary is put in its place: by the plugin's launcher on its first run,
//! by `programmer-hook install` or npm's postinstall for the package. After that every call
//! runs the binary with no shell before it.

use std::fs;
use std::path::Path;

/// Whether the file at `path` is a native binary (ELF, or Mach-O on macOS), not a launcher
/// script.
pub fn is_native(path: &Path) -> bool {
    fs::read(path).is_ok_and(|b| b.starts_with(b"\x7fELF") || b.starts_with(&[0xcf, 0xfa]))
}
