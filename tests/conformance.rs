//! Peer conformance: every case in `../shared/conformance/*.jsonl` or
//! `$PEER_CONFORMANCE_DIR/*.jsonl` (public test cases of other policy hooks) run through our
//! classifier; without them the test says SKIPPED loudly.
//!
//! A disagreement is an allow where the case expects `not-allow`, or a deny where it
//! expects `not-deny` or `allow-preferred`. Each disagreement must be listed, with a
//! one-line reason why our verdict is right, in `tests/conformance-disagreements.txt`; the
//! test fails on any other, so the list only shrinks. An ask on an `allow-preferred` case
//! is friction, reported as the share of those cases we allow.
//!
//! Every case we deny is also sent through the real binary in a session whose autonomy is
//! `auto`, where it must be denied too. The `not-allow` cases that autonomy `auto` would
//! let run (a relaxable Confirm verdict) are counted and reported.

mod support;

use support::sessions;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use programmer_hook::engine::examples::run_example;
use programmer_hook::engine::policy::Policy;
use programmer_hook::engine::shell::cost::estimate;
use programmer_hook::engine::shell::MAX_PARSE_COST;
use programmer_hook::hook::decision_word;

/// Where the peer cases are: `$PEER_CONFORMANCE_DIR`, else `../shared/conformance` beside
/// the checkout. They are other projects' test data, under their own licences, so they are
/// not carried in this repository.
fn corpus_path() -> PathBuf {
    match std::env::var_os("PEER_CONFORMANCE_DIR") {
        Some(d) => PathBuf::from(d),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance"),
    }
}

/// The folder of peer cases, or `None` after a loud SKIPPED line (straight to the
/// process's stderr, which libtest does not capture, so it is seen on a passing run too).
fn corpus_dir() -> Option<PathBuf> {
    let dir = corpus_path();
    if dir.is_dir() {
        return Some(dir);
    }
    support::skip::skipped(
        &format!("peer conformance: no peer cases at {}", dir.display()),
        Some("set PEER_CONFORMANCE_DIR to a folder of *.jsonl cases"),
    );
    None
}

/// `peer<TAB>command` lines of known, justified disagreements (commands JSON-escaped).
fn known_disagreements() -> BTreeSet<(String, String)> {
    let path =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/conformance-disagreements.txt");
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let mut parts = l.splitn(3, '\t');
            let peer = parts.next()?.to_string();
            let cmd: String = serde_json::from_str(parts.next()?).ok()?;
            Some((peer, cmd))
        })
        .collect()
}

#[derive(Default)]
struct Tally {
    cases: usize,
    agree: usize,
    disagree: usize,
    allow_preferred: usize,
    allowed: usize,
    /// `not-allow` cases that autonomy `auto` lets run (relaxable Confirm).
    relaxed: usize,
}

#[test]
fn peer_conformance() {
    let Some(dir) = corpus_dir() else {
        return;
    };
    let policy = Policy::builtin().expect("default policy");
    let known = known_disagreements();
    let mut tallies: BTreeMap<String, Tally> = BTreeMap::new();
    let mut unexpected = Vec::new();
    let mut still_listed = BTreeSet::new();
    let mut max_cost = 0;
    let mut denied = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("read corpus dir")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("read corpus file");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let case: serde_json::Value = serde_json::from_str(line).expect("corpus line is JSON");
            let cmd = case["cmd"].as_str().expect("cmd").to_string();
            let peer = case["peer"].as_str().expect("peer").to_string();
            let expect = case["expect"].as_str().expect("expect").to_string();
            let d = run_example(&policy, &cmd).expect("classifies");
            let got = decision_word(d.verdict.tier);
            // Everyday and hostile commands alike are far inside the parsing budget, so
            // each is judged part by part.
            let cost = estimate(&cmd, usize::MAX);
            max_cost = max_cost.max(cost);
            assert!(
                cost * 10 < MAX_PARSE_COST,
                "{peer} case costs {cost} of the {MAX_PARSE_COST} parsing budget: {cmd:?}"
            );
            let t = tallies.entry(peer.clone()).or_default();
            t.cases += 1;
            if got == "deny" {
                denied.push(cmd.clone());
            }
            if expect == "not-allow" && d.verdict.relaxable {
                t.relaxed += 1;
            }
            let disagrees = match expect.as_str() {
                "not-allow" => got == "allow",
                "not-deny" => got == "deny",
                "allow-preferred" => {
                    t.allow_preferred += 1;
                    if got == "allow" {
                        t.allowed += 1;
                    }
                    got == "deny"
                }
                other => panic!("unknown expect {other}"),
            };
            if disagrees {
                t.disagree += 1;
                let key = (peer.clone(), cmd.clone());
                if known.contains(&key) {
                    still_listed.insert(key);
                } else {
                    unexpected.push(format!(
                        "{peer}\t{}\t{expect}, we say {got} ({})",
                        serde_json::to_string(&cmd).expect("json"),
                        d.verdict.rule
                    ));
                }
            } else {
                t.agree += 1;
            }
        }
    }
    eprintln!("peer conformance (disagreements listed in tests/conformance-disagreements.txt):");
    eprintln!(
        "{:<8} {:>6} {:>7} {:>9} {:>22} {:>26}",
        "peer",
        "cases",
        "agree",
        "disagree",
        "allow-preferred allowed",
        "not-allow relaxable (auto)"
    );
    for (peer, t) in &tallies {
        let share = if t.allow_preferred > 0 {
            format!(
                "{}/{} ({:.1}%)",
                t.allowed,
                t.allow_preferred,
                100.0 * t.allowed as f64 / t.allow_preferred as f64
            )
        } else {
            "-".into()
        };
        eprintln!(
            "{peer:<8} {:>6} {:>7} {:>9} {:>22} {:>26}",
            t.cases, t.agree, t.disagree, share, t.relaxed
        );
    }
    eprintln!("largest estimated parsing cost of a case: {max_cost} of {MAX_PARSE_COST}");
    let not_denied = sessions::not_denied_in_auto_where_denied_here(&denied);
    eprintln!(
        "{} denied cases sent through the binary in an autonomy-auto session",
        denied.len()
    );
    assert!(
        not_denied.is_empty(),
        "{} cases denied by default are not denied under autonomy auto:\n{}",
        not_denied.len(),
        not_denied.join("\n")
    );
    let stale: Vec<_> = known.difference(&still_listed).collect();
    assert!(
        stale.is_empty(),
        "these listed disagreements no longer happen; remove them from the list: {stale:?}"
    );
    assert!(
        unexpected.is_empty(),
        "{} disagreements not in tests/conformance-disagreements.txt (fix them, or list them with a reason):\n{}",
        unexpected.len(),
        unexpected.join("\n")
    );
}

/// Without the peer cases the test passes, but says so loudly: run as a child process
/// (whose output libtest captures), its SKIPPED line still reaches stderr.
#[test]
fn a_missing_corpus_is_skipped_loudly() {
    let out = std::process::Command::new(std::env::current_exe().expect("this test binary"))
        .args(["--exact", "peer_conformance"])
        .env("PEER_CONFORMANCE_DIR", "/nonexistent/peer-cases")
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(
        stderr
            .contains("!!!!! SKIPPED: peer conformance: no peer cases at /nonexistent/peer-cases"),
        "{stderr}"
    );
}
