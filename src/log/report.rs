//! The decision report: what the audit log says was allowed, asked and denied, and what
//! the user answered when asked.
//!
//! Reading pairs each `ask` with its outcome (see `outcomes`): approved when an `approved`
//! mark with its session and `tool_use_id` follows; refused (or not answered) when a mark
//! of a turn's end (`prompt`, `start`, `stop`, `end`) in its session comes first; pending
//! otherwise. Aggregation is pure: decided entries in, figures out, in the order they are
//! shown (busiest first, ties by name).

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;

use anyhow::Result;
use serde::Serialize;

use super::audit::{self, Entry};
use super::outcomes::{Mark, APPROVED};

/// One line of the log. Nearly all lines are entries, so boxing them would only cost.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)]
pub enum LogLine {
    Entry(Entry),
    Mark(Mark),
}

/// What became of an ask.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    Approved,
    Refused,
    Pending,
}

/// A logged decision, with its outcome when it was an ask.
#[derive(Debug, Clone)]
pub struct Decided {
    pub entry: Entry,
    pub outcome: Option<Outcome>,
}

/// The decisions of `files` (oldest first) from `since` on (an RFC 3339 time; every one
/// when empty), each with its outcome; and how many lines could not be read.
pub fn read_decided(files: &[PathBuf], since: &str) -> Result<(Vec<Decided>, usize)> {
    let mut p = Pairing::default();
    let mut bad = 0;
    for path in files {
        let bytes = audit::file_lines(path)?;
        p.decided.reserve(bytes.len() / 256);
        // Checked as UTF-8 once rather than string by string.
        let text = match std::str::from_utf8(&bytes) {
            Ok(t) => std::borrow::Cow::Borrowed(t),
            Err(_) => String::from_utf8_lossy(&bytes),
        };
        for line in text.split('\n').filter(|l| !l.is_empty()) {
            match parse(line) {
                Some(LogLine::Entry(e)) if e.time.as_str() >= since => p.entry(e),
                Some(LogLine::Mark(m)) if m.time.as_str() >= since => p.mark(m),
                Some(_) => {}
                None => bad += 1,
            }
        }
    }
    Ok((p.decided, bad))
}

/// One line: a decision or a mark. Marks are short, so a short line is tried as one first.
fn parse(line: &str) -> Option<LogLine> {
    let entry = |l| serde_json::from_str::<Entry>(l).ok().map(LogLine::Entry);
    let mark = |l| serde_json::from_str::<Mark>(l).ok().map(LogLine::Mark);
    if line.len() < 160 {
        mark(line).or_else(|| entry(line))
    } else {
        entry(line).or_else(|| mark(line))
    }
}

/// Pairs each decision with its outcome; marks are dropped.
pub fn pair(lines: Vec<LogLine>) -> Vec<Decided> {
    let mut p = Pairing::default();
    for line in lines {
        match line {
            LogLine::Entry(e) => p.entry(e),
            LogLine::Mark(m) => p.mark(m),
        }
    }
    p.decided
}

/// Asks paired with their outcomes as the lines come, oldest first.
#[derive(Default)]
struct Pairing {
    decided: Vec<Decided>,
    /// Asks without an outcome yet, by session and call id.
    open: HashMap<(String, String), usize>,
    by_session: HashMap<String, Vec<usize>>,
}

impl Pairing {
    fn entry(&mut self, e: Entry) {
        let ask = e.decision == "ask";
        if ask {
            if let Some(id) = &e.tool_use_id {
                let i = self.decided.len();
                self.open.insert((e.session.clone(), id.clone()), i);
                self.by_session
                    .entry(e.session.clone())
                    .or_default()
                    .push(i);
            }
        }
        self.decided.push(Decided {
            outcome: ask.then_some(Outcome::Pending),
            entry: e,
        });
    }

    fn mark(&mut self, m: Mark) {
        if m.mark == APPROVED {
            let key = (m.session, m.tool_use_id.unwrap_or_default());
            if let Some(i) = self.open.remove(&key) {
                self.decided[i].outcome = Some(Outcome::Approved);
            }
            return;
        }
        // The turn ended: the session's asks still open were refused or not answered.
        for i in self.by_session.remove(&m.session).unwrap_or_default() {
            let d = &mut self.decided[i];
            if d.outcome == Some(Outcome::Pending) {
                d.outcome = Some(Outcome::Refused);
                if let Some(id) = &d.entry.tool_use_id {
                    self.open.remove(&(m.session.clone(), id.clone()));
                }
            }
        }
    }
}

/// Calls allowed, asked and denied.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    pub allow: u64,
    pub ask: u64,
    pub deny: u64,
}

