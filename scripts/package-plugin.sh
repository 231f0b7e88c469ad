#!/usr/bin/env bash
# Writes programmer-hook's Claude Code marketplace into OUT_DIR: the plugin `programmer`
# (the repository's agents, command, skill, hooks/hooks.json and bin/programmer-hook
# launcher, copied as they are) with a binary for this machine in bin/<os>-<arch>/, and
# SHA256SUMS. `claude plugin marketplace add OUT_DIR` accepts the folder. See --help.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: scripts/package-plugin.sh [--binary [PLATFORM=]PATH]... OUT_DIR

Writes a Claude Code marketplace with the programmer plugin into OUT_DIR:
  .claude-plugin/marketplace.json and plugin.json, README.md, agents/, commands/programmer.md,
  skills/, hooks/hooks.json, bin/programmer-hook (the launcher), one binary per platform
  in bin/<os>-<arch>/programmer-hook, and SHA256SUMS of the binaries.

Without --binary it builds this machine's binary: on Linux (glibc) statically linked and
not position-independent (cargo build --release --target <host>, RUSTFLAGS
'-C relocation-model=static -C target-feature=+crt-static'), elsewhere cargo build --release.

Options:
  --binary PATH            use this already-built binary for this machine instead
  --binary PLATFORM=PATH   use this binary for PLATFORM (linux-x86_64, linux-aarch64,
                           macos-x86_64, macos-aarch64); repeat for several (the release
                           workflow does)
  -h, --help               show this help

Then: claude plugin marketplace add OUT_DIR && claude plugin install programmer@programmer-hook
An OUT_DIR that exists must be empty or hold an earlier package, which is replaced.
EOF
}

REPO=$(cd "$(dirname "$0")/.." && pwd -P)
. "$REPO/scripts/package-common.sh"
PLATFORMS="linux-x86_64 linux-aarch64 macos-x86_64 macos-aarch64"
read_args "$@"

# This machine's platform, as the launcher names it.
HOST=$(host_platform macos x86_64 aarch64)

VERSION=$(crate_version)
grep -q "\"version\": \"$VERSION\"" "$REPO/.claude-plugin/plugin.json" ||
  die ".claude-plugin/plugin.json does not have the version of Cargo.toml ($VERSION)"

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then
    sha256sum "$1" | cut -d ' ' -f 1
  else
    shasum -a 256 "$1" | cut -d ' ' -f 1
  fi
}

choose_binaries

# The output folder: empty, or an earlier package (which is replaced).
if [ -e "$OUT" ]; then
  [ -d "$OUT" ] || die "$OUT exists and is not a folder"
  if [ -n "$(ls -A "$OUT")" ]; then
    [ -f "$OUT/.claude-plugin/marketplace.json" ] && [ -f "$OUT/bin/programmer-hook" ] ||
      die "$OUT is not empty and holds no earlier package; choose another OUT_DIR"
    rm -rf "${OUT:?}/.claude-plugin" "$OUT/agents" "$OUT/commands" "$OUT/skills" \
      "$OUT/hooks" "$OUT/bin" "$OUT/SHA256SUMS" "$OUT/README.md"
  fi
fi
mkdir -p "$OUT"

# The plugin's files, relative to the repository: the manifests, the hooks, the launcher
# and the agent pack as the binary embeds it (agents/, commands/*.md, skills/). The
# command's other names (commands/aliases.txt) are for source installs only.
plugin_files() {
  local f
  printf '%s\n' .claude-plugin/marketplace.json .claude-plugin/plugin.json hooks/hooks.json bin/programmer-hook
  for f in "$REPO"/agents/*.md "$REPO"/commands/*.md; do
    [ -f "$f" ] && printf '%s\n' "${f#"$REPO"/}"
  done
  (cd "$REPO" && find skills -type f | LC_ALL=C sort)
}

while IFS= read -r rel; do
  mkdir -p "$OUT/$(dirname "$rel")"
  cp "$REPO/$rel" "$OUT/$rel"
  case $rel in
    bin/*) chmod 755 "$OUT/$rel" ;;
    *) chmod 644 "$OUT/$rel" ;;
  esac
done < <(plugin_files)
# The plugin's own README (the repository's is the source install's), at the plugin's root.
cp "$REPO/.claude-plugin/README.md" "$OUT/README.md"
chmod 644 "$OUT/README.md"

: >"$OUT/SHA256SUMS"
for p in "${PAIRS[@]}"; do
  platform=${p%%"$TAB"*} path=${p#*"$TAB"}
  mkdir -p "$OUT/bin/$platform"
  cp "$path" "$OUT/bin/$platform/programmer-hook"
  chmod 755 "$OUT/bin/$platform/programmer-hook"
  printf '%s  %s\n' "$(sha256 "$OUT/bin/$platform/programmer-hook")" "bin/$platform/programmer-hook" >>"$OUT/SHA256SUMS"
done

printf 'Wrote the programmer-hook marketplace (plugin programmer %s) to %s, with binaries for:' "$VERSION" "$OUT"
for p in "${PAIRS[@]}"; do printf ' %s' "${p%%"$TAB"*}"; done
printf '\nInstall it with:\n  claude plugin marketplace add %s\n  claude plugin install programmer@programmer-hook\n' "$OUT"
