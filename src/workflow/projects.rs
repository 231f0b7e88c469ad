//! Registered projects: `<state>/projects/<name>.json`, and an index of their paths.
//!
//! A project file follows the design's schema (path, description, stack, conventions,
//! recentWork, activeTodos) plus an optional test command; keys we do not know are kept.
//! The index (`projects/index.json`, name → path) lets a hook find the project of a folder
//! by reading one small file however many projects there are; it is rebuilt from the
//! project files whenever it is missing, unreadable or older than the folder.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::workflow::state::{self, Loaded};

/// How many `recentWork` entries a project keeps.
pub const RECENT_WORK: usize = 20;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WorkItem {
    pub date: String,
    pub summary: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Project {
    pub path: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub stack: Vec<String>,
    #[serde(default)]
    pub conventions: String,
    #[serde(default, rename = "recentWork")]
    pub recent_work: Vec<WorkItem>,
    #[serde(default, rename = "activeTodos")]
    pub active_todos: Vec<Value>,
    /// The command that runs the project's tests (the review gate waits for it to pass).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub test: Option<String>,
    /// Keys this version does not know, kept as they are.
    #[serde(flatten)]
    pub extra: Map<String, Value>,
}

impl Project {
    /// The context an agent is given about the project.
    pub fn context(&self, name: &str) -> String {
        let mut s = format!("Project `{name}` at {}", self.path);
        if !self.description.is_empty() {
            s.push_str(&format!(": {}", self.description));
        }
        if !self.stack.is_empty() {
            s.push_str(&format!(". Stack: {}", self.stack.join(", ")));
        }
        if !self.conventions.is_empty() {
            s.push_str(&format!(". Conventions: {}", self.conventions));
        }
        match &self.test {
            Some(t) => s.push_str(&format!(". Test command: `{t}`")),
            None => s.push_str(". No test command registered"),
        }
        if !self.recent_work.is_empty() {
            let recent: Vec<String> = self
                .recent_work
                .iter()
                .rev()
                .take(5)
                .map(|w| format!("{} {}", w.date, w.summary))
                .collect();
            s.push_str(&format!(". Recent work: {}", recent.join("; ")));
        }
        s.push('.');
        s
    }
}

pub fn dir(state_dir: &Path) -> PathBuf {
    state_dir.join("projects")
}

fn index_path(state_dir: &Path) -> PathBuf {
    dir(state_dir).join("index.json")
}

pub fn project_path(state_dir: &Path, name: &str) -> PathBuf {
    dir(state_dir).join(format!("{name}.json"))
}

/// A project name is a file name: letters, digits, `.`, `_`, `-`; not starting with `.`.
pub fn check_name(name: &str) -> Result<()> {
    let ok = !name.is_empty()
        && name.len() <= 64
        && !name.starts_with('.')
        && !name.starts_with('-')
        && name != "index"
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'));
    if !ok {
        bail!(
            "invalid project name {name:?}: use 1-64 letters, digits, '.', '_' or '-', not starting with '.' or '-' (and not `index`); pass --name to choose one"
        );
    }
    Ok(())
}

/// The index: name → path. Rebuilt from the project files when stale.
pub fn index(state_dir: &Path) -> Result<BTreeMap<String, String>> {
    let d = dir(state_dir);
    let dir_time = std::fs::metadata(&d).and_then(|m| m.modified()).ok();
    let Some(dir_time) = dir_time else {
        return Ok(BTreeMap::new());
    };
    let idx = index_path(state_dir);
    let fresh = std::fs::metadata(&idx)
        .and_then(|m| m.modified())
        .is_ok_and(|t| t >= dir_time);
    if fresh {
        if let Ok(bytes) = std::fs::read(&idx) {
            if let Ok(map) = serde_json::from_slice::<BTreeMap<String, String>>(&bytes) {
                return Ok(map);
            }
        }
    }
    rebuild_index(state_dir)
}

/// Scans the project files and writes the index.
pub fn rebuild_index(state_dir: &Path) -> Result<BTreeMap<String, String>> {
    let d = dir(state_dir);
    let mut map = BTreeMap::new();
    let entries = match std::fs::read_dir(&d) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(map),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", d.display())),
    };
    for e in entries.flatten() {
        let p = e.path();
        let Some(name) = p
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".json"))
        else {
            continue;
        };
        if name == "index" || check_name(name).is_err() {
            continue;
        }
        #[derive(Deserialize)]
        struct PathOnly {
            path: String,
        }
        if let Ok(bytes) = std::fs::read(&p) {
            if let Ok(po) = serde_json::from_slice::<PathOnly>(&bytes) {
                map.insert(name.to_string(), po.path);
            }
        }
    }
    // Best effort: an index that cannot be written is rebuilt next time.
    let _ = state::write_json(&index_path(state_dir), &map);
    Ok(map)
}

