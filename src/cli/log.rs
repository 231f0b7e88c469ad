//! `log`: decisions from the audit log, filtered, newest last.

use std::io::Write;

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
    /// Only this Claude Code session id.
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
        if NaiveDate::parse_from_str(d, "%Y-%m-%d").is_err() {
            return Err(usage(format!(
                "--date {d:?} is not a day: give it as YYYY-MM-DD, e.g. --date 2026-12-01"
            )));
        }
    }
    let all = audit::files(&places.state_dir);
    if all.is_empty() {
        eprintln!(
            "no audit log yet in {} (decisions are logged there as the hook runs)",
            audit::audit_dir(&places.state_dir).display()
        );
        return Ok(());
    }
    let mut files = all.clone();
    if let Some(d) = &a.date {
        files.retain(|f| f.file_name().and_then(|n| n.to_str()) == Some(&format!("{d}.jsonl")));
        if files.is_empty() {
            let day = |f: &std::path::PathBuf| {
                f.file_stem()
                    .map(|s| s.to_string_lossy().to_string())
                    .unwrap_or_default()
            };
            eprintln!(
                "no decisions were logged on {d}; the log holds {} to {}",
                all.first().map(day).unwrap_or_default(),
                all.last().map(day).unwrap_or_default()
            );
            return Ok(());
        }
    }
    let filter = audit::Filter {
        decision: a.decision,
        session: a.session,
        tool: a.tool,
        rule: a.rule,
        agent: a.agent,
        contains: a.grep,
    };
    let (entries, bad) = audit::read(&files, &filter, a.limit)?;
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    if !a.json && !entries.is_empty() {
        writeln!(
            out,
            "{:<19}  {:<12} {:<5} {:<28} {:<10} {:<18} {:<9} COMMAND OR PATH",
            "TIME (UTC)", "SESSION", "", "RULE", "TOOL", "AGENT", "PHASE"
        )?;
    }
    for e in &entries {
        if a.json {
            writeln!(out, "{}", serde_json::to_string(e)?)?;
        } else {
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
    }
    out.flush()?;
    if bad > 0 {
        eprintln!("note: {bad} log lines could not be read and were skipped");
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
