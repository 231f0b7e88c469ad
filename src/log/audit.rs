//! The audit log: one JSON line per decision, in `<state>/audit/YYYY-MM-DD.jsonl`.
//!
//! Appends are single `write` calls of one line on a file opened for appending, so lines
//! from concurrent hooks do not interleave. The command text is cut to a few hundred
//! characters and credentials (tokens, passwords, `Authorization` headers, private keys:
//! see `redact`) are replaced by `***`. Writing the log is best effort: a log that cannot be written never
//! changes a decision. The same files hold the outcome lines of asks (see `outcomes`),
//! which readers of decisions skip.

use std::fs::{self, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

/// How much of a command a log line keeps.
const MAX_SUBJECT: usize = 300;

/// One logged decision.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Entry {
    pub time: String,
    #[serde(default)]
    pub session: String,
    #[serde(default)]
    pub agent: String,
    #[serde(default)]
    pub event: String,
    #[serde(default)]
    pub tool: String,
    pub decision: String,
    #[serde(default)]
    pub tier: String,
    #[serde(default)]
    pub rule: String,
    /// Whether the decision was a relaxable Confirm (one autonomy `auto` may let run).
    #[serde(default)]
    pub relaxable: bool,
    /// Whether the decision was a contained Confirm (project code the hook cannot read,
    /// which `auto` lets run inside Claude Code's sandbox).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub contained: bool,
    /// What the deciding Confirm rule says the call does (`git-recoverable`,
    /// `discard-work` …): the effect that made it relaxable or not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub effect: Option<String>,
    /// What let a Confirm call run without asking (`autonomy`); the tier stays Confirm.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relaxed_by: Option<String>,
    #[serde(default)]
    pub subject: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    /// The folder the call was made in (reports find its project from it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cwd: Option<String>,
    /// Claude Code's id of the call, which the call's `PostToolUse` carries too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_use_id: Option<String>,
    /// Microseconds from reading the event to the decision.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub took_us: Option<u64>,
    /// Why a call was blocked because it could not be checked (exit status 2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blocked: Option<String>,
    /// The confinement profile an allowed Bash call was run in (`read`, `project`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confined: Option<String>,
}

/// A mark: an asked call ran, or a session's turn ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mark {
    pub time: String,
    #[serde(default)]
    pub session: String,
    /// [`APPROVED`], or what ended the turn: `prompt`, `start`, `stop`, `end`.
    pub mark: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool_use_id: Option<String>,
}

/// The mark of an asked call that ran.
pub const APPROVED: &str = "approved";

/// Whether a log line is a mark.
pub fn is_mark(line: &[u8]) -> bool {
    serde_json::from_slice::<Mark>(line).is_ok()
}

pub fn audit_dir(state_dir: &Path) -> PathBuf {
    state_dir.join("audit")
}

/// Appends an entry to today's file.
pub fn append(state_dir: &Path, entry: &Entry) -> Result<()> {
    let line = serde_json::to_vec(entry).context("cannot serialise audit entry")?;
    append_line(state_dir, &entry.time, line)
}

/// Appends one JSON line to the file of the day `time` starts with, in one `write`.
pub fn append_line(state_dir: &Path, time: &str, mut line: Vec<u8>) -> Result<()> {
    let dir = audit_dir(state_dir);
    let day = time.get(..10).unwrap_or("unknown");
    let path = dir.join(format!("{day}.jsonl"));
    line.push(b'\n');
    let open = || OpenOptions::new().create(true).append(true).open(&path);
    // The folder is there on all but the first call: make it only when the open says so
    // (two system calls fewer on every call).
    let opened = match open() {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
            open()
        }
        other => other,
    };
    let mut f = opened.with_context(|| format!("cannot open {}", path.display()))?;
    f.write_all(&line)
        .with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// The text of a tool call as logged: cut short, secrets hidden.
pub fn subject(text: &str) -> String {
    // Only the start is kept: redact a window a little longer than what is kept (so a
    // secret cut at the edge is still seen whole), not the whole text.
    let window: String = text.chars().take(MAX_SUBJECT * 2).collect();
    let redacted = redact(&window);
    if redacted.chars().count() <= MAX_SUBJECT {
        return redacted;
    }
    let mut s: String = redacted.chars().take(MAX_SUBJECT).collect();
    s.push('…');
    s
}

/// Hides credentials (see `redact`).
pub fn redact(text: &str) -> String {
    super::redact::redact(text)
}

/// Filters for reading the log.
#[derive(Debug, Default, Clone)]
pub struct Filter {
    pub decision: Option<String>,
    pub session: Option<String>,
    pub tool: Option<String>,
    pub rule: Option<String>,
    pub agent: Option<String>,
    pub contains: Option<String>,
}

