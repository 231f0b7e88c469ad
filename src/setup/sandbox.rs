//! `install-hooks --sandbox`: Claude Code's sandbox settings in the user's `settings.json`,
//! and `uninstall-hooks` taking out exactly what that added; `doctor`'s sandbox check.
//!
//! What is written is [`crate::engine::sandbox::recommended`], the settings the hook counts
//! as containing a call: the sandbox on, no unsandboxed fallback, a failure when it cannot
//! start, reads denied for the policy's secrets and writes denied for its protected paths.
//! The change is printed before the file is written (with a backup, atomically, as for the
//! hook entries). What was added, and what each changed key held before, is recorded in
//! the state dir (`sandbox-install.json`, which the agent may not write), so that
//! `uninstall-hooks` restores each key it set that still holds what it set, and removes
//! each list entry it added; a key the user changed since is kept and named.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde_json::{json, Map, Value};

use crate::engine::paths::Places;
use crate::engine::policy::PathLists;
use crate::engine::sandbox;
use crate::hook::sandbox_settings;
use crate::setup::shell::find_on_path;
use crate::setup::user_files::{edit_json_file, FileChange};
use crate::workflow::state;

/// The switches written, in order.
const SWITCHES: [&str; 3] = ["enabled", "failIfUnavailable", "allowUnsandboxedCommands"];
/// The lists added to, under `sandbox.filesystem`.
const LISTS: [&str; 2] = ["denyRead", "denyWrite"];

/// The record of what `install-hooks --sandbox` changed.
fn record_path(places: &Places) -> PathBuf {
    record_in(&places.state_dir)
}

/// The record of what `install-hooks --sandbox` changed, in the state dir `state`.
pub fn record_in(state: &Path) -> PathBuf {
    state.join("sandbox-install.json")
}

/// Applies the recommended sandbox settings to a settings value, and records in `record`
/// what was there before (keeping an older record's "before", so that installing twice
/// still restores the user's own values). Returns the lines that say what changes.
pub fn apply(settings: &mut Value, want: &Value, record: &mut Value) -> Result<Vec<String>> {
    let mut lines = Vec::new();
    let top = settings
        .as_object_mut()
        .context("the settings are not a JSON object")?;
    if !record.is_object() {
        *record = json!({});
    }
    let rec = record.as_object_mut().context("record")?;
    if !top.contains_key("sandbox") {
        rec.entry("created").or_insert_with(|| json!([]));
        push_unique(rec, "created", "sandbox");
    }
    let sb = top
        .entry("sandbox")
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .context("`sandbox` in the settings is not an object; fix it by hand and run this again")?;
    for key in SWITCHES {
        let new = want[key].clone();
        let old = sb.get(key).cloned();
        if old.as_ref() == Some(&new) {
            continue;
        }
        let set = rec.entry("set").or_insert_with(|| json!({}));
        let set = set.as_object_mut().context("record")?;
        set.entry(key)
            .or_insert_with(|| json!({"before": old.clone(), "after": new.clone()}));
        lines.push(format!(
            "sandbox.{key}: {} -> {new}",
            old.map_or("(not set)".to_string(), |v| v.to_string())
        ));
        sb.insert(key.to_string(), new);
    }
    if !sb.contains_key("filesystem") {
        push_unique(rec, "created", "sandbox.filesystem");
    }
    let fs = sb
        .entry("filesystem")
        .or_insert_with(|| json!({}))
        .as_object_mut()
        .context("`sandbox.filesystem` in the settings is not an object; fix it by hand and run this again")?;
    for key in LISTS {
        let list = fs.entry(key).or_insert_with(|| json!([]));
        let list = list.as_array_mut().with_context(|| {
            format!("`sandbox.filesystem.{key}` in the settings is not a list; fix it by hand and run this again")
        })?;
        for e in want["filesystem"][key].as_array().into_iter().flatten() {
            if !list.contains(e) {
                list.push(e.clone());
                let added = rec.entry("added").or_insert_with(|| json!({}));
                let added = added.as_object_mut().context("record")?;
                let l = added.entry(key).or_insert_with(|| json!([]));
                if let Some(l) = l.as_array_mut() {
                    if !l.contains(e) {
                        l.push(e.clone());
                    }
                }
                lines.push(format!("sandbox.filesystem.{key}: add {e}"));
            }
        }
    }
    Ok(lines)
}

