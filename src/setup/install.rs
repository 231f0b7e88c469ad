//! `install-hooks` and `uninstall-hooks`: programmer-hook's entries in Claude Code's
//! `settings.json` (and, when asked, the agents' entries in a `model-policy.json`).
//!
//! The settings file belongs to the user, so it is edited with care (see
//! [`crate::setup::user_files`]): the file is parsed as JSON and left untouched when it
//! does not parse; every key, hook and permission that is not ours is kept, in its order;
//! our own handlers are found by their command (`…/programmer-hook` run with the argument
//! `hook`) and replaced in place, so running the installer again never duplicates them;
//! nothing is written when nothing changes; and a copy of the old file is kept next to it
//! before it is replaced.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::Args;
use serde_json::{json, Map, Value};

use crate::setup::installation::{
    default_settings, hook_group, hook_handler, is_ours, BINARY_NAME, EVENTS,
};
use crate::setup::plugin;
use crate::setup::user_files::{edit_json_file, FileChange};
use crate::workflow::{roles, state};

#[derive(Args, Debug)]
pub struct InstallHooksArgs {
    /// The programmer-hook binary the entries run, as an absolute path
    /// (default: this binary).
    #[arg(long, value_name = "PATH")]
    pub binary: Option<PathBuf>,
    /// The settings file to change (default: settings.json in $CLAUDE_CONFIG_DIR or ~/.claude).
    #[arg(long, value_name = "FILE")]
    pub settings: Option<PathBuf>,
    /// Also add the pack's agents (and their models) to this model-policy.json, if it exists.
    #[arg(long, value_name = "FILE")]
    pub model_policy: Option<PathBuf>,
    /// Also turn on Claude Code's sandbox in the settings (no unsandboxed fallback, fail when
    /// unavailable, the policy's secrets unreadable and protected paths unwritable), so that
    /// autonomy `auto` runs project code the hook cannot read, confined. Where the plugin is
    /// installed and enabled, only the sandbox settings are written (its hooks are its own).
    #[arg(long)]
    pub sandbox: bool,
    /// Write only Claude Code's sandbox settings, not the hook entries (with the plugin,
    /// which brings its own hooks, or where the entries are in place already).
    #[arg(long)]
    pub sandbox_only: bool,
    /// Print what would change and change nothing.
    #[arg(long)]
    pub dry_run: bool,
}

#[derive(Args, Debug)]
pub struct UninstallHooksArgs {
    /// The settings file to change (default: settings.json in $CLAUDE_CONFIG_DIR or ~/.claude).
    #[arg(long, value_name = "FILE")]
    pub settings: Option<PathBuf>,
    /// Also remove the pack's agents from this model-policy.json, if it exists.
    #[arg(long, value_name = "FILE")]
    pub model_policy: Option<PathBuf>,
    /// Print what would change and change nothing.
    #[arg(long)]
    pub dry_run: bool,
}

