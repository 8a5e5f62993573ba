#!/usr/bin/env bash
# Bumps the agent CLIs in tests/agents/versions.json to the latest versions on npm, reinstalls
# them and reruns the agent suite. Review the diff of versions.json (and tests/agents/FINDINGS.md)
# before committing. An `extra` package (a platform binary) is installed at the same version as
# its agent; a latest version whose install fails is recorded by agents-install.sh and the suite
# reports that agent NOT RUN (and fails) — pin it back by hand.
#   AGENTS_ONLY="qwen droid"   bump only these agents
set -euo pipefail
cd "$(dirname "$0")/.."
versions=tests/agents/versions.json
python3 - "$versions" <<'PY'
import json, os, subprocess, sys
path = sys.argv[1]
data = json.load(open(path))
only = os.environ.get("AGENTS_ONLY", "").split()
for name, agent in data["agents"].items():
    if only and name not in only:
        continue
    package = agent["package"].replace("{arch}", "x64")  # the same versions for every platform
    latest = subprocess.run(["npm", "view", package, "version"], check=True,
                            capture_output=True, text=True).stdout.strip()
    if not latest:
        sys.exit(f"agents-update: npm view {package} version: no answer")
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
