#!/bin/sh
# Tests the SDK header natively, then builds policy.wasm (a WASI preview-1
# module) from policy.c with clang and wasi-libc.
# Debian 12: apt install clang lld wasi-libc libclang-rt-14-dev-wasm32.
# clang 14 spells the target wasm32-wasi (wasm32-wasip1 needs clang 19+).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sdk="$here/../../guest-sdk/c"
cd "$here"
CC=${CC:-clang}
command -v "$CC" >/dev/null 2>&1 || {
  echo "build.sh: $CC not found: apt install clang lld wasi-libc libclang-rt-14-dev-wasm32" >&2
  exit 1
}
# The header's own tests, natively, with the sanitizers where the compiler has them.
"$CC" -std=c11 -Wall -Wextra -Werror -D_DEFAULT_SOURCE -fsanitize=address,undefined \
  -o hookhost-test "$sdk/test_hookhost.c" && ./hookhost-test
rm -f hookhost-test
target=wasm32-wasi
"$CC" --target=$target -print-target-triple >/dev/null 2>&1 || target=wasm32-wasip1
"$CC" --target=$target -std=c11 -O2 -Wall -Wextra -Werror -I "$sdk" \
  -Wl,--strip-all -o policy.wasm policy.c
echo "built $here/policy.wasm"
