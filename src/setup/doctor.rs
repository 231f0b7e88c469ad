//! `doctor`: checks an installation for the problems a user would otherwise debug by hand.
//!
//! Every check is read-only, except that temporary files interrupted writes left in the
//! state dir are removed, and each one removed is named. Each problem is printed with the
//! command that fixes it, fitted to the way the product was installed (see [`fixes`]), and
//! the exit status is 1 when any problem was found. The plugin's checks are in
//! [`plugin_checks`], the state dir's in [`state_checks`].

mod fixes;
mod leftovers;
mod plugin_checks;
mod state_checks;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::Result;
use clap::Args;
use serde::Serialize;
use serde_json::{json, Value};

use crate::engine::paths::Places;
use crate::engine::policy;
use crate::hook;
use crate::setup::installation::{self, BINARY_NAME, EVENTS};
use crate::setup::plugin;
use crate::setup::shell::{find_on_path, is_executable, quote_path};
use crate::workflow::{pack, projects, roles, state};
use fixes::Fixes;
use plugin_checks::check_plugin;
use state_checks::check_state;

/// The oldest Claude Code that honours every hook setting we write: `onFailure` arrived in
/// 2.1.295 and the `PreSkillShellCommand` event in 2.1.332.
pub const MIN_CLAUDE: (u64, u64, u64) = (2, 1, 332);

const VERSION: &str = env!("CARGO_PKG_VERSION");

#[derive(Args, Debug)]
pub struct DoctorArgs {
    /// Print one JSON object instead of text.
    #[arg(long)]
    pub json: bool,
    /// The settings file to check (default: settings.json in $CLAUDE_CONFIG_DIR or ~/.claude).
    #[arg(long, value_name = "FILE")]
    pub settings: Option<PathBuf>,
}

/// The result of one check.
#[derive(Debug, Clone, Serialize)]
pub struct Check {
    pub check: &'static str,
    pub ok: bool,
    pub detail: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fix: Option<String>,
}

impl Check {
    fn ok(check: &'static str, detail: impl Into<String>) -> Check {
        Check {
            check,
            ok: true,
            detail: detail.into(),
            fix: None,
        }
    }
    fn fail(check: &'static str, detail: impl Into<String>, fix: impl Into<String>) -> Check {
        Check {
            check,
            ok: false,
            detail: detail.into(),
            fix: Some(fix.into()),
        }
    }
}

pub fn run(args: DoctorArgs) -> Result<i32> {
    let places = state::places()?;
    let settings = args
        .settings
        .clone()
        .unwrap_or_else(|| installation::default_settings(&places.config_dir));
    let checks = all_checks(&places, &settings);
    let problems = checks.iter().filter(|c| !c.ok).count();
    if args.json {
        let out = json!({
            "version": VERSION,
            "ok": problems == 0,
            "problems": problems,
            "checks": checks,
        });
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        println!("programmer-hook doctor {VERSION}");
        for c in &checks {
            let mark = if c.ok { "ok  " } else { "FAIL" };
            println!("{mark}  {}: {}", c.check, c.detail);
            if let Some(f) = &c.fix {
                println!("      fix: {f}");
            }
        }
        match problems {
            0 => println!("no problems found"),
            1 => println!("1 problem found"),
            n => println!("{n} problems found"),
        }
    }
    Ok(if problems == 0 { 0 } else { 1 })
}

