//! `log`: decisions from the audit log, filtered, newest last.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;
use chrono::NaiveDate;
use clap::Args;

use super::usage;
use crate::log::audit;
use crate::workflow::state;

#[derive(Args)]
pub struct LogArgs {
    /// Only this decision: allow, ask or deny.
    #[arg(long, value_parser = ["allow", "ask", "deny"])]
    decision: Option<String>,
    /// Only this Claude Code session id (or a prefix of it only one session has).
    #[arg(long)]
    session: Option<String>,
    /// Only this tool (e.g. Bash, Write).
    #[arg(long)]
    tool: Option<String>,
    /// Only rules whose id starts with this.
    #[arg(long)]
    rule: Option<String>,
    /// Only this agent (`main` for the main thread, or an agent name).
    #[arg(long)]
    agent: Option<String>,
    /// Only entries whose command or path contains this text.
    #[arg(long)]
    grep: Option<String>,
    /// Only this day (YYYY-MM-DD); default: all days.
    #[arg(long)]
    date: Option<String>,
    /// How many entries at most (the newest).
    #[arg(long, short = 'n', default_value_t = 50)]
    limit: usize,
    /// Print JSON lines instead of a table.
    #[arg(long)]
    json: bool,
}

pub fn run_log(a: LogArgs) -> Result<()> {
    let places = state::places()?;
    if let Some(d) = &a.date {
        check_day(d)?;
    }
    let session = match &a.session {
        Some(s) => Some(super::session_id::resolve(&places.state_dir, s)?),
        None => None,
    };
    let Some(files) = files_to_read(&places.state_dir, a.date.as_deref()) else {
        return Ok(());
    };
    let filter = audit::Filter {
        decision: a.decision,
        session,
        tool: a.tool,
        rule: a.rule,
        agent: a.agent,
        contains: a.grep,
    };
    let (entries, bad) = audit::read(&files, &filter, a.limit)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if a.json {
        for e in &entries {
            writeln!(out, "{}", serde_json::to_string(e)?)?;
        }
    } else {
        write_table(&mut out, &entries)?;
    }
    out.flush()?;
    if bad > 0 {
        eprintln!("note: {bad} log lines could not be read and were skipped");
    }
    Ok(())
}

/// `--date` must be a day.
fn check_day(d: &str) -> Result<()> {
    if NaiveDate::parse_from_str(d, "%Y-%m-%d").is_err() {
        return Err(usage(format!(
            "--date {d:?} is not a day: give it as YYYY-MM-DD, e.g. --date 2026-12-01"
        )));
    }
    Ok(())
}

/// The log files to read: all of them, or the one of `day`. `None`, with a note saying
/// why, when there are none.
fn files_to_read(state_dir: &Path, day: Option<&str>) -> Option<Vec<PathBuf>> {
    let all = audit::files(state_dir);
    if all.is_empty() {
        eprintln!(
            "no audit log yet in {} (decisions are logged there as the hook runs)",
            audit::audit_dir(state_dir).display()
        );
        return None;
    }
    let Some(d) = day else {
        return Some(all);
    };
    let want = format!("{d}.jsonl");
    let files: Vec<PathBuf> = all
        .iter()
        .filter(|f| f.file_name().and_then(|n| n.to_str()) == Some(&want))
        .cloned()
        .collect();
    if files.is_empty() {
        let day = |f: &PathBuf| {
            f.file_stem()
                .map(|s| s.to_string_lossy().to_string())
                .unwrap_or_default()
        };
        eprintln!(
            "no decisions were logged on {d}; the log holds {} to {}",
            all.first().map(day).unwrap_or_default(),
            all.last().map(day).unwrap_or_default()
        );
        return None;
    }
    Some(files)
}

