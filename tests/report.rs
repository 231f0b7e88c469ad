//! `report`, `suggest` and the log's outcome lines and retention, through the real binary:
//! whole sessions of hook events (asks approved and refused, forbidden calls, a
//! subagent), then the figures, the HTML page and the suggested rules, checked exactly.

mod support;

use std::cell::Cell;
use std::path::PathBuf;
use std::process::Command as StdCommand;
use std::time::{Duration, SystemTime};
use support::home;

use assert_cmd::Command;
use serde_json::{json, Value};

struct World {
    home: tempfile::TempDir,
    project: PathBuf,
    next_id: Cell<u32>,
}

/// Who makes a call: the main thread, or a subagent (type, id).
type Agent = Option<(&'static str, &'static str)>;
const EXPLORE: Agent = Some(("Explore", "ag-1"));
const REVIEWER: Agent = Some(("code-reviewer", "ag-2"));

impl World {
    fn new() -> World {
        let (home, project) = home::with_project(&[], &["--description", "d"]);
        World {
            home,
            project,
            next_id: Cell::new(0),
        }
    }

    fn bin(&self) -> Command {
        Command::from_std(home::command(self.home.path()))
    }

    fn state(&self) -> PathBuf {
        self.home.path().join(".claude/state/programmer")
    }

    fn send(&self, session: &str, agent: Agent, mut ev: Value) -> Value {
        ev["session_id"] = json!(session);
        ev["cwd"] = json!(self.project);
        if let Some((t, id)) = agent {
            ev["agent_type"] = json!(t);
            ev["agent_id"] = json!(id);
        }
        let out = self
            .bin()
            .arg("hook")
            .write_stdin(ev.to_string())
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(0), "{ev}");
        serde_json::from_slice(&out.stdout).expect("JSON answer")
    }

    /// A Bash call asked for; returns its decision and its call id.
    fn pre(&self, session: &str, agent: Agent, cmd: &str) -> (String, String) {
        self.next_id.set(self.next_id.get() + 1);
        let id = format!("toolu_{}", self.next_id.get());
        let v = self.send(
            session,
            agent,
            json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
                   "tool_input": {"command": cmd}, "tool_use_id": id}),
        );
        let d = v["hookSpecificOutput"]["permissionDecision"]
            .as_str()
            .unwrap_or("")
            .to_string();
        (d, id)
    }

    /// The call ran (it failed when `ok` is false).
    fn ran(&self, session: &str, agent: Agent, cmd: &str, id: &str, ok: bool) {
        let name = if ok {
            "PostToolUse"
        } else {
            "PostToolUseFailure"
        };
        let v = self.send(
            session,
            agent,
            json!({"hook_event_name": name, "tool_name": "Bash", "tool_input": {"command": cmd},
                   "tool_use_id": id, "tool_response": {"stdout": ""}, "error": "Exit code 1"}),
        );
        assert!(v.get("systemMessage").is_none(), "{v}");
    }

    /// A call that was asked about and approved.
    fn approved(&self, session: &str, agent: Agent, cmd: &str) {
        let (d, id) = self.pre(session, agent, cmd);
        assert_eq!(d, "ask", "{cmd}");
        self.ran(session, agent, cmd, &id, true);
    }

    fn expect(&self, session: &str, agent: Agent, cmd: &str, want: &str) {
        let (d, _) = self.pre(session, agent, cmd);
        assert_eq!(d, want, "{cmd}");
    }

    fn prompt(&self, session: &str) {
        self.send(
            session,
            None,
            json!({"hook_event_name": "UserPromptSubmit", "prompt": "next"}),
        );
    }

    fn run(&self, args: &[&str]) -> (i32, String, String) {
        let out = self.bin().args(args).output().expect("runs");
        (
            out.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    }

    fn report_json(&self, args: &[&str]) -> Value {
        let mut all = vec!["report", "--json"];
        all.extend(args);
        let (code, out, err) = self.run(&all);
        assert_eq!(code, 0, "{err}");
        serde_json::from_str(&out).expect("report JSON")
    }

    /// Two sessions: the main thread's asks approved (one of them a failing run) and
    /// refused at the next prompt, a forbidden call; a subagent's calls; a refusal at
    /// `Stop`; an ask still open.
    fn week(&self) {
        self.expect("s1", None, "git status", "allow");
        self.approved("s1", None, "cargo test");
        let (_, id) = self.pre("s1", None, "cargo test");
        self.ran("s1", None, "cargo test", &id, false);
        self.approved("s1", None, "cargo test 2>&1 | tail -5");
        self.expect("s1", None, "rm -rf /", "deny");
        self.expect("s1", None, "npm install", "ask");
        self.prompt("s1");
        self.approved("s1", None, "cargo test");
        self.prompt("s1");
        self.expect("s2", EXPLORE, "ls -la", "allow");
        self.approved("s2", EXPLORE, "cargo test");
        self.expect("s2", EXPLORE, "rm -rf /", "deny");
        self.expect("s2", None, "cargo build --release", "ask");
        self.send(
            "s2",
            None,
            json!({"hook_event_name": "Stop", "stop_hook_active": false}),
        );
        self.expect("s2", None, "make", "ask");
    }
}

