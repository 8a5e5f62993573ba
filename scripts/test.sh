#!/usr/bin/env bash
# All tests: unit tests, the integration suite (real processes, real wasmtime, guests
# built from source by tests/build.rs), doc tests, then the agents end-to-end suite
# (scripts/test-agents.sh: the real agent CLIs from npm against target/debug/hookhost).
# HOOKHOST_SKIP_AGENTS=1 leaves the agent suite out (no npm, no Node.js).
set -euo pipefail
cd "$(dirname "$0")/.."
rustup target add wasm32-wasip2 wasm32-wasip1 >/dev/null 2>&1 || true
cargo test --workspace --locked "$@"
# The guest SDK's `http` wrapper is behind a feature no workspace member turns on.
cargo test --locked -p hookhost-guest --features http "$@"
if [ "${HOOKHOST_SKIP_AGENTS:-}" != 1 ]; then
  # `cargo test` built target/debug/hookhost for the integration tests; building it again
  # with `cargo build` would resolve other features and recompile wasmtime (~6 min).
  [ -x target/debug/hookhost ] || cargo build --locked -p hookhost-cli --bin hookhost
  ./scripts/test-agents.sh
fi
