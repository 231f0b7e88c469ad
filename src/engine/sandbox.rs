//! Whether a Bash call will run confined in Claude Code's sandbox, decided from plain values.
//!
//! Claude Code runs a Bash call under bubblewrap (Linux) or Seatbelt (macOS) when its
//! effective settings enable the sandbox: writes only in the working folder and its
//! temporary folder, network through a proxy with an allow-list. Autonomy `auto` lets the
//! code of a project that the hook cannot read run without asking only when it is so
//! confined ([`crate::engine::classify::Verdict::contained`]); this module says whether it
//! is. It reads nothing: the settings files come in as [`SettingsFile`] values (read by
//! the hook's edge, `hook::sandbox_settings`), so every case is a table test.
//!
//! Contained means, with Claude Code's precedence (managed, project-local, project, user;
//! the first that sets a key wins, lists are merged):
//! - `sandbox.enabled` and `sandbox.failIfUnavailable` are true, and
//!   `sandbox.allowUnsandboxedCommands` is false (so `dangerouslyDisableSandbox` is
//!   ignored and nothing falls back to running unsandboxed);
//! - nothing loosens the confinement: `filesystem.disabled`, `allowNestedUserNamespaces`,
//!   `enableWeakerNestedSandbox`, `allowAppleEvents`, `network.allowAllUnixSockets`, any
//!   `network.allowUnixSockets` or `network.allowMachLookup`, any `excludedCommands`;
//! - no path added to the writable set (`filesystem.allowWrite`, `Edit(…)` allow rules,
//!   `permissions.additionalDirectories`) or re-opened for reading (`filesystem.allowRead`)
//!   is a protected or secret path of the policy, holds one, or is a broad folder;
//! - the denies that `install-hooks --sandbox` writes ([`recommended`]) are all in force;
//! - the project folder is not the home folder or above it (the sandbox would let code
//!   write all of it).
//!
//! A settings file that is not valid JSON, or whose `sandbox` keys have the wrong type,
//! makes the sandbox count as off: never as on. So does anything this module does not
//! understand. Settings given on the client's command line (`--settings`) and
//! server-managed settings are not seen by a hook; they are the user's and the admin's
//! own choice.

use std::path::Path;

use serde_json::{json, Map, Value};

use crate::engine::paths::{self, Places};
use crate::engine::policy::PathLists;

/// Where a settings file sits in Claude Code's precedence, highest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Managed,
    Local,
    Project,
    User,
}

impl Level {
    pub fn name(self) -> &'static str {
        match self {
            Level::Managed => "managed",
            Level::Local => "project-local",
            Level::Project => "project",
            Level::User => "user",
        }
    }
}

/// What a settings file held.
#[derive(Debug, Clone)]
pub enum Content {
    Missing,
    Json(Value),
    /// Could not be read or is not JSON: why.
    Malformed(String),
}

/// One settings file: its level, where it is (for messages and relative paths) and what
/// it held.
#[derive(Debug, Clone)]
pub struct SettingsFile {
    pub level: Level,
    pub path: String,
    pub content: Content,
}

/// The decision: contained, or every reason it is not.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Containment {
    pub problems: Vec<String>,
}

impl Containment {
    pub fn contained(&self) -> bool {
        self.problems.is_empty()
    }
}

/// What the decision needs besides the settings: the project folder, the places and the
/// policy's path lists.
pub struct Scope<'a> {
    pub project: &'a Path,
    pub places: &'a Places,
    pub lists: &'a PathLists,
}

/// The sandbox keys `install-hooks --sandbox` writes into the user's settings: on, no
/// unsandboxed fallback, fail when unavailable, reads denied for the policy's secrets and
/// writes denied for its protected paths (those that have a fixed place).
pub fn recommended(lists: &PathLists, places: &Places) -> Value {
    let fill = |v: Vec<String>| -> Vec<String> {
        v.into_iter()
            .filter_map(|e| {
                if e.starts_with('~') {
                    Some(e)
                } else {
                    expand_fixed(&e, places)
                }
            })
            .collect()
    };
    json!({
        "enabled": true,
        "failIfUnavailable": true,
        "allowUnsandboxedCommands": false,
        "filesystem": {
            "denyRead": fill(fixed_places(lists.sensitive.iter())),
            "denyWrite": fill(fixed_places(lists.protected.iter())),
        }
    })
}

