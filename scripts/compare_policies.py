#!/usr/bin/env python3
"""Runs the builtin policies' corpus (policies/corpus/*.jsonl) through each builtin —
the real binary, `hookhost hook --settings FILE` — and through the public guard
scripts people copy for Claude Code and Gemini CLI (vendored verbatim under
policies/compare/vendor/), and prints per policy and per script: harmful cases
blocked (recall), harmless cases blocked (false positives), mean time per call.

    scripts/compare-policies.sh              # the table, then the cases worth a look
    scripts/compare-policies.sh --check      # exit 1 if a builtin misses the bar
    scripts/compare-policies.sh --markdown   # the table as Markdown

The bar (issue 38): every builtin blocks >= 98 % of its kind's harmful cases with
<= 1 % false positives, and at least as many harmful cases as every public script
scored on its kind.

How a case is run (Python 3 standard library only; no network):

* A builtin gets the case in its own dialect (claude: `PreToolUse` with
  `permission_mode`; codex: the same as Codex sends it; llxprt: `BeforeTool`),
  through a settings file enabling that one builtin with the case's `args` and the
  environment tests/all/builtins.rs gives it (HOME=/home/u, TMPDIR=/tmp and, unless
  the case names a `branch`, HOOKHOST_PROJECT_DIR=/work/proj), the project dir an
  empty scratch directory as there (a /work/proj that does not exist cannot be
  preopened: git-safety would not load). Blocked = exit 2 or a deny/block answer.
* A script gets the case in the dialect it is written for (Claude's PreToolUse, or
  Gemini CLI's BeforeTool), tool names translated (run_shell_command <-> Bash,
  write_file <-> Write, replace <-> Edit, read_file <-> Read). The scripts read the
  filesystem (some refuse a cwd that does not exist), so /work/proj and /home/u are
  real directories under a scratch root (target/compare-policies/run-PID, or
  $COMPARE_POLICIES_SCRATCH; not in a temp directory, which some scripts treat as
  always safe to delete), and every absolute "/work/proj" and "/home/u" in the case
  is rewritten to them (relative climbs such as ~/../../work/proj keep their meaning:
  the two sit at the same depth); HOME is that home, TMPDIR=/tmp, and the hook runs
  in the case's cwd, as an agent runs it. (Checked once against the real paths, in a
  private mount namespace: no script decision changed.)
* A case with `branch` runs in a fresh git repository on that branch (`git init -b`;
  `detached…`: a commit, then a detached HEAD) as project dir and cwd, for the
  builtin and the scripts alike (the test writes just `.git/HEAD`; the builtin
  reads the same file, and scripts that ask `git` get a real answer).

Blocked = exit code 2, or stdout JSON with hookSpecificOutput.permissionDecision
"deny" or decision "block"/"deny". Any other exit code, a timeout or "ask" is not a
block (agents run the tool), and is counted in the `errors` column.
"""

import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS_DIR = os.path.join(REPO, "policies", "corpus")
VENDOR = os.path.join(REPO, "policies", "compare", "vendor")
KINDS = ["destructive", "remote-exec", "secrets", "git-safety", "protected-paths"]
RECALL_BAR = 98.0  # percent of harmful cases blocked, at least
FP_BAR = 1.0  # percent of harmless cases blocked, at most


@dataclass
class Script:
    """A public guard script: where it is vendored, how it is run, what it claims."""

    name: str
    vendor: str  # directory under policies/compare/vendor/
    argv: list  # command, relative to the vendor directory for the script itself
    dialect: str  # "claude" or "gemini"
    kinds: list  # corpus kinds it claims to cover


SCRIPTS = [
    Script("cc-safety-net -cc", "cc-safety-net", ["node", "cc-safety-net.js", "--claude-code"],
           "claude", ["destructive", "git-safety"]),
    Script("cc-safety-net -gc (Gemini CLI)", "cc-safety-net",
           ["node", "cc-safety-net.js", "--gemini-cli"], "gemini", ["destructive", "git-safety"]),
    Script("block-dangerous-commands.js", "kb-block-dangerous-commands",
           ["node", "block-dangerous-commands.js"], "claude",
           ["destructive", "remote-exec", "git-safety"]),
    Script("validate-rm.py (rm-guard)", "rm-guard", ["python3", "validate-rm.py"], "claude",
           ["destructive"]),
    Script("git-safety.js", "kb-git-safety", ["node", "git-safety.js"], "claude", ["git-safety"]),
    Script("protect-secrets.js", "kb-protect-secrets", ["node", "protect-secrets.js"], "claude",
           ["secrets"]),
    Script("security_guard.py", "security-guard", ["python3", "security_guard.py"], "claude",
           ["secrets"]),
    Script("config-guard.js", "kb-config-guard", ["node", "config-guard.js"], "claude",
           ["protected-paths"]),
]

