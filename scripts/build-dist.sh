#!/usr/bin/env bash
# The hookhost binary that ships: static (musl), the `dist` profile (fat LTO, one codegen
# unit, stripped), for TARGET (default x86_64-unknown-linux-musl). Prints its path.
#   SOURCE_DATE_EPOCH  fixed into nothing the binary embeds but kept for the archives
#   HOOKHOST_BUILD_COMMIT  the commit `hookhost --version` names (default: git HEAD)
set -euo pipefail
cd "$(dirname "$0")/.."
target="${1:-x86_64-unknown-linux-musl}"
rustup target add "$target" >/dev/null 2>&1 || true
case "$target" in
  x86_64-unknown-linux-musl)
    if ! command -v musl-gcc >/dev/null; then
      DEBIAN_FRONTEND=noninteractive apt-get install -y musl-tools >/dev/null
    fi
    # C parts (SQLite, ring) compile with musl's gcc wrapper.
    export CC_x86_64_unknown_linux_musl=musl-gcc
    ;;
  *) echo "build-dist: $target: no cross toolchain set up here" >&2; exit 1 ;;
esac
# Paths of this checkout and of cargo's registry do not end up in the binary.
root=$(pwd)
export RUSTFLAGS="${RUSTFLAGS:-} --remap-path-prefix=$root=/hookhost --remap-path-prefix=${CARGO_HOME:-$HOME/.cargo}=/cargo"
cargo build --locked --profile dist --target "$target" -p hookhost-cli --bin hookhost >&2
echo "target/$target/dist/hookhost"