/// The entries as a table, with a heading when there are any. Each column is as wide as
/// its widest cell, so that long rule or agent names keep the columns in line.
fn write_table(out: &mut impl Write, entries: &[audit::Entry]) -> Result<()> {
    if entries.is_empty() {
        return Ok(());
    }
    const HEADINGS: [&str; 7] = [
        "TIME (UTC)",
        "SESSION",
        "DECISION",
        "RULE",
        "TOOL",
        "AGENT",
        "PHASE",
    ];
    let rows: Vec<[&str; 7]> = entries
        .iter()
        .map(|e| {
            [
                e.time.get(..19).unwrap_or(&e.time),
                short_session(&e.session),
                e.decision.as_str(),
                e.rule.as_str(),
                e.tool.as_str(),
                e.agent.as_str(),
                e.phase.as_deref().unwrap_or("-"),
            ]
        })
        .collect();
    let mut widths = HEADINGS.map(|h| h.chars().count());
    for r in &rows {
        for (w, cell) in widths.iter_mut().zip(r) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |cells: &[&str; 7]| -> String {
        let mut s = String::new();
        for (cell, w) in cells.iter().zip(widths) {
            s.push_str(cell);
            s.extend(std::iter::repeat_n(' ', w - cell.chars().count() + 2));
        }
        s
    };
    writeln!(out, "{}COMMAND OR PATH", line(&HEADINGS))?;
    for (e, r) in entries.iter().zip(&rows) {
        let relaxed = match &e.relaxed_by {
            Some(by) => format!("  [Confirm, relaxed by {by}]"),
            None => String::new(),
        };
        writeln!(out, "{}{}{relaxed}", line(r), e.subject)?;
    }
    Ok(())
}

/// A session id as the table shows it: the first 12 characters (ids are long UUIDs).
fn short_session(id: &str) -> &str {
    match id.char_indices().nth(12) {
        Some((i, _)) => &id[..i],
        None => id,
    }
}

#[cfg(test)]
mod tests {
    use crate::log::audit::Entry;

    fn entry(decision: &str, rule: &str, agent: &str, subject: &str) -> Entry {
        Entry {
            time: "2026-12-01T10:00:00.000Z".into(),
            session: "5f3a9c1e-0000-4000-8000-00000000000a".into(),
            agent: agent.into(),
            event: "PreToolUse".into(),
            tool: "Bash".into(),
            decision: decision.into(),
            tier: String::new(),
            rule: rule.into(),
            relaxable: false,
            contained: false,
            effect: None,
            relaxed_by: None,
            subject: subject.into(),
            phase: None,
            cwd: None,
            tool_use_id: None,
            took_us: None,
            blocked: None,
            confined: None,
        }
    }

    /// The heading names every column, the decision's too, and every row's columns start
    /// where their headings do, whatever the length of a rule or agent name.
    #[test]
    fn the_table_heading_names_every_column_and_long_names_keep_them_in_line() {
        let entries = [
            entry("allow", "git.read", "main", "git status"),
            entry(
                "deny",
                "path.protected-write-of-a-very-long-rule-name",
                "a-very-long-agent-name-indeed",
                "rm -rf ~",
            ),
            entry("ask", "fs.change", "code-reviewer", "mkdir é"),
        ];
        let mut out = Vec::new();
        super::write_table(&mut out, &entries).expect("table");
        let text = String::from_utf8(out).expect("utf-8");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 4, "{text}");
        let head = lines[0];
        for h in [
            "TIME (UTC)",
            "SESSION",
            "DECISION",
            "RULE",
            "TOOL",
            "AGENT",
            "PHASE",
            "COMMAND OR PATH",
        ] {
            assert!(head.contains(h), "{h}: {head}");
        }
        let col = |line: &str, at: &str| line.find(at).map(|b| line[..b].chars().count());
        let start = |h: &str| col(head, h).expect("heading");
        for (line, e) in lines[1..].iter().zip(&entries) {
            assert_eq!(col(line, &e.decision), Some(start("DECISION")), "{text}");
            assert_eq!(col(line, &e.rule), Some(start("RULE")), "{text}");
            assert_eq!(col(line, &e.agent), Some(start("AGENT")), "{text}");
            assert_eq!(
                col(line, &e.subject),
                Some(start("COMMAND OR PATH")),
                "{text}"
            );
        }
    }

    #[test]
    fn sessions_are_shortened_on_a_character_boundary() {
        let cases: &[(&str, &str)] = &[
            ("", ""),
            ("abc", "abc"),
            ("0123456789abcdef", "0123456789ab"),
            ("ééééééééééééé", "éééééééééééé"),
        ];
        for (id, want) in cases {
            assert_eq!(super::short_session(id), *want, "{id}");
        }
    }
}
