#!/usr/bin/env bash
# Installs programmer-hook: the binary, the agent pack (agents, /programmer commands, the
# programmer-add-project skill) and the hook entries in Claude Code's settings.json.
# Run it again at any time: it changes only what differs. See --help.
set -euo pipefail

usage() {
  cat <<'EOF'
Usage: ./install.sh [--dry-run] [--uninstall] [--prefix DIR] [--binary PATH] [--sandbox]

Installs programmer-hook for Claude Code:
  - builds the binary (cargo build --release; on Linux static, as the release) and copies
    it to PREFIX/bin
  - copies agents/, commands/ and skills/ into the Claude config dir
  - adds the hook entries to settings.json (through `programmer-hook install-hooks`)
  - creates the state dir and a default preferences.json, and records there how it
    installed (install.json), so that doctor's fixes fit this install
  - adds marked blocks to CLAUDE.md, model-policy.json and agents/master-orchestrator.md
    when those files exist
  - ends with `programmer-hook doctor`

Options:
  --dry-run       show what would change; change nothing
  --uninstall     remove the hook entries, the pack, the marked blocks, the binary,
                  install.json and the folders the install made, once empty (the rest of
                  the state dir is kept)
  --prefix DIR    install the binary into DIR/bin (default: ~/.local, so ~/.local/bin)
  --binary PATH   use this already-built binary instead of building one
                  (same as PROGRAMMER_HOOK_BINARY=PATH)
  --sandbox       also turn on Claude Code's sandbox in settings.json (install-hooks
                  --sandbox: shown first, backed up; --uninstall takes it out again),
                  so that autonomy auto runs project code the hook cannot read, confined
  -h, --help      show this help

The Claude config dir is $CLAUDE_CONFIG_DIR, else ~/.claude. The state dir is
$PROGRAMMER_STATE_DIR, else <config dir>/state/programmer.
Files that are replaced and differ are kept as FILE.bak-YYYYmmddHHMMSS (the newest
backup of each: the file as it was before the last change).
EOF
}

say() { printf '%s\n' "$*"; }
die() {
  printf 'install.sh: %s\n' "$*" >&2
  exit 1
}

: "${HOME:?HOME is not set}"

DRY_RUN=0
UNINSTALL=0
SANDBOX=
PREFIX="$HOME/.local"
BINARY="${PROGRAMMER_HOOK_BINARY:-}"
while [ $# -gt 0 ]; do
  case "$1" in
    --dry-run) DRY_RUN=1 ;;
    --uninstall) UNINSTALL=1 ;;
    --sandbox) SANDBOX=--sandbox ;;
    --prefix)
      [ $# -ge 2 ] || die "--prefix needs a folder"
      PREFIX=$2
      shift
      ;;
    --prefix=*) PREFIX=${1#--prefix=} ;;
    --binary)
      [ $# -ge 2 ] || die "--binary needs a path"
      BINARY=$2
      shift
      ;;
    --binary=*) BINARY=${1#--binary=} ;;
    -h | --help)
      usage
      exit 0
      ;;
    *) die "unknown option: $1 (see ./install.sh --help)" ;;
  esac
  shift
done

absolute() {
  case "$1" in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s\n' "$PWD/$1" ;;
  esac
}

REPO=$(cd "$(dirname "$0")" && pwd -P)
[ -n "$PREFIX" ] || die "--prefix is empty"
PREFIX=$(absolute "$PREFIX")
BINDIR="$PREFIX/bin"
DEST="$BINDIR/programmer-hook"
CONFIG="${CLAUDE_CONFIG_DIR:-$HOME/.claude}"
CONFIG=$(absolute "$CONFIG")
STATE="${PROGRAMMER_STATE_DIR:-$CONFIG/state/programmer}"
SETTINGS="$CONFIG/settings.json"
MODEL_POLICY="$CONFIG/model-policy.json"
CLAUDE_MD="$CONFIG/CLAUDE.md"
MASTER_AGENT="$CONFIG/agents/master-orchestrator.md"
STAMP=$(date -u +%Y%m%d%H%M%S)
BEGIN_MARK='<!-- programmer-hook:begin -->'
END_MARK='<!-- programmer-hook:end -->'
if [ -n "$BINARY" ]; then
  BINARY=$(absolute "$BINARY")
fi
if [ "$DRY_RUN" = 1 ]; then
  say "Dry run: nothing is changed."
fi