impl Counts {
    fn add(&mut self, decision: &str) {
        match decision {
            "allow" => self.allow += 1,
            "ask" => self.ask += 1,
            "deny" => self.deny += 1,
            _ => {}
        }
    }
    pub fn total(&self) -> u64 {
        self.allow + self.ask + self.deny
    }
}

/// Counts under a name (a day, an agent, a phase).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Row {
    pub name: String,
    #[serde(flatten)]
    pub counts: Counts,
}

/// What the user answered to the asks.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Answers {
    pub approved: u64,
    pub refused: u64,
    pub pending: u64,
}

impl Answers {
    fn add(&mut self, o: Option<Outcome>) {
        match o {
            Some(Outcome::Approved) => self.approved += 1,
            Some(Outcome::Refused) => self.refused += 1,
            Some(Outcome::Pending) => self.pending += 1,
            None => {}
        }
    }
    /// Approved asks in percent of those answered, rounded; none when none was answered.
    pub fn approval_pct(&self) -> Option<u64> {
        let answered = self.approved + self.refused;
        (answered > 0).then(|| (self.approved * 200 + answered) / (answered * 2))
    }
}

/// A rule that asked, and how the user answered it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleRow {
    pub rule: String,
    pub asks: u64,
    #[serde(flatten)]
    pub answers: Answers,
    pub approval_pct: Option<u64>,
    /// The commands (or paths) it asked about most, busiest first.
    pub commands: Vec<Subject>,
}

/// A command (or path), and how often it came under a rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Subject {
    pub subject: String,
    pub times: u64,
}

/// A rule that denied, why, and what it denied.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DenialRule {
    pub rule: String,
    pub times: u64,
    /// The rule's reason (from the policy), or why a call could not be checked.
    pub reason: Option<String>,
    /// The commands (or paths) it denied most, busiest first.
    pub commands: Vec<Subject>,
}

/// How many commands a rule of the report lists.
pub const COMMANDS_PER_RULE: usize = 5;

/// A command (or path) that was denied, and how often.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Denied {
    pub subject: String,
    pub rule: String,
    pub times: u64,
}

/// The hook's own time per decision, in microseconds.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Latency {
    /// Decisions that recorded their time.
    pub calls: u64,
    pub median_us: Option<u64>,
    pub p99_us: Option<u64>,
}

/// A time in microseconds, for people.
pub fn duration(us: Option<u64>) -> String {
    match us {
        None => "-".into(),
        Some(us) if us < 1000 => format!("{us} µs"),
        Some(us) => format!("{:.1} ms", us as f64 / 1000.0),
    }
}

/// How many rows of the longer lists (rules, denials) the table and the page show; the
/// JSON holds them all.
pub const TOP: usize = 10;

/// The whole report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Report {
    /// The first and last day the report covers.
    pub from: String,
    pub to: String,
    pub totals: Counts,
    pub answers: Answers,
    pub approval_pct: Option<u64>,
    /// Confirm calls that autonomy `auto` let run without asking (counted as allowed).
    pub relaxed: u64,
    pub days: Vec<Row>,
    pub rules: Vec<RuleRow>,
    pub denied: Vec<Denied>,
    /// The rules that denied, busiest first, each with its reason and commands.
    pub denials: Vec<DenialRule>,
    pub agents: Vec<Row>,
    pub phases: Vec<Row>,
    pub latency: Latency,
}

impl Report {
    /// Fills in the reason of each denying rule that has none yet from `reason_of` (the
    /// policy's text for a rule id).
    pub fn name_reasons(&mut self, reason_of: impl Fn(&str) -> Option<String>) {
        for d in &mut self.denials {
            if d.reason.is_none() {
                d.reason = reason_of(&d.rule);
            }
        }
    }
}

