#!/usr/bin/env bash
# The builtin policies and the public guard scripts people copy, side by side on the
# same corpus (policies/corpus/*.jsonl): recall, false positives, time per call.
# Needs the hookhost binary (HOOKHOST_BIN, default target/debug/hookhost), python3,
# node and git; nothing is downloaded. See scripts/compare_policies.py for the method.
#   --check     exit 1 if any builtin misses the bar (CI; about two minutes on 2 cores)
#   --markdown  the table as Markdown (docs/POLICY-COMPARISON.md)
set -euo pipefail
cd "$(dirname "$0")/.."
export HOOKHOST_BIN="${HOOKHOST_BIN:-$PWD/target/debug/hookhost}"
exec python3 scripts/compare_policies.py "$@"