impl Filter {
    fn keeps(&self, e: &Entry) -> bool {
        // Names match without regard to case (`--tool write` is Write); the session id,
        // an opaque token, exactly.
        let eq = |want: &Option<String>, have: &str| {
            want.as_deref().is_none_or(|w| w.eq_ignore_ascii_case(have))
        };
        eq(&self.decision, &e.decision)
            && self.session.as_deref().is_none_or(|s| s == e.session)
            && eq(&self.tool, &e.tool)
            && self.rule.as_deref().is_none_or(|r| {
                e.rule.len() >= r.len() && e.rule[..r.len()].eq_ignore_ascii_case(r)
            })
            && eq(&self.agent, &e.agent)
            && self
                .contains
                .as_deref()
                .is_none_or(|c| e.subject.contains(c))
    }
}

/// Whether some entry of the log names session `id` (newest days first; for the CLI,
/// never on the hook's path).
pub fn mentions_session(state_dir: &Path, id: &str) -> bool {
    let Ok(needle) = serde_json::to_string(id) else {
        return false;
    };
    let needle = format!("\"session\":{needle}");
    files(state_dir)
        .iter()
        .rev()
        .any(|f| fs::read_to_string(f).is_ok_and(|text| text.contains(&needle)))
}

/// The log files, oldest first (only those named `YYYY-MM-DD.jsonl`).
pub fn files(state_dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(audit_dir(state_dir))
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.len() == 16 && n.ends_with(".jsonl"))
        })
        .collect();
    v.sort();
    v
}

/// The lines of a log file (read at once: a day is a few megabytes at most).
pub fn file_lines(path: &Path) -> Result<Vec<u8>> {
    fs::read(path).with_context(|| format!("cannot read {}", path.display()))
}

/// The non-empty lines of a file's bytes.
pub fn split_lines(bytes: &[u8]) -> impl Iterator<Item = &[u8]> {
    bytes.split(|b| *b == b'\n').filter(|l| !l.is_empty())
}

/// The last `limit` entries that pass the filter, from `files` (oldest first), reading
/// the newest files first and no more of them than needed. Lines that do not parse are
/// counted and skipped.
pub fn read(files: &[PathBuf], filter: &Filter, limit: usize) -> Result<(Vec<Entry>, usize)> {
    // The newest days first, each in its order.
    let mut days: Vec<Vec<Entry>> = Vec::new();
    let mut count = 0;
    let mut bad = 0usize;
    for path in files.iter().rev() {
        if count >= limit {
            break;
        }
        let bytes = file_lines(path)?;
        let mut day: Vec<Entry> = Vec::new();
        for line in split_lines(&bytes) {
            // A mark is short and is not a decision: tried first when the line is short.
            let short = line.len() < 160;
            if short && is_mark(line) {
                continue;
            }
            match serde_json::from_slice::<Entry>(line) {
                Ok(e) if filter.keeps(&e) => day.push(e),
                Ok(_) => {}
                Err(_) if !short && is_mark(line) => {}
                Err(_) => bad += 1,
            }
        }
        let take = day.len().min(limit - count);
        count += take;
        days.push(day.split_off(day.len() - take));
    }
    Ok((days.into_iter().rev().flatten().collect(), bad))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn append_and_filter() {
        let dir = tempfile::tempdir().expect("tempdir");
        for (i, d) in ["allow", "deny", "ask", "deny"].iter().enumerate() {
            let e = Entry {
                time: format!("2026-01-0{}T00:00:00Z", 1 + i % 2),
                decision: d.to_string(),
                subject: format!("cmd {i}"),
                session: "s".into(),
                agent: "main".into(),
                event: "PreToolUse".into(),
                tool: "Bash".into(),
                tier: String::new(),
                rule: "r".into(),
                relaxable: false,
                contained: false,
                relaxed_by: None,
                effect: None,
                phase: None,
                cwd: None,
                tool_use_id: None,
                took_us: None,
                blocked: None,
                confined: None,
            };
            append(dir.path(), &e).expect("append");
        }
        let files = files(dir.path());
        assert_eq!(files.len(), 2);
        let f = Filter {
            decision: Some("deny".into()),
            ..Filter::default()
        };
        let (got, bad) = read(&files, &f, 10).expect("read");
        assert_eq!(bad, 0);
        assert_eq!(got.len(), 2);
        let (last, _) = read(&files, &Filter::default(), 1).expect("read");
        assert_eq!(last.len(), 1);
    }
}
