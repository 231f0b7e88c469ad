//! The part of the audit log `report` and `suggest` read: from a start on, with the
//! outcome of each ask, the project of each entry, and the filters.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use anyhow::{bail, Result};

use super::audit;
use super::report::{self, Decided};
use crate::workflow::projects;

/// Which entries to keep.
#[derive(Debug, Default)]
pub struct Filters {
    pub project: Option<String>,
    /// A session's full id (the CLI resolves what the user gave).
    pub session: Option<String>,
}

/// The decisions from `since` on (every one when empty) that pass the filters, each with
/// its outcome; and how many log lines could not be read.
pub fn load(state_dir: &Path, since: &str, f: &Filters) -> Result<(Vec<Decided>, usize)> {
    let day = since.get(..10).unwrap_or("");
    let files: Vec<_> = audit::files(state_dir)
        .into_iter()
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.get(..10).unwrap_or("") >= day)
        })
        .collect();
    let (mut decided, bad) = report::read_decided(&files, since)?;
    if let Some(s) = &f.session {
        decided.retain(|d| &d.entry.session == s);
    }
    if let Some(name) = &f.project {
        let mut projects = Projects::new(state_dir);
        decided.retain(|d| projects.of(d.entry.cwd.as_deref()) == name);
        if decided.is_empty() && !projects.index.contains_key(name) {
            let known: Vec<&str> = projects.index.keys().map(String::as_str).collect();
            bail!(
                "--project {name:?}: no such project in the log or among the registered ones{}",
                if known.is_empty() {
                    String::new()
                } else {
                    format!(" (registered: {})", known.join(", "))
                }
            );
        }
    }
    Ok((decided, bad))
}

/// The project of a folder: the registered project it is in, else the folder's name.
pub struct Projects {
    index: BTreeMap<String, String>,
    seen: HashMap<String, String>,
}

impl Projects {
    pub fn new(state_dir: &Path) -> Projects {
        Projects {
            index: projects::index(state_dir).unwrap_or_default(),
            seen: HashMap::new(),
        }
    }

    pub fn of(&mut self, cwd: Option<&str>) -> &str {
        let cwd = cwd.unwrap_or("");
        if !self.seen.contains_key(cwd) {
            let registered = projects::containing(&self.index, cwd).map(str::to_string);
            let name = registered.unwrap_or_else(|| {
                Path::new(cwd)
                    .file_name()
                    .map(|n| n.to_string_lossy().to_string())
                    .unwrap_or_default()
            });
            self.seen.insert(cwd.to_string(), name);
        }
        self.seen.get(cwd).map(String::as_str).unwrap_or("")
    }
}
