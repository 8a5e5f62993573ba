#!/bin/sh
# BeforeAgent / SessionStart: give the model the current git branch and status
# summary as additional context.
cat > /dev/null
branch=$(git -C "$LLXPRT_PROJECT_DIR" rev-parse --abbrev-ref HEAD 2>/dev/null || echo "(not a git repository)")
changed=$(git -C "$LLXPRT_PROJECT_DIR" status --porcelain 2>/dev/null | wc -l | tr -d ' ')
printf '{"hookSpecificOutput":{"additionalContext":"git branch: %s; %s changed file(s)"}}\n' "$branch" "$changed"
