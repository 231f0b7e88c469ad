//! Tests of the workflow: prompts, verdicts, restrictions and gates.

use super::roles::{self, Role};
use super::*;
use crate::engine::policy::Tier;

fn wf(phase: Phase) -> Workflow {
    let mut w = Workflow::new("add x", false, None, "/p", "t");
    w.phase = phase;
    w
}

/// The text an agent is given and the reason of a refusal fit the workflow: a quick
/// one has no plan, a halted one says why it is halted.
#[test]
fn guidance_and_refusals_fit_the_workflow() {
    let quick = Workflow::new("add x", true, None, "/p", "t");
    assert!(quick.guidance().contains("no plan"), "{}", quick.guidance());
    assert!(!quick.guidance().contains("approved plan"));
    let mut planned = wf(Phase::Implement);
    planned.plan = Some(Plan {
        path: "/p/docs/plans/2026-01-01-x.md".into(),
        fingerprint: None,
    });
    assert!(planned.guidance().contains("approved plan"));
    let write = Call {
        tool: "Write".into(),
        writes: vec!["/p/src/a.rs".into()],
        ..Call::default()
    };
    let rounds = wf(Phase::Halted);
    let r = restrict(&write, None, Some(&rounds)).expect("refused");
    assert!(r.reason.contains("too many review rounds"), "{}", r.reason);
    let corrupt = Workflow::halted("The state file was not valid JSON.".into(), "t");
    let r = restrict(&write, None, Some(&corrupt)).expect("refused");
    assert!(r.reason.contains("could not be trusted"), "{}", r.reason);
    assert!(!r.reason.contains("review rounds"), "{}", r.reason);
    assert!(corrupt.guidance().contains("could not be trusted"));
}

#[test]
fn prompts() {
    let cases: &[(&str, Option<PromptCommand>)] = &[
        ("approve", Some(PromptCommand::Approve)),
        ("  APPROVE \n", Some(PromptCommand::Approve)),
        ("/programmer approve", Some(PromptCommand::Approve)),
        ("approve it please", None),
        ("I approve", None),
        (
            "/programmer add a greeting",
            Some(PromptCommand::Start {
                request: "add a greeting".into(),
                quick: false,
            }),
        ),
        (
            "/code fix typo",
            Some(PromptCommand::Start {
                request: "fix typo".into(),
                quick: false,
            }),
        ),
        (
            "/dev quick fix typo",
            Some(PromptCommand::Start {
                request: "fix typo".into(),
                quick: true,
            }),
        ),
        ("/programmer continue", Some(PromptCommand::Continue)),
        ("/programmer abort", Some(PromptCommand::Abort)),
        ("/programmer status", Some(PromptCommand::Status)),
        (
            "/programmer autonomy auto",
            Some(PromptCommand::Autonomy(Autonomy::Auto)),
        ),
        (
            "/programmer autonomy CONFIRM",
            Some(PromptCommand::Autonomy(Autonomy::Confirm)),
        ),
        ("/programmers x", None),
        ("/development", None),
        ("hello", None),
        // The plugin's command, `/programmer:programmer`, steers the same workflow.
        (
            "/programmer:programmer add a greeting",
            Some(PromptCommand::Start {
                request: "add a greeting".into(),
                quick: false,
            }),
        ),
        (
            " /programmer:programmer quick fix typo\n",
            Some(PromptCommand::Start {
                request: "fix typo".into(),
                quick: true,
            }),
        ),
        (
            "/programmer:programmer approve",
            Some(PromptCommand::Approve),
        ),
        (
            "/programmer:programmer continue",
            Some(PromptCommand::Continue),
        ),
        ("/programmer:programmer abort", Some(PromptCommand::Abort)),
        ("/programmer:programmer status", Some(PromptCommand::Status)),
        (
            "/programmer:programmer autonomy auto",
            Some(PromptCommand::Autonomy(Autonomy::Auto)),
        ),
        (
            "/programmer:programmer",
            Some(PromptCommand::Help(String::new())),
        ),
        // The plugin ships no aliases, and other namespaces are not ours.
        ("/programmer:code fix typo", None),
        ("/programmer:dev fix typo", None),
        ("/programmer:programmers x", None),
        ("/programmer:programmer-add-project", None),
        ("/other:programmer add a greeting", None),
        ("/programmer: add a greeting", None),
        ("/programmer:", None),
    ];
    for (text, want) in cases {
        assert_eq!(parse_prompt(text), *want, "{text:?}");
    }
}

