#!/bin/sh
# Whole-process cost of the plugin capabilities (docs/PERFORMANCE.md "Plugin
# capabilities"): `hookhost fire` with the capabilities fixture without grants,
# with grants unused, setting a value in its store, and fetching a file from a
# local server. Needs a release build (`cargo build --release -p hookhost-cli`, or
# B=path) and the fixture (built by `cargo test`), python3 and hyperfine.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
B=${B:-$root/target/release/hookhost}
W=$root/target/guests/wasm32-wasip2/release/capabilities.wasm
work=$(mktemp -d)
cd "$work"
mkdir -p home p
export HOME=$work/home HOOKHOST_CACHE_DIR=$work/cache HOOKHOST_STATE_DIR=$work/state
echo hello > index.txt
python3 -m http.server 18431 --bind 127.0.0.1 >/dev/null 2>&1 &
server=$!
trap 'kill $server; rm -rf "$work"' EXIT
sleep 0.5
python3 - "$W" <<'PY'
import json,sys
w=sys.argv[1]
hosts={"allowedHosts":["127.0.0.1:18431"]}
for name,args,extra in [("plain",["log","0"],{}),("granted",["log","0"],dict(hosts,state=True)),
                        ("state",["kv-set","","count","0123456789abcdef"],{"state":True}),
                        ("network",["get","http://127.0.0.1:18431/index.txt"],hosts)]:
    h={"type":"plugin","path":w,"args":args}; h.update(extra)
    json.dump({"tools":{"enableHooks":True},"hooks":{"BeforeTool":[{"hooks":[h]}]}},open(f"{name}.json","w"))
PY
echo '{"tool_name":"x","tool_input":{},"session_id":"s"}' > in.json
for f in plain granted state network; do $B fire BeforeTool --project-dir p --settings $f.json < in.json 2>/dev/null | head -c 120; echo; done
hyperfine --warmup 5 --runs 120 \
  -n plain "$B fire BeforeTool --project-dir p --settings plain.json < in.json 2>/dev/null" \
  -n granted-unused "$B fire BeforeTool --project-dir p --settings granted.json < in.json 2>/dev/null" \
  -n state-set "$B fire BeforeTool --project-dir p --settings state.json < in.json 2>/dev/null" \
  -n http-get "$B fire BeforeTool --project-dir p --settings network.json < in.json 2>/dev/null"
