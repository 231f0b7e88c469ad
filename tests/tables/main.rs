//! The decision tables and the hostile input, one test binary (one link of the library
//! instead of one per file): each module is a table of cases, one line per case, checked
//! in the imaginary machine of `examples` and through the real binary in a default and an
//! `auto` session (see `support/sessions.rs`).

#[path = "../support/mod.rs"]
mod support;

mod autonomy_table;
mod classify_table;
mod code_table;
mod confine_table;
mod environment_table;
mod expansion_table;
mod globs_table;
mod grammar_table;
mod hostile;
mod irreversible_table;
mod leaves_table;
mod runs_table;
mod techniques_table;
