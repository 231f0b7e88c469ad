//! The policy: rules as data, and the layers they come from.
//!
//! A policy is built from files of one schema (see `policy/README.md`): path lists, command
//! effects, the lists of shells, interpreters and downloaders, and rules. The defaults in
//! `policy/` are compiled into the binary. A user file may add rules, replace a rule by id or
//! disable it; a project file comes from an untrusted repository and may only make things
//! stricter, so anything in it that would relax the policy is refused with a clear error.
//!
//! Each file has one job: [`list`] the word lists, [`rules`] the rules and what they match
//! on, [`effects`] what a command does to its arguments, [`file`] one file as written,
//! [`builtin`] the files compiled into the binary, [`layers`] the merged policy and where
//! each part came from, [`checks`] what a layer may say, [`index`] what applies to a
//! program name, [`validate`] every problem of a file for `policy validate`, and
//! [`schema`] the keys and values shared with `build.rs`.

mod builtin;
mod checks;
mod effects;
mod file;
mod index;
mod layers;
mod list;
pub mod need;
mod rules;
pub mod schema;
pub mod validate;

pub use builtin::{builtin_path_needs, BuiltinFile, DEFAULT_FILES};
pub use checks::duplicate_ids;
pub use effects::{run_flag_name, Effects, FirstValue, Select};
pub use file::{line_col, parse_file, Kinds, PathLists, PolicyFile, WorkflowSettings};
pub use layers::{
    project_policy_path, user_policy_path, Layer, Origin, Overridden, Override, Policy,
};
pub use list::{List, PolicyText};
pub use need::Need;
pub use rules::{AccessKind, MountClass, PathClass, Rule, RuleKind, RuleRef, Tier};
pub use schema::SEP;

#[cfg(test)]
mod tests;
