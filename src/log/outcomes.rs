//! What became of the calls the hook asked about, and how long the audit log is kept.
//!
//! An `ask` entry's outcome is known only later. The user approved the call when it ran:
//! Claude Code then sends its `PostToolUse` (or `PostToolUseFailure`) with the same
//! `tool_use_id`. They refused it, or never answered, when the session's next prompt (or
//! its end) comes first. Old log lines are never rewritten: the hook appends *mark* lines
//! to the day's log, `{"time", "session", "mark": "approved", "tool_use_id"}` for a call
//! that ran and `prompt`, `start`, `stop` or `end` for a turn that ended with asks
//! unanswered, and reports pair them with the asks (see `report`).
//!
//! The hot path stays cheap: an ask leaves an empty file
//! `<state>/audit-asks/<session>/<tool_use_id>`. A tool result removes it (one `unlink`,
//! which fails at once for a call that was not asked) and appends `approved` only when it
//! was there; a prompt removes the session's folder and appends one mark when it held any.
//!
//! Retention: at most once a day (when the stamp file `<state>/audit-swept` is older than
//! a day) the hook removes the daily files older than the user's
//! `[workflow] log_retention_days` (30 unless set; 0 keeps every file) and the markers of
//! asks no event has touched for a day.

use std::fs::{self, OpenOptions};
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use anyhow::{Context, Result};

use super::audit;
pub use super::audit::{is_mark, Mark, APPROVED};
use crate::workflow::state::session_key;

/// A day, for the retention sweep and the markers of unanswered asks.
const DAY: Duration = Duration::from_secs(24 * 60 * 60);

/// The folder of the markers of asks not yet answered.
pub fn asks_dir(state_dir: &Path) -> PathBuf {
    state_dir.join("audit-asks")
}

fn marker(state_dir: &Path, session: &str, tool_use_id: &str) -> PathBuf {
    asks_dir(state_dir)
        .join(session_key(session))
        .join(session_key(tool_use_id))
}

fn append(state_dir: &Path, mark: &Mark) -> Result<()> {
    let line = serde_json::to_vec(mark).context("cannot serialise an outcome line")?;
    audit::append_line(state_dir, &mark.time, line)
}

/// Leaves the marker of a call that was asked about. Without a session or a call id the
/// outcome cannot be told, and nothing is left.
pub fn asked(state_dir: &Path, session: &str, tool_use_id: &str) -> Result<()> {
    if session.is_empty() || tool_use_id.is_empty() {
        return Ok(());
    }
    let path = marker(state_dir, session, tool_use_id);
    let dir = path.parent().unwrap_or(state_dir);
    let mut tries = 0;
    loop {
        fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let made = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path);
        match made {
            Ok(_) => return Ok(()),
            // A prompt of the session removed the folder in between: make it again.
            Err(e) if e.kind() == ErrorKind::NotFound && tries == 0 => tries += 1,
            Err(e) => return Err(e).with_context(|| format!("cannot create {}", path.display())),
        }
    }
}

/// The fields of a Claude Code event that say what became of earlier asks.
#[derive(Debug, Clone, Copy)]
pub struct Seen<'a> {
    /// The event's name (`PostToolUse`, `UserPromptSubmit` …).
    pub event: &'a str,
    pub session: &'a str,
    /// Its `source` (`user`, `startup` …), when it has one.
    pub source: Option<&'a str>,
    /// Its `tool_use_id`, when it has one.
    pub tool_use_id: Option<&'a str>,
}

/// Records what a non-gate event says about earlier asks.
pub fn record(state_dir: &Path, seen: &Seen, now: &str) -> Result<()> {
    let source = seen.source;
    let ended = match seen.event {
        "PostToolUse" | "PostToolUseFailure" => return ran(state_dir, seen, now),
        "UserPromptSubmit" if matches!(source, None | Some("user")) => "prompt",
        "SessionStart" if source != Some("startup") => "start",
        "Stop" => "stop",
        "SessionEnd" => "end",
        _ => return Ok(()),
    };
    turn_ended(state_dir, seen.session, ended, now)
}