/// Runs every check.
pub fn all_checks(places: &Places, settings: &Path) -> Vec<Check> {
    let on_path = find_on_path(BINARY_NAME);
    let files = plugin::SettingsFiles::here(&places.config_dir, settings);
    let installs = plugin::installs(&places.config_dir, &files);
    // After an uninstall: what is left, not how to install again.
    if let Some(checks) = leftovers::uninstalled(places, settings, &installs) {
        return checks;
    }
    // The plugin, installed and enabled, registers the hooks and carries the pack.
    let by_plugin = installs
        .as_ref()
        .ok()
        .and_then(|list| list.iter().find(|i| i.enabled))
        .cloned();
    let fixes = Fixes::new(places, settings, by_plugin.as_ref(), on_path.as_deref());
    let (hook_checks, hook_binaries) = check_settings(settings, &fixes, by_plugin.as_ref());
    let mut checks = vec![
        Check::ok("install", fixes.describe()),
        check_path_binary(
            &places.config_dir,
            on_path.as_deref(),
            &hook_binaries,
            by_plugin.as_ref(),
            &fixes,
        ),
    ];
    checks.extend(hook_checks);
    checks.extend(check_plugin(&installs, &hook_binaries, &fixes));
    checks.push(check_pack(&places.config_dir, by_plugin.as_ref(), &fixes));
    checks.push(check_definitions(places));
    checks.extend(check_state(&places.state_dir, by_plugin.is_some(), &fixes));
    checks.push(check_policy(places, &fixes));
    checks.push(check_sandbox(places, &fixes));
    checks.push(check_confinement(places));
    checks.push(check_claude());
    checks
}

/// Runs `program --version` (at most 5 seconds) and returns its first line.
fn version_line(program: &Path) -> Option<String> {
    let mut child = Command::new(program)
        .arg("--version")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .ok()?;
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(10)),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return None;
            }
        }
    }
    let out = child.wait_with_output().ok()?;
    if !out.status.success() {
        return None;
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .next()
        .map(|l| l.trim().to_string())
}

/// The version a programmer-hook binary reports.
fn hook_version(program: &Path) -> Option<String> {
    version_line(program)?
        .strip_prefix(BINARY_NAME)
        .map(|v| v.trim().to_string())
}

fn check_path_binary(
    config_dir: &Path,
    on_path: Option<&Path>,
    hook_binaries: &[PathBuf],
    by_plugin: Option<&plugin::Install>,
    fixes: &Fixes,
) -> Check {
    const NAME: &str = "binary on PATH";
    if let (None, Some(p)) = (on_path, by_plugin) {
        let terminal = match plugin::marketplace_launcher(config_dir, &p.id) {
            Some(l) => format!(
                "for a terminal, link the marketplace's launcher once, a path with no version that follows plugin updates: mkdir -p ~/.local/bin && ln -s {} ~/.local/bin/programmer-hook (with ~/.local/bin on PATH)",
                quote_path(&l)
            ),
            None => format!(
                "in a terminal: {}",
                p.path.join("bin").join(BINARY_NAME).display()
            ),
        };
        return Check::ok(
            NAME,
            format!(
                "programmer-hook is not on PATH; the agents run the plugin's, which Claude Code puts on their PATH ({terminal})"
            ),
        );
    }
    let Some(found) = on_path else {
        let dir = hook_binaries
            .first()
            .and_then(|b| b.parent())
            .map(|d| d.display().to_string())
            .unwrap_or_else(|| "$HOME/.local/bin".into());
        return Check::fail(
            NAME,
            "programmer-hook is not on PATH (the add-project skill and the agents run it by name)",
            format!("add `export PATH=\"{dir}:$PATH\"` to your shell profile and open a new shell"),
        );
    };
    let Some(v) = hook_version(found) else {
        return Check::fail(
            NAME,
            format!("{} does not run `--version`", found.display()),
            fixes.reinstall(),
        );
    };
    let mut detail = format!("{} ({v})", found.display());
    for b in hook_binaries {
        if hook_version(b).as_deref() != Some(v.as_str()) {
            return Check::fail(
                NAME,
                format!(
                    "{detail} is not the version the hook entries run ({})",
                    b.display()
                ),
                fixes.reinstall(),
            );
        }
        if !same_file(found, b) {
            detail.push_str(&format!("; the hook entries run {}", b.display()));
        }
    }
    Check::ok(NAME, detail)
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

const HOOK_ENTRIES: &str = "hook entries";

/// Checks the hook entries; returns the checks and the binaries the entries run.
fn check_settings(
    settings: &Path,
    fixes: &Fixes,
    by_plugin: Option<&plugin::Install>,
) -> (Vec<Check>, Vec<PathBuf>) {
    let value = match read_settings(settings, fixes, by_plugin) {
        Ok(v) => v,
        Err(check) => return (vec![check], vec![]),
    };
    let entries = Entries::scan(&value);
    let checks = entries_checks(settings, &entries, fixes, by_plugin);
    (checks, entries.binaries)
}

/// The settings as JSON, or the one check that is all there is to say of them: why they
/// cannot be read, or that a plugin install has none.
fn read_settings(
    settings: &Path,
    fixes: &Fixes,
    by_plugin: Option<&plugin::Install>,
) -> Result<Value, Check> {
    // With the plugin the hooks are its own; without it, the entries must be written again.
    let then = match by_plugin {
        Some(_) => String::new(),
        None => format!(", then run: {}", fixes.hook_entries()),
    };
    let bytes = match fs::read(settings) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && by_plugin.is_some() => {
            return Err(plugin_hooks_ok(settings, by_plugin));
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(Check::fail(
                HOOK_ENTRIES,
                format!(
                    "cannot read {}: {e}; no tool call is checked",
                    settings.display()
                ),
                fixes.hook_entries(),
            ))
        }
        Err(e) => {
            return Err(Check::fail(
                HOOK_ENTRIES,
                format!(
                    "cannot read {}: {e}; no tool call is checked",
                    settings.display()
                ),
                format!(
                    "make it a file you can read and write (chmod u+rw {}){then}",
                    quote_path(settings)
                ),
            ))
        }
    };
    serde_json::from_slice(&bytes).map_err(|e| {
        Check::fail(
            HOOK_ENTRIES,
            format!("{} is not valid JSON: {e}", settings.display()),
            format!(
                "repair {} by hand (Claude Code ignores a settings file it cannot read){then}",
                settings.display()
            ),
        )
    })
}

