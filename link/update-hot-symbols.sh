#!/usr/bin/env bash
# Remakes link/hot-symbols.txt: the functions the benchmark's mix of events runs, in the
# order they first run, for the default `cargo build --release`, the static build of the
# plugin's Linux binaries, and both as the benchmark builds them. build.rs hands the list
# to the linker, which places those functions first and together, so a call reads fewer
# pages of code (see build.rs, `link_order`).
#
#   link/update-hot-symbols.sh
#
# Needs valgrind. Run it after a change of toolchain or dependencies (symbol names carry
# hashes of both) or when the hot path moved; it builds each in target/ with a linker map
# (PROGRAMMER_HOOK_LINK_MAP, see build.rs), traces each event with valgrind's lackey and
# maps the code it ran to names.
set -euo pipefail
unset RUST_BACKTRACE RUST_LIB_BACKTRACE   # traced as Claude Code runs the hook
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "update-hot-symbols.sh: valgrind is not installed" >&2; exit 1; }
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
static_flags='-C relocation-model=static -C target-feature=+crt-static'

# The events: the benchmark's mix, and the tool results that follow the same calls.
python3 - benches/mix.json "$scratch/events" <<'PY'
import json, os, sys
mix, out = json.load(open(sys.argv[1])), sys.argv[2]
os.makedirs(out)
for i, e in enumerate(mix + [dict(e, event="PostToolUse") for e in mix[:4]]):
    ev = {"session_id": "bench", "transcript_path": "/tmp/t.jsonl", "cwd": "/tmp/bench-project",
          "hook_event_name": e.get("event", "PreToolUse"), "tool_name": e["tool"],
          "tool_input": e["input"], "tool_use_id": "toolu_bench", "permission_mode": "default"}
    if "event" in e:
        ev["tool_response"] = {}
    open(f"{out}/{i:03}.json", "w").write(json.dumps(ev))
PY

trace() { # NAME BINARY: the addresses of the code each event runs, event after event
  local home="$scratch/home-$1"
  mkdir -p "$home/.claude" /tmp/bench-project
  for ev in "$scratch"/events/*.json; do
    # A first call makes the state; the second, traced, is the everyday one.
    HOME=$home "$2" hook <"$ev" >/dev/null 2>&1 || true
    HOME=$home valgrind --tool=lackey --trace-superblocks=yes --log-file="$scratch/sb.log" \
      "$2" hook <"$ev" >/dev/null 2>&1 || true
    grep '^SB ' "$scratch/sb.log" | cut -d' ' -f2
  done >"$scratch/$1.addresses"
}

# Four builds, whose names differ: the release builds, default (install.sh) and static (the
# plugin's Linux binaries), and the same two as `cargo bench` builds them (with the test
# dependencies, which turn on more features of shared dependencies).
builds="release-static release-default bench-static bench-default"
for build in $builds; do
  if [[ $build == *static ]]; then
    flags=$static_flags; target=(--target x86_64-unknown-linux-gnu); dir=target/x86_64-unknown-linux-gnu/release
  else
    flags=; target=(); dir=target/release
  fi
  if [[ $build == bench* ]]; then
    cargo_build=(bench --bench hook_process --no-run)
  else
    cargo_build=(build --release --bin programmer-hook)
  fi
  echo "== $build: building with a linker map"
  RUSTFLAGS=$flags PROGRAMMER_HOOK_LINK_MAP="$scratch/$build.map" cargo "${cargo_build[@]}" "${target[@]}"
  echo "== $build: tracing $(ls "$scratch/events" | wc -l) events"
  trace $build "$dir/programmer-hook"
done

python3 - "$scratch" link/hot-symbols.txt "$(rustc --version)" $builds <<'PY'
import bisect, re, sys
scratch, out, rustc, builds = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
names, seen = [], set()
cold = re.compile(r"addr2line|gimli|rustc_demangle|backtrace_rs")
for build in builds:
    starts, syms, section = [], [], None
    for line in open(f"{scratch}/{build}.map"):
        f = line.split(None, 4)
        if len(f) < 5 or not re.fullmatch(r"[0-9a-f]+", f[0]):
            continue
        rest = f[4].strip()
        if line[49] != " ":            # an output section: `.text`, `.rodata`, …
            section = rest
        elif section == ".text" and line[57] == " ":   # a symbol, not an input section
            starts.append(int(f[0], 16)); syms.append((int(f[0], 16) + int(f[2], 16), rest))
    order = sorted(range(len(starts)), key=starts.__getitem__)
    starts = [starts[i] for i in order]; syms = [syms[i] for i in order]
    count = 0
    for a in open(f"{scratch}/{build}.addresses"):
        a = int(a, 16)
        i = bisect.bisect_right(starts, a) - 1
        # Code that symbolises a backtrace runs in the traces of the default build under
        # valgrind, never in an everyday call: it is left out.
        if i >= 0 and a < syms[i][0] and syms[i][1] not in seen and not cold.search(syms[i][1]):
            seen.add(syms[i][1]); names.append(syms[i][1]); count += 1
    print(f"{build} build: {count} functions", file=sys.stderr)
with open(out, "w") as f:
    f.write("# The functions the benchmark's mix of events runs, in the order they first run, for the\n"
            "# default and the static build (x86-64 Linux), as built for release and for the benchmark.\n"
            "# build.rs gives this list to the linker, which places them first. Made by\n"
            "# link/update-hot-symbols.sh; do not edit.\n"
            f"# made with {rustc} (the release builds with it)\n")
    f.write("\n".join(names) + "\n")
PY
echo "wrote link/hot-symbols.txt ($(grep -vc '^#' link/hot-symbols.txt) names)"