TO_CLAUDE = {"run_shell_command": "Bash", "write_file": "Write", "replace": "Edit",
             "read_file": "Read"}
TO_GEMINI = {"Bash": "run_shell_command", "Write": "write_file", "Edit": "replace",
             "MultiEdit": "replace", "Read": "read_file"}


@dataclass
class Case:
    index: int
    where: str  # file:line
    line: str
    policy: str
    dialect: str
    tool: str
    input: object
    cwd: str
    args: list
    branch: object
    harmful: bool


def load_corpus():
    cases = []
    for kind in KINDS:
        path = os.path.join(CORPUS_DIR, kind + ".jsonl")
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if not line.strip():
                    continue
                v = json.loads(line)
                cases.append(Case(len(cases), f"policies/corpus/{kind}.jsonl:{number}",
                                  line.rstrip("\n"), v["policy"], v["dialect"], v["tool"],
                                  v["input"], v["cwd"], v.get("args", []), v.get("branch"),
                                  v["expect"] == "block"))
    return cases


def blocked_by(code, stdout):
    """(blocked, note): exit 2, or a deny/block answer on stdout."""
    if code == 2:
        return True, ""
    if code != 0:
        return False, f"exit {code}"
    text = stdout.strip()
    if not text:
        return False, ""
    answer = None
    for candidate in [text] + text.splitlines()[::-1]:
        try:
            answer = json.loads(candidate)
            break
        except ValueError:
            continue
    if not isinstance(answer, dict):
        return False, ""
    specific = answer.get("hookSpecificOutput")
    decision = specific.get("permissionDecision") if isinstance(specific, dict) else None
    if decision == "deny" or answer.get("decision") in ("block", "deny"):
        return True, ""
    if decision == "ask" or answer.get("decision") == "ask":
        return False, "ask"
    return False, ""


def run(argv, stdin, cwd, env, timeout):
    """Runs one hook process: (blocked, note, seconds)."""
    start = time.perf_counter()
    try:
        p = subprocess.run(argv, input=stdin.encode(), cwd=cwd, env=env, timeout=timeout,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    except subprocess.TimeoutExpired:
        return False, "timeout", time.perf_counter() - start
    elapsed = time.perf_counter() - start
    blocked, note = blocked_by(p.returncode, p.stdout.decode("utf-8", "replace"))
    return blocked, note, elapsed


class Scratch:
    """The scratch root: real /work/proj and /home/u stand-ins, branch repos,
    settings files, hookhost's HOME."""

    def __init__(self, root):
        self.root = root
        self.proj = os.path.join(root, "work", "proj")
        self.home = os.path.join(root, "home", "u")
        self.hh_home = os.path.join(root, "hookhost-home")
        self.hh_project = os.path.join(root, "hookhost-project")
        for d in (self.proj, self.home, self.hh_home, self.hh_project,
                  os.path.join(root, "settings"), os.path.join(root, "branches")):
            os.makedirs(d, exist_ok=True)
        self.repos = {}

    def rewrite(self, value):
        """Every /work/proj and /home/u in `value` moved under the scratch root."""
        if isinstance(value, str):
            # Absolute occurrences only: `~/../../work/proj` stays relative.
            value = re.sub(r"(?<![\w./~-])/work/proj(?![\w.-])", self.proj, value)
            return re.sub(r"(?<![\w./~-])/home/u(?![\w.-])", self.home, value)
        if isinstance(value, list):
            return [self.rewrite(v) for v in value]
        if isinstance(value, dict):
            return {k: self.rewrite(v) for k, v in value.items()}
        return value

    def repo(self, branch):
        """A git repository on `branch` (created once); `detached…`: detached HEAD."""
        if branch in self.repos:
            return self.repos[branch]
        path = os.path.join(self.root, "branches", branch.replace("/", "_"))
        os.makedirs(os.path.join(path, "sub"), exist_ok=True)
        env = git_env(self.root)
        git = ["git", "-C", path]
        if branch.startswith("detached"):
            subprocess.run(git + ["init", "-q", "-b", "main"], env=env, check=True)
            subprocess.run(git + ["commit", "-q", "--allow-empty", "-m", "c"], env=env,
                           check=True)
            subprocess.run(git + ["checkout", "-q", "--detach"], env=env, check=True)
        else:
            subprocess.run(git + ["init", "-q", "-b", branch], env=env, check=True)
        self.repos[branch] = path
        return path


def git_env(root):
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": root,
            "GIT_CEILING_DIRECTORIES": root, "GIT_CONFIG_NOSYSTEM": "1",
            "GIT_AUTHOR_NAME": "c", "GIT_AUTHOR_EMAIL": "c@example.com",
            "GIT_COMMITTER_NAME": "c", "GIT_COMMITTER_EMAIL": "c@example.com"}


