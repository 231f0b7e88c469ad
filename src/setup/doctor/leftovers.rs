//! Doctor after an uninstall: nothing of programmer-hook is installed any more (no hook
//! entries of ours, no plugin Claude Code records, no record of an install, no pack), but
//! its state dir is there, so it was used. Then doctor does not say how to install it
//! again: it lists what is left (the plugin's copies and marketplace, a terminal link, the
//! npm package, the sandbox settings, the state dir, backups), each with the command that
//! removes it.

use std::path::{Path, PathBuf};

use super::*;
use crate::setup::installation::RECORD;
use crate::setup::shell::{quote, quote_path};
use crate::setup::{npm, plugin, sandbox};

const LEFT: &str = "left over";

/// The checks doctor gives instead of its usual ones when nothing is installed any more
/// (see the module's comment); `None` when something is, or when it cannot be told.
pub(super) fn uninstalled(
    places: &Places,
    settings: &Path,
    installs: &Result<Vec<plugin::Install>, String>,
) -> Option<Vec<Check>> {
    let config = &places.config_dir;
    let state = &places.state_dir;
    let no_plugin = installs.as_ref().is_ok_and(|l| l.is_empty());
    // A settings file that cannot be read is for the usual checks to report.
    let no_entries = match fs::read(settings) {
        Ok(b) => {
            let v: Value = serde_json::from_slice(&b).ok()?;
            let e = Entries::scan(&v);
            e.binaries.is_empty() && e.missing.len() == EVENTS.len()
        }
        Err(e) => e.kind() == std::io::ErrorKind::NotFound,
    };
    let no_pack = pack::pack()
        .iter()
        .all(|(rel, _)| !config.join(rel).exists());
    let no_record = !state.join(RECORD).exists();
    if !(no_plugin && no_entries && no_pack && no_record && state.is_dir()) {
        return None;
    }
    let mut checks = vec![Check::fail(
        "install",
        format!(
            "programmer-hook is not installed any more: {} has no hook entries of it, Claude Code records no install of its plugin, and there is no record of install.sh or `programmer-hook install`; so no tool call is checked. What is left of it is below, each with the command that removes it",
            settings.display()
        ),
        "nothing to repair after an uninstall: remove what is left (below), or keep it",
    )];
    checks.extend(plugin_leftovers(config));
    checks.extend(links());
    checks.extend(npm_package());
    checks.extend(sandbox_settings(state, settings));
    checks.extend(backups(settings));
    checks.push(Check::ok(
        LEFT,
        format!(
            "the state dir {} (audit log, projects, preferences), kept on purpose; to remove it: rm -rf {}",
            state.display(),
            quote_path(state)
        ),
    ));
    Some(checks)
}

/// The bytes of the files under `dir`.
fn size(dir: &Path) -> u64 {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    entries
        .filter_map(|e| e.ok())
        .map(|e| match e.file_type() {
            Ok(t) if t.is_dir() => size(&e.path()),
            Ok(t) if t.is_file() => e.metadata().map_or(0, |m| m.len()),
            _ => 0,
        })
        .sum()
}

