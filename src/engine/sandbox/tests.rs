//! Table tests of the containment decision: one line per case.

use super::*;
use crate::engine::policy::Policy;
use std::path::PathBuf;

fn places() -> Places {
    Places {
        home: PathBuf::from("/home/u"),
        state_dir: PathBuf::from("/home/u/.claude/state/programmer"),
        config_dir: PathBuf::from("/home/u/.claude"),
        binary: Some(PathBuf::from("/home/u/.local/bin/programmer-hook")),
        installed: vec![],
        cdpath: false,
    }
}

/// The user's settings as `install-hooks --sandbox` writes them, with `extra` merged into
/// the sandbox object (`null` removes a key).
fn installed(extra: Value) -> String {
    let lists = Policy::builtin().expect("policy").paths;
    let mut sb = recommended(&lists, &places());
    merge(&mut sb, &extra);
    json!({ "sandbox": sb }).to_string()
}

fn merge(into: &mut Value, extra: &Value) {
    if let (Some(a), Some(b)) = (into.as_object_mut(), extra.as_object()) {
        for (k, v) in b {
            match (a.get_mut(k), v) {
                (_, Value::Null) => {
                    a.remove(k);
                }
                (Some(x @ Value::Object(_)), Value::Object(_)) => merge(x, v),
                _ => {
                    a.insert(k.clone(), v.clone());
                }
            }
        }
    }
}

fn file(level: Level, text: &str) -> SettingsFile {
    let content = if text.is_empty() {
        Content::Missing
    } else {
        match serde_json::from_str(text) {
            Ok(v) => Content::Json(v),
            Err(e) => Content::Malformed(e.to_string()),
        }
    };
    SettingsFile {
        level,
        path: format!("<{}>", level.name()),
        content,
    }
}

fn judge_in(project: &str, files: &[SettingsFile]) -> Containment {
    let lists = Policy::builtin().expect("policy").paths;
    let places = places();
    judge(
        files,
        &Scope {
            project: Path::new(project),
            places: &places,
            lists: &lists,
        },
    )
}

const P: &str = "/home/u/proj";
use Level::{Local, Managed, Project, User};

#[test]
fn the_installed_settings_contain() {
    let c = judge_in(P, &[file(User, &installed(json!({})))]);
    assert!(c.contained(), "{:?}", c.problems);
}