/// The patterns of a path list that name one place under the home folder or a known
/// folder of Claude Code or the product, as sandbox paths (`~/.ssh`, `{config}/agents`
/// stays a placeholder until [`expand_fixed`]).
fn fixed_places<'a>(patterns: impl Iterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for p in patterns {
        let base = p.strip_suffix("/**").unwrap_or(p);
        let rest = ["~/", "{config}", "{state}"]
            .iter()
            .find_map(|pre| base.strip_prefix(pre));
        let Some(rest) = rest else { continue };
        if rest.contains(['*', '?', '[', '{'])
            || !(rest.is_empty() || rest.starts_with('/') || base.starts_with('~'))
        {
            continue;
        }
        if !out.iter().any(|o| o == base) {
            out.push(base.to_string());
        }
    }
    out
}

/// A recommended entry with its placeholders filled in, as it is written to settings.
pub fn expand_fixed(entry: &str, places: &Places) -> Option<String> {
    paths::expand_pattern(entry, places).map(|c| c.into_owned())
}

/// Whether a Bash call's input asks to leave the sandbox. Anything but an absent, null or
/// false `dangerouslyDisableSandbox` counts as asking.
pub fn call_leaves_sandbox(tool_input: &Value) -> bool {
    !matches!(
        tool_input.get("dangerouslyDisableSandbox"),
        None | Some(Value::Null) | Some(Value::Bool(false))
    )
}

/// One file's `sandbox` object and `permissions` object.
type Layer<'a> = (
    &'a SettingsFile,
    &'a Map<String, Value>,
    Option<&'a Map<String, Value>>,
);

/// The sandbox object of each file, or the reasons a file makes the sandbox count as off.
fn sandbox_objects<'a>(files: &'a [SettingsFile], problems: &mut Vec<String>) -> Vec<Layer<'a>> {
    let mut out = Vec::new();
    for f in files {
        let v = match &f.content {
            Content::Missing => continue,
            Content::Malformed(why) => {
                problems.push(format!(
                    "the {} settings {} could not be read ({why}), so the sandbox counts as off",
                    f.level.name(),
                    f.path
                ));
                continue;
            }
            Content::Json(v) => v,
        };
        let Some(top) = v.as_object() else {
            problems.push(format!(
                "the {} settings {} are not a JSON object, so the sandbox counts as off",
                f.level.name(),
                f.path
            ));
            continue;
        };
        let perms = top.get("permissions").and_then(Value::as_object);
        match top.get("sandbox") {
            None => out.push((f, EMPTY.get_or_init(Map::new), perms)),
            Some(Value::Object(m)) => out.push((f, m, perms)),
            Some(_) => problems.push(format!(
                "`sandbox` in the {} settings {} is not an object, so the sandbox counts as off",
                f.level.name(),
                f.path
            )),
        }
    }
    out
}

static EMPTY: std::sync::OnceLock<Map<String, Value>> = std::sync::OnceLock::new();

/// The value at a dotted key of a sandbox object (`filesystem.allowWrite`).
fn at<'a>(m: &'a Map<String, Value>, key: &str) -> Option<&'a Value> {
    let mut parts = key.split('.');
    let mut v = m.get(parts.next()?)?;
    for p in parts {
        v = v.as_object()?.get(p)?;
    }
    Some(v)
}