/// What the settings hold of our hook entries.
struct Entries {
    /// What is wrong with the entries there are.
    problems: Vec<String>,
    /// The programmer-hook binaries they run.
    binaries: Vec<PathBuf>,
    /// The events without one of ours.
    missing: Vec<&'static str>,
}

impl Entries {
    fn scan(value: &Value) -> Entries {
        let mut e = Entries {
            problems: Vec::new(),
            binaries: Vec::new(),
            missing: Vec::new(),
        };
        if value.get("disableAllHooks") == Some(&Value::Bool(true)) {
            e.problems
                .push("`disableAllHooks` is true, so no hook runs".to_string());
        }
        for event in EVENTS {
            let groups = value
                .get("hooks")
                .and_then(|h| h.get(event.as_str()))
                .and_then(Value::as_array)
                .map(Vec::as_slice)
                .unwrap_or_default();
            let mut found = false;
            for g in groups {
                let handlers = g
                    .get("hooks")
                    .and_then(Value::as_array)
                    .map(Vec::as_slice)
                    .unwrap_or_default();
                for h in handlers.iter().filter(|h| installation::is_ours(h)) {
                    found = true;
                    e.add_handler(event.as_str(), g, h);
                }
            }
            if !found {
                e.missing.push(event.as_str());
            }
        }
        e
    }

