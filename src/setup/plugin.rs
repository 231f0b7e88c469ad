//! programmer-hook as a Claude Code plugin: the hooks it registers (`hooks/hooks.json`),
//! where Claude Code records that it is installed and enabled (for `doctor`, and for the
//! installers, which add no hook entries beside it), and the plugin's own command that
//! turns Claude Code's sandbox on.
//!
//! The plugin is the repository's own files (`.claude-plugin/`, `agents/`, `commands/`,
//! `skills/`, `hooks/hooks.json`, `bin/programmer-hook`) with a binary per platform in
//! `bin/<os>-<arch>/`; `scripts/package-plugin.sh` assembles it. Its state is the state dir
//! every install uses, never the plugin's folder, so an update or an uninstall keeps it.

use std::fs;
use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use crate::setup::installation::{self, BINARY_NAME, EVENTS};
use crate::setup::shell::quote_path;
use crate::workflow::pack::PLUGIN;

/// What the plugin's hook entries run: its launcher, which on its first run puts the binary
/// built for the machine in its own place (so later calls start no shell), runs it where it
/// cannot, and blocks every call when there is none.
pub const LAUNCHER: &str = "${CLAUDE_PLUGIN_ROOT}/bin/programmer-hook";

/// The plugin's `hooks/hooks.json`: the handler `install-hooks` writes into
/// `settings.json` (exec form, `onFailure: block`), running [`LAUNCHER`], for every event
/// the hook handles.
pub fn hooks_json() -> Value {
    let mut hooks = Map::new();
    for event in EVENTS {
        hooks.insert(
            event.as_str().to_string(),
            json!([installation::hook_group(LAUNCHER)]),
        );
    }
    json!({
        "description": "programmer-hook checks every tool call against the autonomy tiers, the workflow phase and the calling agent's role; a hook that cannot run blocks the call",
        "hooks": hooks,
    })
}

/// One installation of the plugin, as Claude Code records it in
/// `<config>/plugins/installed_plugins.json`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Install {
    /// `programmer@<marketplace>`.
    pub id: String,
    /// `user`, `project` or `local`.
    pub scope: String,
    /// The copy Claude Code loads.
    pub path: PathBuf,
    pub version: Option<String>,
    /// The project of a `project` or `local` install.
    pub project: Option<PathBuf>,
    /// Whether the settings enable it (see [`enabled`]).
    pub enabled: bool,
}

/// The settings files that may enable or disable a plugin, highest precedence first.
#[derive(Debug, Clone)]
pub struct SettingsFiles {
    /// Managed settings (`/etc/claude-code/managed-settings.json` and the like).
    pub managed: Vec<PathBuf>,
    /// The project Claude Code would start in (doctor's working folder), whose
    /// `.claude/settings.local.json` and `.claude/settings.json` come next.
    pub project: Option<PathBuf>,
    /// The user's `settings.json`.
    pub user: PathBuf,
}

impl SettingsFiles {
    /// The managed settings of this system and the user's `settings.json` in `config_dir`.
    pub fn of_system(config_dir: &Path) -> SettingsFiles {
        let managed_dir = if cfg!(target_os = "macos") {
            PathBuf::from("/Library/Application Support/ClaudeCode")
        } else {
            PathBuf::from("/etc/claude-code")
        };
        let mut managed = vec![managed_dir.join("managed-settings.json")];
        if let Ok(entries) = fs::read_dir(managed_dir.join("managed-settings.d")) {
            let mut more: Vec<PathBuf> = entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "json"))
                .collect();
            // Later files win, so the last is the highest.
            more.sort();
            more.reverse();
            managed.splice(0..0, more);
        }
        SettingsFiles {
            managed,
            project: None,
            user: installation::default_settings(config_dir),
        }
    }

    /// The files Claude Code would read started here: the system's managed settings, the
    /// project of the current folder's, and `settings` as the user's.
    pub fn here(config_dir: &Path, settings: &Path) -> SettingsFiles {
        SettingsFiles {
            user: settings.to_path_buf(),
            project: std::env::current_dir().ok(),
            ..SettingsFiles::of_system(config_dir)
        }
    }
}

/// `enabledPlugins[id]` of a settings file, when it sets one.
fn enabled_in(file: &Path, id: &str) -> Option<bool> {
    let bytes = fs::read(file).ok()?;
    let v: Value = serde_json::from_slice(&bytes).ok()?;
    v.get("enabledPlugins")?.get(id)?.as_bool()
}

/// Whether an install is enabled: the first setting of `enabledPlugins[id]` in Claude
/// Code's precedence order (managed, then a project's local and shared settings, then the
/// user's); a plugin no settings file mentions is on, as Claude Code starts it. The project
/// is the install's own for a `project` or `local` install, else [`SettingsFiles::project`].
pub fn enabled(id: &str, scope: &str, project: Option<&Path>, files: &SettingsFiles) -> bool {
    let mut order: Vec<PathBuf> = files.managed.clone();
    let project = match scope {
        "project" | "local" => project,
        _ => files.project.as_deref(),
    };
    if let Some(p) = project {
        order.push(p.join(".claude/settings.local.json"));
        order.push(p.join(".claude/settings.json"));
    }
    order.push(files.user.clone());
    order.iter().find_map(|f| enabled_in(f, id)).unwrap_or(true)
}

