//! The managed autonomy policy (`programmer-hook.json` beside Claude Code's managed
//! settings) through the real binary: one line per case, each in a fresh scratch home
//! whose test build reads its managed folder from `home/managed`.

mod support;

use support::home;

use std::path::Path;
use std::process::Stdio;

use serde_json::{json, Value};

/// Sends one event in session `s`; returns the JSON answer.
fn send(home: &Path, project: &Path, ev: Value) -> Value {
    let mut ev = ev;
    ev["session_id"] = json!("s");
    ev["cwd"] = json!(project);
    ev["transcript_path"] = json!("/tmp/t.jsonl");
    let mut child = home::command(home)
        .arg("hook")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("runs");
    use std::io::Write;
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(ev.to_string().as_bytes())
        .expect("event");
    let out = child.wait_with_output().expect("runs");
    assert_eq!(out.status.code(), Some(0));
    serde_json::from_slice(&out.stdout).expect("JSON answer")
}

/// Decides `command` in an `auto` session under the managed policy `managed` (None: no
/// file), with the sandbox on or off; returns the decision and the reason.
fn decide(managed: Option<&str>, sandbox: bool, command: &str) -> (String, String) {
    let (home, project) = home::with_project(&["src"], &["--description", "d"]);
    let h = home.path();
    if let Some(text) = managed {
        std::fs::create_dir_all(h.join("managed")).expect("managed folder");
        std::fs::write(h.join("managed/programmer-hook.json"), text).expect("managed file");
    }
    if sandbox {
        let out = home::command(h)
            .args(["install-hooks", "--sandbox"])
            .output()
            .expect("install-hooks");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let said = send(
        h,
        &project,
        json!({"hook_event_name": "UserPromptSubmit", "prompt": "/programmer autonomy auto"}),
    );
    let said = said["systemMessage"].as_str().unwrap_or("").to_string();
    if managed.is_some_and(|m| m.contains("never")) {
        assert!(said.contains("still asked"), "{said}");
    }
    let v = send(
        h,
        &project,
        json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "t"}),
    );
    let o = &v["hookSpecificOutput"];
    (
        o["permissionDecision"].as_str().unwrap_or("").to_string(),
        o["permissionDecisionReason"]
            .as_str()
            .unwrap_or("")
            .to_string(),
    )
}

