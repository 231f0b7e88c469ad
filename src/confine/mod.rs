//! Confinement: runs a Bash call the hook allowed on a prediction inside the kernel's
//! confinement, so that what the verdict assumed holds whatever the program does.
//!
//! A Safe verdict assumes a program only reads; a relaxed or contained one in an `auto`
//! session assumes it only changes the project. Programs load code the hook never reads (a
//! linter's config, a build script, a test's `conftest.py`), so the hook rewrites such a
//! call (`updatedInput`) to run through `programmer-hook confine PROFILE`, which applies
//! one of two [`profile`]s with Landlock ([`landlock`]) before the command starts
//! ([`runner`]), keeps the protected paths of the project as they were ([`guard`]) and,
//! for a `project` call, saves the project's files first so that `programmer-hook undo`
//! can bring them back ([`undo`]). [`wrap`] writes the rewritten command.
//!
//! Below the hook and beside the engine: it judges nothing. On a system without Landlock
//! (macOS, Windows, an old or locked-down Linux kernel) [`available`] says why, and the
//! hook keeps the verdicts it gives without confinement.

pub mod guard;
#[cfg(target_os = "linux")]
pub mod landlock;
pub mod profile;
#[cfg(target_os = "linux")]
pub mod runner;
pub mod undo;
pub mod wrap;

pub use profile::Profile;

/// Whether confinement works here, or why not.
pub fn available() -> Result<(), String> {
    #[cfg(target_os = "linux")]
    {
        #[cfg(debug_assertions)]
        if std::env::var_os(OFF_VAR).is_some_and(|v| !v.is_empty()) {
            return Err(format!("turned off for this test build by ${OFF_VAR}"));
        }
        landlock::available()
    }
    #[cfg(not(target_os = "linux"))]
    {
        Err("confinement is built on Linux's Landlock; this system has no confinement the hook can apply yet".into())
    }
}

/// In test builds only, turns confinement off as if the kernel had none (so that tests can
/// check what the hook does without it).
pub const OFF_VAR: &str = "PROGRAMMER_HOOK_TEST_NO_CONFINE";
