#!/bin/sh
# Tests decide.js natively, then builds policy.wasm from policy.js + decide.js
# against the hookhost plugin world.
# Needs Node.js 18+ and npm; installs ComponentizeJS locally (as package-lock.json pins it)
# the first time, then reuses node_modules/.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
wit="$here/../../wit"
cd "$here"
# Installs the versions package-lock.json pins. Not `npm ci`: it refuses a lock
# file that lacks any optional per-platform package (rolldown, oxc, … ship one
# per OS and CPU), and registry mirrors do not always carry them all.
if [ ! -x node_modules/.bin/componentize-js ] ||
  [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm install --no-save --no-fund --no-audit
fi
# The guest helpers, copied in: ComponentizeJS reads modules from this directory only.
cp "$here/../../guest-sdk/js/hookhost-guest.js" .
node --test          # decide.test.js: the rules, natively
# --disable http fetch-event: no wasi:http imports, so the component imports
# exactly the hook world (see README.md).
node_modules/.bin/componentize-js policy.js \
  --wit "$wit" --world-name hookhost:plugin/hook \
  --disable http fetch-event \
  -o policy.wasm
echo "built $here/policy.wasm"
