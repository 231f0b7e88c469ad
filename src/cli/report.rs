//! `report`: what the hook decided, per day, rule, agent and phase, and how the user
//! answered its asks; as a table with small bar charts, as JSON, or as an HTML page.

use std::fmt::Write as _;
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::Args;

use super::html;
use super::session_id;
use super::since::parse_since;
use crate::log::report::{self, duration, Counts, Report, Row, TOP};
use crate::log::window::{self, Filters};
use crate::workflow::state;

#[derive(Args)]
pub struct ReportArgs {
    /// From when: a number of days (`7d`: today and the 6 before) or hours (`12h`) back, or a day (`2026-12-01`).
    #[arg(long, default_value = "7d")]
    since: String,
    /// Only calls made in this project (a registered project's name, else a folder's name).
    #[arg(long)]
    project: Option<String>,
    /// Only this Claude Code session id (or a prefix of it only one session has).
    #[arg(long)]
    session: Option<String>,
    /// Print the figures as JSON.
    #[arg(long)]
    json: bool,
    /// Also write the report as one self-contained HTML page to FILE.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
}

/// The width of the longest bar.
const BAR: u64 = 30;

pub fn run_report(a: ReportArgs) -> Result<i32> {
    let now = chrono::Utc::now();
    let since = parse_since(&a.since, now)?;
    let places = state::places()?;
    let filters = Filters {
        project: a.project,
        session: a
            .session
            .map(|s| session_id::resolve(&places.state_dir, &s))
            .transpose()?,
    };
    let (decided, bad) = window::load(&places.state_dir, &since, &filters)?;
    let today = now.format("%Y-%m-%d").to_string();
    let mut r = report::build(&decided, since.get(..10).unwrap_or(&since), &today);
    // The reasons of the rules that denied, from the policy in force (a rule a project's
    // file holds has none here).
    if let Ok(policy) = crate::hook::load_policy(&places, None) {
        let reasons: std::collections::HashMap<&str, &str> = policy
            .rules()
            .iter()
            .map(|rule| (&*rule.id, &*rule.reason))
            .collect();
        r.name_reasons(|id| reasons.get(id).map(|s| s.to_string()));
    }
    if let Some(path) = &a.html {
        std::fs::write(path, html::page(&r))
            .with_context(|| format!("cannot write {}", path.display()))?;
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&r)?);
    } else if let Some(path) = &a.html {
        println!("report written to {}", path.display());
    } else {
        print!("{}", text(&r));
    }
    if bad > 0 {
        eprintln!("note: {bad} log lines could not be read and were skipped");
    }
    Ok(0)
}

/// `n` of `max` as a number of bar characters (at least one for any `n` > 0).
fn scaled(n: u64, max: u64) -> usize {
    if n == 0 || max == 0 {
        return 0;
    }
    ((n * BAR).div_ceil(max)).max(1) as usize
}

/// A bar of allowed, asked and denied calls.
fn stacked(c: &Counts, max: u64) -> String {
    let total = c.total();
    let len = scaled(total, max);
    let ask = scaled(c.ask, max).min(len);
    let deny = scaled(c.deny, max).min(len - ask);
    let allow = len - ask - deny;
    format!(
        "{}{}{}",
        "█".repeat(allow),
        "▒".repeat(ask),
        "░".repeat(deny)
    )
}

fn clip(s: &str, max: usize) -> String {
    let one_line = s.replace('\n', "⏎");
    match one_line.char_indices().nth(max.saturating_sub(1)) {
        Some((cut, _)) if one_line.chars().count() > max => format!("{}…", &one_line[..cut]),
        _ => one_line,
    }
}

/// One table of the report: a column of names headed `title`, `width` wide (a longer name
/// is clipped); right-aligned columns of figures, each `(heading, width)`; and a last
/// column of any width, headed `last` (no heading when it is empty).
struct Table<'a> {
    title: &'a str,
    width: usize,
    columns: &'a [(&'a str, usize)],
    last: &'a str,
}

