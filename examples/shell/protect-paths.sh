#!/bin/sh
# BeforeTool: refuse file writes outside the project and to secrets (.env, keys).
# POSIX sh + python3 for JSON (no jq needed). Exit 2 blocks; the reason goes to stderr.
input=$(cat)
path=$(printf '%s' "$input" | python3 -c '
import json, sys
ti = json.load(sys.stdin).get("tool_input") or {}
print(ti.get("file_path") or ti.get("path") or ti.get("absolute_path") or "")')
[ -z "$path" ] && exit 0
case "$path" in
  /*) abs=$path ;;
  *) abs="$LLXPRT_PROJECT_DIR/$path" ;;
esac
case "$abs" in
  "$LLXPRT_PROJECT_DIR"/*) ;;
  *) echo "refusing to write outside the project: $path" >&2; exit 2 ;;
esac
case "$abs" in
  */.env|*/.env.*|*/.git/*|*id_rsa*|*.pem)
    printf '{"decision":"block","reason":"%s is a protected file"}\n' "$path"; exit 0 ;;
esac
exit 0
