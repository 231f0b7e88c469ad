//! Setting up and checking an installation.
//!
//! [`install`] writes the hook entries into Claude Code's `settings.json` and carries the
//! agent pack; [`doctor`] checks an installation and says how to fix what it finds. This
//! layer may use everything below it (hook, workflow, engine), never the CLI.

pub mod doctor;
pub mod install;
