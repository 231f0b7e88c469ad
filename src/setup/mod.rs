//! Setting up and checking an installation.
//!
//! [`install`] writes the hook entries into Claude Code's `settings.json`; [`plugin`] is
//! the Claude Code plugin's hook entries and where Claude Code records the plugin;
//! [`sandbox`] writes (and takes out) Claude Code's sandbox settings; [`doctor`]
//! checks an installation, either kind, and says how to fix what it finds. This layer may
//! use everything below it (hook, workflow, engine), never the CLI.

pub mod doctor;
pub mod install;
pub mod plugin;
pub mod sandbox;
