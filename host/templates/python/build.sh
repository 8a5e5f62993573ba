#!/bin/sh
# Tests policy.py natively, then builds policy.wasm (a WASI 0.2 component)
# against the hookhost plugin world in wit/.
# Needs Python 3.10+ and componentize-py: pip install componentize-py==0.25.1
set -eu
cd "$(dirname "$0")"
python3 test_policy.py
componentize-py -d wit -w hookhost:plugin/hook componentize app -o policy.wasm
echo "built $(pwd)/policy.wasm"
