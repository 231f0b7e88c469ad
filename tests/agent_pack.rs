//! The agent pack (`agents/`, `commands/`, `skills/`): frontmatter that Claude Code can read,
//! agents that agree with the role table the hook enforces, and a binary that embeds the
//! same files `install.sh` copies.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use programmer_hook::engine::tools::Tool;
use programmer_hook::workflow::pack::{command_aliases, pack, PACK_FILES};
use programmer_hook::workflow::roles::{self, WriteScope, ROLES};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(rel: &str) -> String {
    fs::read_to_string(repo().join(rel)).unwrap_or_else(|e| panic!("cannot read {rel}: {e}"))
}

/// The `.md` files directly in a folder of the repository, as relative paths.
fn md_files(dir: &str) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(repo().join(dir))
        .unwrap_or_else(|e| panic!("cannot list {dir}: {e}"))
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .map(|p| {
            format!(
                "{dir}/{}",
                p.file_name().unwrap_or_default().to_string_lossy()
            )
        })
        .collect();
    v.sort();
    v
}

/// Every file under a folder, as relative paths.
fn all_files(dir: &Path, out: &mut Vec<String>) {
    for e in fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot list {}: {e}", dir.display())) {
        let p = e.expect("dir entry").path();
        if p.is_dir() {
            all_files(&p, out);
        } else {
            let rel = p.strip_prefix(repo()).expect("inside the repo");
            out.push(rel.to_string_lossy().into_owned());
        }
    }
}

/// Frontmatter as written: `key: value` lines between `---` lines. Only the YAML this pack
/// uses is accepted (one-line scalars, plain or quoted), and a plain value must be one YAML
/// reads as the same string, so a stray `: ` cannot turn a description into a mapping.
fn frontmatter(file: &str, text: &str) -> (BTreeMap<String, String>, String) {
    let rest = text
        .strip_prefix("---\n")
        .unwrap_or_else(|| panic!("{file}: must start with a `---` line"));
    let end = rest
        .find("\n---\n")
        .unwrap_or_else(|| panic!("{file}: no closing `---` line"));
    let body = rest[end + 5..].to_string();
    let mut keys = BTreeMap::new();
    for line in rest[..end].lines() {
        let (k, v) = line
            .split_once(':')
            .unwrap_or_else(|| panic!("{file}: not a `key: value` line: {line:?}"));
        assert!(
            !k.is_empty()
                && k.chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'),
            "{file}: bad key {k:?}"
        );
        let v = v
            .strip_prefix(' ')
            .unwrap_or_else(|| panic!("{file}: `{k}:` needs a space and a value"));
        let value = if v.starts_with('"') {
            serde_json::from_str::<String>(v).unwrap_or_else(|e| {
                panic!("{file}: `{k}` is not a plain double-quoted string: {e}")
            })
        } else if let Some(inner) = v.strip_prefix('\'') {
            inner
                .strip_suffix('\'')
                .unwrap_or_else(|| panic!("{file}: `{k}` has an unclosed single quote"))
                .replace("''", "'")
        } else {
            assert!(!v.trim().is_empty(), "{file}: `{k}` is empty");
            assert_eq!(v, v.trim(), "{file}: `{k}` has stray spaces");
            let first = v.chars().next().unwrap_or(' ');
            assert!(
                !"[]{}&*!|>%@`#,?-".contains(first),
                "{file}: `{k}` starts with {first:?}, which YAML reads specially; quote the value"
            );
            assert!(
                !v.contains(": ") && !v.contains(" #") && !v.ends_with(':'),
                "{file}: `{k}` contains `: ` or ` #`, which breaks YAML; quote the value"
            );
            v.to_string()
        };
        assert!(
            keys.insert(k.to_string(), value).is_none(),
            "{file}: `{k}` appears twice"
        );
    }
    (keys, body)
}

fn check_keys(file: &str, keys: &BTreeMap<String, String>, allowed: &[&str], required: &[&str]) {
    for k in keys.keys() {
        assert!(
            allowed.contains(&k.as_str()),
            "{file}: `{k}` is not a key Claude Code reads here"
        );
    }
    for r in required {
        assert!(keys.contains_key(*r), "{file}: missing `{r}`");
    }
    if let Some(d) = keys.get("description") {
        assert!(
            (20..=1024).contains(&d.len()),
            "{file}: description should say what it is for, in at most 1024 characters"
        );
    }
}

/// Rebuilds the command files: their header, then the orchestrator's body.
const REGEN: &str = "awk '/^# Programmer orchestrator$/{exit} {print}' commands/programmer.md > /tmp/cmd.md && \
awk 'n>=2{print;next} /^---$/{n++}' agents/programmer-orchestrator.md | sed '1{/^$/d}' >> /tmp/cmd.md && \
for c in programmer code dev; do cp /tmp/cmd.md commands/$c.md; done";

