#!/bin/sh
# SessionStart: export variables for the session through CLAUDE_ENV_FILE (set -u:
# an unset variable is an error, as in many published scripts), and print context.
set -eu
echo 'export PROJECT_MODE=strict' >> "$CLAUDE_ENV_FILE"
echo "Project rules: run the tests before every commit."
