#!/usr/bin/env bash
# CI step "language examples": builds the Python, JavaScript, Zig, Go and C example
# policies (installing componentize-py, ComponentizeJS, Zig, Go, clang) and runs
# tests/all/languages.rs against them with HOOKHOST_LANG_TESTS=1, so a missing
# artifact is a failure rather than a skip.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
echo "== language examples: build (examples/build-languages.sh)"
examples/build-languages.sh
echo "== guest SDKs of other languages: their own tests (Go and C run in the examples' build.sh)"
python3 guest-sdk/python/test_hookhost_guest.py
(cd guest-sdk/js && node --test)
built=$SECONDS
echo "== language examples: test (tests/all/languages.rs)"
rustup target add wasm32-wasip2 wasm32-wasip1 >/dev/null 2>&1 || true
HOOKHOST_LANG_TESTS=1 cargo test --locked -p hookhost-cli --test all -- languages:: scaffold::go_and_c "$@"
echo "language examples: build $((built - start)) s, test $((SECONDS - built)) s"