/// Decides whether a Bash call in `scope.project` runs confined, from the settings files
/// in any order.
pub fn judge(files: &[SettingsFile], scope: &Scope) -> Containment {
    let mut problems = Vec::new();
    let mut layers = sandbox_objects(files, &mut problems);
    layers.sort_by_key(|(f, _, _)| f.level);

    // A value of the wrong type is a malformed file: the sandbox counts as off.
    let bool_at = |key: &str, problems: &mut Vec<String>| -> Vec<(Level, bool)> {
        let mut out = Vec::new();
        for (f, m, _) in &layers {
            match at(m, key) {
                None | Some(Value::Null) => {}
                Some(Value::Bool(b)) => out.push((f.level, *b)),
                Some(_) => problems.push(format!(
                    "`sandbox.{key}` in {} is not true or false, so the sandbox counts as off",
                    f.path
                )),
            }
        }
        out
    };
    // The first level that sets a key decides; files of one level that disagree count as
    // the value that does not contain.
    let effective = |vals: &[(Level, bool)], bad: bool| -> Option<bool> {
        let top = vals.first()?.0;
        let at_top = vals.iter().filter(|(l, _)| *l == top);
        Some(if at_top.clone().any(|(_, b)| *b == bad) {
            bad
        } else {
            !bad
        })
    };
    let enabled = bool_at("enabled", &mut problems);
    if effective(&enabled, false) != Some(true) {
        problems.push("the sandbox is not enabled (`sandbox.enabled`)".into());
    }
    let fail = bool_at("failIfUnavailable", &mut problems);
    if effective(&fail, false) != Some(true) {
        problems.push("`sandbox.failIfUnavailable` is not true, so a call may run unsandboxed when the sandbox cannot start".into());
    }
    let fallback = bool_at("allowUnsandboxedCommands", &mut problems);
    if effective(&fallback, true) != Some(false) {
        problems.push("`sandbox.allowUnsandboxedCommands` is not false, so a call may leave the sandbox (`dangerouslyDisableSandbox`)".into());
    }
    for (key, what) in [
        (
            "filesystem.disabled",
            "turns the filesystem confinement off",
        ),
        (
            "allowNestedUserNamespaces",
            "lets code undo the write denies",
        ),
        ("enableWeakerNestedSandbox", "weakens the sandbox"),
        (
            "allowAppleEvents",
            "lets code start programs outside the sandbox",
        ),
        (
            "network.allowAllUnixSockets",
            "lets code reach every local socket (a container engine's among them)",
        ),
    ] {
        let vals = bool_at(key, &mut problems);
        if effective(&vals, true) == Some(true) {
            problems.push(format!("`sandbox.{key}` is true, which {what}"));
        }
    }

    // Lists are merged across the files.
    let list_at = |key: &str, problems: &mut Vec<String>| -> Vec<(Level, String, String)> {
        let mut out = Vec::new();
        for (f, m, _) in &layers {
            match at(m, key) {
                None | Some(Value::Null) => {}
                Some(Value::Array(a)) => {
                    for v in a {
                        match v.as_str() {
                            Some(s) => out.push((f.level, f.path.clone(), s.to_string())),
                            None => problems.push(format!(
                                "`sandbox.{key}` in {} holds a value that is not text, so the sandbox counts as off",
                                f.path
                            )),
                        }
                    }
                }
                Some(_) => problems.push(format!(
                    "`sandbox.{key}` in {} is not a list, so the sandbox counts as off",
                    f.path
                )),
            }
        }
        out
    };
    for (key, what) in [
        (
            "excludedCommands",
            "commands that match run outside the sandbox",
        ),
        (
            "network.allowUnixSockets",
            "code may reach those local sockets",
        ),
        (
            "network.allowMachLookup",
            "code may reach those services outside the sandbox",
        ),
    ] {
        let vals = list_at(key, &mut problems);
        if let Some((_, path, v)) = vals.first() {
            problems.push(format!("`sandbox.{key}` in {path} lists {v:?}: {what}"));
        }
    }
    let project = paths::normalize(scope.project);
    let ctx = PathCtx {
        project: &project,
        places: scope.places,
        lists: scope.lists,
    };
    for (level, path, entry) in list_at("filesystem.allowWrite", &mut problems) {
        if let Some(why) = ctx.risky(&entry, level, &path, Access::Write) {
            problems.push(format!(
                "`sandbox.filesystem.allowWrite` in {path} adds {entry:?}, {why}"
            ));
        }
    }
    for (level, path, entry) in list_at("filesystem.allowRead", &mut problems) {
        if let Some(why) = ctx.risky(&entry, level, &path, Access::Read) {
            problems.push(format!(
                "`sandbox.filesystem.allowRead` in {path} re-opens {entry:?}, {why}"
            ));
        }
    }
    // Permission rules add to the writable set too.
    for (f, _, perms) in &layers {
        let Some(perms) = perms else { continue };
        for (key, edit_rules) in [("allow", true), ("additionalDirectories", false)] {
            let Some(list) = perms.get(key).and_then(Value::as_array) else {
                continue;
            };
            for v in list.iter().filter_map(Value::as_str) {
                let entry = if edit_rules {
                    match edit_rule_path(v, &project) {
                        Some(p) => p,
                        None => continue,
                    }
                } else {
                    v.to_string()
                };
                if let Some(why) = ctx.risky(&entry, f.level, &f.path, Access::Write) {
                    problems.push(format!(
                        "`permissions.{key}` in {} lets sandboxed code write {v:?}, {why}",
                        f.path
                    ));
                }
            }
        }
    }

    // The denies the product writes must all be in force.
    let denied = |key: &str, problems: &mut Vec<String>| -> Vec<String> {
        let mut out = Vec::new();
        for (level, path, entry) in list_at(key, problems) {
            if let Some(p) = ctx.absolute(&entry, level, &path) {
                out.push(p);
            }
        }
        out
    };
    let deny_read = denied("filesystem.denyRead", &mut problems);
    let deny_write = denied("filesystem.denyWrite", &mut problems);
    let want = recommended(scope.lists, scope.places);
    for (key, have) in [("denyRead", &deny_read), ("denyWrite", &deny_write)] {
        let missing: Vec<String> = want["filesystem"][key]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .filter_map(|e| ctx.absolute(e, Level::Managed, ""))
            .filter(|e| {
                !have.iter().any(|h| {
                    e.strip_prefix(h.as_str())
                        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
                })
            })
            .collect();
        if let Some(first) = missing.first() {
            problems.push(format!(
                "`sandbox.filesystem.{key}` does not hold {first:?} ({} missing in all)",
                missing.len()
            ));
        }
    }
    let home = paths::normalize(&scope.places.home);
    if project == "/" || home == project || home.starts_with(&format!("{project}/")) {
        problems.push(format!(
            "the project folder {project} is the home folder or above it, so sandboxed code could write all of it"
        ));
    }
    problems.dedup();
    Containment { problems }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    Read,
    Write,
}