pub fn install_hooks(args: InstallHooksArgs) -> Result<i32> {
    let places = state::places()?;
    let settings = args
        .settings
        .clone()
        .unwrap_or_else(|| default_settings(&places.config_dir));
    let binary = match &args.binary {
        Some(b) => {
            std::path::absolute(b).with_context(|| format!("bad --binary path {}", b.display()))?
        }
        None => std::env::current_exe().context("cannot tell where this binary is")?,
    };
    // The sandbox settings alone run no binary and add no hook: they fit any install,
    // the plugin's too. With `--sandbox` beside the plugin, that is all that is written.
    let plugin = enabled_plugin(&places.config_dir, &settings);
    let entries = !(args.sandbox_only || (args.sandbox && plugin.is_some()));
    if entries {
        check_binary(&binary)?;
        if let Some(i) = &plugin {
            return Err(beside_the_plugin(&places.config_dir, i, &settings));
        }
    }
    let binary_text = binary
        .to_str()
        .with_context(|| format!("the binary path {} is not valid UTF-8", binary.display()))?
        .to_string();
    let lock_at = places.state_dir.join("install");
    let _lock = if args.dry_run {
        None
    } else {
        Some(state::lock(&lock_at)?)
    };
    // A settings file this makes is recorded, so that uninstall-hooks can remove it again
    // once nothing is left in it.
    let creates = !args.dry_run && fs::symlink_metadata(&settings).is_err();
    if let (false, false, Some(i)) = (entries, args.sandbox_only, &plugin) {
        println!(
            "{}: no hook entries written: the plugin {} is installed and enabled, and its own hooks check every call",
            settings.display(),
            i.id
        );
    }
    if entries {
        let outcome = edit_json_file(&settings, args.dry_run, true, |v| {
            add_hooks(v, &binary_text)
        })?;
        let what = format!(
            "programmer-hook handlers for {} events, running {binary_text}",
            EVENTS.len()
        );
        report(&settings, &outcome, args.dry_run, &what, &what);
        if args.dry_run && outcome.changed() {
            println!("  each handler: {}", hook_handler(&binary_text));
        }
    }
    if args.sandbox || args.sandbox_only {
        let policy = crate::hook::load_policy(&places, None)?;
        super::sandbox::install(&settings, &places, &policy.paths, args.dry_run)?;
    }
    if creates && settings.exists() {
        record_created(&places.state_dir, &settings, true)?;
    }
    if let Some(mp) = &args.model_policy {
        if mp.exists() {
            let o = edit_json_file(mp, args.dry_run, false, add_models)?;
            let what = "model entries for the pack's agents";
            report(mp, &o, args.dry_run, what, what);
        } else {
            println!("{}: not there, skipped", mp.display());
        }
    }
    Ok(0)
}

pub fn uninstall_hooks(args: UninstallHooksArgs) -> Result<i32> {
    let places = state::places()?;
    let settings = args
        .settings
        .clone()
        .unwrap_or_else(|| default_settings(&places.config_dir));
    let _lock = if args.dry_run {
        None
    } else {
        Some(state::lock(&places.state_dir.join("install"))?)
    };
    if settings.exists() {
        let outcome = edit_json_file(&settings, args.dry_run, false, remove_hooks)?;
        report(
            &settings,
            &outcome,
            args.dry_run,
            "removed the programmer-hook handlers",
            "no programmer-hook handlers",
        );
        super::sandbox::uninstall(&settings, &places, args.dry_run)?;
        remove_if_created_and_empty(&places.state_dir, &settings, args.dry_run)?;
    } else {
        println!("{}: not there, nothing to remove", settings.display());
    }
    if let Some(mp) = &args.model_policy {
        if mp.exists() {
            let o = edit_json_file(mp, args.dry_run, false, remove_models)?;
            report(
                mp,
                &o,
                args.dry_run,
                "removed the pack's model entries",
                "no model entries of the pack",
            );
        }
    }
    Ok(0)
}

/// The install of the plugin that is installed and enabled, if one is: its own hooks
/// answer every event, so entries in `settings` would decide and log every call twice.
pub(crate) fn enabled_plugin(config_dir: &Path, settings: &Path) -> Option<plugin::Install> {
    let files = plugin::SettingsFiles::here(config_dir, settings);
    // A record that cannot be read is doctor's to report; it does not stop an install.
    let installs = plugin::installs(config_dir, &files).unwrap_or_default();
    installs.into_iter().find(|i| i.enabled)
}

/// Why hook entries are not added beside the enabled plugin `i`, and what to do instead.
pub(crate) fn beside_the_plugin(
    config_dir: &Path,
    i: &plugin::Install,
    settings: &Path,
) -> anyhow::Error {
    let marketplace = i.id.split_once('@').map_or("", |(_, m)| m);
    anyhow::anyhow!(
        "the plugin {} is installed and enabled ({} scope, {}): its hooks already check every call, and entries in {} would make every call decided and logged twice. Nothing was changed. Keep one: use the plugin and skip this step (to turn Claude Code's sandbox on for it: {}), or remove it (claude plugin uninstall {}, then claude plugin marketplace remove {marketplace}) and run this again",
        i.id,
        i.scope,
        i.path.display(),
        settings.display(),
        plugin::sandbox_only_command(config_dir, i, settings),
        i.id
    )
}

