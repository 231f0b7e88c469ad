//! The report as one self-contained HTML page: a chart of the decisions over the days,
//! tables with inline SVG bars, why calls were denied and the commands under each rule; no
//! scripts, nothing fetched from anywhere.

use std::fmt::Write as _;

use crate::log::report::{duration, Report, Row, Subject, TOP};

const STYLE: &str =
    "body{font-family:system-ui,sans-serif;margin:2em auto;max-width:60em;color:#222;background:#fff}\
table{border-collapse:collapse;margin:.5em 0 1.5em}\
th,td{padding:.2em .7em;text-align:right;border-bottom:1px solid #ddd;vertical-align:top}\
th.name,td.name{text-align:left}\
td.name{font-family:ui-monospace,monospace;max-width:36em;overflow-wrap:anywhere}\
td.why{text-align:left;max-width:24em}\
ul.cmds{margin:.2em 0 0;padding-left:1.2em;font-size:.85em;color:#555}\
.allow,.approved{fill:#4c9a5b;background:#4c9a5b}\
.ask{fill:#e0a030;background:#e0a030}\
.deny,.refused{fill:#c0392b;background:#c0392b}\
.pending{fill:#9aa0a6;background:#9aa0a6}\
.axis{stroke:#999;stroke-width:1}.label{font-size:11px;fill:#555}\
.legend span{display:inline-block;width:.8em;height:.8em;margin:0 .3em 0 1em}";

/// Text safe inside an element or a quoted attribute.
pub fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(c),
        }
    }
    out
}

/// The colours of the decisions, and of the answers to asks.
const DECISIONS: [(&str, &str); 3] = [("allow", "allow"), ("ask", "ask"), ("deny", "deny")];
const ANSWERS: [(&str, &str); 3] = [
    ("approved", "approved"),
    ("pending", "pending"),
    ("refused", "refused or not answered"),
];

/// A legend: a swatch of each class with its word.
fn legend(h: &mut String, id: &str, items: &[(&str, &str)]) {
    let _ = write!(h, "<p class=\"legend\" id=\"{id}\">");
    for (class, word) in items {
        let _ = write!(h, "<span class=\"{class}\"></span>{}", escape(word));
    }
    h.push_str("</p>\n");
}

/// The whole page.
pub fn page(r: &Report) -> String {
    let mut h = String::new();
    let title = format!("programmer-hook: decisions from {} to {}", r.from, r.to);
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
        escape(&title),
        escape(&title)
    );
    let t = &r.totals;
    let a = &r.answers;
    let _ = writeln!(
        h,
        "<table id=\"totals\"><tr><th>calls</th><th>allow</th><th>ask</th><th>deny</th><th>approved</th><th>refused</th><th>pending</th><th>approval</th><th>relaxed</th></tr>\n<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr></table>",
        t.total(), t.allow, t.ask, t.deny, a.approved, a.refused, a.pending, pct(r.approval_pct), r.relaxed
    );
    h.push_str("<h2>Decisions per day</h2>\n");
    legend(&mut h, "decisions-legend", &DECISIONS);
    h.push_str(&trend(&r.days));
    rules_section(&mut h, r);
    denials_section(&mut h, r);
    denied_section(&mut h, r);
    counts_section(&mut h, "agents", "Per agent", &r.agents);
    counts_section(&mut h, "phases", "Per phase", &r.phases);
    let l = &r.latency;
    let _ = writeln!(
        h,
        "<h2>Hook latency</h2>\n<table id=\"latency\"><tr><th>decisions timed</th><th>median</th><th>99th percentile</th></tr>\n<tr><td>{}</td><td>{}</td><td>{}</td></tr></table>",
        l.calls,
        escape(&duration(l.median_us)),
        escape(&duration(l.p99_us))
    );
    h.push_str("</body>\n</html>\n");
    h
}

fn pct(p: Option<u64>) -> String {
    p.map_or("-".into(), |p| format!("{p}%"))
}

/// The days as a column chart: one stacked column a day (allowed at the bottom, then asked,
/// then denied), the busiest day's total on the axis, and a date under every few columns.
fn trend(days: &[Row]) -> String {
    const W: f64 = 720.0;
    const H: f64 = 180.0;
    const LEFT: f64 = 36.0;
    const BOTTOM: f64 = 20.0;
    let n = days.len().max(1);
    let max = days.iter().map(|d| d.counts.total()).max().unwrap_or(0);
    let plot_h = H - BOTTOM - 8.0;
    let slot = (W - LEFT) / n as f64;
    let bar_w = (slot * 0.8).max(1.0);
    let scale = if max == 0 { 0.0 } else { plot_h / max as f64 };
    let every = n.div_ceil(10);
    let mut svg = format!(
        "<svg id=\"trend\" width=\"{W}\" height=\"{H}\" viewBox=\"0 0 {W} {H}\" role=\"img\"><title>Decisions per day</title>"
    );
    let base = H - BOTTOM;
    let _ = write!(
        svg,
        "<line class=\"axis\" x1=\"{LEFT}\" y1=\"{base}\" x2=\"{W}\" y2=\"{base}\"/><line class=\"axis\" x1=\"{LEFT}\" y1=\"8\" x2=\"{LEFT}\" y2=\"{base}\"/><text class=\"label\" x=\"{:.1}\" y=\"16\" text-anchor=\"end\">{max}</text><text class=\"label\" x=\"{:.1}\" y=\"{base}\" text-anchor=\"end\">0</text>",
        LEFT - 4.0,
        LEFT - 4.0
    );
    for (i, d) in days.iter().enumerate() {
        let c = &d.counts;
        let x = LEFT + i as f64 * slot + (slot - bar_w) / 2.0;
        let _ = write!(
            svg,
            "<g><title>{}: {} allowed, {} asked, {} denied</title>",
            escape(&d.name),
            c.allow,
            c.ask,
            c.deny
        );
        let mut y = base;
        for (n, class) in [(c.allow, "allow"), (c.ask, "ask"), (c.deny, "deny")] {
            let hgt = n as f64 * scale;
            if hgt > 0.0 {
                y -= hgt;
                let _ = write!(
                    svg,
                    "<rect class=\"{class}\" x=\"{x:.1}\" y=\"{y:.1}\" width=\"{bar_w:.1}\" height=\"{hgt:.1}\"/>"
                );
            }
        }
        svg.push_str("</g>");
        if i % every == 0 {
            let _ = write!(
                svg,
                "<text class=\"label\" x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>",
                x + bar_w / 2.0,
                H - 5.0,
                escape(d.name.get(5..).unwrap_or(&d.name))
            );
        }
    }
    svg.push_str("</svg>\n");
    svg
}

