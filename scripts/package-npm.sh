#!/usr/bin/env bash
# Builds programmer-hook's npm packages as `npm pack` tarballs, laid out as Claude Code's
# own npm package is: a main package `programmer-hook` whose command is a placeholder (the
# launcher bin/programmer-hook) and one optional dependency per platform holding the
# binary, with `os`/`cpu`/`libc` fields so that npm installs only the one that fits. The
# main package's postinstall puts that binary in the placeholder's place, so the command
# on PATH is the binary itself; with install scripts off, the launcher does it on its first
# run (`programmer-hook install`, say). See --help.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: scripts/package-npm.sh OUT_DIR [--binary [PLATFORM=]PATH]...

Writes into OUT_DIR (created if missing):
  programmer-hook-VERSION.tgz            the main package: the launcher as the command
                                         `programmer-hook`, the agent pack (agents/,
                                         commands/, skills/), optionalDependencies on the
                                         platform packages below
  programmer-hook-PLATFORM-VERSION.tgz   one per binary given: the binary, os/cpu/libc

PLATFORM is one of linux-x64, linux-arm64, darwin-x64, darwin-arm64. The Linux binaries
are statically linked, so one package serves glibc and musl systems alike. A platform
with no binary gets no package, and the main package does not name it (the script says
which were left out).

Options:
  --binary [PLATFORM=]PATH  a built programmer-hook for PLATFORM (default: this machine's);
                            give it once per platform. Without any, this machine's binary
                            is built (cargo build --release; static on Linux)
  -h, --help                show this help

Then: npm install -g OUT_DIR/programmer-hook-VERSION.tgz OUT_DIR/programmer-hook-PLATFORM-VERSION.tgz
      programmer-hook install
EOF
}

REPO=$(cd "$(dirname "$0")/.." && pwd -P)
. "$REPO/scripts/package-common.sh"
PLATFORMS="linux-x64 linux-arm64 darwin-x64 darwin-arm64"
read_args "$@"
command -v npm >/dev/null 2>&1 || die "npm is not installed (it packs the tarballs)"

# This machine's platform, as npm names it (process.platform-process.arch).
HOST=$(host_platform darwin x64 arm64)

VERSION=$(crate_version)
DESCRIPTION=$(sed -n 's/^description = "\(.*\)"$/\1/p' "$REPO/Cargo.toml" | head -n 1)

choose_binaries

mkdir -p "$OUT"
STAGE=$(mktemp -d "${TMPDIR:-/tmp}/programmer-hook-npm.XXXXXX")
trap 'rm -rf "$STAGE"' EXIT

# A JSON string (the texts here have no control characters).
json_string() {
  local s=$1
  s=${s//\\/\\\\}
  s=${s//\"/\\\"}
  printf '"%s"' "$s"
}

# Packs the package in folder $1 into OUT; prints the tarball's name.
pack() {
  (cd "$1" && npm pack --silent --pack-destination "$OUT" 2>/dev/null | tail -n 1) ||
    die "npm pack failed in $1"
}

# The platform packages.
DEPS=""
WROTE=()
for p in "${PAIRS[@]}"; do
  platform=${p%%"$TAB"*} path=${p#*"$TAB"}
  os=${platform%-*} cpu=${platform#*-}
  dir="$STAGE/programmer-hook-$platform"
  mkdir -p "$dir"
  cp "$path" "$dir/programmer-hook"
  chmod 755 "$dir/programmer-hook"
  # A static Linux binary needs no C library, so its package serves glibc and musl
  # systems; a dynamic one (a test build, say) only glibc ones.
  libc_field=""
  case $platform in
    linux-*)
      if static_non_pie "$path"; then
        libc='"glibc", "musl"'
      else
        libc='"glibc"'
        printf 'package-npm.sh: %s is not statically linked: its package is for glibc systems only\n' "$path" >&2
      fi
      libc_field=$'\n  "libc": ['"$libc"'],'
      ;;
  esac
  cat >"$dir/package.json" <<EOF
{
  "name": "programmer-hook-$platform",
  "version": "$VERSION",
  "description": "The programmer-hook binary for $platform (installed by the package programmer-hook)",
  "license": "MIT",
  "os": ["$os"],
  "cpu": ["$cpu"],$libc_field
  "files": ["programmer-hook"],
  "preferUnplugged": true
}
EOF
  WROTE+=("$(pack "$dir")")
  DEPS="$DEPS${DEPS:+,}"$'\n'"    \"programmer-hook-$platform\": \"$VERSION\""
done

# The main package.
main="$STAGE/programmer-hook"
mkdir -p "$main/bin"
cp "$REPO/bin/programmer-hook" "$main/bin/programmer-hook"
chmod 755 "$main/bin/programmer-hook"
for f in "$REPO"/agents/*.md "$REPO"/commands/*.md; do
  rel=${f#"$REPO"/}
  mkdir -p "$main/$(dirname "$rel")"
  cp "$f" "$main/$rel"
done
(cd "$REPO" && find skills -type f) | while IFS= read -r rel; do
  mkdir -p "$main/$(dirname "$rel")"
  cp "$REPO/$rel" "$main/$rel"
done
cp "$REPO/README.md" "$main/README.md"
cat >"$main/package.json" <<EOF
{
  "name": "programmer-hook",
  "version": "$VERSION",
  "description": $(json_string "$DESCRIPTION"),
  "license": "MIT",
  "bin": {
    "programmer-hook": "bin/programmer-hook"
  },
  "scripts": {
    "postinstall": "PROGRAMMER_HOOK_PLACE=1 bin/programmer-hook --version"
  },
  "os": ["linux", "darwin"],
  "optionalDependencies": {$DEPS
  },
  "files": ["bin/programmer-hook", "agents", "commands", "skills", "README.md"]
}
EOF
MAIN_TGZ=$(pack "$main")

LEFT=()
for platform in $PLATFORMS; do
  found=0
  for p in "${PAIRS[@]}"; do [ "${p%%"$TAB"*}" = "$platform" ] && found=1; done
  [ "$found" = 1 ] || LEFT+=("$platform")
done

printf 'Wrote the npm packages of programmer-hook %s to %s:\n' "$VERSION" "$OUT"
printf '  %s\n' "$MAIN_TGZ" "${WROTE[@]}"
if [ ${#LEFT[@]} -gt 0 ]; then
  printf 'No binary given for: %s (left out: the main package does not name them, and on those\nmachines the command says so and blocks).\n' "${LEFT[*]}"
fi
printf 'Install them with:\n  npm install -g'
for t in "$MAIN_TGZ" "${WROTE[@]}"; do printf ' %s' "$OUT/$t"; done
printf '\n  programmer-hook install\n'