fn counts(v: &Value) -> (u64, u64, u64) {
    let n = |k: &str| v[k].as_u64().unwrap_or(u64::MAX);
    (n("allow"), n("ask"), n("deny"))
}

#[test]
fn the_report_counts_what_was_decided_and_answered() {
    let w = World::new();
    w.week();
    let r = w.report_json(&[]);
    assert_eq!(counts(&r["totals"]), (2, 8, 2), "{r}");
    assert_eq!(
        r["answers"],
        json!({"approved": 5, "refused": 2, "pending": 1})
    );
    assert_eq!(r["approval_pct"], 71);
    assert_eq!(r["relaxed"], 0);
    assert_eq!(
        r["rules"],
        json!([
            {"rule": "build.run", "asks": 7, "approved": 5, "refused": 1, "pending": 1, "approval_pct": 83,
             "commands": [
                {"subject": "cargo test", "times": 4},
                {"subject": "cargo build --release", "times": 1},
                {"subject": "cargo test 2>&1 | tail -5", "times": 1},
                {"subject": "make", "times": 1},
             ]},
            {"rule": "pkg.install-runs-code", "asks": 1, "approved": 0, "refused": 1, "pending": 0, "approval_pct": 0,
             "commands": [{"subject": "npm install", "times": 1}]},
        ])
    );
    // Why calls were denied: the rule's reason from the policy, and what it denied.
    let reason = w
        .run(&["policy", "show", "--json", "--id", "fs.rm-broad"])
        .1;
    let reason: Value = serde_json::from_str(&reason).expect("policy show --json");
    let reason = reason["rules"][0]["reason"].clone();
    assert!(reason.is_string(), "{reason}");
    assert_eq!(
        r["denials"],
        json!([{"rule": "fs.rm-broad", "times": 2, "reason": reason,
                "commands": [{"subject": "rm -rf /", "times": 2}]}])
    );
    assert_eq!(
        r["denied"],
        json!([{"subject": "rm -rf /", "rule": "fs.rm-broad", "times": 2}])
    );
    assert_eq!(
        r["agents"],
        json!([
            {"name": "main", "allow": 1, "ask": 7, "deny": 1},
            {"name": "Explore", "allow": 1, "ask": 1, "deny": 1},
        ])
    );
    assert_eq!(
        r["phases"],
        json!([{"name": "none", "allow": 2, "ask": 8, "deny": 2}])
    );
    // The last 7 days are 7 dates, today the last, each listed (those without a call too).
    let days = r["days"].as_array().expect("days");
    assert_eq!(days.len(), 7, "{r}");
    let today = chrono::Utc::now().date_naive();
    let dates: Vec<String> = (0..7)
        .rev()
        .map(|back| {
            (today - chrono::Duration::days(back))
                .format("%Y-%m-%d")
                .to_string()
        })
        .collect();
    let names: Vec<&str> = days.iter().filter_map(|d| d["name"].as_str()).collect();
    assert_eq!(names, dates);
    assert_eq!(r["from"], json!(dates[0]));
    let sum = days
        .iter()
        .map(counts)
        .fold((0, 0, 0), |a, c| (a.0 + c.0, a.1 + c.1, a.2 + c.2));
    assert_eq!(sum, (2, 8, 2));
    let l = &r["latency"];
    assert_eq!(l["calls"], 12);
    assert!(l["median_us"].as_u64() <= l["p99_us"].as_u64(), "{l}");

    // Filters: one session, one project.
    let s2 = w.report_json(&["--session", "s2"]);
    assert_eq!(counts(&s2["totals"]), (1, 3, 1));
    assert_eq!(
        s2["answers"],
        json!({"approved": 1, "refused": 1, "pending": 1})
    );
    assert_eq!(w.report_json(&["--project", "demo"])["totals"], r["totals"]);
    let none = w.report_json(&["--since", "2999-01-01", "--session", "s1"]);
    assert_eq!(counts(&none["totals"]), (0, 0, 0));

    // The table says the same.
    let (code, text, _) = w.run(&["report"]);
    assert_eq!(code, 0);
    assert!(
        text.contains("12 calls, 2 allowed, 8 asked, 2 denied"),
        "{text}"
    );
    assert!(
        text.contains("5 approved, 2 refused or not answered, 1 pending (approval 71%)"),
        "{text}"
    );
    let rule_line = text
        .lines()
        .find(|l| l.starts_with("build.run"))
        .expect("rule row");
    let cells: Vec<&str> = rule_line.split_whitespace().collect();
    assert_eq!(
        cells[..6],
        ["build.run", "7", "5", "1", "1", "83%"],
        "{text}"
    );
}

