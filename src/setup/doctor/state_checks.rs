//! Doctor's checks of the state dir: its JSON files valid and readable, the default
//! preferences there, and the temporary files of interrupted writes (removed, and named).

use std::path::{Path, PathBuf};

use super::fixes::Fixes;
use super::*;
const STATE_CHECK: &str = "state dir";

/// The state dir: its JSON files valid and readable, the default preferences there, and
/// what temporary files of interrupted writes were removed.
pub(super) fn check_state(state_dir: &Path, by_plugin: bool, fixes: &Fixes) -> Vec<Check> {
    if !state_dir.is_dir() {
        return vec![missing_state_dir(state_dir, by_plugin, fixes)];
    }
    let mut found = StateFiles::default();
    found.walk(state_dir, 0);
    let bad = found.invalid_json();
    let mut checks = state_problems(state_dir, &found, &bad, by_plugin, fixes);
    if checks.is_empty() {
        checks.push(state_ok(state_dir, &found));
    }
    checks.extend(check_temporaries(&found.temporary));
    checks
}

fn missing_state_dir(state_dir: &Path, by_plugin: bool, fixes: &Fixes) -> Check {
    if by_plugin {
        return Check::ok(
            STATE_CHECK,
            format!(
                "{} does not exist yet; the hook creates it on first use",
                state_dir.display()
            ),
        );
    }
    Check::fail(
        STATE_CHECK,
        format!("{} does not exist", state_dir.display()),
        fixes.reinstall(),
    )
}

/// What is wrong in the state dir: a missing preferences file, files that cannot be read,
/// files that are not valid JSON.
fn state_problems(
    state_dir: &Path,
    found: &StateFiles,
    bad: &[String],
    by_plugin: bool,
    fixes: &Fixes,
) -> Vec<Check> {
    let mut checks = Vec::new();
    let prefs = state_dir.join("preferences.json");
    // install.sh writes a default one; with the plugin, none means no preferences.
    if !prefs.is_file() && !by_plugin {
        checks.push(Check::fail(
            STATE_CHECK,
            format!("{} is missing", prefs.display()),
            format!("{} (it writes a default one)", fixes.reinstall()),
        ));
    }
    if !found.unreadable.is_empty() {
        checks.push(Check::fail(
            STATE_CHECK,
            format!("cannot read {}", found.unreadable.join(", ")),
            format!(
                "give yourself read access: chmod -R u+rwX {}",
                quote_path(state_dir)
            ),
        ));
    }
    if !bad.is_empty() {
        checks.push(Check::fail(
            STATE_CHECK,
            format!("not valid JSON: {}", bad.join(", ")),
            "repair each file by hand, or move it aside (mv FILE FILE.broken); a missing file starts from its defaults",
        ));
    }
    checks
}

fn state_ok(state_dir: &Path, found: &StateFiles) -> Check {
    let mut detail = match found.json.len() {
        1 => format!("{}: 1 JSON file, valid", state_dir.display()),
        n => format!("{}: {n} JSON files, all valid", state_dir.display()),
    };
    if !found.set_aside.is_empty() {
        detail.push_str(&format!(
            "; earlier unreadable files were moved aside: {}",
            found.set_aside.join(", ")
        ));
    }
    Check::ok(STATE_CHECK, detail)
}

/// What [`StateFiles::walk`] collects.
#[derive(Default)]
struct StateFiles {
    json: Vec<PathBuf>,
    unreadable: Vec<String>,
    set_aside: Vec<String>,
    /// Temporary files of atomic writes (`NAME.json.tmp.PID`).
    temporary: Vec<PathBuf>,
}

impl StateFiles {
    /// Collects the `*.json` files of the state dir (the audit log is JSON lines, not JSON).
    fn walk(&mut self, dir: &Path, depth: usize) {
        let entries = match fs::read_dir(dir) {
            Ok(e) => e,
            Err(e) => {
                self.unreadable.push(format!("{} ({e})", dir.display()));
                return;
            }
        };
        let mut entries: Vec<_> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        entries.sort();
        for p in entries {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            if p.is_dir() {
                if depth < 3 && name != "audit" {
                    self.walk(&p, depth + 1);
                }
            } else if name.ends_with(".json") {
                self.json.push(p);
            } else if name.contains(".json.corrupt-") {
                self.set_aside.push(p.display().to_string());
            } else if name.contains(".json.tmp.") {
                self.temporary.push(p);
            }
        }
    }

    /// The JSON files that do not parse, each with why; the ones that cannot be read join
    /// [`StateFiles::unreadable`].
    fn invalid_json(&mut self) -> Vec<String> {
        let mut bad = Vec::new();
        for f in &self.json {
            match fs::read(f) {
                Ok(b) => {
                    if let Err(e) = serde_json::from_slice::<Value>(&b) {
                        bad.push(format!("{} ({e})", f.display()));
                    }
                }
                Err(e) => self.unreadable.push(format!("{} ({e})", f.display())),
            }
        }
        bad
    }
}

/// A write replaces its file by renaming a finished temporary file over it, so a
/// temporary file left behind belongs to a writer that was killed before the rename: the
/// file it was for still holds its previous content. Those older than a minute (no write
/// takes that long) are removed, and each one is named; one that cannot be removed is a
/// problem with the command that removes it.
fn check_temporaries(temporary: &[PathBuf]) -> Vec<Check> {
    let stale = |p: &&PathBuf| {
        fs::metadata(p)
            .and_then(|m| m.modified())
            .ok()
            .and_then(|t| t.elapsed().ok())
            .is_some_and(|age| age > Duration::from_secs(60))
    };
    let (mut removed, mut kept) = (Vec::new(), Vec::new());
    for p in temporary.iter().filter(stale) {
        match fs::remove_file(p) {
            Ok(()) => removed.push(p.display().to_string()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => kept.push((p, e)),
        }
    }
    let mut checks = Vec::new();
    if !removed.is_empty() {
        checks.push(Check::ok(
            STATE_CHECK,
            format!(
                "removed {} temporary file{} that interrupted writes left (older than a minute; the files they were for are intact): {}",
                removed.len(),
                if removed.len() == 1 { "" } else { "s" },
                removed.join(", ")
            ),
        ));
    }
    if !kept.is_empty() {
        checks.push(Check::fail(
            STATE_CHECK,
            format!(
                "cannot remove temporary files that interrupted writes left: {}",
                kept.iter()
                    .map(|(p, e)| format!("{} ({e})", p.display()))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
            format!(
                "rm -f {}",
                kept.iter()
                    .map(|(p, _)| quote_path(p))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
        ));
    }
    checks
}
