//! The policy subcommands through the real binary.

use assert_cmd::Command;

fn bin() -> Command {
    let mut c = Command::cargo_bin("programmer-hook").expect("binary");
    c.env_remove("PROGRAMMER_STATE_DIR")
        .env_remove("CLAUDE_CONFIG_DIR")
        .env("PROGRAMMER_HOOK_TEST_NO_CONFINE", "1");
    c
}

#[test]
fn default_policy_examples_pass() {
    let out = bin().args(["policy", "test"]).output().expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains(" passed, 0 failed"), "{text}");
}

#[test]
fn check_exit_codes_and_json() {
    let home = tempfile::tempdir().expect("tempdir");
    let cases: &[(&str, i32, &str)] = &[
        ("git status", 0, "allow"),
        ("npm install", 3, "ask"),
        ("rm -rf ~", 4, "deny"),
    ];
    for (cmd, code, word) in cases {
        let out = bin()
            .env("HOME", home.path())
            .args(["policy", "check", "--json", "--cwd", "/tmp", "--", cmd])
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(*code), "{cmd}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        assert_eq!(v["decision"], *word);
        for k in ["tier", "rule", "reason", "commands"] {
            assert!(!v[k].is_null(), "{k} in {v}");
        }
    }
    let out = bin()
        .env("HOME", home.path())
        .args(["policy", "check", "--tool", "Write", "--path", "/etc/hosts"])
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(4));
    assert!(String::from_utf8_lossy(&out.stdout).contains("path.protected-write"));
}

