# The parts the packaging scripts share (sourced by package-npm.sh and package-plugin.sh):
# building this machine's binary and checking each binary given. They use the sourcing
# script's REPO, HOST, VERSION, PLATFORMS, TAB, PAIRS and die.

# Whether an ELF binary is statically linked and not position-independent.
static_non_pie() {
  command -v readelf >/dev/null 2>&1 || return 2
  readelf -h "$1" | grep -q 'Type:[[:space:]]*EXEC' && ! readelf -l "$1" | grep -q INTERP
}

# Builds this machine's binary; prints its path.
build_host() {
  local triple rustflags
  command -v cargo >/dev/null 2>&1 || die "cargo is not installed; install Rust from https://rustup.rs, or pass --binary PATH"
  triple=$(rustc -vV | sed -n 's/^host: //p')
  [ -n "$triple" ] || die "cannot tell the host target (rustc -vV)"
  case $triple in
    *-linux-gnu*)
      # --target keeps these flags off build scripts and proc macros.
      rustflags="${RUSTFLAGS:-} -C relocation-model=static -C target-feature=+crt-static"
      printf 'Building %s (static, not position-independent): cargo build --release --target %s\n' "$HOST" "$triple" >&2
      (cd "$REPO" && RUSTFLAGS=$rustflags cargo build --release --locked --target "$triple" >&2) ||
        die "the build failed (see above); it needs a C compiler and the static C library (libc6-dev on Debian and Ubuntu)"
      printf '%s\n' "${CARGO_TARGET_DIR:-$REPO/target}/$triple/release/programmer-hook"
      ;;
    *)
      printf 'Building %s: cargo build --release\n' "$HOST" >&2
      (cd "$REPO" && cargo build --release --locked >&2) || die "the build failed (see above)"
      printf '%s\n' "${CARGO_TARGET_DIR:-$REPO/target}/release/programmer-hook"
      ;;
  esac
}

# Reads one --binary SPEC ([PLATFORM=]PATH) into `platform` and `path`, checked: a known
# platform, an executable file, one binary a platform (PAIRS holds those read so far), and
# this machine's answers --version with this version.
checked_binary() { # SPEC: sets platform and path
  local spec=$1 p got
  case $spec in
    *=*) platform=${spec%%=*} path=${spec#*=} ;;
    *) platform=$HOST path=$spec ;;
  esac
  case " $PLATFORMS " in
    *" $platform "*) ;;
    *) die "unknown platform $platform (one of: $PLATFORMS)" ;;
  esac
  case "$path" in /*) ;; *) path="$PWD/$path" ;; esac
  [ -f "$path" ] && [ -x "$path" ] || die "$path is not an executable file"
  for p in "${PAIRS[@]+"${PAIRS[@]}"}"; do
    [ "${p%%"$TAB"*}" != "$platform" ] || die "two binaries for $platform"
  done
  if [ "$platform" = "$HOST" ]; then
    got=$("$path" --version 2>/dev/null || true)
    [ "$got" = "programmer-hook $VERSION" ] ||
      die "$path answers --version with '${got:-nothing}', not 'programmer-hook $VERSION'"
  fi
}
