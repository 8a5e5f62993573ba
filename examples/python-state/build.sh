#!/bin/sh
# Builds policy.wasm from app.py against the hookhost world with state
# (hook-with-state: the base hook world plus wasi:keyvalue/store).
# Needs Python 3.10+ and `pip install componentize-py` (tested with 0.25.1).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
wit="$here/../../wit"
cd "$here"
# -p: the app, and the guest helpers (hookhost_guest.py) from the repository's SDK.
componentize-py -d "$wit" -w hookhost:plugin/hook-with-state componentize app \
  -p . -p "$here/../../guest-sdk/python" -o policy.wasm
echo "built $here/policy.wasm"