#[test]
fn validate_reports_line_numbers() {
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("p.toml");
    std::fs::write(&f, "[[rule]]\nid = 'a'\ncommand = ['x']\nbogus = 1\n").expect("write");
    let out = bin()
        .args(["policy", "validate"])
        .arg(&f)
        .output()
        .expect("runs");
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("p.toml:4:"), "{err}");
    std::fs::write(
        &f,
        "[[rule]]\nid = 'a'\ntier = 'forbidden'\ncommand = ['x']\nmatch = ['x --go']\n",
    )
    .expect("write");
    let out = bin()
        .args(["policy", "validate"])
        .arg(&f)
        .output()
        .expect("runs");
    assert!(out.status.success());
    let out = bin()
        .args(["policy", "test"])
        .arg(&f)
        .output()
        .expect("runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

/// A scratch HOME with a user file that replaces one default rule, disables another and
/// adds one, and a repository whose project file adds one.
struct Layers {
    dir: tempfile::TempDir,
}

impl Layers {
    const USER_FILE: &'static str = "home/.claude/state/programmer/policy.toml";
    const PROJECT_FILE: &'static str = "repo/.claude/programmer-policy.toml";

    fn new() -> Layers {
        let dir = tempfile::tempdir().expect("tempdir");
        let write = |rel: &str, text: &str| {
            let p = dir.path().join(rel);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(p, text).expect("write");
        };
        write(
            Self::USER_FILE,
            "[[rule]]\nid = 'unknown.command'\ntier = 'confirm'\nfallback = true\nrelaxable = true\nreason = 'unknown'\ncommand = ['*']\n\n\
             [[rule]]\nid = 'read.find'\ndisabled = true\n\n\
             [[rule]]\nid = 'my.frob'\ntier = 'safe'\nreason = 'frob only lists'\ncommand = ['frob']\nsubcommand = ['list']\n",
        );
        write(
            Self::PROJECT_FILE,
            "[[rule]]\nid = 'proj.no-deploy'\ntier = 'forbidden'\nreason = 'no deploys'\ncommand = ['deploy']\n",
        );
        std::fs::create_dir_all(dir.path().join("repo/.git")).expect("mkdir");
        Layers { dir }
    }
    fn path(&self, rel: &str) -> String {
        self.dir.path().join(rel).display().to_string()
    }
    fn show(&self, args: &[&str]) -> std::process::Output {
        bin()
            .env("HOME", self.dir.path().join("home"))
            .args(["policy", "show", "--cwd"])
            .arg(self.dir.path().join("repo"))
            .args(args)
            .output()
            .expect("runs")
    }
}

/// `policy show` says of each rule which layer and file it came from, and which rules a
/// later layer replaced or disabled.
#[test]
fn show_names_the_layer_of_every_rule() {
    let l = Layers::new();
    let (user, project) = (l.path(Layers::USER_FILE), l.path(Layers::PROJECT_FILE));
    let out = l.show(&["--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let rule = |id: &str| {
        v["rules"]
            .as_array()
            .expect("rules")
            .iter()
            .find(|r| r["id"] == id)
            .cloned()
    };
    let in_force: &[(&str, &str, &str)] = &[
        ("my.frob", "user", &user),
        ("unknown.command", "user", &user),
        ("proj.no-deploy", "project", &project),
        ("git.read", "default", "policy/30-safe.toml"),
    ];
    for (id, layer, file) in in_force {
        let r = rule(id).unwrap_or_else(|| panic!("{id} is in force"));
        assert_eq!(
            (r["layer"].as_str(), r["file"].as_str()),
            (Some(*layer), Some(*file)),
            "{id}"
        );
    }
    assert!(rule("read.find").is_none(), "disabled");
    let changes: Vec<(String, String, String, String, String)> = v["overridden"]
        .as_array()
        .expect("overridden")
        .iter()
        .map(|c| {
            let s = |key: &serde_json::Value| -> String {
                key.as_str().unwrap_or_default().to_string()
            };
            (
                s(&c["id"]),
                s(&c["action"]),
                s(&c["layer"]),
                s(&c["by"]["layer"]),
                s(&c["by"]["file"]),
            )
        })
        .collect();
    let want = [
        (
            "unknown.command",
            "replaced",
            "default",
            "user",
            user.as_str(),
        ),
        ("read.find", "disabled", "default", "user", user.as_str()),
    ]
    .map(|(a, b, c, d, e)| (a.into(), b.into(), c.into(), d.into(), e.into()));
    assert_eq!(changes, want);
    for key in ["paths", "kinds", "commands", "workflow", "layers"] {
        assert!(!v[key].is_null(), "{key}");
    }

    // The table: one row per rule with its layer, and what was disabled and by whom.
    let out = l.show(&[]);
    let text = String::from_utf8_lossy(&out.stdout);
    let row = |id: &str| {
        text.lines()
            .find(|line| line.split_whitespace().nth(3) == Some(id))
            .unwrap_or_else(|| panic!("no row for {id}: {text}"))
            .to_string()
    };
    assert!(row("my.frob").starts_with("user "), "{text}");
    assert!(
        row("my.frob").contains("command=frob subcommand=list"),
        "{text}"
    );
    assert!(row("proj.no-deploy").starts_with("project "), "{text}");
    assert!(row("git.read").starts_with("default "), "{text}");
    assert!(
        row("unknown.command").contains("replaces the rule of default"),
        "{text}"
    );
    assert!(
        text.contains(&format!(
            "read.find  (default policy/30-safe.toml, safe): disabled by user {user}"
        )),
        "{text}"
    );
    assert!(text.contains(&format!("  project  {project}")), "{text}");

    // Filters: one layer; an id prefix; an id no rule has.
    let out = l.show(&["--layer", "project", "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let ids: Vec<&str> = v["rules"]
        .as_array()
        .expect("rules")
        .iter()
        .filter_map(|r| r["id"].as_str())
        .collect();
    assert_eq!(ids, ["proj.no-deploy"]);
    assert_eq!(v["overridden"], serde_json::json!([]));
    let out = l.show(&["--id", "read.f"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(
        text.contains("disabled by user") && !text.contains("git.read"),
        "{text}"
    );
    let out = l.show(&["--id", "no.such"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no.such"));
}

/// A reader that stops early (`programmer-hook policy show | head`) ends the command
/// quietly, as it would any Unix tool: no panic, no error message.
#[test]
fn closed_stdout_ends_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_programmer-hook"))
        .args(["policy", "show", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut first = [0u8; 16];
    stdout.read_exact(&mut first).expect("some output");
    drop(stdout);
    let out = child.wait_with_output().expect("wait");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.is_empty(), "stderr: {stderr}");
    assert!(
        !out.status.success(),
        "the output (over 100 KB) cannot all be written"
    );
}

/// Each simple command is listed once, even when it is judged in several folders (after a
/// `cd`); the text output stays readable for a long command.
#[test]
fn check_lists_each_part_once() {
    let home = tempfile::tempdir().expect("tempdir");
    let out = bin()
        .env("HOME", home.path())
        .args(["policy", "check", "--json", "--cwd", "/tmp", "--"])
        .arg("cd src && ls && cat a.txt")
        .output()
        .expect("runs");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let subjects: Vec<&str> = v["commands"]
        .as_array()
        .expect("commands")
        .iter()
        .filter_map(|c| c["subject"].as_str())
        .collect();
    assert_eq!(subjects, ["cd src", "ls", "cat a.txt"]);

    let long: String = (0..200).map(|i| format!("ls d{i}; ")).collect();
    let out = bin()
        .env("HOME", home.path())
        .args(["policy", "check", "--cwd", "/tmp", "--", &long])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!("({} bytes in all)", long.len())),
        "{text}"
    );
    assert!(
        text.contains("… and 160 more (--json lists them all)"),
        "{text}"
    );
    assert!(text.lines().count() < 60, "{text}");
}

/// `relaxable` is for Confirm rules only, and a project file may never set it; the user's
/// file may (here replacing the fallback for unknown programs by id).
#[test]
fn relaxable_is_checked_on_validate() {
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("p.toml");
    let validate = |project: bool| {
        let mut c = bin();
        c.args(["policy", "validate"]).arg(&f);
        if project {
            c.arg("--project");
        }
        c.output().expect("runs")
    };
    for tier in ["forbidden", "safe"] {
        std::fs::write(
            &f,
            format!(
                "[[rule]]\nid = 'my.rule'\ntier = '{tier}'\nrelaxable = true\ncommand = ['x']\n"
            ),
        )
        .expect("write");
        for project in [false, true] {
            let out = validate(project);
            let err = String::from_utf8_lossy(&out.stderr);
            assert!(!out.status.success(), "{tier}: {err}");
            assert!(
                err.contains("\"my.rule\"") && err.contains("relaxable"),
                "{tier}: {err}"
            );
        }
    }
    std::fs::write(
        &f,
        "[[rule]]\nid = 'proj.confirm'\ntier = 'confirm'\nrelaxable = true\ncommand = ['x']\n",
    )
    .expect("write");
    let out = validate(true);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{err}");
    assert!(
        err.contains("\"proj.confirm\"") && err.contains("stricter"),
        "{err}"
    );
    // The same rule without `relaxable` is a valid project rule.
    std::fs::write(
        &f,
        "[[rule]]\nid = 'proj.confirm'\ntier = 'confirm'\ncommand = ['x']\n",
    )
    .expect("write");
    assert!(validate(true).status.success());
    // The user's file may make the unknown-program fallback relaxable.
    std::fs::write(
        &f,
        "[[rule]]\nid = 'unknown.command'\ntier = 'confirm'\nfallback = true\nrelaxable = true\nreason = 'unknown'\ncommand = ['*']\n",
    )
    .expect("write");
    let out = validate(false);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// `policy check` says whether a Confirm verdict is relaxable, in JSON and in text.
#[test]
fn check_says_whether_autonomy_relaxes_it() {
    let home = tempfile::tempdir().expect("tempdir");
    let cases: &[(&str, bool, &str)] = &[
        (
            "npm install --ignore-scripts",
            true,
            "autonomy auto: allowed without asking (relaxable)",
        ),
        (
            "npm install",
            false,
            "autonomy auto: allowed without asking, run confined in the project profile",
        ),
        (
            "frobnicate --x",
            false,
            "autonomy auto: still asked (not relaxable",
        ),
        ("git status", false, ""),
        ("rm -rf ~", false, ""),
    ];
    for (cmd, relaxable, text) in cases {
        let run = |json: bool| {
            let mut c = bin();
            c.env("HOME", home.path()).args(["policy", "check"]);
            if json {
                c.arg("--json");
            }
            c.args(["--cwd", "/work", "--", cmd])
                .output()
                .expect("runs")
        };
        let v: serde_json::Value = serde_json::from_slice(&run(true).stdout).expect("json");
        assert_eq!(v["relaxable"], *relaxable, "{cmd}: {v}");
        assert!(
            v["commands"]
                .as_array()
                .expect("commands")
                .iter()
                .all(|c| c["relaxable"].is_boolean()),
            "{v}"
        );
        let out = String::from_utf8_lossy(&run(false).stdout).to_string();
        if text.is_empty() {
            assert!(!out.contains("autonomy auto"), "{cmd}: {out}");
        } else {
            assert!(out.contains(text), "{cmd}: {out}");
        }
    }
}

/// A mistake in how a command is called is a usage error (exit 2) that says what was
/// wrong; a failure while doing what was asked is exit 1. One case per line:
/// `(arguments, exit status, text the message must hold)`.
#[test]
#[rustfmt::skip]
fn usage_errors_and_failures_say_what_was_wrong() {
    let home = tempfile::tempdir().expect("tempdir");
    let cases: &[(&[&str], i32, &str)] = &[
        (&["policy", "check", "--jsn", "--", "ls"], 2, "unexpected option `--jsn`; did you mean `--json`?"),
        (&["policy", "chek", "--", "ls"], 2, "a similar subcommand exists: 'check'"),
        (&["log", "--decisoin", "deny"], 2, "a similar argument exists: '--decision'"),
        (&["stauts"], 2, "a similar subcommand exists: 'status'"),
        (&["policy", "check", "--tool", "Bash"], 2, "nothing to check"),
        (&["policy", "check", "--tool", "Bash", "--path", "x"], 2, "--tool Bash checks a command"),
        (&["policy", "check", "--cwd", "/no/such/dir", "--", "ls"], 2, "--cwd /no/such/dir: no such folder"),
        (&["policy", "show", "--cwd", "/no/such/dir"], 2, "--cwd /no/such/dir: no such folder"),
        (&["policy", "check"], 2, "nothing to check"),
        (&["policy", "check", "--tool", "Write"], 2, "--tool Write needs the file it acts on"),
        (&["policy", "check", "--tool", "Write", "--path", "a", "--", "ls"], 2, "not both"),
        (&["policy", "nonsense"], 2, "unrecognized subcommand"),
        (&["autonomy", "auto", "--session", "nope"], 1, "no session \"nope\" is known"),
        (&["abort", "--session", "nope"], 1, "no session \"nope\" is known"),
        (&["approve", "--session", "nope"], 1, "no session \"nope\" is known"),
        (&["continue", "--session", "nope"], 1, "no session \"nope\" is known"),
        (&["status", "--session", "nope"], 1, "no session \"nope\" is known"),
        (&["log", "--session", "nope"], 1, "no session \"nope\" is known"),
        (&["report", "--session", "nope"], 1, "no session \"nope\" is known"),
        (&["autonomy", "auto"], 1, "no session was active in the last 60 minutes"),
    ];
    for (args, code, text) in cases {
        let out = bin().env("HOME", home.path()).args(*args).output().expect("runs");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(*code), "{args:?}: {stderr}");
        assert!(stderr.contains(text), "{args:?}: {stderr}");
    }
    // Nothing was recorded for the unknown session.
    assert!(!home.path().join(".claude/state/programmer/session-autonomy.json").exists());
}

/// `policy validate` reports every problem of a file at once, each at its line and column,
/// and checks a file as the layer it is from where it sits (or `--layer`).
#[test]
fn validate_reports_every_problem_where_it_is() {
    let dir = tempfile::tempdir().expect("tempdir");
    let user = dir.path().join("policy.toml");
    std::fs::write(
        &user,
        r#"[[rule]]
id = "git.forcepush"
disabled = true

[[rule]]
id = "mine.x"
tier = "forbidden"
reason = "x"
signal = "remote-cod"

[[rule]]
id = "mine.x"
reason = "x"
command = ["foo"]
line_regex = "("

[[rule]]
id = "mine.y"
reason = "y"
colour = "blue"

[bogus]
x = 1
"#,
    )
    .expect("write");
    let out = bin()
        .env("HOME", dir.path())
        .args(["policy", "validate"])
        .arg(&user)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stderr);
    let f = user.display().to_string();
    for want in [
        format!("{f}:2:6: rule \"git.forcepush\" is disabled, but no rule has that id"),
        format!("{f}:6:6: rule \"mine.x\" names the signal \"remote-cod\""),
        format!("{f}:12:6: rule \"mine.x\" has an invalid regex"),
        format!("{f}:12:6: rule \"mine.x\" is given twice in this file"),
        format!("{f}:20:1: unknown key `colour` in a rule"),
        format!("{f}:22:2: unknown table `bogus`"),
        "6 problems as the user's file".to_string(),
    ] {
        assert!(text.contains(&want), "missing {want:?} in:\n{text}");
    }

    // A project file that relaxes the policy is refused where it sits, and as --layer user
    // the same text is fine.
    let project = dir.path().join("repo/.claude/programmer-policy.toml");
    std::fs::create_dir_all(project.parent().expect("parent")).expect("mkdir");
    std::fs::write(
        &project,
        "[[rule]]\nid = \"my.rm\"\ntier = \"safe\"\nreason = \"fine\"\ncommand = [\"rm\"]\n",
    )
    .expect("write");
    let run = |extra: &[&str]| {
        bin()
            .env("HOME", dir.path())
            .args(["policy", "validate"])
            .args(extra)
            .arg(&project)
            .output()
            .expect("runs")
    };
    let out = run(&[]);
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(
        text.contains(":2:6: rule \"my.rm\" would relax the policy"),
        "{text}"
    );
    assert!(text.contains("as a project file"), "{text}");
    let out = run(&["--layer", "user"]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(&["--layer", "project"]);
    assert_eq!(out.status.code(), Some(1));
}

/// One mistake hides no other: an unknown key beside a wrong tier in one rule, several
/// wrong values in another, and the other tables' keys, each reported at its own line and
/// column (none at 1:1), for a user's file and for a project's.
#[test]
fn validate_reports_each_mistake_of_a_rule_or_table_at_its_place() {
    let dir = tempfile::tempdir().expect("tempdir");
    let user = dir.path().join("policy.toml");
    std::fs::write(
        &user,
        r#"[[rule]]
id = "mine.x"
tier = "forbiden"
reason = "x"
comand = ["ls"]

[[rule]]
id = "mine.y"
command = ["ls"]
path_class = ["nope"]
relaxable = "yes"

[commands]
cp = { reads = "every" }

[kinds]
shellz = ["x"]

[workflow]
max_review_rounds = "three"
"#,
    )
    .expect("write");
    let project = dir.path().join("repo/.claude/programmer-policy.toml");
    std::fs::create_dir_all(project.parent().expect("parent")).expect("mkdir");
    std::fs::write(
        &project,
        r#"[paths]
protected = ["~/y"]
not_sensitive = ["~/x"]

[commands]
cp = { writes = "all" }

[workflow]
max_review_rounds = 9
"#,
    )
    .expect("write");
    let validate = |file: &std::path::Path| {
        let out = bin()
            .env("HOME", dir.path())
            .args(["policy", "validate"])
            .arg(file)
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(1));
        String::from_utf8_lossy(&out.stderr).to_string()
    };
    let text = validate(&user);
    let f = user.display();
    for want in [
        format!("{f}:3:8: `tier` in a rule: unknown variant `forbiden`"),
        format!("{f}:5:1: unknown key `comand` in a rule"),
        format!("{f}:10:14: `path_class` in a rule: unknown variant `nope`"),
        format!("{f}:11:13: `relaxable` in a rule: invalid type"),
        format!("{f}:14:16: `reads` in the effects of \"cp\": unknown variant `every`"),
        format!("{f}:17:1: unknown key `shellz` in `kinds`"),
        format!("{f}:20:21: `max_review_rounds` in `workflow`: invalid type"),
        "7 problems as the user's file".to_string(),
    ] {
        assert!(text.contains(&want), "missing {want:?} in:\n{text}");
    }
    let text = validate(&project);
    let f = project.display();
    for want in [
        format!("{f}:3:1: `paths.not_sensitive` would relax the policy"),
        format!("{f}:6:1: the effects of \"cp\" are already defined"),
        format!("{f}:8:2: a project policy may not change workflow settings"),
        "3 problems as a project file".to_string(),
    ] {
        assert!(text.contains(&want), "missing {want:?} in:\n{text}");
    }
    assert!(!text.contains(":1:1:"), "{text}");
}

/// A rule naming a signal the analysis never raises is refused by `policy validate`, in a
/// user's file and in a project's: the message gives the file, the rule's id, the name and
/// the names there are.
#[test]
fn validate_refuses_a_misspelt_signal() {
    let dir = tempfile::tempdir().expect("tempdir");
    let user = dir.path().join("policy.toml");
    let project = dir.path().join("repo/.claude/programmer-policy.toml");
    std::fs::create_dir_all(project.parent().expect("parent")).expect("mkdir");
    let rule = "[[rule]]\nid = \"mine.remote\"\ntier = \"forbidden\"\nreason = \"x\"\nsignal = \"remote-cod\"\n";
    for file in [&user, &project] {
        std::fs::write(file, rule).expect("write");
        let out = bin()
            .env("HOME", dir.path())
            .args(["policy", "validate"])
            .arg(file)
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(1));
        let text = String::from_utf8_lossy(&out.stderr);
        let want = format!(
            "{}:2:6: rule \"mine.remote\" names the signal \"remote-cod\", which the analysis never raises (one of: remote-code, stdin-code,",
            file.display()
        );
        assert!(text.contains(&want), "missing {want:?} in:\n{text}");
        assert!(text.contains("secret-sent, *)"), "{text}");
    }
}

/// The hook refuses a user file for the same problems `policy validate` reports: a
/// misspelled signal would be a Forbidden rule that never fires.
#[test]
fn the_hook_refuses_what_validate_reports() {
    let home = tempfile::tempdir().expect("tempdir");
    let state = home.path().join(".claude/state/programmer");
    std::fs::create_dir_all(&state).expect("mkdir");
    std::fs::write(
        state.join("policy.toml"),
        "[[rule]]\nid = \"mine.x\"\ntier = \"forbidden\"\nreason = \"x\"\nsignal = \"remote-cod\"\n",
    )
    .expect("write");
    let ev = serde_json::json!({
        "session_id": "s", "cwd": "/tmp", "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": "ls"},
    });
    let out = bin()
        .env("HOME", home.path())
        .arg("hook")
        .write_stdin(ev.to_string())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(2));
    let text = String::from_utf8_lossy(&out.stderr);
    assert!(text.contains("remote-cod"), "{text}");
    assert!(text.contains("policy validate"), "{text}");
    // The blocked call is in the audit log, with the reason.
    let out = bin()
        .env("HOME", home.path())
        .args(["log", "--json"])
        .output()
        .expect("runs");
    let entries: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("json line"))
        .collect();
    assert_eq!(entries.len(), 1, "{entries:?}");
    let e = &entries[0];
    assert_eq!(e["decision"], "deny", "{e}");
    assert_eq!(e["rule"], "hook.blocked", "{e}");
    assert_eq!(e["session"], "s", "{e}");
    assert_eq!(e["tool"], "Bash", "{e}");
    assert!(
        e["blocked"]
            .as_str()
            .unwrap_or_default()
            .contains("remote-cod"),
        "{e}"
    );
}

/// A denial for a path the project's own policy protects says so, rather than giving only
/// the reason written for SSH keys and system folders.
#[test]
fn a_path_the_project_protects_is_named_as_such() {
    let home = tempfile::tempdir().expect("tempdir");
    let repo = home.path().join("repo");
    std::fs::create_dir_all(repo.join(".claude")).expect("mkdir");
    std::fs::create_dir_all(repo.join(".git")).expect("mkdir");
    std::fs::write(
        repo.join(".claude/programmer-policy.toml"),
        "[paths]\nprotected = [\"deploy/**\"]\n",
    )
    .expect("write");
    let check = |path: &str| -> serde_json::Value {
        let out = bin()
            .env("HOME", home.path())
            .args([
                "policy", "check", "--json", "--tool", "Write", "--path", path, "--cwd",
            ])
            .arg(&repo)
            .output()
            .expect("runs");
        serde_json::from_slice(&out.stdout).expect("json")
    };
    let v = check("deploy/prod.yml");
    assert_eq!(v["decision"], "deny", "{v}");
    let reason = v["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains("protected by the project's own policy"),
        "{reason}"
    );
    let v = check(&home.path().join(".ssh/config").display().to_string());
    assert_eq!(v["decision"], "deny", "{v}");
    let reason = v["reason"].as_str().unwrap_or_default();
    assert!(!reason.contains("project's own policy"), "{reason}");
}

/// `log` shows a header and the session, matches names without regard to case, rejects a
/// day it cannot read and says which days the log holds when the one asked for is empty.
#[test]
fn log_filters_say_what_they_found() {
    let home = tempfile::tempdir().expect("tempdir");
    let hook = |session: &str, tool: &str, input: serde_json::Value| {
        let ev = serde_json::json!({
            "session_id": session, "cwd": "/tmp", "hook_event_name": "PreToolUse",
            "tool_name": tool, "tool_input": input,
        });
        let out = bin()
            .env("HOME", home.path())
            .arg("hook")
            .write_stdin(ev.to_string())
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(0));
    };
    hook(
        "session-one-0123456789",
        "Write",
        serde_json::json!({"file_path": "/tmp/a.txt", "content": ""}),
    );
    hook("session-two", "Bash", serde_json::json!({"command": "ls"}));
    let log = |args: &[&str]| {
        let out = bin()
            .env("HOME", home.path())
            .arg("log")
            .args(args)
            .output()
            .expect("runs");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (code, out, _) = log(&["--tool", "write"]);
    assert_eq!(code, Some(0));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(
        lines[0].starts_with("TIME (UTC)") && lines[0].contains("SESSION"),
        "{out}"
    );
    assert!(
        lines[1].contains("session-one-") && lines[1].contains("Write"),
        "{out}"
    );
    assert!(
        !lines[1].contains("session-one-0123456789"),
        "ids are shortened: {out}"
    );
    let (code, out, _) = log(&["--rule", "READ"]);
    assert_eq!(code, Some(0));
    assert!(
        out.contains("session-two") && !out.contains("session-one"),
        "{out}"
    );
    let (code, _, err) = log(&["--date", "yesterday"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--date \"yesterday\" is not a day"), "{err}");
    let (code, out, err) = log(&["--date", "2020-01-01"]);
    assert_eq!(code, Some(0));
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("no decisions were logged on 2020-01-01; the log holds"),
        "{err}"
    );
    assert!(!err.contains("no audit log yet"), "{err}");
}

