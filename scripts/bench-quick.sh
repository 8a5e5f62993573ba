#!/usr/bin/env bash
# CI regression guard: every benchmark compiles and runs briefly (quick mode, the
# dev profile so the test build's artifacts are reused). No timing is asserted;
# scripts/bench.sh takes the real measurements.
set -euo pipefail
cd "$(dirname "$0")/.."
export HOOKHOST_BENCH_QUICK=1
cargo bench -p hookhost-cli --locked --profile dev --bench fire -- --quick --noplot
cargo bench -p hookhost-cli --locked --profile dev --bench process -- --quick
cargo bench -p hookhost-shell --locked --profile dev --bench read -- --quick --noplot
