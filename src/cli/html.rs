//! The report as one self-contained HTML page: tables and inline SVG bar charts, no
//! scripts, nothing fetched from anywhere.

use std::fmt::Write as _;

use crate::hook::report::{duration, Report, Row, TOP};

const STYLE: &str =
    "body{font-family:system-ui,sans-serif;margin:2em auto;max-width:60em;color:#222}\
table{border-collapse:collapse;margin:.5em 0 1.5em}\
th,td{padding:.2em .7em;text-align:right;border-bottom:1px solid #ddd}\
th.name,td.name{text-align:left}\
td.name{font-family:ui-monospace,monospace;max-width:36em;overflow-wrap:anywhere}\
.allow{fill:#4c9a5b}.ask{fill:#e0a030}.deny{fill:#c0392b}\
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
    h.push_str("<p class=\"legend\"><span style=\"background:#4c9a5b\"></span>allow<span style=\"background:#e0a030\"></span>ask<span style=\"background:#c0392b\"></span>deny</p>\n");
    counts_section(&mut h, "days", "Per day", &r.days);
    rules_section(&mut h, r);
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

/// A horizontal stacked bar of three counts (drawn green, amber, red), `max` wide.
fn bar(parts: [(u64, &str); 3], max: u64) -> String {
    const W: f64 = 240.0;
    let scale = if max == 0 { 0.0 } else { W / max as f64 };
    let label: Vec<String> = parts
        .iter()
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
    let mut svg = format!(
        "<svg width=\"{W}\" height=\"14\" viewBox=\"0 0 {W} 14\" role=\"img\"><title>{}</title>",
        label.join(", ")
    );
    let mut x = 0.0;
    for ((n, _), class) in parts.iter().zip(["allow", "ask", "deny"]) {
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
                [(c.allow, "allowed"), (c.ask, "asked"), (c.deny, "denied")],
                max
            )
        );
    }
    h.push_str("</table>\n");
}

fn rules_section(h: &mut String, r: &Report) {
    h.push_str("<h2>Rules that asked most</h2>\n<table id=\"rules\"><tr><th class=\"name\">rule</th><th>asks</th><th>approved</th><th>refused</th><th>pending</th><th>approval</th><th></th></tr>\n");
    for x in r.rules.iter().take(TOP) {
        let a = &x.answers;
        let chart = bar(
            [
                (a.approved, "approved"),
                (a.pending, "pending"),
                (a.refused, "refused"),
            ],
            x.asks,
        );
        let _ = writeln!(
            h,
            "<tr><td class=\"name\">{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{chart}</td></tr>",
            escape(&x.rule),
            x.asks,
            a.approved,
            a.refused,
            a.pending,
            pct(x.approval_pct)
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
