#!/usr/bin/env bash
# Builds the builtin policies (policies/*) to WASI 0.2 components and writes them to
# policies/dist/NAME.wasm, the bytes the hookhost binary embeds (`builtin:NAME`).
#   --check   build into a temporary directory and fail if any byte differs from the
#             committed policies/dist/ (CI: the committed artefacts are what the source
#             gives).
# Reproducible: the same source, Cargo.lock and toolchain give the same bytes on any
# machine and in any checkout directory — built from a copy at a fixed path, paths
# remapped (that copy to /hookhost, cargo's home to /cargo), `--locked`, and the
# release profile fixed
# (policies/Cargo.toml: opt-level s, LTO, one codegen unit, stripped).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
check=0
[ "${1:-}" = "--check" ] && check=1
rustup target add wasm32-wasip2 >/dev/null 2>&1 || true
cargo_home="${CARGO_HOME:-$HOME/.cargo}"
# Cargo hashes a path dependency's location into its symbols, and that changes the
# code's layout (and cargo resolves links, so a link does not help): build from a
# copy of the sources at a fixed path, under a workspace root of just the SDK and
# the shell reading (their manifests inherit from it).
fixed=/tmp/hookhost-policies-build
rm -rf "$fixed"
mkdir -p "$fixed"
cp -r guest-sdk shell wit "$fixed/"
mkdir -p "$fixed/policies"
(cd policies && tar --exclude=./target --exclude=./dist -cf - .) | (cd "$fixed/policies" && tar -xf -)
sed -e 's/^members = .*/members = ["guest-sdk", "shell"]/' \
    -e 's/^exclude = .*/exclude = ["policies"]/' Cargo.toml > "$fixed/Cargo.toml"
export RUSTFLAGS="--remap-path-prefix=$fixed=/hookhost --remap-path-prefix=$cargo_home=/cargo"
export CARGO_TARGET_DIR="$root/policies/target/reproducible"
(cd "$fixed/policies" && cargo build --locked --release --target wasm32-wasip2 --quiet)
out="$root/policies/dist"
if [ "$check" = 1 ]; then
  out="$(mktemp -d)"
  trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"
# pack: the five in one component, what `builtin:NAME` hooks run (host/src/builtin.rs).
names="destructive remote-exec secrets git-safety protected-paths pack"
for name in $names; do
  cp "$CARGO_TARGET_DIR/wasm32-wasip2/release/$name.wasm" "$out/$name.wasm"
done
# The digests the binary embeds beside the bytes (host/src/builtin.rs: a process
# hashes nothing to name a builtin; a unit test checks they are the bytes').
(cd "$out" && for name in $names; do sha256sum "$name.wasm"; done) > "$out/SHA256SUMS"
if [ "$check" = 1 ]; then
  status=0
  for file in $(for name in $names; do echo "$name.wasm"; done) SHA256SUMS; do
    if ! cmp -s "$out/$file" "policies/dist/$file"; then
      echo "build-policies: policies/dist/$file is not what the source builds to" \
           "(run scripts/build-policies.sh and commit policies/dist/)" >&2
      status=1
    fi
  done
  [ "$status" = 0 ] && echo "build-policies: policies/dist/ matches the source byte for byte"
  exit "$status"
fi
cat policies/dist/SHA256SUMS
