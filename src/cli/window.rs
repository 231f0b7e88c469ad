//! The part of the audit log `report` and `suggest` read: from `--since` on, with the
//! outcome of each ask, the project of each entry, and the filters.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use anyhow::{bail, Result};

use super::usage;
use chrono::{DateTime, NaiveDate, SecondsFormat, Utc};

use crate::hook::audit;
use crate::hook::report::{self, Decided};
use crate::workflow::projects;

/// The start of `--since`: `7d` (the last 7 days: today and the 6 before, from midnight
/// UTC), `12h` (hours back from now), or a day `2026-12-01` (from its midnight, UTC). An
/// RFC 3339 time.
pub fn parse_since(text: &str, now: DateTime<Utc>) -> Result<String> {
    let wrong = |why: &str| -> Result<String> {
        Err(usage(format!("--since {text:?}: {why}; give a number of days (`7d`), of hours (`12h`) or a day (`2026-12-01`)")))
    };
    let t = text.trim();
    if let Ok(day) = NaiveDate::parse_from_str(t, "%Y-%m-%d") {
        return Ok(format!("{}T00:00:00.000Z", day.format("%Y-%m-%d")));
    }
    let (number, unit) = t.split_at(t.len().saturating_sub(1));
    let hours_per = match unit {
        "d" => 24,
        "h" => 1,
        _ if t.contains('-') => return wrong("not a day of the form YYYY-MM-DD"),
        _ => return wrong("not a duration or a day"),
    };
    let n: i64 = match number.parse() {
        Ok(n) if n >= 1 => n,
        Ok(_) => return wrong("the duration must be at least 1"),
        Err(_) => return wrong("the number before the unit is not a whole number"),
    };
    if unit == "d" {
        // N dates, today the last.
        let Some(day) =
            chrono::TimeDelta::try_days(n - 1).and_then(|d| now.date_naive().checked_sub_signed(d))
        else {
            return wrong("the duration is too long");
        };
        return Ok(format!("{}T00:00:00.000Z", day.format("%Y-%m-%d")));
    }
    let Some(start) = n
        .checked_mul(hours_per)
        .and_then(chrono::TimeDelta::try_hours)
        .and_then(|d| now.checked_sub_signed(d))
    else {
        return wrong("the duration is too long");
    };
    Ok(start.to_rfc3339_opts(SecondsFormat::Millis, true))
}

/// Which entries to keep.
#[derive(Debug, Default)]
pub struct Filters {
    pub project: Option<String>,
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
    if let Some(given) = &f.session {
        let s = super::session_id::resolve(state_dir, given)?;
        decided.retain(|d| d.entry.session == s);
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
            let registered = self
                .index
                .iter()
                .filter(|(_, p)| {
                    let p = p.trim_end_matches('/');
                    !p.is_empty() && (cwd == p || cwd.starts_with(&format!("{p}/")))
                })
                .max_by_key(|(_, p)| p.len())
                .map(|(n, _)| n.clone());
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn since() {
        let now = DateTime::parse_from_rfc3339("2026-12-08T12:00:00Z")
            .expect("time")
            .with_timezone(&Utc);
        let ok = [
            // The last 7 days are 7 dates: the 2nd to the 8th.
            ("7d", "2026-12-02T00:00:00.000Z"),
            ("1d", "2026-12-08T00:00:00.000Z"),
            ("12h", "2026-12-08T00:00:00.000Z"),
            ("2026-11-30", "2026-11-30T00:00:00.000Z"),
        ];
        for (text, want) in ok {
            assert_eq!(parse_since(text, now).expect(text), want);
        }
        for bad in [
            "",
            "7",
            "0d",
            "-3d",
            "7w",
            "2026-13-01",
            "x d",
            "99999999999999d",
        ] {
            let e = parse_since(bad, now).expect_err(bad).to_string();
            assert!(e.contains("give a number of days"), "{bad}: {e}");
        }
    }
}
