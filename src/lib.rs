//! programmer-hook: a fail-closed policy hook for Claude Code.
//!
//! Data flows one way, and the folders show it: [`hook`] reads the event and renders the
//! answer; [`engine`] turns a tool call into facts (a Bash command through the shell parser
//! and the analyser) and judges them against the policy; [`workflow`] holds the state
//! machine, the roles and the state beside it; [`log`] writes the audit log and reads it
//! back (reports, suggested rules); [`setup`] installs and checks an installation; [`cli`]
//! is the command line over all of them; [`confine`] runs the calls the hook allows on a
//! prediction inside the kernel's confinement. A layer uses only the layers below it: `cli`
//! → `setup` → `hook` → `log` → `workflow` → `engine`, with `confine` below the hook and
//! beside the engine (it judges nothing).

pub mod cli;
pub mod confine;
pub mod engine;
pub mod hook;
pub mod log;
pub mod setup;
pub mod workflow;
