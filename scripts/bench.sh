#!/usr/bin/env bash
# Reproduces every measurement in docs/PERFORMANCE.md and rewrites its tables:
#   1. criterion, in process (host/benches/fire/), RUST_BACKTRACE unset;
#   2. the no_match and plugin groups again with RUST_BACKTRACE=1, right after theirs;
#   3. whole processes and `hookhost serve` (host/benches/process/) against the
#      release build, each case with RUST_BACKTRACE unset and =1;
#   4. the peer, @google/gemini-cli-core (bench/gemini; needs node, npm and the npm
#      registry; skipped with a note if unavailable, or with BENCH_SKIP_PEER=1);
#   5. scripts/bench-report.py: the tables and ratios into docs/PERFORMANCE.md.
# Takes about 15 minutes on 2 cores. Results: target/criterion, target/bench-results.
# BENCH_QUICK=1: few samples everywhere and no peer — checks that the whole pipeline
# runs end to end (the figures are not worth publishing).
# The language rows need examples/{python,js,zig}/policy.wasm
# (examples/build-languages.sh); missing ones are skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
rustup target add wasm32-wasip2 wasm32-wasip1 >/dev/null 2>&1 || true
results=target/bench-results
rm -rf target/criterion "$results"
mkdir -p "$results"
criterion_args=(--noplot)
if [ "${BENCH_QUICK:-0}" = 1 ]; then
  criterion_args+=(--quick)
  export HOOKHOST_BENCH_QUICK=1 BENCH_SKIP_PEER=1
fi

echo "== release build (whole-process measurements use it)"
# The bench profile (release + line tables): the same build `cargo bench` makes below,
# so dependencies are compiled once.
cargo build --profile bench --locked -p hookhost-cli
# Measure an installed copy, as users run it (`cargo install` and packages copy the
# binary): the linker's own output file starts ~0.6 ms slower per process on this VM
# (583 vs 502 page faults for a one-plugin fire — its page cache is in small pieces;
# docs/PERFORMANCE.md, "Process start").
install -D -m 755 target/release/hookhost target/bench-bin/hookhost
export HOOKHOST_BIN="$PWD/target/bench-bin/hookhost"

# Waits (at most 3 min) until the 1-minute load average is below 1: a build that just
# ended leaves the machine busy, and timing on top of it measures the build.
settle() {
  [ "${BENCH_QUICK:-0}" = 1 ] && return 0
  for _ in $(seq 36); do
    awk '{exit !($1 < 1.0)}' /proc/loadavg && return 0
    sleep 5
  done
  echo "load still $(cut -d' ' -f1-3 /proc/loadavg) after 3 min: measuring anyway"
}

echo "== the policy as a native binary (tests/guests/echo-policy built for this machine)"
cargo build --release --quiet -p echo-policy \
  --manifest-path tests/guests/Cargo.toml --target-dir target/bench-native
export HOOKHOST_BENCH_NATIVE_POLICY="$PWD/target/bench-native/release/echo-policy"

echo "== bench binaries, then a quiet machine"
cargo bench --locked -p hookhost-cli --bench fire --bench process --no-run
settle

echo "== machine"
{
  echo "{"
  echo "  \"date\": \"$(date -u +%Y-%m-%dT%H:%MZ)\","
  echo "  \"nproc\": \"$(nproc)\","
  echo "  \"cpu\": \"$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')\","
  echo "  \"kernel\": \"$(uname -sr)\","
  echo "  \"memory\": \"$(grep MemTotal /proc/meminfo | awk '{printf "%.1f GiB", $2/1048576}')\","
  echo "  \"rustc\": \"$(rustc --version)\","
  echo "  \"wasmtime\": \"$(awk '/^name = "wasmtime"$/{getline; gsub(/"/,"",$3); print $3; exit}' Cargo.lock)\","
  echo "  \"criterion\": \"$(awk '/^name = "criterion"$/{getline; gsub(/"/,"",$3); print $3; exit}' Cargo.lock)\","
  echo "  \"node\": \"$(node --version 2>/dev/null || echo none)\","
  echo "  \"python3\": \"$(python3 --version 2>/dev/null || echo none)\","
  echo "  \"sh\": \"$(readlink -f /bin/sh)\","
  echo "  \"load_before\": \"$(cut -d' ' -f1-3 /proc/loadavg)\""
  echo "}"
} >"$results/env.json"
cat "$results/env.json"

# The groups compared across RUST_BACKTRACE (no_match, plugin) run last and back to
# back in the two modes (criterion cannot interleave them: std reads the variable once
# per process), so that the comparison spans ~2 minutes of drift, not the ~10 of the
# whole first pass (which put the =1 plugin fire 5 % *faster* than the unset one).
echo "== criterion: command hooks and fan-out (RUST_BACKTRACE unset)"
env -u RUST_BACKTRACE -u RUST_LIB_BACKTRACE cargo bench --locked -p hookhost-cli --bench fire -- "${criterion_args[@]}" 'command|fanout'

echo "== criterion: no_match, plugin and floor (RUST_BACKTRACE unset)"
env -u RUST_BACKTRACE -u RUST_LIB_BACKTRACE cargo bench --locked -p hookhost-cli --bench fire -- "${criterion_args[@]}" 'no_match|plugin|floor'

echo "== criterion: no_match and plugin with RUST_BACKTRACE=1"
RUST_BACKTRACE=1 cargo bench --locked -p hookhost-cli --bench fire -- "${criterion_args[@]}" 'no_match|plugin'

echo "== whole processes and serve (release binary, installed copy)"
settle
HOOKHOST_BENCH_LANGUAGES=1 cargo bench --locked -p hookhost-cli --bench process

echo "== peer: @google/gemini-cli-core"
if [ "${BENCH_SKIP_PEER:-0}" != 1 ] && command -v node >/dev/null && command -v npm >/dev/null; then
  bench/gemini/run.sh 300 >"$results/gemini.json" || {
    echo "peer measurement failed (see above); the report says so"
    rm -f "$results/gemini.json"
  }
else
  echo "skipped (BENCH_SKIP_PEER=1, or node/npm missing)"
fi

python3 - "$results/env.json" <<'PY'
import json, sys
p = sys.argv[1]
d = json.load(open(p))
d["load_after"] = " ".join(open("/proc/loadavg").read().split()[:3])
json.dump(d, open(p, "w"), indent=2)
PY

echo "== report"
python3 scripts/bench-report.py
echo "docs/PERFORMANCE.md updated"
