//! `programmer-hook confine` and `programmer-hook undo`: the confined run of one command
//! (what the hook's rewritten Bash calls start) and bringing back what `project` runs
//! changed.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use clap::Args;

use crate::confine::{self, guard, undo, Profile};
use crate::engine::paths::Places;
use crate::engine::policy::Policy;
use crate::workflow::{clock, state};

/// Arguments of `confine`.
#[derive(Args, Debug)]
pub struct ConfineArgs {
    /// The profile: `read` (no file written, secrets unreadable) or `project` (writes only in
    /// the project and the temporary folders, secrets outside the project unreadable).
    pub profile: String,
    /// The project folder a `project` run may write (default: the current folder's
    /// repository, else the current folder).
    #[arg(long)]
    pub project: Option<PathBuf>,
    /// The session whose `undo` list a `project` run is saved in.
    #[arg(long)]
    pub session: Option<String>,
    /// A folder a `read` run may still write (a program's scratch folder); repeatable.
    #[arg(long)]
    pub scratch: Vec<PathBuf>,
    /// A secret the command may still read (one its program uses itself, such as git's
    /// SSH keys); repeatable.
    #[arg(long)]
    pub readable: Vec<PathBuf>,
    /// A file to write the folder the command ended in to (for the calling shell's `cd`).
    #[arg(long)]
    pub cwd_file: Option<PathBuf>,
    /// The command, run by bash.
    #[arg(last = true, required = true)]
    pub command: Vec<String>,
}

/// Arguments of `undo`.
#[derive(Args, Debug)]
pub struct UndoArgs {
    /// The session whose confined `project` runs to undo.
    #[arg(long)]
    pub session: String,
    /// List the saved runs instead of undoing.
    #[arg(long)]
    pub list: bool,
    /// Which run (from `--list`; default: the last one).
    #[arg(long)]
    pub run: Option<usize>,
    /// Also bring back files changed again since the run.
    #[arg(long)]
    pub force: bool,
}

