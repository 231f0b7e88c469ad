//! The benchmark's floor: a process that only reads and parses the hook event JSON and
//! prints a fixed decision. The gap between this and `programmer-hook hook` is what the
//! policy work costs.

use std::io::Read;

fn main() {
    let mut buf = Vec::new();
    if std::io::stdin().read_to_end(&mut buf).is_err() {
        std::process::exit(2);
    }
    match serde_json::from_slice::<serde_json::Value>(&buf) {
        Ok(_) => println!(
            "{{\"hookSpecificOutput\":{{\"hookEventName\":\"PreToolUse\",\"permissionDecision\":\"ask\",\"permissionDecisionReason\":\"floor\"}}}}"
        ),
        Err(_) => std::process::exit(2),
    }
}
