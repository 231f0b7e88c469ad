//! Option grammar has one home: the programs' tables in `policy/`. The analysers' Rust code
//! (`src/engine/analyze/`, the interpreters' command lines in `src/engine/lang/argv.rs`,
//! the mounts, the argument readers and the classifier in `src/engine/classify/`) names no
//! option of a program, but for the words listed in `tests/option_literals.txt`: the
//! mechanism of a reading (how `find -exec` ends) or grammar not moved to a table yet. A new
//! option word in that code fails here (put it in the program's table and read it from
//! there), and so does a listed one that is gone (take it off the list), so the list is
//! always what the code holds.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The files whose option words are counted.
fn analyser_files(root: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = ["src/engine/analyze", "src/engine/classify"]
        .iter()
        .flat_map(|dir| std::fs::read_dir(root.join(dir)).expect("an analyser folder"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    for f in [
        "src/engine/lang/argv.rs",
        "src/engine/mounts.rs",
        "src/engine/args.rs",
    ] {
        files.push(root.join(f));
    }
    files.sort();
    files
}

/// The string literals of Rust source before its unit tests (`#[cfg(test)]`), outside
/// comments.
fn string_literals(src: &str) -> Vec<String> {
    let code = src.split("#[cfg(test)]").next().unwrap_or(src);
    let b: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            '/' if b.get(i + 1) == Some(&'/') => {
                while i < b.len() && b[i] != '\n' {
                    i += 1;
                }
            }
            // A character literal (`'"'`, `'\''`); a lifetime has no closing quote there.
            '\'' if b.get(i + 2) == Some(&'\'') => i += 3,
            '\'' if b.get(i + 1) == Some(&'\\') && b.get(i + 3) == Some(&'\'') => i += 4,
            '"' => {
                let mut s = String::new();
                i += 1;
                while i < b.len() && b[i] != '"' {
                    if b[i] == '\\' {
                        i += 1;
                    }
                    if let Some(&c) = b.get(i) {
                        s.push(c);
                    }
                    i += 1;
                }
                out.push(s);
                i += 1;
                continue;
            }
            _ => i += 1,
        }
    }
    out
}

/// Whether a literal is an option word (`-x`, `--name`, `--name=`, `+o`).
fn option_word(s: &str) -> bool {
    let body = s
        .strip_prefix("--")
        .or_else(|| s.strip_prefix('-'))
        .or_else(|| s.strip_prefix('+'));
    let Some(body) = body else {
        return false;
    };
    let body = body.strip_suffix('=').unwrap_or(body);
    body.chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric() || c == '?')
        && body
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c))
}

fn listed(root: &Path) -> BTreeMap<String, BTreeSet<String>> {
    let text = std::fs::read_to_string(root.join("tests/option_literals.txt"))
        .expect("tests/option_literals.txt");
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words = line.split_whitespace();
        let file = words.next().unwrap_or_default().trim_end_matches(':');
        out.entry(file.to_string())
            .or_default()
            .extend(words.map(str::to_string));
    }
    out
}

#[test]
fn analysers_name_only_the_listed_options() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let allowed = listed(root);
    let mut wrong = Vec::new();
    let mut seen: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for f in analyser_files(root) {
        let rel = f
            .strip_prefix(root)
            .unwrap_or(&f)
            .to_string_lossy()
            .into_owned();
        let src = std::fs::read_to_string(&f).expect("source file");
        let found: BTreeSet<String> = string_literals(&src)
            .into_iter()
            .filter(|s| option_word(s))
            .collect();
        let ok = allowed.get(&rel).cloned().unwrap_or_default();
        for o in found.difference(&ok) {
            wrong.push(format!(
                "{rel} names the option {o:?}: read it from the program's table in policy/ (or, if it is mechanism, list it in tests/option_literals.txt)"
            ));
        }
        seen.insert(rel, found);
    }
    for (file, opts) in &allowed {
        let found = seen.get(file).cloned().unwrap_or_default();
        for o in opts.difference(&found) {
            wrong.push(format!(
                "tests/option_literals.txt lists {o:?} for {file}, which no longer names it"
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
#[rustfmt::skip]
fn option_words_are_found_in_code_only() {
    let src = "let a = \"-x\"; // \"-y\"\nlet c = '\"'; let d = \"--long=\"; let e = \"a-b\";\n#[cfg(test)]\nmod tests { \"-z\" }";
    let found: Vec<String> = string_literals(src).into_iter().filter(|s| option_word(s)).collect();
    assert_eq!(found, vec!["-x".to_string(), "--long=".to_string()]);
    for (word, is) in [("-x", true), ("--name", true), ("+o", true), ("-", false), ("--", false), ("-1", true), ("a-b", false), ("- x", false)] {
        assert_eq!(option_word(word), is, "{word}");
    }
}
