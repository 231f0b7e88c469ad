//! The check shared by the decision tables: one line per case, `(decision, rule, command)`.
//! Cases run in the fixed imaginary machine of `examples` (home `/home/user`, working folder
//! `/home/user/project`, nothing on disk). Every `deny` case also runs through the real
//! binary in a session whose autonomy is `auto` (see `sessions.rs`), where it must be denied
//! too; an `ask!` case is asked and never relaxed: asked in that session too.

#![allow(dead_code)]

use programmer_hook::engine::examples::run_example;
use programmer_hook::engine::policy::Policy;
use programmer_hook::hook::decision_word;

use super::sessions;

/// Checks every case: the decision and the deciding rule; the deny cases in auto too.
pub fn check(cases: &[(&str, &str, &str)]) {
    let mut wrong = wrong_decisions(cases);
    let denied: Vec<String> = cases
        .iter()
        .filter(|(want, _, _)| *want == "deny")
        .map(|(_, _, cmd)| cmd.to_string())
        .collect();
    wrong.extend(sessions::not_denied_in_auto(&denied));
    let never_relaxed: Vec<String> = cases
        .iter()
        .filter(|(want, _, _)| *want == "ask!")
        .map(|(_, _, cmd)| cmd.to_string())
        .collect();
    wrong.extend(sessions::not_asked_in_auto(&never_relaxed));
    report(wrong);
}

fn wrong_decisions(cases: &[(&str, &str, &str)]) -> Vec<String> {
    let policy = Policy::builtin().expect("default policy loads");
    let mut wrong = Vec::new();
    for (want, want_rule, cmd) in cases {
        let d = run_example(&policy, cmd).expect("classifies");
        let got = decision_word(d.verdict.tier);
        if got != want.trim_end_matches('!') || d.verdict.rule != *want_rule {
            wrong.push(format!(
                "{cmd:?}: want {want} by {want_rule}, got {got} by {} ({})",
                d.verdict.rule, d.verdict.subject
            ));
        }
    }
    wrong
}

/// Fails with every wrong case, one a line, when there is any.
pub fn report(wrong: Vec<String>) {
    assert!(
        wrong.is_empty(),
        "{} wrong:\n{}",
        wrong.len(),
        wrong.join("\n")
    );
}
