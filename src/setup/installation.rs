//! What an installation of programmer-hook is, whichever way it was made, and where its
//! files are: the binary's name, the hook handler every install registers (for every
//! event the hook answers) and how one of ours is told from the user's other handlers,
//! the user's `settings.json`, and the state dir's record of how the install was made.
//!
//! Everything else in `setup` stands on this: installing (`install`, `product`, the
//! `npm` and `plugin` routes) writes what is named here, and `doctor` reads it back.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::hook::EventName;

/// The file name our handlers run.
pub use crate::workflow::installed::BINARY_NAME;

/// Every hook event the product answers (the hook's own list).
pub const EVENTS: [EventName; 9] = EventName::ALL;

/// The handler timeout, in seconds. A hook that takes longer is killed, which
/// `onFailure: block` turns into a denial.
pub const TIMEOUT_SECS: u64 = 10;

/// The file of the state dir in which `install.sh` and `programmer-hook install` record
/// how they installed.
pub const RECORD: &str = "install.json";

/// How `programmer-hook install` records itself in [`RECORD`] (`method`).
pub const METHOD: &str = "command";

/// `settings.json` in the Claude Code config dir.
pub fn default_settings(config_dir: &Path) -> PathBuf {
    config_dir.join("settings.json")
}

/// Our handler, in exec form.
pub fn hook_handler(binary: &str) -> Value {
    json!({
        "type": "command",
        "command": binary,
        "args": ["hook"],
        "timeout": TIMEOUT_SECS,
        "onFailure": "block",
    })
}

/// The matcher group holding our handler.
pub fn hook_group(binary: &str) -> Value {
    json!({ "matcher": "*", "hooks": [hook_handler(binary)] })
}

/// Whether a handler is one of ours: a command whose program is named `programmer-hook`
/// and whose first argument is `hook` (exec form, or shell form as one string).
pub fn is_ours(handler: &Value) -> bool {
    let Some(cmd) = handler.get("command").and_then(Value::as_str) else {
        return false;
    };
    let named_ours = |program: &str| {
        Path::new(program.trim_matches(|c| c == '"' || c == '\''))
            .file_name()
            .is_some_and(|n| n == BINARY_NAME)
    };
    match handler.get("args") {
        Some(Value::Array(args)) => {
            named_ours(cmd) && args.first().and_then(Value::as_str) == Some("hook")
        }
        Some(_) => false,
        None => {
            let mut words = cmd.split_whitespace();
            words.next().is_some_and(named_ours) && words.next() == Some("hook")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workflow::installed::installed_binaries;

    const BIN: &str = "/opt/ph/bin/programmer-hook";

    #[test]
    fn recognises_only_our_handler() {
        assert!(is_ours(&hook_handler(BIN)));
        assert!(is_ours(&json!({"command": "programmer-hook hook"})));
        let settings = json!({"hooks": {"PreToolUse": [{"hooks": [
            hook_handler("/opt/ph/bin/programmer-hook"),
            {"type": "command", "command": "'/x y/programmer-hook' hook"},
            {"type": "command", "command": "~/bin/programmer-hook hook"},
            {"type": "command", "command": "programmer-hook hook"},
        ]}]}, "permissions": {"allow": ["Bash(programmer-hook status)"]}});
        let found = installed_binaries(&settings.to_string(), Path::new("/home/u"));
        assert_eq!(
            found,
            [
                PathBuf::from("/opt/ph/bin/programmer-hook"),
                PathBuf::from("/x y/programmer-hook"),
                PathBuf::from("/home/u/bin/programmer-hook")
            ]
        );
        let escaped = r#"{"a": "\"/x/programmer-hook\" hook", "b": "x\\"}"#;
        assert_eq!(
            installed_binaries(escaped, Path::new("/")),
            [PathBuf::from("/x/programmer-hook")]
        );
        assert!(!is_ours(&json!({"command": BIN, "args": ["log"]})));
        assert!(!is_ours(
            &json!({"command": "/x/programmer-hook-wrapper", "args": ["hook"]})
        ));
        assert!(!is_ours(&json!({"command": "echo programmer-hook hook"})));
        assert!(!is_ours(&json!({"type": "http", "url": "x"})));
    }
}