#[test]
fn the_managed_policy_only_tightens_auto() {
    #[rustfmt::skip]
    let cases: &[(Option<&str>, bool, &str, &str, &str)] = &[
        // (managed file, sandbox on, command, decision, part of the reason)
        (None, false, "touch a.txt", "allow", "autonomy is auto"),
        (None, true, "perl gen.pl", "allow", "runs in Claude Code's sandbox"),
        (Some(r#"{"autonomy": "allowed"}"#), false, "touch a.txt", "allow", "autonomy is auto"),
        (Some(r#"{"autonomy": "never"}"#), false, "touch a.txt", "ask", "does not allow autonomy auto"),
        (Some(r#"{"autonomy": "never"}"#), true, "perl gen.pl", "ask", "does not allow autonomy auto"),
        (Some(r#"{"autonomy": "sandbox-only"}"#), false, "touch a.txt", "ask", "allows auto only inside Claude Code's sandbox"),
        (Some(r#"{"autonomy": "sandbox-only"}"#), true, "touch a.txt", "allow", "where the managed policy allows auto"),
        (Some(r#"{"autonomy": "sandbox-only"}"#), true, "perl gen.pl", "allow", "runs in Claude Code's sandbox"),
        (Some(r#"{"autonomy": "sandbox-only"}"#), false, "perl gen.pl", "ask", "install-hooks --sandbox"),
        // A test runner's listing runs unasked in the sandbox, unless auto may relax nothing.
        (Some(r#"{"autonomy": "sandbox-only"}"#), true, "pytest --collect-only -q", "allow", "runs in Claude Code's sandbox"),
        (Some(r#"{"autonomy": "never"}"#), true, "pytest --collect-only -q", "ask", "does not allow autonomy auto"),
        (None, false, "pytest --collect-only -q", "ask", "install-hooks --sandbox"),
        // A managed file that cannot be read relaxes nothing.
        (Some("{not json"), true, "touch a.txt", "ask", "not valid JSON"),
        (Some(r#"{"autonomy": "maybe"}"#), true, "perl gen.pl", "ask", "auto relaxes nothing"),
        // Forbidden and opaque stay as they are.
        (None, true, "rm -rf ~", "deny", "fs.rm-broad"),
        (Some(r#"{"autonomy": "never"}"#), true, "rm -rf ~", "deny", "fs.rm-broad"),
        (None, true, "curl -X POST https://example.com", "ask", "asked even under autonomy auto"),
    ];
    let mut wrong = Vec::new();
    for (managed, sandbox, cmd, want, says) in cases {
        let (d, reason) = decide(*managed, *sandbox, cmd);
        if d != *want || !reason.contains(says) {
            wrong.push(format!("{managed:?} sandbox={sandbox} {cmd:?}: want {want} saying {says:?}, got {d} ({reason})"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The managed rules file of the cases below: a Forbidden rule, two opaque Confirm rules
/// (one over a command the defaults call relaxable, one over one they call contained) and
/// path list entries.
const MANAGED_RULES: &str = r#"
[paths]
sensitive = ["~/team/**"]
protected = ["~/team.conf"]

[[rule]]
id = "team.no-terraform"
tier = "forbidden"
reason = "infrastructure changes go through the pipeline"
command = "terraform"

[[rule]]
id = "team.ask-touch"
tier = "confirm"
reason = "the team asks before new files"
command = "touch"

[[rule]]
id = "team.ask-build"
tier = "confirm"
reason = "the team asks before builds"
command = "cargo"
subcommand = "build"
"#;

/// In place of the managed file's text: a folder where the file should be, which cannot be
/// read.
const FOLDER: &str = "(a folder)";

const USER_SAFE: &str = "[[rule]]\nid = \"me.terraform\"\ntier = \"safe\"\nreason = \"mine\"\ncommand = \"terraform\"\n";
const USER_DISABLE: &str = "[[rule]]\nid = \"team.no-terraform\"\ndisabled = true\n";
const USER_REPLACE: &str = "[[rule]]\nid = \"team.no-terraform\"\ntier = \"safe\"\nreason = \"mine\"\ncommand = \"terraform\"\n";
const USER_RELAXABLE: &str = "[[rule]]\nid = \"me.touch\"\ntier = \"confirm\"\nrelaxable = true\nreason = \"mine\"\ncommand = \"touch\"\n";
const USER_CONTAINED: &str = "[[rule]]\nid = \"me.build\"\ntier = \"confirm\"\ncontained = true\nreason = \"mine\"\ncommand = \"cargo\"\n";
// A user's rule that takes the place of a default one stands where the default stood, before
// the managed rules, so it is the first rule of its tier that matches.
const USER_RELAXABLE_FIRST: &str = "[[rule]]\nid = \"fs.change\"\ntier = \"confirm\"\nrelaxable = true\nreason = \"mine\"\ncommand = \"touch\"\n";
const USER_CONTAINED_FIRST: &str = "[[rule]]\nid = \"build.run\"\ntier = \"confirm\"\ncontained = true\nreason = \"mine\"\ncommand = \"cargo\"\n";
const USER_STRICTER: &str = "[[rule]]\nid = \"me.no-touch\"\ntier = \"forbidden\"\nreason = \"mine\"\ncommand = \"touch\"\n";
const USER_NOT_SENSITIVE: &str = "[paths]\nnot_sensitive = [\"~/team/**\"]\n";
// The managed policy's fallbacks: they apply where no default or managed rule describes
// the call, and a user's or a project's rule matching does not take that away.
const MANAGED_FALLBACKS: &str = "[[rule]]\nid = \"team.no-helm\"\ntier = \"forbidden\"\nfallback = true\nreason = \"the team does not deploy from here\"\ncommand = \"helm\"\n\n[[rule]]\nid = \"team.ask-git\"\ntier = \"confirm\"\nfallback = true\nreason = \"the team asks\"\ncommand = \"git\"\n";
const USER_SAFE_HELM: &str =
    "[[rule]]\nid = \"me.helm\"\ntier = \"safe\"\nreason = \"mine\"\ncommand = \"helm\"\n";
const PROJECT_ASK_HELM: &str =
    "[[rule]]\nid = \"repo.helm\"\ntier = \"confirm\"\nreason = \"ours\"\ncommand = \"helm\"\n";
const PROJECT_SAFE: &str = "[[rule]]\nid = \"repo.terraform\"\ntier = \"safe\"\nreason = \"ours\"\ncommand = \"terraform\"\n";
const PROJECT_REPLACE: &str = "[[rule]]\nid = \"team.no-terraform\"\ntier = \"confirm\"\nreason = \"ours\"\ncommand = \"terraform\"\n";

/// One gate call in a fresh home with the managed rules file `managed`, the user's file
/// `user` and the project's file `project` (empty: none), in a default session or an `auto`
/// one, the sandbox on or off. Returns the exit status, the decision and the reason (for
/// exit 2, the reason on stderr).
fn gate(
    managed: &str,
    user: &str,
    project: &str,
    auto: bool,
    sandbox: bool,
    command: &str,
) -> (i32, String, String) {
    let (home, dir) = home::with_project(&["src"], &["--description", "d"]);
    let h = home.path();
    let write = |path: &Path, text: &str| {
        if !text.is_empty() {
            std::fs::create_dir_all(path.parent().expect("parent")).expect("folder");
            std::fs::write(path, text).expect("policy file");
        }
    };
    // `auto` is set before the files are there: a file that does not load would refuse it.
    if auto {
        send(
            h,
            &dir,
            json!({"hook_event_name": "UserPromptSubmit", "prompt": "/programmer autonomy auto"}),
        );
    }
    if managed == FOLDER {
        std::fs::create_dir_all(h.join("managed/programmer-hook.toml")).expect("folder");
    } else {
        write(&h.join("managed/programmer-hook.toml"), managed);
    }
    write(&h.join(".claude/state/programmer/policy.toml"), user);
    write(&dir.join(".claude/programmer-policy.toml"), project);
    // The sandbox is set up for the policy in force, the managed paths with it.
    if sandbox {
        let out = home::command(h)
            .args(["install-hooks", "--sandbox"])
            .output()
            .expect("install-hooks");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let ev = json!({"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command}, "tool_use_id": "t", "session_id": "s", "cwd": dir, "transcript_path": "/tmp/t.jsonl"});
    let mut child = home::command(h)
        .arg("hook")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    use std::io::Write;
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(ev.to_string().as_bytes())
        .expect("event");
    let out = child.wait_with_output().expect("runs");
    let code = out.status.code().unwrap_or(-1);
    if code == 2 {
        return (
            code,
            "block".into(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        );
    }
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON answer");
    let o = &v["hookSpecificOutput"];
    let s = |k: &str| o[k].as_str().unwrap_or("").to_string();
    (code, s("permissionDecision"), s("permissionDecisionReason"))
}

/// (managed, user, project, sandbox on, command, default session, auto session, part of the
/// reason)
type Case<'a> = (
    &'a str,
    &'a str,
    &'a str,
    bool,
    &'a str,
    &'a str,
    &'a str,
    &'a str,
);

/// The managed rules are a floor: no user or project rule, `disable`, replacement or
/// relaxable or contained flag lowers them, in a default session or an `auto` one; a later
/// rule may still be stricter. `block` is exit status 2: the hook refuses the file, which
/// Claude Code takes as a denial.
#[test]
fn the_managed_rules_are_a_floor() {
    let m = MANAGED_RULES;
    let secret = "cat ~/team/key";
    #[rustfmt::skip]
    let cases: &[Case] = &[
        // (managed, user, project, sandbox, command, default session, auto session, part of the reason)
        // Without the managed file the defaults decide.
        ("", "", "", false, "terraform apply", "ask", "ask", "run.container"),
        ("", "", "", false, "touch a.txt", "ask", "allow", "fs.change"),
        ("", "", "", true, "cargo build", "ask", "allow", "build.run"),
        // A managed Forbidden rule.
        (m, "", "", false, "terraform apply", "deny", "deny", "team.no-terraform"),
        (m, USER_SAFE, "", false, "terraform apply", "deny", "deny", "team.no-terraform"),
        (m, "", PROJECT_SAFE, false, "terraform apply", "block", "block", "a project policy may only add Confirm or Forbidden rules"),
        (m, USER_DISABLE, "", false, "terraform apply", "block", "block", "\"team.no-terraform\" is a rule of the managed policy"),
        (m, USER_REPLACE, "", false, "terraform apply", "block", "block", "\"team.no-terraform\" is a rule of the managed policy"),
        (m, "", PROJECT_REPLACE, false, "terraform apply", "block", "block", "\"team.no-terraform\" is a rule of the managed policy"),
        // A managed opaque Confirm over what the defaults call relaxable, or contained.
        (m, "", "", false, "touch a.txt", "ask", "ask", "team.ask-touch"),
        (m, USER_RELAXABLE, "", false, "touch a.txt", "ask", "ask", "team.ask-touch"),
        (m, "", "", true, "cargo build", "ask", "ask", "team.ask-build"),
        (m, USER_CONTAINED, "", true, "cargo build", "ask", "ask", "team.ask-build"),
        ("", USER_RELAXABLE_FIRST, "", false, "touch a.txt", "ask", "allow", "fs.change"),
        (m, USER_RELAXABLE_FIRST, "", false, "touch a.txt", "ask", "ask", "team.ask-touch"),
        ("", USER_CONTAINED_FIRST, "", true, "cargo build", "ask", "allow", "build.run"),
        (m, USER_CONTAINED_FIRST, "", true, "cargo build", "ask", "ask", "team.ask-build"),
        // A managed fallback: where no ordinary rule of the defaults or the managed policy
        // matches, no rule of a later layer lowers it; a default rule that matches keeps it
        // from applying, as a default fallback is kept.
        (MANAGED_FALLBACKS, "", "", false, "helm install x ./chart", "deny", "deny", "team.no-helm"),
        (MANAGED_FALLBACKS, USER_SAFE_HELM, "", false, "helm install x ./chart", "deny", "deny", "team.no-helm"),
        (MANAGED_FALLBACKS, "", PROJECT_ASK_HELM, false, "helm install x ./chart", "deny", "deny", "team.no-helm"),
        ("", USER_SAFE_HELM, "", false, "helm install x ./chart", "allow", "allow", "me.helm"),
        (MANAGED_FALLBACKS, "", "", false, "git push", "ask", "ask", "team.ask-git"),
        (MANAGED_FALLBACKS, "", "", false, "git status", "allow", "allow", "git.read"),
        // A later rule may be stricter.
        (m, USER_STRICTER, "", false, "touch a.txt", "deny", "deny", "me.no-touch"),
        // Managed path lists: a later `not_sensitive` does not lift a managed secret.
        ("", "", "", false, secret, "allow", "allow", "read.files"),
        (m, "", "", false, secret, "ask", "ask", "file.read-secret"),
        (m, USER_NOT_SENSITIVE, "", false, secret, "ask", "ask", "file.read-secret"),
        (m, USER_NOT_SENSITIVE, "", false, "echo x > ~/team.conf", "deny", "deny", "path.protected-write"),
        // A managed file that does not load denies every call, naming the file.
        ("[[rule", "", "", false, "ls", "block", "block", "the managed policy"),
        ("[[rule]]\nid = \"x\"\ntier = \"sometimes\"\ncommand = \"ls\"\n", "", "", false, "ls", "block", "block", "programmer-hook.toml"),
        ("[rule]\nid = \"x\"\n", "", "", false, "ls", "block", "block", "does not load, so every tool call is denied"),
        (FOLDER, "", "", false, "ls", "block", "block", "the managed policy"),
    ];
    let mut wrong = Vec::new();
    for (managed, user, project, sandbox, cmd, default, auto, says) in cases {
        for (session, want) in [(false, default), (true, auto)] {
            let (code, d, reason) = gate(managed, user, project, session, *sandbox, cmd);
            let code_ok = if *want == "block" {
                code == 2
            } else {
                code == 0
            };
            if !code_ok || d != *want || !reason.contains(says) {
                wrong.push(format!(
                    "managed={} user={user:?} project={project:?} auto={session} sandbox={sandbox} {cmd:?}: want {want} saying {says:?}, got {d} (exit {code}: {reason})",
                    managed.lines().next().unwrap_or("")
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// `policy show` lists the managed rules as the layer `managed`; `policy validate` checks
/// a user's file over them and the machine's managed file as the managed layer; `doctor`
/// fails its policy check, naming the file, when the managed file does not load.
#[test]
fn the_cli_shows_validates_and_doctors_the_managed_policy() {
    let (home, _) = home::with_project(&["src"], &["--description", "d"]);
    let h = home.path();
    let managed = h.join("managed/programmer-hook.toml");
    std::fs::create_dir_all(h.join("managed")).expect("managed folder");
    std::fs::write(&managed, MANAGED_RULES).expect("managed file");
    let run = |args: &[&str]| {
        let out = home::command(h).args(args).output().expect("runs");
        let text = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (out.status.code(), text)
    };
    let (code, shown) = run(&["policy", "show", "--layer", "managed"]);
    assert_eq!(code, Some(0), "{shown}");
    let line = shown
        .lines()
        .find(|l| l.contains("team.no-terraform"))
        .unwrap_or_default();
    assert!(line.starts_with("managed "), "{shown}");
    let (code, valid) = run(&["policy", "validate", &managed.to_string_lossy()]);
    assert_eq!(code, Some(0), "{valid}");
    assert!(
        valid.contains("valid as the managed policy (3 rules)"),
        "{valid}"
    );
    let user = h.join("user.toml");
    std::fs::write(&user, USER_DISABLE).expect("user file");
    let (code, refused) = run(&["policy", "validate", &user.to_string_lossy()]);
    assert_eq!(code, Some(1), "{refused}");
    assert!(
        refused.contains("\"team.no-terraform\" is a rule of the managed policy"),
        "{refused}"
    );
    std::fs::write(&managed, "[[rule").expect("broken managed file");
    // With hook entries in place (without any, doctor lists what is left of an install).
    let (code, installed) = run(&["install-hooks"]);
    assert_eq!(code, Some(0), "{installed}");
    let (_, doctor) = run(&["doctor"]);
    let check = doctor
        .lines()
        .find(|l| l.contains("policy:"))
        .unwrap_or_default();
    assert!(
        check.starts_with("FAIL")
            && check.contains("the managed policy")
            && check.contains("programmer-hook.toml"),
        "{doctor}"
    );
}