/// `<config>/plugins/installed_plugins.json`.
pub fn installed_plugins_file(config_dir: &Path) -> PathBuf {
    config_dir.join("plugins").join("installed_plugins.json")
}

/// Every installation of the plugin (`programmer@…`) Claude Code records in `config_dir`.
/// `Ok(empty)` when there is none, or no record at all; `Err` when the record cannot be
/// read.
pub fn installs(config_dir: &Path, files: &SettingsFiles) -> Result<Vec<Install>, String> {
    let file = installed_plugins_file(config_dir);
    let bytes = match fs::read(&file) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("cannot read {}: {e}", file.display())),
    };
    let v: Value = serde_json::from_slice(&bytes)
        .map_err(|e| format!("{} is not valid JSON: {e}", file.display()))?;
    let Some(plugins) = v.get("plugins").and_then(Value::as_object) else {
        return Ok(Vec::new());
    };
    let prefix = format!("{PLUGIN}@");
    let mut out = Vec::new();
    for (id, entries) in plugins {
        if !id.starts_with(&prefix) {
            continue;
        }
        // Version 2 lists one entry per scope; version 1 had a single object.
        let list: Vec<&Value> = match entries {
            Value::Array(a) => a.iter().collect(),
            v @ Value::Object(_) => vec![v],
            _ => Vec::new(),
        };
        for e in list {
            let text = |k: &str| e.get(k).and_then(Value::as_str).map(str::to_string);
            let Some(path) = text("installPath") else {
                continue;
            };
            let scope = text("scope").unwrap_or_else(|| "user".into());
            let project = text("projectPath").map(PathBuf::from);
            let enabled = enabled(id, &scope, project.as_deref(), files);
            out.push(Install {
                id: id.clone(),
                scope,
                path: PathBuf::from(path),
                version: text("version"),
                project,
                enabled,
            });
        }
    }
    Ok(out)
}

/// The name of this machine's platform as the plugin's `bin/` folders spell it
/// (`linux-x86_64`, `macos-aarch64`, …), the same names `bin/programmer-hook` looks for.
pub fn platform() -> String {
    format!("{}-{}", std::env::consts::OS, std::env::consts::ARCH)
}

/// The launcher in the folder of the marketplace that install `id` (`programmer@NAME`)
/// came from, as Claude Code records it (`plugins/known_marketplaces.json`): a path with no
/// version in it, which `claude plugin update` follows, unlike the install's own copy.
pub fn marketplace_launcher(config_dir: &Path, id: &str) -> Option<PathBuf> {
    let name = id.strip_prefix(&format!("{PLUGIN}@"))?;
    let bytes = fs::read(config_dir.join("plugins/known_marketplaces.json")).ok()?;
    let v: Value = serde_json::from_slice(&bytes).ok()?;
    let location = v.get(name)?.get("installLocation")?.as_str()?;
    let launcher = Path::new(location).join("bin").join(BINARY_NAME);
    launcher.is_file().then_some(launcher)
}

/// The command that turns Claude Code's sandbox on beside the plugin `i`: its own
/// programmer-hook (the marketplace's launcher, whose path follows updates, else the
/// install's copy) with `install-hooks --sandbox-only`.
pub fn sandbox_only_command(config_dir: &Path, i: &Install, settings: &Path) -> String {
    let launcher = marketplace_launcher(config_dir, &i.id)
        .unwrap_or_else(|| i.path.join("bin").join(BINARY_NAME));
    let mut cmd = format!("{} install-hooks --sandbox-only", quote_path(&launcher));
    if settings != installation::default_settings(config_dir) {
        cmd.push_str(&format!(" --settings {}", quote_path(settings)));
    }
    cmd
}

/// Whether this process runs as the plugin: Claude Code set `CLAUDE_PLUGIN_ROOT` for it
/// (the plugin's hooks), or the binary is in a plugin's folder (its launcher, once that is
/// the binary, or `bin/<platform>/`; through a link from a terminal too).
pub fn runs_as_plugin() -> bool {
    if std::env::var_os("CLAUDE_PLUGIN_ROOT").is_some_and(|v| !v.is_empty()) {
        return true;
    }
    let Some(exe) = std::env::current_exe()
        .ok()
        .and_then(|e| fs::canonicalize(e).ok())
    else {
        return false;
    };
    root_of(&exe).is_some()
}

