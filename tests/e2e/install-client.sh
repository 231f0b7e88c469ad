#!/bin/sh
# Install the pinned Claude Code client for the end-to-end tests
# (tests/e2e_claude.rs) into <repo>/target/e2e-client.
#
# Idempotent: when the pinned version is already there it only checks
# `claude --version` and exits (well under a second).  Needs npm and network
# access to the npm registry, nothing else.  The package's postinstall script
# is not run: the tests use the platform binary directly.
#
# Env: E2E_CLIENT_DIR  install somewhere else (then point CLAUDE_BIN at the
#                      printed binary path when running the tests).
set -eu

VERSION=2.1.332
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DEST=${E2E_CLIENT_DIR:-$ROOT/target/e2e-client}

case "$(uname -s)-$(uname -m)" in
  Linux-x86_64)              PLAT=linux-x64 ;;
  Linux-aarch64|Linux-arm64) PLAT=linux-arm64 ;;
  Darwin-x86_64)             PLAT=darwin-x64 ;;
  Darwin-arm64)              PLAT=darwin-arm64 ;;
  *) echo "install-client.sh: unsupported platform $(uname -s)-$(uname -m)" >&2; exit 1 ;;
esac
BIN=$DEST/node_modules/@anthropic-ai/claude-code-$PLAT/claude

# Run --version with a throwaway HOME so nothing touches the real ~/.claude.
client_version() {
  [ -x "$BIN" ] || return 1
  mkdir -p "$DEST/version-home"
  HOME=$DEST/version-home DISABLE_AUTOUPDATER=1 DISABLE_TELEMETRY=1 \
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 "$BIN" --version 2>/dev/null | awk '{print $1}'
}

if [ "$(client_version || true)" = "$VERSION" ]; then
  echo "Claude Code $VERSION already installed: $BIN"
  exit 0
fi

command -v npm >/dev/null 2>&1 || { echo "install-client.sh: npm not found" >&2; exit 1; }
mkdir -p "$DEST"
cd "$DEST"
[ -f package.json ] || printf '{\n  "name": "programmer-hook-e2e-client",\n  "private": true\n}\n' > package.json
echo "Installing @anthropic-ai/claude-code@$VERSION into $DEST (about 400 MB) ..."
npm install --no-audit --no-fund --ignore-scripts --save-exact --loglevel=error \
  "@anthropic-ai/claude-code@$VERSION"

got=$(client_version || true)
if [ "$got" != "$VERSION" ]; then
  echo "install-client.sh: expected Claude Code $VERSION at $BIN, got '${got:-nothing}'" >&2
  exit 1
fi
echo "Claude Code $VERSION installed: $BIN"