#[test]
fn settings_table() {
    let on = installed(json!({}));
    let lists = Policy::builtin().expect("policy").paths;
    let denies = recommended(&lists, &places())["filesystem"].clone();
    let full = |extra: Value| {
        let mut v = json!({"sandbox": {"enabled": true, "failIfUnavailable": true, "allowUnsandboxedCommands": false, "filesystem": denies.clone()}});
        merge(&mut v["sandbox"], &extra);
        v.to_string()
    };
    #[rustfmt::skip]
    let cases: Vec<(&str, Vec<SettingsFile>, &str, Option<&str>)> = vec![
        // (what, files, project, None = contained / Some(part of the reason))
        ("no settings at all", vec![], P, Some("not enabled")),
        ("user installed", vec![file(User, &on)], P, None),
        ("managed alone", vec![file(Managed, &full(json!({})))], P, None),
        ("project alone", vec![file(Project, &full(json!({})))], P, None),
        ("local alone", vec![file(Local, &full(json!({})))], P, None),
        // Precedence: managed > local > project > user; the first level that sets a key wins.
        ("project turns it off", vec![file(User, &on), file(Project, r#"{"sandbox":{"enabled":false}}"#)], P, Some("not enabled")),
        ("local turns it off", vec![file(User, &on), file(Local, r#"{"sandbox":{"enabled":false}}"#)], P, Some("not enabled")),
        ("managed turns it off", vec![file(User, &on), file(Managed, r#"{"sandbox":{"enabled":false}}"#)], P, Some("not enabled")),
        ("managed on wins over project off", vec![file(User, &on), file(Project, r#"{"sandbox":{"enabled":false}}"#), file(Managed, r#"{"sandbox":{"enabled":true}}"#)], P, None),
        ("local on wins over project off", vec![file(User, &on), file(Project, r#"{"sandbox":{"enabled":false}}"#), file(Local, r#"{"sandbox":{"enabled":true}}"#)], P, None),
        ("project allows the fallback", vec![file(User, &on), file(Project, r#"{"sandbox":{"allowUnsandboxedCommands":true}}"#)], P, Some("allowUnsandboxedCommands")),
        ("local drops fail-if-unavailable", vec![file(User, &on), file(Local, r#"{"sandbox":{"failIfUnavailable":false}}"#)], P, Some("failIfUnavailable")),
        ("managed forbids the fallback over user", vec![file(User, &installed(json!({"allowUnsandboxedCommands": true}))), file(Managed, r#"{"sandbox":{"allowUnsandboxedCommands":false}}"#)], P, None),
        ("two managed files disagree", vec![file(User, &on), file(Managed, r#"{"sandbox":{"enabled":true}}"#), file(Managed, r#"{"sandbox":{"enabled":false}}"#)], P, Some("not enabled")),
        // Each of the three switches, missing.
        ("enabled missing", vec![file(User, &installed(json!({"enabled": null})))], P, Some("not enabled")),
        ("fail-if-unavailable missing", vec![file(User, &installed(json!({"failIfUnavailable": null})))], P, Some("failIfUnavailable")),
        ("fallback default (true)", vec![file(User, &installed(json!({"allowUnsandboxedCommands": null})))], P, Some("allowUnsandboxedCommands")),
        // Malformed: the sandbox counts as off, never on.
        ("user file not JSON", vec![file(User, "{\"sandbox\": {\"enabled\": true,")], P, Some("could not be read")),
        ("project file not JSON beside a good user file", vec![file(User, &on), file(Project, "{oops")], P, Some("could not be read")),
        ("managed file not JSON", vec![file(User, &on), file(Managed, "not json")], P, Some("could not be read")),
        ("settings are a list", vec![file(User, "[1]")], P, Some("not a JSON object")),
        ("sandbox is text", vec![file(User, &on), file(Local, r#"{"sandbox":"on"}"#)], P, Some("not an object")),
        ("enabled is text", vec![file(User, &installed(json!({"enabled": "true"})))], P, Some("not true or false")),
        ("allowWrite is text", vec![file(User, &installed(json!({"filesystem": {"allowWrite": "/x"}})))], P, Some("not a list")),
        ("denyRead holds a number", vec![file(User, &installed(json!({"filesystem": {"denyRead": [1]}})))], P, Some("not text")),
        // What loosens the confinement.
        ("filesystem disabled", vec![file(User, &installed(json!({"filesystem": {"disabled": true}})))], P, Some("filesystem.disabled")),
        ("nested namespaces", vec![file(User, &installed(json!({"allowNestedUserNamespaces": true})))], P, Some("allowNestedUserNamespaces")),
        ("weaker nested sandbox", vec![file(User, &installed(json!({"enableWeakerNestedSandbox": true})))], P, Some("enableWeakerNestedSandbox")),
        ("apple events", vec![file(User, &installed(json!({"allowAppleEvents": true})))], P, Some("allowAppleEvents")),
        ("all unix sockets", vec![file(User, &installed(json!({"network": {"allowAllUnixSockets": true}})))], P, Some("allowAllUnixSockets")),
        ("a unix socket", vec![file(User, &installed(json!({"network": {"allowUnixSockets": ["/var/run/docker.sock"]}})))], P, Some("allowUnixSockets")),
        ("mach lookup", vec![file(User, &installed(json!({"network": {"allowMachLookup": ["com.x"]}})))], P, Some("allowMachLookup")),
        ("excluded commands", vec![file(User, &on), file(Project, r#"{"sandbox":{"excludedCommands":["perl *"]}}"#)], P, Some("excludedCommands")),
        ("network domains are not containment's business", vec![file(User, &installed(json!({"network": {"allowedDomains": ["github.com"]}})))], P, None),
        // Paths added to what sandboxed code may write or read.
        ("allowWrite a cache folder", vec![file(User, &installed(json!({"filesystem": {"allowWrite": ["~/.cache/go-build"]}})))], P, None),
        ("allowWrite the home folder", vec![file(User, &installed(json!({"filesystem": {"allowWrite": ["~"]}})))], P, Some("home folder")),
        ("allowWrite the root", vec![file(User, &installed(json!({"filesystem": {"allowWrite": ["/"]}})))], P, Some("home folder or above")),
        ("allowWrite ~/.claude", vec![file(User, &installed(json!({"filesystem": {"allowWrite": ["~/.claude"]}})))], P, Some("protected")),
        ("allowWrite relative in user settings is under ~/.claude", vec![file(User, &installed(json!({"filesystem": {"allowWrite": ["agents"]}})))], P, Some("protected")),
        ("allowWrite ~/.ssh", vec![file(Project, &full(json!({"filesystem": {"allowWrite": ["~/.ssh"]}})))], P, Some("protected")),
        ("allowWrite ~/.config holds fish config", vec![file(User, &installed(json!({"filesystem": {"allowWrite": ["~/.config"]}})))], P, Some("holds")),
        ("allowWrite /etc", vec![file(User, &installed(json!({"filesystem": {"allowWrite": ["/etc"]}})))], P, Some("top-level")),
        ("allowWrite /usr/local", vec![file(User, &installed(json!({"filesystem": {"allowWrite": ["/usr/local"]}})))], P, Some("system folder")),
        ("allowWrite a glob", vec![file(User, &installed(json!({"filesystem": {"allowWrite": ["~/.c*"]}})))], P, Some("pattern")),
        ("allowRead a secret", vec![file(User, &installed(json!({"filesystem": {"allowRead": ["~/.aws"]}})))], P, Some("secret")),
        ("allowRead an ordinary folder", vec![file(User, &installed(json!({"filesystem": {"allowRead": ["/opt/tools"]}})))], P, None),
        ("Edit rule on the home folder", vec![file(User, &format!(r#"{{"permissions":{{"allow":["Edit(~/**)"]}},{}"#, &on[1..]))], P, Some("permissions.allow")),
        ("Edit rule absolute on .ssh", vec![file(User, &on), file(Project, r#"{"permissions":{"allow":["Edit(//home/u/.ssh/**)"]}}"#)], P, Some("protected")),
        ("Edit rule inside the project", vec![file(User, &on), file(Project, r#"{"permissions":{"allow":["Edit(src/**)","Bash(ls)"]}}"#)], P, None),
        ("Edit rule climbing out", vec![file(User, &on), file(Project, r#"{"permissions":{"allow":["Edit(../**)"]}}"#)], P, Some("permissions.allow")),
        ("additional directory home", vec![file(User, &on), file(Local, r#"{"permissions":{"additionalDirectories":["~"]}}"#)], P, Some("additionalDirectories")),
        // The denies the product writes must be in force.
        ("denyRead dropped", vec![file(User, &installed(json!({"filesystem": {"denyRead": []}})))], P, Some("denyRead")),
        ("denyWrite dropped", vec![file(User, &installed(json!({"filesystem": {"denyWrite": null}})))], P, Some("denyWrite")),
        ("denies from another level count", vec![file(User, r#"{"sandbox":{"enabled":true,"failIfUnavailable":true,"allowUnsandboxedCommands":false}}"#), file(Managed, &json!({"sandbox": {"filesystem": denies.clone()}}).to_string())], P, None),
        // Where the project is.
        ("project is the home folder", vec![file(User, &on)], "/home/u", Some("home folder or above")),
        ("project is the root", vec![file(User, &on)], "/", Some("home folder or above")),
        ("project outside home", vec![file(User, &on)], "/srv/app", None),
        ("project beside the home folder", vec![file(User, &on)], "/home/proj", None),
        ("project above the home folder", vec![file(User, &on)], "/home", Some("home folder or above")),
    ];
    let mut wrong = Vec::new();
    for (what, files, project, want) in &cases {
        let c = judge_in(project, files);
        let ok = match want {
            None => c.contained(),
            Some(part) => !c.contained() && c.problems.iter().any(|p| p.contains(part)),
        };
        if !ok {
            wrong.push(format!("{what}: want {want:?}, got {:?}", c.problems));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn recommended_denies() {
    let lists = Policy::builtin().expect("policy").paths;
    let r = recommended(&lists, &places());
    let list = |k: &str| -> Vec<String> {
        r["filesystem"][k]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_string())
            .collect()
    };
    let read = list("denyRead");
    let write = list("denyWrite");
    for want in ["~/.ssh", "~/.aws", "~/.gnupg", "~/.netrc", "~/.docker"] {
        assert!(read.iter().any(|r| r == want), "{want} not in {read:?}");
    }
    for want in [
        "~/.ssh",
        "/home/u/.claude/settings.json",
        "/home/u/.claude/agents",
        "/home/u/.claude/state/programmer",
        "~/.bashrc",
        "~/.claude.json",
    ] {
        assert!(write.iter().any(|w| w == want), "{want} not in {write:?}");
    }
    // Nothing with a pattern left in, which the sandbox would not place.
    for e in read.iter().chain(&write) {
        assert!(!e[1..].contains(['*', '?', '[']), "{e}");
    }
}

#[test]
fn leaving_the_sandbox() {
    #[rustfmt::skip]
    let cases = [
        (json!({"command": "ls"}), false),
        (json!({"command": "ls", "dangerouslyDisableSandbox": false}), false),
        (json!({"command": "ls", "dangerouslyDisableSandbox": null}), false),
        (json!({"command": "ls", "dangerouslyDisableSandbox": true}), true),
        (json!({"command": "ls", "dangerouslyDisableSandbox": "true"}), true),
        (json!({"command": "ls", "dangerouslyDisableSandbox": 1}), true),
    ];
    for (input, want) in cases {
        assert_eq!(call_leaves_sandbox(&input), want, "{input}");
    }
}
