//! Setting up and checking an installation.
//!
//! [`installation`] is what every install is and where its files are: the binary's name,
//! the hook handler and the events it is registered for, the settings file, the record of
//! how the install was made; [`shell`] quotes the commands `setup` prints and finds
//! programs on `PATH`; [`user_files`] changes the user's files with care (a backup first).
//! The rest of `setup` stands on these three.
//!
//! [`install`] writes the hook entries into Claude Code's `settings.json`; [`product`] is
//! the whole install by the binary itself (`install`, `uninstall`: the pack, the state
//! dir, the hook entries, the [`blocks`] in the user's files), for the [`npm`] package or
//! a release binary; [`plugin`] is the Claude Code plugin's hook entries and where Claude
//! Code records the plugin; [`sandbox`] writes (and takes out) Claude Code's sandbox
//! settings; [`doctor`] checks an installation, either kind, and says how to fix what it
//! finds. This layer may use everything below it (hook, workflow, engine), never the CLI.

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