/// One event through the hook, in `home`; it is answered.
fn event_in(home: &std::path::Path, ev: serde_json::Value) {
    let out = bin()
        .env("HOME", home)
        .arg("hook")
        .write_stdin(ev.to_string())
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0));
}

/// One tool call of `session` through the hook, in `home`.
fn call_in(home: &std::path::Path, session: &str) {
    event_in(
        home,
        serde_json::json!({
            "session_id": session, "cwd": home, "hook_event_name": "PreToolUse",
            "tool_name": "Bash", "tool_input": {"command": "git status"},
        }),
    );
}

/// Every command that takes `--session` takes a prefix only one session has (the `log`
/// table shows ids cut short); a prefix several share lists them; `status --all` lists
/// every session seen, workflow or not. One case per line: `(arguments, exit status, text
/// stdout or stderr must hold)`.
#[test]
#[rustfmt::skip]
fn sessions_are_taken_by_a_unique_prefix_everywhere() {
    let home = tempfile::tempdir().expect("tempdir");
    let (a, b, c) = (
        "5f3a9c1e-0000-4000-8000-00000000000a",
        "5f3a9c1e-0000-4000-8000-00000000000b",
        "77aa0d2c-0000-4000-8000-00000000000c",
    );
    for s in [a, b, c] {
        call_in(home.path(), s);
    }
    let cases: &[(&[&str], i32, &str)] = &[
        (&["log", "--session", "77aa0d2c", "--json"], 0, c),
        (&["log", "--session", "5f3a9c1e"], 1, "could be any of 2 sessions"),
        (&["status", "--session", "77aa"], 0, c),
        (&["status", "--session", "5f3a9c1e"], 1, b),
        (&["report", "--session", "77aa", "--json"], 0, "\"allow\": 1"),
        (&["report", "--session", "5f3a"], 1, a),
        (&["autonomy", "confirm", "--session", "77aa"], 0, c),
        (&["abort", "--session", "5f3a"], 1, "give more of its id"),
        (&["status", "--all"], 0, a),
        (&["status", "--all"], 0, c),
        (&["status", "--all", "--json"], 0, "\"calls\": 1"),
        (&["status"], 0, "status --all"),
        // Three sessions are active: a setting that relaxes the hook must name one.
        (&["autonomy", "auto"], 1, "3 sessions were active in the last 60 minutes"),
        (&["autonomy", "auto"], 1, c),
    ];
    for (args, code, text) in cases {
        let out = bin().env("HOME", home.path()).args(*args).output().expect("runs");
        let both = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(out.status.code(), Some(*code), "{args:?}: {both}");
        assert!(both.contains(text), "{args:?}: {both}");
    }
    let log = bin().env("HOME", home.path()).args(["log", "--session", "77aa", "--json"])
        .output().expect("runs");
    let lines = String::from_utf8_lossy(&log.stdout).lines().count();
    assert_eq!(lines, 1, "only the session's own call");
    let map = std::fs::read_to_string(home.path().join(".claude/state/programmer/session-autonomy.json"))
        .unwrap_or_default();
    assert!(!map.contains("auto"), "no session was made auto: {map}");
}

