#!/usr/bin/env bash
# The peer measurement: @google/gemini-cli-core (the reference implementation of the
# hook system) firing the same `sh` command hook as hookhost's benches, in its own
# Node process. Installs the package into a temporary directory (network: the npm
# registry), runs fire.mjs, prints one JSON line. Not part of CI.
#
# usage: bench/gemini/run.sh [runs]      (GEMINI_CLI_CORE_VERSION pins a version)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
runs="${1:-300}"
version="${GEMINI_CLI_CORE_VERSION:-latest}"
work="$(mktemp -d -t hookhost-gemini-peer-XXXXXX)"
trap 'rm -rf "$work"' EXIT

(cd "$work" && npm init -y >/dev/null 2>&1 &&
  npm install --no-audit --no-fund --ignore-scripts --loglevel=error \
    "@google/gemini-cli-core@$version" >/dev/null 2>"$work/npm.log") || {
  echo "npm install of @google/gemini-cli-core failed:" >&2
  cat "$work/npm.log" >&2
  exit 1
}
installed="$(node -p "require('$work/node_modules/@google/gemini-cli-core/package.json').version")"

# The same policy script as host/benches/support (builtins only).
mkdir -p "$work/project"
cat >"$work/policy.sh" <<'SH'
#!/bin/sh
IFS= read -r input || true
case "$input" in
  *'"path":"/etc'*)
    printf '{"decision":"block","reason":"policy: writing under /etc is prohibited"}\n'
    exit 2 ;;
esac
printf '{}\n'
SH
chmod +x "$work/policy.sh"

# HOME is private so the package's trust and settings files stay in the temp dir.
HOME="$work/home" node "$here/fire.mjs" "$work/node_modules" "$work/policy.sh" "$work/project" "$runs" |
  python3 -c 'import json,sys; d=json.loads(sys.stdin.read()); d["version"]=sys.argv[1]; print(json.dumps(d))' "$installed"
