#!/usr/bin/env bash
# All tests: unit tests, the integration suite (real processes, real wasmtime, guests
# built from source by tests/build.rs), doc tests, then the agents end-to-end suite
# (scripts/test-agents.sh: the real agent CLIs from npm against target/debug/hookhost,
# installed from the npm packages as a user installs hookhost; HOOKHOST_BIN overrides).
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
  # The agents run hookhost the way users install it: from the npm packages
  # (scripts/package-npm.sh around this build's binary; the release packages hold the
  # static musl build, ~30 min to build here), installed offline into a prefix.
  if [ -z "${HOOKHOST_BIN:-}" ]; then
    BIN="$PWD/target/debug/hookhost" ./scripts/package-npm.sh >/dev/null
    rm -rf target/npm-prefix
    npm install -g --offline --no-audit --no-fund --prefix target/npm-prefix target/npm/*.tgz
    export HOOKHOST_BIN="$PWD/target/npm-prefix/bin/hookhost"
  fi
  ./scripts/test-agents.sh
fi
