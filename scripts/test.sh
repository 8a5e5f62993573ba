#!/usr/bin/env bash
# All tests: unit tests, the integration suite (real processes, real wasmtime, guests
# built from source by tests/build.rs) and doc tests.
set -euo pipefail
cd "$(dirname "$0")/.."
rustup target add wasm32-wasip2 wasm32-wasip1 >/dev/null 2>&1 || true
cargo test --workspace --locked "$@"