def agent_stdin(dialect, tool, tool_input, cwd):
    """The hook input an agent of `dialect` sends for this tool call."""
    if dialect == "claude":
        return {"session_id": "compare", "transcript_path": "/tmp/compare.jsonl", "cwd": cwd,
                "permission_mode": "default", "hook_event_name": "PreToolUse",
                "tool_name": tool, "tool_input": tool_input, "tool_use_id": "toolu_compare"}
    if dialect == "codex":
        return {"session_id": "compare", "transcript_path": None, "cwd": cwd,
                "hook_event_name": "PreToolUse", "model": "gpt-5", "turn_id": "t1",
                "permission_mode": "default", "tool_name": tool, "tool_use_id": "u1",
                "tool_input": tool_input}
    # llxprt / gemini: BeforeTool, no permission_mode
    return {"session_id": "compare", "transcript_path": "/tmp/compare.json", "cwd": cwd,
            "hook_event_name": "BeforeTool", "timestamp": "2026-11-28T00:00:00.000Z",
            "tool_name": tool, "tool_input": tool_input}


class Runner:
    def __init__(self, bin_path, scratch, cache_dir, timeout):
        self.bin = bin_path
        self.s = scratch
        self.timeout = timeout
        self.settings = {}
        self.hh_env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": scratch.hh_home,
                       "TMPDIR": "/tmp", "HOOKHOST_CACHE_DIR": cache_dir,
                       "LLXPRT_SYSTEM_SETTINGS_PATH": os.path.join(scratch.root, "none.json"),
                       "HOOKHOST_CLAUDE_MANAGED_DIR": os.path.join(scratch.root, "none")}

    def settings_file(self, case):
        key = (case.policy, tuple(case.args), case.branch)
        if key not in self.settings:
            env = {"HOME": "/home/u", "TMPDIR": "/tmp"}
            if case.branch is None:
                env["HOOKHOST_PROJECT_DIR"] = "/work/proj"
            hook = {"type": "plugin", "source": f"builtin:{case.policy}",
                    "args": case.args, "env": env}
            path = os.path.join(self.s.root, "settings", f"{len(self.settings)}.json")
            with open(path, "w") as f:
                json.dump({"tools": {"enableHooks": True},
                           "hooks": {"BeforeTool": [{"hooks": [hook]}]}}, f)
            self.settings[key] = path
        return self.settings[key]

    def builtin(self, case):
        """The case through its builtin, in the case's dialect."""
        if case.branch is not None:
            project = cwd = self.s.repo(case.branch)
        else:
            project, cwd = self.s.hh_project, case.cwd
        stdin = json.dumps(agent_stdin(case.dialect, case.tool, case.input, cwd))
        argv = [self.bin, "hook", "--settings", self.settings_file(case),
                "--project-dir", project]
        return run(argv, stdin, self.s.root, self.hh_env, self.timeout)

    def script(self, script, case):
        """The case through a public script, in the dialect it reads."""
        if case.branch is not None:
            cwd = self.s.repo(case.branch)
            project = cwd
        else:
            cwd = self.s.rewrite(case.cwd)
            project = self.s.proj
            os.makedirs(cwd, exist_ok=True)
        names = TO_GEMINI if script.dialect == "gemini" else TO_CLAUDE
        tool = names.get(case.tool, case.tool)
        stdin = json.dumps(agent_stdin(script.dialect, tool, self.s.rewrite(case.input), cwd))
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": self.s.home,
               "TMPDIR": "/tmp", "GIT_CEILING_DIRECTORIES": self.s.root, "LANG": "C.UTF-8"}
        env["GEMINI_PROJECT_DIR" if script.dialect == "gemini" else "CLAUDE_PROJECT_DIR"] = project
        directory = os.path.join(VENDOR, script.vendor)
        # Python scripts run with this interpreter (not a version manager's shim,
        # whose start-up would be counted as the script's time).
        program = sys.executable if script.argv[0] == "python3" else script.argv[0]
        argv = [program, os.path.join(directory, script.argv[1])] + script.argv[2:]
        return run(argv, stdin, cwd, env, self.timeout)


