//! programmer-hook as the npm package installs it, as Claude Code's own npm package is
//! laid out: the main package `programmer-hook`, whose command `bin/programmer-hook` is
//! first the launcher (a placeholder script), and one package per platform,
//! `programmer-hook-<platform>`, holding the binary. npm's postinstall (or, with install
//! scripts off, the launcher's first run) puts the binary in the launcher's place, so the
//! command on PATH is the binary itself. `scripts/package-npm.sh` builds the packages.
//!
//! This module finds that layout from the running binary and, for `programmer-hook
//! install`, makes sure the command is the binary before any hook entry names it.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};

use crate::setup::installation::BINARY_NAME;

/// The main package's name.
pub const PACKAGE: &str = "programmer-hook";

/// The main package's folder, when `dir` is one: a `package.json` named [`PACKAGE`].
fn main_package(dir: &Path) -> Option<PathBuf> {
    let text = fs::read_to_string(dir.join("package.json")).ok()?;
    let v: serde_json::Value = serde_json::from_str(&text).ok()?;
    (v.get("name")?.as_str()? == PACKAGE).then(|| dir.to_path_buf())
}

/// Where the running binary sits in an npm install.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layout {
    /// The main package's folder.
    pub package: PathBuf,
    /// Its command, `bin/programmer-hook`: the file PATH's `programmer-hook` links to.
    pub command: PathBuf,
}

/// The npm layout `exe` (the running binary, its real path) belongs to: the main
/// package's command itself, or the binary of a platform package beside the main package
/// (`node_modules/programmer-hook-<platform>`) or inside it
/// (`programmer-hook/node_modules/programmer-hook-<platform>`). `None` for any other binary.
pub fn layout(exe: &Path) -> Option<Layout> {
    let dir = exe.parent()?;
    let command = |package: PathBuf| Layout {
        command: package.join("bin").join(BINARY_NAME),
        package,
    };
    if dir.file_name()? == "bin" {
        if let Some(p) = main_package(dir.parent()?) {
            return Some(command(p));
        }
    }
    let name = dir.file_name()?.to_str()?;
    if !name.starts_with(&format!("{PACKAGE}-")) || !dir.join("package.json").is_file() {
        return None;
    }
    let modules = dir.parent()?;
    if let Some(p) = main_package(&modules.join(PACKAGE)) {
        return Some(command(p));
    }
    if modules.file_name()? == "node_modules" {
        if let Some(p) = main_package(modules.parent()?) {
            return Some(command(p));
        }
    }
    None
}

/// The platform packages npm installed beside the main package, as packages of their own
/// (installed by name, from their tarballs): `npm uninstall -g programmer-hook` leaves
/// them, unlike the one npm installed inside it as its optional dependency.
pub fn platform_packages_beside(layout: &Layout) -> Vec<String> {
    let Some(modules) = layout.package.parent() else {
        return Vec::new();
    };
    let mut found: Vec<String> = fs::read_dir(modules)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .filter_map(|e| e.file_name().to_str().map(str::to_string))
        .filter(|n| n.starts_with(&format!("{PACKAGE}-")))
        .filter(|n| {
            fs::read_to_string(modules.join(n).join("package.json"))
                .ok()
                .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
                .is_some_and(|v| v.get("name").and_then(|x| x.as_str()) == Some(n.as_str()))
        })
        .collect();
    found.sort();
    found
}

/// Whether a file is a native executable (ELF or Mach-O), not a script.
pub fn is_native(path: &Path) -> bool {
    use std::io::Read;
    let mut head = [0u8; 4];
    let ok = fs::File::open(path).and_then(|mut f| f.read_exact(&mut head));
    ok.is_ok()
        && (head == *b"\x7fELF"
            || matches!(
                u32::from_le_bytes(head),
                0xfeed_face | 0xfeed_facf | 0xcefa_edfe | 0xcffa_edfe | 0xcafe_babe | 0xbeba_feca
            ))
}

/// What [`ensure_native`] did.
#[derive(Debug, PartialEq, Eq)]
pub enum Placed {
    /// The command was the binary already.
    Already,
    /// The binary was put in the launcher's place (or, in a dry run, would be).
    Now,
}