fn push_unique(rec: &mut Map<String, Value>, key: &str, v: &str) {
    let l = rec.entry(key).or_insert_with(|| json!([]));
    if let Some(l) = l.as_array_mut() {
        if !l.iter().any(|x| x == v) {
            l.push(json!(v));
        }
    }
}

/// Takes out of a settings value what `record` says was added. Returns what was done and
/// what was kept because the user changed it since.
pub fn remove(settings: &mut Value, record: &Value) -> Vec<String> {
    let mut lines = Vec::new();
    let Some(sb) = settings.get_mut("sandbox").and_then(Value::as_object_mut) else {
        return vec!["no `sandbox` settings left to take out".into()];
    };
    for (key, change) in record["set"].as_object().into_iter().flatten() {
        let after = &change["after"];
        match sb.get(key) {
            Some(now) if now == after => {
                match &change["before"] {
                    Value::Null => {
                        sb.remove(key);
                    }
                    before => {
                        sb.insert(key.clone(), before.clone());
                    }
                }
                lines.push(format!("sandbox.{key}: restored"));
            }
            Some(now) => lines.push(format!(
                "sandbox.{key}: kept ({now}), changed since install-hooks --sandbox set {after}"
            )),
            None => {}
        }
    }
    if let Some(fs) = sb.get_mut("filesystem").and_then(Value::as_object_mut) {
        for (key, added) in record["added"].as_object().into_iter().flatten() {
            let added = added.as_array().cloned().unwrap_or_default();
            if let Some(list) = fs.get_mut(key).and_then(Value::as_array_mut) {
                let n = list.len();
                list.retain(|e| !added.contains(e));
                if n != list.len() {
                    lines.push(format!(
                        "sandbox.filesystem.{key}: removed {} entries",
                        n - list.len()
                    ));
                }
                if list.is_empty() {
                    fs.remove(key);
                }
            }
        }
    }
    let created = |what: &str| {
        record["created"]
            .as_array()
            .is_some_and(|c| c.iter().any(|x| x == what))
    };
    if created("sandbox.filesystem")
        && sb
            .get("filesystem")
            .and_then(Value::as_object)
            .is_some_and(Map::is_empty)
    {
        sb.remove("filesystem");
    }
    if created("sandbox") && sb.is_empty() {
        if let Some(top) = settings.as_object_mut() {
            top.remove("sandbox");
        }
    }
    lines
}