#[test]
fn verdicts() {
    let cases: &[(&str, Option<ReviewVerdict>)] = &[
        (
            "## Review\nStatus: APPROVE\nFiles: 2",
            Some(ReviewVerdict::Approve),
        ),
        (
            "- Status: CHANGES_REQUESTED",
            Some(ReviewVerdict::ChangesRequested),
        ),
        ("**Status: APPROVE**", Some(ReviewVerdict::Approve)),
        ("Status: APPROVE | CHANGES_REQUESTED", None),
        ("Status: APPROVE\nStatus: CHANGES_REQUESTED", None),
        ("looks good, approve", None),
        ("The status: APPROVE was given", None),
    ];
    for (text, want) in cases {
        assert_eq!(parse_verdict(text), *want, "{text:?}");
    }
}

#[test]
fn plan_paths() {
    let cases: &[(&str, bool)] = &[
        ("/p/docs/plans/2026-11-29-add-x.md", true),
        ("/p/docs/plans/2026-11-29-add_x2.md", true),
        ("/p/docs/plans/add-x.md", false),
        ("/p/docs/plans/2026-11-29-.md", false),
        ("/p/docs/plans/sub/2026-11-29-x.md", false),
        ("/p/docs/plans/2026-11-29-x.txt", false),
        ("/q/docs/plans/2026-11-29-x.md", false),
        ("/p/src/main.rs", false),
    ];
    for (p, want) in cases {
        assert_eq!(is_plan_path(p, "/p"), *want, "{p}");
    }
}

#[test]
fn approve_needs_a_plan() {
    let start = |_: &str, _: bool| wf(Phase::Plan);
    let o = apply_command(
        Some(wf(Phase::Plan)),
        &PromptCommand::Approve,
        start,
        None,
        3,
        "t",
    );
    assert_eq!(o.workflow.map(|w| w.phase), Some(Phase::Plan));
    let mut w = wf(Phase::Plan);
    w.plan = Some(Plan {
        path: "/p/docs/plans/2026-01-01-x.md".into(),
        fingerprint: None,
    });
    let o = apply_command(
        Some(w),
        &PromptCommand::Approve,
        start,
        Some("fp".into()),
        3,
        "t",
    );
    let w = o.workflow.expect("workflow");
    assert_eq!(w.phase, Phase::Implement);
    assert_eq!(w.plan.and_then(|p| p.fingerprint).as_deref(), Some("fp"));
}

#[test]
fn review_rounds_halt() {
    let mut w = wf(Phase::Review);
    for round in 1..=3 {
        w.phase = Phase::Review;
        w = apply_verdict(w, ReviewVerdict::ChangesRequested, 3, "t")
            .workflow
            .expect("wf");
        assert_eq!(w.round, round);
    }
    assert_eq!(w.phase, Phase::Halted);
    let w = apply_verdict(w, ReviewVerdict::Approve, 3, "t")
        .workflow
        .expect("wf");
    assert_eq!(w.phase, Phase::Halted, "a stale verdict changes nothing");
}

