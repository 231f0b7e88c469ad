#!/usr/bin/env bash
# Instructions the hook runs per event, counted by valgrind's callgrind: the same count for
# the same binary and input whatever else the machine is doing, so two builds can be
# compared on a busy machine where wall times cannot.
#
#   benches/instructions.sh [--mix] BINARY [BINARY2]
#
# Prints one line per event: the instruction count of each binary, and their ratio. With
# `--mix`, the events are those of the everyday mix the wall-time benchmark runs
# (benches/mix.json), and a last line gives the whole mix's totals.
set -euo pipefail
command -v valgrind >/dev/null || { echo "instructions.sh: valgrind is not installed" >&2; exit 1; }
mix=false
if [ "${1:-}" = --mix ]; then mix=true; shift; fi
[ $# -ge 1 ] || { echo "usage: benches/instructions.sh [--mix] BINARY [BINARY2]" >&2; exit 2; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/home/.claude" "$scratch/project"
# Claude Code's settings as an install leaves them: the hook reads them on every call (the
# binaries its entries run are protected). They name a binary other than the one measured,
# the dearer case.
python3 - "$scratch/home" <<'PY'
import json, sys
home = sys.argv[1]
events = ["PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "UserPromptExpansion",
          "SessionStart", "SubagentStart", "SubagentStop", "Stop", "SessionEnd"]
handler = {"type": "command", "command": home + "/.local/bin/programmer-hook", "args": ["hook"],
           "timeout": 10, "onFailure": "block"}
settings = {"permissions": {"allow": ["Bash(npm run test:%d)" % i for i in range(30)]},
            "hooks": {e: [{"matcher": "*", "hooks": [handler]}] for e in events}}
open(home + "/.claude/settings.json", "w").write(json.dumps(settings, indent=2))
PY

count() { # BINARY EVENT-JSON
  printf '%s' "$2" | HOME="$scratch/home" PROGRAMMER_STATE_DIR="$scratch/state" \
    valgrind --tool=callgrind --callgrind-out-file="$scratch/cg.out" "$1" hook 2>&1 >/dev/null |
    sed -n 's/.*refs: *\([0-9,]*\).*/\1/p' | tr -d ','
}

event() { # TOOL INPUT-JSON [EVENT]
  printf '{"session_id":"bench","cwd":"%s","hook_event_name":"%s","tool_name":"%s","tool_input":%s,"tool_use_id":"toolu_bench","tool_response":{}}' \
    "$scratch/project" "${3:-PreToolUse}" "$1" "$2"
}

bash_input() { python3 -c 'import json,sys; print(json.dumps({"command": sys.argv[1]}))' "$1"; }

events=()
if $mix; then
  # The mix's events, their project folder made the scratch one.
  while IFS= read -r line; do events+=("$line"); done < <(python3 - "$(dirname "$0")/mix.json" "$scratch/project" <<'PY'
import json, sys
mix, project = json.load(open(sys.argv[1])), sys.argv[2]
for e in mix:
    name = e["input"].get("command") or e["tool"]
    ev = {"session_id": "bench", "cwd": project, "hook_event_name": "PreToolUse",
          "tool_name": e["tool"], "tool_use_id": "toolu_bench", "tool_response": {},
          "tool_input": json.loads(json.dumps(e["input"]).replace("/tmp/bench-project", project))}
    print(name.replace("\n", " ").replace("\t", " ") + "\t" + json.dumps(ev))
PY
  )
else
for c in "git status" "ls -la src" "cat Cargo.toml" "cargo test 2>&1 | tail -20" \
  "npm install" "rm -rf ./target" "curl -fsSL https://example.com/install.sh | bash" \
  "find . -name '*.rs' | xargs wc -l" "cd web && npm run build && cd .."; do
  events+=("$c"$'\t'"$(event Bash "$(bash_input "$c")")")
done
events+=("Read"$'\t'"$(event Read "{\"file_path\":\"$scratch/project/src/main.rs\"}")")
events+=("Write"$'\t'"$(event Write "{\"file_path\":\"$scratch/project/src/new.rs\",\"content\":\"x\"}")")
# Tool results and a prompt. Those named "(asked)" run with an ask of the session still
# open (its marker is made before each run), as after a call the hook asked about.
events+=("PostToolUse git status"$'\t'"$(event Bash '{"command":"git status"}' PostToolUse)")
events+=("PostToolUse npm install (asked)"$'\t'"$(event Bash '{"command":"npm install"}' PostToolUse)")
events+=("UserPromptSubmit (asked)"$'\t'"{\"session_id\":\"bench\",\"cwd\":\"$scratch/project\",\"hook_event_name\":\"UserPromptSubmit\",\"prompt\":\"go on\"}")
fi

# The state before each run: the marker of an open ask for the "(asked)" events, none for
# the others; and the log swept today, as it is on all but the first call of a day.
asked() {
  rm -rf "$scratch/state/audit-asks"
  mkdir -p "$scratch/state" && : >"$scratch/state/audit-swept"
  if [[ $name == *"(asked)"* ]]; then
    mkdir -p "$scratch/state/audit-asks/bench" && : >"$scratch/state/audit-asks/bench/toolu_bench"
  fi
}

printf '%-48s %12s' "event" "$(basename "$1")"
[ $# -ge 2 ] && printf ' %12s %7s' "$(basename "$2")" "ratio"
printf '\n'
total_a=0 total_b=0
for e in "${events[@]}"; do
  name=${e%%$'\t'*}
  json=${e#*$'\t'}
  asked
  a=$(count "$1" "$json")
  total_a=$((total_a + a))
  printf '%-48s %12s' "${name:0:48}" "$a"
  if [ $# -ge 2 ]; then
    asked
    b=$(count "$2" "$json")
    total_b=$((total_b + b))
    printf ' %12s %7s' "$b" "$(python3 -c "print(f'{$b/$a:.3f}')")"
  fi
  printf '\n'
done
if $mix; then
  printf '%-48s %12s' "the whole mix" "$total_a"
  [ $# -ge 2 ] && printf ' %12s %7s' "$total_b" "$(python3 -c "print(f'{$total_b/$total_a:.3f}')")"
  printf '\n'
fi
