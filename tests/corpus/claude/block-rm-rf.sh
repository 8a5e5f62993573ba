#!/bin/bash
# PreToolUse(Bash): the classic "no rm -rf" guard, in the style people publish
# (grep on the raw stdin, reason on stderr, exit 2).
input=$(cat)
if printf '%s' "$input" | grep -Eq '"command"[[:space:]]*:[[:space:]]*"[^"]*rm -rf'; then
  echo "Blocked: rm -rf is not allowed here" >&2
  exit 2
fi
exit 0
