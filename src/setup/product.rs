//! `install` and `uninstall`: the whole install of programmer-hook by the binary itself,
//! with no compiler and no checkout (for the npm package, or a release binary): what
//! `install.sh` does after its build, and its undoing.
//!
//! `install` puts the binary in the npm launcher's place when it still is the launcher
//! (see [`npm`]), then, as `install.sh`: the pack (agents, command and its other names,
//! skill) into the Claude config dir, the state dir with default preferences, the hook
//! entries (through [`install::install_hooks`]), the record of how it installed (for
//! doctor's fixes), the marked blocks (see [`blocks`]); the command line then runs doctor
//! and [`closing`] says what next. Nothing is written before the settings file is known
//! to parse. `uninstall` takes out what `install` put
//! in, keeps the state dir, and leaves the binary to the package manager that installed it.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use clap::Args;
use serde_json::json;

use crate::setup::installation::{self, METHOD, RECORD};
use crate::setup::{blocks, install, npm, plugin, user_files};
use crate::workflow::{pack, state};

#[derive(Args, Debug)]
pub struct InstallArgs {
    /// Also turn on Claude Code's sandbox in the settings (as `install-hooks --sandbox`;
    /// `uninstall` takes it out again).
    #[arg(long)]
    pub sandbox: bool,
    /// Show what would change; change nothing.
    #[arg(long)]
    pub dry_run: bool,
}

#[derive(Args, Debug)]
pub struct UninstallArgs {
    /// Show what would change; change nothing.
    #[arg(long)]
    pub dry_run: bool,
}

/// The running binary (its real path) and the npm layout it belongs to, if any.
fn this_binary() -> Result<(PathBuf, Option<npm::Layout>)> {
    let exe = std::env::current_exe().context("cannot tell where this binary is")?;
    let exe = fs::canonicalize(&exe).unwrap_or(exe);
    let layout = npm::layout(&exe);
    Ok((exe, layout))
}

/// What an install did: nothing (a dry run), or installed `command`, the binary the hook
/// entries run, which doctor should check next.
#[derive(Debug)]
pub enum Installed {
    DryRun,
    Done { command: PathBuf },
}

pub fn run_install(args: InstallArgs) -> Result<Installed> {
    let dry = args.dry_run;
    if plugin::runs_as_plugin() {
        bail!(
            "this is the Claude Code plugin's programmer-hook: the plugin registers its hooks and carries the agents itself, so nothing was installed (a second set of hook entries would run every hook twice). `install` is for the npm package or a release binary"
        );
    }
    let places = state::places()?;
    let config = &places.config_dir;
    let settings = installation::default_settings(config);
    let (exe, layout) = this_binary()?;
    // Beside the plugin nothing is installed: not its hook entries, nor a second pack.
    if let Some(i) = install::enabled_plugin(config, &settings) {
        return Err(install::beside_the_plugin(config, &i, &settings));
    }
    if dry {
        println!("Dry run: nothing is changed.");
    }
    println!(
        "Installing programmer-hook (config dir {})",
        config.display()
    );
    // The settings must parse before anything is changed.
    let target = layout
        .as_ref()
        .map_or(exe.as_path(), |l| l.command.as_path());
    let target_text = target
        .to_str()
        .with_context(|| format!("the binary path {} is not valid UTF-8", target.display()))?;
    user_files::edit_json_file(&settings, true, true, |v| {
        install::add_hooks(v, target_text)
    })
    .context("nothing was changed")?;

    println!("Binary:");
    match &layout {
        Some(l) => match npm::ensure_native(l, &exe, dry)? {
            npm::Placed::Already => {
                println!("  unchanged: {} (the binary itself)", l.command.display())
            }
            npm::Placed::Now if dry => println!(
                "  would put the binary in place of the npm package's launcher {}",
                l.command.display()
            ),
            npm::Placed::Now => println!(
                "  put the binary in place of the npm package's launcher: {}",
                l.command.display()
            ),
        },
        None => println!("  {} (the hook entries run it where it is)", exe.display()),
    }

    println!("Agents, commands and skill (into {}):", config.display());
    for (rel, text) in pack::pack() {
        put_file(&config.join(&rel), text.as_bytes(), dry)?;
    }

    println!("State dir:");
    state_dir(&places.state_dir, dry)?;

    println!("Hook entries:");
    let model_policy = config.join("model-policy.json");
    // In a dry run the launcher is not replaced, and running it would replace it: the
    // entries are shown with this binary.
    let hook_binary = if dry && !npm::is_native(target) {
        println!(
            "  (shown with {}; the entries will run {})",
            exe.display(),
            target.display()
        );
        exe.as_path()
    } else {
        target
    };
    install::install_hooks(install::InstallHooksArgs {
        binary: Some(hook_binary.to_path_buf()),
        settings: Some(settings.clone()),
        model_policy: model_policy.exists().then_some(model_policy.clone()),
        sandbox: args.sandbox,
        sandbox_only: false,
        dry_run: dry,
    })?;
    if !dry {
        record(&places.state_dir, target, layout.as_ref())?;
    }

    println!("Marked blocks:");
    let claude_md = config.join("CLAUDE.md");
    let master = config.join("agents/master-orchestrator.md");
    edit_block(&claude_md, Some(blocks::CLAUDE_MD), dry)?;
    edit_block(&master, Some(blocks::MASTER), dry)?;
    if !claude_md.exists() && !master.exists() && !model_policy.exists() {
        println!(
            "  none: no CLAUDE.md, model-policy.json or agents/master-orchestrator.md in {}",
            config.display()
        );
    }
    if dry {
        println!("Would finish with: {} doctor", target.display());
        return Ok(Installed::DryRun);
    }
    Ok(Installed::Done {
        command: target.to_path_buf(),
    })
}

