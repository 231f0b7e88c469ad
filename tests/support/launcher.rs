//! What the launchers' tests share: the check of what a launcher leaves in its place, and
//! the name the npm packages give this machine's platform.
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

/// This machine's platform as npm names it (`linux-x64`, `darwin-arm64`): the platform
/// package is `programmer-hook-<this>`.
pub fn npm_platform() -> String {
    let os = match std::env::consts::OS {
        "macos" => "darwin",
        o => o,
    };
    let arch = match std::env::consts::ARCH {
        "x86_64" => "x64",
        "aarch64" => "arm64",
        a => a,
    };
    format!("{os}-{arch}")
}