    /// One of our handlers, in its group, for `event`.
    fn add_handler(&mut self, event: &str, group: &Value, h: &Value) {
        let matcher = group.get("matcher").and_then(Value::as_str).unwrap_or("");
        if !matches!(matcher, "" | "*") {
            self.problems.push(format!(
                "{event}: matcher {matcher:?} lets other tools through unchecked"
            ));
        }
        if h.get("onFailure").and_then(Value::as_str) != Some("block") {
            self.problems.push(format!(
                "{event}: no `\"onFailure\": \"block\"`, so a hook that fails lets the call through"
            ));
        }
        if h.get("args").is_none() {
            self.problems
                .push(format!("{event}: shell form instead of exec form (`args`)"));
        }
        if let Some(cmd) = h.get("command").and_then(Value::as_str) {
            let p = PathBuf::from(cmd.split_whitespace().next().unwrap_or(cmd));
            if !self.binaries.contains(&p) {
                self.binaries.push(p);
            }
        }
    }
}

/// The checks of the entries found: all there and sound, or what is wrong; then each binary
/// they run.
fn entries_checks(
    settings: &Path,
    entries: &Entries,
    fixes: &Fixes,
    by_plugin: Option<&plugin::Install>,
) -> Vec<Check> {
    if entries.missing.len() == EVENTS.len() && by_plugin.is_some() {
        // None of ours: the plugin's hooks.json registers them.
        if entries.problems.is_empty() {
            return vec![plugin_hooks_ok(settings, by_plugin)];
        }
        return vec![Check::fail(
            HOOK_ENTRIES,
            format!("{}: {}", settings.display(), entries.problems.join("; ")),
            format!("remove `disableAllHooks` from {}", settings.display()),
        )];
    }
    let mut problems = entries.problems.clone();
    if !entries.missing.is_empty() {
        problems.push(format!(
            "no programmer-hook entry for {}",
            entries.missing.join(", ")
        ));
    }
    let mut checks = vec![if problems.is_empty() {
        Check::ok(
            HOOK_ENTRIES,
            format!(
                "{} events in {}, each with onFailure block",
                EVENTS.len(),
                settings.display()
            ),
        )
    } else {
        Check::fail(
            HOOK_ENTRIES,
            format!("{}: {}", settings.display(), problems.join("; ")),
            fixes.hook_entries(),
        )
    }];
    checks.extend(entries.binaries.iter().map(|b| check_hook_binary(b, fixes)));
    checks
}

/// The hook entries of a plugin install: in its `hooks/hooks.json`, none in settings.json.
fn plugin_hooks_ok(settings: &Path, by_plugin: Option<&plugin::Install>) -> Check {
    let id = by_plugin.map(|p| p.id.as_str()).unwrap_or(pack::PLUGIN);
    Check::ok(
        HOOK_ENTRIES,
        format!(
            "none in {}: the plugin {id} registers the {} events (its hooks/hooks.json, checked below)",
            settings.display(),
            EVENTS.len()
        ),
    )
}

fn check_hook_binary(bin: &Path, fixes: &Fixes) -> Check {
    const NAME: &str = "hook binary";
    if !bin.is_absolute() {
        return Check::fail(
            NAME,
            format!(
                "the hook entries run {}, not an absolute path",
                bin.display()
            ),
            fixes.hook_entries(),
        );
    }
    if !is_executable(bin) {
        return Check::fail(
            NAME,
            format!(
                "the hook entries run {}, which is missing or not executable: Claude Code blocks every tool call",
                bin.display()
            ),
            format!("{} (or: {})", fixes.reinstall(), fixes.hook_entries()),
        );
    }
    match hook_version(bin) {
        Some(v) if v == VERSION => Check::ok(NAME, format!("{} ({v})", bin.display())),
        Some(v) => Check::fail(
            NAME,
            format!("{} is version {v}, this doctor is {VERSION}", bin.display()),
            fixes.reinstall(),
        ),
        None => Check::fail(
            NAME,
            format!("{} does not run `--version`", bin.display()),
            fixes.reinstall(),
        ),
    }
}