/// The last line of an install, after doctor's report (`doctor` its exit status).
pub fn closing(doctor: i32, command: &Path) -> String {
    if doctor == 0 {
        "Done. Register a project from its folder in a terminal: programmer-hook add-project (in Claude Code that is asked every time, even under autonomy auto); then, in Claude Code, type /programmer <request>.".to_string()
    } else {
        format!(
            "Installed, but doctor found the problems listed above: fix them, then run {} doctor again.",
            command.display()
        )
    }
}

pub fn run_uninstall(args: UninstallArgs) -> Result<i32> {
    let dry = args.dry_run;
    let places = state::places()?;
    let config = &places.config_dir;
    let (_, layout) = this_binary()?;
    if dry {
        println!("Dry run: nothing is changed.");
    }
    println!(
        "Uninstalling programmer-hook (config dir {})",
        config.display()
    );
    println!("Hook entries:");
    let model_policy = config.join("model-policy.json");
    install::uninstall_hooks(install::UninstallHooksArgs {
        settings: None,
        model_policy: model_policy.exists().then_some(model_policy),
        dry_run: dry,
    })
    .context("could not remove the hook entries; nothing else was removed, so tool calls keep being checked")?;

    println!("Agents, commands and skill:");
    for (rel, text) in pack::pack() {
        take_file(&config.join(&rel), text.as_bytes(), dry)?;
    }
    if !dry {
        // The folders the pack's files were in, when nothing else is left in them.
        for (rel, _) in pack::PACK_FILES {
            let mut dir = Path::new(rel).parent();
            while let Some(d) = dir.filter(|d| !d.as_os_str().is_empty()) {
                let _ = fs::remove_dir(config.join(d));
                dir = d.parent();
            }
        }
    }

    println!("Marked blocks:");
    let claude_md = config.join("CLAUDE.md");
    let master = config.join("agents/master-orchestrator.md");
    edit_block(&claude_md, None, dry)?;
    edit_block(&master, None, dry)?;
    if !claude_md.exists() && !master.exists() {
        println!(
            "  none: no CLAUDE.md or agents/master-orchestrator.md in {}",
            config.display()
        );
    }

    let record = places.state_dir.join(RECORD);
    if record.exists() {
        if dry {
            println!("  would remove: {}", record.display());
        } else {
            fs::remove_file(&record)
                .with_context(|| format!("cannot remove {}", record.display()))?;
            println!(
                "  removed: {} (how this install was made)",
                record.display()
            );
        }
    }
    println!(
        "Kept the state dir {} (remove it yourself if you no longer want the audit log and project records).",
        places.state_dir.display()
    );
    match layout {
        Some(l) => {
            let mut packages = vec![npm::PACKAGE.to_string()];
            packages.extend(npm::platform_packages_beside(&l));
            println!(
                "The binary stays with the npm package in {}: remove it with\n  npm uninstall -g {}",
                l.package.display(),
                packages.join(" ")
            );
        }
        None => println!(
            "The binary itself stays where it is; remove it yourself if you no longer want it."
        ),
    }
    Ok(0)
}

/// Writes `text` to `dest` unless it holds it already; a different file there is kept as
/// a backup first.
fn put_file(dest: &Path, text: &[u8], dry: bool) -> Result<()> {
    let old = fs::read(dest).ok();
    if old.as_deref() == Some(text) {
        println!("  unchanged: {}", dest.display());
        return Ok(());
    }
    let backup = old.as_ref().map(|_| user_files::backup_name(dest));
    if dry {
        match &backup {
            Some(b) => println!(
                "  would replace: {} (keeping the old one as {})",
                dest.display(),
                b.display()
            ),
            None => println!("  would install: {}", dest.display()),
        }
        return Ok(());
    }
    if let (Some(b), Some(bytes)) = (&backup, &old) {
        state::write_atomic(b, bytes)?;
        user_files::prune_backups(dest, user_files::KEPT_BACKUPS);
        println!("  kept the old {} as {}", dest.display(), b.display());
    }
    state::write_atomic(dest, text)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        fs::set_permissions(dest, fs::Permissions::from_mode(0o644))
            .with_context(|| format!("cannot set the permissions of {}", dest.display()))?;
    }
    println!("  installed: {}", dest.display());
    Ok(())
}

