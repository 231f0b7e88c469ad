//! The documents and the CLI cannot drift apart: every subcommand and option the binary
//! accepts is in README.md's command table, on the row of its command, and every key of
//! the policy schema is in policy/README.md.

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

#[test]
fn every_subcommand_and_option_is_documented() {
    let readme = read("README.md");
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
        "README.md's command table:\n{}",
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
