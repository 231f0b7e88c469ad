//! Reads Claude Code's settings files for the sandbox decision: the I/O edge around the
//! pure [`crate::engine::sandbox::judge`].
//!
//! The files, in Claude Code's precedence: managed (`managed-settings.json` and the
//! `managed-settings.d/*.json` drop-ins of the managed folder, see [`managed_dir`]), the
//! project's `.claude/settings.local.json` and `.claude/settings.json`, and the user's
//! `settings.json` in Claude Code's config folder. The project is `$CLAUDE_PROJECT_DIR`,
//! which Claude Code sets for its hooks, else the call's working folder. A file that
//! cannot be read (other than missing) or parsed is passed on as malformed, which makes
//! the sandbox count as off.
//!
//! This is read only when a decision needs it (an opaque Confirm call in an `auto`
//! session), never on the everyday call.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::engine::paths::Places;
use crate::engine::policy::PathLists;
use crate::engine::sandbox::{self, Containment, Content, Level, Scope, SettingsFile};

/// The folder of Claude Code's managed settings, where the product's managed policy sits
/// too: `/etc/claude-code` on Linux, `/Library/Application Support/ClaudeCode` on macOS.
///
/// A release build has this path compiled in and nothing can move it: no environment
/// variable, flag or file. A build with debug assertions (what `cargo test` runs, never
/// what `install.sh` builds) takes `$PROGRAMMER_HOOK_TEST_MANAGED_DIR` when it is set, so
/// that tests can give each scratch home its own managed folder without root;
/// `programmer-hook doctor` says when the running binary is such a test build.
pub fn managed_dir() -> PathBuf {
    #[cfg(debug_assertions)]
    if let Some(d) = std::env::var_os(TEST_MANAGED_DIR_VAR).filter(|d| !d.is_empty()) {
        return PathBuf::from(d);
    }
    PathBuf::from(MANAGED_DIR)
}

/// The managed folder compiled into release builds.
pub const MANAGED_DIR: &str = if cfg!(target_os = "macos") {
    "/Library/Application Support/ClaudeCode"
} else {
    "/etc/claude-code"
};

/// The variable that moves the managed folder, in test builds only.
pub const TEST_MANAGED_DIR_VAR: &str = "PROGRAMMER_HOOK_TEST_MANAGED_DIR";

/// Whether this binary is a test build, whose managed folder can be moved.
pub const fn is_test_build() -> bool {
    cfg!(debug_assertions)
}

/// The project folder Claude Code reads project settings from.
pub fn project_dir(cwd: Option<&Path>) -> Option<PathBuf> {
    std::env::var_os("CLAUDE_PROJECT_DIR")
        .filter(|d| !d.is_empty())
        .map(PathBuf::from)
        .or_else(|| cwd.map(Path::to_path_buf))
}

/// The keys of a settings file that bear on the sandbox; the rest (hook entries and the
/// like) is checked to be JSON but not kept.
#[derive(serde::Deserialize)]
struct Wanted {
    #[serde(default)]
    sandbox: Option<Value>,
    #[serde(default)]
    permissions: Option<Value>,
}

/// A settings file's wanted keys as a JSON object, or why it is not a settings object.
fn wanted(bytes: &[u8]) -> Result<Value, String> {
    // A struct would also be read from a list: only an object is a settings file.
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err("not a valid settings object: it is not a JSON object".into());
    }
    let w: Wanted =
        serde_json::from_slice(bytes).map_err(|e| format!("not a valid settings object: {e}"))?;
    let mut o = serde_json::Map::new();
    if let Some(sb) = w.sandbox {
        o.insert("sandbox".into(), sb);
    }
    match w.permissions {
        None => {}
        Some(Value::Object(p)) => {
            let keep: serde_json::Map<String, Value> = p
                .into_iter()
                .filter(|(k, _)| k == "allow" || k == "additionalDirectories")
                .collect();
            o.insert("permissions".into(), Value::Object(keep));
        }
        Some(_) => {
            return Err("not a valid settings object: `permissions` is not an object".into())
        }
    }
    Ok(Value::Object(o))
}

fn read(level: Level, path: PathBuf) -> SettingsFile {
    let content = match std::fs::read(&path) {
        Ok(bytes) => match wanted(&bytes) {
            Ok(v) => Content::Json(v),
            Err(e) => Content::Malformed(e),
        },
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Content::Missing,
        Err(e) => Content::Malformed(e.to_string()),
    };
    SettingsFile {
        level,
        path: path.display().to_string(),
        content,
    }
}

/// Every settings file that bears on the sandbox of a call in `project`.
pub fn settings_files(places: &Places, project: &Path) -> Vec<SettingsFile> {
    let managed = managed_dir();
    let mut files = vec![read(Level::Managed, managed.join("managed-settings.json"))];
    let drop_ins = managed.join("managed-settings.d");
    match std::fs::read_dir(&drop_ins) {
        Ok(entries) => {
            let mut names: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .collect();
            names.sort();
            files.extend(names.into_iter().map(|p| read(Level::Managed, p)));
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => files.push(SettingsFile {
            level: Level::Managed,
            path: drop_ins.display().to_string(),
            content: Content::Malformed(e.to_string()),
        }),
    }
    let claude = project.join(".claude");
    files.push(read(Level::Local, claude.join("settings.local.json")));
    files.push(read(Level::Project, claude.join("settings.json")));
    files.push(read(Level::User, places.config_dir.join("settings.json")));
    files
}

/// Whether a Bash call in `project` runs confined in Claude Code's sandbox.
pub fn containment(places: &Places, lists: &PathLists, project: &Path) -> Containment {
    let files = settings_files(places, project);
    sandbox::judge(
        &files,
        &Scope {
            project,
            places,
            lists,
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Only the sandbox keys are kept; anything that is not a settings object is
    /// malformed, so the sandbox counts as off.
    #[test]
    fn wanted_keys() {
        #[rustfmt::skip]
        let cases: &[(&str, Result<Value, &str>)] = &[
            (r#"{"hooks": {"PreToolUse": []}, "sandbox": {"enabled": true}}"#, Ok(json!({"sandbox": {"enabled": true}}))),
            (r#"{"permissions": {"allow": ["Edit(~/**)"], "deny": ["Read(.env)"]}}"#, Ok(json!({"permissions": {"allow": ["Edit(~/**)"]}}))),
            (r#"{"sandbox": null}"#, Ok(json!({}))),
            ("{}", Ok(json!({}))),
            ("[]", Err("not a valid settings object")),
            ("{", Err("not a valid settings object")),
            ("", Err("not a valid settings object")),
            (r#"{"sandbox": {"enabled": true}, "sandbox": {"enabled": false}}"#, Err("duplicate field")),
            (r#"{"permissions": []}"#, Err("not a valid settings object")),
        ];
        for (text, want) in cases {
            match (wanted(text.as_bytes()), want) {
                (Ok(v), Ok(w)) => assert_eq!(&v, w, "{text}"),
                (Err(e), Err(part)) => assert!(e.contains(part), "{text}: {e}"),
                (got, _) => panic!("{text}: want {want:?}, got {got:?}"),
            }
        }
    }
}