/// `install-hooks --sandbox`: prints the change, then writes it (unless `dry_run`).
pub fn install(settings: &Path, places: &Places, lists: &PathLists, dry_run: bool) -> Result<()> {
    let want = sandbox::recommended(lists, places);
    let rec_path = record_path(places);
    let mut record = read_record(&rec_path)?.unwrap_or(json!({}));
    // First what would change, shown before anything is written.
    let mut lines = Vec::new();
    let mut preview_record = record.clone();
    let preview = edit_json_file(settings, true, true, |v| {
        lines = apply(v, &want, &mut preview_record)?;
        Ok(())
    })?;
    if let FileChange::Unchanged = preview {
        println!(
            "{}: unchanged (Claude Code's sandbox settings are already in place)",
            settings.display()
        );
        return Ok(());
    }
    let verb = if dry_run {
        "would change"
    } else {
        "will change"
    };
    println!("{}: {verb}: Claude Code's sandbox:", settings.display());
    for l in &lines {
        println!("  {l}");
    }
    if dry_run {
        if let FileChange::Changed { backup: Some(b) } = preview {
            println!("  would keep the old file as {}", b.display());
        }
    } else {
        let outcome = edit_json_file(settings, false, true, |v| {
            apply(v, &want, &mut record)?;
            Ok(())
        })?;
        if let FileChange::Changed { backup } = outcome {
            match backup {
                Some(b) => println!("  changed; kept the old file as {}", b.display()),
                None => println!("  changed"),
            }
            record["settings"] = json!(settings.display().to_string());
            state::write_atomic(&rec_path, &serde_json::to_vec_pretty(&record)?)?;
        }
    }
    if cfg!(target_os = "linux") {
        for tool in ["bwrap", "socat"] {
            if find_on_path(tool).is_none() {
                println!("  note: `{tool}` is not on PATH; Claude Code's sandbox needs bubblewrap and socat on Linux, and with failIfUnavailable it will not start without them (e.g. `sudo apt-get install bubblewrap socat`)");
            }
        }
    }
    Ok(())
}

