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
# 3. What saving a project for `undo` costs: a `project` run of `true` in a scratch git
#    repository of 10,000 files, the first run (the save's store is made, every file
#    read) and the next ones (only changed files read), and an `undo`.
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
bin, runs = os.path.abspath(sys.argv[1]), int(sys.argv[2])
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

print("\n## saving a 10,000-file project for undo (ms)\n")
import tempfile
with tempfile.TemporaryDirectory(dir=os.path.expanduser("~")) as home:
    proj = os.path.join(home, "proj")
    for i in range(100):
        d = os.path.join(proj, f"d{i:03}")
        os.makedirs(d)
        for j in range(100):
            with open(os.path.join(d, f"f{j:03}.txt"), "w") as f:
                f.write(f"file {i} {j}\n" * 20)
    env = dict(os.environ, HOME=home)
    env.pop("PROGRAMMER_STATE_DIR", None)
    subprocess.run(["git", "init", "-q"], cwd=proj, check=True)
    def project_run(cmd):
        t = time.perf_counter()
        subprocess.run([bin, "confine", "project", "--session", "bench", "--project", proj, "--", cmd], cwd=proj, env=env, check=True, stdout=subprocess.DEVNULL)
        return (time.perf_counter() - t) * 1000
    first = project_run("true")
    later = [project_run("true") for _ in range(5)]
    changed = project_run("echo x >> d000/f000.txt && rm d001/f001.txt")
    t = time.perf_counter()
    subprocess.run([bin, "undo", "--session", "bench"], cwd=proj, env=env, check=True, stdout=subprocess.DEVNULL)
    undo = (time.perf_counter() - t) * 1000
    print("| first run | next runs (median) | run changing 2 files | undo of it |")
    print("|---:|---:|---:|---:|")
    print(f"| {first:.0f} | {statistics.median(later):.0f} | {changed:.0f} | {undo:.0f} |")
PY
