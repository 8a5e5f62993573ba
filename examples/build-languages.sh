#!/usr/bin/env bash
# Builds the non-Rust example policies — examples/python (componentize-py),
# examples/js (ComponentizeJS) and examples/zig (Zig, a preview-1 module) —
# installing what they need first, idempotently:
#
#   pip:  componentize-py==0.25.1, ziglang==0.17.1   (skipped when present)
#   npm:  examples/js/package-lock.json, locally     (skipped when installed)
#   apt:  nodejs + npm, only when node is missing
#
# Each step prints its time. The artifacts are examples/*/policy.wasm;
# tests/all/languages.rs runs them (scripts/test-languages.sh does both).
set -euo pipefail
cd "$(dirname "$0")"

COMPONENTIZE_PY=0.25.1
ZIG=0.17.1
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

install() {
  pip_install componentize-py "$COMPONENTIZE_PY"
  pip_install ziglang "$ZIG"
  if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ]; then
      apt-get update -qq && apt-get install -y -qq nodejs npm
    else
      sudo apt-get update -qq && sudo apt-get install -y -qq nodejs npm
    fi
  fi
  # componentize-py is a console script of that Python; make sure it is found.
  command -v componentize-py >/dev/null 2>&1 ||
    export PATH="$("$PYTHON" -c 'import sysconfig; print(sysconfig.get_path("scripts"))'):$PATH"
}

total=$SECONDS
step "install (pip, npm, apt as needed)" install
step "python (componentize-py $COMPONENTIZE_PY)" python/build.sh
step "js (ComponentizeJS, npm install on first run)" js/build.sh
step "zig (Zig $ZIG, wasm32-wasi)" zig/build.sh
for lang in python js zig; do
  printf '%-8s %10s bytes  %s\n' "$lang" "$(wc -c <"$lang/policy.wasm")" "examples/$lang/policy.wasm"
done
echo "build-languages: $((SECONDS - total)) s"