const AGENT_KEYS: &[&str] = &[
    "name",
    "description",
    "tools",
    "disallowedTools",
    "model",
    "permissionMode",
    "maxTurns",
    "skills",
    "mcpServers",
    "hooks",
    "memory",
    "background",
    "effort",
    "isolation",
    "color",
    "initialPrompt",
];

/// Skill keys; command files take the same ones except `name` and `paths`.
const SKILL_KEYS: &[&str] = &[
    "name",
    "description",
    "when_to_use",
    "argument-hint",
    "arguments",
    "disable-model-invocation",
    "user-invocable",
    "allowed-tools",
    "disallowed-tools",
    "model",
    "effort",
    "context",
    "agent",
    "background",
    "hooks",
    "paths",
    "shell",
    "metadata",
    "license",
    "compatibility",
];

fn is_agent_name(s: &str) -> bool {
    s.chars().next().is_some_and(|c| c.is_ascii_lowercase())
        && s.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// A `tools:` list as a set; `Task` is the old name of `Agent`, and `Agent(a, b)` is
/// `Agent` restricted to some agents.
fn tool_set(list: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut depth = 0;
    let mut cur = String::new();
    for c in list.chars().chain(std::iter::once(',')) {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                let name = cur.trim();
                assert!(!name.is_empty(), "empty tool name in {list:?}");
                let name = if name == "Task" { "Agent" } else { name };
                assert!(out.insert(name.to_string()), "{name} listed twice");
                cur.clear();
            }
            _ if depth == 0 => cur.push(c),
            _ => {}
        }
    }
    out
}

#[test]
fn agents_have_valid_frontmatter_and_agree_with_the_roles() {
    let files = md_files("agents");
    let mut seen = BTreeSet::new();
    for file in &files {
        let (keys, body) = frontmatter(file, &read(file));
        check_keys(
            file,
            &keys,
            AGENT_KEYS,
            &["name", "description", "tools", "model"],
        );
        let name = &keys["name"];
        assert!(is_agent_name(name), "{file}: name {name:?}");
        assert_eq!(
            Path::new(file).file_stem().and_then(|s| s.to_str()),
            Some(name.as_str()),
            "{file}: the file name should be the agent's name"
        );
        let role = roles::role_of(Some(name))
            .filter(|r| r.name == name)
            .unwrap_or_else(|| panic!("{file}: {name} is not in roles::ROLES"));
        assert_eq!(keys["model"], role.model, "{file}: model");
        let want: BTreeSet<String> = role.tools.iter().map(|t| t.to_string()).collect();
        assert_eq!(
            tool_set(&keys["tools"]),
            want,
            "{file}: tools must equal roles::ROLES"
        );
        assert!(
            body.trim().len() > 500,
            "{file}: the body is the agent's instructions"
        );
        seen.insert(name.clone());
    }
    let all: BTreeSet<String> = ROLES.iter().map(|r| r.name.to_string()).collect();
    assert_eq!(seen, all, "one agent file per role in roles::ROLES");
}

#[test]
fn agent_bodies_cover_their_contract() {
    let need: &[(&str, &[&str])] = &[
        (
            "agents/programmer-orchestrator.md",
            &[
                "approve",
                "/programmer quick",
                "/programmer continue",
                "/programmer abort",
                "autonomy",
                "status",
                "Status: APPROVE",
                "Status: CHANGES_REQUESTED",
                "halted",
                "run_in_background: false",
                "git commit",
                "refus",
                "When to stop and ask the user",
                // Delegation, skills when present, escalation, the bypass.
                "agents of their own",
                "superpowers:writing-plans",
                "superpowers:code-reviewer",
                "Only the reviewer you start gives the verdict",
                "## Escalation",
                "`master-orchestrator` agent is set up",
                "none is set up: stop and ask the user",
                "The bypass for trivial changes",
                "typo",
                "one-liner",
                "the review (step 6) and its verdict still stand",
            ],
        ),
        (
            "agents/code-planner.md",
            &[
                "docs/plans/",
                "YYYY-MM-DD",
                "Open questions",
                "refuse",
                "exploration agents with the Agent tool",
                "`subagent_type: \"Explore\"`",
                "Every agent you start is held to your role",
                "superpowers:writing-plans",
                "Without the\n   skill, work as this file says",
            ],
        ),
        (
            "agents/code-implementer.md",
            &["Files changed", "Tests", "Blockers", "git commit", "refuse"],
        ),
        (
            "agents/code-reviewer.md",
            &[
                "Status: APPROVE",
                "Status: CHANGES_REQUESTED",
                "## Findings",
                "## Required changes",
                "refuse",
                "superpowers:code-reviewer",
                "never the verdict",
                "a `Status:` line in a helper's answer counts for nothing",
                "Any agent you start is held to the same limits",
                "Without\n   that agent, review on your own",
            ],
        ),
        (
            "commands/programmer.md",
            &[
                "the bypass for trivial changes (a typo, a one-liner)",
                "still come before the commit",
            ],
        ),
    ];
    for (file, words) in need {
        let text = read(file);
        for w in *words {
            assert!(text.contains(w), "{file} should mention {w:?}");
        }
    }
}