/// Parses an HTML page with Python's `html.parser`: every element closed in order, no
/// script, no attribute that fetches or runs anything; the cells of each table by id.
const HTML_CHECK: &str = r#"
import json, sys
from html.parser import HTMLParser
VOID = {"meta", "br", "hr", "img", "input", "link", "col", "wbr"}
class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors, self.tables = [], [], {}
        self.table = self.row = self.cell = None
        self.svg = 0
    def handle_starttag(self, tag, attrs):
        if tag in ("script", "iframe", "object", "embed", "link", "img", "base"):
            self.errors.append("element " + tag)
        for k, v in attrs:
            if k.startswith("on") or k in ("src", "href", "srcset", "action", "xlink:href"):
                self.errors.append("attribute " + k)
        if tag not in VOID:
            self.stack.append(tag)
        if tag == "svg":
            self.svg += 1
        elif tag == "table":
            self.table = dict(attrs).get("id")
            self.tables[self.table] = []
        elif tag == "tr":
            self.row = []
        elif tag in ("td", "th"):
            self.cell = ""
    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append("</%s> closes %s" % (tag, self.stack[-1:]))
            return
        self.stack.pop()
        if tag == "svg":
            self.svg -= 1
        elif tag in ("td", "th"):
            self.row.append(self.cell.strip())
            self.cell = None
        elif tag == "tr":
            self.tables[self.table].append(self.row)
        elif tag == "table":
            self.table = None
    def handle_data(self, data):
        if self.cell is not None and self.svg == 0:
            self.cell += data
    def handle_decl(self, decl):
        self.doctype = decl
text = sys.stdin.read()
p = Page()
p.feed(text)
p.close()
if p.stack:
    p.errors.append("not closed: " + " ".join(p.stack))
if getattr(p, "doctype", "").lower() != "doctype html":
    p.errors.append("no <!DOCTYPE html>")
print(json.dumps({"errors": p.errors, "tables": p.tables}))
"#;

fn parse_html(path: &std::path::Path) -> Value {
    let page = std::fs::read(path).expect("page");
    let mut child = StdCommand::new("python3")
        .args(["-c", HTML_CHECK])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("python3 is needed to check the HTML page");
    use std::io::Write;
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(&page)
        .expect("write");
    let out = child.wait_with_output().expect("python3 runs");
    assert!(out.status.success());
    serde_json::from_slice(&out.stdout).expect("checker JSON")
}