fn check_pack(config_dir: &Path, by_plugin: Option<&plugin::Install>, fixes: &Fixes) -> Check {
    const NAME: &str = "agents, commands and skill";
    let mut missing = Vec::new();
    let mut different = Vec::new();
    let pack = pack::pack();
    for (rel, text) in &pack {
        match fs::read(config_dir.join(rel)) {
            Ok(b) if b == text.as_bytes() => {}
            Ok(_) => different.push(rel.as_str()),
            Err(_) => missing.push(rel.as_str()),
        }
    }
    if let (true, Some(p)) = (missing.len() == pack.len(), by_plugin) {
        return Check::ok(
            NAME,
            format!(
                "none in {}: the plugin {} carries them (checked above)",
                config_dir.display(),
                p.id
            ),
        );
    }
    if missing.is_empty() && different.is_empty() {
        return Check::ok(
            NAME,
            format!(
                "{} files in {}, the same as built into this binary",
                pack.len(),
                config_dir.display()
            ),
        );
    }
    let mut parts = Vec::new();
    if !missing.is_empty() {
        parts.push(format!("missing: {}", missing.join(", ")));
    }
    if !different.is_empty() {
        parts.push(format!(
            "different from the copies built into this binary: {}",
            different.join(", ")
        ));
    }
    // With the plugin in use these are left from an install.sh install; reinstalling them
    // would add its hook entries again, so the fix takes them away.
    let fix = match by_plugin {
        Some(p) => {
            let present: Vec<PathBuf> = pack
                .iter()
                .map(|(rel, _)| config_dir.join(rel))
                .filter(|f| f.is_file())
                .collect();
            format!(
                "the plugin {} carries its own copies; remove these: {}",
                p.id,
                fixes.remove_pack(&present)
            )
        }
        None => fixes.reinstall(),
    };
    Check::fail(
        NAME,
        format!("in {}: {}", config_dir.display(), parts.join("; ")),
        fix,
    )
}

/// Agent definitions in a project that Claude Code would load instead of the pack's own
/// planner, implementer or reviewer: in the current folder and every registered project.
fn check_definitions(places: &Places) -> Check {
    const NAME: &str = "agent definitions in projects";
    let mut roots: Vec<PathBuf> = std::env::current_dir().into_iter().collect();
    if let Ok(index) = projects::index(&places.state_dir) {
        roots.extend(index.into_values().map(PathBuf::from));
    }
    let mut problems = Vec::new();
    for root in &roots {
        let mut dirs = pack::agent_dirs(Some(root), &places.home, &places.config_dir);
        // The user's own folder is checked against the pack by the check above.
        dirs.pop();
        for name in [roles::PLANNER, roles::IMPLEMENTER, roles::REVIEWER] {
            if let Some(p) = pack::definition_problem(name, &dirs) {
                if !problems.contains(&p) {
                    problems.push(p);
                }
            }
        }
    }
    if problems.is_empty() {
        return Check::ok(
            NAME,
            format!(
                "no project replaces the planner, implementer or reviewer ({} folders checked)",
                roots.len()
            ),
        );
    }
    Check::fail(
        NAME,
        format!(
            "{}; the hook refuses to start that agent there",
            problems.join("; ")
        ),
        "remove or rename that file (or change its `name:`), so the pack's agent is the one Claude Code loads",
    )
}

fn check_policy(places: &Places, fixes: &Fixes) -> Check {
    const NAME: &str = "policy";
    let cwd = std::env::current_dir().ok();
    match hook::load_policy(places, cwd.as_deref()) {
        Ok(p) => Check::ok(
            NAME,
            format!("{} rules from {}", p.rules().len(), p.sources().join(", ")),
        ),
        Err(e) => {
            let user = policy::user_policy_path(&places.state_dir);
            let project = cwd
                .as_deref()
                .and_then(|c| hook::find_project_policy(c, &places.home));
            let managed = crate::hook::managed::policy_path();
            let files: Vec<String> = [Some(managed), Some(user), project]
                .into_iter()
                .flatten()
                .filter(|f| f.is_file())
                .map(|f| quote_path(&f))
                .collect();
            let fix = if files.is_empty() {
                format!(
                    "the built-in policy does not load; reinstall: {}",
                    fixes.product()
                )
            } else {
                files
                    .iter()
                    .map(|f| format!("programmer-hook policy validate {f}"))
                    .collect::<Vec<_>>()
                    .join("; ")
                    + ", then correct what it reports"
            };
            Check::fail(
                NAME,
                format!("{e:#} (while this lasts, every tool call is blocked)",),
                fix,
            )
        }
    }
}

