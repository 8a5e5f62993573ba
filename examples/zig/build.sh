#!/bin/sh
# Builds policy.wasm (a WASI preview-1 core module) from policy.zig and runs
# its unit tests natively first.
# Needs Zig 0.17.1: `python3 -m pip install ziglang==0.17.1` (PyPI ships Zig
# as a wheel; `python3 -m ziglang` is the zig binary), or a `zig` on PATH of
# the same version.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
want=0.17.1
if command -v zig >/dev/null 2>&1 && [ "$(zig version)" = "$want" ]; then
  zig() { command zig "$@"; }
elif python3 -m ziglang version >/dev/null 2>&1 && [ "$(python3 -m ziglang version)" = "$want" ]; then
  zig() { python3 -m ziglang "$@"; }
else
  echo "build.sh: Zig $want not found: python3 -m pip install ziglang==$want" >&2
  exit 1
fi
zig test policy.zig
zig build-exe -target wasm32-wasi -O ReleaseSmall policy.zig -femit-bin=policy.wasm
rm -f policy.wasm.o
echo "built $here/policy.wasm"
