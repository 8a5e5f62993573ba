#!/usr/bin/env python3
"""A/B round trips of two `hookhost serve` binaries, side by side.

Usage: measure-serve-ab.py BIN_A BIN_B [ROUNDS]

Starts both binaries as `hookhost serve` (JSON Lines over pipes; client and
servers pinned to CPU 0) in one
throwaway project whose settings hold one builtin policy for
run_shell_command, then sends ROUNDS (default 3000, at most 20000) serial
requests to each, alternating A and B in blocks of 250 (ABBA…) so that the
machine's drift falls on both alike. Cases: `miss` (a tool no hook matches: the door and
the fire's check alone) and `builtin` (one builtin policy runs). Prints the
median and p90 round trip of each binary per case and the ratio B/A of the
medians. Everything listens on pipes only; every loop is bounded.
"""

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

MAX_ROUNDS = 20000
BLOCK = 250


def start(binary, project, home):
    env = dict(os.environ, HOME=home)
    for var in ("HOOKHOST_LOG", "CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "LLXPRT_PROJECT_DIR"):
        env.pop(var, None)
    return subprocess.Popen(
        [binary, "serve", "--project-dir", project],
        # Client and servers on one CPU: across two cores a round trip pays a
        # wake-up of the other core (~90 µs, docs/PERFORMANCE.md §5), which falls on
        # whichever server the scheduler put there — not on the code measured.
        preexec_fn=lambda: os.sched_setaffinity(0, {0}),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )


def round_trip(server, request):
    start = time.perf_counter_ns()
    server.stdin.write(request)
    server.stdin.flush()
    line = server.stdout.readline()
    took = time.perf_counter_ns() - start
    if not line:
        sys.exit("a server closed its stdout")
    return took / 1000.0, json.loads(line)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    a, b = sys.argv[1], sys.argv[2]
    os.sched_setaffinity(0, {0})
    rounds = min(int(sys.argv[3]) if len(sys.argv) > 3 else 3000, MAX_ROUNDS)
    with tempfile.TemporaryDirectory() as tmp:
        project = os.path.join(tmp, "project")
        home = os.path.join(tmp, "home")
        os.makedirs(os.path.join(project, ".llxprt"))
        os.makedirs(home)
        settings = {
            "tools": {"enableHooks": True},
            "hooks": {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [
                {"type": "plugin", "source": "builtin:destructive"}]}]},
        }
        with open(os.path.join(project, ".llxprt", "settings.json"), "w") as f:
            json.dump(settings, f)
        servers = {name: start(binary, project, home) for name, binary in (("A", a), ("B", b))}
        cases = {
            "miss": {"tool_name": "read_file", "tool_input": {"path": "a"}},
            "builtin": {"tool_name": "run_shell_command", "tool_input": {"command": "ls -la"}},
        }
        try:
            for case, tool in cases.items():
                times = {"A": [], "B": []}
                # Blocks of BLOCK requests to one server, then to the other (ABBA…):
                # request by request, the server answering second was seen 5×
                # slower in either slot (a scheduling artefact on two cores).
                blocks = max(2, rounds // BLOCK)
                for block in range(blocks + 2):
                    order = ("A", "B") if block % 2 == 0 else ("B", "A")
                    for name in order:
                        for i in range(BLOCK):
                            request = json.dumps({"correlationId": str(i), "eventName": "BeforeTool",
                                                  "input": tool}).encode() + b"\n"
                            took, answer = round_trip(servers[name], request)
                            output = answer.get("output", {})
                            if answer.get("success") is not True or output.get("errors"):
                                sys.exit(f"{name} {case}: {answer}")
                            if block >= 2:  # two blocks each warm up (compile, caches)
                                times[name].append(took)
                for name in ("A", "B"):
                    t = sorted(times[name])
                    print(f"{case:8} {name}: median {statistics.median(t):7.1f} us  "
                          f"p90 {t[int(len(t) * 0.9)]:7.1f} us  ({len(t)} requests)")
                ratio = statistics.median(times["B"]) / statistics.median(times["A"])
                print(f"{case:8} B/A median: {ratio:.3f}")
        finally:
            for server in servers.values():
                server.stdin.close()
                try:
                    server.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    server.kill()


if __name__ == "__main__":
    main()
