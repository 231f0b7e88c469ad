//! The hook: one Claude Code event on stdin, one answer on stdout.
//!
//! [`run`] reads the event, asks the engine for a verdict, applies the workflow's gates
//! ([`events`]) and renders the answer, and records each decision and what became of each
//! ask in the audit log (`crate::log`); [`code_store`] keeps judgements of large snippets of
//! code between calls. [`sandbox_settings`] reads Claude Code's settings for the sandbox
//! decision and [`managed`] the administrator's autonomy policy, both only when `auto` could
//! relax a call; [`managed`] also names the administrator's rules file, a policy layer read
//! on every call.
//! Every failure while deciding a tool call becomes a blocking answer (exit 2): nothing
//! here may fail open.
//! This layer may use the log, the workflow and the engine, never the setup or the CLI.

pub mod code_store;
pub mod events;
pub mod managed;
pub mod protocol;
mod run;
pub mod sandbox_settings;

pub use protocol::{decision_word, read_input, reason_text, Answer, Event, EventName};
pub use run::{find_project_policy, load_policy, run};