/// A call ran: if it was asked about, it was approved.
fn ran(state_dir: &Path, seen: &Seen, now: &str) -> Result<()> {
    let Some(id) = seen.tool_use_id.filter(|i| !i.is_empty()) else {
        return Ok(());
    };
    if seen.session.is_empty() {
        return Ok(());
    }
    let path = marker(state_dir, seen.session, id);
    match fs::remove_file(&path) {
        Ok(()) => append(
            state_dir,
            &Mark {
                time: now.to_string(),
                session: seen.session.to_string(),
                mark: APPROVED.into(),
                tool_use_id: Some(id.to_string()),
            },
        ),
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => Ok(()),
        Err(e) => Err(e).with_context(|| format!("cannot remove {}", path.display())),
    }
}

/// A session's turn ended: its asks still open were refused or not answered.
fn turn_ended(state_dir: &Path, session: &str, mark: &str, now: &str) -> Result<()> {
    if session.is_empty() {
        return Ok(());
    }
    let dir = asks_dir(state_dir).join(session_key(session));
    let open = match fs::read_dir(&dir) {
        Ok(mut entries) => entries.next().is_some(),
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => false,
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", dir.display())),
    };
    if !open {
        return Ok(());
    }
    // The mark first: if it cannot be written the markers stay, for the next prompt.
    append(
        state_dir,
        &Mark {
            time: now.to_string(),
            session: session.to_string(),
            mark: mark.to_string(),
            tool_use_id: None,
        },
    )?;
    match fs::remove_dir_all(&dir) {
        Err(e) if e.kind() != ErrorKind::NotFound => {
            Err(e).with_context(|| format!("cannot remove {}", dir.display()))
        }
        _ => Ok(()),
    }
}

/// The stamp whose age says when the log was last swept.
pub fn sweep_stamp(state_dir: &Path) -> PathBuf {
    state_dir.join("audit-swept")
}

/// Removes the daily files older than `retention_days` before `today` (none when 0) and
/// the markers of asks untouched for a day, unless that was done less than a day ago.
/// Returns whether it swept.
pub fn sweep_if_due(
    state_dir: &Path,
    retention_days: u32,
    today: chrono::NaiveDate,
) -> Result<bool> {
    let stamp = sweep_stamp(state_dir);
    let now = SystemTime::now();
    let fresh = fs::metadata(&stamp)
        .and_then(|m| m.modified())
        .is_ok_and(|t| now.duration_since(t).is_ok_and(|age| age < DAY) || t > now);
    if fresh || !state_dir.is_dir() {
        return Ok(false);
    }
    // The stamp first, so that hooks running at once do not all sweep.
    fs::write(&stamp, b"").with_context(|| format!("cannot write {}", stamp.display()))?;
    if retention_days > 0 {
        let cutoff = today - chrono::Days::new(u64::from(retention_days));
        let cutoff = format!("{}.jsonl", cutoff.format("%Y-%m-%d"));
        for path in audit::files(state_dir) {
            let old = path
                .file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n < cutoff.as_str());
            if old {
                remove(&path, |p| fs::remove_file(p))?;
            }
        }
    }
    for entry in fs::read_dir(asks_dir(state_dir)).into_iter().flatten() {
        let Ok(entry) = entry else { continue };
        let stale = entry
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|t| now.duration_since(t).is_ok_and(|age| age >= DAY));
        if stale {
            remove(&entry.path(), |p| fs::remove_dir_all(p))?;
        }
    }
    Ok(true)
}

