#!/usr/bin/env bash
# End-to-end suite with the real agent CLIs (Claude Code, Codex, Gemini CLI, Copilot CLI, Qwen Code,
# Factory Droid, opencode, Kilo; versions.json) headless against
# fake model servers on 127.0.0.1: installs the pinned agents (scripts/agents-install.sh), then
# runs tests/agents/run.py. Exits non-zero on any failure. Needs node/npm and python3 (stdlib).
#   HOOKHOST_BIN   the hookhost binary to test (default: target/debug/hookhost)
#   extra arguments go to run.py (e.g. ClaudeTests.test_allow -v)
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/agents-install.sh
export HOOKHOST_BIN="${HOOKHOST_BIN:-$PWD/target/debug/hookhost}"
if [ ! -x "$HOOKHOST_BIN" ]; then
  echo "test-agents: $HOOKHOST_BIN is not an executable (build it: cargo build -p hookhost-cli, or set HOOKHOST_BIN)" >&2
  exit 1
fi
exec python3 tests/agents/run.py "$@"
