//! The documents and the CLI cannot drift apart: every subcommand and option the binary
//! accepts is in the command table (README.md or a page of docs/), on the row of its
//! command, and every key of the policy schema is in policy/README.md. The README's
//! reference is docs/: every page there is linked from the README, and every relative link
//! of the README and of docs/ names a file that exists.

use clap::CommandFactory;
use programmer_hook::cli::Cli;
use programmer_hook::engine::policy::schema;

fn read(rel: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(rel))
        .expect("document")
}

/// Every leaf subcommand, by its full name (`policy check`), with its long options.
fn leaves(cmd: &clap::Command, prefix: &str, out: &mut Vec<(String, Vec<String>)>) {
    for sub in cmd.get_subcommands() {
        let name = format!("{prefix}{}", sub.get_name());
        if sub.has_subcommands() {
            leaves(sub, &format!("{name} "), out);
        } else {
            let flags = sub
                .get_arguments()
                .filter_map(|a| a.get_long())
                .filter(|l| *l != "help")
                .map(|l| format!("--{l}"))
                .collect();
            out.push((name, flags));
        }
    }
}

/// README.md and every page of docs/, as `(path, text)`.
fn documents() -> Vec<(String, String)> {
    let mut out = vec![("README.md".to_string(), read("README.md"))];
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs");
    let mut pages: Vec<_> = std::fs::read_dir(&dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    pages.retain(|p: &std::path::PathBuf| p.extension().is_some_and(|x| x == "md"));
    pages.sort();
    for p in pages {
        let name = format!("docs/{}", p.file_name().expect("name").to_string_lossy());
        out.push((name.clone(), read(&name)));
    }
    out
}

/// The relative link targets of a markdown text: `](target)`, without `#anchor`.
fn links(text: &str) -> Vec<&str> {
    text.match_indices("](")
        .filter_map(|(i, _)| {
            let rest = &text[i + 2..];
            let end = rest.find(')')?;
            let target = rest[..end].split('#').next()?;
            (!target.is_empty() && !target.contains("://") && !target.starts_with("mailto:"))
                .then_some(target)
        })
        .collect()
}

#[test]
fn every_page_is_linked_and_every_link_resolves() {
    let docs = documents();
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let readme = &docs[0].1;
    let mut problems = Vec::new();
    for (path, text) in &docs {
        if path.starts_with("docs/") && !readme.contains(&format!("]({path})")) {
            problems.push(format!("README.md does not link {path}"));
        }
        let base = root.join(path);
        let dir = base.parent().expect("folder");
        for target in links(text) {
            if !dir.join(target).exists() {
                problems.push(format!("{path}: the link {target} names no file"));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_subcommand_and_option_is_documented() {
    let readme: String = documents()
        .into_iter()
        .map(|(_, text)| text)
        .collect::<Vec<_>>()
        .join("\n");
    let mut all = Vec::new();
    leaves(&Cli::command(), "", &mut all);
    assert!(all.len() >= 15, "{all:?}");
    let mut missing = Vec::new();
    for (name, flags) in &all {
        let row = format!("| `programmer-hook {name}` |");
        let Some(line) = readme.lines().find(|l| l.starts_with(&row)) else {
            missing.push(format!("no row for `programmer-hook {name}`"));
            continue;
        };
        for f in flags {
            if !line.contains(&format!("`{f}")) && !line.contains(&format!("/`{f}")) {
                missing.push(format!("{name}: {f} is not on its row"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "the command table (README.md or docs/):\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_policy_key_is_documented() {
    let doc = read("policy/README.md");
    let keys = schema::RULE_KEYS
        .iter()
        .chain(schema::EFFECT_KEYS)
        .chain(schema::PATH_LISTS)
        .chain(schema::KIND_LISTS)
        .chain(schema::WORKFLOW_KEYS)
        .chain(schema::SELECTIONS)
        .chain(schema::PATH_CLASSES)
        .chain(schema::MOUNT_CLASSES)
        .chain(schema::SIGNALS.iter().filter(|s| **s != "*"));
    let missing: Vec<&&str> = keys.filter(|k| !doc.contains(&format!("`{k}"))).collect();
    assert!(missing.is_empty(), "not in policy/README.md: {missing:?}");
}

/// The lines of the README's code blocks, trimmed.
fn code_lines(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            inside = !inside;
        } else if inside {
            out.push(line.trim());
        }
    }
    out
}

/// A newcomer needs two commands from the README, each a line of its own to copy: the
/// install and the tests, with what the end-to-end tests need (the pinned client); and
/// the lines of the two routes that work from a checkout, naming the tarballs and the
/// folder the scripts write.
#[test]
fn the_readme_shows_the_set_up_commands() {
    let readme = read("README.md");
    let lines = code_lines(&readme);
    let version = env!("CARGO_PKG_VERSION");
    for want in [
        "./install.sh".to_string(),
        "cargo test".to_string(),
        "tests/e2e/install-client.sh".to_string(),
        "scripts/package-npm.sh /tmp/ph-npm".to_string(),
        format!("npm install -g /tmp/ph-npm/programmer-hook-{version}.tgz /tmp/ph-npm/programmer-hook-linux-x64-{version}.tgz"),
        "programmer-hook install".to_string(),
        "scripts/package-plugin.sh ~/.local/share/programmer-hook-marketplace".to_string(),
        "claude plugin marketplace add ~/.local/share/programmer-hook-marketplace".to_string(),
        "claude plugin install programmer@programmer-hook".to_string(),
        "mkdir -p ~/.local/bin".to_string(),
        "ln -s ~/.local/share/programmer-hook-marketplace/bin/programmer-hook ~/.local/bin/programmer-hook".to_string(),
    ] {
        assert!(
            lines.contains(&want.as_str()),
            "README.md has no code line `{want}`:\n{}",
            lines.join("\n")
        );
    }
    // The two set-up commands come first, before any other route.
    let first: Vec<&str> = lines.iter().take(2).copied().collect();
    assert_eq!(first, ["./install.sh", "cargo test"], "{lines:?}");
    // The client the end-to-end tests need is the one the script installs.
    let script = read("tests/e2e/install-client.sh");
    assert!(script.contains("VERSION=2.1."), "{script}");
}

/// The words `2.1.N` (a Claude Code version) in every document, and the client
/// `tests/e2e/install-client.sh` pins, are the version the hook needs (`doctor`'s
/// `MIN_CLAUDE`); a tarball name carries the crate's version; and the figures of the code
/// are the code's: one backup kept, the code cache's 8 KB and 64 entries, the 512 KB a
/// command is parsed up to.
#[test]
fn the_figures_in_the_documents_are_the_codes() {
    use programmer_hook::setup::{doctor::MIN_CLAUDE, user_files::KEPT_BACKUPS};
    let (a, b, c) = MIN_CLAUDE;
    let want = format!("{a}.{b}.{c}");
    let mut docs = documents();
    docs.push(("tests/e2e/README.md".into(), read("tests/e2e/README.md")));
    docs.push((
        "tests/e2e/install-client.sh".into(),
        read("tests/e2e/install-client.sh"),
    ));
    let mut problems = Vec::new();
    let version = env!("CARGO_PKG_VERSION");
    for (path, text) in &docs {
        for (i, _) in text.match_indices(&format!("{a}.{b}.")) {
            let before = text[..i].chars().next_back();
            if before.is_some_and(|ch| ch.is_ascii_alphanumeric() || ch == '.') {
                continue;
            }
            let word: String = text[i..]
                .chars()
                .take_while(|ch| ch.is_ascii_digit() || *ch == '.')
                .collect();
            let word = word.trim_end_matches('.');
            if word != want {
                problems.push(format!("{path}: Claude Code {word}, not {want}"));
            }
        }
        for (i, _) in text.match_indices(".tgz") {
            let name: String = text[..i]
                .chars()
                .rev()
                .take_while(|ch| !ch.is_whitespace() && *ch != '/' && *ch != '`')
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect();
            if name.starts_with("programmer-hook-")
                && !name.ends_with(&format!("-{version}"))
                && !name.ends_with("VERSION")
            {
                problems.push(format!(
                    "{path}: the tarball {name}.tgz is not of {version}"
                ));
            }
        }
    }
    let script = read("tests/e2e/install-client.sh");
    if !script.contains(&format!("VERSION={want}\n")) {
        problems.push(format!("tests/e2e/install-client.sh does not pin {want}"));
    }
    assert_eq!(KEPT_BACKUPS, 1, "the documents say one backup of each file");
    let install = read("docs/install.md");
    if !install.contains("one backup of each file") {
        problems.push("docs/install.md does not say how many backups are kept".into());
    }
    let cli = read("docs/cli.md");
    let cache = format!(
        "of {} KB or more was found to do, so the same script is not parsed again (the last {},",
        programmer_hook::engine::lang::memo::MIN_BYTES / 1024,
        programmer_hook::hook::code_store::MAX_ENTRIES
    );
    if !cli.contains(&cache) {
        problems.push(format!("docs/cli.md does not say: {cache}"));
    }
    let limit = format!(
        "{} KB",
        programmer_hook::engine::shell::MAX_COMMAND_BYTES / 1024
    );
    for page in ["docs/policy.md", "docs/development.md"] {
        if !read(page).contains(&format!("over {limit}")) {
            problems.push(format!("{page} does not name the {limit} limit"));
        }
    }
    // The events the settings entry is written for, by hand, are the ones installed.
    for e in programmer_hook::setup::installation::EVENTS {
        if !install.contains(&format!("`{}`", e.as_str())) {
            problems.push(format!(
                "docs/install.md does not list the event {}",
                e.as_str()
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
