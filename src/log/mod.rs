//! The audit log: what the hook writes after each decision, and what reads it back.
//!
//! [`audit`] appends one line per decision to the day's file (the text [`redact`]ed) and
//! reads them; [`outcomes`] marks what became of each ask and keeps the log's retention;
//! [`window`] is the part of the log a report reads, with each ask's outcome and each
//! entry's project; [`report`] turns it into figures and [`suggest`] into rules for the
//! user's policy. The hook writes here on every call; the CLI only renders what this
//! reads. This layer may use the workflow and the engine, never the hook, the setup or the
//! CLI.

pub mod audit;
pub mod outcomes;
mod redact;
pub mod report;
pub mod suggest;
pub mod window;