struct PathCtx<'a> {
    project: &'a str,
    places: &'a Places,
    lists: &'a PathLists,
}

impl PathCtx<'_> {
    /// A sandbox path as Claude Code resolves it: absolute, `~` expanded, or relative to
    /// the settings file's root (the project for project settings, Claude Code's config
    /// folder for the user's). `None` when it cannot be placed.
    fn absolute(&self, entry: &str, level: Level, _file: &str) -> Option<String> {
        let home = self.places.home.to_string_lossy();
        let p = if entry == "~" {
            home.to_string()
        } else if let Some(rest) = entry.strip_prefix("~/") {
            format!("{home}/{rest}")
        } else if entry.starts_with('/') {
            entry.to_string()
        } else {
            let root = match level {
                Level::Project | Level::Local => self.project.to_string(),
                Level::User => self.places.config_dir.to_string_lossy().to_string(),
                Level::Managed => return None,
            };
            format!("{root}/{entry}")
        };
        let p = p.trim_end_matches("/**").trim_end_matches("/*");
        Some(paths::normalize(Path::new(if p.is_empty() {
            "/"
        } else {
            p
        })))
    }

    /// Why adding `entry` to the writable (or readable) set would undo the containment.
    fn risky(&self, entry: &str, level: Level, file: &str, access: Access) -> Option<String> {
        let Some(p) = self.absolute(entry, level, file) else {
            return Some("a path the hook cannot place".into());
        };
        if p.contains(['*', '?', '[', '{']) {
            return Some("a pattern the hook cannot check".into());
        }
        if p == "/" || paths::is_home_folder(&p, &self.places.home) {
            return Some("the home folder or above it".into());
        }
        if access == Access::Write && p.matches('/').count() <= 1 {
            return Some("a top-level folder".into());
        }
        if access == Access::Write && self.lists.system.iter().any(|s| s == p) {
            return Some("a system folder".into());
        }
        let classes: &[(&crate::engine::policy::List, &str)] = match access {
            Access::Write => &[
                (&self.lists.protected, "a protected path"),
                (&self.lists.sensitive, "a secret"),
            ],
            Access::Read => &[(&self.lists.sensitive, "a secret")],
        };
        for (list, what) in classes {
            for pat in list.iter() {
                for pat in paths::expand_pattern_all(pat, self.places) {
                    let anchored = pat.starts_with('/');
                    if paths::glob_match(&pat, &p)
                        || (anchored && paths::glob_match(&pat, &format!("{p}/x")))
                    {
                        return Some(format!("which is {what} ({pat})"));
                    }
                    if anchored && paths::is_above_pattern(&p, &pat) {
                        return Some(format!("which holds {what} ({pat})"));
                    }
                }
            }
        }
        None
    }
}

/// The path of an `Edit(…)` permission rule as a sandbox path, when it may reach outside
/// the project: `//x` is absolute, `~/x` in the home folder, `/x` relative to the settings
/// file's root, and `x` relative to the project (`None` unless it climbs out of it).
fn edit_rule_path(rule: &str, project: &str) -> Option<String> {
    let inner = rule
        .strip_prefix("Edit(")
        .or_else(|| rule.strip_prefix("Write("))?
        .strip_suffix(')')?
        .trim();
    if let Some(abs) = inner.strip_prefix("//") {
        return Some(format!("/{abs}"));
    }
    if inner.starts_with('~') {
        return Some(inner.to_string());
    }
    if let Some(rel) = inner.strip_prefix('/') {
        // `absolute` places a relative path at the settings file's root.
        return Some(if rel.is_empty() {
            ".".into()
        } else {
            rel.into()
        });
    }
    inner
        .split('/')
        .any(|c| c == "..")
        .then(|| paths::normalize(&Path::new(project).join(inner)))
}

#[cfg(test)]
mod tests;