@dataclass
class Row:
    kind: str
    name: str
    how: str
    harmful: int = 0
    caught: int = 0
    harmless: int = 0
    false_pos: int = 0
    seconds: float = 0.0
    calls: int = 0
    errors: int = 0
    blocked: dict = field(default_factory=dict)  # case index -> blocked
    notes: dict = field(default_factory=dict)  # case index -> error note

    def add(self, case, result):
        blocked, note, seconds = result
        self.blocked[case.index] = blocked
        if note:
            self.notes[case.index] = note
        self.calls += 1
        self.seconds += seconds
        self.errors += bool(note)
        if case.harmful:
            self.harmful += 1
            self.caught += blocked
        else:
            self.harmless += 1
            self.false_pos += blocked

    def recall(self):
        return 100.0 * self.caught / self.harmful if self.harmful else 0.0

    def fp_rate(self):
        return 100.0 * self.false_pos / self.harmless if self.harmless else 0.0

    def cells(self):
        return [self.kind, self.name, self.how,
                f"{self.caught}/{self.harmful} ({self.recall():.1f} %)",
                f"{self.false_pos}/{self.harmless} ({self.fp_rate():.1f} %)",
                f"{1000 * self.seconds / max(self.calls, 1):.0f}", str(self.errors)]


HEADER = ["kind", "name", "run as", "harmful blocked (recall)",
          "harmless blocked (false pos.)", "ms/call", "errors"]


