#!/usr/bin/env bash
# Measures the example policies of every language through the release CLI and
# prints a markdown table (docs/LANGUAGES.md holds a copy):
#
#   size         the .wasm file
#   first call   `hookhost fire` with an empty compile cache (compiles the plugin)
#   warm call    `hookhost fire` again, the compiled plugin loaded from the cache
#                (median of RUNS processes)
#   in host      the hook's own duration as `fire` reports it (hooks[0].duration):
#                instantiate + run, what a warm `hookhost serve` or library call pays
#
# Builds the release CLI and the Rust guard-paths example first; the other
# examples come from examples/build-languages.sh (rows say "not built" otherwise).
# Usage: scripts/measure-languages.sh [RUNS]   (default 10)
#        HOOKHOST=path/to/hookhost scripts/measure-languages.sh   (skip building the CLI)
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${1:-10}
if [ -z "${HOOKHOST:-}" ]; then
  cargo build --release --locked -p hookhost-cli --quiet
  export HOOKHOST=target/release/hookhost
fi
rustup target add wasm32-wasip2 >/dev/null 2>&1 || true
cargo build --release --locked --target wasm32-wasip2 \
  --manifest-path examples/rust/Cargo.toml -p guard-paths --quiet
python3 - "$runs" <<'PY'
import json, os, statistics, subprocess, sys, tempfile, time

runs = int(sys.argv[1])
hookhost = os.path.abspath(os.environ["HOOKHOST"])
examples = [
    ("Rust (guard-paths, hookhost-guest)", "component", "examples/rust/target/wasm32-wasip2/release/guard-paths.wasm"),
    ("Python (componentize-py 0.25.1)", "component", "examples/python/policy.wasm"),
    ("JavaScript (ComponentizeJS 0.23.0)", "component", "examples/js/policy.wasm"),
    ("Zig 0.17.1", "preview-1 module", "examples/zig/policy.wasm"),
    ("Go 1.27.3 (GOOS=wasip1)", "preview-1 module", "examples/go/policy.wasm"),
    ("C (clang 14 + wasi-libc)", "preview-1 module", "examples/c/policy.wasm"),
]
event = json.dumps({"tool_name": "write_file", "tool_input": {"file_path": "/etc/passwd", "content": "x"}}).encode()


def fire(settings, project, cache):
    env = dict(os.environ, HOOKHOST_CACHE_DIR=cache)
    env.pop("HOOKHOST_LOG", None)
    start = time.perf_counter()
    done = subprocess.run([hookhost, "fire", "BeforeTool", "--settings", settings, "--project-dir", project],
                          input=event, capture_output=True, env=env, timeout=900)
    elapsed = time.perf_counter() - start
    out = json.loads(done.stdout)
    hooks = out.get("hooks") or [{}]
    if done.returncode != 2 or hooks[0].get("exitCode") != 2:
        raise SystemExit(f"{settings}: expected a block with exit 2, got {done.returncode}: {done.stdout[:500]!r} {done.stderr[:500]!r}")
    return elapsed, hooks[0].get("duration")


def fmt_s(seconds):
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.1f} s"


def size(n):
    return f"{n / 1024:.0f} KiB" if n < 1024 * 1024 else f"{n / 1024 / 1024:.1f} MiB"


rows = []
with tempfile.TemporaryDirectory(prefix="hookhost-measure-") as tmp:
    project = os.path.join(tmp, "project")
    os.mkdir(project)
    for i, (name, kind, path) in enumerate(examples):
        if not os.path.isfile(path):
            rows.append(f"| {name} | {kind} | not built | | | |")
            continue
        settings = os.path.join(tmp, f"settings-{i}.json")
        hook = {"type": "plugin", "path": os.path.abspath(path), "timeout": 60000, "memoryLimit": 268435456}
        with open(settings, "w") as f:
            json.dump({"tools": {"enableHooks": True}, "hooks": {"BeforeTool": [{"hooks": [hook]}]}}, f)
        cache = os.path.join(tmp, f"cache-{i}")
        first, _ = fire(settings, project, cache)
        warm = [fire(settings, project, cache) for _ in range(runs)]
        wall = statistics.median(w for w, _ in warm)
        inside = statistics.median(d for _, d in warm)
        rows.append(f"| {name} | {kind} | {size(os.path.getsize(path))} | {fmt_s(first)} | {fmt_s(wall)} | {inside:.1f} ms |")

print(f"| example | kind | size | first call (empty cache) | warm call (`hookhost fire`, median of {runs}) | in host (instantiate + run) |")
print("|---|---|---|---|---|---|")
for row in rows:
    print(row)
print()
print(f"`scripts/measure-languages.sh`, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the end.")
PY
