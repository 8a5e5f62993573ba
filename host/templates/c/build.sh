#!/bin/sh
# Runs the unit tests natively, then builds policy.wasm (a WASI preview-1
# module) with clang and wasi-libc.
# Debian/Ubuntu: apt install clang lld wasi-libc libclang-rt-14-dev-wasm32
# (or the wasi-sdk from GitHub: CC=/opt/wasi-sdk/bin/clang ./build.sh).
# clang 14 spells the target wasm32-wasi; newer ones also take wasm32-wasip1.
set -eu
cd "$(dirname "$0")"
CC=${CC:-clang}
command -v "$CC" >/dev/null 2>&1 || {
  echo "build.sh: $CC not found: apt install clang lld wasi-libc libclang-rt-14-dev-wasm32" >&2
  exit 1
}
"$CC" -std=c11 -Wall -Wextra -D_DEFAULT_SOURCE -o test_policy test_policy.c
./test_policy
rm -f test_policy
"$CC" --target=wasm32-wasi -std=c11 -O2 -Wall -Wextra -Wl,--strip-all -o policy.wasm policy.c
# Compile the module into hookhost's cache now, so that the first call from an
# agent does not pay for it (hookhost check compiles every plugin it lists).
if command -v hookhost >/dev/null 2>&1; then
  hookhost check --settings settings.json --project-dir . >/dev/null && echo "precompiled policy.wasm (hookhost check)"
fi
echo "built $(pwd)/policy.wasm"
