//! What a large script costs the hook: `python3 big.py`, `node big.js`, `ruby big.rb`,
//! `php big.php`, `perl big.pl` and `bash big.sh` with a script of about 100 KB in the
//! project, each read for the first time (the store of judged code in the state dir
//! emptied before every run) and again (the judgement recalled from that store).
//! Run with `cargo bench --bench code_reads`.
//!
//! Each point is the median (and 90th percentile) wall time of a fresh `programmer-hook
//! hook` process answering one PreToolUse event, as Claude Code runs it. The scripts are
//! generated: many small functions that compute and print, so every reader understands
//! all of it (a snippet it cannot follow is not kept, and would not show the cost of the
//! whole walk). `CODE_READS_ROUNDS` sets the runs per point, `CODE_READS_KB` the size;
//! `PROGRAMMER_HOOK_BENCH_OTHER=PATH` measures another build too, its runs interleaved with
//! this build's so that the machine's noise hits both alike.

#[path = "support/home.rs"]
mod home;
use home::{run_hook, Home};
use std::path::PathBuf;
use std::time::Duration;

use serde_json::{json, Value};

fn rounds() -> usize {
    env_number("CODE_READS_ROUNDS", 21)
}

fn target_bytes() -> usize {
    env_number("CODE_READS_KB", 100) * 1000
}

fn env_number(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// The binaries measured, each with its home: this build, and another one to compare with.
fn binaries() -> Vec<(&'static str, PathBuf, Home)> {
    let mut bins = vec![(
        "this",
        PathBuf::from(env!("CARGO_BIN_EXE_programmer-hook")),
        Home::new("code-reads", "this"),
    )];
    if let Some(other) = std::env::var_os("PROGRAMMER_HOOK_BENCH_OTHER") {
        bins.push((
            "other",
            PathBuf::from(other),
            Home::new("code-reads", "other"),
        ));
    }
    bins
}

/// `head`, then `unit` with `{i}` numbered 1, 2, … until the text is `size` bytes, then
/// `tail`.
fn script(head: &str, unit: &str, tail: &str, size: usize) -> String {
    let mut s = String::from(head);
    let mut i = 1;
    while s.len() + tail.len() < size {
        s.push_str(&unit.replace("{i}", &i.to_string()));
        i += 1;
    }
    s.push_str(tail);
    s
}

const PYTHON: &str = r#"def helper_{i}(data, limit={i}):
    """Summarise the entries of data up to limit."""
    total = 0
    names = []
    for k, v in data.items():
        if isinstance(v, int) and v < limit:
            total += v * {i} % 7
        elif isinstance(v, str):
            names.append(v.strip().lower())
    result = {"total": total, "names": sorted(set(names)), "id": "h{i}"}
    return json.dumps(result, indent=2)

"#;

const JAVASCRIPT: &str = r#"function helper{i}(data, limit = {i}) {
  // Summarise the entries of data up to limit.
  let total = 0;
  const names = [];
  for (const [k, v] of Object.entries(data)) {
    if (typeof v === 'number' && v < limit) {
      total += (v * {i}) % 7;
    } else if (typeof v === 'string') {
      names.push(v.trim().toLowerCase());
    }
  }
  const result = { total: total, names: [...new Set(names)].sort(), id: 'h{i}' };
  return JSON.stringify(result, null, 2);
}

"#;

const RUBY: &str = r#"def helper_{i}(data, limit = {i})
  # Summarise the entries of data up to limit.
  total = 0
  names = []
  data.each do |k, v|
    if v.is_a?(Integer) && v < limit
      total += v * {i} % 7
    elsif v.is_a?(String)
      names << v.strip.downcase
    end
  end
  result = { "total" => total, "names" => names.uniq.sort, "id" => "h{i}" }
  JSON.generate(result)
end

"#;

const PHP: &str = r#"function helper_{i}($data, $limit = {i}) {
    // Summarise the entries of data up to limit.
    $total = 0;
    $names = [];
    foreach ($data as $k => $v) {
        if (is_int($v) && $v < $limit) {
            $total += $v * {i} % 7;
        } elseif (is_string($v)) {
            $names[] = strtolower(trim($v));
        }
    }
    $result = ["total" => $total, "names" => array_unique($names), "id" => "h{i}"];
    return json_encode($result);
}

"#;

const PERL: &str = r#"sub helper_{i} {
    my ($data, $limit) = @_;
    # Summarise the entries of data up to limit.
    my $total = 0;
    my @names;
    for my $k (sort keys %$data) {
        my $v = $data->{$k};
        if ($v =~ /^\d+$/ && $v < $limit) { $total += $v * {i} % 7; }
        else { push @names, lc $v; }
    }
    return join(",", $total, @names, "h{i}");
}

