//! What the unit tests of the four readers share: the effects they look for, and the check
//! that a snippet's effects hold one.

use super::{Effect, Text};

/// Known text.
pub(crate) fn lit(s: &str) -> Text {
    Text::lit(s)
}

/// The path `path` deleted (with all it holds when `recursive`).
pub(crate) fn deleted(path: &str, recursive: bool) -> Effect {
    Effect::Delete {
        path: lit(path),
        recursive,
    }
}

/// Asserts that `effects` hold `want`, showing them when they do not.
#[track_caller]
pub(crate) fn assert_has(effects: &[Effect], want: Effect) {
    assert!(effects.contains(&want), "{want:?} not in {effects:?}");
}