/// A horizontal stacked bar of three counts, in the classes given, `max` wide.
fn bar(parts: [(u64, &str, &str); 3], max: u64) -> String {
    const W: f64 = 240.0;
    let scale = if max == 0 { 0.0 } else { W / max as f64 };
    let label: Vec<String> = parts
        .iter()
        .map(|(n, _, what)| format!("{n} {what}"))
        .collect();
    let mut svg = format!(
        "<svg width=\"{W}\" height=\"14\" viewBox=\"0 0 {W} 14\" role=\"img\"><title>{}</title>",
        label.join(", ")
    );
    let mut x = 0.0;
    for (n, class, _) in &parts {
        let w = *n as f64 * scale;
        if w > 0.0 {
            let _ = write!(
                svg,
                "<rect class=\"{class}\" x=\"{x:.1}\" y=\"1\" width=\"{w:.1}\" height=\"12\"/>"
            );
        }
        x += w;
    }
    svg.push_str("</svg>");
    svg
}

fn counts_section(h: &mut String, id: &str, title: &str, rows: &[Row]) {
    let max = rows.iter().map(|r| r.counts.total()).max().unwrap_or(0);
    let _ = writeln!(
        h,
        "<h2>{}</h2>\n<table id=\"{id}\"><tr><th class=\"name\">{}</th><th>allow</th><th>ask</th><th>deny</th><th></th></tr>",
        escape(title),
        escape(title.trim_start_matches("Per "))
    );
    for r in rows {
        let c = &r.counts;
        let _ = writeln!(
            h,
            "<tr><td class=\"name\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&r.name),
            c.allow,
            c.ask,
            c.deny,
            bar(
                [
                    (c.allow, "allow", "allowed"),
                    (c.ask, "ask", "asked"),
                    (c.deny, "deny", "denied")
                ],
                max
            )
        );
    }
    h.push_str("</table>\n");
}

/// A rule's name with the commands under it, as a list.
fn with_commands(rule: &str, commands: &[Subject]) -> String {
    let mut s = escape(rule);
    if !commands.is_empty() {
        s.push_str("<ul class=\"cmds\">");
        for c in commands {
            let _ = write!(s, "<li>{} × {}</li>", escape(&c.subject), c.times);
        }
        s.push_str("</ul>");
    }
    s
}

fn rules_section(h: &mut String, r: &Report) {
    h.push_str("<h2>Rules that asked most</h2>\n");
    legend(h, "answers-legend", &ANSWERS);
    h.push_str("<table id=\"rules\"><tr><th class=\"name\">rule and the commands it asked about</th><th>asks</th><th>approved</th><th>refused</th><th>pending</th><th>approval</th><th></th></tr>\n");
    for x in r.rules.iter().take(TOP) {
        let a = &x.answers;
        let chart = bar(
            [
                (a.approved, "approved", "approved"),
                (a.pending, "pending", "pending"),
                (a.refused, "refused", "refused or not answered"),
            ],
            x.asks,
        );
        let _ = writeln!(
            h,
            "<tr><td class=\"name\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{chart}</td></tr>",
            with_commands(&x.rule, &x.commands),
            x.asks,
            a.approved,
            a.refused,
            a.pending,
            pct(x.approval_pct)
        );
    }
    h.push_str("</table>\n");
}

fn denials_section(h: &mut String, r: &Report) {
    h.push_str("<h2>Why calls were denied</h2>\n<table id=\"denials\"><tr><th class=\"name\">rule and the commands it denied</th><th>times</th><th class=\"name\">reason</th></tr>\n");
    for x in r.denials.iter().take(TOP) {
        let _ = writeln!(
            h,
            "<tr><td class=\"name\">{}</td><td>{}</td><td class=\"why\">{}</td></tr>",
            with_commands(&x.rule, &x.commands),
            x.times,
            escape(x.reason.as_deref().unwrap_or("-"))
        );
    }
    h.push_str("</table>\n");
}
fn denied_section(h: &mut String, r: &Report) {
    h.push_str("<h2>Most often denied</h2>\n<table id=\"denied\"><tr><th class=\"name\">command</th><th>times</th><th class=\"name\">rule</th></tr>\n");
    for x in r.denied.iter().take(TOP) {
        let _ = writeln!(
            h,
            "<tr><td class=\"name\">{}</td><td>{}</td><td class=\"name\">{}</td></tr>",
            escape(&x.subject),
            x.times,
            escape(&x.rule)
        );
    }
    h.push_str("</table>\n");
}