/// The folder of the plugin a binary belongs to: `ROOT` for `ROOT/bin/programmer-hook` (its
/// launcher) or `ROOT/bin/<platform>/programmer-hook`, where `ROOT` holds the plugin's
/// manifest.
pub fn root_of(binary: &Path) -> Option<&Path> {
    binary.ancestors().skip(1).take(2).find_map(|bin| {
        let root = bin.parent()?;
        (bin.file_name().is_some_and(|n| n == "bin")
            && root.join(".claude-plugin/plugin.json").is_file())
        .then_some(root)
    })
}

/// The binary the plugin at `root` runs on this machine.
pub fn binary(root: &Path) -> PathBuf {
    root.join("bin").join(platform()).join(BINARY_NAME)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(dir: &Path) -> SettingsFiles {
        SettingsFiles {
            managed: vec![dir.join("managed.json")],
            project: None,
            user: dir.join("settings.json"),
        }
    }

    #[test]
    fn a_binary_belongs_to_the_plugin_whose_bin_folder_holds_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        let root = dir.path().join("plugin");
        fs::create_dir_all(root.join(".claude-plugin")).expect("mkdir");
        fs::write(root.join(".claude-plugin/plugin.json"), "{}").expect("manifest");
        let cases: &[(PathBuf, Option<&Path>)] = &[
            (root.join("bin").join(BINARY_NAME), Some(&root)),
            (root.join("bin/linux-x64").join(BINARY_NAME), Some(&root)),
            (root.join("lib").join(BINARY_NAME), None),
            (root.join("bin/a/b").join(BINARY_NAME), None),
            (dir.path().join("bin").join(BINARY_NAME), None),
        ];
        for (binary, want) in cases {
            assert_eq!(root_of(binary), *want, "{}", binary.display());
        }
    }

    #[test]
    fn installs_are_read_with_their_scope_and_whether_they_are_enabled() {
        let dir = tempfile::tempdir().expect("tempdir");
        let config = dir.path();
        let f = files(config);
        assert_eq!(installs(config, &f), Ok(vec![]), "no record, no install");
        fs::create_dir_all(config.join("plugins")).expect("mkdir");
        let record = json!({"version": 2, "plugins": {
            "programmer@programmer-hook": [
                {"scope": "user", "installPath": "/c/cache/programmer-hook/programmer/0.1.0", "version": "0.1.0"},
                {"scope": "project", "installPath": "/c/cache/x", "projectPath": config.join("proj")},
            ],
            "programmer-tools@elsewhere": [{"scope": "user", "installPath": "/c/other"}],
            "other@programmer-hook": [{"scope": "user", "installPath": "/c/other2"}],
        }});
        fs::write(installed_plugins_file(config), record.to_string()).expect("write");
        let got = installs(config, &f).expect("readable");
        assert_eq!(got.len(), 2, "{got:?}");
        assert_eq!(got[0].id, "programmer@programmer-hook");
        assert_eq!(got[0].scope, "user");
        assert_eq!(
            got[0].path,
            PathBuf::from("/c/cache/programmer-hook/programmer/0.1.0")
        );
        assert_eq!(got[0].version.as_deref(), Some("0.1.0"));
        assert!(got[0].enabled, "no settings: on");
        assert_eq!(got[1].scope, "project");

        // The user disables it; a project's settings and managed settings win over that.
        let id = "programmer@programmer-hook";
        fs::write(&f.user, json!({"enabledPlugins": {id: false}}).to_string()).expect("write");
        assert!(!enabled(id, "user", None, &f));
        let proj = config.join("proj");
        fs::create_dir_all(proj.join(".claude")).expect("mkdir");
        fs::write(
            proj.join(".claude/settings.json"),
            json!({"enabledPlugins": {id: true}}).to_string(),
        )
        .expect("write");
        assert!(enabled(id, "project", Some(&proj), &f));
        assert!(
            !enabled(id, "user", Some(&proj), &f),
            "a user install, outside the project"
        );
        let in_proj = SettingsFiles {
            project: Some(proj.clone()),
            ..f.clone()
        };
        assert!(
            enabled(id, "user", None, &in_proj),
            "a user install, in the project that enables it"
        );
        fs::write(
            &f.managed[0],
            json!({"enabledPlugins": {id: false}}).to_string(),
        )
        .expect("write");
        assert!(!enabled(id, "project", Some(&proj), &f), "managed wins");

        fs::write(installed_plugins_file(config), "{oops").expect("write");
        assert!(installs(config, &f).is_err());
    }

    #[test]
    fn the_hooks_cover_every_event_and_fail_closed() {
        let v = hooks_json();
        let hooks = v["hooks"].as_object().expect("hooks");
        assert_eq!(hooks.len(), EVENTS.len());
        for e in EVENTS {
            let h = &hooks[e.as_str()][0]["hooks"][0];
            assert_eq!(h["command"], LAUNCHER, "{e}");
            assert_eq!(h["args"], json!(["hook"]), "{e}");
            assert_eq!(h["onFailure"], "block", "{e}");
            assert!(installation::is_ours(h), "{e}");
        }
    }
}
