//! Setting up and checking an installation, in floors; a module imports only the floors
//! below its own.
//!
//! At the bottom, what every install is and the tools to write one: [`installation`] (the
//! binary's name, the hook handler and the events it is registered for, the settings
//! file, the record of how the install was made), [`shell`] (the commands `setup` prints,
//! quoted, and the programs it finds on `PATH`), [`user_files`] (the user's files changed
//! with care: JSON edits, one backup) and [`blocks`] (the marked blocks in the user's
//! files).
//!
//! On them, the ways in: [`npm`] (the npm package's layout, the binary in its launcher's
//! place), [`plugin`] (the Claude Code plugin's hook entries and where Claude Code records
//! it), [`sandbox`] (Claude Code's sandbox settings, written and taken out) and, over
//! those, [`install`] (the hook entries in `settings.json`).
//!
//! Over those, [`product`] (`install`, `uninstall`: the whole install by the binary
//! itself, for the npm package or a release binary) and, on top, [`doctor`], which only
//! reads and reports: it checks an installation, either kind, and says how to fix what it
//! finds. Nothing here runs doctor: the command line ends an `install` with it.
//!
//! This layer may use everything below it (hook, workflow, engine), never the CLI.

pub mod blocks;
pub mod doctor;
pub mod install;
pub mod installation;
pub mod npm;
pub mod plugin;
pub mod product;
pub mod sandbox;
pub mod shell;
pub mod user_files;
