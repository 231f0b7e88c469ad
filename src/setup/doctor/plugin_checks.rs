//! Doctor's checks of the Claude Code plugin: each install Claude Code records (its
//! binary, hooks and copy of the pack) and the two kinds of install at once.

use std::path::PathBuf;

use super::fixes::Fixes;
use super::*;
use crate::setup::npm;

/// How to describe an install of the plugin in one line.
fn describe(i: &plugin::Install) -> String {
    let version = i.version.as_deref().unwrap_or("unknown version");
    let state = if i.enabled { "enabled" } else { "disabled" };
    format!(
        "{} {version} ({} scope, {state}) at {}",
        i.id,
        i.scope,
        i.path.display()
    )
}

/// The plugin: each install Claude Code records, checked like an install.sh one (its
/// binary, its hooks, its copy of the pack), and the two kinds of install at once.
pub(super) fn check_plugin(
    installs: &Result<Vec<plugin::Install>, String>,
    hook_binaries: &[PathBuf],
    fixes: &Fixes,
) -> Vec<Check> {
    let list = match installs {
        Ok(l) => l,
        Err(e) => {
            return vec![Check::fail(
                PLUGIN_CHECK,
                format!("{e}; whether the plugin is installed cannot be told"),
                "repair or remove that file, then reinstall the plugin: claude plugin install programmer@programmer-hook",
            )];
        }
    };
    if list.is_empty() {
        return vec![Check::ok(
            PLUGIN_CHECK,
            format!("{} is not installed as a Claude Code plugin", pack::PLUGIN),
        )];
    }
    let mut checks: Vec<Check> = list.iter().map(check_plugin_install).collect();
    checks.extend(check_one_install(list, hook_binaries, fixes));
    checks
}

const PLUGIN_CHECK: &str = "plugin";

/// One install of the plugin: a problem fails the check only while the plugin is enabled.
fn check_plugin_install(i: &plugin::Install) -> Check {
    let problems = plugin_problems(i);
    if problems.is_empty() || !i.enabled {
        let mut detail = describe(i);
        if !problems.is_empty() {
            detail.push_str(&format!(" (not in use: {})", problems.join("; ")));
        }
        return Check::ok(PLUGIN_CHECK, detail);
    }
    Check::fail(
        PLUGIN_CHECK,
        format!("{}: {}", describe(i), problems.join("; ")),
        Fixes::plugin(&i.id),
    )
}

/// What is wrong with one copy of the plugin: its binary, its hooks, its pack.
fn plugin_problems(i: &plugin::Install) -> Vec<String> {
    let mut problems: Vec<String> = plugin_binary_problem(i).into_iter().collect();
    let hooks = fs::read(i.path.join("hooks/hooks.json"))
        .ok()
        .and_then(|b| serde_json::from_slice::<Value>(&b).ok());
    if hooks.as_ref() != Some(&plugin::hooks_json()) {
        problems.push("its hooks/hooks.json is not the one this binary registers (every event, onFailure block)".into());
    }
    let different: Vec<&str> = pack::PACK_FILES
        .iter()
        .filter(|(rel, text)| fs::read(i.path.join(rel)).ok().as_deref() != Some(text.as_bytes()))
        .map(|(rel, _)| *rel)
        .collect();
    if !different.is_empty() {
        problems.push(format!(
            "its copy of the pack differs from the one built into this binary: {}",
            different.join(", ")
        ));
    }
    problems
}

/// The plugin's launcher and its binary for this machine, at this doctor's version.
fn plugin_binary_problem(i: &plugin::Install) -> Option<String> {
    let launcher = i.path.join("bin").join(BINARY_NAME);
    let bin = plugin::binary(&i.path);
    if !is_executable(&launcher) {
        return Some(format!("its launcher {} is missing", launcher.display()));
    }
    // Once the launcher has run it is the binary itself (it puts it in its own place).
    if !is_executable(&bin) && !npm::is_native(&launcher) {
        return Some(format!(
            "it has no binary for {} ({} is missing), so it blocks every tool call",
            plugin::platform(),
            bin.display()
        ));
    }
    match hook_version(&launcher) {
        Some(v) if v == VERSION => None,
        Some(v) => Some(format!(
            "its binary is version {v}, this doctor is {VERSION}"
        )),
        None => Some(format!("{} does not run `--version`", launcher.display())),
    }
}

/// The plugin enabled and install.sh's hook entries in settings.json: every hook runs twice.
fn check_one_install(
    list: &[plugin::Install],
    hook_binaries: &[PathBuf],
    fixes: &Fixes,
) -> Option<Check> {
    let i = list.iter().find(|i| i.enabled)?;
    if hook_binaries.is_empty() {
        return None;
    }
    Some(Check::fail(
        "one install",
        format!(
            "the plugin {} and install.sh's hook entries in settings.json (running {}) are both active: every hook runs twice",
            i.id,
            hook_binaries
                .iter()
                .map(|b| b.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
        format!(
            "keep one: {} (keeps the state dir), or claude plugin uninstall {}",
            fixes.remove_hook_entries(),
            i.id
        ),
    ))
}
