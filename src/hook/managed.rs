//! The managed policy: what an organisation allows `auto` to do on a machine, and the rules
//! it sets as a floor.
//!
//! The rules are `programmer-hook.toml` in the same folder ([`policy_path`]): a policy file
//! of the user's schema, merged as the layer `managed` (see `engine::policy`), which the
//! user's and a project's files cannot loosen. A file there that does not load denies every
//! call. The rest of this module is the autonomy setting.
//!
//! It is `programmer-hook.json` in the folder of Claude Code's managed settings
//! ([`super::sandbox_settings::managed_dir`]: `/etc/claude-code` on Linux,
//! `/Library/Application Support/ClaudeCode` on macOS), which only an administrator can
//! write. User and project layers can only tighten it: a session may always ask more
//! (`autonomy confirm`), never relax more than this allows.
//!
//! ```json
//! { "autonomy": "allowed" }        // the default when the file is missing
//! { "autonomy": "sandbox-only" }   // auto relaxes nothing unless the call is contained
//! { "autonomy": "never" }          // auto relaxes nothing: every Confirm is asked
//! ```
//!
//! A file that cannot be read or parsed, or holds anything else, counts as `never`: an
//! administrator's intent that cannot be read is not taken as permission.
//!
//! Its place is compiled into release builds: no environment variable, flag or file in the
//! user's reach moves or disables it. Test builds (debug assertions, which `install.sh`
//! never builds) take the folder from `$PROGRAMMER_HOOK_TEST_MANAGED_DIR`, so that tests
//! can reach it without root; a build-time path for test builds would be shared by every
//! test at once, and a Cargo feature could be turned on for a release build by anyone
//! building it, where debug assertions are off in every release profile. `doctor` names a
//! test build. The file is read only in an `auto` session, when a Confirm call could be
//! relaxed: never on the everyday call.

use serde_json::Value;

/// What the managed policy lets autonomy `auto` relax.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ManagedAutonomy {
    /// As the session says.
    Allowed,
    /// Only calls that run contained in Claude Code's sandbox.
    SandboxOnly,
    /// Nothing; the reason (the file's setting, or why it could not be read).
    Never(String),
}

/// The file's name in the managed folder.
pub const FILE_NAME: &str = "programmer-hook.json";

/// The name of the managed policy's rules file in the managed folder: a policy file of the
/// same schema as the user's (see `policy/README.md`), merged after the defaults and before
/// the user's and a project's files, whose rules and `sensitive` paths they cannot loosen.
pub const POLICY_FILE_NAME: &str = "programmer-hook.toml";

/// Where the managed policy's rules file is on this machine. Read on every call; when it
/// is not there, that costs one failed open.
pub fn policy_path() -> std::path::PathBuf {
    super::sandbox_settings::managed_dir().join(POLICY_FILE_NAME)
}

/// Reads the managed policy from the file's text (`None`: no file).
pub fn parse(text: Option<&str>) -> ManagedAutonomy {
    let Some(text) = text else {
        return ManagedAutonomy::Allowed;
    };
    let v: Value = match serde_json::from_str(text) {
        Ok(v) => v,
        Err(e) => {
            return ManagedAutonomy::Never(format!(
                "the managed policy is not valid JSON ({e}), so auto relaxes nothing"
            ))
        }
    };
    let Some(o) = v.as_object() else {
        return ManagedAutonomy::Never(
            "the managed policy is not a JSON object, so auto relaxes nothing".into(),
        );
    };
    if let Some(k) = o.keys().find(|k| *k != "autonomy") {
        return ManagedAutonomy::Never(format!(
            "the managed policy has the unknown key {k:?}, so auto relaxes nothing"
        ));
    }
    match o.get("autonomy") {
        None => ManagedAutonomy::Allowed,
        Some(Value::String(s)) if s == "allowed" => ManagedAutonomy::Allowed,
        Some(Value::String(s)) if s == "sandbox-only" => ManagedAutonomy::SandboxOnly,
        Some(Value::String(s)) if s == "never" => {
            ManagedAutonomy::Never("the managed policy does not allow autonomy auto".into())
        }
        Some(other) => ManagedAutonomy::Never(format!(
            "the managed policy's `autonomy` is {other}, not \"allowed\", \"sandbox-only\" or \"never\", so auto relaxes nothing"
        )),
    }
}

/// The managed policy of this machine.
pub fn load() -> ManagedAutonomy {
    let path = super::sandbox_settings::managed_dir().join(FILE_NAME);
    match std::fs::read_to_string(&path) {
        Ok(t) => parse(Some(&t)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => parse(None),
        Err(e) => ManagedAutonomy::Never(format!(
            "the managed policy {} could not be read ({e}), so auto relaxes nothing",
            path.display()
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn managed_policy_table() {
        use ManagedAutonomy::*;
        #[rustfmt::skip]
        let cases: &[(Option<&str>, Result<ManagedAutonomy, &str>)] = &[
            (None, Ok(Allowed)),
            (Some("{}"), Ok(Allowed)),
            (Some(r#"{"autonomy": "allowed"}"#), Ok(Allowed)),
            (Some(r#"{"autonomy": "sandbox-only"}"#), Ok(SandboxOnly)),
            (Some(r#"{"autonomy": "never"}"#), Err("does not allow")),
            // Anything else relaxes nothing.
            (Some(""), Err("not valid JSON")),
            (Some("{\"autonomy\": "), Err("not valid JSON")),
            (Some("[]"), Err("not a JSON object")),
            (Some(r#"{"autonomy": "sometimes"}"#), Err("not \"allowed\"")),
            (Some(r#"{"autonomy": true}"#), Err("not \"allowed\"")),
            (Some(r#"{"autonomy": null}"#), Err("not \"allowed\"")),
            (Some(r#"{"autonomy": "allowed", "extra": 1}"#), Err("unknown key")),
            (Some(r#"{"Autonomy": "allowed"}"#), Err("unknown key")),
        ];
        for (text, want) in cases {
            let got = parse(*text);
            match (want, &got) {
                (Ok(w), g) if w == g => {}
                (Err(part), Never(why)) if why.contains(part) => {}
                _ => panic!("{text:?}: want {want:?}, got {got:?}"),
            }
        }
    }
}