impl Table<'_> {
    /// The table, under a blank line: its headings, then a line a row of `rows` (its name,
    /// its figures, one a column, and its last column).
    fn write<'r>(
        &self,
        out: &mut String,
        rows: impl IntoIterator<Item = (&'r str, Vec<String>, String)>,
    ) {
        let width = self.width;
        let headings = self.figures(self.columns.iter().map(|(h, _)| *h));
        let _ = write!(out, "\n{:<width$}  {headings}", self.title);
        if !self.last.is_empty() {
            let _ = write!(out, "  {}", self.last);
        }
        out.push('\n');
        for (name, cells, last) in rows {
            let cells = self.figures(cells.iter().map(String::as_str));
            let _ = writeln!(out, "{:<width$}  {cells}  {last}", clip(name, width));
        }
    }

    /// The figures of a line, each right-aligned in its column.
    fn figures<'c>(&self, cells: impl IntoIterator<Item = &'c str>) -> String {
        self.columns
            .iter()
            .zip(cells)
            .map(|((_, w), cell)| format!("{cell:>w$}"))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

fn counts_table(out: &mut String, title: &str, rows: &[Row]) {
    let width = rows
        .iter()
        .map(|r| r.name.chars().count())
        .chain([title.chars().count()])
        .max()
        .unwrap_or(0)
        .min(32);
    let max = rows.iter().map(|r| r.counts.total()).max().unwrap_or(0);
    let table = Table {
        title,
        width,
        columns: &[("allow", 6), ("ask", 6), ("deny", 6)],
        last: "",
    };
    table.write(
        out,
        rows.iter().map(|r| {
            let c = &r.counts;
            let figures = vec![c.allow.to_string(), c.ask.to_string(), c.deny.to_string()];
            (r.name.as_str(), figures, stacked(c, max))
        }),
    );
}

/// The report as a terminal table.
pub fn text(r: &Report) -> String {
    let mut out = String::new();
    let t = &r.totals;
    let _ = writeln!(
        out,
        "Decisions from {} to {}: {} calls, {} allowed, {} asked, {} denied",
        r.from,
        r.to,
        t.total(),
        t.allow,
        t.ask,
        t.deny
    );
    let a = &r.answers;
    let _ = writeln!(
        out,
        "Asks: {} approved, {} refused or not answered, {} pending (approval {}); {} Confirm calls run by autonomy auto without asking",
        a.approved,
        a.refused,
        a.pending,
        pct(r.approval_pct),
        r.relaxed
    );
    if t.total() == 0 {
        out.push_str("\nNothing was decided in this time.\n");
        return out;
    }
    counts_table(&mut out, "Per day", &r.days);
    out.push_str("(█ allow  ▒ ask  ░ deny)\n");
    rules_table(&mut out, r);
    denials_table(&mut out, r);
    denied_table(&mut out, r);
    counts_table(&mut out, "Per agent", &r.agents);
    counts_table(&mut out, "Per phase", &r.phases);
    let l = &r.latency;
    let _ = writeln!(
        out,
        "\nHook latency: median {}, 99th percentile {} ({} decisions timed)",
        duration(l.median_us),
        duration(l.p99_us),
        l.calls
    );
    out
}

fn pct(p: Option<u64>) -> String {
    p.map_or("-".into(), |p| format!("{p}%"))
}

/// The width of a rule column: its longest rule id, at least the heading's and at most 40.
fn rule_width(lens: impl Iterator<Item = usize>) -> usize {
    lens.max().unwrap_or(0).clamp(21, 40)
}

fn rules_table(out: &mut String, r: &Report) {
    if r.rules.is_empty() {
        return;
    }
    let rows = &r.rules[..r.rules.len().min(TOP)];
    let table = Table {
        title: "Rules that asked most",
        width: rule_width(rows.iter().map(|x| x.rule.len())),
        columns: &[
            ("asks", 5),
            ("approved", 8),
            ("refused", 8),
            ("pending", 8),
            ("approval", 8),
        ],
        last: "",
    };
    table.write(
        out,
        rows.iter().map(|x| {
            let a = &x.answers;
            let bar = x.approval_pct.map_or(String::new(), |p| {
                let on = (p as usize).div_ceil(10);
                format!("{}{}", "█".repeat(on), "·".repeat(10 - on.min(10)))
            });
            let figures = vec![
                x.asks.to_string(),
                a.approved.to_string(),
                a.refused.to_string(),
                a.pending.to_string(),
                pct(x.approval_pct),
            ];
            (x.rule.as_str(), figures, bar)
        }),
    );
}

fn denials_table(out: &mut String, r: &Report) {
    if r.denials.is_empty() {
        return;
    }
    let rows = &r.denials[..r.denials.len().min(TOP)];
    let table = Table {
        title: "Why calls were denied",
        width: rule_width(rows.iter().map(|x| x.rule.len())),
        columns: &[("times", 5)],
        last: "reason",
    };
    table.write(
        out,
        rows.iter().map(|x| {
            let reason = clip(x.reason.as_deref().unwrap_or("-"), 80);
            (x.rule.as_str(), vec![x.times.to_string()], reason)
        }),
    );
}

fn denied_table(out: &mut String, r: &Report) {
    if r.denied.is_empty() {
        return;
    }
    let rows = &r.denied[..r.denied.len().min(TOP)];
    let table = Table {
        title: "Most often denied",
        width: rows
            .iter()
            .map(|x| x.subject.chars().count())
            .max()
            .unwrap_or(0)
            .clamp(18, 60),
        columns: &[("times", 5)],
        last: "rule",
    };
    table.write(
        out,
        rows.iter().map(|x| {
            (
                x.subject.as_str(),
                vec![x.times.to_string()],
                x.rule.clone(),
            )
        }),
    );
}