/// `autonomy auto` without `--session` applies where one session alone is active, and says
/// which.
#[test]
fn autonomy_without_a_session_applies_to_the_only_active_one_and_names_it() {
    let home = tempfile::tempdir().expect("tempdir");
    let id = "0b7e51aa-0000-4000-8000-000000000001";
    call_in(home.path(), id);
    let out = bin()
        .env("HOME", home.path())
        .args(["autonomy", "auto"])
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains(&format!("session {id} (the only session active")),
        "{text}"
    );
    let map = std::fs::read_to_string(
        home.path()
            .join(".claude/state/programmer/session-autonomy.json"),
    )
    .expect("autonomy recorded");
    assert!(map.contains(id), "{map}");
}

/// A prompt of `session` through the hook, in `home`.
fn prompt_in(home: &std::path::Path, session: &str, prompt: &str) {
    event_in(
        home,
        serde_json::json!({
            "session_id": session, "cwd": home, "hook_event_name": "UserPromptSubmit",
            "prompt": prompt,
        }),
    );
}

/// `approve`, `continue` and `abort` without `--session` act only where exactly one
/// workflow is open; with several open (a session file that cannot be read counts), they
/// list them (id, project, phase, age), change nothing and exit 1; with none, they say so.
#[test]
fn controls_without_a_session_act_only_on_the_one_open_workflow() {
    let home = tempfile::tempdir().expect("tempdir");
    let (a, b) = (
        "a1a1a1a1-0000-4000-8000-00000000000a",
        "b2b2b2b2-0000-4000-8000-00000000000b",
    );
    prompt_in(home.path(), a, "/programmer add a greeting");
    prompt_in(home.path(), b, "/programmer add a farewell");
    let run = |args: &[&str]| {
        let out = bin()
            .env("HOME", home.path())
            .args(args)
            .output()
            .expect("runs");
        let both = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (out.status.code(), both)
    };
    let phase = |id: &str| {
        let (_, text) = run(&["status", "--json", "--session", id]);
        let v: serde_json::Value = serde_json::from_str(&text).expect("status --json");
        v["phase"].as_str().unwrap_or_default().to_string()
    };
    assert_eq!((phase(a), phase(b)), ("plan".into(), "plan".into()));
    for cmd in ["approve", "continue", "abort"] {
        let (code, text) = run(&[cmd]);
        assert_eq!(code, Some(1), "{cmd}: {text}");
        assert!(
            text.contains("2 workflows are open")
                && text.contains("--session ID")
                && text.contains(&format!("  {a}  project (none), phase plan, changed "))
                && text.contains(&format!("  {b}  project (none), phase plan, changed "))
                && text.contains(" s ago"),
            "{cmd}: {text}"
        );
    }
    assert_eq!((phase(a), phase(b)), ("plan".into(), "plan".into()));

    // One open: it is the one acted on, and named.
    let (code, text) = run(&["abort", "--session", "a1a1"]);
    assert_eq!(code, Some(0), "{text}");
    let (code, text) = run(&["abort"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(
        text.contains(&format!("the only open workflow is in session {b}")),
        "{text}"
    );
    assert_eq!((phase(a), phase(b)), ("none".into(), "none".into()));
    let (code, text) = run(&["continue"]);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("no session has an open workflow"), "{text}");

    // A session file that cannot be read is held halted by the hook: it counts as open.
    prompt_in(home.path(), a, "/programmer add a greeting");
    let sessions = home.path().join(".claude/state/programmer/sessions");
    std::fs::write(sessions.join("c3c3c3c3-0000.json"), "{oops").expect("write");
    let (code, text) = run(&["approve"]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("2 workflows are open")
            && text.contains(&format!("  {a}  project (none), phase plan"))
            && text.contains("  c3c3c3c3-0000 (state file ")
            && text.contains("unreadable"),
        "{text}"
    );
    assert_eq!(phase(a), "plan");
    // Named by that id, it is acted on (the hook's halted workflow ends).
    let (code, text) = run(&["abort", "--session", "c3c3c3c3-0000"]);
    assert_eq!(code, Some(0), "{text}");
    let (code, text) = run(&["abort"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains(&format!("session {a}")), "{text}");
}

/// The files `policy check` lists as written by chmod, chown and chgrp are their files, not
/// their mode or owner; where a word could be either, it counts as a file. One case per
/// line: `(command, the files it lists as written, in the project)`.
#[test]
#[rustfmt::skip]
fn a_mode_or_an_owner_is_not_listed_as_a_file() {
    let home = tempfile::tempdir().expect("tempdir");
    let project = home.path().join("p");
    std::fs::create_dir_all(&project).expect("mkdir");
    let cases: &[(&str, &[&str])] = &[
        ("chmod 755 x", &["x"]),
        ("chmod u+x,go-w a b", &["a", "b"]),
        ("chmod a=r f", &["f"]),
        ("chown bob:bob f", &["f"]),
        ("chown -R bob build", &["build"]),
        ("chgrp staff f", &["f"]),
        // A mode given as an option: every word after it is a file.
        ("chmod -x 755 f", &["755", "f"]),
        // One word: the file.
        ("chmod -x 755", &["755"]),
        // --reference takes the mode or owner from a file: every word is a file.
        ("chown --reference=r bob f", &["bob", "f"]),
        // Not a mode's shape: a file.
        ("chmod notamode f", &["notamode", "f"]),
    ];
    for (cmd, want) in cases {
        let out = bin().env("HOME", home.path())
            .args(["policy", "check", "--json", "--cwd"]).arg(&project)
            .args(["--", cmd]).output().expect("runs");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        let prefix = format!("write {}/", project.display());
        let written: Vec<String> = v["commands"].as_array().expect("commands").iter()
            .filter_map(|c| c["subject"].as_str()?.strip_prefix(&prefix).map(str::to_string))
            .map(|s| s.split(' ').next().unwrap_or_default().to_string())
            .collect();
        assert_eq!(written, *want, "{cmd}: {v}");
    }
}

/// An option list of a command's table holds options: `policy validate` names the table,
/// the list and the word that is not one, and so does the hook for a user's file.
#[test]
fn validate_rejects_an_option_list_word_that_is_no_option() {
    let dir = tempfile::tempdir().expect("tempdir");
    let user = dir.path().join("policy.toml");
    std::fs::write(
        &user,
        "[commands]\nuv = { folder_flags = [\"dir\"] }\ntar = { run_flags = [\"--to command\"], value_flags = [\"-f\"] }\n",
    )
    .expect("write");
    let out = bin()
        .env("HOME", dir.path())
        .args(["policy", "validate"])
        .arg(&user)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stderr);
    let f = user.display();
    for want in [
        format!("{f}:2:1: `folder_flags` of \"uv\" holds \"dir\", which is not an option"),
        format!("{f}:3:1: `run_flags` of \"tar\" holds \"--to command\", which is not an option"),
        "2 problems as the user's file".to_string(),
    ] {
        assert!(text.contains(&want), "missing {want:?} in:\n{text}");
    }
}

/// Each of `cases` (command, decision, rule) as `policy check` decides it with the user's
/// policy file `policy`.
fn check_with_user_policy(policy: &str, cases: &[(&str, &str, &str)]) {
    let home = tempfile::tempdir().expect("tempdir");
    let state = home.path().join(".claude/state/programmer");
    std::fs::create_dir_all(&state).expect("mkdir");
    std::fs::write(state.join("policy.toml"), policy).expect("write");
    for (cmd, decision, rule) in cases {
        let out = bin()
            .env("HOME", home.path())
            .args(["policy", "check", "--json", "--", cmd])
            .output()
            .expect("runs");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        assert_eq!(
            (v["decision"].as_str(), v["rule"].as_str()),
            (Some(*decision), Some(*rule)),
            "{cmd}: {v}"
        );
    }
}

/// A user's table of find or fd replaces the built-in one for the files it reads and
/// writes, but not their grammar: where a command of `-exec` or `-x` begins, and the files
/// the built-in table says `-fprint` writes, stay the built-in table's.
#[test]
fn a_users_table_of_find_or_fd_keeps_their_grammar() {
    check_with_user_policy(
        "[commands]\nfind = { names = \"all\" }\nfd = { names = \"all\", value_flags = [\"-x\"] }\n",
        &[
            ("find . -fprint ~/.bashrc", "deny", "path.protected-write"),
            ("find . -exec rm -rf ~ \\;", "deny", "fs.find-exec-rm-broad"),
            ("fd -x rm -rf ~", "deny", "fs.rm-broad"),
            ("fd -e md -x wc -l", "allow", "read.fd"),
        ],
    );
}

/// A user's table of a git subcommand replaces the built-in one, but not git's grammar: the
/// long options a prefix stands for (`--rec` is `--receive-pack`, `--mirr` `--mirror`) and
/// those that take a value stay the built-in table's.
#[test]
fn a_users_table_of_git_push_keeps_its_options() {
    check_with_user_policy(
        "[commands.\"git push\"]\nlong_options = [\"--repo\"]\nlong_value_options = []\n",
        &[
            ("git push --rec=x origin", "ask", "git.runs-command-option"),
            ("git push --mirr origin", "deny", "git.force-push"),
            ("git push --fo origin main", "deny", "git.force-push"),
            // `--repo` takes the next word: `--force` is its value, not an option.
            ("git push --repo --force", "ask", "git.write"),
        ],
    );
}