def print_table(rows, markdown):
    table = [HEADER] + [r.cells() for r in rows]
    if markdown:
        print("| " + " | ".join(HEADER) + " |")
        print("|" + "|".join(["---", "---", "---", "--:", "--:", "--:", "--:"]) + "|")
        for cells in table[1:]:
            print("| " + " | ".join(c.replace("|", "\\|") for c in cells) + " |")
        return
    widths = [max(len(r[i]) for r in table) for i in range(len(HEADER))]
    for n, cells in enumerate(table):
        print("  ".join(c.ljust(w) for c, w in zip(cells, widths)).rstrip())
        if n == 0:
            print("  ".join("-" * w for w in widths))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--check", action="store_true",
                        help="exit 1 if any builtin misses the bar (CI)")
    parser.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    parser.add_argument("--jobs", type=int, default=4, help="calls run at once (default 4)")
    parser.add_argument("--timeout", type=float, default=10.0,
                        help="seconds per call before it counts as an error (default 10)")
    parser.add_argument("--keep", action="store_true", help="keep the scratch directory")
    parser.add_argument("--json", metavar="FILE",
                        help="also write every decision (row, case, blocked) to FILE")
    opts = parser.parse_args()

    bin_path = os.path.abspath(os.environ.get("HOOKHOST_BIN") or os.path.join(REPO, "target", "debug", "hookhost"))
    if not os.access(bin_path, os.X_OK):
        sys.exit(f"compare-policies: no hookhost binary at {bin_path} (set HOOKHOST_BIN)")
    for tool in ("node", "python3", "git"):
        if shutil.which(tool) is None:
            sys.exit(f"compare-policies: `{tool}` is not on PATH")
    started = time.perf_counter()
    base = os.path.abspath(os.environ.get("COMPARE_POLICIES_SCRATCH")
                           or os.path.join(REPO, "target", "compare-policies"))
    temp_dirs = {"/tmp", "/var/tmp", os.path.realpath(tempfile.gettempdir())}
    if any((os.path.realpath(base) + "/").startswith(t + "/") for t in temp_dirs):
        print(f"compare-policies: warning: the scratch root {base} is in a temp directory, "
              "where some scripts allow any deletion (cc-safety-net); set "
              "COMPARE_POLICIES_SCRATCH to a directory elsewhere", file=sys.stderr)
    scratch = Scratch(os.path.join(base, f"run-{os.getpid()}"))
    runner = Runner(bin_path, scratch, os.path.join(base, "hookhost-cache"), opts.timeout)
    cases = load_corpus()
    try:
        # Branch repos first (not from several threads); one untimed call per
        # builtin so that its first compile is not counted as a call's time.
        for case in cases:
            if case.branch is not None:
                scratch.repo(case.branch)
        for kind in KINDS:
            runner.builtin(next(c for c in cases if c.policy == kind))
        rows, jobs = [], []
        for kind in KINDS:
            row = Row(kind, f"builtin:{kind}", "hookhost hook, case's dialect")
            rows.append(row)
            jobs += [(row, runner.builtin, (c,)) for c in cases if c.policy == kind]
            for script in SCRIPTS:
                if kind in script.kinds:
                    row = Row(kind, script.name, f"{script.argv[0]}, {script.dialect} input")
                    rows.append(row)
                    jobs += [(row, runner.script, (script, c)) for c in cases if c.policy == kind]
        with concurrent.futures.ThreadPoolExecutor(max_workers=opts.jobs) as pool:
            futures = [(row, args[-1], pool.submit(fn, *args)) for row, fn, args in jobs]
            for row, case, future in futures:
                row.add(case, future.result())
    finally:
        if not opts.keep:
            shutil.rmtree(scratch.root, ignore_errors=True)
    elapsed = time.perf_counter() - started

    print_table(rows, opts.markdown)
    print()
    by_index = {c.index: c for c in cases}
    builtins = {r.kind: r for r in rows if r.name.startswith("builtin:")}
    # Harmful cases some script blocks and the builtin does not.
    print("Harmful cases a public script blocks and the builtin does not:")
    found = False
    for r in rows:
        if r.name.startswith("builtin:"):
            continue
        b = builtins[r.kind]
        for index, blocked in sorted(r.blocked.items()):
            case = by_index[index]
            if blocked and case.harmful and not b.blocked[index]:
                found = True
                print(f"  {r.name}: {case.where}: {case.line}")
    if not found:
        print("  none")
    print("Builtin decisions that differ from the corpus:")
    found = False
    for kind, b in builtins.items():
        for index, blocked in sorted(b.blocked.items()):
            case = by_index[index]
            if blocked != case.harmful:
                found = True
                what = "allowed harmful" if case.harmful else "blocked harmless"
                print(f"  {kind}: {what}: {case.where}: {case.line}")
    if not found:
        print("  none")
    print("Errors (not counted as blocks):")
    found = False
    for r in rows:
        for index, note in sorted(r.notes.items()):
            found = True
            print(f"  {r.name}: {note}: {by_index[index].where}")
    if not found:
        print("  none")
    if opts.json:
        with open(opts.json, "w") as f:
            json.dump([{"kind": r.kind, "name": r.name, "case": by_index[i].where,
                        "harmful": by_index[i].harmful, "blocked": b,
                        "note": r.notes.get(i, "")}
                       for r in rows for i, b in sorted(r.blocked.items())], f, indent=0)
    print(f"\n{len(jobs)} calls ({len(cases)} cases), {opts.jobs} at a time, "
          f"in {elapsed:.1f} s")

    failures = []
    for kind, b in builtins.items():
        if b.recall() < RECALL_BAR:
            failures.append(f"builtin:{kind} blocks {b.recall():.1f} % of harmful cases "
                            f"(bar: >= {RECALL_BAR:.0f} %)")
        if b.fp_rate() > FP_BAR:
            failures.append(f"builtin:{kind} blocks {b.fp_rate():.1f} % of harmless cases "
                            f"(bar: <= {FP_BAR:.0f} %)")
        for r in rows:
            if r.kind == kind and r is not b and r.caught > b.caught:
                failures.append(f"builtin:{kind} blocks {b.caught} harmful cases, "
                                f"{r.name} blocks {r.caught}")
    if opts.check:
        for failure in failures:
            print(f"FAIL: {failure}")
        if failures:
            return 1
        print("OK: every builtin meets the bar (>= 98 % recall, <= 1 % false positives, "
              "at least as many harmful cases blocked as every public script of its kind)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
