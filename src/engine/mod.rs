//! The engine: a tool call in, a verdict out, with no I/O of its own.
//!
//! [`shell`] parses a Bash command into simple commands; [`analyze`] turns them into facts
//! (programs run, files read and written, signals); [`classify`] judges the facts against
//! the [`policy`]; [`paths`] resolves the paths they name, [`mounts`] finds the host paths
//! a container command mounts; [`mcp`] finds the paths and commands an MCP tool's input names; `timed_parse` stops a parse at its time limit; [`tools`] names Claude Code's tools for every layer. File system questions go through [`paths::Fs`], so tests drive
//! the engine with plain values. The engine knows nothing of hook events, workflow phases
//! or roles: those are applied above it.

pub mod analyze;
pub mod args;
pub mod classify;
mod context;
pub mod examples;
pub mod lang;
pub mod mcp;
pub mod mounts;
pub mod paths;
mod patterns;
pub mod policy;
pub mod sandbox;
pub mod shell;
mod timed_parse;
pub mod tools;

pub use context::Context;
