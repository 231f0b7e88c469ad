//! What the test binaries share, included by each as `mod support;`: [`e2e`] the harness
//! of the end-to-end suites (the real Claude Code client and a scripted model), [`home`] a
//! scratch home with a registered project, [`launcher`] what a launcher left in its place after its
//! first run, and the npm packages' name of this platform, [`scratch`] folders removed when the binary exits,
//! [`sessions`] hook calls through the real binary in a default and an `auto` session,
//! [`skip`] a loud SKIPPED line for what the machine lacks (a failure under CI), [`table`]
//! the check of the decision tables (one line per case).
//!
//! A binary uses only some of them; the others are compiled but unused.

#![allow(dead_code)]

pub mod e2e;
pub mod home;
pub mod launcher;
pub mod scratch;
pub mod sessions;
pub mod skip;
pub mod table;