#[test]
fn the_html_page_is_well_formed_and_holds_the_same_figures() {
    let w = World::new();
    w.week();
    let page = w.home.path().join("report.html");
    let (code, out, err) = w.run(&["report", "--html", page.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("report written to"), "{out}");
    let r = w.report_json(&[]);
    let html = parse_html(&page);
    assert_eq!(html["errors"], json!([]), "{html}");
    let t = &html["tables"];
    let n = |v: &Value| v.to_string();
    let (a, tot) = (&r["answers"], &r["totals"]);
    assert_eq!(
        t["totals"][1],
        json!([
            "12",
            n(&tot["allow"]),
            n(&tot["ask"]),
            n(&tot["deny"]),
            n(&a["approved"]),
            n(&a["refused"]),
            n(&a["pending"]),
            "71%",
            "0"
        ])
    );
    let rows = |id: &str| t[id].as_array().expect(id)[1..].to_vec();
    let rules: Vec<Value> = r["rules"]
        .as_array()
        .expect("rules")
        .iter()
        .map(|x| {
            // The rule's name, then the commands under it.
            let commands: String = x["commands"]
                .as_array()
                .expect("commands")
                .iter()
                .map(|c| format!("{} × {}", c["subject"].as_str().unwrap_or(""), c["times"]))
                .collect();
            json!([
                format!("{}{commands}", x["rule"].as_str().unwrap_or("")),
                n(&x["asks"]),
                n(&x["approved"]),
                n(&x["refused"]),
                n(&x["pending"]),
                format!("{}%", x["approval_pct"]),
                ""
            ])
        })
        .collect();
    assert_eq!(rows("rules"), rules);
    for id in ["agents", "phases"] {
        let want: Vec<Value> = r[id]
            .as_array()
            .expect(id)
            .iter()
            .map(|x| {
                json!([
                    x["name"].as_str(),
                    n(&x["allow"]),
                    n(&x["ask"]),
                    n(&x["deny"]),
                    ""
                ])
            })
            .collect();
        assert_eq!(rows(id), want, "{id}");
    }
    assert_eq!(rows("denied"), [json!(["rm -rf /", "2", "fs.rm-broad"])]);
    let reason = r["denials"][0]["reason"].as_str().expect("a reason");
    assert_eq!(
        rows("denials"),
        [json!([
            "fs.rm-broad".to_string() + "rm -rf / × 2",
            "2",
            reason
        ])]
    );
    // The days are a chart, not a table: one column a day.
    assert!(t.get("days").is_none(), "{t}");
    let text = std::fs::read_to_string(&page).expect("page");
    let chart = text
        .split_once("<svg id=\"trend\"")
        .and_then(|(_, rest)| rest.split_once("</svg>"))
        .map(|(chart, _)| chart)
        .expect("the chart of the days");
    let days = r["days"].as_array().expect("days");
    assert_eq!(chart.matches("<g><title>").count(), days.len(), "{chart}");
    for d in days {
        let title = format!(
            "<g><title>{}: {} allowed, {} asked, {} denied</title>",
            d["name"].as_str().unwrap_or(""),
            d["allow"],
            d["ask"],
            d["deny"]
        );
        assert!(chart.contains(&title), "{title}: {chart}");
    }
    // Each legend names the classes its bars are drawn in.
    for (legend, classes) in [
        ("decisions-legend", ["allow", "ask", "deny"]),
        ("answers-legend", ["approved", "pending", "refused"]),
    ] {
        let (_, rest) = text.split_once(&format!("id=\"{legend}\">")).expect(legend);
        let (swatches, _) = rest.split_once("</p>").expect(legend);
        for c in classes {
            assert!(
                swatches.contains(&format!("<span class=\"{c}\">")),
                "{legend}: {swatches}"
            );
        }
    }
    let rules_table = text.split_once("id=\"rules\"").expect("rules").1;
    let rules_table = rules_table.split_once("</table>").expect("rules").0;
    for c in ["approved", "pending", "refused"] {
        assert!(
            rules_table.contains(&format!("class=\"{c}\"")),
            "{rules_table}"
        );
    }
    for c in ["allow", "ask", "deny"] {
        assert!(
            !rules_table.contains(&format!("class=\"{c}\"")),
            "{rules_table}"
        );
    }
    assert_eq!(rows("latency")[0][0], "12");
}

const CARGO_TEST_RULE: &str = r#"# cargo test: approved 5 times, refused 0 times
[[rule]]
id = "user.cargo-test"
tier = "safe"
reason = "approved 5 times when asked (suggested by `programmer-hook suggest`)"
command = ["cargo"]
subcommand = ["test"]
line_regex = '^cargo test$'
match = ["cargo test", "cargo test 2>&1 | tail -5"]
not_match = ["cargo publish", "cargo install --git https://github.com/x/y", "cargo install --git=git@github.com:x/y.git"]
"#;

#[test]
fn suggest_proposes_a_rule_for_what_keeps_being_approved_and_applies_it() {
    let w = World::new();
    w.week();
    let policy = w.state().join("policy.toml");
    let (code, out, err) = w.run(&["suggest"]);
    assert_eq!(code, 0, "{err}");
    let want = format!(
        "# 1 rules for {} (from commands approved at least 3 times)\n\n{CARGO_TEST_RULE}\n\
         # With these rules, the last 7 days of the log (12 calls) would have asked 3 times instead of 8 (5 fewer); 2 denials, none decided otherwise.\n\
         # Add them with `programmer-hook suggest --apply`.\n",
        policy.display()
    );
    assert_eq!(out, want);
    // Nothing is approved six times.
    let (_, out, _) = w.run(&["suggest", "--min", "6"]);
    assert!(out.starts_with("# No rule to suggest"), "{out}");
    assert!(!policy.exists());

    // Applied to an existing user policy: kept as a backup, the rule added.
    let mine = "[[rule]]\nid = \"mine.frob\"\ntier = \"forbidden\"\nreason = \"no\"\ncommand = [\"frob\"]\n";
    std::fs::write(&policy, mine).expect("policy");
    let (code, out, err) = w.run(&["suggest", "--apply"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("# Under the new rules, the last 7 days of the log (12 calls) would have asked 3 times instead of 8 (5 fewer); 2 denials, none decided otherwise."), "{out}");
    assert!(out.contains("# Wrote 1 rules to"), "{out}");
    let text = std::fs::read_to_string(&policy).expect("policy");
    assert!(text.starts_with(mine), "{text}");
    assert!(text.ends_with(CARGO_TEST_RULE), "{text}");
    let backups: Vec<_> = std::fs::read_dir(w.state())
        .expect("state")
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with("policy.toml.bak-")
        })
        .collect();
    assert_eq!(backups.len(), 1);
    assert_eq!(
        std::fs::read_to_string(backups[0].path()).expect("backup"),
        mine
    );
    let (code, out, _) = w.run(&["policy", "test", policy.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{out}");

    // The hook now allows it, and still asks about its neighbours.
    w.expect("s3", None, "cargo test", "allow");
    w.expect("s3", None, "cargo test --release", "ask");
    w.expect("s3", None, "cargo publish", "ask");
    let (_, out, _) = w.run(&["suggest"]);
    assert!(out.starts_with("# No rule to suggest"), "{out}");
}

#[test]
fn suggest_never_lets_a_denied_call_through() {
    let w = World::new();
    for _ in 0..3 {
        w.approved("s1", None, "cargo test");
    }
    // The reviewer runs only Safe commands: a Safe rule for `cargo test` would let it run.
    w.expect("s1", REVIEWER, "cargo test", "deny");
    w.expect("s1", None, "cargo publish", "ask");
    w.prompt("s1");
    let (code, out, err) = w.run(&["suggest"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        "# No rule to suggest: no command was approved 3 times or more with the same shape.\n\
         # not suggested: `cargo test` (approved 3 times): it would change how a denied call was decided: `cargo test`\n"
    );
    // A shape refused too often is left out too; so is a path outside the folder.
    for _ in 0..3 {
        w.approved("s2", None, "make build");
        w.approved(
            "s2",
            None,
            "cargo test --manifest-path /elsewhere/Cargo.toml",
        );
    }
    w.expect("s2", None, "make build", "ask");
    w.prompt("s2");
    let (_, out, _) = w.run(&["suggest"]);
    assert!(
        out.contains(
            "# not suggested: `make build` (approved 3 times): it was also refused 1 times"
        ),
        "{out}"
    );
    assert!(out.contains("# not suggested: `cargo test --manifest-path /elsewhere/Cargo.toml` (approved 3 times): it names a path outside the folder it ran in"), "{out}");
}

fn set_mtime(path: &std::path::Path, ago: Duration) {
    let f = std::fs::File::open(path).expect("open");
    f.set_modified(SystemTime::now() - ago).expect("mtime");
}

#[test]
fn old_days_are_removed_by_the_hook_at_most_once_a_day() {
    let w = World::new();
    let audit = w.state().join("audit");
    std::fs::create_dir_all(&audit).expect("mkdir");
    let today = chrono::Utc::now().date_naive();
    let day = |n: u64| {
        format!(
            "{}.jsonl",
            (today - chrono::Days::new(n)).format("%Y-%m-%d")
        )
    };
    for n in [31, 29, 10] {
        std::fs::write(audit.join(day(n)), "").expect("old day");
    }
    let stale = w.state().join("audit-asks/old-session");
    std::fs::create_dir_all(&stale).expect("mkdir");
    std::fs::write(stale.join("toolu_old"), "").expect("marker");
    set_mtime(&stale, Duration::from_secs(2 * 86_400));
    w.expect("s1", None, "git status", "allow");
    assert!(!audit.join(day(31)).exists());
    assert!(audit.join(day(29)).exists() && audit.join(day(10)).exists());
    assert!(
        !stale.exists(),
        "the marker of an ask untouched for a day stays"
    );

    // Within a day nothing more is removed, even with a shorter retention.
    std::fs::write(
        w.state().join("policy.toml"),
        "[workflow]\nlog_retention_days = 5\n",
    )
    .expect("policy");
    w.expect("s1", None, "git status", "allow");
    assert!(audit.join(day(10)).exists());
    set_mtime(
        &w.state().join("audit-swept"),
        Duration::from_secs(25 * 3600),
    );
    w.expect("s1", None, "git status", "allow");
    assert!(!audit.join(day(29)).exists() && !audit.join(day(10)).exists());
    assert!(audit.join(day(0)).exists());
}

#[test]
fn the_log_reads_past_outcome_lines_and_errors_are_clear() {
    let w = World::new();
    w.week();
    let (code, out, err) = w.run(&["log", "--json", "-n", "100"]);
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 12);
    assert!(err.is_empty(), "{err}");
    let bad: &[(&[&str], i32, &str)] = &[
        (
            &["report", "--since", "7x"],
            2,
            "--since \"7x\": not a duration or a day",
        ),
        (
            &["report", "--since", "2026-02-30"],
            2,
            "not a day of the form YYYY-MM-DD",
        ),
        (
            &["suggest", "--since", "0d"],
            2,
            "the duration must be at least 1",
        ),
        (
            &["report", "--project", "nope"],
            1,
            "no such project in the log or among the registered ones (registered: demo)",
        ),
        (&["report", "--bogus"], 2, "unexpected argument '--bogus'"),
        (
            &["report", "--session", "nobody"],
            1,
            "no session \"nobody\" is known",
        ),
        (
            &["suggest", "--min", "0"],
            2,
            "expected a whole number of times, at least 1",
        ),
    ];
    for (args, want_code, want) in bad {
        let (code, _, err) = w.run(args);
        assert_eq!(code, *want_code, "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

#[test]
fn a_failure_to_record_an_outcome_never_changes_a_decision() {
    let w = World::new();
    // The markers' folder cannot be made: the ask stands, and the user is told.
    std::fs::create_dir_all(w.state()).expect("state");
    std::fs::write(w.state().join("audit-asks"), "").expect("a file in the way");
    let v = w.send(
        "s1",
        None,
        json!({"hook_event_name": "PreToolUse", "tool_name": "Bash",
               "tool_input": {"command": "cargo test"}, "tool_use_id": "toolu_x"}),
    );
    assert_eq!(v["hookSpecificOutput"]["permissionDecision"], "ask", "{v}");
    let m = v["systemMessage"].as_str().unwrap_or("");
    assert!(
        m.contains("whether you approve this call cannot be recorded"),
        "{v}"
    );
    // A call that was asked about ran, but its outcome line cannot be written.
    std::fs::remove_file(w.state().join("audit-asks")).expect("rm");
    let (d, id) = w.pre("s1", None, "cargo test");
    assert_eq!(d, "ask");
    // Another stays open until the next prompt, which cannot write its line either.
    assert_eq!(w.pre("s1", None, "npm install").0, "ask");
    let audit = w.state().join("audit");
    std::fs::rename(&audit, w.state().join("audit.kept")).expect("move the log");
    std::fs::write(&audit, "").expect("a file in the way");
    for ev in [
        json!({"hook_event_name": "PostToolUse", "tool_name": "Bash",
               "tool_input": {"command": "cargo test"}, "tool_use_id": id, "tool_response": {}}),
        json!({"hook_event_name": "UserPromptSubmit", "prompt": "next"}),
    ] {
        let out = w
            .bin()
            .arg("hook")
            .write_stdin({
                let mut ev = ev.clone();
                ev["session_id"] = json!("s1");
                ev["cwd"] = json!(w.project);
                ev.to_string()
            })
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(0), "{ev}");
        let v: Value = serde_json::from_slice(&out.stdout).expect("JSON");
        let m = v["systemMessage"].as_str().unwrap_or("");
        assert!(
            m.contains("could not record in the audit log what became of the calls asked about"),
            "{ev}: {v}"
        );
    }
}

#[test]
fn report_by_the_folder_of_an_unregistered_project() {
    let w = World::new();
    let tools = w.home.path().join("scratch/tools");
    std::fs::create_dir_all(&tools).expect("mkdir");
    w.expect("s1", None, "git status", "allow");
    let ev = json!({"session_id": "s1", "cwd": tools, "hook_event_name": "PreToolUse",
                    "tool_name": "Bash", "tool_input": {"command": "ls"}, "tool_use_id": "x"});
    let out = w
        .bin()
        .arg("hook")
        .write_stdin(ev.to_string())
        .output()
        .expect("runs");
    assert!(out.status.success());
    assert_eq!(
        counts(&w.report_json(&["--project", "tools"])["totals"]),
        (1, 0, 0)
    );
    assert_eq!(
        counts(&w.report_json(&["--project", "demo"])["totals"]),
        (1, 0, 0)
    );
}

#[test]
fn apply_refuses_rules_that_would_change_a_denial_of_the_last_week() {
    let w = World::new();
    // Two days ago the reviewer was denied `cargo test`; today the user approves it.
    let then = chrono::Utc::now() - chrono::Duration::days(2);
    let day = then.format("%Y-%m-%d").to_string();
    let audit = w.state().join("audit");
    std::fs::create_dir_all(&audit).expect("mkdir");
    let line = json!({"time": then.to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        "session": "old", "agent": "code-reviewer", "event": "PreToolUse", "tool": "Bash",
        "decision": "deny", "tier": "Forbidden", "rule": "role.read-only-commands",
        "relaxable": false, "subject": "cargo test", "cwd": w.project});
    std::fs::write(audit.join(format!("{day}.jsonl")), format!("{line}\n")).expect("log");
    for _ in 0..3 {
        w.approved("s1", None, "cargo test");
    }
    let (code, out, err) = w.run(&["suggest", "--since", "1d", "--apply"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("id = \"user.cargo-test\""), "{out}");
    assert!(out.contains("1 denials, 1 decided otherwise"), "{out}");
    assert!(err.contains("the rules were not written: under them these denied calls would be decided otherwise: cargo test"), "{err}");
    assert!(!w.state().join("policy.toml").exists());
}

/// The browser for the page: `$CHROMIUM`, else `chromium` or `chromium-browser` on PATH;
/// `None` after a loud SKIPPED line (it fails under CI, which installs it).
fn chromium() -> Option<PathBuf> {
    let found = std::env::var_os("CHROMIUM").map(PathBuf::from).or_else(|| {
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
            .flat_map(|d| [d.join("chromium"), d.join("chromium-browser")])
            .find(|p| p.is_file())
    });
    if found.is_none() {
        support::skip::fail_under_ci("chromium is not installed");
        support::skip::skipped(
            "the HTML report in a browser: chromium is not installed (apt-get install chromium)",
            None,
        );
    }
    found
}

/// Runs headless chromium on the page with `args`, in a fresh profile, for at most a
/// minute; its standard output.
fn in_browser(browser: &std::path::Path, page: &std::path::Path, args: &[String]) -> Vec<u8> {
    let profile = tempfile::tempdir().expect("profile");
    let mut child = StdCommand::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .args(args)
        .arg(format!("file://{}", page.display()))
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("chromium starts");
    let mut out = child.stdout.take().expect("stdout");
    let reader = std::thread::spawn(move || {
        let mut buf = Vec::new();
        let _ = std::io::Read::read_to_end(&mut out, &mut buf);
        buf
    });
    let start = std::time::Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            assert!(status.success(), "chromium {args:?}: {status}");
            break;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("chromium {args:?} did not finish in a minute");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    reader.join().expect("reader")
}

/// The page as a person sees it, in a real browser: a screenshot that is not blank and
/// shows the decisions' colours (the chart, the bars and their legends), and the headings a
/// person looks for in the DOM the browser built.
#[test]
fn the_html_page_renders_in_a_browser() {
    let Some(browser) = chromium() else {
        return;
    };
    let w = World::new();
    w.week();
    let page = w.home.path().join("report.html");
    let (code, _, err) = w.run(&["report", "--html", page.to_str().expect("utf-8")]);
    assert_eq!(code, 0, "{err}");

    let png_path = w.home.path().join("report.png");
    in_browser(
        &browser,
        &page,
        &[
            format!("--screenshot={}", png_path.display()),
            "--window-size=1200,2000".to_string(),
        ],
    );
    let decoder = png::Decoder::new(std::fs::File::open(&png_path).expect("screenshot"));
    let mut reader = decoder.read_info().expect("a PNG");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("a frame");
    assert_eq!((info.width, info.height), (1200, 2000));
    let channels = info.color_type.samples();
    assert!(channels >= 3, "{:?}", info.color_type);
    let pixels: Vec<[u8; 3]> = buf[..info.buffer_size()]
        .chunks(channels)
        .map(|p| [p[0], p[1], p[2]])
        .collect();
    let white = pixels.iter().filter(|p| **p == [255, 255, 255]).count();
    let inked = pixels.len() - white;
    assert!(
        inked * 100 > pixels.len(),
        "the screenshot is blank: {inked} of {} pixels are not white",
        pixels.len()
    );
    // The colours of allow, ask and deny (the chart and the bars), and of pending.
    for (name, rgb) in [
        ("allow", [0x4c, 0x9a, 0x5b]),
        ("ask", [0xe0, 0xa0, 0x30]),
        ("deny", [0xc0, 0x39, 0x2b]),
        ("pending", [0x9a, 0xa0, 0xa6]),
    ] {
        let n = pixels.iter().filter(|p| **p == rgb).count();
        assert!(n > 50, "{name}: {n} pixels of its colour");
    }

    let dom = String::from_utf8(in_browser(&browser, &page, &["--dump-dom".to_string()]))
        .expect("the DOM as UTF-8");
    for heading in [
        "<h1>programmer-hook: decisions from ",
        "<h2>Decisions per day</h2>",
        "<h2>Rules that asked most</h2>",
        "<h2>Why calls were denied</h2>",
        "<h2>Most often denied</h2>",
        "<h2>Per agent</h2>",
        "<h2>Per phase</h2>",
        "<h2>Hook latency</h2>",
    ] {
        assert!(dom.contains(heading), "{heading}: {dom}");
    }
    assert!(dom.contains("<svg id=\"trend\""), "{dom}");
    assert!(dom.contains("rm -rf / × 2"), "{dom}");
}

/// A managed rule that asks about what keeps being approved: `suggest` judges the log
/// under it, where a rule of the user's would change nothing, so it suggests none.
#[test]
fn suggest_replays_under_the_managed_policy() {
    let w = World::new();
    w.week();
    let managed = w.home.path().join("managed");
    std::fs::create_dir_all(&managed).expect("managed folder");
    std::fs::write(
        managed.join("programmer-hook.toml"),
        "[[rule]]\nid = \"team.ask-tests\"\ntier = \"confirm\"\nreason = \"the team asks\"\ncommand = \"cargo\"\nsubcommand = \"test\"\n",
    )
    .expect("managed file");
    let (code, out, err) = w.run(&["suggest"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("# No rule to suggest"), "{out}");
}