fn megabytes(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

/// Whether `dir` is a marketplace that holds the plugin (its `marketplace.json` lists a
/// plugin named [`pack::PLUGIN`]).
fn holds_the_plugin(dir: &Path) -> bool {
    fs::read(dir.join(".claude-plugin/marketplace.json"))
        .ok()
        .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
        .and_then(|v| v.get("plugins").and_then(Value::as_array).cloned())
        .is_some_and(|ps| ps.iter().any(|p| p["name"] == pack::PLUGIN))
}

/// The plugin's copies in Claude Code's cache (`plugins/cache/<marketplace>/programmer`),
/// which an uninstall leaves, and the marketplaces still registered that hold it.
fn plugin_leftovers(config: &Path) -> Vec<Check> {
    let mut out = Vec::new();
    let cache = config.join("plugins/cache");
    let mut dirs: Vec<PathBuf> = fs::read_dir(&cache)
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .map(|e| e.path().join(pack::PLUGIN))
        .filter(|p| p.is_dir())
        .collect();
    dirs.sort();
    for d in dirs {
        // The marketplace's folder in the cache, when the plugin is all it holds.
        let remove = match d.parent() {
            Some(m) if fs::read_dir(m).map(|e| e.count()).unwrap_or(0) == 1 => m.to_path_buf(),
            _ => d.clone(),
        };
        out.push(Check::fail(
            LEFT,
            format!(
                "the copies of the plugin Claude Code ran, in {} ({}; Claude Code marks them orphaned and removes them in time)",
                d.display(),
                megabytes(size(&d))
            ),
            format!("rm -rf {}", quote_path(&remove)),
        ));
    }
    let known = fs::read(config.join("plugins/known_marketplaces.json"))
        .ok()
        .and_then(|b| serde_json::from_slice::<Value>(&b).ok());
    for (name, m) in known
        .as_ref()
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
    {
        let Some(location) = m.get("installLocation").and_then(Value::as_str) else {
            continue;
        };
        let location = Path::new(location);
        if !holds_the_plugin(location) {
            continue;
        }
        let what = if location.starts_with(config.join("plugins")) {
            format!("its copy in {} goes with it", location.display())
        } else {
            format!(
                "it was added from the folder {}, which stays: remove that too if it was made only for this (as scripts/package-plugin.sh makes one)",
                location.display()
            )
        };
        out.push(Check::fail(
            LEFT,
            format!("the marketplace {name}, still registered with Claude Code; {what}"),
            format!("claude plugin marketplace remove {}", quote(name)),
        ));
    }
    out
}

/// Links named programmer-hook in `PATH`'s folders that lead into a plugin's folder or
/// nowhere: a terminal's way to the plugin, left by its uninstall.
fn links() -> Vec<Check> {
    let Some(path) = std::env::var_os("PATH") else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for dir in std::env::split_paths(&path).filter(|d| !d.as_os_str().is_empty()) {
        let link = dir.join(BINARY_NAME);
        let Ok(target) = fs::read_link(&link) else {
            continue;
        };
        let resolved = fs::canonicalize(&link).ok();
        let into_plugin = resolved
            .as_deref()
            .is_some_and(|r| plugin::root_of(r).is_some());
        if resolved.is_none() || into_plugin {
            let what = if resolved.is_none() {
                "which leads nowhere now"
            } else {
                "into the plugin's folder"
            };
            out.push(Check::fail(
                LEFT,
                format!(
                    "the terminal link {} -> {} ({what})",
                    link.display(),
                    target.display()
                ),
                format!("rm {}", quote_path(&link)),
            ));
        }
    }
    out
}

/// The npm package this binary belongs to, if it does.
fn npm_package() -> Option<Check> {
    let exe = std::env::current_exe().ok()?;
    let exe = fs::canonicalize(&exe).unwrap_or(exe);
    let layout = npm::layout(&exe)?;
    let mut packages = vec![npm::PACKAGE.to_string()];
    packages.extend(npm::platform_packages_beside(&layout));
    Some(Check::fail(
        LEFT,
        format!(
            "the npm package in {} (this binary)",
            layout.package.display()
        ),
        format!("npm uninstall -g {}", packages.join(" ")),
    ))
}

/// The sandbox settings `install-hooks --sandbox` added, which `uninstall-hooks` takes out.
fn sandbox_settings(state: &Path, settings: &Path) -> Option<Check> {
    if !sandbox::record_in(state).is_file() {
        return None;
    }
    // This binary, or, for the plugin's binary, the plugin's own command (its launcher).
    let me = std::env::current_exe()
        .map(|e| {
            let launcher = plugin::root_of(&e).map(|root| root.join("bin").join(BINARY_NAME));
            quote_path(launcher.as_deref().unwrap_or(&e))
        })
        .unwrap_or_else(|_| BINARY_NAME.to_string());
    Some(Check::fail(
        LEFT,
        format!(
            "Claude Code's sandbox settings that install-hooks --sandbox added to {}",
            settings.display()
        ),
        format!("{me} uninstall-hooks"),
    ))
}

/// The backups of the settings file.
fn backups(settings: &Path) -> Option<Check> {
    let (dir, name) = (settings.parent()?, settings.file_name()?.to_str()?);
    let prefix = format!("{name}.bak-");
    let mut found: Vec<PathBuf> = fs::read_dir(dir)
        .ok()?
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .map(|e| e.path())
        .collect();
    if found.is_empty() {
        return None;
    }
    found.sort();
    Some(Check::ok(
        LEFT,
        format!(
            "the backup of {} from the last change (the file as it was before it): remove it when you no longer need it: rm {}",
            settings.display(),
            found
                .iter()
                .map(|p| quote_path(p))
                .collect::<Vec<_>>()
                .join(" ")
        ),
    ))
}