fn read_record(path: &Path) -> Result<Option<Value>> {
    match std::fs::read(path) {
        Ok(b) => serde_json::from_slice(&b).map(Some).with_context(|| {
            format!(
                "{} (what install-hooks --sandbox added) is not valid JSON; it was left as it is",
                path.display()
            )
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

/// `uninstall-hooks`: takes out what `install-hooks --sandbox` added to `settings`, if it
/// added anything there.
pub fn uninstall(settings: &Path, places: &Places, dry_run: bool) -> Result<()> {
    let rec_path = record_path(places);
    let Some(record) = read_record(&rec_path)? else {
        return Ok(());
    };
    if record["settings"].as_str() != Some(&settings.display().to_string()) || !settings.exists() {
        return Ok(());
    }
    let mut lines = Vec::new();
    let outcome = edit_json_file(settings, dry_run, false, |v| {
        lines = remove(v, &record);
        Ok(())
    })?;
    let verb = if dry_run { "would change" } else { "changed" };
    if let FileChange::Changed { backup } = outcome {
        println!(
            "{}: {verb}: took out what install-hooks --sandbox added:",
            settings.display()
        );
        for l in &lines {
            println!("  {l}");
        }
        if let Some(b) = backup {
            let v = if dry_run { "would keep" } else { "kept" };
            println!("  {v} the old file as {}", b.display());
        }
    } else {
        for l in &lines {
            println!("{}: {l}", settings.display());
        }
    }
    if !dry_run {
        std::fs::remove_file(&rec_path)
            .with_context(|| format!("cannot remove {}", rec_path.display()))?;
    }
    Ok(())
}

/// What `doctor` says about the sandbox for a project folder: its state, the programs it
/// needs on Linux, and what `auto` relaxes because of it, with `turn_on`, the command that
/// turns it on for this install. The second value is a problem to fix, if any (the
/// sandbox on but a program it needs missing).
pub fn report(
    places: &Places,
    lists: &PathLists,
    project: &Path,
    turn_on: &str,
) -> (String, Option<String>) {
    let c = sandbox_settings::containment(places, lists, project);
    let missing: Vec<&str> = if cfg!(target_os = "linux") {
        ["bwrap", "socat"]
            .into_iter()
            .filter(|t| find_on_path(t).is_none())
            .collect()
    } else {
        vec![]
    };
    let tools = if cfg!(target_os = "linux") {
        if missing.is_empty() {
            "bubblewrap and socat are installed".to_string()
        } else {
            format!("missing: {}", missing.join(", "))
        }
    } else {
        "Seatbelt is built in".to_string()
    };
    let mut detail = if c.contained() {
        format!("on and containing for {}: in `auto`, project code the hook cannot read (builds, tests, scripts, interpreters) runs without asking, confined; {tools}", project.display())
    } else {
        format!(
            "not containing for {} ({}): in `auto`, project code the hook cannot read is still asked; `{turn_on}` turns it on; {tools}",
            project.display(),
            c.problems.join("; ")
        )
    };
    match crate::hook::managed::load() {
        crate::hook::managed::ManagedAutonomy::Allowed => {}
        crate::hook::managed::ManagedAutonomy::SandboxOnly => {
            detail.push_str("; the managed policy allows `auto` only for calls in the sandbox")
        }
        crate::hook::managed::ManagedAutonomy::Never(why) => detail.push_str(&format!("; {why}")),
    }
    if sandbox_settings::is_test_build() {
        detail.push_str(&format!(
            "; this is a test build: its managed folder is {} (moved by ${} in test builds only)",
            sandbox_settings::managed_dir().display(),
            sandbox_settings::TEST_MANAGED_DIR_VAR
        ));
    }
    let problem = (c.contained() && !missing.is_empty()).then(|| {
        format!(
            "install {} (e.g. `sudo apt-get install bubblewrap socat`): with failIfUnavailable, Claude Code will not start without them",
            missing.join(" and ")
        )
    });
    (detail, problem)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn want() -> Value {
        json!({"enabled": true, "failIfUnavailable": true, "allowUnsandboxedCommands": false,
               "filesystem": {"denyRead": ["~/.ssh"], "denyWrite": ["~/.ssh", "~/.bashrc"]}})
    }

    /// Install then uninstall gives back the very settings the user had, for each start.
    #[test]
    fn uninstall_takes_out_exactly_what_install_added() {
        #[rustfmt::skip]
        let starts = [
            json!({}),
            json!({"hooks": {}, "model": "x"}),
            json!({"sandbox": {"enabled": false}}),
            json!({"sandbox": {"enabled": true, "autoAllowBashIfSandboxed": true}}),
            json!({"sandbox": {"allowUnsandboxedCommands": true, "filesystem": {"denyRead": ["~/.ssh", "~/secret"]}}}),
            json!({"sandbox": {"filesystem": {"allowWrite": ["~/.cache"]}}}),
        ];
        for start in starts {
            let mut v = start.clone();
            let mut rec = json!({});
            apply(&mut v, &want(), &mut rec).expect("apply");
            assert_eq!(v["sandbox"]["enabled"], true, "{v}");
            assert_eq!(v["sandbox"]["allowUnsandboxedCommands"], false, "{v}");
            // Installing again changes nothing and keeps the first "before".
            let again = v.clone();
            assert!(apply(&mut v, &want(), &mut rec).expect("apply").is_empty());
            assert_eq!(v, again);
            remove(&mut v, &rec);
            assert_eq!(v, start, "record {rec}");
        }
    }

    /// A key the user changed after the install is kept.
    #[test]
    fn uninstall_keeps_what_the_user_changed() {
        let mut v = json!({});
        let mut rec = json!({});
        apply(&mut v, &want(), &mut rec).expect("apply");
        v["sandbox"]["enabled"] = json!(false);
        v["sandbox"]["filesystem"]["denyRead"]
            .as_array_mut()
            .unwrap()
            .push(json!("~/mine"));
        let lines = remove(&mut v, &rec);
        assert_eq!(v["sandbox"]["enabled"], false);
        assert_eq!(v["sandbox"]["filesystem"]["denyRead"], json!(["~/mine"]));
        assert!(v["sandbox"].get("failIfUnavailable").is_none(), "{v}");
        assert!(lines.iter().any(|l| l.contains("kept")), "{lines:?}");
    }

    #[test]
    fn a_sandbox_that_is_not_an_object_is_an_error() {
        let mut v = json!({"sandbox": true});
        let e = apply(&mut v, &want(), &mut json!({})).unwrap_err();
        assert!(format!("{e:#}").contains("not an object"), "{e:#}");
        assert_eq!(v, json!({"sandbox": true}));
    }
}
