#!/usr/bin/env python3
"""A whole `hookhost fire` process with one http hook, against the same process with
no hook and a bare POST (docs/PERFORMANCE.md, "HTTP hooks").

    bench/http/process.py [HOOKHOST_BINARY] [RUNS]

The server is Python's `http.server` on a free 127.0.0.1 port answering `{}`; each
`hookhost fire` makes a new connection to it. The three cases take turns run by run,
so the machine's drift falls on all alike; prints the median and p90 of each.
"""
import http.server
import json
import os
import socketserver
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request


class Policy(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        body = b"{}"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else "target/release/hookhost"
    runs = int(sys.argv[2]) if len(sys.argv) > 2 else 60
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), Policy)
    port = server.server_address[1]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    work = tempfile.mkdtemp()
    url = f"http://127.0.0.1:{port}/policy"

    def settings(name, hooks):
        path = os.path.join(work, name)
        hooks = {"BeforeTool": [{"hooks": hooks}]} if hooks else {}
        with open(path, "w") as f:
            json.dump({"tools": {"enableHooks": True}, "hooks": hooks}, f)
        return path

    with_http = settings("http.json", [{"type": "http", "url": url, "timeout": 10000}])
    no_hook = settings("none.json", [])
    stdin = json.dumps({"tool_name": "write_file",
                        "tool_input": {"path": "/home/dev/a.rs", "content": "x"}}).encode()
    env = {k: v for k, v in os.environ.items() if k not in ("RUST_BACKTRACE", "HOOKHOST_TRACE")}
    env["HOME"] = work

    def fire(path):
        start = time.perf_counter()
        done = subprocess.run([binary, "fire", "BeforeTool", "--settings", path,
                               "--project-dir", work], input=stdin, capture_output=True, env=env)
        elapsed = time.perf_counter() - start
        assert done.returncode == 0, done.stderr
        return elapsed, done.stdout

    _, out = fire(with_http)
    result = json.loads(out)
    assert result["success"] and len(result["hooks"]) == 1, result

    def bare():
        start = time.perf_counter()
        request = urllib.request.Request(url, data=stdin, headers={"Content-Type": "application/json"})
        urllib.request.urlopen(request).read()
        return time.perf_counter() - start

    times = {"hookhost fire, one http hook": [], "hookhost fire, no hook": [],
             "bare Python POST (new connection)": []}
    for _ in range(runs):
        times["hookhost fire, one http hook"].append(fire(with_http)[0])
        times["hookhost fire, no hook"].append(fire(no_hook)[0])
        times["bare Python POST (new connection)"].append(bare())
    print(f"load average: {os.getloadavg()[0]:.2f}")
    for name, samples in times.items():
        samples.sort()
        print(f"{name}: median {statistics.median(samples) * 1000:.2f} ms, "
              f"p90 {samples[int(len(samples) * 0.9)] * 1000:.2f} ms")


if __name__ == "__main__":
    main()