#[test]
fn restrictions_table() {
    let reviewer = roles::role_of(Some("code-reviewer"));
    let planner = roles::role_of(Some("code-planner"));
    let implementer = roles::role_of(Some("code-implementer"));
    let main = roles::role_of(None);
    let kinds = crate::engine::policy::Policy::builtin()
        .expect("default policy loads")
        .kinds;
    let bash = |tier: Tier, git: &[&str]| {
        let git: Vec<String> = git.iter().map(|s| s.to_string()).collect();
        Call {
            tool: "Bash".into(),
            tier: Some(tier),
            ..Call::default()
        }
        .with_git(&git, &kinds)
    };
    let write = |p: &str| Call {
        tool: "Write".into(),
        tier: Some(Tier::Confirm),
        writes: vec![p.into()],
        ..Call::default()
    };
    let spawn = |t: &str| Call {
        tool: "Agent".into(),
        tier: Some(Tier::Safe),
        subagent_type: Some(t.into()),
        ..Call::default()
    };
    let plan = "/p/docs/plans/2026-01-01-x.md";
    let mut locked = wf(Phase::Implement);
    locked.plan = Some(Plan {
        path: plan.into(),
        fingerprint: Some("f".into()),
    });
    type Case<'a> = (&'a str, Call, Option<&'a Role>, Workflow, Option<&'a str>);
    let cases: Vec<Case> = vec![
        (
            "reviewer writes",
            write("/p/a.rs"),
            reviewer,
            wf(Phase::Review),
            Some("role.no-write"),
        ),
        (
            "reviewer confirm bash",
            bash(Tier::Confirm, &[]),
            reviewer,
            wf(Phase::Done),
            Some("role.read-only-commands"),
        ),
        (
            "reviewer safe bash",
            bash(Tier::Safe, &["diff"]),
            reviewer,
            wf(Phase::Review),
            None,
        ),
        (
            "planner writes plan",
            write(plan),
            planner,
            wf(Phase::Plan),
            None,
        ),
        (
            "planner writes code",
            write("/p/src/a.rs"),
            planner,
            wf(Phase::Plan),
            Some("role.planner-writes-plans-only"),
        ),
        (
            "implementer commits",
            bash(Tier::Confirm, &["commit"]),
            implementer,
            wf(Phase::Commit),
            Some("role.no-history-changes"),
        ),
        (
            "implementer writes in plan",
            write("/p/src/a.rs"),
            implementer,
            wf(Phase::Plan),
            Some("phase.plan-writes-plans-only"),
        ),
        (
            "main commits in implement",
            bash(Tier::Confirm, &["commit"]),
            main,
            wf(Phase::Implement),
            Some("phase.implement-no-commit"),
        ),
        (
            "main commits in commit",
            bash(Tier::Confirm, &["commit"]),
            main,
            wf(Phase::Commit),
            None,
        ),
        (
            "main writes in commit",
            write("/p/a.rs"),
            main,
            wf(Phase::Commit),
            Some("phase.commit-no-write"),
        ),
        (
            "edit approved plan",
            write(plan),
            main,
            locked.clone(),
            Some("phase.plan-locked"),
        ),
        (
            "implementer edits code",
            write("/p/src/a.rs"),
            implementer,
            locked,
            None,
        ),
        (
            "spawn implementer in plan",
            spawn("code-implementer"),
            main,
            wf(Phase::Plan),
            Some("phase.plan-no-implementer"),
        ),
        (
            "build in halted",
            bash(Tier::Confirm, &[]),
            main,
            wf(Phase::Halted),
            Some("phase.halted"),
        ),
        (
            "read in halted",
            bash(Tier::Safe, &[]),
            main,
            wf(Phase::Halted),
            None,
        ),
        (
            "no workflow: tiers only",
            bash(Tier::Confirm, &["commit"]),
            main,
            wf(Phase::Done),
            None,
        ),
    ];
    for (name, call, role, w, want) in cases {
        let got = restrict(&call, role, Some(&w)).map(|r| r.rule);
        assert_eq!(got, want, "{name}");
    }
}

#[test]
fn plan_must_stay_as_approved() {
    let mut w = wf(Phase::Implement);
    assert!(plan_gate(&w, None).is_none(), "quick mode has no plan");
    w.plan = Some(Plan {
        path: "/p/docs/plans/2026-01-01-x.md".into(),
        fingerprint: Some("a".into()),
    });
    assert!(plan_gate(&w, Some("a")).is_none());
    assert!(plan_gate(&w, Some("b")).is_some());
    assert!(plan_gate(&w, None).is_some());
}

#[test]
fn test_gate() {
    let mut w = wf(Phase::Implement);
    w.changes = 3;
    assert!(review_gate(&w, None).is_none());
    assert!(review_gate(&w, Some("cargo test")).is_some());
    w.tests_passed_at = Some(2);
    assert!(review_gate(&w, Some("cargo test")).is_some());
    w.tests_passed_at = Some(3);
    assert!(review_gate(&w, Some("cargo test")).is_none());
    w.phase = Phase::Plan;
    assert!(review_gate(&w, None).is_some());
}

/// The policy's git lists: what makes history also changes it, so a role that may not
/// change history makes none either; reading commands are in neither.
#[test]
fn git_lists_of_the_policy() {
    let kinds = crate::engine::policy::Policy::builtin()
        .expect("default policy loads")
        .kinds;
    let not_history: Vec<&str> = kinds
        .git_commits
        .iter()
        .filter(|g| !kinds.git_history.contains(g))
        .collect();
    assert!(not_history.is_empty(), "{not_history:?}");
    for g in ["commit", "push", "merge", "tag", "rebase"] {
        assert!(kinds.git_commits.contains(g), "{g}");
    }
    for g in ["status", "log", "diff", "show", "fetch"] {
        assert!(!kinds.git_history.contains(g), "{g}");
    }
}
