//! `log`: decisions from the audit log, filtered, newest last.

use std::io::Write;
use std::path::{Path, PathBuf};

use anyhow::Result;
use chrono::NaiveDate;
use clap::Args;

use super::usage;
use crate::hook::audit;
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

/// The entries as a table, with a heading when there are any.
fn write_table(out: &mut impl Write, entries: &[audit::Entry]) -> Result<()> {
    if entries.is_empty() {
        return Ok(());
    }
    writeln!(
        out,
        "{:<19}  {:<12} {:<5} {:<28} {:<10} {:<18} {:<9} COMMAND OR PATH",
        "TIME (UTC)", "SESSION", "", "RULE", "TOOL", "AGENT", "PHASE"
    )?;
    for e in entries {
        let relaxed = match &e.relaxed_by {
            Some(by) => format!("  [Confirm, relaxed by {by}]"),
            None => String::new(),
        };
        writeln!(
            out,
            "{:<19}  {:<12} {:<5} {:<28} {:<10} {:<18} {:<9} {}{relaxed}",
            e.time.get(..19).unwrap_or(&e.time),
            short_session(&e.session),
            e.decision,
            e.rule,
            e.tool,
            e.agent,
            e.phase.as_deref().unwrap_or("-"),
            e.subject
        )?;
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
