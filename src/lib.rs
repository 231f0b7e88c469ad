//! programmer-hook: a fail-closed policy hook for Claude Code.
//!
//! Data flows one way: [`hook`] reads the event, [`analyze`] (over [`shell`]) turns a Bash
//! command into facts, [`classify`] judges the facts against the [`policy`], and [`hook`]
//! renders the answer. [`state`] and [`audit`] sit at the edges; [`cli`] is the command line.
//! The core (`shell`, `analyze`, `classify`, `policy`, `paths`) does no I/O of its own: file
//! system questions go through [`paths::Fs`].

pub mod analyze;
pub mod audit;
pub mod classify;
pub mod cli;
pub mod doctor;
pub mod events;
pub mod examples;
pub mod hook;
pub mod install;
pub mod paths;
pub mod policy;
pub mod projects;
pub mod roles;
pub mod shell;
pub mod state;
pub mod workflow;
