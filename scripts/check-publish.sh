#!/usr/bin/env bash
# Every published crate (hookhost-shell, hookhost-guest, hookhost, hookhost-cli) passes
# `cargo publish --dry-run`: each is packaged (versions on path dependencies, licence,
# README, every embedded file inside the package — the builtins, the SDK templates and the
# WIT are symlinks into the repository that cargo packages as files) and built from its
# tarball against the others' tarballs, as crates.io would. Nothing is uploaded.
#   --target-dir DIR   where the verification builds (default: target/, so that the
#                      dependencies a test build compiled are reused)
set -euo pipefail
cd "$(dirname "$0")/.."
target_dir="${2:-target}"
[ "${1:-}" = "--target-dir" ] || target_dir=target
# Cargo takes a registry crate of a given name and version as immutable and reuses what it
# compiled: a verification build of our crates would link the previous run's tarball. So
# their artefacts go first (the next build of the workspace recompiles them, ~1-2 min).
cargo clean --quiet --target-dir "$target_dir" \
  -p hookhost-shell -p hookhost-guest -p hookhost -p hookhost-cli
# For the same reason cargo unpacks a tarball of the local overlay registry once: the
# previous run's sources of our crates would be built. Only the overlay's directories
# (not crates.io's) are touched.
for dir in "${CARGO_HOME:-$HOME/.cargo}"/registry/{src,cache}/*; do
  case "$(basename "$dir")" in index.crates.io-*) continue ;; esac
  for crate in hookhost-shell hookhost-guest hookhost hookhost-cli; do
    rm -rf "$dir/$crate"-[0-9]*
  done
done
# --allow-dirty: CI and developers run it on a checkout with build outputs beside the sources.
cargo publish --workspace --dry-run --locked --allow-dirty --exclude hookhost-tests \
  --target-dir "$target_dir" 2>&1 \
  | grep -v -e '^warning: ignoring \(test\|benchmark\)' -e '^ *Compiling ' -e '^ *Checking '
echo "check-publish: every crate passes cargo publish --dry-run"
