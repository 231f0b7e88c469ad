//! Which session a `--session` argument names, and the sessions the hook has seen.
//!
//! Every command that takes `--session` resolves it here, the same way: the full id, or a
//! prefix that only one known session has (the `log` table shows ids cut short). A session
//! is known when the hook keeps a state file for it (a workflow prompt) or the audit log
//! names it (a tool call it decided). An unknown id, or a prefix several sessions share, is
//! an error that lists what it could have meant.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{bail, Result};
use serde::Deserialize;

use crate::log::audit;
use crate::workflow::state;

/// A session the hook has seen.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seen {
    pub id: String,
    /// When the hook last saw it (RFC 3339, UTC).
    pub last: String,
    /// How many tool calls of it the audit log holds.
    pub calls: usize,
    /// Whether the hook keeps a workflow state file for it.
    pub workflow: bool,
}

/// The part of a log line this module reads.
#[derive(Deserialize)]
struct Line {
    #[serde(default)]
    time: String,
    #[serde(default)]
    session: String,
    #[serde(default)]
    decision: Option<String>,
}

/// Every session the hook has seen, the most recently seen first.
pub fn seen(state_dir: &Path) -> Vec<Seen> {
    let mut by_id: BTreeMap<String, Seen> = BTreeMap::new();
    for s in state::recent_sessions(state_dir, usize::MAX) {
        let last = std::fs::metadata(state::session_path(state_dir, &s.session))
            .and_then(|m| m.modified())
            .map(|t| {
                chrono::DateTime::<chrono::Utc>::from(t)
                    .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
            })
            .unwrap_or_default();
        by_id.insert(
            s.session.clone(),
            Seen {
                id: s.session,
                last,
                calls: 0,
                workflow: true,
            },
        );
    }
    for f in audit::files(state_dir) {
        let Ok(bytes) = audit::file_lines(&f) else {
            continue;
        };
        for line in audit::split_lines(&bytes) {
            let Ok(l) = serde_json::from_slice::<Line>(line) else {
                continue;
            };
            if l.session.is_empty() {
                continue;
            }
            let s = by_id.entry(l.session.clone()).or_insert_with(|| Seen {
                id: l.session,
                last: String::new(),
                calls: 0,
                workflow: false,
            });
            if l.decision.is_some() {
                s.calls += 1;
            }
            if l.time > s.last {
                s.last = l.time;
            }
        }
    }
    let mut v: Vec<Seen> = by_id.into_values().collect();
    v.sort_by(|a, b| b.last.cmp(&a.last).then_with(|| a.id.cmp(&b.id)));
    v
}

/// The full id of the session `given` names: its id, or a prefix of one known session's.
pub fn resolve(state_dir: &Path, given: &str) -> Result<String> {
    if !given.is_empty()
        && (state::session_path(state_dir, given).is_file()
            || audit::mentions_session(state_dir, given))
    {
        return Ok(given.to_string());
    }
    let all = seen(state_dir);
    let matches: Vec<&Seen> = all
        .iter()
        .filter(|s| !given.is_empty() && s.id.starts_with(given))
        .collect();
    match matches.as_slice() {
        [one] => Ok(one.id.clone()),
        [] => bail!(
            "no session {given:?} is known (the hook has seen no prompt or tool call of it); `programmer-hook status --all` lists the recent ones"
        ),
        several => bail!(
            "--session {given:?} could be any of {} sessions; give more of its id:\n{}",
            several.len(),
            listing(several.iter().copied())
        ),
    }
}

/// Sessions as lines of a message: id, when last seen, calls, whether in a workflow.
pub fn listing<'a>(sessions: impl IntoIterator<Item = &'a Seen>) -> String {
    sessions
        .into_iter()
        .map(|s| {
            format!(
                "  {}  last seen {}, {} call{}{}",
                s.id,
                s.last.get(..19).unwrap_or(&s.last).replace('T', " "),
                s.calls,
                if s.calls == 1 { "" } else { "s" },
                if s.workflow { ", workflow" } else { "" }
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log(dir: &Path, lines: &[(&str, &str)]) {
        let audit = audit::audit_dir(dir);
        std::fs::create_dir_all(&audit).expect("mkdir");
        let text: String = lines
            .iter()
            .map(|(time, session)| {
                format!(
                    "{{\"time\":\"{time}\",\"session\":\"{session}\",\"decision\":\"allow\"}}\n"
                )
            })
            .collect();
        std::fs::write(audit.join("2026-12-01.jsonl"), text).expect("write");
    }

    #[test]
    fn a_unique_prefix_names_its_session_and_a_shared_one_lists_the_matches() {
        let dir = tempfile::tempdir().expect("tempdir");
        log(
            dir.path(),
            &[
                ("2026-12-01T10:00:00.000Z", "abcdef-1111"),
                ("2026-12-01T11:00:00.000Z", "abcdef-2222"),
                ("2026-12-01T12:00:00.000Z", "xyz-3333"),
            ],
        );
        let d = dir.path();
        assert_eq!(resolve(d, "xyz-3333").expect("exact"), "xyz-3333");
        assert_eq!(resolve(d, "xyz").expect("prefix"), "xyz-3333");
        assert_eq!(resolve(d, "abcdef-1").expect("prefix"), "abcdef-1111");
        let e = format!("{:#}", resolve(d, "abcdef").expect_err("ambiguous"));
        assert!(
            e.contains("abcdef-1111") && e.contains("abcdef-2222"),
            "{e}"
        );
        assert!(!e.contains("xyz-3333"), "{e}");
        let e = format!("{:#}", resolve(d, "nope").expect_err("unknown"));
        assert!(e.contains("no session \"nope\""), "{e}");
        assert!(resolve(d, "").is_err());
        let ids: Vec<String> = seen(d).into_iter().map(|s| s.id).collect();
        assert_eq!(ids, ["xyz-3333", "abcdef-2222", "abcdef-1111"]);
    }
}
