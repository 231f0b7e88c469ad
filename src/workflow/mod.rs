//! The workflow: plan → approve → implement → review → commit, held in code.
//!
//! [`phase`] is where a workflow stands (phases, the plan, the record of a session);
//! [`prompts`] what the user's prompts do to it and [`verdicts`] what a review's verdict
//! does; [`restrictions`] what each role and phase may not do, and [`gates`] the test and
//! plan gates (all pure); [`roles`] names the pack's agents and their scopes; [`state`]
//! keeps session state on disk (atomic, locked writes); [`pack`] is the agent pack as built
//! in, and the check that Claude Code would load the pack's agents and not others;
//! [`escalation`] says where a call the hook will not simply let run goes;
//! [`projects`] is the registry of projects; [`installed`] reads which programmer-hook
//! binaries the settings run; [`clock`] is the one clock. This layer may use the engine's
//! types, never the hook, the log, the setup or the CLI.

pub mod clock;
pub mod escalation;
pub mod gates;
pub mod installed;
pub mod pack;
pub mod phase;
pub mod projects;
pub mod prompts;
pub mod restrictions;
pub mod roles;
pub mod state;
pub mod verdicts;

pub use gates::*;
pub use phase::*;
pub use prompts::*;
pub use restrictions::*;
pub use verdicts::*;

#[cfg(test)]
mod tests;