"#;

const SHELL: &str = r#"helper_{i}() {
  # Summarise the entries up to a limit.
  local total=0 limit={i}
  for v in "$@"; do
    if [ "$v" -lt "$limit" ]; then
      total=$(( total + v * {i} % 7 ))
    else
      echo "name: $v" | tr 'A-Z' 'a-z'
    fi
  done
  printf '%s\n' "total $total id h{i}"
}

"#;

/// The scripts: file name, command, and text.
fn scripts(size: usize) -> Vec<(&'static str, &'static str, String)> {
    vec![
        (
            "big.py",
            "python3 big.py",
            script(
                "import json, os, sys\n\n",
                PYTHON,
                "print(helper_1({'a': 1}))\n",
                size,
            ),
        ),
        (
            "big.js",
            "node big.js",
            script(
                "const fs = require('fs');\n\n",
                JAVASCRIPT,
                "console.log(helper1({ a: 1 }));\n",
                size,
            ),
        ),
        (
            "big.rb",
            "ruby big.rb",
            script(
                "require 'json'\n\n",
                RUBY,
                "puts helper_1({ 'a' => 1 })\n",
                size,
            ),
        ),
        (
            "big.php",
            "php big.php",
            script("<?php\n\n", PHP, "echo helper_1(['a' => 1]);\n", size),
        ),
        (
            "big.pl",
            "perl big.pl",
            script(
                "use strict;\nuse warnings;\n\n",
                PERL,
                "print helper_1({a => 1}), \"\\n\";\n",
                size,
            ),
        ),
        (
            "big.sh",
            "bash big.sh",
            script("#!/bin/sh\nset -eu\n\n", SHELL, "helper_1 1 2 3\n", size),
        ),
    ]
}

/// A point: median and 90th percentile (ms), and the answer.
struct Point {
    median: f64,
    p90: f64,
    answer: String,
}

/// One point per binary, of `rounds()` runs each (interleaved), each binary in a home of
/// its own (a build removes the stores of other builds); `first` empties the store of
/// judged code before each run (outside the time measured).
fn measure(bins: &[(&str, PathBuf, Home)], command: &str, first: bool) -> Vec<Point> {
    let mut times = vec![Vec::new(); bins.len()];
    let mut answers = vec![Vec::new(); bins.len()];
    for _ in 0..rounds() {
        for (i, (_, bin, home)) in bins.iter().enumerate() {
            if first {
                let _ = std::fs::remove_dir_all(home.state().join("cache/code"));
            }
            let input = json!({
                "session_id": "s", "cwd": home.project(), "hook_event_name": "PreToolUse",
                "tool_name": "Bash", "tool_input": {"command": command}
            })
            .to_string();
            let (t, out) = run_hook(bin, &home.dir, input.as_bytes());
            times[i].push(t);
            answers[i] = out;
        }
    }
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    times
        .iter_mut()
        .zip(&answers)
        .map(|(t, answer)| {
            t.sort();
            let answer = serde_json::from_slice::<Value>(answer)
                .ok()
                .and_then(|v| {
                    v["hookSpecificOutput"]["permissionDecision"]
                        .as_str()
                        .map(str::to_string)
                })
                .unwrap_or_else(|| "-".into());
            Point {
                median: ms(t[t.len() / 2]),
                p90: ms(t[t.len() * 9 / 10]),
                answer,
            }
        })
        .collect()
}

fn main() {
    let bins = binaries();
    for (name, bin, _) in &bins {
        println!("{name:<6} {}", bin.display());
    }
    println!(
        "| {:<16} | {:<6} | {:>8} | {:>14} | {:>14} | {:>14} | {:<6} |",
        "command", "build", "bytes", "first median", "first p90", "again median", "answer"
    );
    println!(
        "|{:-<18}|{:-<8}|{:->10}|{:->16}|{:->16}|{:->16}|{:-<8}|",
        "", "", "", "", "", "", ""
    );
    for (file, command, text) in scripts(target_bytes()) {
        for (_, _, home) in &bins {
            std::fs::write(home.project().join(file), &text).expect("script");
        }
        let first = measure(&bins, command, true);
        let again = measure(&bins, command, false);
        for (((name, _, _), first), again) in bins.iter().zip(&first).zip(&again) {
            println!(
                "| {command:<16} | {name:<6} | {:>8} | {:>11.2} ms | {:>11.2} ms | {:>11.2} ms | {:<6} |",
                text.len(),
                first.median,
                first.p90,
                again.median,
                first.answer
            );
        }
    }
}
