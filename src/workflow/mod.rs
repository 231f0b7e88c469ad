//! The workflow: plan → approve → implement → review → commit, held in code.
//!
//! [`machine`] is the pure state machine (phases, prompts, review verdicts, and what each
//! phase and role may do); [`roles`] names the pack's agents and their scopes; [`state`]
//! keeps session state on disk (atomic, locked writes); [`pack`] is the agent pack as built
//! in, and the check that Claude Code would load the pack's agents and not others;
//! [`escalation`] says where a call the hook will not simply let run goes;
//! [`projects`] is the registry of projects; [`installed`] reads which programmer-hook
//! binaries the settings run; [`clock`] is the one clock. This layer may use the engine's
//! types, never the hook, the setup or the CLI.

pub mod clock;
pub mod escalation;
pub mod installed;
pub mod machine;
pub mod pack;
pub mod projects;
pub mod roles;
pub mod state;

pub use machine::*;
