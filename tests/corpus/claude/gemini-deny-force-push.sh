#!/bin/sh
# Gemini CLI BeforeTool(run_shell_command): decision deny on a force push.
input=$(cat)
case "$input" in
  *"push --force"*|*"push -f"*)
    printf '{"decision":"deny","reason":"no force pushes"}\n' ;;
  *) printf '{"decision":"allow"}\n' ;;
esac