/// Removes `dest` when it holds `text`; moves a changed copy to a backup instead.
fn take_file(dest: &Path, text: &[u8], dry: bool) -> Result<()> {
    let Ok(old) = fs::read(dest) else {
        return Ok(());
    };
    if old == text {
        if dry {
            println!("  would remove: {}", dest.display());
        } else {
            fs::remove_file(dest).with_context(|| format!("cannot remove {}", dest.display()))?;
            println!("  removed: {}", dest.display());
        }
        return Ok(());
    }
    let b = user_files::backup_name(dest);
    if dry {
        println!(
            "  would move your changed {} to {}",
            dest.display(),
            b.display()
        );
    } else {
        fs::rename(dest, &b).with_context(|| format!("cannot move {}", dest.display()))?;
        println!("  moved your changed {} to {}", dest.display(), b.display());
    }
    Ok(())
}

/// The state dir (mode 700), its `projects/`, and empty preferences if there are none.
fn state_dir(dir: &Path, dry: bool) -> Result<()> {
    if dir.is_dir() {
        println!("  unchanged: {}", dir.display());
    } else if dry {
        println!("  would create: {}", dir.display());
    } else {
        fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            fs::set_permissions(dir, fs::Permissions::from_mode(0o700))
                .with_context(|| format!("cannot set the permissions of {}", dir.display()))?;
        }
        println!("  created: {}", dir.display());
    }
    let projects = dir.join("projects");
    if !dry && !projects.is_dir() {
        fs::create_dir_all(&projects)
            .with_context(|| format!("cannot create {}", projects.display()))?;
    }
    let prefs = dir.join("preferences.json");
    if prefs.exists() {
        println!("  kept: {}", prefs.display());
    } else if dry {
        println!("  would create: {}", prefs.display());
    } else {
        state::write_atomic(
            &prefs,
            b"{\n  \"style\": {},\n  \"patterns\": {},\n  \"languages\": {}\n}\n",
        )?;
        println!(
            "  created: {} (empty preferences: the agents follow each project's own style)",
            prefs.display()
        );
    }
    Ok(())
}

/// Records how this install was made (`install.json`, as `install.sh` records its own), so
/// that doctor's fixes name `programmer-hook install`.
fn record(state_dir: &Path, binary: &Path, layout: Option<&npm::Layout>) -> Result<()> {
    let file = state_dir.join(RECORD);
    let package = layout.map(|l| l.package.clone());
    let mut text = serde_json::to_vec_pretty(&json!({
        "method": METHOD,
        "binary": binary,
        "package": package,
    }))?;
    text.push(b'\n');
    if fs::read(&file).ok().as_deref() == Some(text.as_slice()) {
        println!("  unchanged: {}", file.display());
        return Ok(());
    }
    state::write_atomic(&file, &text)?;
    println!(
        "  recorded how this install was made (for doctor's fixes): {}",
        file.display()
    );
    Ok(())
}

/// Adds (`Some`) or removes (`None`) the marked block of `file`, when the file exists.
fn edit_block(file: &Path, block: Option<&str>, dry: bool) -> Result<()> {
    let Ok(text) = fs::read_to_string(file) else {
        return Ok(());
    };
    match blocks::edit(&text, block) {
        blocks::Edit::Unpaired => println!(
            "  left alone: {} (its programmer-hook markers do not pair up; fix them by hand)",
            file.display()
        ),
        blocks::Edit::NoBlock => println!("  no programmer-hook block in {}", file.display()),
        blocks::Edit::Unchanged => println!("  unchanged: {}", file.display()),
        blocks::Edit::Changed {
            text: new,
            replaced,
        } => {
            let did = match (block.is_some(), replaced) {
                (true, false) => "add the programmer-hook block to",
                (true, true) => "update the programmer-hook block in",
                (false, _) => "remove the programmer-hook block from",
            };
            if dry {
                println!("  would {did} {}", file.display());
                return Ok(());
            }
            let backup = user_files::backup_name(file);
            state::write_atomic(&backup, text.as_bytes())?;
            user_files::prune_backups(file, user_files::KEPT_BACKUPS);
            // Through a symlink to its target, with the file's permissions kept.
            let target = fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
            let perms = fs::metadata(&target).ok().map(|m| m.permissions());
            state::write_atomic(&target, new.as_bytes())?;
            if let Some(p) = perms {
                fs::set_permissions(&target, p).with_context(|| {
                    format!("cannot restore the permissions of {}", target.display())
                })?;
            }
            let done = match (block.is_some(), replaced) {
                (true, false) => "added the programmer-hook block to",
                (true, true) => "updated the programmer-hook block in",
                (false, _) => "removed the programmer-hook block from",
            };
            println!(
                "  {done} {} (old file kept as {})",
                file.display(),
                backup.display()
            );
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_line_says_what_next_or_what_to_fix() {
        let bin = Path::new("/home/u/.local/bin/programmer-hook");
        let done = closing(0, bin);
        assert!(done.starts_with("Done."), "{done}");
        assert!(done.contains("programmer-hook add-project"), "{done}");
        let problems = closing(1, bin);
        assert!(
            problems.contains("/home/u/.local/bin/programmer-hook doctor again"),
            "{problems}"
        );
    }
}