/// The state dir's record of the settings files `install-hooks` created (`{"created":
/// [path, …]}`).
fn created_record(state_dir: &Path) -> PathBuf {
    state_dir.join("created-settings.json")
}

/// The settings files the record names; an error for a record that cannot be read (kept
/// as it is).
fn read_created(state_dir: &Path) -> Result<Vec<String>> {
    let file = created_record(state_dir);
    match fs::read(&file) {
        Ok(b) => {
            let v: Value = serde_json::from_slice(&b).with_context(|| {
                format!("{} is not valid JSON; it was left as it is", file.display())
            })?;
            Ok(v["created"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect())
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", file.display())),
    }
}

/// Adds `settings` to the record of created files (`created`), or takes it out.
fn record_created(state_dir: &Path, settings: &Path, created: bool) -> Result<()> {
    let file = created_record(state_dir);
    let name = settings.display().to_string();
    let mut list = read_created(state_dir)?;
    let had = list.contains(&name);
    list.retain(|n| *n != name);
    if created {
        list.push(name);
    } else if !had {
        return Ok(());
    }
    if list.is_empty() {
        return match fs::remove_file(&file) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(e).with_context(|| format!("cannot remove {}", file.display())),
        };
    }
    let mut text = serde_json::to_vec_pretty(&json!({ "created": list }))?;
    text.push(b'\n');
    state::write_atomic(&file, &text)
}

/// Removes `settings` when `install-hooks` created it and nothing is left in it (`{}`):
/// an uninstall leaves no file of its own behind. A file with anything else in it is the
/// user's, and stays.
fn remove_if_created_and_empty(state_dir: &Path, settings: &Path, dry_run: bool) -> Result<()> {
    let created = match read_created(state_dir) {
        Ok(list) => list.contains(&settings.display().to_string()),
        Err(e) => {
            println!("{}: kept: {e:#}", settings.display());
            return Ok(());
        }
    };
    if !created {
        return Ok(());
    }
    if dry_run {
        // What is taken out above is not taken out in a dry run: say what will happen.
        println!(
            "{}: the install created it: it would be removed too if nothing else is left in it",
            settings.display()
        );
        return Ok(());
    }
    let is_empty = |p: &Path| {
        fs::read(p)
            .ok()
            .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
            .is_some_and(|v| v.as_object().is_some_and(Map::is_empty))
    };
    // A file, not a link the user has put there since; and `{}` when it is taken away.
    let plain_file = fs::symlink_metadata(settings).is_ok_and(|m| m.is_file());
    if plain_file && is_empty(settings) {
        // Moved aside first, then checked again: a write that came in between is not lost.
        let name = settings
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let aside = settings.with_file_name(format!(".{name}.removing.{}", std::process::id()));
        fs::rename(settings, &aside)
            .with_context(|| format!("cannot remove {}", settings.display()))?;
        if is_empty(&aside) {
            fs::remove_file(&aside)
                .with_context(|| format!("cannot remove {}", aside.display()))?;
            println!(
                "{}: removed (the install created it, and nothing else was in it)",
                settings.display()
            );
        } else if !settings.exists() {
            fs::rename(&aside, settings)
                .with_context(|| format!("cannot put {} back", settings.display()))?;
        } else {
            println!(
                "{}: written to while it was being removed; the text it had is kept as {}",
                settings.display(),
                aside.display()
            );
        }
    }
    record_created(state_dir, settings, false)
}

/// Refuses to point the settings at something that would block every tool call.
fn check_binary(binary: &Path) -> Result<()> {
    let meta = fs::metadata(binary).with_context(|| {
        format!(
            "the binary {} does not exist; the hook entries must point at an installed programmer-hook",
            binary.display()
        )
    })?;
    if !meta.is_file() {
        bail!("{} is not a file", binary.display());
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        if meta.permissions().mode() & 0o111 == 0 {
            bail!("{} is not executable (chmod +x it)", binary.display());
        }
    }
    let out = std::process::Command::new(binary)
        .arg("--version")
        .output()
        .with_context(|| format!("cannot run {} --version", binary.display()))?;
    let text = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() || !text.starts_with(BINARY_NAME) {
        bail!(
            "{} does not answer `--version` like programmer-hook (got {:?}); refusing to point the hooks at it",
            binary.display(),
            text.trim()
        );
    }
    Ok(())
}

/// The `hooks` object of a settings value, created if missing.
fn hooks_object(settings: &mut Value) -> Result<&mut Map<String, Value>> {
    let root = settings
        .as_object_mut()
        .context("the settings file is not a JSON object")?;
    let hooks = root.entry("hooks").or_insert_with(|| json!({}));
    hooks
        .as_object_mut()
        .context("`hooks` in the settings file is not an object; fix it by hand first")
}

/// Adds (or replaces) our handler for every event. Our handler gets a group of its own
/// (`matcher: "*"`); an existing group holding only our handlers is replaced where it is,
/// and our handlers are taken out of any group shared with other handlers.
pub fn add_hooks(settings: &mut Value, binary: &str) -> Result<()> {
    let hooks = hooks_object(settings)?;
    for event in EVENTS {
        let list = hooks.entry(event.as_str()).or_insert_with(|| json!([]));
        let groups = list.as_array_mut().with_context(|| {
            format!("`hooks.{event}` in the settings file is not a list; fix it by hand first")
        })?;
        let mut placed = false;
        let mut i = 0;
        while i < groups.len() {
            let (ours, total) = count_ours(&groups[i]);
            if ours == 0 {
                i += 1;
            } else if ours == total && !placed {
                groups[i] = hook_group(binary);
                placed = true;
                i += 1;
            } else if ours == total {
                groups.remove(i);
            } else {
                remove_ours_from_group(&mut groups[i]);
                i += 1;
            }
        }
        if !placed {
            groups.push(hook_group(binary));
        }
    }
    Ok(())
}

/// Removes our handlers. A group left with no handlers, an event left with no groups, and a
/// `hooks` object left empty are removed too.
pub fn remove_hooks(settings: &mut Value) -> Result<()> {
    let Some(root) = settings.as_object_mut() else {
        bail!("the settings file is not a JSON object");
    };
    let Some(hooks) = root.get_mut("hooks") else {
        return Ok(());
    };
    let Some(hooks) = hooks.as_object_mut() else {
        bail!("`hooks` in the settings file is not an object; fix it by hand first");
    };
    let mut emptied = Vec::new();
    for (event, list) in hooks.iter_mut() {
        let Some(groups) = list.as_array_mut() else {
            continue;
        };
        let before = groups.len();
        let mut touched = false;
        groups.retain_mut(|g| {
            let (ours, total) = count_ours(g);
            if ours == 0 {
                return true;
            }
            touched = true;
            if ours == total {
                return false;
            }
            remove_ours_from_group(g);
            true
        });
        if touched && groups.is_empty() && before > 0 {
            emptied.push(event.clone());
        }
    }
    for e in &emptied {
        hooks.shift_remove(e);
    }
    if !emptied.is_empty() && hooks.is_empty() {
        root.shift_remove("hooks");
    }
    Ok(())
}

/// `(our handlers, all handlers)` of a matcher group; `(0, 0)` for anything malformed.
fn count_ours(group: &Value) -> (usize, usize) {
    match group.get("hooks").and_then(Value::as_array) {
        Some(hs) => (hs.iter().filter(|h| is_ours(h)).count(), hs.len()),
        None => (0, 0),
    }
}

fn remove_ours_from_group(group: &mut Value) {
    if let Some(hs) = group.get_mut("hooks").and_then(Value::as_array_mut) {
        hs.retain(|h| !is_ours(h));
    }
}

/// Where model entries go in a model-policy file: its `agents` object if it has one,
/// otherwise the top level.
fn model_table(policy: &mut Value) -> Result<&mut Map<String, Value>> {
    let root = policy
        .as_object_mut()
        .context("the model policy file is not a JSON object")?;
    if root.get("agents").is_some_and(Value::is_object) {
        return root
            .get_mut("agents")
            .and_then(Value::as_object_mut)
            .context("`agents` in the model policy file is not an object");
    }
    Ok(root)
}

/// Adds one entry per agent of the pack: `"name": "model"`, or `"name": {"model": …}`
/// when the other entries of the table are objects with a `model` key.
pub fn add_models(policy: &mut Value) -> Result<()> {
    let table = model_table(policy)?;
    let ours: Vec<&str> = roles::ROLES.iter().map(|r| r.name).collect();
    let objects = table
        .iter()
        .filter(|(k, _)| !ours.contains(&k.as_str()))
        .any(|(_, v)| v.get("model").is_some());
    for role in roles::ROLES {
        let entry = if objects {
            json!({ "model": role.model })
        } else {
            json!(role.model)
        };
        match table.get_mut(role.name) {
            Some(existing) if objects && existing.is_object() => {
                existing["model"] = json!(role.model);
            }
            Some(existing) => *existing = entry,
            None => {
                table.insert(role.name.to_string(), entry);
            }
        }
    }
    Ok(())
}

/// Removes the pack's agents from a model-policy file.
pub fn remove_models(policy: &mut Value) -> Result<()> {
    let table = model_table(policy)?;
    for role in roles::ROLES {
        table.shift_remove(role.name);
    }
    Ok(())
}

fn report(path: &Path, outcome: &FileChange, dry_run: bool, changed: &str, unchanged: &str) {
    match outcome {
        FileChange::Unchanged => println!("{}: unchanged ({unchanged})", path.display()),
        FileChange::Changed { backup } => {
            let verb = if dry_run { "would change" } else { "changed" };
            println!("{}: {verb}: {changed}", path.display());
            if let Some(b) = backup {
                let verb = if dry_run { "would keep" } else { "kept" };
                println!("  {verb} the old file as {}", b.display());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::user_files::same_json;

    const BIN: &str = "/opt/ph/bin/programmer-hook";

    fn sample() -> Value {
        serde_json::from_str(
            r#"{
              "zeta": 1,
              "permissions": {"allow": ["Bash(ls *)"], "deny": ["Read(./.env)"]},
              "hooks": {
                "PreToolUse": [
                  {"matcher": "Bash", "hooks": [{"type": "command", "command": "/usr/bin/other", "args": ["x"]}]}
                ],
                "Stop": [{"hooks": [{"type": "command", "command": "notify-send done"}]}]
              },
              "alpha": {"b": 2, "a": 1}
            }"#,
        )
        .expect("sample JSON")
    }

    fn ours_in(v: &Value, event: &str) -> usize {
        v["hooks"][event]
            .as_array()
            .map(|gs| gs.iter().map(|g| count_ours(g).0).sum())
            .unwrap_or(0)
    }

    #[test]
    fn adds_every_event_once_and_keeps_the_rest() {
        let mut v = sample();
        add_hooks(&mut v, BIN).expect("add");
        for e in EVENTS {
            assert_eq!(ours_in(&v, e.as_str()), 1, "{e}");
        }
        assert_eq!(
            v["hooks"]["PreToolUse"][0]["hooks"][0]["command"],
            "/usr/bin/other"
        );
        assert_eq!(v["hooks"]["PreToolUse"][1], hook_group(BIN));
        assert_eq!(v["hooks"]["Stop"], sample()["hooks"]["Stop"]);
        let keys: Vec<_> = v.as_object().expect("object").keys().cloned().collect();
        assert_eq!(keys, ["zeta", "permissions", "hooks", "alpha"]);
        let inner: Vec<_> = v["alpha"]
            .as_object()
            .expect("obj")
            .keys()
            .cloned()
            .collect();
        assert_eq!(inner, ["b", "a"]);

        let once = v.clone();
        add_hooks(&mut v, BIN).expect("again");
        assert!(same_json(&once, &v), "a second run changes nothing");

        add_hooks(&mut v, "/elsewhere/programmer-hook").expect("moved binary");
        for e in EVENTS {
            assert_eq!(ours_in(&v, e.as_str()), 1, "{e}");
        }
        assert_eq!(
            v["hooks"]["PreToolUse"][1]["hooks"][0]["command"],
            "/elsewhere/programmer-hook"
        );
    }

    #[test]
    fn remove_restores_the_original() {
        let mut v = sample();
        add_hooks(&mut v, BIN).expect("add");
        remove_hooks(&mut v).expect("remove");
        assert!(same_json(&v, &sample()));

        let mut empty = json!({"a": 1});
        add_hooks(&mut empty, BIN).expect("add");
        remove_hooks(&mut empty).expect("remove");
        assert_eq!(empty, json!({"a": 1}));
    }

    #[test]
    fn shared_groups_and_shell_form() {
        let mut v = json!({"hooks": {"PreToolUse": [
            {"matcher": "*", "hooks": [
                {"type": "command", "command": "/x/other"},
                {"type": "command", "command": "/old/programmer-hook hook"}
            ]},
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "/old/programmer-hook", "args": ["hook"]}]},
            {"matcher": "Bash", "hooks": [{"type": "command", "command": "/old/programmer-hook", "args": ["hook"]}]}
        ]}});
        add_hooks(&mut v, BIN).expect("add");
        let groups = v["hooks"]["PreToolUse"].as_array().expect("list");
        assert_eq!(groups.len(), 2);
        assert_eq!(groups[0]["hooks"].as_array().map(Vec::len), Some(1));
        assert_eq!(groups[1], hook_group(BIN));
        remove_hooks(&mut v).expect("remove");
        assert_eq!(
            v,
            json!({"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command", "command": "/x/other"}]}]}})
        );
    }

    #[test]
    fn refuses_shapes_it_cannot_merge() {
        assert!(add_hooks(&mut json!([1]), BIN).is_err());
        assert!(add_hooks(&mut json!({"hooks": []}), BIN).is_err());
        assert!(add_hooks(&mut json!({"hooks": {"PreToolUse": {}}}), BIN).is_err());
    }

    #[test]
    fn model_policy_entries() {
        let mut flat = json!({"master-orchestrator": "opus"});
        add_models(&mut flat).expect("add");
        assert_eq!(flat["programmer-orchestrator"], "opus");
        assert_eq!(flat["code-reviewer"], "sonnet");
        remove_models(&mut flat).expect("remove");
        assert_eq!(flat, json!({"master-orchestrator": "opus"}));

        let mut nested =
            json!({"default": "sonnet", "agents": {"k8s": {"model": "opus", "why": "x"}}});
        add_models(&mut nested).expect("add");
        assert_eq!(nested["agents"]["code-planner"], json!({"model": "sonnet"}));
        assert!(nested.get("code-planner").is_none());
        remove_models(&mut nested).expect("remove");
        assert_eq!(
            nested,
            json!({"default": "sonnet", "agents": {"k8s": {"model": "opus", "why": "x"}}})
        );
    }

    #[test]
    fn json_file_edits() {
        let dir = tempfile::tempdir().expect("tempdir");
        let p = dir.path().join("settings.json");
        let original = "{\n    \"b\": 1,\n    \"a\": [1, 2]\n}\n";
        fs::write(&p, original).expect("write");
        let o = edit_json_file(&p, false, true, |v| add_hooks(v, BIN)).expect("edit");
        let FileChange::Changed { backup: Some(b) } = o else {
            panic!("expected a change with a backup: {o:?}");
        };
        assert_eq!(fs::read_to_string(&b).expect("backup"), original);
        let text = fs::read_to_string(&p).expect("read");
        assert!(text.starts_with("{\n    \"b\": 1,"), "{text}");
        let o = edit_json_file(&p, false, true, |v| add_hooks(v, BIN)).expect("edit");
        assert!(matches!(o, FileChange::Unchanged));

        fs::write(&p, "{ not json").expect("write");
        let err = edit_json_file(&p, false, true, |v| add_hooks(v, BIN)).expect_err("invalid");
        assert!(format!("{err:#}").contains("not valid JSON"));
        assert_eq!(fs::read_to_string(&p).expect("read"), "{ not json");

        let fresh = dir.path().join("new").join("settings.json");
        let o = edit_json_file(&fresh, false, true, |v| add_hooks(v, BIN)).expect("create");
        assert!(matches!(o, FileChange::Changed { backup: None }));
        assert!(fresh.exists());
    }
}
