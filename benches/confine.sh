#!/usr/bin/env bash
# What confinement costs and whether confined calls still do their work.
#
#   benches/confine.sh [BINARY] [RUNS]
#
# 1. The added cost per confined call: each command run as `bash -c CMD` and as
#    `BINARY confine read -- CMD` (and `project` for the last ones), RUNS times each,
#    interleaved; prints the median and 90th percentile of both and the difference.
# 2. The everyday mix (benches/mix.json): each Bash command the hook allows, run in this
#    checkout unconfined and confined in the profile the hook gives it; prints whether
#    the exit status and the standard output are the same.
#
# BINARY defaults to target/release/programmer-hook (`cargo build --release`).
set -euo pipefail
cd "$(dirname "$0")/.."
bin=${1:-target/release/programmer-hook}
runs=${2:-200}
[ -x "$bin" ] || { echo "confine.sh: no binary at $bin (cargo build --release)" >&2; exit 2; }
"$bin" confine read -- true || { echo "confine.sh: confinement does not work here (programmer-hook doctor says why)" >&2; exit 1; }
python3 - "$bin" "$runs" <<'PY'
import json, os, statistics, subprocess, sys, time
bin, runs = sys.argv[1], int(sys.argv[2])
def timed(argv):
    t = time.perf_counter()
    subprocess.run(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return (time.perf_counter() - t) * 1000
def pct(v, p):
    v = sorted(v); return v[min(len(v) - 1, int(len(v) * p))]
print("## added cost per call (ms)\n")
print("| command | profile | unconfined median | confined median | added median | unconfined p90 | confined p90 |")
print("|---|---|---:|---:|---:|---:|---:|")
for cmd, profile in [("true", "read"), ("ls src", "read"), ("git status --short", "read"), ("cat Cargo.toml", "read"), ("true", "project")]:
    plain, conf = [], []
    for _ in range(runs):
        plain.append(timed(["bash", "-c", cmd]))
        conf.append(timed([bin, "confine", profile, "--", cmd]))
    mp, mc = statistics.median(plain), statistics.median(conf)
    print(f"| `{cmd}` | {profile} | {mp:.2f} | {mc:.2f} | {mc - mp:.2f} | {pct(plain, .9):.2f} | {pct(conf, .9):.2f} |")
print("\n## the everyday mix, confined as the hook would run it\n")
print("| command | profile | same exit status | same output |")
print("|---|---|---|---|")
mix = json.load(open("benches/mix.json"))
for e in mix:
    if e.get("tool") != "Bash":
        continue
    cmd = e["input"]["command"]
    ev = {"hook_event_name": "PreToolUse", "session_id": "", "tool_name": "Bash", "tool_input": e["input"], "cwd": os.getcwd()}
    ans = json.loads(subprocess.run([bin, "hook"], input=json.dumps(ev).encode(), capture_output=True).stdout or b"{}")
    out = ans.get("hookSpecificOutput", {})
    if out.get("permissionDecision") != "allow":
        continue
    new = out.get("updatedInput", {}).get("command")
    profile = new.split(" confine ", 1)[1].split()[0] if new else "none"
    a = subprocess.run(["bash", "-c", cmd], capture_output=True, stdin=subprocess.DEVNULL)
    b = subprocess.run(["bash", "-c", new or cmd], capture_output=True, stdin=subprocess.DEVNULL)
    short = cmd.splitlines()[0][:60]
    print(f"| `{short}` | {profile} | {'yes' if a.returncode == b.returncode else 'NO'} | {'yes' if a.stdout == b.stdout else 'NO'} |")
PY