fn remove(path: &Path, how: fn(&Path) -> std::io::Result<()>) -> Result<()> {
    match how(path) {
        Err(e) if e.kind() != ErrorKind::NotFound => {
            Err(e).with_context(|| format!("cannot remove {}", path.display()))
        }
        _ => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use serde_json::Value;

    /// The event `name` of session `s` with the fields `extra`, as the hook reads it.
    fn event<'a>(name: &'a str, extra: &'a Value) -> Seen<'a> {
        Seen {
            event: name,
            session: "s",
            source: extra.get("source").and_then(Value::as_str),
            tool_use_id: extra.get("tool_use_id").and_then(Value::as_str),
        }
    }

    fn lines(state: &Path) -> Vec<String> {
        audit::files(state)
            .iter()
            .flat_map(|f| {
                fs::read_to_string(f)
                    .expect("read")
                    .lines()
                    .map(str::to_string)
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    #[test]
    fn a_call_that_ran_after_an_ask_is_approved_once() {
        let dir = tempfile::tempdir().expect("tempdir");
        let state = dir.path();
        let now = "2026-12-01T10:00:00.000Z";
        let fields =
            serde_json::json!({"tool_name": "Bash", "tool_input": {}, "tool_use_id": "t1"});
        let post = event("PostToolUse", &fields);
        record(state, &post, now).expect("not asked");
        assert!(lines(state).is_empty());
        asked(state, "s", "t1").expect("asked");
        record(state, &post, now).expect("ran");
        record(state, &post, now).expect("ran again");
        let got = lines(state);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(is_mark(got[0].as_bytes()));
        let m: Mark = serde_json::from_str(&got[0]).expect("mark");
        assert_eq!(
            (m.mark.as_str(), m.tool_use_id.as_deref()),
            (APPROVED, Some("t1"))
        );
    }

    #[test]
    fn a_prompt_marks_the_turn_only_when_asks_are_open() {
        let dir = tempfile::tempdir().expect("tempdir");
        let state = dir.path();
        let now = "2026-12-01T10:00:00.000Z";
        let fields = serde_json::json!({"prompt": "hi"});
        let prompt = event("UserPromptSubmit", &fields);
        record(state, &prompt, now).expect("nothing open");
        assert!(lines(state).is_empty());
        asked(state, "s", "t2").expect("asked");
        record(state, &prompt, now).expect("prompt");
        record(state, &prompt, now).expect("prompt again");
        let got = lines(state);
        assert_eq!(got.len(), 1, "{got:?}");
        assert!(got[0].contains("\"mark\":\"prompt\""), "{got:?}");
        assert!(!asks_dir(state).join("s").exists());
    }

    #[test]
    fn the_sweep_removes_old_days_at_most_once_a_day() {
        let dir = tempfile::tempdir().expect("tempdir");
        let state = dir.path();
        let audit = audit::audit_dir(state);
        fs::create_dir_all(&audit).expect("mkdir");
        for d in ["2026-10-31", "2026-11-01", "2026-12-01"] {
            fs::write(audit.join(format!("{d}.jsonl")), b"").expect("file");
        }
        let today = chrono::NaiveDate::from_ymd_opt(2026, 12, 1).expect("date");
        assert!(sweep_if_due(state, 30, today).expect("sweep"));
        let names: Vec<_> = audit::files(state)
            .iter()
            .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().to_string()))
            .collect();
        assert_eq!(names, ["2026-11-01.jsonl", "2026-12-01.jsonl"]);
        fs::write(audit.join("2020-01-01.jsonl"), b"").expect("file");
        assert!(!sweep_if_due(state, 30, today).expect("not due"));
        assert!(audit.join("2020-01-01.jsonl").exists());
        // A retention of 0 keeps every file.
        fs::remove_file(sweep_stamp(state)).expect("stamp");
        assert!(sweep_if_due(state, 0, today).expect("sweep"));
        assert!(audit.join("2020-01-01.jsonl").exists());
    }

    #[test]
    fn what_ends_a_turn() {
        let cases = [
            ("UserPromptSubmit", serde_json::json!({"prompt": "x"}), true),
            (
                "UserPromptSubmit",
                serde_json::json!({"prompt": "x", "source": "user"}),
                true,
            ),
            (
                "UserPromptSubmit",
                serde_json::json!({"prompt": "x", "source": "system"}),
                false,
            ),
            (
                "SessionStart",
                serde_json::json!({"source": "resume"}),
                true,
            ),
            (
                "SessionStart",
                serde_json::json!({"source": "startup"}),
                false,
            ),
            ("Stop", serde_json::json!({}), true),
            ("SessionEnd", serde_json::json!({"reason": "other"}), true),
            ("SubagentStop", serde_json::json!({"agent_id": "a"}), false),
        ];
        for (name, extra, ends) in cases {
            let dir = tempfile::tempdir().expect("tempdir");
            asked(dir.path(), "s", "t").expect("asked");
            record(dir.path(), &event(name, &extra), "2026-12-01T10:00:00.000Z").expect("record");
            assert_eq!(lines(dir.path()).len(), usize::from(ends), "{name} {extra}");
        }
    }
}
