#!/usr/bin/env bash
# Installs the agent CLIs pinned in tests/agents/versions.json, each into its own npm prefix
# target/agents/NAME/, so that one agent's failed install leaves the others alone.
# Idempotent: an agent whose pinned version is installed and whose binary answers --version
# with that version is not reinstalled.
#
# Writes target/agents/status.json: {NAME: {"ok": bool, "package", "version", "bin", "error"}}.
# tests/agents/run.py reads it: an agent whose install failed is reported NOT RUN and the suite
# fails (never a pass). This script exits 0 when it could record every agent's outcome (so that
# scripts/test-agents.sh goes on to run the suite and report), 1 when npm or python3 is missing —
# or, with AGENTS_INSTALL_STRICT=1, when any agent failed to install.
#   AGENTS_ONLY="qwen droid"   install (and record) only these agents
set -uo pipefail
cd "$(dirname "$0")/.."
root=target/agents
versions=tests/agents/versions.json
status=$root/status.json
# Copilot unpacks its native payload (~235 MB) into $XDG_CACHE_HOME on first run; one shared
# cache for the version check and the suite (tests/agents/agents.py uses the same directory).
export XDG_CACHE_HOME="$PWD/target/agents-cache"

command -v npm >/dev/null || { echo "agents-install: npm not found (Node.js is needed to install the agent CLIs)" >&2; exit 1; }
command -v python3 >/dev/null || { echo "agents-install: python3 not found" >&2; exit 1; }

case "$(uname -m)" in
  x86_64) arch=x64 ;;
  aarch64|arm64) arch=arm64 ;;
  *) echo "agents-install: unsupported machine $(uname -m)" >&2; exit 1 ;;
esac

# name package version bin extra…, one agent a line ({arch} substituted)
mapfile -t agents < <(python3 -c '
import json, os, sys
only = os.environ.get("AGENTS_ONLY", "").split()
for name, a in json.load(open(sys.argv[1]))["agents"].items():
    if only and name not in only:
        continue
    fields = [name, a["package"], a["version"], a["bin"]] + a.get("extra", [])
    print(" ".join(f.replace("{arch}", sys.argv[2]) for f in fields))
' "$versions" "$arch")

mkdir -p "$root" "$XDG_CACHE_HOME"
check_home=$(mktemp -d)
trap 'rm -rf "$check_home"' EXIT

# The first line a binary prints for --version, or nothing. A throwaway HOME: some agents write
# their configuration on any start. Gemini relaunches itself without GEMINI_CLI_NO_RELAUNCH.
reported() {
  HOME="$check_home" XDG_CONFIG_HOME="$check_home/.config" GEMINI_CLI_NO_RELAUNCH=true \
    COPILOT_AUTO_UPDATE=false FACTORY_DROID_AUTO_UPDATE_ENABLED=false \
    OPENCODE_DISABLE_AUTOUPDATE=true KILO_DISABLE_AUTOUPDATE=true \
    timeout 120 "$1" --version </dev/null 2>/dev/null | head -n 1 || true
}

# check NAME PKG VER BIN: empty output when installed at VER, else why not
check() {
  local dir="$root/$1" installed said
  installed=$(node -p "require('./$dir/node_modules/$2/package.json').version" 2>/dev/null || true)
  if [ "$installed" != "$3" ]; then
    echo "$2: installed '${installed:-none}', pinned $3"
    return
  fi
  if [ ! -x "$dir/$4" ]; then
    echo "$2 $3 is installed but $dir/$4 is not an executable"
    return
  fi
  said=$(reported "$dir/$4")
  if ! grep -qF "$3" <<<"$said"; then
    echo "$2 $3 is installed but '$4 --version' answers '${said:-nothing}', not $3 (native binary missing?)"
  fi
}

results=()   # name<TAB>ok<TAB>package<TAB>version<TAB>bin<TAB>error
failed=()
for line in "${agents[@]}"; do
  read -r name pkg ver bin extra <<<"$line"
  dir="$root/$name"
  why=$(check "$name" "$pkg" "$ver" "$bin")
  if [ -z "$why" ]; then
    echo "agents-install: $name: $pkg@$ver installed"
    results+=("$name	true	$pkg	$ver	$bin	")
    continue
  fi
  echo "agents-install: $name: $why"
  specs=("$pkg@$ver")
  for e in $extra; do specs+=("$e@$ver"); done
  mkdir -p "$dir"
  [ -f "$dir/package.json" ] || echo '{}' >"$dir/package.json"
  echo "agents-install: $name: npm install ${specs[*]}"
  log="$dir/npm-install.log"
  start=$SECONDS
  if ! npm install --prefix "$dir" --no-audit --no-fund --save-exact --include=optional \
      "${specs[@]}" >"$log" 2>&1; then
    tail -n 20 "$log" >&2
    err="npm install ${specs[*]} failed (see $log): $(grep -m1 -i 'npm error' "$log" | cut -c1-300)"
  else
    # Claude Code's postinstall links the platform binary into bin/claude.exe; should npm
    # have skipped install scripts, run it here.
    claude_dir="$dir/node_modules/@anthropic-ai/claude-code"
    if [ "$name" = claude ] && [ -f "$claude_dir/install.cjs" ] && [ -n "$(check "$name" "$pkg" "$ver" "$bin")" ]; then
      echo "agents-install: $name: running Claude Code's postinstall (node install.cjs)"
      (cd "$claude_dir" && node install.cjs) >>"$log" 2>&1 || true
    fi
    err=$(check "$name" "$pkg" "$ver" "$bin")
    [ -z "$err" ] || err="after npm install: $err"
  fi
  if [ -z "$err" ]; then
    echo "agents-install: $name: installed ${specs[*]} in $dir ($((SECONDS - start)) s)"
    results+=("$name	true	$pkg	$ver	$bin	")
  else
    echo "agents-install: $name: FAILED: $err" >&2
    results+=("$name	false	$pkg	$ver	$bin	$err")
    failed+=("$name")
  fi
done

# merge into status.json (AGENTS_ONLY keeps the other agents' entries)
printf '%s\n' "${results[@]}" | python3 -c '
import json, os, sys, time
path = sys.argv[1]
try:
    data = json.load(open(path))
except (OSError, ValueError):
    data = {}
for line in sys.stdin.read().splitlines():
    if not line:
        continue
    name, ok, pkg, ver, bin_, err = (line.split("\t") + [""] * 6)[:6]
    data[name] = {"ok": ok == "true", "package": pkg, "version": ver, "bin": bin_,
                  "error": err or None, "checked": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
with open(path, "w") as f:
    json.dump(data, f, indent=1, sort_keys=True)
    f.write("\n")
' "$status"

if [ ${#failed[@]} -gt 0 ]; then
  echo "agents-install: FAILED to install: ${failed[*]} (recorded in $status; the suite reports them NOT RUN)" >&2
  [ "${AGENTS_INSTALL_STRICT:-0}" = 1 ] && exit 1
  exit 0
fi
echo "agents-install: all pinned agents installed under $root (status in $status)"
