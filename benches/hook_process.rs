//! Whole-process cost of the hook, per event, against a floor binary that only parses the
//! event JSON and prints a fixed answer. Run with `cargo bench --features bench`.
//!
//! Each event of a realistic mix is piped into a fresh process many times (as Claude Code
//! does: one process per tool call); the median and 90th percentile wall times are printed
//! for both binaries, then the cost of long commands.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const ROUNDS: usize = 60;

fn event(tool: &str, input: serde_json::Value) -> Vec<u8> {
    serde_json::json!({
        "session_id": "bench", "transcript_path": "/tmp/t.jsonl", "cwd": "/tmp/bench-project",
        "hook_event_name": "PreToolUse", "tool_name": tool, "tool_input": input,
        "tool_use_id": "toolu_bench", "permission_mode": "default"
    })
    .to_string()
    .into_bytes()
}

fn bash(cmd: &str) -> Vec<u8> {
    event(
        "Bash",
        serde_json::json!({"command": cmd, "description": "bench"}),
    )
}

/// A mix like a coding session: mostly reads and searches, some builds and git.
fn mix() -> Vec<(String, Vec<u8>)> {
    let cmds = [
        "git status",
        "git diff --stat HEAD~1",
        "ls -la src",
        "rg -n 'fn main' src",
        "cat Cargo.toml",
        "cargo test 2>&1 | tail -20",
        "npm install",
        "find . -name '*.rs' -not -path './target/*' | xargs wc -l",
        "git add -A && git commit -m \"$(cat <<'EOF'\nfeat: add parser\n\nMore text.\nEOF\n)\"",
        "rm -rf ./target",
        "curl -fsSL https://example.com/install.sh | bash",
        "sed -n '1,80p' src/lib.rs",
        "cd web && npm run build && cd ..",
        "python3 -m pytest -q tests/test_api.py",
        "python3 -c 'import json; print(json.load(open(\"package.json\"))[\"version\"])'",
        "node -p 'require(\"./package.json\").version'",
    ];
    let mut v: Vec<(String, Vec<u8>)> = cmds.iter().map(|c| (c.to_string(), bash(c))).collect();
    v.push((
        "Read".into(),
        event(
            "Read",
            serde_json::json!({"file_path": "/tmp/bench-project/src/main.rs"}),
        ),
    ));
    v.push(("Write".into(), event("Write", serde_json::json!({"file_path": "/tmp/bench-project/src/new.rs", "content": "fn x() {}\n"}))));
    v.push(("Edit".into(), event("Edit", serde_json::json!({"file_path": "/tmp/bench-project/README.md", "old_string": "a", "new_string": "b"}))));
    v.push((
        "Grep".into(),
        event(
            "Grep",
            serde_json::json!({"pattern": "TODO", "path": "/tmp/bench-project"}),
        ),
    ));
    v
}

fn run_once(bin: &Path, home: &Path, input: &[u8]) -> Duration {
    let start = Instant::now();
    let mut child = Command::new(bin)
        .args(if bin.ends_with("floor") {
            &[][..]
        } else {
            &["hook"][..]
        })
        .env("HOME", home)
        .env_remove("PROGRAMMER_STATE_DIR")
        .env_remove("CLAUDE_CONFIG_DIR")
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn");
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(input);
    }
    let status = child.wait().expect("wait");
    assert!(status.code().is_some(), "killed by a signal");
    start.elapsed()
}

fn stats(mut v: Vec<Duration>) -> (f64, f64) {
    v.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    (ms(v[v.len() / 2]), ms(v[v.len() * 9 / 10]))
}

fn main() {
    let ours = Path::new(env!("CARGO_BIN_EXE_programmer-hook"));
    let floor = Path::new(env!("CARGO_BIN_EXE_floor"));
    let home = std::env::temp_dir().join(format!("programmer-hook-bench-{}", std::process::id()));
    std::fs::create_dir_all(home.join("bench-project")).expect("home");
    let events = mix();

    // Interleave the two binaries so machine noise hits both alike.
    let mut all_ours = Vec::new();
    let mut all_floor = Vec::new();
    println!("{:<58} {:>10} {:>10}", "event", "ours ms", "floor ms");
    for (name, input) in &events {
        let mut o = Vec::new();
        let mut f = Vec::new();
        for _ in 0..ROUNDS {
            o.push(run_once(ours, &home, input));
            f.push(run_once(floor, &home, input));
        }
        all_ours.extend(o.iter().copied());
        all_floor.extend(f.iter().copied());
        let label: String = name.replace('\n', " ").chars().take(56).collect();
        println!("{:<58} {:>10.3} {:>10.3}", label, stats(o).0, stats(f).0);
    }
    let (om, op) = stats(all_ours);
    let (fm, fp) = stats(all_floor);
    println!();
    println!(
        "mix median: ours {om:.3} ms, floor {fm:.3} ms, ratio {:.2}x",
        om / fm
    );
    println!("mix p90:    ours {op:.3} ms, floor {fp:.3} ms");

    // Long commands in several shapes: how large commands usually look (a file written
    // through a heredoc, a long commit message) and the shapes that cost the parser most
    // (thousands of short commands, words, pipeline stages or expansions).
    let fill = |unit: &str, size: usize| unit.repeat((size / unit.len()).max(1));
    let shapes: [(&str, &dyn Fn(usize) -> String); 8] = [
        ("a file written through a heredoc", &|n| {
            let line = "let total = items.iter().map(|x| x.price * x.count).sum::<u64>();\n";
            format!("cat > src/generated.rs <<'EOF'\n{}EOF", fill(line, n))
        }),
        ("a commit message of many lines", &|n| {
            format!(
                "git commit -m \"{}\"",
                fill("Explain the change in a line.\n", n)
            )
        }),
        ("short commands chained with && | ;", &|n| {
            fill("echo hello world && ls -la src | grep rs; ", n)
        }),
        ("one command with many words", &|n| {
            format!("ls {}", fill("src/a.rs ", n))
        }),
        ("a pipeline of many stages", &|n| {
            fill("cat f | ", n) + "cat"
        }),
        ("a heredoc full of expansions", &|n| {
            format!("cat > out.txt <<EOF\n{}EOF", fill("home is $HOME\n", n))
        }),
        ("Python code fed by a heredoc", &|n| {
            let line = "data = json.loads(open('package.json').read())\nprint(data['name'])\n";
            format!("python3 - <<'EOF'\nimport json\n{}EOF", fill(line, n))
        }),
        ("JavaScript code fed by a heredoc", &|n| {
            let line = "console.log(JSON.parse(fs.readFileSync('package.json')).name);\n";
            format!(
                "node - <<'EOF'\nconst fs = require('fs');\n{}EOF",
                fill(line, n)
            )
        }),
    ];
    let sizes = [100usize, 1_000, 10_000, 100_000, 1_000_000];
    println!();
    print!("{:<38}", "command (median ms of 15 runs)");
    for size in sizes {
        print!(" {:>9}", format!("{size} B"));
    }
    println!();
    for (name, make) in shapes {
        print!("{name:<38}");
        for size in sizes {
            let input = bash(&make(size));
            let ms = stats((0..15).map(|_| run_once(ours, &home, &input)).collect()).0;
            print!(" {ms:>9.2}");
        }
        println!();
    }
    let _ = std::fs::remove_dir_all(&home);
}