/// The registered project whose path contains `cwd` (the longest such path).
pub fn find_for(state_dir: &Path, cwd: &Path) -> Result<Option<String>> {
    let idx = index(state_dir)?;
    Ok(containing(&idx, &cwd.to_string_lossy()).map(str::to_string))
}

/// The name of the project of `index` (name → path) whose path is `cwd` or a folder above
/// it, the longest such path when several are.
pub fn containing<'a>(index: &'a BTreeMap<String, String>, cwd: &str) -> Option<&'a str> {
    index
        .iter()
        .filter(|(_, p)| {
            let p = p.trim_end_matches('/');
            !p.is_empty() && (cwd == p || cwd.starts_with(&format!("{p}/")))
        })
        .max_by_key(|(_, p)| p.len())
        .map(|(n, _)| n.as_str())
}

/// Loads a project by name. A corrupt file is moved aside and reported.
pub fn load(state_dir: &Path, name: &str) -> Result<Loaded<Project>> {
    state::read_json(&project_path(state_dir, name))
}

/// Appends a commit to the project's recent work (keeping the last [`RECENT_WORK`]).
pub fn record_work(state_dir: &Path, name: &str, item: WorkItem) -> Result<()> {
    let path = project_path(state_dir, name);
    let _lock = state::lock(&path)?;
    let mut p = match load(state_dir, name)? {
        Loaded::Ok(p) => p,
        Loaded::Missing => bail!("project {name} is not registered"),
        Loaded::Corrupt { kept, error } => bail!(
            "project file {} is not valid JSON ({error}); it was kept as {}",
            path.display(),
            kept.display()
        ),
    };
    p.recent_work.push(item);
    let excess = p.recent_work.len().saturating_sub(RECENT_WORK);
    p.recent_work.drain(..excess);
    state::write_json(&path, &p)
}

/// What `add-project` was asked to write.
#[derive(Debug, Clone, Default)]
pub struct Registration {
    pub name: Option<String>,
    pub path: PathBuf,
    pub description: Option<String>,
    pub stack: Option<Vec<String>>,
    pub conventions: Option<String>,
    pub test: Option<String>,
    pub force: bool,
}

/// Registers or updates a project. Updating keeps recentWork and activeTodos; a project
/// of the same name at another path is replaced only with `force`.
pub fn register(state_dir: &Path, r: &Registration) -> Result<(String, Project, bool)> {
    let path = std::path::absolute(&r.path)
        .with_context(|| format!("bad project path {}", r.path.display()))?;
    if !path.is_dir() {
        bail!("project path {} is not a folder", path.display());
    }
    let name = project_name(r, &path)?;
    check_name(&name)?;
    let file = project_path(state_dir, &name);
    let _lock = state::lock(&file)?;
    let path_s = path.to_string_lossy().to_string();
    let existing = load_for_update(state_dir, &name, &file)?;
    let same_path = |e: &&Project| e.path.trim_end_matches('/') == path_s.trim_end_matches('/');
    if let Some(e) = existing.as_ref().filter(|e| !same_path(e)) {
        if !r.force {
            bail!(
                "project {name:?} is already registered for {}; pass --force to point it at {}, or choose another --name",
                e.path,
                path_s
            );
        }
    }
    // The same folder keeps what it had; another folder (`--force`) is described afresh,
    // as a first registration would describe it.
    let kept = existing.as_ref().filter(same_path).cloned();
    let p = describe(kept, path_s, r, detect(&path));
    state::write_json(&file, &p)?;
    let _ = rebuild_index(state_dir);
    Ok((name, p, existing.is_some()))
}

/// The name a registration gives: `--name`, else the manifest's package name, else the
/// folder's name.
fn project_name(r: &Registration, path: &Path) -> Result<String> {
    if let Some(n) = &r.name {
        return Ok(n.clone());
    }
    match manifest_name(path) {
        Some(n) => Ok(n),
        None => path
            .file_name()
            .and_then(|n| n.to_str())
            .map(str::to_string)
            .context("the project path has no folder name; pass --name"),
    }
}

