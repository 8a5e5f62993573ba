#!/bin/sh
# Tests policy.js natively, then builds policy.wasm (a WASI 0.2 component)
# against the hookhost plugin world in wit/. Needs Node.js 18+ and npm;
# installs ComponentizeJS into node_modules/ on the first run.
set -eu
cd "$(dirname "$0")"
if [ ! -x node_modules/.bin/componentize-js ]; then
  npm install --no-fund --no-audit
fi
node --test
# --disable http fetch-event: no wasi:http imports, just the hook world.
node_modules/.bin/componentize-js index.js \
  --wit wit --world-name hookhost:plugin/hook \
  --disable http fetch-event \
  -o policy.wasm
# Compile the module into hookhost's cache now, so that the first call from an
# agent does not pay for it (hookhost check compiles every plugin it lists).
if command -v hookhost >/dev/null 2>&1; then
  hookhost check --settings settings.json --project-dir . >/dev/null && echo "precompiled policy.wasm (hookhost check)"
fi
echo "built $(pwd)/policy.wasm"
