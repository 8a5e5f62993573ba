#!/usr/bin/env python3
"""PreToolUse(Write|Edit|Read): refuse to touch .env files (reason on stderr, exit 2)."""
import json
import sys

data = json.load(sys.stdin)
path = data.get("tool_input", {}).get("file_path", "")
if path.endswith(".env") or "/.env" in path:
    print(f"Refusing to touch secrets file {path}", file=sys.stderr)
    sys.exit(2)
sys.exit(0)