/// The project file about to be updated, if any; a corrupt one is kept aside (and said
/// so) and a new file is written.
fn load_for_update(state_dir: &Path, name: &str, file: &Path) -> Result<Option<Project>> {
    Ok(match load(state_dir, name)? {
        Loaded::Ok(p) => Some(p),
        Loaded::Missing => None,
        Loaded::Corrupt { kept, error } => {
            eprintln!(
                "warning: {} was not valid JSON ({error}); it was kept as {} and a new file is written",
                file.display(),
                kept.display()
            );
            None
        }
    })
}

/// The project as registered: what was `kept` of it, with what the registration says,
/// and what was `detected` where neither says anything.
fn describe(kept: Option<Project>, path: String, r: &Registration, detected: Detected) -> Project {
    let mut p = kept.unwrap_or(Project {
        path: path.clone(),
        description: String::new(),
        stack: Vec::new(),
        conventions: String::new(),
        recent_work: Vec::new(),
        active_todos: Vec::new(),
        test: None,
        extra: Map::new(),
    });
    p.path = path;
    if let Some(d) = &r.description {
        p.description = d.clone();
    }
    match &r.stack {
        Some(s) => p.stack = s.clone(),
        None if p.stack.is_empty() => p.stack = detected.stack,
        None => {}
    }
    match &r.conventions {
        Some(c) => p.conventions = c.clone(),
        None if p.conventions.is_empty() => {
            p.conventions = detected.conventions.unwrap_or_default()
        }
        None => {}
    }
    match &r.test {
        Some(t) if t.trim().is_empty() => p.test = None,
        Some(t) => p.test = Some(t.clone()),
        None if p.test.is_none() => p.test = detected.test,
        None => {}
    }
    p
}

/// The package name a project's manifest gives (`Cargo.toml`, `package.json`,
/// `pyproject.toml`, `go.mod`), when it makes a valid project name.
pub fn manifest_name(root: &Path) -> Option<String> {
    let read = |f: &str| std::fs::read_to_string(root.join(f)).ok();
    let toml_name = |text: String, tables: &[&[&str]]| -> Option<String> {
        let v: toml::Value = toml::from_str(&text).ok()?;
        tables.iter().find_map(|path| {
            let mut t = &v;
            for k in *path {
                t = t.get(k)?;
            }
            t.as_str().map(str::to_string)
        })
    };
    let candidates = [
        read("Cargo.toml").and_then(|t| toml_name(t, &[&["package", "name"]])),
        read("package.json")
            .and_then(|t| serde_json::from_str::<Value>(&t).ok())
            .and_then(|v| v.get("name")?.as_str().map(str::to_string))
            .map(|n| n.rsplit('/').next().unwrap_or(&n).to_string()),
        read("pyproject.toml")
            .and_then(|t| toml_name(t, &[&["project", "name"], &["tool", "poetry", "name"]])),
        read("go.mod").and_then(|t| {
            let module = t.lines().find_map(|l| l.trim().strip_prefix("module "))?;
            module.trim().rsplit('/').next().map(str::to_string)
        }),
    ];
    candidates
        .into_iter()
        .flatten()
        .find(|n| check_name(n).is_ok())
}

/// What can be told from a project's files.
#[derive(Debug, Default)]
pub struct Detected {
    pub stack: Vec<String>,
    pub test: Option<String>,
    pub conventions: Option<String>,
}

/// Detects the stack, test command and conventions from the files in `root`. Stacks are
/// listed in [`STACKS`] order; the first stack with a test command gives the test command,
/// else a Makefile's `test:` target.
pub fn detect(root: &Path) -> Detected {
    let mut d = Detected::default();
    for sign in STACKS {
        if sign.markers.iter().any(|f| has(root, f)) {
            let (name, test) = (sign.read)(root);
            d.stack.push(name.into());
            if let Some(t) = test {
                d.test.get_or_insert(t.into());
            }
        }
    }
    if d.test.is_none() && makefile_has_test(root) {
        d.test = Some("make test".into());
    }
    d.conventions = CONVENTIONS
        .iter()
        .find(|c| has(root, c))
        .map(|c| format!("See {c}"));
    d
}

fn has(root: &Path, file: &str) -> bool {
    root.join(file).exists()
}

/// A stack a project's files show: any of its `markers` is there; `read` tells what the
/// stack is called and how its tests run (when that can be told).
struct StackSign {
    markers: &'static [&'static str],
    read: fn(&Path) -> (&'static str, Option<&'static str>),
}

