//! Whole `/programmer` workflows inside the real Claude Code client, against
//! the product as `./install.sh` installs it into a scratch HOME: the real
//! agent files (`code-planner`, `code-implementer`, `code-reviewer`) spawned
//! by the Agent tool, the real `/programmer` command, and the hook entries in
//! `~/.claude/settings.json`. One session across several `claude -p` runs
//! (`--resume`), each run one user prompt; the model is scripted. Every step
//! is checked on disk, in git and in the product's state (`programmer-hook
//! status`, the project file), and each refusal by the rule the model was
//! told.
//!
//! The sessions run in autonomy `auto` (the user's `/programmer autonomy
//! auto`), because `-p` turns every `ask` into a denial: so a Confirm call
//! runs, and every refusal seen here is the workflow's, not an ask. The
//! product is installed with `--sandbox`, so every Bash call runs in Claude
//! Code's sandbox, where `auto` also runs the project's test script.

mod support;

use anyhow::Result;
use serde_json::{json, Value};
use std::fs;
use support::e2e::*;

const GREET: &str = "#!/bin/sh\necho \"hello\"\n";
const TEST_SH: &str = "#!/bin/sh\n# the project's tests\nif sh greet.sh | grep -qx hello; then\n  echo \"1 test passed\"\nelse\n  echo \"FAILED: greet.sh does not say hello\"\n  exit 1\nfi\n";
/// The test command as registered; `runs_test` matches it exactly.
const TEST_CMD: &str = "sh test.sh";

fn today() -> String {
    chrono::Local::now().format("%Y-%m-%d").to_string()
}

fn plan_text(date: &str) -> String {
    format!(
        "# Say goodbye\n\nDate: {date}\nRequest: greet.sh also says goodbye\n\n\
         ## Context\ngreet.sh prints hello; test.sh checks it.\n\n\
         ## Approach\nAdd one echo line.\n\n\
         ## Steps\n1. greet.sh: print `goodbye` after `hello`.\n\n\
         ## Tests\n`sh test.sh` still passes.\n"
    )
}

fn project_file(e2e: &E2e, name: &str) -> Result<Value> {
    let path = e2e.state_dir().join(format!("projects/{name}.json"));
    Ok(serde_json::from_str(&fs::read_to_string(path)?)?)
}

