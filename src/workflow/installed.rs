//! The programmer-hook binaries Claude Code's `settings.json` runs.
//!
//! The hook protects the binaries its installed entries run as it protects the running
//! one, so it reads them from the settings on every call; `install-hooks` writes the
//! entries that name them. Both go by the one file name, [`BINARY_NAME`].

use std::path::{Path, PathBuf};

/// The file name our handlers run.
pub const BINARY_NAME: &str = "programmer-hook";

/// The programmer-hook binaries a settings file's text names as programs: every JSON
/// string whose first word is an absolute (or `~/`) path to a file named `programmer-hook`,
/// which covers our handlers' `command` in exec and shell form. Read on every hook call, so
/// the text is scanned rather than parsed; naming more files than our handlers run only
/// protects more.
pub fn installed_binaries(text: &str, home: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    let mut seen: Vec<&str> = Vec::new();
    let mut from = 0;
    for (pos, _) in text.match_indices(BINARY_NAME) {
        if pos < from {
            continue;
        }
        let Some((start, end)) = json_string_around(text, pos) else {
            continue;
        };
        from = end + 1;
        let Some(quoted) = text.get(start..=end) else {
            continue;
        };
        // Our handlers repeat one command for every event: each string is read once.
        if seen.contains(&quoted) {
            continue;
        }
        seen.push(quoted);
        let value: std::borrow::Cow<str> = if quoted.contains('\\') {
            match serde_json::from_str::<String>(quoted) {
                Ok(v) => v.into(),
                Err(_) => continue,
            }
        } else {
            quoted[1..quoted.len() - 1].into()
        };
        let program = first_word(&value);
        let path = match program.strip_prefix("~/") {
            Some(rest) => home.join(rest),
            None if program.starts_with('/') => PathBuf::from(program),
            None => continue,
        };
        if path.file_name().is_some_and(|n| n == BINARY_NAME) && !out.contains(&path) {
            out.push(path);
        }
    }
    out
}

/// The byte range (both quotes) of the JSON string holding byte `pos` of `text`.
fn json_string_around(text: &str, pos: usize) -> Option<(usize, usize)> {
    let bytes = text.as_bytes();
    let escaped = |i: usize| bytes[..i].iter().rev().take_while(|b| **b == b'\\').count() % 2 == 1;
    let start = (0..pos).rev().find(|&i| bytes[i] == b'"' && !escaped(i))?;
    let end = (pos..bytes.len()).find(|&i| bytes[i] == b'"' && !escaped(i))?;
    Some((start, end))
}

/// The program of a command line: the first word, or the first quoted string.
fn first_word(command: &str) -> &str {
    let c = command.trim_start();
    for q in ['"', '\''] {
        if let Some(rest) = c.strip_prefix(q) {
            return rest.split(q).next().unwrap_or(rest);
        }
    }
    c.split_whitespace().next().unwrap_or("")
}