/// Makes the layout's command the binary `exe`: when it is still the launcher, a copy of
/// `exe` next to it renamed over it, so a call starting now runs one or the other, never
/// half a file. An error says why it cannot, and nothing is changed.
pub fn ensure_native(layout: &Layout, exe: &Path, dry_run: bool) -> Result<Placed> {
    if is_native(&layout.command) {
        return Ok(Placed::Already);
    }
    if dry_run {
        return Ok(Placed::Now);
    }
    let dir = layout
        .command
        .parent()
        .context("the npm package's command has no folder")?;
    let tmp = dir.join(format!(".{BINARY_NAME}.place.{}", std::process::id()));
    let result = (|| -> Result<()> {
        fs::copy(exe, &tmp)
            .with_context(|| format!("cannot copy {} to {}", exe.display(), tmp.display()))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(&tmp, fs::Permissions::from_mode(0o755))
                .with_context(|| format!("cannot make {} executable", tmp.display()))?;
        }
        fs::rename(&tmp, &layout.command)
            .with_context(|| format!("cannot replace {}", layout.command.display()))
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        bail!(
            "cannot put the binary in place of the npm package's launcher {}: {e:#}. Nothing was changed. Run `programmer-hook install` as the user who ran npm install -g (or install again without --ignore-scripts)",
            layout.command.display()
        );
    }
    Ok(Placed::Now)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn package(dir: &Path, name: &str) {
        fs::create_dir_all(dir).expect("mkdir");
        fs::write(
            dir.join("package.json"),
            format!("{{\"name\": \"{name}\"}}"),
        )
        .expect("write");
    }

    #[test]
    fn finds_the_main_package_from_each_layout() {
        let t = tempfile::tempdir().expect("tempdir");
        let modules = t.path().join("lib/node_modules");
        let main = modules.join("programmer-hook");
        package(&main, "programmer-hook");
        let want = Some(Layout {
            package: main.clone(),
            command: main.join("bin/programmer-hook"),
        });
        // The command itself, once it is the binary.
        assert_eq!(layout(&main.join("bin/programmer-hook")), want);
        // A platform package beside it, and one inside it.
        let beside = modules.join("programmer-hook-linux-x64");
        package(&beside, "programmer-hook-linux-x64");
        assert_eq!(layout(&beside.join("programmer-hook")), want);
        let inside = main.join("node_modules/programmer-hook-darwin-arm64");
        package(&inside, "programmer-hook-darwin-arm64");
        assert_eq!(layout(&inside.join("programmer-hook")), want);
        // Only the one beside it is a package of its own, which npm uninstall must name.
        let l = layout(&beside.join("programmer-hook")).expect("layout");
        assert_eq!(platform_packages_beside(&l), ["programmer-hook-linux-x64"]);
        // Anything else is no npm install.
        assert_eq!(layout(Path::new("/usr/local/bin/programmer-hook")), None);
        let other = t.path().join("x/bin");
        package(other.parent().expect("parent"), "something-else");
        assert_eq!(layout(&other.join("programmer-hook")), None);
    }

    #[test]
    fn puts_the_binary_in_the_launchers_place_once() {
        let t = tempfile::tempdir().expect("tempdir");
        let main = t.path().join("programmer-hook");
        package(&main, "programmer-hook");
        fs::create_dir_all(main.join("bin")).expect("mkdir");
        let l = Layout {
            package: main.clone(),
            command: main.join("bin/programmer-hook"),
        };
        fs::write(&l.command, "#!/bin/sh\nexit 2\n").expect("write");
        let exe = t.path().join("native");
        fs::write(&exe, b"\x7fELF the binary").expect("write");
        assert!(!is_native(&l.command) && is_native(&exe));
        assert_eq!(ensure_native(&l, &exe, true).expect("dry run"), Placed::Now);
        assert!(!is_native(&l.command), "a dry run changes nothing");
        assert_eq!(ensure_native(&l, &exe, false).expect("place"), Placed::Now);
        assert_eq!(fs::read(&l.command).expect("read"), b"\x7fELF the binary");
        assert_eq!(
            ensure_native(&l, &exe, false).expect("again"),
            Placed::Already
        );
        let left: Vec<_> = fs::read_dir(main.join("bin")).expect("ls").collect();
        assert_eq!(left.len(), 1, "no temporary file left");
        // A binary that cannot be copied: an error, the launcher kept.
        fs::write(&l.command, "#!/bin/sh\n").expect("write");
        let err = ensure_native(&l, &t.path().join("missing"), false).expect_err("no binary");
        assert!(
            format!("{err:#}").contains("Nothing was changed"),
            "{err:#}"
        );
        assert_eq!(fs::read(&l.command).expect("read"), b"#!/bin/sh\n");
    }
}
