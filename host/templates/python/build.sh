#!/bin/sh
# Tests policy.py natively, then builds policy.wasm (a WASI 0.2 component)
# against the hookhost plugin world in wit/.
# Needs Python 3.10+ and componentize-py: pip install componentize-py==0.25.1
set -eu
cd "$(dirname "$0")"
python3 test_policy.py
componentize-py -d wit -w hookhost:plugin/hook componentize app -o policy.wasm
# Compile the module into hookhost's cache now, so that the first call from an
# agent does not pay for it (hookhost check compiles every plugin it lists).
if command -v hookhost >/dev/null 2>&1; then
  hookhost check --settings settings.json --project-dir . >/dev/null && echo "precompiled policy.wasm (hookhost check)"
fi
echo "built $(pwd)/policy.wasm"