/// Claude Code's sandbox for the current folder: on or not, the programs it needs, and
/// what autonomy `auto` relaxes because of it. Off is not a problem; on without the
/// programs it needs is.
fn check_sandbox(places: &Places, fixes: &Fixes) -> Check {
    let project = std::env::current_dir().unwrap_or_else(|_| places.home.clone());
    let policy = match hook::load_policy(places, Some(&project)) {
        Ok(p) => p,
        Err(e) => {
            return Check::fail(
                "sandbox",
                format!("cannot judge the sandbox: {e:#}"),
                "fix the policy (see the policy check above)",
            )
        }
    };
    match crate::setup::sandbox::report(places, &policy.paths, &project, fixes.sandbox_on()) {
        (detail, None) => Check::ok("sandbox", detail),
        (detail, Some(fix)) => Check::fail("sandbox", detail, fix),
    }
}

/// Whether the hook can confine the calls it allows on a prediction: the kernel's Landlock,
/// and a confined run of `true` through this binary.
fn check_confinement(places: &Places) -> Check {
    const NAME: &str = "confinement";
    if let Err(why) = crate::confine::available() {
        return Check::ok(
            NAME,
            format!("not available: {why}. The hook keeps the verdicts it gives without it: checkers, test listings and, in `auto`, contained calls are asked unless Claude Code's sandbox runs them (see docs/confinement.md)"),
        );
    }
    let Some(bin) = places.binary.as_deref() else {
        return Check::fail(
            NAME,
            "the path of this binary is not known",
            "run doctor through the installed binary",
        );
    };
    let run = std::process::Command::new(bin)
        .args(["confine", "read", "--", "true"])
        .stdin(std::process::Stdio::null())
        .output();
    match run {
        Ok(o) if o.status.success() => Check::ok(
            NAME,
            "Landlock works: Safe calls that load files they are not given run in the read profile, checkers and test listings run unasked in it, and `auto` runs contained calls unasked in the project profile",
        ),
        Ok(o) => Check::fail(
            NAME,
            format!(
                "a confined run of `true` failed ({}): {}",
                o.status,
                String::from_utf8_lossy(&o.stderr).trim()
            ),
            "the calls the hook confines will not run; report this with the output of `programmer-hook confine read -- true`",
        ),
        Err(e) => Check::fail(NAME, format!("could not run {}: {e}", bin.display()), "reinstall programmer-hook"),
    }
}

fn check_claude() -> Check {
    const NAME: &str = "Claude Code version";
    let Some(claude) = find_on_path("claude") else {
        return Check::ok(NAME, "claude is not on PATH; not checked");
    };
    let Some(line) = version_line(&claude) else {
        return Check::ok(
            NAME,
            format!("{} --version gave no answer; not checked", claude.display()),
        );
    };
    let Some(v) = parse_version(&line) else {
        return Check::ok(
            NAME,
            format!("cannot read the version in {line:?}; not checked"),
        );
    };
    if v >= MIN_CLAUDE {
        Check::ok(NAME, line)
    } else {
        let (a, b, c) = MIN_CLAUDE;
        Check::fail(
            NAME,
            format!(
                "{line} is older than {a}.{b}.{c}: it ignores `onFailure: block` (so a failing hook lets calls through) or the PreSkillShellCommand event"
            ),
            "claude update",
        )
    }
}