# A free backup name for FILE: FILE.bak-STAMP, or FILE.bak-STAMP-N with N one more than the
# highest backup of that second, so that the new one sorts after it (a name freed by
# pruning is not taken again).
backup_name() {
  local base="$1.bak-$STAMP" f n max=-1
  for f in "$base" "$base"-*; do
    [ -e "$f" ] || [ -L "$f" ] || continue
    n=0
    if [ "$f" != "$base" ]; then
      n=${f#"$base"-}
      case $n in '' | *[!0-9]*) continue ;; esac
    fi
    if [ "$n" -gt "$max" ]; then max=$n; fi
  done
  if [ "$max" -lt 0 ]; then
    printf '%s\n' "$base"
  else
    printf '%s\n' "$base-$((max + 1))"
  fi
}

# Removes all but the newest backup of FILE (the binary keeps as many of settings.json's):
# FILE.bak-STAMP, then FILE.bak-STAMP-N for a second one in a second.
prune_backups() {
  local f s n
  find "$(dirname "$1")" -maxdepth 1 -name "$(basename "$1").bak-*" 2>/dev/null |
    while IFS= read -r f; do
      s=${f##*.bak-}
      n=0
      case $s in *-*) n=${s#*-} s=${s%%-*} ;; esac
      printf '%s %s %s\n' "$s" "$n" "$f"
    done | sort -k1,1 -k2,2n | head -n -1 | cut -d' ' -f3- |
    while IFS= read -r f; do rm -f "$f"; done
}

# The files of the pack, one per line as `SOURCE<TAB>TARGET`: SOURCE relative to the
# repository, TARGET relative to the Claude config dir. The other names of /programmer
# (commands/aliases.txt) are installed as copies of commands/programmer.md.
pack_files() {
  local f rel alias
  for f in "$REPO"/agents/*.md "$REPO"/commands/*.md; do
    [ -f "$f" ] || continue
    rel=${f#"$REPO"/}
    printf '%s\t%s\n' "$rel" "$rel"
  done
  find "$REPO/skills" -type f | sort | while IFS= read -r f; do
    rel=${f#"$REPO"/}
    printf '%s\t%s\n' "$rel" "$rel"
  done
  while IFS= read -r alias; do
    alias=${alias%%#*}
    alias=$(printf '%s' "$alias" | tr -d '[:space:]')
    if [ -n "$alias" ]; then
      printf 'commands/programmer.md\tcommands/%s.md\n' "$alias"
    fi
  done <"$REPO/commands/aliases.txt"
}

# Notes the folders DIR and its parents that do not exist yet (deepest first), which the
# install is about to create, so that --uninstall removes them again once they are empty.
note_new_dirs() {
  local d=$1
  while [ -n "$d" ] && [ "$d" != / ] && [ ! -e "$d" ]; do
    printf '%s\n' "$d" >>"$BLOCKS/new-dirs"
    d=$(dirname "$d")
  done
}

# Adds the folders noted by note_new_dirs to the state dir's record of the folders the
# install made (install-dirs.txt, one a line; kept across re-installs).
record_new_dirs() {
  local record="$STATE/install-dirs.txt"
  [ -s "$BLOCKS/new-dirs" ] || return 0
  { if [ -f "$record" ]; then cat "$record"; fi; cat "$BLOCKS/new-dirs"; } |
    awk '!seen[$0]++' >"$record.tmp.$$"
  mv -f "$record.tmp.$$" "$record"
}

# Removes the folders the install made (install-dirs.txt) that are empty now, deepest first,
# then the record.
remove_new_dirs() {
  local record="$STATE/install-dirs.txt" d
  [ -f "$record" ] || return 0
  awk '{ print length($0) "\t" $0 }' "$record" | sort -rn | cut -f2- |
    while IFS= read -r d; do
      [ -d "$d" ] || continue
      if [ "$DRY_RUN" = 1 ]; then
        say "  would remove the folder $d once empty (made by the install)"
      elif rmdir "$d" 2>/dev/null; then
        say "  removed the empty folder $d (made by the install)"
      fi
    done
  [ "$DRY_RUN" = 1 ] || rm -f "$record"
}

# Says where the backups of the files the install changes are, and how many are kept.
say_backups() {
  local f n
  for f in "$SETTINGS" "$CLAUDE_MD" "$MASTER_AGENT" "$MODEL_POLICY"; do
    [ -d "$(dirname "$f")" ] || continue
    n=$({ find "$(dirname "$f")" -maxdepth 1 -name "$(basename "$f").bak-*" 2>/dev/null || true; } | wc -l)
    if [ "$n" -gt 0 ]; then say "  $n backup(s) of $f, as $f.bak-* (the newest is kept; remove it when you no longer need it)"; fi
  done
  return 0
}

# Copies SRC to DEST with MODE, through a temporary file and a rename. A different file
# already at DEST is kept as a backup when BACKUP is 1.
put_file() {
  local src=$1 dest=$2 mode=$3 backup=$4 b
  if [ -f "$dest" ] && cmp -s "$src" "$dest"; then
    say "  unchanged: $dest"
    return 0
  fi
  if [ "$DRY_RUN" = 1 ]; then
    if [ -e "$dest" ] && [ "$backup" = 1 ]; then
      say "  would replace: $dest (keeping the old one as $(backup_name "$dest"))"
    elif [ -e "$dest" ]; then
      say "  would replace: $dest"
    else
      say "  would install: $dest"
    fi
    return 0
  fi
  note_new_dirs "$(dirname "$dest")"
  mkdir -p "$(dirname "$dest")"
  if [ "$backup" = 1 ] && { [ -e "$dest" ] || [ -L "$dest" ]; }; then
    b=$(backup_name "$dest")
    cp "$dest" "$b"
    prune_backups "$dest"
    say "  kept the old $dest as $b"
  fi
  cp "$src" "$dest.tmp.$$"
  chmod "$mode" "$dest.tmp.$$"
  mv -f "$dest.tmp.$$" "$dest"
  say "  installed: $dest"
}

# Rewrites FILE with the programmer-hook block (MODE install: BLOCKFILE's text, added at
# the end or replacing the old block in place; MODE remove: the block and the blank line
# before it taken out). Leaves a file with unmatched markers alone.
edit_block() {
  local file=$1 mode=$2 blockfile=$3 nb ne tmp b
  [ -f "$file" ] || return 0
  nb=$(grep -c -x -F -e "$BEGIN_MARK" "$file" || true)
  ne=$(grep -c -x -F -e "$END_MARK" "$file" || true)
  if [ "$nb" -gt 1 ] || [ "$nb" != "$ne" ]; then
    say "  left alone: $file (its programmer-hook markers do not pair up; fix them by hand)"
    return 0
  fi
  if [ "$mode" = remove ] && [ "$nb" = 0 ]; then
    say "  no programmer-hook block in $file"
    return 0
  fi
  tmp="$BLOCKS/edited"
  awk -v mode="$mode" -v begin="$BEGIN_MARK" -v end="$END_MARK" -v blockfile="$blockfile" -v found="$nb" '
    BEGIN {
      block = ""
      if (mode == "install") {
        while ((getline line < blockfile) > 0) block = block line "\n"
        close(blockfile)
      }
      skip = 0; held = 0
    }
    skip { if ($0 == end) skip = 0; next }
    $0 == begin {
      if (mode == "install") { if (held) print ""; printf "%s", block }
      held = 0; skip = 1; next
    }
    {
      if (held) { print ""; held = 0 }
      if ($0 == "") { held = 1; next }
      print
    }
    END {
      if (held) print ""
      if (mode == "install" && found == 0) { print ""; printf "%s", block }
    }
  ' "$file" >"$tmp"
  if cmp -s "$tmp" "$file"; then
    rm -f "$tmp"
    say "  unchanged: $file"
    return 0
  fi
  local did
  case "$mode-$nb" in
    install-0) did="add the programmer-hook block to" ;;
    install-*) did="update the programmer-hook block in" ;;
    *) did="remove the programmer-hook block from" ;;
  esac
  if [ "$DRY_RUN" = 1 ]; then
    rm -f "$tmp"
    say "  would $did $file"
    return 0
  fi
  b=$(backup_name "$file")
  cp "$file" "$b"
  prune_backups "$file"
  # cp into the existing file keeps its permissions and writes through a symlink.
  cp "$tmp" "$file"
  rm -f "$tmp"
  case "$did" in
    add*) say "  added the programmer-hook block to $file (old file kept as $b)" ;;
    update*) say "  updated the programmer-hook block in $file (old file kept as $b)" ;;
    *) say "  removed the programmer-hook block from $file (old file kept as $b)" ;;
  esac
}

write_blocks() {
  local dir=$1
  cat >"$dir/claude-md" <<EOF
$BEGIN_MARK
## programmer-orchestrator (added by programmer-hook)

The code-development branch of the hierarchy:

    Master Orchestrator (Opus)
    └── programmer-orchestrator (Opus) - code development
        ├── code-planner (Sonnet) - design and planning
        ├── code-implementer (Sonnet) - writes code
        └── code-reviewer (Sonnet) - review and quality

Start it with \`/programmer <request>\` (also \`/code\`, \`/dev\`) or
\`claude --agent programmer-orchestrator\`. It runs as the main session because it starts
its own subagents; programmer-hook enforces its gates (plan, your \`approve\`, implement,
review, commit). Register a project first with the programmer-add-project skill.
$END_MARK
EOF
  cat >"$dir/master" <<EOF
$BEGIN_MARK
## Supervised: programmer-orchestrator (added by programmer-hook)

- **programmer-orchestrator** (opus): code changes in the user's projects, through plan,
  user approval, implementation, review and commit, with code-planner, code-implementer
  and code-reviewer under it. It must run as the main session, since it starts those
  subagents itself: route a programming request to the user as \`/programmer <request>\`
  instead of starting it as a subagent.
$END_MARK
EOF
}

# Runs the binary's install-hooks or uninstall-hooks, with model-policy.json if present.
hooks_cmd() {
  if [ -f "$MODEL_POLICY" ]; then
    "$@" --settings "$SETTINGS" --model-policy "$MODEL_POLICY"
  else
    "$@" --settings "$SETTINGS"
  fi
}

dry_flag() {
  if [ "$DRY_RUN" = 1 ]; then printf '%s\n' --dry-run; fi
}

# A JSON string of $1 (the paths this script records have no control characters; one that
# does is refused by the caller).
json_string() {
  local s=$1
  s=${s//\\/\\\\}
  s=${s//\"/\\\"}
  printf '"%s"' "$s"
}

# Records in the state dir how this install was made (install.json), so that doctor's fixes
# name the command that fits it: the checkout, the prefix, and the binary it came from.
# Written only when it differs; never in a dry run.
record_install() {
  local method=$1 from=$2 record="$STATE/install.json" v
  for v in "$REPO" "$PREFIX" "$DEST" "$from"; do
    case $v in *[[:cntrl:]]*)
      say "  not recorded: a path has a control character (doctor's fixes will be general)"
      return 0
      ;;
    esac
  done
  {
    printf '{\n'
    printf '  "method": %s,\n' "$(json_string "$method")"
    printf '  "checkout": %s,\n' "$(json_string "$REPO")"
    printf '  "prefix": %s,\n' "$(json_string "$PREFIX")"
    printf '  "binary": %s,\n' "$(json_string "$DEST")"
    printf '  "from": %s\n' "$(json_string "$from")"
    printf '}\n'
  } >"$record.tmp.$$"
  if [ -f "$record" ] && cmp -s "$record.tmp.$$" "$record"; then
    rm -f "$record.tmp.$$"
    say "  unchanged: $record"
  else
    mv -f "$record.tmp.$$" "$record"
    say "  recorded how this install was made (for doctor's fixes): $record"
  fi
}

runs_as_programmer_hook() {
  [ -f "$1" ] && [ -x "$1" ] && "$1" --version 2>/dev/null | grep -q '^programmer-hook '
}

BLOCKS=$(mktemp -d "${TMPDIR:-/tmp}/programmer-hook-install.XXXXXX")
trap 'rm -rf "$BLOCKS"' EXIT
write_blocks "$BLOCKS"

# ---------------------------------------------------------------------------------------
if [ "$UNINSTALL" = 1 ]; then
  say "Uninstalling programmer-hook (config dir $CONFIG)"
  RUNNER=""
  for c in "$DEST" "$BINARY" "$(command -v programmer-hook 2>/dev/null || true)" "$REPO/target/release/programmer-hook"; do
    if [ -n "$c" ] && runs_as_programmer_hook "$c"; then
      RUNNER=$c
      break
    fi
  done
  [ -n "$RUNNER" ] || die "no programmer-hook binary found to remove the hook entries with.
Build one (cargo build --release) and run: ./install.sh --uninstall --binary target/release/programmer-hook
or remove every handler that runs programmer-hook from $SETTINGS by hand."
  say "Hook entries:"
  # shellcheck disable=SC2046
  hooks_cmd "$RUNNER" uninstall-hooks $(dry_flag) ||
    die "could not remove the hook entries (see above); nothing else was removed, so tool calls keep working"
  say "Agents, commands and skill:"
  pack_files | while IFS="$(printf '\t')" read -r src rel; do
    dest="$CONFIG/$rel"
    [ -e "$dest" ] || continue
    if cmp -s "$REPO/$src" "$dest"; then
      if [ "$DRY_RUN" = 1 ]; then say "  would remove: $dest"; else
        rm -f "$dest"
        say "  removed: $dest"
      fi
    else
      b=$(backup_name "$dest")
      if [ "$DRY_RUN" = 1 ]; then say "  would move your changed $dest to $b"; else
        mv "$dest" "$b"
        say "  moved your changed $dest to $b"
      fi
    fi
  done
  if [ "$DRY_RUN" = 0 ]; then
    for d in "$REPO"/skills/*/; do
      d=${d%/}
      rmdir "$CONFIG/skills/${d##*/}" 2>/dev/null || true
    done
  fi
  say "Marked blocks:"
  edit_block "$CLAUDE_MD" remove ""
  edit_block "$MASTER_AGENT" remove ""
  if [ ! -f "$CLAUDE_MD" ] && [ ! -f "$MASTER_AGENT" ]; then
    say "  none: no CLAUDE.md or agents/master-orchestrator.md in $CONFIG"
  fi
  say "Binary:"
  if [ -e "$DEST" ]; then
    if [ "$DRY_RUN" = 1 ]; then say "  would remove: $DEST"; else
      rm -f "$DEST"
      say "  removed: $DEST"
    fi
  else
    say "  not there: $DEST"
  fi
  if [ -e "$STATE/install.json" ]; then
    if [ "$DRY_RUN" = 1 ]; then say "  would remove: $STATE/install.json"; else
      rm -f "$STATE/install.json"
      say "  removed: $STATE/install.json (how this install was made)"
    fi
  fi
  say "Folders:"
  remove_new_dirs
  say "Backups:"
  say_backups
  say "Kept the state dir $STATE (remove it yourself if you no longer want the audit log and project records)."
  exit 0
fi

# ---------------------------------------------------------------------------------------
say "Installing programmer-hook (binary into $BINDIR, config dir $CONFIG)"
if [ -n "$BINARY" ]; then
  SRC=$BINARY
  runs_as_programmer_hook "$SRC" || die "$SRC is not a working programmer-hook binary"
  say "Using the binary $SRC"
else
  command -v cargo >/dev/null 2>&1 || die "cargo, the Rust build tool, is not installed (or not on PATH).
Install Rust from https://rustup.rs (it provides cargo), open a new shell, and run ./install.sh again.
Or pass an already-built binary: ./install.sh --binary /path/to/programmer-hook"
  TARGET_DIR=${CARGO_TARGET_DIR:-target}
  case "$TARGET_DIR" in /*) ;; *) TARGET_DIR="$REPO/$TARGET_DIR" ;; esac
  SRC="$TARGET_DIR/release/programmer-hook"
  # On Linux with glibc the binary is built static and not position-independent, as the
  # release's: it starts about twice as fast (the loader has nothing to link or relocate),
  # and it runs before every tool call. --target keeps the flags off build scripts and
  # proc macros. Without the static C library that build fails, and the default one is made.
  HOST_TRIPLE=$(rustc -vV 2>/dev/null | sed -n 's/^host: //p') || HOST_TRIPLE=
  STATIC_FLAGS="-C relocation-model=static -C target-feature=+crt-static${RUSTFLAGS:+ $RUSTFLAGS}"
  case $HOST_TRIPLE in *-linux-gnu*) STATIC=1 ;; *) STATIC=0 ;; esac
  if [ "$DRY_RUN" = 1 ]; then
    if [ "$STATIC" = 1 ]; then
      say "Would build the binary: (cd $REPO && RUSTFLAGS='$STATIC_FLAGS' cargo build --release --target $HOST_TRIPLE)"
    else
      say "Would build the binary: (cd $REPO && cargo build --release)"
    fi
  else
    built=0
    if [ "$STATIC" = 1 ]; then
      say "Building the binary, static: cargo build --release --target $HOST_TRIPLE (the first build takes a minute or two)"
      if (cd "$REPO" && RUSTFLAGS=$STATIC_FLAGS cargo build --release --target "$HOST_TRIPLE"); then
        SRC="$TARGET_DIR/$HOST_TRIPLE/release/programmer-hook"
        built=1
      else
        say "The static build failed (it needs the static C library: libc6-dev on Debian and Ubuntu,
glibc-static on Fedora); building the default binary instead, which takes about twice as long to start."
      fi
    fi
    if [ "$built" = 0 ]; then
      say "Building the binary: cargo build --release (the first build takes a minute or two)"
      (cd "$REPO" && cargo build --release) || die "the build failed (see above). It needs a C compiler (cc) for the Bash parser:
on Debian/Ubuntu install build-essential, on macOS run xcode-select --install."
    fi
    runs_as_programmer_hook "$SRC" || die "the build did not produce a working $SRC"
  fi
fi

# Check the settings (and model-policy.json) parse before changing anything.
if runs_as_programmer_hook "$SRC"; then
  hooks_cmd "$SRC" install-hooks --dry-run --binary "$SRC" >/dev/null ||
    die "nothing was changed: fix the file named above and run ./install.sh again"
fi

say "Binary:"
if [ -f "$SRC" ]; then
  put_file "$SRC" "$DEST" 755 0
else
  say "  would install: $DEST"
fi

say "Agents, commands and skill (into $CONFIG):"
pack_files | while IFS="$(printf '\t')" read -r src rel; do
  put_file "$REPO/$src" "$CONFIG/$rel" 644 1
done

say "State dir:"
if [ -d "$STATE" ]; then
  say "  unchanged: $STATE"
elif [ "$DRY_RUN" = 1 ]; then
  say "  would create: $STATE"
else
  note_new_dirs "$STATE"
  mkdir -p "$STATE"
  chmod 700 "$STATE"
  say "  created: $STATE"
fi
if [ -d "$STATE/projects" ]; then
  :
elif [ "$DRY_RUN" = 1 ]; then
  say "  would create: $STATE/projects"
else
  mkdir -p "$STATE/projects"
fi
PREFS="$STATE/preferences.json"
if [ -e "$PREFS" ]; then
  say "  kept: $PREFS"
elif [ "$DRY_RUN" = 1 ]; then
  say "  would create: $PREFS"
else
  printf '%s\n' '{' '  "style": {},' '  "patterns": {},' '  "languages": {}' '}' >"$PREFS.tmp.$$"
  mv "$PREFS.tmp.$$" "$PREFS"
  say "  created: $PREFS (empty preferences: the agents follow each project's own style)"
fi

say "Hook entries:"
if [ "$DRY_RUN" = 1 ]; then
  if runs_as_programmer_hook "$DEST"; then
    hooks_cmd "$DEST" install-hooks --dry-run --binary "$DEST" $SANDBOX
  elif runs_as_programmer_hook "$SRC"; then
    say "  (shown with $SRC; the entries will run $DEST)"
    hooks_cmd "$SRC" install-hooks --dry-run --binary "$SRC" $SANDBOX
  else
    say "  would run: $DEST install-hooks --binary $DEST --settings $SETTINGS $SANDBOX"
  fi
else
  # settings.json's folder, when the install makes it.
  [ -d "$(dirname "$SETTINGS")" ] || note_new_dirs "$(dirname "$SETTINGS")"
  hooks_cmd "$DEST" install-hooks --binary "$DEST" $SANDBOX || die "could not add the hook entries (see above)"
  record_new_dirs
  if [ -n "$BINARY" ]; then
    record_install binary "$BINARY"
  else
    record_install source "$SRC"
  fi
fi

say "Marked blocks:"
edit_block "$CLAUDE_MD" install "$BLOCKS/claude-md"
edit_block "$MASTER_AGENT" install "$BLOCKS/master"
if [ ! -f "$CLAUDE_MD" ] && [ ! -f "$MASTER_AGENT" ] && [ ! -f "$MODEL_POLICY" ]; then
  say "  none: no CLAUDE.md, model-policy.json or agents/master-orchestrator.md in $CONFIG"
fi

if [ "$DRY_RUN" = 1 ]; then
  say "Would finish with: $DEST doctor"
  exit 0
fi
say ""
if "$DEST" doctor --settings "$SETTINGS"; then
  say ""
  say "Done. Register a project from its folder in a terminal: programmer-hook add-project (in Claude Code that is asked every time, even under autonomy auto); then, in Claude Code, type /programmer <request>."
else
  # Everything was installed; what doctor found (often only PATH) is for the user to fix,
  # and the hook entries run the binary by its full path either way.
  say ""
  say "Installed, but doctor found the problems listed above: fix them, then run $DEST doctor again."
fi
