//! Applies a [`Plan`] to the calling process with Landlock (Linux 6.2 or newer: Landlock
//! ABI 3, which also governs truncation). What it applies holds for the process and every
//! process it starts, and cannot be lifted.
//!
//! Landlock grants rights; it has no rule that takes a right away below a granted folder.
//! So reading is granted folder by folder around the hidden paths: every entry of `/` that
//! holds no hidden path is granted whole, an entry that holds one is entered and its
//! entries granted the same way, and a hidden path itself is never granted. Symbolic links
//! are not granted (the kernel checks the place a link leads to). Listing a folder's names
//! is never restricted, only reading files.

use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use landlock::{
    Access, AccessFs, BitFlags, CompatLevel, Compatible, PathBeneath, Ruleset, RulesetAttr,
    RulesetCreatedAttr, RulesetStatus, ABI,
};

use super::profile::Plan;

/// The Landlock ABI this needs: 3, the first that governs truncation.
pub const NEEDED_ABI: i32 = 3;

/// The Landlock ABI the running kernel offers (0 when it has none, or it is turned off).
pub fn kernel_abi() -> i32 {
    // SAFETY: landlock_create_ruleset with a null attribute, size 0 and the VERSION flag
    // only returns the ABI version (or -1); it takes no pointer it would read.
    let r = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            1u32,
        )
    };
    i32::try_from(r).unwrap_or(0).max(0)
}

/// Whether Landlock can apply the profiles here, or why not.
pub fn available() -> Result<(), String> {
    match kernel_abi() {
        0 => Err("the kernel has no Landlock (Linux 5.13 or newer with Landlock turned on, `lsm=…,landlock`)".into()),
        n if n < NEEDED_ABI => Err(format!(
            "the kernel's Landlock is ABI {n}; confinement needs ABI {NEEDED_ABI} (Linux 6.2 or newer)"
        )),
        _ => Ok(()),
    }
}

fn handled() -> BitFlags<AccessFs> {
    AccessFs::from_all(ABI::V3) & !(AccessFs::Execute | AccessFs::ReadDir)
}

fn write_tree() -> BitFlags<AccessFs> {
    handled()
}

fn write_file() -> BitFlags<AccessFs> {
    AccessFs::ReadFile | AccessFs::WriteFile | AccessFs::Truncate
}

/// A ruleset made from a plan, ready to apply.
pub struct Prepared(landlock::RulesetCreated);

/// Makes the ruleset of `plan`, without applying it. Fails when any part of it cannot be
/// made in full.
pub fn prepare(plan: &Plan) -> Result<Prepared> {
    available().map_err(anyhow::Error::msg)?;
    let mut ruleset = Ruleset::default()
        .set_compatibility(CompatLevel::HardRequirement)
        .handle_access(handled())
        .context("Landlock refused the profile's rights")?
        .create()
        .context("could not create the Landlock ruleset")?;
    for (path, rights) in grants(plan)? {
        let Some(fd) = open_path(&path) else { continue };
        ruleset = ruleset
            .add_rule(PathBeneath::new(fd, rights))
            .with_context(|| format!("could not grant {}", path.display()))?;
    }
    Ok(Prepared(ruleset))
}

impl Prepared {
    /// Applies the ruleset to this process (and so to everything it starts).
    pub fn restrict(self) -> Result<()> {
        let status = self
            .0
            .restrict_self()
            .context("could not apply the Landlock ruleset")?;
        if status.ruleset != RulesetStatus::FullyEnforced {
            bail!("the kernel applied the profile only in part");
        }
        Ok(())
    }
}

/// What is granted where: reading around the hidden paths, writing in the plan's trees
/// and files. Paths that do not exist are left out.
pub fn grants(plan: &Plan) -> Result<Vec<(PathBuf, BitFlags<AccessFs>)>> {
    let mut out = Vec::new();
    read_around(Path::new("/"), &plan.hidden, &mut out, 0)?;
    for t in &plan.writable_trees {
        if t.is_dir() {
            out.push((t.clone(), write_tree()));
        }
    }
    for f in &plan.writable_files {
        if f.exists() && !f.is_dir() {
            out.push((f.clone(), write_file()));
        }
    }
    Ok(out)
}

/// Grants reading of `dir`'s entries, entering those that hold a hidden path.
fn read_around(
    dir: &Path,
    hidden: &[PathBuf],
    out: &mut Vec<(PathBuf, BitFlags<AccessFs>)>,
    depth: usize,
) -> Result<()> {
    if depth > 64 {
        bail!("hidden paths nest too deep under {}", dir.display());
    }
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        // A folder that cannot be listed is not granted: nothing under it can be read.
        Err(_) => return Ok(()),
    };
    for e in entries {
        let Ok(e) = e else { continue };
        let path = e.path();
        if hidden.contains(&path) {
            continue;
        }
        let Ok(ft) = e.file_type() else { continue };
        if ft.is_symlink() {
            continue;
        }
        let holds = hidden.iter().any(|h| h.starts_with(&path));
        if holds && ft.is_dir() {
            read_around(&path, hidden, out, depth + 1)?;
        } else {
            out.push((path, AccessFs::ReadFile.into()));
        }
    }
    Ok(())
}

/// A path opened for naming it in a rule, without following a final symbolic link.
fn open_path(p: &Path) -> Option<OwnedFd> {
    let mut bytes = p.as_os_str().as_bytes().to_vec();
    bytes.push(0);
    // SAFETY: `bytes` is NUL-terminated and lives across the call; O_PATH opens no
    // content; the descriptor returned is owned by the OwnedFd made from it.
    let fd = unsafe {
        libc::open(
            bytes.as_ptr().cast(),
            libc::O_PATH | libc::O_CLOEXEC | libc::O_NOFOLLOW,
        )
    };
    // SAFETY: a non-negative `fd` was just returned by open and is owned by nobody else.
    (fd >= 0).then(|| unsafe { OwnedFd::from_raw_fd(fd) })
}
