//! Inline rule examples: every rule's `match` and `not_match` lists, checked.
//!
//! An example is a Bash command, or `tool:NAME [PATH]` for another tool (`tool:NAME {JSON}`
//! for the tool's whole input, `tool:PowerShell SCRIPT` for the PowerShell tool). It runs
//! in a fixed
//! imaginary machine (home `/home/user`, working folder `/home/user/project`, nothing on
//! disk), so results do not depend on where the test runs. A `match` example must apply
//! the rule, and the whole call must end in the rule's tier (Safe examples must be allowed,
//! others at least as strict as the rule). A `not_match` example must not apply the rule.

use std::path::{Path, PathBuf};

use serde_json::json;

use crate::engine::classify::{self, Decision};
use crate::engine::paths::{NoFs, Places};
use crate::engine::policy::{Policy, Rule, Tier};
use crate::engine::tools::Tool;
use crate::engine::Context;

/// The imaginary machine examples run in.
pub fn example_places() -> Places {
    Places {
        home: PathBuf::from("/home/user"),
        state_dir: PathBuf::from("/home/user/.claude/state/programmer"),
        config_dir: PathBuf::from("/home/user/.claude"),
        binary: Some(PathBuf::from("/home/user/.local/bin/programmer-hook")),
        installed: Vec::new(),
        cdpath: false,
    }
}

pub const EXAMPLE_CWD: &str = "/home/user/project";

/// Runs one example and returns its decision.
pub fn run_example(policy: &Policy, example: &str) -> Result<Decision, String> {
    let places = example_places();
    let ctx = Context {
        policy,
        places: &places,
        fs: &NoFs,
        cwd: Some(Path::new(EXAMPLE_CWD)),
    };
    match example.strip_prefix("tool:") {
        Some(rest) => {
            let (tool, path) = match rest.split_once(' ') {
                Some((t, p)) => (t, Some(p)),
                None => (rest, None),
            };
            let input = match (Tool::parse(tool), path) {
                // A tool's whole input (an MCP tool's arguments).
                (_, Some(p)) if p.starts_with('{') => {
                    serde_json::from_str(p).map_err(|e| format!("{example}: {e}"))?
                }
                (Some(Tool::NotebookEdit), Some(p)) => {
                    json!({"notebook_path": p, "new_source": ""})
                }
                (Some(Tool::Glob | Tool::Grep), Some(p)) => json!({"path": p, "pattern": "x"}),
                // The PowerShell tool: the rest is its script.
                (None, Some(p)) if tool == "PowerShell" => json!({"command": p}),
                (_, Some(p)) => {
                    json!({"file_path": p, "content": "", "old_string": "", "new_string": ""})
                }
                (_, None) => json!({}),
            };
            classify::classify(tool, &input, &ctx).map_err(|e| e.to_string())
        }
        None => Ok(classify::classify_command(example, &ctx)),
    }
}

/// One failed example.
#[derive(Debug, Clone)]
pub struct Failure {
    pub rule: String,
    pub example: String,
    pub problem: String,
}

/// Checks the examples of `rules` against `policy`. Returns (examples checked, failures).
pub fn check(policy: &Policy, rules: &[Rule]) -> (usize, Vec<Failure>) {
    let mut count = 0;
    let mut failures = Vec::new();
    for r in rules {
        for ex in &r.examples_match {
            count += 1;
            let fail = |problem: String| Failure {
                rule: r.id.to_string(),
                example: ex.clone(),
                problem,
            };
            match run_example(policy, ex) {
                Err(e) => failures.push(fail(format!("could not be classified: {e}"))),
                Ok(d) => {
                    if !d.matched.iter().any(|m| *m == r.id) {
                        failures.push(fail(format!(
                            "should match but does not (decided {} by {}; rules that applied: {})",
                            d.verdict.tier,
                            d.verdict.rule,
                            d.matched.join(", ")
                        )));
                    } else if r.tier == Tier::Safe && d.verdict.tier != Tier::Safe {
                        failures.push(fail(format!(
                            "matches, but the whole call is {} by {}, so this Safe example is not allowed",
                            d.verdict.tier, d.verdict.rule
                        )));
                    } else if d.verdict.tier < r.tier {
                        failures.push(fail(format!(
                            "matches, but the whole call is only {}",
                            d.verdict.tier
                        )));
                    }
                }
            }
        }
        for ex in &r.not_match {
            count += 1;
            match run_example(policy, ex) {
                Err(e) => failures.push(Failure {
                    rule: r.id.to_string(),
                    example: ex.clone(),
                    problem: format!("could not be classified: {e}"),
                }),
                Ok(d) if d.matched.iter().any(|m| *m == r.id) => failures.push(Failure {
                    rule: r.id.to_string(),
                    example: ex.clone(),
                    problem: format!(
                        "should not match but does (decided {} by {})",
                        d.verdict.tier, d.verdict.rule
                    ),
                }),
                Ok(_) => {}
            }
        }
    }
    (count, failures)
}