/// `2.1.332 (Claude Code)` → `(2, 1, 332)`.
fn parse_version(line: &str) -> Option<(u64, u64, u64)> {
    let word = line.split_whitespace().next()?;
    let mut parts = word.split('.').map(|p| p.parse::<u64>().ok());
    Some((parts.next()??, parts.next()??, parts.next()??))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::install;

    #[test]
    fn stale_temporary_files_are_removed() {
        let dir = tempfile::tempdir().expect("tempdir");
        let state = dir.path();
        std::fs::write(state.join("preferences.json"), "{}").expect("write");
        std::fs::create_dir(state.join("sessions")).expect("mkdir");
        let old = state.join("sessions/a.json.tmp.123");
        let fresh = state.join("sessions/b.json.tmp.456");
        for p in [&old, &fresh] {
            std::fs::write(p, "{\"half").expect("write");
        }
        let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600);
        std::fs::File::options()
            .write(true)
            .open(&old)
            .and_then(|f| f.set_modified(hour_ago))
            .expect("set mtime");
        let places = Places {
            home: dir.path().into(),
            state_dir: state.into(),
            config_dir: dir.path().into(),
            binary: None,
            installed: Vec::new(),
            cdpath: false,
        };
        let fixes = Fixes::new(&places, &state.join("settings.json"), None, None);
        let checks = check_state(state, false, &fixes);
        assert!(
            checks.iter().all(|c| c.ok),
            "{:?}",
            checks.iter().map(|c| &c.detail).collect::<Vec<_>>()
        );
        let removed = checks
            .iter()
            .find(|c| c.detail.starts_with("removed 1 temporary file "))
            .unwrap_or_else(|| panic!("{checks:?}"));
        assert!(
            removed.detail.ends_with(&old.display().to_string()),
            "{}",
            removed.detail
        );
        assert!(!old.exists(), "the stale one is removed");
        assert!(fresh.exists(), "one that may still be written is kept");
    }

    #[test]
    fn versions() {
        assert_eq!(parse_version("2.1.332 (Claude Code)"), Some((2, 1, 332)));
        assert!(parse_version("2.1.99 (Claude Code)").is_some_and(|v| v < MIN_CLAUDE));
        assert!(parse_version("2.2.0").is_some_and(|v| v >= MIN_CLAUDE));
        assert_eq!(parse_version("Claude Code"), None);
    }

    #[test]
    fn settings_problems_are_found() {
        let dir = tempfile::tempdir().expect("tempdir");
        let places = Places {
            home: dir.path().into(),
            state_dir: dir.path().join("state"),
            config_dir: dir.path().into(),
            binary: None,
            installed: Vec::new(),
            cdpath: false,
        };
        let s = dir.path().join("settings.json");
        let fixes = Fixes::new(&places, &s, None, None);
        let mut v = json!({"disableAllHooks": true});
        install::add_hooks(&mut v, "/nowhere/programmer-hook").expect("add");
        v["hooks"]["PreToolUse"][0]["hooks"][0]
            .as_object_mut()
            .expect("handler")
            .shift_remove("onFailure");
        v["hooks"]["SubagentStop"][0]["matcher"] = json!("Bash");
        v["hooks"]
            .as_object_mut()
            .expect("hooks")
            .shift_remove("SessionStart");
        fs::write(&s, v.to_string()).expect("write");
        let (checks, bins) = check_settings(&s, &fixes, None);
        assert_eq!(bins, [PathBuf::from("/nowhere/programmer-hook")]);
        let text = format!("{checks:?}");
        for needle in [
            "disableAllHooks",
            "onFailure",
            "SubagentStop",
            "SessionStart",
            "missing or not executable",
        ] {
            assert!(text.contains(needle), "{needle}: {text}");
        }
        assert!(checks.iter().all(|c| !c.ok));

        fs::write(&s, "{oops").expect("write");
        let (checks, _) = check_settings(&s, &fixes, None);
        assert!(!checks[0].ok && checks[0].detail.contains("not valid JSON"));
    }
}
