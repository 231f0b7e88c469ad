//! What a judgement needs besides the call itself: the policy, the places its patterns
//! name, the file system to ask, and the folder the call runs in.
//!
//! One value of it is shared by the analyser and the classifier; tests build it from plain
//! values ([`super::paths::NoFs`] and fixed places).

use std::path::Path;

use super::paths::{Fs, Places};
use super::policy::Policy;

/// The surroundings of one call.
pub struct Context<'a> {
    pub policy: &'a Policy,
    pub places: &'a Places,
    pub fs: &'a dyn Fs,
    /// The folder the call runs in, when known.
    pub cwd: Option<&'a Path>,
}