/// Every day from `from` to `to` (both `YYYY-MM-DD`), in order; none when either is not
/// a day or they are more than ten years apart.
fn days_between(from: &str, to: &str) -> Vec<String> {
    let parse = |d: &str| chrono::NaiveDate::parse_from_str(d, "%Y-%m-%d").ok();
    let (Some(mut d), Some(end)) = (parse(from), parse(to)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    while d <= end && out.len() < 3660 {
        out.push(d.format("%Y-%m-%d").to_string());
        let Some(next) = d.succ_opt() else { break };
        d = next;
    }
    out
}

/// The report on `decided` (already filtered) for the days `from` to `to`: every day of
/// them in `days`, those without a decision too.
pub fn build(decided: &[Decided], from: &str, to: &str) -> Report {
    let mut totals = Counts::default();
    let mut answers = Answers::default();
    let mut relaxed = 0;
    let mut days: BTreeMap<&str, Counts> = BTreeMap::new();
    let mut agents: BTreeMap<&str, Counts> = BTreeMap::new();
    let mut phases: BTreeMap<&str, Counts> = BTreeMap::new();
    let mut rules: BTreeMap<&str, Answers> = BTreeMap::new();
    let mut asked: BTreeMap<&str, BTreeMap<&str, u64>> = BTreeMap::new();
    let mut denied: BTreeMap<(&str, &str), u64> = BTreeMap::new();
    let mut blocked: BTreeMap<&str, &str> = BTreeMap::new();
    let all_days = days_between(from, to);
    for d in &all_days {
        days.insert(d, Counts::default());
    }
    let mut times = Vec::new();
    for d in decided {
        let e = &d.entry;
        totals.add(&e.decision);
        answers.add(d.outcome);
        relaxed += u64::from(e.relaxed_by.is_some());
        days.entry(e.time.get(..10).unwrap_or(&e.time))
            .or_default()
            .add(&e.decision);
        agents.entry(&e.agent).or_default().add(&e.decision);
        phases
            .entry(e.phase.as_deref().unwrap_or("none"))
            .or_default()
            .add(&e.decision);
        if e.decision == "ask" {
            rules.entry(&e.rule).or_default().add(d.outcome);
            *asked
                .entry(&e.rule)
                .or_default()
                .entry(&e.subject)
                .or_default() += 1;
        }
        if e.decision == "deny" {
            *denied.entry((&e.subject, &e.rule)).or_default() += 1;
            if let Some(why) = e.blocked.as_deref() {
                blocked.entry(&e.rule).or_insert(why);
            }
        }
        times.extend(e.took_us);
    }
    Report {
        from: from.to_string(),
        to: to.to_string(),
        approval_pct: answers.approval_pct(),
        totals,
        answers,
        relaxed,
        days: days.into_iter().map(row).collect(),
        rules: rule_rows(rules, &asked),
        denials: denial_rules(&denied, &blocked),
        denied: denied_rows(denied),
        agents: busiest(agents.into_iter().map(row).collect()),
        phases: busiest(phases.into_iter().map(row).collect()),
        latency: latency(times),
    }
}

fn row((name, counts): (&str, Counts)) -> Row {
    Row {
        name: name.to_string(),
        counts,
    }
}

fn busiest(mut rows: Vec<Row>) -> Vec<Row> {
    rows.sort_by_key(|r| std::cmp::Reverse(r.counts.total()));
    rows
}

/// The busiest subjects of a count, at most [`COMMANDS_PER_RULE`], ties by name.
fn top_subjects<'a>(counts: impl Iterator<Item = (&'a str, u64)>) -> Vec<Subject> {
    let mut v: Vec<Subject> = counts
        .map(|(s, times)| Subject {
            subject: s.to_string(),
            times,
        })
        .collect();
    v.sort_by(|a, b| {
        b.times
            .cmp(&a.times)
            .then_with(|| a.subject.cmp(&b.subject))
    });
    v.truncate(COMMANDS_PER_RULE);
    v
}

fn rule_rows(
    rules: BTreeMap<&str, Answers>,
    asked: &BTreeMap<&str, BTreeMap<&str, u64>>,
) -> Vec<RuleRow> {
    let mut v: Vec<RuleRow> = rules
        .into_iter()
        .map(|(rule, answers)| RuleRow {
            rule: rule.to_string(),
            asks: answers.approved + answers.refused + answers.pending,
            approval_pct: answers.approval_pct(),
            answers,
            commands: asked
                .get(rule)
                .map(|m| top_subjects(m.iter().map(|(s, n)| (*s, *n))))
                .unwrap_or_default(),
        })
        .collect();
    v.sort_by_key(|r| std::cmp::Reverse(r.asks));
    v
}

fn denial_rules(
    denied: &BTreeMap<(&str, &str), u64>,
    blocked: &BTreeMap<&str, &str>,
) -> Vec<DenialRule> {
    let mut by_rule: BTreeMap<&str, Vec<(&str, u64)>> = BTreeMap::new();
    for ((subject, rule), n) in denied {
        by_rule.entry(rule).or_default().push((subject, *n));
    }
    let mut v: Vec<DenialRule> = by_rule
        .into_iter()
        .map(|(rule, subjects)| DenialRule {
            rule: rule.to_string(),
            times: subjects.iter().map(|(_, n)| n).sum(),
            reason: blocked.get(rule).map(|s| s.to_string()),
            commands: top_subjects(subjects.into_iter()),
        })
        .collect();
    v.sort_by_key(|r| std::cmp::Reverse(r.times));
    v
}

fn denied_rows(denied: BTreeMap<(&str, &str), u64>) -> Vec<Denied> {
    let mut v: Vec<Denied> = denied
        .into_iter()
        .map(|((subject, rule), times)| Denied {
            subject: subject.to_string(),
            rule: rule.to_string(),
            times,
        })
        .collect();
    v.sort_by_key(|d| std::cmp::Reverse(d.times));
    v
}

