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
# --allow-dirty: CI and developers run it on a checkout with build outputs beside the sources.
cargo publish --workspace --dry-run --locked --allow-dirty --exclude hookhost-tests \
  --target-dir "$target_dir" 2>&1 \
  | grep -v -e '^warning: ignoring \(test\|benchmark\)' -e '^ *Compiling ' -e '^ *Checking '
echo "check-publish: every crate passes cargo publish --dry-run"
