#!/bin/sh
# Whole-process cost of the builtin policies (docs/PERFORMANCE.md "Builtin policies"):
# `hookhost hook` on one harmless Claude Bash call with no hook, with one builtin, and
# with all five; warm compile cache (the first fire after install compiles each
# builtin once: measured separately as "cold"). Needs a release build (`cargo build
# --release -p hookhost-cli`, or B=path), python3 and hyperfine.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-$root/target/release/hookhost}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
mkdir -p home p
export HOME=$work/home HOOKHOST_CACHE_DIR=$work/cache
python3 - <<'PY'
import json
five = ["destructive", "remote-exec", "secrets", "git-safety", "protected-paths"]
for name, policies in [("none", []), ("one", five[:1]), ("five", five)]:
    hooks = [{"type": "plugin", "source": f"builtin:{p}"} for p in policies]
    groups = [{"hooks": hooks}] if hooks else []
    json.dump({"tools": {"enableHooks": True}, "hooks": {"BeforeTool": groups}}, open(f"{name}.json", "w"))
json.dump({"session_id": "s", "transcript_path": "", "cwd": "p", "hook_event_name": "PreToolUse",
           "permission_mode": "default", "tool_name": "Bash",
           "tool_input": {"command": "ls -la src && git status"}}, open("in.json", "w"))
PY
for f in none one five; do $B hook --project-dir p --settings $f.json < in.json; echo " ← $f"; done
ls -la "$HOOKHOST_CACHE_DIR" >/dev/null
hyperfine -N 2>/dev/null >/dev/null || true
hyperfine --warmup 5 --runs ${RUNS:-100} \
  -n none "$B hook --project-dir p --settings none.json < in.json" \
  -n one-builtin "$B hook --project-dir p --settings one.json < in.json" \
  -n five-builtins "$B hook --project-dir p --settings five.json < in.json"
# Cold: the compile cache emptied before every run (the first fire after install).
hyperfine --runs ${COLD_RUNS:-5} --prepare "rm -rf $HOOKHOST_CACHE_DIR" \
  -n five-builtins-cold "$B hook --project-dir p --settings five.json < in.json"