/// Median and 99th percentile by nearest rank (the value at rank ⌈p·n⌉).
fn latency(mut times: Vec<u64>) -> Latency {
    times.sort_unstable();
    let n = times.len();
    let rank = |p: usize| times.get((p * n).div_ceil(100).max(1) - 1).copied();
    Latency {
        calls: n as u64,
        median_us: rank(50),
        p99_us: rank(99),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(session: &str, decision: &str, id: &str, rule: &str) -> LogLine {
        LogLine::Entry(Entry {
            time: "2026-12-01T10:00:00.000Z".into(),
            session: session.into(),
            agent: "main".into(),
            event: "PreToolUse".into(),
            tool: "Bash".into(),
            decision: decision.into(),
            tier: String::new(),
            rule: rule.into(),
            relaxable: true,
            contained: false,
            relaxed_by: None,
            effect: None,
            subject: format!("cmd {id}"),
            phase: None,
            cwd: None,
            tool_use_id: Some(id.into()),
            took_us: Some(id.len() as u64 * 100),
            blocked: None,
            confined: None,
        })
    }

    fn mark(session: &str, mark: &str, id: Option<&str>) -> LogLine {
        LogLine::Mark(Mark {
            time: "2026-12-01T10:00:01.000Z".into(),
            session: session.into(),
            mark: mark.into(),
            tool_use_id: id.map(str::to_string),
        })
    }

    #[test]
    fn asks_are_paired_with_what_followed_them() {
        let lines = vec![
            entry("a", "ask", "1", "r1"),
            entry("a", "ask", "2", "r1"),
            entry("b", "ask", "3", "r2"),
            entry("a", "allow", "4", "safe"),
            mark("a", APPROVED, Some("1")),
            mark("a", "prompt", None),
            // An approval after the turn ended changes nothing.
            mark("a", APPROVED, Some("2")),
            entry("a", "ask", "5", "r1"),
        ];
        let got: Vec<_> = pair(lines).iter().map(|d| d.outcome).collect();
        use Outcome::*;
        assert_eq!(
            got,
            [
                Some(Approved),
                Some(Refused),
                Some(Pending),
                None,
                Some(Pending)
            ]
        );
    }

    #[test]
    fn figures() {
        let lines = vec![
            entry("a", "ask", "1", "r1"),
            entry("a", "ask", "22", "r1"),
            entry("a", "deny", "333", "f"),
            mark("a", APPROVED, Some("1")),
            mark("a", "prompt", None),
        ];
        let r = build(&pair(lines), "2026-12-01", "2026-12-01");
        assert_eq!((r.totals.allow, r.totals.ask, r.totals.deny), (0, 2, 1));
        assert_eq!(r.rules.len(), 1);
        assert_eq!(r.rules[0].answers.approved, 1);
        assert_eq!(r.rules[0].approval_pct, Some(50));
        assert_eq!(r.denied[0].subject, "cmd 333");
        assert_eq!(
            (r.latency.median_us, r.latency.p99_us),
            (Some(200), Some(300))
        );
    }

    #[test]
    fn every_day_of_the_span_is_a_row_and_denials_are_grouped_by_rule() {
        let mut lines = vec![
            entry("a", "deny", "1", "fs.rm-broad"),
            entry("a", "deny", "2", "fs.rm-broad"),
            entry("a", "deny", "3", "git.force-push"),
        ];
        if let LogLine::Entry(e) = &mut lines[2] {
            e.blocked = Some("the policy could not be loaded".into());
        }
        let mut r = build(&pair(lines), "2026-11-25", "2026-12-01");
        let names: Vec<&str> = r.days.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "2026-11-25",
                "2026-11-26",
                "2026-11-27",
                "2026-11-28",
                "2026-11-29",
                "2026-11-30",
                "2026-12-01"
            ]
        );
        assert_eq!(r.days[6].counts.deny, 3);
        assert_eq!(r.days[0].counts.total(), 0);
        r.name_reasons(|id| Some(format!("reason of {id}")));
        let got: Vec<(&str, u64, Option<&str>, usize)> = r
            .denials
            .iter()
            .map(|d| {
                (
                    d.rule.as_str(),
                    d.times,
                    d.reason.as_deref(),
                    d.commands.len(),
                )
            })
            .collect();
        assert_eq!(
            got,
            [
                ("fs.rm-broad", 2, Some("reason of fs.rm-broad"), 2),
                (
                    "git.force-push",
                    1,
                    Some("the policy could not be loaded"),
                    1
                ),
            ]
        );
        assert!(days_between("2026-12-02", "2026-12-01").is_empty());
        assert!(days_between("x", "2026-12-01").is_empty());
    }
}
