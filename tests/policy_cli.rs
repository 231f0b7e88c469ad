//! The policy subcommands through the real binary.

use assert_cmd::Command;

fn bin() -> Command {
    let mut c = Command::cargo_bin("programmer-hook").expect("binary");
    c.env_remove("PROGRAMMER_STATE_DIR")
        .env_remove("CLAUDE_CONFIG_DIR");
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