/// Runs `confine`: the command's exit status.
pub fn run_confine(a: ConfineArgs) -> Result<i32> {
    let Some(profile) = Profile::parse(&a.profile) else {
        return Err(crate::cli::usage(format!(
            "unknown profile {:?}: use `read` or `project`",
            a.profile
        )));
    };
    let command = a.command.join(" ");
    match confined(profile, &a, &command) {
        Ok(code) => Ok(code),
        Err(e) => {
            eprintln!("programmer-hook: the confinement could not be set up, so the command did not run: {e:#}");
            Ok(126)
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn confined(_: Profile, _: &ConfineArgs, _: &str) -> Result<i32> {
    confine::available().map_err(anyhow::Error::msg)?;
    anyhow::bail!("no confinement on this system")
}

#[cfg(target_os = "linux")]
fn confined(profile: Profile, a: &ConfineArgs, command: &str) -> Result<i32> {
    use confine::profile::{plan, Inputs};
    confine::available().map_err(anyhow::Error::msg)?;
    let places = state::places()?;
    let cwd = std::env::current_dir().context("the current folder")?;
    let project = match &a.project {
        Some(p) => p.clone(),
        None => repository_of(&cwd),
    };
    let policy = crate::hook::load_policy(&places, Some(&cwd))?;
    let mut inputs = Inputs {
        project: Some(project.clone()),
        temp: temp_dirs(),
        home: Some(places.home.clone()),
        private_temp: None,
        secrets: secrets(&policy, &places, &[&project, &cwd])
            .into_iter()
            .filter(|s| !a.readable.iter().any(|r| s.starts_with(r)))
            .collect(),
        scratch: Vec::new(),
        outputs: outputs(),
    };
    let private = match profile {
        Profile::Read => {
            let d = PrivateTemp::new().context("making the call's temporary folder")?;
            inputs.private_temp = Some(d.path().to_path_buf());
            for s in &a.scratch {
                // A scratch folder inside the project is made if it is missing (a build's
                // `target/`); one elsewhere must exist.
                if s.starts_with(&project) && !s.exists() {
                    let _ = std::fs::create_dir_all(s);
                }
                inputs.scratch.push(s.clone());
            }
            std::env::set_var("TMPDIR", d.path());
            Some(d)
        }
        Profile::Project => {
            inputs.scratch = caches(&policy, &places);
            None
        }
    };
    let plan = plan(profile, &inputs);
    // Before a `project` run: what to put back, and the save for `undo`.
    let (kept, before) = match profile {
        Profile::Project => {
            let patterns = guard::project_patterns(
                policy
                    .paths
                    .protected
                    .iter()
                    .chain(policy.paths.runs_later.iter()),
            );
            let kept = guard::keep(&project, &patterns)?;
            let before = match &a.session {
                Some(_) => Some(undo::save(&places.state_dir, &project)?),
                None => None,
            };
            (Some(kept), before)
        }
        Profile::Read => (None, None),
    };
    let shell = ["/bin/bash", "/usr/bin/bash"]
        .iter()
        .map(Path::new)
        .find(|p| p.exists())
        .context("bash is not installed")?;
    let ran = confine::runner::run(&confine::runner::Run {
        plan: &plan,
        command,
        shell,
    })?;
    let mut notes = Vec::new();
    if let Some(kept) = &kept {
        let q = places
            .state_dir
            .join("quarantine")
            .join(clock::now().replace(':', "-"));
        match guard::restore(kept, &q) {
            Ok(n) => notes.extend(n),
            Err(e) => notes.push(format!(
                "the protected paths could not all be put back: {e:#}"
            )),
        }
    }
    if let (Some(before), Some(session)) = (before, &a.session) {
        let saved = undo::save(&places.state_dir, &project).and_then(|after| {
            undo::record(
                &places.state_dir,
                session,
                &undo::Saved {
                    time: clock::now(),
                    project: project.clone(),
                    store: undo::store_of(&places.state_dir, &project),
                    before,
                    after,
                    command: command.to_string(),
                },
            )
        });
        if let Err(e) = saved {
            notes.push(format!(
                "what this run changed could not be saved for `undo`: {e:#}"
            ));
        }
    }
    for n in &notes {
        eprintln!("programmer-hook: {n}");
    }
    if let (Some(f), Some(d)) = (&a.cwd_file, &ran.cwd) {
        if let Some(parent) = f.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        let _ = std::fs::write(f, format!("{}\n", d.display()));
    }
    drop(private);
    if ran.status != 0 && ran.refused {
        eprintln!("{}", confine::runner::refusal_note(profile));
    }
    Ok(ran.status)
}

/// A temporary folder of the call's own, removed when the call ends.
struct PrivateTemp(PathBuf);

impl PrivateTemp {
    fn new() -> Result<PrivateTemp> {
        use std::os::unix::fs::DirBuilderExt;
        let base = std::env::var_os("TMPDIR")
            .filter(|t| !t.is_empty())
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from("/tmp"));
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.subsec_nanos())
            .unwrap_or(0);
        let p = base.join(format!(
            "programmer-hook-read-{}-{nanos}",
            std::process::id()
        ));
        std::fs::DirBuilder::new().mode(0o700).create(&p)?;
        Ok(PrivateTemp(p))
    }
    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for PrivateTemp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The repository a folder is in (the nearest folder above it holding `.git`), else the
/// folder itself.
pub fn repository_of(cwd: &Path) -> PathBuf {
    cwd.ancestors()
        .find(|d| d.join(".git").exists())
        .unwrap_or(cwd)
        .to_path_buf()
}

fn temp_dirs() -> Vec<PathBuf> {
    let mut v = vec![PathBuf::from("/tmp"), PathBuf::from("/var/tmp")];
    if let Some(t) = std::env::var_os("TMPDIR").filter(|t| !t.is_empty()) {
        v.push(PathBuf::from(t));
    }
    v.retain(|d| d.is_dir());
    v
}

/// Standard output and error, when they are files (their names, to write them again).
fn outputs() -> Vec<PathBuf> {
    (1..=2)
        .filter_map(|fd| std::fs::read_link(format!("/proc/self/fd/{fd}")).ok())
        .filter(|p| p.is_absolute() && p.is_file())
        .collect()
}

/// The policy's secrets with a place this call can name: fixed places (`~/.ssh`), the
/// folder before a `**` (`~/.mozilla` for `~/.mozilla/**/logins.json`), the matches of a
/// pattern whose last part has a wildcard (`/etc/ssh/ssh_host_*_key`), and the files in
/// the project and current folders whose names are secrets (`.env`, `*.pem`).
pub fn secrets(policy: &Policy, places: &Places, dirs: &[&Path]) -> Vec<PathBuf> {
    let lists = &policy.paths;
    let not = |name: &str| {
        lists
            .not_sensitive
            .iter()
            .any(|p| guard::glob(&[p], &[name]))
    };
    // The names in the project and working folders, read once.
    let mut named: Vec<(String, PathBuf)> = Vec::new();
    let mut seen: Vec<&Path> = Vec::new();
    for d in dirs {
        if seen.contains(d) {
            continue;
        }
        seen.push(d);
        let Ok(entries) = std::fs::read_dir(d) else {
            continue;
        };
        for e in entries.flatten() {
            named.push((e.file_name().to_string_lossy().to_string(), e.path()));
        }
    }
    let mut out: Vec<PathBuf> = Vec::new();
    for pat in lists.sensitive.iter() {
        let expanded = match pat.strip_prefix("~/") {
            Some(rest) => places.home.join(rest),
            None if pat.starts_with('/') => PathBuf::from(pat),
            None if !pat.contains('/') => {
                for (name, path) in &named {
                    if guard::glob(&[pat], &[name]) && !not(name) {
                        out.push(path.clone());
                    }
                }
                continue;
            }
            None => continue,
        };
        let comps: Vec<String> = expanded
            .components()
            .map(|c| c.as_os_str().to_string_lossy().to_string())
            .collect();
        let first_glob = comps.iter().position(|c| c.contains(['*', '?', '[']));
        match first_glob {
            None => out.push(expanded),
            Some(i) if i == comps.len() - 1 && comps[i] != "**" => {
                let parent: PathBuf = comps[..i].iter().collect();
                if let Ok(entries) = std::fs::read_dir(&parent) {
                    for e in entries.flatten() {
                        let name = e.file_name().to_string_lossy().to_string();
                        if guard::glob(&[&comps[i]], &[&name]) && !not(&name) {
                            out.push(e.path());
                        }
                    }
                }
            }
            // A folder before a `**`: deep enough not to be a system folder or the home.
            Some(i) => {
                let prefix: PathBuf = comps[..i].iter().collect();
                let deep = prefix.starts_with(&places.home) && prefix != places.home
                    || prefix.components().count() >= 3;
                if deep {
                    out.push(prefix);
                }
            }
        }
    }
    // Only what this user could read: a path that is not there cannot be read (and a call
    // confined here cannot make it where it may not write), and one the system already
    // keeps from this user (`/etc/shadow` for a user other than root) needs no rule.
    let mut all = Vec::new();
    for p in out {
        if !readable(&p) {
            continue;
        }
        if let Ok(c) = p.canonicalize() {
            if c != p {
                all.push(c);
            }
        }
        all.push(p);
    }
    all.sort();
    all.dedup();
    all
}

/// Whether this user may read a path (or, for a folder, its names).
fn readable(p: &Path) -> bool {
    use std::os::unix::ffi::OsStrExt;
    let Ok(c) = std::ffi::CString::new(p.as_os_str().as_bytes()) else {
        return true;
    };
    // SAFETY: `c` is NUL-terminated and lives across the call.
    unsafe { libc::access(c.as_ptr(), libc::R_OK) == 0 }
}

/// The tool caches a `project` run may write, from the policy (those that exist).
fn caches(policy: &Policy, places: &Places) -> Vec<PathBuf> {
    policy
        .kinds
        .confine_caches
        .iter()
        .map(|c| match c.strip_prefix("~/") {
            Some(rest) => places.home.join(rest),
            None => PathBuf::from(c),
        })
        .filter(|p| p.is_dir())
        .collect()
}

/// Runs `undo`.
pub fn run_undo(a: UndoArgs) -> Result<i32> {
    let places = state::places()?;
    let runs = undo::list(&places.state_dir, &a.session)?;
    if runs.is_empty() {
        eprintln!(
            "programmer-hook: session {} has no confined project run to undo (runs are saved only for calls an `auto` session ran confined in the project profile)",
            a.session
        );
        return Ok(1);
    }
    if a.list {
        for (i, r) in runs.iter().enumerate() {
            println!(
                "{i}\t{}\t{}\t{}",
                r.time,
                r.project.display(),
                r.command.lines().next().unwrap_or("")
            );
        }
        return Ok(0);
    }
    let i = a.run.unwrap_or(runs.len() - 1);
    let Some(r) = runs.get(i) else {
        return Err(crate::cli::usage(format!(
            "there is no run {i}: session {} has runs 0 to {} (see `programmer-hook undo --session {} --list`)",
            a.session,
            runs.len() - 1,
            a.session
        )));
    };
    let done = undo::undo(r, a.force)?;
    let mut left = 0;
    for d in &done {
        match d {
            undo::Undone::Restored(p) => println!("restored  {p}"),
            undo::Undone::Removed(p) => println!("removed   {p}"),
            undo::Undone::Left(p) => {
                left += 1;
                println!(
                    "left      {p} (changed again since the run; --force brings it back anyway)"
                )
            }
        }
    }
    if done.is_empty() {
        println!("the run changed no file that is saved (ignored files are not)");
    }
    Ok(if left > 0 { 1 } else { 0 })
}
