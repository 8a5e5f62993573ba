#!/usr/bin/env bash
# Bumps the agent CLIs in tests/agents/versions.json to the latest versions on npm, reinstalls
# them and reruns the agent suite. Review the diff of versions.json (and tests/agents/FINDINGS.md)
# before committing.
set -euo pipefail
cd "$(dirname "$0")/.."
versions=tests/agents/versions.json
python3 - "$versions" <<'PY'
import json, subprocess, sys
path = sys.argv[1]
data = json.load(open(path))
for name, agent in data["agents"].items():
    latest = subprocess.run(["npm", "view", agent["package"], "version"], check=True,
                            capture_output=True, text=True).stdout.strip()
    if not latest:
        sys.exit(f"agents-update: npm view {agent['package']} version: no answer")
    if latest != agent["version"]:
        print(f"agents-update: {agent['package']}: {agent['version']} -> {latest}")
    else:
        print(f"agents-update: {agent['package']}: {latest} (unchanged)")
    agent["version"] = latest
with open(path, "w") as f:
    json.dump(data, f, indent=2)
    f.write("\n")
PY
./scripts/test-agents.sh "$@"
