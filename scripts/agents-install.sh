#!/usr/bin/env bash
# Installs the agent CLIs pinned in tests/agents/versions.json into target/agents/ with npm.
# Idempotent: does nothing when every pinned version is installed and its binary answers
# --version with that version. Fails (exit 1, naming the package) when an install fails.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=target/agents
versions=tests/agents/versions.json

command -v npm >/dev/null || { echo "agents-install: npm not found (Node.js is needed to install the agent CLIs)" >&2; exit 1; }

case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64|arm64) arch=arm64 ;;
  *) echo "agents-install: unsupported machine $(uname -m)" >&2; exit 1 ;;
esac

# name package version bin, one agent a line
mapfile -t agents < <(python3 -c '
import json, sys
for name, a in json.load(open(sys.argv[1]))["agents"].items():
    print(name, a["package"], a["version"], a["bin"])
' "$versions")

# The version a binary reports, or nothing. Gemini relaunches itself without this.
reported() {
  GEMINI_CLI_NO_RELAUNCH=true timeout 60 "$prefix/node_modules/.bin/$1" --version 2>/dev/null | head -n 1 || true
}

check() {
  local ok=0 name pkg ver bin installed
  for line in "${agents[@]}"; do
    read -r name pkg ver bin <<<"$line"
    installed=$(node -p "require('./$prefix/node_modules/$pkg/package.json').version" 2>/dev/null || true)
    if [ "$installed" != "$ver" ]; then
      echo "agents-install: $pkg: installed '${installed:-none}', pinned $ver"
      ok=1
    elif ! reported "$bin" | grep -qF "$ver"; then
      echo "agents-install: $pkg $ver is installed but '$bin --version' does not answer $ver (native binary missing?)"
      ok=1
    fi
  done
  return $ok
}

if check; then
  echo "agents-install: all pinned agents installed in $prefix"
  exit 0
fi

specs=()
for line in "${agents[@]}"; do
  read -r name pkg ver bin <<<"$line"
  specs+=("$pkg@$ver")
  # Claude Code's native binary is an optional dependency; npm skips optional
  # dependencies silently when they fail, so name it explicitly.
  if [ "$name" = claude ]; then specs+=("$pkg-linux-$arch@$ver"); fi
done

mkdir -p "$prefix"
echo "agents-install: npm install ${specs[*]}"
if ! npm install --prefix "$prefix" --no-audit --no-fund --save-exact --include=optional "${specs[@]}"; then
  echo "agents-install: FAILED: npm install ${specs[*]}" >&2
  exit 1
fi

# Claude Code's postinstall links the platform binary into bin/claude.exe; should npm have
# skipped install scripts, run it here.
claude_dir="$prefix/node_modules/@anthropic-ai/claude-code"
if [ -f "$claude_dir/install.cjs" ] && ! check >/dev/null; then
  echo "agents-install: running Claude Code's postinstall (node install.cjs)"
  (cd "$claude_dir" && node install.cjs) || true
fi

if ! check; then
  echo "agents-install: FAILED: after npm install, the agents above are still not at their pinned versions" >&2
  exit 1
fi
echo "agents-install: installed ${specs[*]} in $prefix"
