//! Whole-process cost of the hook, per event, against a floor binary that only parses the
//! event JSON and prints a fixed answer. Run with `cargo build --release -p floor &&
//! cargo bench --bench hook_process`.
//!
//! Each event of a realistic mix is piped into a fresh process many times (as Claude Code
//! does: one process per tool call); the median and 90th percentile wall times are printed
//! for both binaries, for the hook started as the Claude Code plugin's command
//! (`bin/programmer-hook`, the launcher, which puts the platform's binary in its own place
//! on its first run, so the later calls are the binary's), and for another
//! build given as `PROGRAMMER_HOOK_BENCH_OTHER=PATH`; then the cost of long commands. The
//! build measured is whatever cargo built, and the output names how each binary is linked
//! (static or not, position-independent or not). The release build is measured with
//! `RUSTFLAGS='-C relocation-model=static -C target-feature=+crt-static'` and
//! `--target x86_64-unknown-linux-gnu` on both commands (see README).

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

/// A mix like a coding session: mostly reads and searches, some builds and git. The events
/// are data (`benches/mix.json`), shared with `link/update-hot-symbols.sh`, which lays out
/// the code these events run next to each other.
fn mix() -> Vec<(String, Vec<u8>)> {
    let entries: Vec<serde_json::Value> =
        serde_json::from_str(include_str!("mix.json")).expect("benches/mix.json is a JSON list");
    entries
        .into_iter()
        .map(|e| {
            let tool = e["tool"].as_str().expect("each event names its tool");
            let name = e["input"]["command"].as_str().unwrap_or(tool).to_string();
            (name, event(tool, e["input"].clone()))
        })
        .collect()
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

/// How a binary was linked, from its ELF header: static or dynamic (a `PT_INTERP`
/// program header names the loader), position-independent (`ET_DYN`) or not (`ET_EXEC`).
fn build_kind(bin: &Path) -> String {
    let Ok(b) = std::fs::read(bin) else {
        return "unreadable".into();
    };
    if b.len() < 64 || &b[..4] != b"\x7fELF" || b[4] != 2 || b[5] != 1 {
        return "not a 64-bit little-endian ELF file".into();
    }
    let u16_at = |o: usize| u16::from_le_bytes([b[o], b[o + 1]]) as usize;
    let u32_at = |o: usize| u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
    let u64_at = |o: usize| {
        let mut a = [0u8; 8];
        a.copy_from_slice(&b[o..o + 8]);
        u64::from_le_bytes(a) as usize
    };
    let pie = match u16_at(16) {
        2 => "not position-independent",
        3 => "position-independent",
        _ => "of an unknown ELF type",
    };
    let (phoff, phentsize, phnum) = (u64_at(32), u16_at(54), u16_at(56));
    let interp = (0..phnum)
        .map(|i| phoff + i * phentsize)
        .filter(|&o| o + 4 <= b.len())
        .any(|o| u32_at(o) == 3);
    let linking = if interp { "dynamic" } else { "static" };
    format!("{linking}, {pie}")
}

/// A plugin folder holding the launcher (`bin/programmer-hook` of this repository) and a
/// copy of `bin` as this platform's binary, as `scripts/package-plugin.sh` lays it out.
fn plugin_layout(root: &Path, bin: &Path) -> std::path::PathBuf {
    let platform = format!("{}-{}", std::env::consts::OS, std::env::consts::ARCH);
    let dir = root.join("bin").join(platform);
    std::fs::create_dir_all(&dir).expect("plugin dir");
    let launcher = root.join("bin/programmer-hook");
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("bin/programmer-hook"),
        &launcher,
    )
    .expect("copy the launcher");
    std::fs::copy(bin, dir.join("programmer-hook")).expect("copy the binary");
    launcher
}

/// The floor, built by `cargo build --release -p floor` (with the same `--target`) into the
/// folder cargo builds this benchmark's binaries in.
fn floor_binary() -> std::path::PathBuf {
    let exe = std::env::current_exe().expect("the benchmark's own path");
    // …/release/deps/hook_process-HASH → …/release/floor
    let dir = exe
        .parent()
        .and_then(Path::parent)
        .expect("a cargo output folder");
    let floor = dir.join("floor");
    if !floor.is_file() {
        eprintln!(
            "hook_process: the floor binary {} is missing; build it first with\n  \
             cargo build --release -p floor   (add the same --target as for this benchmark)",
            floor.display()
        );
        std::process::exit(2);
    }
    floor
}

fn main() {
    let ours = Path::new(env!("CARGO_BIN_EXE_programmer-hook"));
    let floor = floor_binary();
    let floor = floor.as_path();
    let home = std::env::temp_dir().join(format!("programmer-hook-bench-{}", std::process::id()));
    std::fs::create_dir_all(home.join("bench-project")).expect("home");
    let launcher = plugin_layout(&home.join("plugin"), ours);
    let events = mix();
    // The binaries, interleaved so machine noise hits them alike: this build, the same
    // through the plugin's launcher, the floor, and another build of programmer-hook to
    // compare with (`PROGRAMMER_HOOK_BENCH_OTHER=PATH`, e.g. the default build).
    let mut columns: Vec<(&str, std::path::PathBuf)> = vec![
        ("ours", ours.to_path_buf()),
        ("plugin", launcher.clone()),
        ("floor", floor.to_path_buf()),
    ];
    if let Some(other) = std::env::var_os("PROGRAMMER_HOOK_BENCH_OTHER") {
        columns.push(("other", std::path::PathBuf::from(other)));
    }
    for (name, bin) in &columns {
        let kind = if *name == "plugin" {
            format!(
                "the plugin's command: the launcher, which puts {} in its own place on its first run",
                ours.display()
            )
        } else {
            build_kind(bin)
        };
        println!("{name:<7} {} ({kind})", bin.display());
    }
    println!();
    print!("{:<50}", "event (median ms)");
    for (name, _) in &columns {
        print!(" {name:>9}");
    }
    println!();
    let mut all: Vec<Vec<Duration>> = vec![Vec::new(); columns.len()];
    for (name, input) in &events {
        let mut per: Vec<Vec<Duration>> = vec![Vec::new(); columns.len()];
        for _ in 0..ROUNDS {
            for (i, (_, bin)) in columns.iter().enumerate() {
                per[i].push(run_once(bin, &home, input));
            }
        }
        let label: String = name.replace('\n', " ").chars().take(48).collect();
        print!("{label:<50}");
        for (i, p) in per.into_iter().enumerate() {
            all[i].extend(p.iter().copied());
            print!(" {:>9.3}", stats(p).0);
        }
        println!();
    }
    println!();
    let summary: Vec<(f64, f64)> = all.into_iter().map(stats).collect();
    for (label, pick) in [("mix median", 0usize), ("mix p90   ", 1)] {
        print!("{label}:");
        for ((name, _), s) in columns.iter().zip(&summary) {
            let v = if pick == 0 { s.0 } else { s.1 };
            print!(" {name} {v:.3} ms;");
        }
        println!();
    }
    println!(
        "ratio ours / floor {:.2}x; the plugin's command adds {:.3} ms",
        summary[0].0 / summary[2].0,
        summary[1].0 - summary[0].0
    );

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