/// The stacks told from a project's files, in the order they are listed.
const STACKS: &[StackSign] = &[
    StackSign {
        markers: &["Cargo.toml"],
        read: |_| ("rust", Some("cargo test")),
    },
    StackSign {
        markers: &["package.json"],
        read: node,
    },
    StackSign {
        markers: &["pyproject.toml", "setup.py", "requirements.txt"],
        read: python,
    },
    StackSign {
        markers: &["go.mod"],
        read: |_| ("go", Some("go test ./...")),
    },
    StackSign {
        markers: &["pom.xml"],
        read: |_| ("java", Some("mvn test")),
    },
    StackSign {
        markers: &["build.gradle", "build.gradle.kts"],
        read: |root| {
            let test = if has(root, "gradlew") {
                "./gradlew test"
            } else {
                "gradle test"
            };
            ("gradle", Some(test))
        },
    },
    StackSign {
        markers: &["Gemfile"],
        read: |_| ("ruby", None),
    },
    StackSign {
        markers: &["composer.json"],
        read: |_| ("php", None),
    },
    StackSign {
        markers: &["mix.exs"],
        read: |_| ("elixir", Some("mix test")),
    },
];

/// Where a project's conventions are written, the first found is named.
const CONVENTIONS: &[&str] = &[
    "CONTRIBUTING.md",
    "docs/CONTRIBUTING.md",
    ".github/CONTRIBUTING.md",
];

/// A `package.json` project: TypeScript with a `tsconfig.json`; its tests run with the
/// package manager its lock file shows, when `scripts.test` is a real one.
fn node(root: &Path) -> (&'static str, Option<&'static str>) {
    let name = if has(root, "tsconfig.json") {
        "typescript"
    } else {
        "javascript"
    };
    let pkg: Option<Value> = std::fs::read(root.join("package.json"))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok());
    let has_test = pkg
        .as_ref()
        .and_then(|v| v.get("scripts")?.get("test")?.as_str().map(str::to_string))
        .is_some_and(|t| !t.contains("no test specified"));
    if !has_test {
        return (name, None);
    }
    let runner = if has(root, "pnpm-lock.yaml") {
        "pnpm test"
    } else if has(root, "yarn.lock") {
        "yarn test"
    } else {
        "npm test"
    };
    (name, Some(runner))
}

/// A Python project runs pytest when it has pytest's files or a `pyproject.toml`.
fn python(root: &Path) -> (&'static str, Option<&'static str>) {
    let pytest = ["pytest.ini", "tests", "conftest.py", "pyproject.toml"]
        .iter()
        .any(|f| has(root, f));
    ("python", pytest.then_some("pytest"))
}

/// Whether the Makefile has a `test:` target.
fn makefile_has_test(root: &Path) -> bool {
    std::fs::read_to_string(root.join("Makefile"))
        .is_ok_and(|mk| mk.lines().any(|l| l.starts_with("test:")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        for ok in ["app", "my-app", "a.b_c", "A1"] {
            assert!(check_name(ok).is_ok(), "{ok}");
        }
        for bad in [
            "", ".", "..", "../x", "a/b", ".hidden", "-x", "index", "a b", "é",
        ] {
            assert!(check_name(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn register_find_update() {
        let state = tempfile::tempdir().expect("tempdir");
        let proj = tempfile::tempdir().expect("tempdir");
        std::fs::write(proj.path().join("Cargo.toml"), "[package]").expect("write");
        std::fs::write(proj.path().join("CONTRIBUTING.md"), "rules").expect("write");
        let r = Registration {
            path: proj.path().to_path_buf(),
            name: Some("demo".into()),
            ..Registration::default()
        };
        let (name, p, updated) = register(state.path(), &r).expect("register");
        assert_eq!((name.as_str(), updated), ("demo", false));
        assert_eq!(p.test.as_deref(), Some("cargo test"));
        assert_eq!(p.stack, vec!["rust".to_string()]);
        assert_eq!(p.conventions, "See CONTRIBUTING.md");
        let sub = proj.path().join("src");
        assert_eq!(
            find_for(state.path(), &sub).expect("find"),
            Some("demo".into())
        );
        record_work(
            state.path(),
            "demo",
            WorkItem {
                date: "2026-01-01".into(),
                summary: "x".into(),
            },
        )
        .expect("record");
        let r2 = Registration {
            description: Some("new".into()),
            ..r.clone()
        };
        let (_, p2, updated) = register(state.path(), &r2).expect("update");
        assert!(updated);
        assert_eq!(p2.recent_work.len(), 1, "update keeps recentWork");
        let other = tempfile::tempdir().expect("tempdir");
        let r3 = Registration {
            path: other.path().to_path_buf(),
            ..r.clone()
        };
        assert!(
            register(state.path(), &r3).is_err(),
            "another path needs --force"
        );
        assert!(register(state.path(), &Registration { force: true, ..r3 }).is_ok());
    }
}
