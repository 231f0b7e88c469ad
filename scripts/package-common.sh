# The parts the packaging scripts share (sourced by package-npm.sh and package-plugin.sh,
# right after they set REPO): reading their arguments, naming this machine's platform,
# reading the version, and choosing the binaries: building this machine's, or checking
# each one given. They use the sourcing script's REPO, PLATFORMS and usage.

TAB=$'\t'

die() {
  printf '%s: %s\n' "${0##*/}" "$*" >&2
  exit 1
}

# Reads the arguments, `[--binary [PLATFORM=]PATH]... OUT_DIR` in any order, into
# BINARIES and OUT (made absolute).
read_args() {
  BINARIES=()
  OUT=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --binary)
        [ $# -ge 2 ] || die "--binary needs a path"
        BINARIES+=("$2")
        shift
        ;;
      --binary=*) BINARIES+=("${1#--binary=}") ;;
      -h | --help)
        usage
        exit 0
        ;;
      -*) die "unknown option: $1 (see --help)" ;;
      *)
        [ -z "$OUT" ] || die "one OUT_DIR only (see --help)"
        OUT=$1
        ;;
    esac
    shift
  done
  [ -n "$OUT" ] || die "no OUT_DIR given (see --help)"
  case "$OUT" in /*) ;; *) OUT="$PWD/$OUT" ;; esac
}

# This machine's platform, OS-ARCH, named as the caller's PLATFORMS are: $1 is its name
# for macOS, $2 for x86-64 and $3 for 64-bit ARM.
host_platform() { # MACOS X86_64 ARM64
  local os arch
  os=$(uname -s) arch=$(uname -m)
  case $os in
    Linux) os=linux ;;
    Darwin) os=$1 ;;
    *) os=$(printf '%s' "$os" | tr '[:upper:]' '[:lower:]') ;;
  esac
  case $arch in
    x86_64 | amd64 | x64) arch=$2 ;;
    aarch64 | arm64) arch=$3 ;;
  esac
  printf '%s-%s\n' "$os" "$arch"
}

# The version in Cargo.toml.
crate_version() {
  local version
  version=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$REPO/Cargo.toml" | head -n 1)
  [ -n "$version" ] || die "cannot read the version in Cargo.toml"
  printf '%s\n' "$version"
}

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

# The binaries to package, PLATFORM<TAB>PATH each, into PAIRS: each one BINARIES names,
# checked, or, with none given, this machine's, built (BUILT), which on Linux must be
# statically linked and not position-independent.
choose_binaries() {
  local spec
  BUILT=""
  if [ ${#BINARIES[@]} -eq 0 ]; then
    BUILT=$(build_host)
    BINARIES=("$BUILT")
  fi
  PAIRS=()
  for spec in "${BINARIES[@]}"; do
    checked_binary "$spec"
    if [ -n "$BUILT" ] && [ "${platform%%-*}" = linux ]; then
      static_non_pie "$path" || die "$path is not statically linked and non-PIE (readelf -hl shows why)"
    fi
    PAIRS+=("$platform$TAB$path")
  done
}
