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