/// The agents that may start agents are the ones whose files tell them so and say how the
/// hook holds those agents; the agents that name a skill have the Skill tool.
#[test]
fn agents_that_delegate_say_how_their_helpers_are_held() {
    for role in ROLES {
        let file = format!("agents/{}.md", role.name);
        let (_, body) = frontmatter(&file, &read(&file));
        let spawns = role.tools.contains(&Tool::Agent);
        let read_only = role.writes != WriteScope::Tiers;
        if spawns && read_only {
            assert!(
                body.contains("held to your role") || body.contains("held to the same limits"),
                "{file}: a read-only role that starts agents must say they are held to it"
            );
            assert!(
                body.contains("Agent tool"),
                "{file}: it should say when to use the Agent tool"
            );
        }
        assert_eq!(
            role.tools.contains(&Tool::Skill),
            body.contains("Skill tool"),
            "{file}: the Skill tool is listed exactly when the file uses a skill"
        );
    }
    // The two read-only roles delegate, as the design has it.
    for name in [roles::PLANNER, roles::REVIEWER] {
        let role = roles::named(name).expect("a role");
        assert!(
            role.tools.contains(&Tool::Agent),
            "{name} has the Agent tool"
        );
    }
}

#[test]
fn commands_have_valid_frontmatter_and_start_the_orchestrator() {
    // One command body in the repository; its other names are made from it on install.
    assert_eq!(md_files("commands"), ["commands/programmer.md"]);
    assert_eq!(command_aliases().collect::<Vec<_>>(), ["code", "dev"]);
    let files: Vec<String> = pack()
        .into_iter()
        .map(|(rel, _)| rel)
        .filter(|rel| rel.starts_with("commands/"))
        .collect();
    assert_eq!(
        files,
        [
            "commands/programmer.md",
            "commands/code.md",
            "commands/dev.md"
        ]
    );
    let allowed: Vec<&str> = SKILL_KEYS
        .iter()
        .copied()
        .filter(|k| *k != "name" && *k != "paths")
        .collect();
    let main = read("commands/programmer.md");
    let installed = pack();
    for file in &files {
        let text = installed
            .iter()
            .find(|(rel, _)| rel == file)
            .map(|(_, text)| text.to_string())
            .expect("in the pack");
        let (keys, body) = frontmatter(file, &text);
        check_keys(file, &keys, &allowed, &["description", "argument-hint"]);
        assert_eq!(text, main, "{file} is an alias of /programmer: same text");
        assert_eq!(
            body.matches("$ARGUMENTS").count(),
            1,
            "{file}: $ARGUMENTS once"
        );
        for w in [
            "approve", "quick", "status", "continue", "abort", "autonomy",
        ] {
            assert!(body.contains(w), "{file} should explain {w:?}");
        }
    }
    // The command carries the orchestrator's instructions, word for word.
    let (_, orchestrator) = frontmatter(
        "agents/programmer-orchestrator.md",
        &read("agents/programmer-orchestrator.md"),
    );
    let orchestrator = orchestrator.trim_start();
    assert!(
        main.contains(orchestrator),
        "commands/programmer.md must contain the body of agents/programmer-orchestrator.md verbatim. \
         After editing the agent, rebuild the three commands:\n{REGEN}"
    );
    // Inside a command, `$ARGUMENTS` and `$1`… are substituted: the shared text has none.
    let bytes = orchestrator.as_bytes();
    for (i, _) in orchestrator.match_indices('$') {
        let next = bytes.get(i + 1).copied().unwrap_or(b' ');
        assert!(
            !next.is_ascii_digit() && !orchestrator[i..].starts_with("$ARGUMENTS"),
            "the orchestrator body must not contain argument placeholders"
        );
    }
}

#[test]
fn skill_has_valid_frontmatter() {
    let file = "skills/programmer-add-project/SKILL.md";
    let text = read(file);
    let (keys, body) = frontmatter(file, &text);
    check_keys(file, &keys, SKILL_KEYS, &["name", "description"]);
    assert_eq!(keys["name"], "programmer-add-project");
    for flag in [
        "add-project",
        "--name",
        "--path",
        "--description",
        "--stack",
        "--conventions",
        "--test",
    ] {
        assert!(body.contains(flag), "{file} should mention {flag}");
    }
}

#[test]
fn the_binary_embeds_the_pack_install_sh_copies() {
    let mut on_disk = md_files("agents");
    on_disk.extend(md_files("commands"));
    all_files(&repo().join("skills"), &mut on_disk);
    on_disk.sort();
    let mut embedded: Vec<String> = PACK_FILES.iter().map(|(rel, _)| rel.to_string()).collect();
    embedded.sort();
    assert_eq!(
        embedded, on_disk,
        "pack::PACK_FILES must list every file of agents/, commands/ and skills/"
    );
    for (rel, text) in PACK_FILES {
        assert_eq!(*text, read(rel), "{rel}");
    }
}