/// plan → approve → implement → review (CHANGES_REQUESTED) → implement →
/// review (APPROVE) → commit, in one session of five prompts, with the gates
/// refused on the way.
#[test]
fn whole_workflow_from_request_to_commit() -> Result<()> {
    let Some(e2e) = E2e::start(&json!({"threads": []})) else {
        return Ok(());
    };
    // With Claude Code's sandbox on: the registered test command runs project code,
    // which `auto` runs unasked only there.
    e2e.install_product_with(&["--sandbox"])?;
    e2e.init_repo(&[("greet.sh", GREET), ("test.sh", TEST_SH)])?;
    let proj = e2e.project_path();
    let p = |rel: &str| proj.join(rel).to_string_lossy().into_owned();
    let greet = p("greet.sh");
    let plan_rel = format!("docs/plans/{}-say-goodbye.md", today());
    let plan = p(&plan_rel);
    let plan_body = plan_text(&today());
    let greet_v1 = "#!/bin/sh\necho \"hello\"\necho \"goodbye\"\n";
    let greet_v2 = "#!/bin/sh\necho \"hello\"\necho \"goodbye, friend\"\n";

    let scenario = json!({"threads": [
        {"name": "planner", "match": "E2E-PLANNER", "turns": [
            turn(&[bash("pl_log", "git log --oneline")]),
            turn(&[write("pl_code", &p("farewell.sh"), "echo goodbye\n")]),
            turn(&[bash("pl_mkdir", "mkdir -p src")]),
            turn(&[write("pl_plan", &plan, &plan_body)]),
            say(&format!("Plan written: {plan_rel}\nOpen questions: none")),
        ]},
        // Round 1, first try: a typo breaks the tests.
        {"name": "implementer1", "match": "E2E-IMPLEMENTER-1A", "turns": [
            turn(&[read("im1_read", &greet)]),
            turn(&[edit("im1_edit", &greet, "echo \"hello\"\n", "echo \"helo\"\necho \"goodbye\"\n")]),
            turn(&[bash("im1_add", "git add -A")]),
            turn(&[bash("im1_test", TEST_CMD)]),
            say("Result: BLOCKED\nRound: 1\n\n## Tests\nsh test.sh: FAILED"),
        ]},
        // Round 1, second try: fixed, but the tests are not run again.
        {"name": "implementer1b", "match": "E2E-IMPLEMENTER-1B", "turns": [
            turn(&[read("im1b_read", &greet)]),
            turn(&[edit("im1b_edit", &greet, "helo", "hello")]),
            say("Result: DONE\nRound: 1\n\n## Tests\nnot run after the fix"),
        ]},
        // Never started: the gates refuse these spawns.
        {"name": "implementer0", "match": "E2E-IMPLEMENTER-0", "turns": [
            turn(&[write("im0_write", &greet, "echo too early\n")]),
            say("Result: DONE"),
        ]},
        {"name": "reviewer_early", "match": "E2E-REVIEWER-EARLY", "turns": [
            say("## Review\nStatus: APPROVE\n"),
        ]},
        {"name": "reviewer1", "match": "E2E-REVIEWER-1", "turns": [
            turn(&[bash("rv1_diff", "git diff")]),
            turn(&[write("rv1_write", &greet, "echo reviewed\n")]),
            turn(&[bash("rv1_bash_write", "echo '# reviewed' >> greet.sh")]),
            turn(&[bash("rv1_test", TEST_CMD)]),
            say("## Review\nStatus: CHANGES_REQUESTED\n\n## Required changes\n- [major] greet.sh: say goodbye to a friend\n"),
        ]},
        {"name": "implementer2", "match": "E2E-IMPLEMENTER-2", "turns": [
            turn(&[read("im2_read", &greet)]),
            turn(&[edit("im2_edit", &greet, "echo \"goodbye\"", "echo \"goodbye, friend\"")]),
            turn(&[bash("im2_test", TEST_CMD)]),
            say("Result: DONE\nRound: 2\n\n## Tests\nsh test.sh: 1 test passed"),
        ]},
        {"name": "reviewer2", "match": "E2E-REVIEWER-2", "turns": [
            turn(&[bash("rv2_diff", "git diff")]),
            say("## Review\nStatus: APPROVE\n\nFiles reviewed: greet.sh\n"),
        ]},
        {"name": "main", "turns": [
            // run 1: `/programmer autonomy auto`
            say("Autonomy is auto for this session."),
            // run 2: register the project with the pack's skill
            turn(&[json!({"name": "Skill", "id": "skill",
                "input": {"skill": "programmer-add-project", "args": "sh test.sh"}})]),
            turn(&[bash("register", &format!(
                "programmer-hook add-project --name demo --description 'e2e demo' --test '{TEST_CMD}'"))]),
            say("Registered."),
            // run 3: `/programmer greet.sh should say goodbye too`: plan
            turn(&[read("m_read_greet", &greet)]),
            turn(&[write("m_early_write", &greet, greet_v1)]),
            turn(&[bash("m_early_bash", "echo 'echo goodbye' >> greet.sh")]),
            turn(&[spawn("m_spawn_impl_early", "code-implementer", "E2E-IMPLEMENTER-0")]),
            turn(&[spawn("m_planner", "code-planner", "E2E-PLANNER")]),
            turn(&[bash("m_ctl_approve", "programmer-hook approve")]),
            say(&format!("Phase: plan\nThe plan is {plan_rel}. Type `approve` to go on.")),
            // run 4: `approve`: implement, tests, review round 1
            turn(&[read("m_read_plan", &plan)]),
            turn(&[edit("m_edit_plan", &plan, "Add one echo line.", "Rewrite everything.")]),
            turn(&[bash("m_commit_early", "git commit -am wip")]),
            turn(&[spawn("m_impl1", "code-implementer", "E2E-IMPLEMENTER-1A")]),
            turn(&[spawn("m_review_failed", "code-reviewer", "E2E-REVIEWER-EARLY")]),
            turn(&[spawn("m_impl1b", "code-implementer", "E2E-IMPLEMENTER-1B")]),
            turn(&[spawn("m_review_untested", "code-reviewer", "E2E-REVIEWER-EARLY")]),
            turn(&[bash("m_test1", TEST_CMD)]),
            turn(&[spawn("m_review1", "code-reviewer", "E2E-REVIEWER-1")]),
            say("Phase: implement\nThe reviewer asked for changes (round 1)."),
            // run 5: "go on": round 2, approval, commit
            turn(&[spawn("m_impl2", "code-implementer", "E2E-IMPLEMENTER-2")]),
            turn(&[spawn("m_review2", "code-reviewer", "E2E-REVIEWER-2")]),
            turn(&[bash("m_late_write", "echo late >> greet.sh")]),
            turn(&[bash("m_add", "git add greet.sh")]),
            turn(&[bash("m_commit", "git commit -m 'feat: say goodbye'")]),
            say("Phase: done\nCommitted."),
        ]},
    ]});
    e2e.set_scenario(&scenario)?;

    // Run 1: the user lets Confirm actions run.
    let run = e2e.run_claude("/programmer autonomy auto", None)?;
    let sid = run.session_id().to_string();
    assert_eq!(run.result(), "Autonomy is auto for this session.");
    assert_eq!(e2e.status(&sid)?["autonomy"], "auto");

    // Run 2: the skill runs, but registering is the user's: it sets the test command the
    // review gate trusts, so it is asked even under autonomy auto (refused in `-p` mode),
    // and the user registers the project from a terminal.
    let run = e2e.run_claude(
        "Register this project with the programmer-add-project skill; its tests run with `sh test.sh`.",
        Some(&sid),
    )?;
    assert_eq!(run.result(), "Registered.", "{:#}", run.json);
    let skill = e2e.assert_ran(&run, "skill");
    assert!(skill.contains("programmer-add-project"), "{skill:?}");
    e2e.assert_asked(&run, "register", "programmer-hook.add-project");
    let proj_s = proj.to_string_lossy().into_owned();
    let out = e2e.product(&[
        "add-project",
        "--name",
        "demo",
        "--description",
        "e2e demo",
        "--test",
        TEST_CMD,
        "--path",
        &proj_s,
    ])?;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let project = project_file(&e2e, "demo")?;
    assert_eq!(project["path"], proj.to_string_lossy().as_ref());
    assert_eq!(project["test"], TEST_CMD);

    // Run 3: the request; only the planner writes, and only the plan.
    let run = e2e.run_claude("/programmer greet.sh should say goodbye too", Some(&sid))?;
    assert!(run.result().starts_with("Phase: plan"), "{:#}", run.json);
    let st = e2e.status(&sid)?;
    assert_eq!(st["phase"], "plan", "{st}");
    assert_eq!(st["project"], "demo", "{st}");
    e2e.assert_ran(&run, "m_read_greet");
    e2e.assert_denied(&run, "m_early_write", "phase.plan-writes-plans-only");
    e2e.assert_denied(&run, "m_early_bash", "phase.plan-writes-plans-only");
    e2e.assert_denied(&run, "m_spawn_impl_early", "phase.plan-no-implementer");
    e2e.assert_ran(&run, "m_planner");
    e2e.assert_ran(&run, "pl_log");
    e2e.assert_denied(&run, "pl_code", "role.planner-writes-plans-only");
    e2e.assert_denied(&run, "pl_mkdir", "role.planner-writes-plans-only");
    e2e.assert_ran(&run, "pl_plan");
    e2e.assert_denied(&run, "m_ctl_approve", "programmer-hook.control");
    assert_eq!(fs::read_to_string(&greet)?, GREET, "code changed in plan");
    assert!(!proj.join("farewell.sh").exists());
    assert!(!proj.join("src").exists());
    assert_eq!(fs::read_to_string(&plan)?, plan_body);
    let st = e2e.status(&sid)?;
    assert_eq!(st["phase"], "plan", "the model approved its own plan: {st}");
    assert_eq!(st["plan"], plan.as_str(), "{st}");
    assert!(e2e.requests("implementer0").is_empty());

    // Run 4: the user approves; implement, the test gate, review round 1.
    let run = e2e.run_claude("approve", Some(&sid))?;
    assert!(
        run.result().starts_with("Phase: implement"),
        "{:#}",
        run.json
    );
    e2e.assert_ran(&run, "m_read_plan");
    e2e.assert_denied(&run, "m_edit_plan", "phase.plan-locked");
    e2e.assert_denied(&run, "m_commit_early", "phase.implement-no-commit");
    e2e.assert_ran(&run, "m_impl1");
    e2e.assert_ran(&run, "im1_edit");
    e2e.assert_denied(&run, "im1_add", "role.no-history-changes");
    let failed = e2e.result_of("im1_test");
    assert_eq!(failed["is_error"], true, "the tests did not fail: {failed}");
    // The tests failed after the last change ...
    e2e.assert_denied(&run, "m_review_failed", "gate.tests-before-review");
    e2e.assert_ran(&run, "m_impl1b");
    e2e.assert_ran(&run, "im1b_edit");
    // ... and were not run after the fix.
    e2e.assert_denied(&run, "m_review_untested", "gate.tests-before-review");
    assert!(
        e2e.requests("reviewer_early").is_empty(),
        "a gated reviewer ran"
    );
    let out = e2e.assert_ran(&run, "m_test1");
    assert!(out.contains("1 test passed"), "{out:?}");
    e2e.assert_ran(&run, "m_review1");
    let diff = e2e.assert_ran(&run, "rv1_diff");
    assert!(diff.contains("+echo \"goodbye\""), "{diff:?}");
    // The reviewer has no Write tool: the client refuses before any hook.
    let rv1_write = e2e.result_of("rv1_write");
    assert_eq!(rv1_write["is_error"], true);
    assert!(
        rv1_write["content"]
            .as_str()
            .unwrap_or_default()
            .contains("No such tool available"),
        "{rv1_write}"
    );
    e2e.assert_denied(&run, "rv1_bash_write", "role.no-write");
    e2e.assert_denied(&run, "rv1_test", "role.read-only-commands");
    assert_eq!(fs::read_to_string(&greet)?, greet_v1);
    assert_eq!(fs::read_to_string(&plan)?, plan_body, "the plan changed");
    assert_eq!(e2e.git(&proj, &["log", "--format=%s"])?, "initial\n");
    assert_eq!(e2e.git(&proj, &["diff", "--cached", "--name-only"])?, "");
    let st = e2e.status(&sid)?;
    assert_eq!(st["phase"], "implement", "{st}");
    assert_eq!(st["round"], 1, "{st}");
    assert_eq!(st["last_verdict"], "CHANGES_REQUESTED", "{st}");

    // Run 5: round 2 is approved and committed.
    let run = e2e.run_claude("go on with the reviewer's changes", Some(&sid))?;
    assert_eq!(run.result(), "Phase: done\nCommitted.", "{:#}", run.json);
    e2e.assert_ran(&run, "m_impl2");
    e2e.assert_ran(&run, "im2_edit");
    let out = e2e.assert_ran(&run, "im2_test");
    assert!(out.contains("1 test passed"), "{out:?}");
    e2e.assert_ran(&run, "m_review2");
    e2e.assert_ran(&run, "rv2_diff");
    e2e.assert_denied(&run, "m_late_write", "phase.commit-no-write");
    e2e.assert_ran(&run, "m_add");
    let out = e2e.assert_ran(&run, "m_commit");
    assert!(out.contains("feat: say goodbye"), "{out:?}");

    assert_eq!(
        e2e.git(&proj, &["log", "--format=%s"])?,
        "feat: say goodbye\ninitial\n"
    );
    assert_eq!(e2e.git(&proj, &["show", "HEAD:greet.sh"])?, greet_v2);
    assert_eq!(
        e2e.git(&proj, &["show", "--name-only", "--format=", "HEAD"])?,
        "greet.sh\n"
    );
    assert_eq!(fs::read_to_string(&greet)?, greet_v2);
    assert_eq!(fs::read_to_string(&plan)?, plan_body);
    let st = e2e.status(&sid)?;
    assert_eq!(st["phase"], "none", "{st}");
    let project = project_file(&e2e, "demo")?;
    let work = project["recentWork"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(work.len(), 1, "{project}");
    assert_eq!(work[0]["summary"], "feat: say goodbye", "{project}");
    assert_eq!(
        work[0]["date"].as_str().map(str::len),
        Some(10),
        "{project}"
    );
    assert!(e2e.proxy_attempts().is_empty());
    Ok(())
}

/// Three rounds of `Status: CHANGES_REQUESTED` halt the workflow: writes,
/// builds and a new reviewer are refused, reading still works; the user's
/// `/programmer continue` lets the work go on.
#[test]
fn review_loop_halts_and_continue_resumes() -> Result<()> {
    let Some(e2e) = E2e::start(&json!({"threads": []})) else {
        return Ok(());
    };
    // With Claude Code's sandbox on: the registered test command runs project code,
    // which `auto` runs unasked only there.
    e2e.install_product_with(&["--sandbox"])?;
    e2e.init_repo(&[("greet.sh", GREET), ("test.sh", TEST_SH)])?;
    let proj = e2e.project_path();
    // Registered by the user in a terminal this time.
    let out = e2e.product(&[
        "add-project",
        "--name",
        "loop",
        "--test",
        TEST_CMD,
        "--path",
        &proj.to_string_lossy(),
    ])?;
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );

    let mut threads = Vec::new();
    let mut main = vec![
        // run 1
        say("Autonomy is auto."),
    ];
    // run 2: `/programmer quick …`: three rounds, each sent back
    for r in 1..=3 {
        main.push(turn(&[bash(
            &format!("w{r}"),
            &format!("echo 'echo round {r}' >> greet.sh"),
        )]));
        main.push(turn(&[bash(&format!("t{r}"), TEST_CMD)]));
        main.push(turn(&[spawn(
            &format!("rv{r}"),
            "code-reviewer",
            &format!("E2E-LOOP-REVIEWER-{r}"),
        )]));
        let verdict = say(&format!("## Review\nStatus: CHANGES_REQUESTED\n\n## Required changes\n- [major] round {r} is not loud enough\n"));
        // The first reviewer forgets its verdict; the hook sends it back.
        let turns = if r == 1 {
            vec![say("Looks fine to me."), verdict]
        } else {
            vec![verdict]
        };
        threads.push(json!({"name": format!("reviewer{r}"),
            "match": format!("E2E-LOOP-REVIEWER-{r}"), "turns": turns}));
    }
    main.extend([
        turn(&[bash("halted_write", "touch halted.txt")]),
        turn(&[bash("halted_test", TEST_CMD)]),
        turn(&[spawn(
            "halted_review",
            "code-reviewer",
            "E2E-LOOP-REVIEWER-4",
        )]),
        turn(&[bash("halted_read", "git status --short")]),
        turn(&[bash("halted_continue", "programmer-hook continue")]),
        say("Phase: halted"),
        // run 3: `/programmer continue`
        turn(&[bash("resumed", "touch resumed.txt")]),
        say("Phase: implement"),
    ]);
    threads.push(json!({"name": "reviewer4", "match": "E2E-LOOP-REVIEWER-4",
        "turns": [say("## Review\nStatus: APPROVE\n")]}));
    threads.push(json!({"name": "main", "turns": main}));
    e2e.set_scenario(&json!({ "threads": threads }))?;

    let run = e2e.run_claude("/programmer autonomy auto", None)?;
    let sid = run.session_id().to_string();
    assert_eq!(e2e.status(&sid)?["autonomy"], "auto");

    let run = e2e.run_claude("/programmer quick make the greeting louder", Some(&sid))?;
    assert_eq!(run.result(), "Phase: halted", "{:#}", run.json);
    for r in 1..=3 {
        e2e.assert_ran(&run, &format!("w{r}"));
        e2e.assert_ran(&run, &format!("t{r}"));
        e2e.assert_ran(&run, &format!("rv{r}"));
        let want = if r == 1 { 2 } else { 1 };
        assert_eq!(
            e2e.requests(&format!("reviewer{r}")).len(),
            want,
            "reviewer {r}: a final message without a verdict is sent back once"
        );
    }
    e2e.assert_denied(&run, "halted_write", "phase.halted");
    e2e.assert_denied(&run, "halted_test", "phase.halted");
    e2e.assert_denied(&run, "halted_review", "phase.halted");
    assert!(
        e2e.requests("reviewer4").is_empty(),
        "a reviewer ran halted"
    );
    e2e.assert_ran(&run, "halted_read");
    e2e.assert_denied(&run, "halted_continue", "programmer-hook.control");
    assert!(!proj.join("halted.txt").exists());
    let greet = fs::read_to_string(proj.join("greet.sh"))?;
    assert!(greet.ends_with("echo round 3\n"), "{greet:?}");
    let st = e2e.status(&sid)?;
    assert_eq!(st["phase"], "halted", "{st}");
    assert_eq!(st["round"], 3, "{st}");

    let run = e2e.run_claude("/programmer continue", Some(&sid))?;
    assert_eq!(run.result(), "Phase: implement", "{:#}", run.json);
    e2e.assert_ran(&run, "resumed");
    assert!(proj.join("resumed.txt").exists());
    let st = e2e.status(&sid)?;
    assert_eq!(st["phase"], "implement", "{st}");
    assert_eq!(st["round"], 0, "{st}");
    assert_eq!(e2e.git(&proj, &["log", "--format=%s"])?, "initial\n");
    Ok(())
}
