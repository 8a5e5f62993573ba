#!/usr/bin/env bash
# CI step "language examples": builds the Python, JavaScript and Zig example
# policies (installing componentize-py, ComponentizeJS and Zig) and runs
# tests/all/languages.rs against them with HOOKHOST_LANG_TESTS=1, so a missing
# artifact is a failure rather than a skip.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
echo "== language examples: build (examples/build-languages.sh)"
examples/build-languages.sh
built=$SECONDS
echo "== language examples: test (tests/all/languages.rs)"
rustup target add wasm32-wasip2 wasm32-wasip1 >/dev/null 2>&1 || true
HOOKHOST_LANG_TESTS=1 cargo test --locked -p hookhost-cli --test all -- languages:: "$@"
echo "language examples: build $((built - start)) s, test $((SECONDS - built)) s"
