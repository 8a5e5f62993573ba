#!/usr/bin/env python3
"""End-to-end suite: the real agent CLIs (Claude Code, Gemini CLI, Codex; smoke tests for Copilot
CLI, Qwen Code, Factory Droid, opencode and Kilo CLI), headless, against fake model servers on
127.0.0.1. An agent whose pinned version did not install (target/agents/status.json, written by
scripts/agents-install.sh) is reported NOT RUN and fails the suite. Each scenario runs twice per
agent of the first three:

* NATIVE   — the agent's own command hook runs policy.py;
* HOOKHOST — the agent's one hook is `$HOOKHOST_BIN hook --settings DEFS` and DEFS holds the
  *same* hook definitions (Claude's format in a `.claude` directory for Claude and Codex,
  Gemini's in a `.gemini` directory for Gemini),

and asserts the same outcome on disk and in the requests that reached the model. Every agent
also runs the `hookhost setup` scenarios (`SetupScenarios`, issue 37): a fresh HOME, `hookhost
setup AGENT`, hookhost's own settings in ~/.llxprt/settings.json, the agent started without any
hook-trust bypass.

    python3 tests/agents/run.py [-v] [-k PATTERN]      (scripts/test-agents.sh installs first)

Without arguments every test runs in its own process, AGENTS_JOBS at a time (default twice the
CPUs, at least 4), the slowest first (by the times of the last run).

HOOKHOST_BIN defaults to target/debug/hookhost. AGENTS_FINDINGS_DIR (default
target/agents-findings) receives the probe dumps and the failure-visibility observations.
"""

from __future__ import annotations

import functools
import json
import os
import re
import shlex
import sys
import time
import unittest
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import agents as A  # noqa: E402
from fake_models import Script, shell, tool_results, write  # noqa: E402
from fake_models import strings as fake_strings  # noqa: E402

VERSIONS = json.loads((A.HERE / "versions.json").read_text())
FINDINGS = Path(os.environ.get("AGENTS_FINDINGS_DIR") or A.ROOT / "target" / "agents-findings")
KEEP = os.environ.get("AGENTS_KEEP") == "1"  # keep the temp dirs for debugging

DENY = "POLICY-DENY: shell commands are not allowed by policy.py"


def policy(ws: A.Workspace, mode: str, arg: str = "") -> str:
    cmd = f"python3 {shlex.quote(str(A.POLICY))} {mode} {shlex.quote(str(ws.markers))}"
    return cmd + (f" {shlex.quote(arg)}" if arg else "")


def calls(ws: A.Workspace) -> list:
    f = ws.markers / "calls.jsonl"
    return [json.loads(line) for line in f.read_text().splitlines()] if f.exists() else []


class Infra(Exception):
    """The run itself went wrong (timeout, the model never asked): not the behaviour under test."""


def check_ran(r: A.Run):
    """A run that timed out or never asked the model says nothing about hooks: infrastructure."""
    if r.timed_out:
        raise Infra(f"timed out\n{r.describe()}")
    if not r.main_requests():
        raise Infra(f"the model was never asked\n{r.describe()}")


def model_saw(r: A.Run) -> list | None:
    """The tool results the model was last sent (None: it was never asked)."""
    return tool_results(r.main_requests()[-1]) if r.main_requests() else None


def last_results(r: A.Run) -> list:
    """The tool results the model was last sent."""
    return tool_results(r.main_requests()[-1])


def last_said(r: A.Run) -> str:
    return "\n".join(last_results(r))


def pending(test):
    """Inside `@unittest.expectedFailure`: prints why the test failed, and turns a failure of
    the run itself (`Infra`) into an unexpected success, which fails the suite — an expected
    failure must fail on its assertion, not because an agent hung."""

    @functools.wraps(test)
    def wrapper(self, *args, **kwargs):
        try:
            test(self, *args, **kwargs)
        except Infra as e:
            print(f"\n  INFRASTRUCTURE FAILURE in expected-failure test {test.__name__}: {e}",
                  file=sys.stderr)
            return
        except Exception as e:
            first = str(e).splitlines()[0] if str(e) else type(e).__name__
            print(f"\n  {test.__name__}: fails as expected: {first[:300]}", file=sys.stderr)
            raise

    return wrapper


def note(name: str, obj):
    FINDINGS.mkdir(parents=True, exist_ok=True)
    (FINDINGS / name).write_text(json.dumps(obj, indent=1, sort_keys=True))


class AgentTestCase(unittest.TestCase):
    """Tests of one agent (subclasses set `agent`): the agent and hookhost must be there, and
    each test's workspaces are removed after it (unless KEEP)."""

    agent: A.Agent = None
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        if cls.agent is None:
            raise unittest.SkipTest("base class")
        # a missing agent is a failure, never a skip
        problem = A.install_problem(cls.agent.name)
        if problem:
            raise AssertionError(f"NOT RUN: {cls.agent.name}: {problem}")
        if not cls.agent.binary().exists():
            raise AssertionError(f"{cls.agent.name}: {cls.agent.binary()} missing; "
                                 "run scripts/agents-install.sh")
        hh = A.hookhost_bin()
        if not os.access(hh, os.X_OK):
            raise AssertionError(f"hookhost binary {hh} missing (set HOOKHOST_BIN or build it)")

    def setUp(self):
        self.workspaces = []

    def tearDown(self):
        if not KEEP:
            for ws in self.workspaces:
                A.remove(ws)

    # ---------------------------------------------------------------- running

    def ws(self, tag: str) -> A.Workspace:
        w = A.workspace(f"{self.agent.name}-{tag}")
        self.workspaces.append(w)
        return w


class AgentCase(AgentTestCase):
    """One agent's scenarios, each run natively and through hookhost."""

    def native(self, defs_for, script_for, **opts) -> A.Run:
        ws = self.ws("native")
        defs = defs_for(ws)
        return A.run(self.agent, script_for(ws), defs, ws, "native", **opts)

    def hookhost(self, defs_for, script_for, extra_args: str = "", raw_defs: str | None = None,
                 **opts) -> A.Run:
        ws = self.ws("hookhost")
        defs = defs_for(ws)
        settings = self.agent.hookhost_settings(ws, defs, extra_args)
        if raw_defs is not None:
            self.agent.defs_path(ws).write_text(raw_defs)
        return A.run(self.agent, script_for(ws), settings, ws, "hookhost", **opts)

    def pair(self, defs_for, script_for, **opts) -> tuple[A.Run, A.Run]:
        """The same definitions natively and through hookhost, concurrently."""
        with ThreadPoolExecutor(2) as pool:
            n = pool.submit(self.native, defs_for, script_for, **opts)
            h = pool.submit(self.hookhost, defs_for, script_for, **opts)
            runs = n.result(), h.result()
        for r in runs:
            check_ran(r)
        return runs

    # ---------------------------------------------------------------- helpers

    def pre(self, ws, mode, arg="", matcher=None, **hook_extra) -> dict:
        a = self.agent
        return {"hooks": {a.pre_tool: [a.group([a.hook(policy(ws, mode, arg), **hook_extra)],
                                                matcher=matcher or a.shell_tool)]}}

    # ---------------------------------------------------------------- scenarios

    def test_allow(self):
        runs = self.pair(lambda ws: self.pre(ws, "allow"),
                         lambda ws: Script([shell(f"touch {ws.marker('ran')}")]))
        for r in runs:
            with self.subTest(r.mode):
                self.assertTrue(r.ws.marker("ran").exists(), "the call did not run (no marker file)\n" + r.describe())
                self.assertEqual([c["mode"] for c in calls(r.ws)], ["allow"], r.describe())

    def check_deny(self, mode):
        runs = self.pair(lambda ws: self.pre(ws, mode),
                         lambda ws: Script([shell(f"touch {ws.marker('ran')}")]))
        for r in runs:
            with self.subTest(r.mode):
                self.assertFalse(r.ws.marker("ran").exists(), "the call ran (its marker file exists)\n" + r.describe())
                self.assertEqual(len(calls(r.ws)), 1, r.describe())
                self.assertIn(DENY, last_said(r), r.describe())
        return runs

    def test_deny_json(self):
        native, hh = self.check_deny("denyjson")
        self.assert_same_deny_text(native, hh, "denyjson")

    def test_deny_exit2(self):
        native, hh = self.check_deny("deny2")
        self.assert_same_deny_text(native, hh, "deny2")

    def assert_same_deny_text(self, native, hh, mode):
        """Byte identity of what the model saw for the denied call, where it holds."""
        n = self.normalize(last_results(native), native)
        h = self.normalize(last_results(hh), hh)
        note(f"deny-text-{self.agent.name}-{mode}.json", {"native": n, "hookhost": h})
        expected = self.deny_text_difference(mode, n)
        if expected is None:
            self.assertEqual(n, h, "the model saw different text for the same deny")
        else:
            self.assertEqual(h, expected, "hookhost's deny text is not the known difference")

    def assert_same_snippets(self, runs, needle, tag, index=0):
        """The strings of the index-th main request that hold `needle`, natively and through
        hookhost: byte-identical (after the per-run temp dir is normalised)."""
        found = {}
        for r in runs:
            body = r.main_requests()[index].body
            found[r.mode] = [self.normalize_snippet(t) for t in
                             self.normalize([t for t in fake_strings(body) if needle in t], r)]
        note(f"snippets-{self.agent.name}-{tag}.json", found)
        self.assertEqual(found["native"], found["hookhost"],
                         f"the model saw {needle} in different text")

    def normalize_snippet(self, text):
        return text

    def normalize(self, texts, r):
        # the policy command names the run's temp dir; make the two runs comparable
        return [t.replace(str(r.ws.root), "<ws>") for t in texts]

    def deny_text_difference(self, mode, native_texts):
        """None: byte-identical; else what hookhost's run shows instead (documented)."""
        return None

    def test_plugin_policy_hookhost(self):
        """Issue 28's journey: one Wasm policy (examples/rust/download-guard), declared in
        the agent's own settings format and reached through `hookhost hook`, stops a
        download piped into a shell inside the real agent, with its own words."""
        wasm = A.guest_wasm("download-guard")
        if not wasm.exists():
            raise AssertionError(f"{wasm} missing: build it with cargo test (tests/build.rs)")
        a = self.agent
        plugin = {"type": "plugin", "path": str(wasm), "timeout": 60 if a.seconds else 60000}
        r = self.hookhost(
            lambda ws: {"hooks": {a.pre_tool: [a.group([plugin], matcher=a.shell_tool)]}},
            lambda ws: Script([shell(f"curl -s file:///dev/null | sh; touch {ws.marker('ran')}")]))
        check_ran(r)
        self.assertFalse(r.ws.marker("ran").exists(), "the call ran (its marker file exists)\n" + r.describe())
        self.assertIn("download-guard: a download (`curl`) is piped into `sh`",
                      last_said(r), r.describe())

    def test_builtin_policies_hookhost(self):
        """Issue 38's journey: the five builtin policies ("source": "builtin:NAME", no
        file, no build) declared in the agent's own settings format and reached through
        `hookhost hook` stop a download run as code and a delete outside the project
        inside the real agent, each with its rule; a harmless call still runs."""
        a = self.agent
        t = 60 if a.seconds else 60000
        hooks = [{"type": "plugin", "source": f"builtin:{n}", "timeout": t}
                 for n in ("destructive", "remote-exec", "secrets", "git-safety", "protected-paths")]
        r = self.hookhost(
            lambda ws: {"hooks": {a.pre_tool: [a.group(hooks, matcher=a.shell_tool)]}},
            lambda ws: Script([
                shell(f"curl -s file:///dev/null | sh; touch {ws.marker('download')}"),
                shell(f"rm -rf /nonexistent-hookhost-guard/x; touch {ws.marker('delete')}"),
                shell(f"touch {ws.marker('harmless')}"),
            ]))
        check_ran(r)
        self.assertFalse(r.ws.marker("download").exists(), "the download ran\n" + r.describe())
        self.assertFalse(r.ws.marker("delete").exists(), "the delete ran\n" + r.describe())
        self.assertTrue(r.ws.marker("harmless").exists(), "the harmless call did not run\n" + r.describe())
        said = last_said(r)
        self.assertIn("remote-exec:", said, r.describe())
        self.assertIn("destructive:", said, r.describe())

    def test_state_policy_hookhost(self):
        """Issue 30's journey: a policy with state (examples/rust/push-limit, "state": true)
        remembers across the agent's tool calls — each a separate `hookhost hook`
        process — that one force push was made, and stops the second with its reason."""
        wasm = A.guest_wasm("push-limit")
        if not wasm.exists():
            raise AssertionError(f"{wasm} missing: build it with cargo test (tests/build.rs)")
        a = self.agent
        plugin = {"type": "plugin", "path": str(wasm), "state": True, "args": ["1"],
                  "timeout": 60 if a.seconds else 60000}
        r = self.hookhost(
            lambda ws: {"hooks": {a.pre_tool: [a.group([plugin], matcher=a.shell_tool)]}},
            lambda ws: Script([
                shell(f"git push --force origin main 2>/dev/null; touch {ws.marker('first')}"),
                shell(f"git push --force origin main 2>/dev/null; touch {ws.marker('second')}"),
            ]))
        check_ran(r)
        self.assertTrue(r.ws.marker("first").exists(), "the first push was stopped\n" + r.describe())
        self.assertFalse(r.ws.marker("second").exists(), "the second push ran\n" + r.describe())
        self.assertIn("push-limit: 1 force push already made in this session; the limit is 1",
                      last_said(r), r.describe())

    def test_rewrite(self):
        runs = self.pair(
            lambda ws: self.pre(ws, "rewrite", f"touch {ws.marker('rewritten')}"),
            lambda ws: Script([shell(f"touch {ws.marker('original')}")]))
        for r in runs:
            with self.subTest(r.mode):
                self.assert_rewrite(r)

    def assert_rewrite(self, r):
        self.assertTrue(r.ws.marker("rewritten").exists(), r.describe())
        self.assertFalse(r.ws.marker("original").exists(), r.describe())

    def context_reaches_the_model(self, event, ctx, tag):
        """A hook on `event` adds `ctx`; the first model request holds it, natively and
        through hookhost, in the same words."""
        a = self.agent
        runs = self.pair(
            lambda ws: {"hooks": {event: [a.group([a.hook(policy(ws, "context", ctx))])]}},
            lambda ws: Script([]))
        for r in runs:
            with self.subTest(r.mode):
                self.assertTrue(ctx in r.main_requests()[0].text(), r.describe())
        self.assert_same_snippets(runs, ctx, tag)

    def test_session_context(self):
        self.context_reaches_the_model(self.agent.session_start, "SESSION-CTX-7f3a", "session-context")

    def test_prompt_context(self):
        self.context_reaches_the_model(self.agent.prompt_event, "PROMPT-CTX-91bc", "prompt-context")

    def test_stop_continue(self):
        a = self.agent
        reason = "STOP-REASON-4d2e: check once more"
        runs = self.pair(
            lambda ws: {"hooks": {a.stop_event: [a.group([a.hook(policy(ws, "stop", reason))])]}},
            lambda ws: Script([]))
        for r in runs:
            with self.subTest(r.mode):
                mains = r.main_requests()
                self.assertTrue((r.ws.markers / "stopped").exists(), r.describe())
                self.assertEqual(len(mains), 2, r.describe())
                self.assertTrue("STOP-REASON-4d2e" not in mains[0].text(), r.describe())
                self.assertTrue("STOP-REASON-4d2e" in mains[1].text(), r.describe())
                self.assertEqual([c["mode"] for c in calls(r.ws)], ["stop", "stop"])
        self.assert_same_snippets(runs, "STOP-REASON-4d2e", "stop", index=1)

    # ------------------------------------------------------- failure visibility

    def failing_hookhost(self, tag, raw_defs=None, defs=None, extra_args=""):
        a = self.agent

        def defs_for(ws):
            return defs or {"hooks": {a.pre_tool: [a.group(
                [{"type": "plugin", "path": "/nonexistent/hookhost-e2e/missing.wasm"}],
                matcher=a.shell_tool)]}}

        r = self.hookhost(defs_for, lambda ws: Script([shell(f"touch {ws.marker('ran')}")]),
                          raw_defs=raw_defs, extra_args=extra_args)
        check_ran(r)
        note(f"visibility-hookhost-{a.name}-{tag}.json",
             {"stdout": r.stdout, "stderr": r.stderr, "rc": r.returncode,
              "model_saw": model_saw(r),
              "ran": r.ws.marker("ran").exists()})
        return r

    def test_visibility_missing_plugin(self):
        r = self.failing_hookhost("missing-plugin")
        self.assertTrue(r.ws.marker("ran").exists(), "fail-open: the call goes ahead\n" + r.describe())
        self.assert_failure_visible(r, "missing.wasm")

    def test_visibility_broken_settings(self):
        r = self.failing_hookhost("broken-settings", raw_defs='{"hooks": {"PreToolUse": [ oops')
        self.assertTrue(r.ws.marker("ran").exists(), "fail-open: the call goes ahead\n" + r.describe())
        self.assert_failure_visible(r, "settings.json")

    def test_visibility_missing_plugin_fail_closed(self):
        r = self.failing_hookhost("missing-plugin-fail-closed", extra_args="--fail-closed")
        self.assertFalse(r.ws.marker("ran").exists(), "the call ran (its marker file exists)\n" + r.describe())
        self.assertIn("missing.wasm", last_said(r), r.describe())

    def assert_failure_visible(self, r, needle):
        """What the user can see of a hookhost that failed; per agent."""
        raise NotImplementedError

    def native_visibility(self, mode, arg):
        a = self.agent
        r = self.native(lambda ws: self.pre(ws, mode, arg),
                        lambda ws: Script([shell(f"touch {ws.marker('ran')}")]))
        check_ran(r)
        note(f"visibility-native-{a.name}-{mode}.json",
             {"stdout": r.stdout, "stderr": r.stderr, "rc": r.returncode,
              "model_saw": model_saw(r),
              "ran": r.ws.marker("ran").exists()})
        return r

    def test_native_visibility_sysmsg(self):
        r = self.native_visibility("sysmsg", "SYSMSG-i-3c1d")
        self.assertTrue(r.ws.marker("ran").exists(), "the call did not run (no marker file)\n" + r.describe())
        self.assert_native_sysmsg(r, "SYSMSG-i-3c1d")

    def test_native_visibility_exit1(self):
        r = self.native_visibility("fail1", "STDERR-ii-8e2f")
        self.assertTrue(r.ws.marker("ran").exists(), "the call did not run (no marker file)\n" + r.describe())
        self.assert_native_exit1(r, "STDERR-ii-8e2f")

    def test_native_visibility_exit2(self):
        r = self.native_visibility("fail2", "STDERR-iii-5a7b")
        self.assertFalse(r.ws.marker("ran").exists(), "the call ran (its marker file exists)\n" + r.describe())
        self.assertIn("STDERR-iii-5a7b", last_said(r), r.describe())
        self.assert_native_exit2(r, "STDERR-iii-5a7b")

    # ------------------------------------------------------- what a hook receives

    def test_probe_stdin_and_env(self):
        a = self.agent
        runs = self.pair(lambda ws: self.pre(ws, "probe"),
                         lambda ws: Script([shell(f"touch {ws.marker('ran')}")]))
        found = {}
        for r in runs:
            p = r.ws.markers / f"probe-{a.pre_tool}.json"
            self.assertTrue(p.exists(), r.describe())
            d = json.loads(p.read_text())
            found[r.mode] = {"stdin_fields": sorted(d["stdin"]), "env": d["env"],
                             "stdin": d["stdin"], "env_values": d["env_values"],
                             "env_added_by_agent": sorted(set(d["env"]) - set(r.env_given)),
                             "env_given": r.env_given}
        note(f"probe-{a.name}.json", found)
        self.assertEqual(found["native"]["stdin"]["hook_event_name"], a.pre_tool)
        self.assertEqual(found["native"]["stdin"]["tool_name"], a.shell_tool)
        # through hookhost, the policy sees the agent's fields (plus the base fields hookhost adds)
        self.assertLessEqual(set(found["native"]["stdin_fields"]) - {"timestamp"},
                             set(found["hookhost"]["stdin_fields"]))
        self.check_probe(found["native"])


# ====================================================================== Claude's newer keys

class NewKeys:
    """Claude Code's newer hook keys, natively and through hookhost reading the same
    definitions: `if` rules, the exec form (`args`), comma-list matchers. Mixed into the
    agents that run Claude-format hooks. Each side is its own test so that a hookhost
    shortfall can be an expected failure without hiding the native result."""

    write_tool = "Write"

    def side(self, mode, defs_for, script_for, **opts) -> A.Run:
        r = (self.native if mode == "native" else self.hookhost)(defs_for, script_for, **opts)
        check_ran(r)
        return r

    # -- `if` on a deny hook: `echo free` runs, `echo guarded` is denied
    def if_deny_parts(self):
        a = self.agent
        return (lambda ws: {"hooks": {"PreToolUse": [a.group(
                    [a.hook(policy(ws, "denyjson"), **{"if": "Bash(echo guarded*)"})],
                    matcher="Bash")]}},
                lambda ws: Script([shell(f"echo free > {ws.marker('free')}"),
                                   shell(f"echo guarded > {ws.marker('guarded')}")]))

    def if_deny(self, mode):
        r = self.side(mode, *self.if_deny_parts())
        self.assertTrue(r.ws.marker("free").exists(), "echo free did not run\n" + r.describe())
        self.assertFalse(r.ws.marker("guarded").exists(), "echo guarded ran\n" + r.describe())
        self.assertEqual([c["tool_input"]["command"].split()[1] for c in calls(r.ws)],
                         ["guarded"], r.describe())
        self.assertIn(DENY, last_said(r), r.describe())

    def test_if_deny_native(self):
        self.if_deny("native")

    def test_if_deny_hookhost(self):
        self.if_deny("hookhost")

    # -- exec form {"command": "python3", "args": [...]} denying
    def exec_form_parts(self):
        a = self.agent
        return (lambda ws: {"hooks": {"PreToolUse": [a.group(
                    [{"type": "command", "command": "python3",
                      "args": [str(A.POLICY), "denyjson", str(ws.markers)], "timeout": 30}],
                    matcher="Bash")]}},
                lambda ws: Script([shell(f"touch {ws.marker('ran')}")]))

    def exec_form(self, mode):
        r = self.side(mode, *self.exec_form_parts())
        self.assertFalse(r.ws.marker("ran").exists(), "the call ran (its marker file exists)\n" + r.describe())
        self.assertEqual(len(calls(r.ws)), 1, r.describe())
        self.assertIn(DENY, last_said(r), r.describe())

    def test_exec_form_native(self):
        self.exec_form("native")

    def test_exec_form_hookhost(self):
        self.exec_form("hookhost")

    # -- matcher "Write,Bash": a comma list denies both tools
    def comma(self, mode):
        a = self.agent
        r = self.side(
            mode,
            lambda ws: {"hooks": {"PreToolUse": [a.group([a.hook(policy(ws, "denyjson"))],
                                                         matcher=f"{self.write_tool or 'Write'},Bash")]}},
            lambda ws: Script(([write(str(ws.marker("written")), "x")] if self.write_tool else [])
                              + [shell(f"touch {ws.marker('ran')}")]))
        return r

    def assert_comma(self, r):
        self.assertFalse(r.ws.marker("written").exists(), "the Write went ahead\n" + r.describe())
        self.assertFalse(r.ws.marker("ran").exists(), "the call ran (its marker file exists)\n" + r.describe())
        self.assertEqual(sorted(c["tool_name"] for c in calls(r.ws)),
                         sorted(["Bash"] + ([self.write_tool] if self.write_tool else [])),
                         r.describe())

    def test_comma_matcher_native(self):
        self.assert_comma(self.comma("native"))

    def test_comma_matcher_hookhost(self):
        self.assert_comma(self.comma("hookhost"))


# ====================================================================== through `hookhost setup`

# Issue 37: every agent run the way the README tells a user to — a fresh HOME, `hookhost setup
# AGENT`, the user's hookhost settings in ~/.llxprt/settings.json, the agent started without any
# hook-trust bypass (no `--dangerously-bypass-hook-trust` for Codex, no `--trust-folder` /
# COPILOT_ALLOW_ALL for Copilot, for Gemini only the auth setting a headless user needs).

# does not exist, and lies outside the project and the temp dirs: builtin:destructive blocks it
HARMFUL_RM = "rm -rf /usr/lib/hookhost-suite-probe-{}"
FORBIDDEN = "HH-SUITE-FORBIDDEN-7c1e"  # policy.py denyif: the user's shell hook denies a command holding it
DENYIF = "POLICY-DENYIF-5b9e: this command is forbidden by the user's hookhost settings"
SETUP_CTX = "SETUP-CTX-2d6f"
MISSING_WASM = "/nonexistent/hookhost-e2e/missing.wasm"


class SetupScenarios:
    """Mixed into every agent's class: the agent wired by `hookhost setup AGENT` (its output
    used unchanged), hookhost's own hooks in the user's ~/.llxprt/settings.json, the agent
    started as a user starts it. What differs per agent is measured and asserted here:"""

    setup_rewrites = True        # a BeforeTool `tool_input` rewrite reaches the agent
    setup_context = ("SessionStart", "BeforeAgent")  # whose `additionalContext` reaches the model
    setup_failure_seen_in = ()   # where a failing hookhost (missing plugin) is visible

    # -------------------------------------------------------------- plumbing

    def setup_ws(self, tag: str) -> A.Workspace:
        w = A.workspace(f"{self.agent.name}-{tag}")
        self.workspaces.append(w)
        return w

    def hookhost_cmd(self, ws, *argv, expect=0):
        import subprocess
        p = subprocess.run([A.hookhost_bin(), *argv], env=A.setup_env(ws), cwd=ws.project,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           errors="replace", timeout=60)
        if expect is not None:
            self.assertEqual(p.returncode, expect, f"hookhost {' '.join(argv)}:\n{p.stdout}")
        return p

    def hh_setup(self, ws, *more):
        return self.hookhost_cmd(ws, *A.setup_argv(self.agent, *more)[1:])

    def user_settings(self, ws, hooks: dict):
        """hookhost's own user settings (LLxprt format), ~/.llxprt/settings.json."""
        f = ws.home / ".llxprt" / "settings.json"
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(json.dumps({"tools": {"enableHooks": True}, "hooks": hooks}, indent=2))

    def deny_hooks(self, ws) -> dict:
        return {"BeforeTool": [
            {"hooks": [{"type": "plugin", "source": "builtin:destructive", "timeout": 60000}]},
            {"matcher": "run_shell_command",
             "hooks": [{"type": "command", "command": policy(ws, "denyif", FORBIDDEN),
                        "timeout": 30000}]}]}

    def wired(self, ws) -> int:
        """How often the agent's user file names `hookhost … hook` (opencode/Kilo: the adapter)."""
        f = self.agent.user_file(ws)
        if not f.exists():
            return 0
        text = f.read_text()
        if f.suffix == ".js":
            return int(A.setup_bin() in text and '["hook"]' in text)
        return text.count(f"{A.setup_bin()} hook")

    def setup_run(self, ws, script, tag, **opts) -> A.Run:
        env = {"CODEX_HOME": str(ws.home / ".codex")}
        r = A.run(self.agent, script, {}, ws, tag, user_like=True, env=env, **opts)
        note(f"setup-{self.agent.name}-{tag}.json",
             {"seconds": round(r.seconds, 1), "rc": r.returncode, "argv": r.argv,
              "model_saw": model_saw(r), "stdout": r.stdout[-3000:], "stderr": r.stderr[-3000:]})
        check_ran(r)
        return r

    def harmful_script(self, ws, tag="destroyed"):
        return Script([shell(f"{HARMFUL_RM.format(os.getpid())}; touch {ws.marker(tag)}"),
                       shell(f"echo {FORBIDDEN}; touch {ws.marker('forbidden')}")])

    # -------------------------------------------------------------- scenarios

    def test_setup_blocks_harmful_call(self):
        ws = self.setup_ws("setup-deny")
        self.hh_setup(ws)
        n = self.wired(ws)
        self.assertGreater(n, 0, "setup wired nothing")
        self.user_settings(ws, self.deny_hooks(ws))
        r = self.setup_run(ws, self.harmful_script(ws), "setup-deny")
        self.assertFalse(ws.marker("destroyed").exists(), "the rm -rf ran\n" + r.describe())
        self.assertFalse(ws.marker("forbidden").exists(), "the forbidden call ran\n" + r.describe())
        said = last_said(r)
        self.assertIn("destructive: outside-project", said, r.describe())
        self.assertIn(DENYIF, said, r.describe())
        # the agent's own configuration (prepare merges) left setup's hooks in place
        self.assertEqual(self.wired(ws), n, "prepare changed what setup wrote")

    def test_setup_allows_harmless_call(self):
        ws = self.setup_ws("setup-allow")
        self.hh_setup(ws)
        self.user_settings(ws, self.deny_hooks(ws))
        r = self.setup_run(ws, Script([shell(f"touch {ws.marker('harmless')}")]), "setup-allow")
        self.assertTrue(ws.marker("harmless").exists(), "the harmless call did not run\n" + r.describe())
        self.assertEqual([(c["mode"], c["event"]) for c in calls(ws)], [("denyif", "BeforeTool")],
                         "hookhost did not run the user's hook once\n" + r.describe())

    def test_setup_rewrite_and_context(self):
        ws = self.setup_ws("setup-rewrite")
        self.hh_setup(ws)
        self.user_settings(ws, {
            "BeforeTool": [{"matcher": "run_shell_command", "hooks": [{
                "type": "command", "command": policy(ws, "rewrite", f"touch {ws.marker('rewritten')}"),
                "timeout": 30000}]}],
            **{event: [{"hooks": [{"type": "command", "command": policy(ws, "context", f"{SETUP_CTX}-{event}"),
                                   "timeout": 30000}]}] for event in ("SessionStart", "BeforeAgent")}})
        r = self.setup_run(ws, Script([shell(f"touch {ws.marker('original')}")]), "setup-rewrite")
        found = {"rewritten": ws.marker("rewritten").exists(),
                 "original": ws.marker("original").exists(),
                 "context": [e for e in ("SessionStart", "BeforeAgent")
                             if f"{SETUP_CTX}-{e}" in r.main_requests()[0].text()],
                 "hooks_run": [c["event"] for c in calls(ws)]}
        note(f"setup-{self.agent.name}-rewrite-context-found.json", found)
        self.assertEqual((found["rewritten"], found["original"]),
                         (True, False) if self.setup_rewrites else (False, True), r.describe())
        self.assertEqual(found["context"], list(self.setup_context), r.describe())

    def test_setup_failure_visible(self):
        """hookhost's own settings name a plugin that does not exist: fail-open, and where the
        user (or the model) can see why."""
        ws = self.setup_ws("setup-failure")
        self.hh_setup(ws)
        self.user_settings(ws, {"BeforeTool": [{"hooks": [{"type": "plugin", "path": MISSING_WASM}]}]})
        r = self.setup_run(ws, Script([shell(f"touch {ws.marker('ran')}")]), "setup-failure")
        self.assertTrue(ws.marker("ran").exists(), "not fail-open\n" + r.describe())
        seen = sorted(k for k, text in (("stdout", r.stdout), ("stderr", r.stderr),
                                          ("model", r.model_text())) if "missing.wasm" in text)
        note(f"setup-{self.agent.name}-failure-seen.json", seen)
        self.assertEqual(seen, sorted(self.setup_failure_seen_in), r.describe())

    def test_setup_remove_restores_files(self):
        """The agent configured first (the user's own files), then `hookhost setup`, one run,
        `hookhost setup --remove`: every file setup may touch is back byte for byte (or gone)."""
        ws = self.setup_ws("setup-remove")
        before = {}

        def setup_now(ws, env):
            for f in A.setup_files(self.agent, ws):
                before[f] = f.read_bytes() if f.exists() else None
            self.hh_setup(ws)
            self.assertGreater(self.wired(ws), 0, "setup wired nothing")

        self.user_settings(ws, self.deny_hooks(ws))
        r = self.setup_run(ws, Script([shell(f"{HARMFUL_RM.format(os.getpid())}; touch {ws.marker('destroyed')}")]),
                           "setup-remove", before_start=setup_now)
        self.assertFalse(ws.marker("destroyed").exists(), "setup was not live\n" + r.describe())
        out = self.hh_setup(ws, "--remove").stdout
        for f, old in before.items():
            with self.subTest(str(f)):
                if old is None:
                    self.assertFalse(f.exists(), f"{f} was created by setup and is still there\n{out}")
                else:
                    self.assertTrue(f.exists(), f"{f} is gone\n{out}")
                    self.assertEqual(f.read_bytes().decode(errors="replace"), old.decode(errors="replace"),
                                     f"{f} differs after --remove\n{out}")
        self.assertEqual(self.wired(ws), 0)


# ====================================================================== Claude Code

class ClaudeTests(SetupScenarios, NewKeys, AgentCase):
    agent = A.AGENTS["claude"]
    setup_failure_seen_in = ("stdout",)  # a stream-json system/informational event

    def deny_text_difference(self, mode, native_texts):
        # Claude shows a native exit-2 reason as "hook error: [COMMAND]: STDERR"; hookhost
        # answers every block as JSON permissionDecision "deny", which Claude shows as
        # "hook error: REASON" — the policy's command is not named. Same reason, one prefix less.
        if mode == "deny2":
            return [re.sub(r"hook error: \[[^\]]*\]: ", "hook error: ", t) for t in native_texts]
        return None

    def normalize_snippet(self, text):
        # Claude names the hook command that blocked a stop: policy.py natively, hookhost else
        return re.sub(r'hook blocking error from command: "[^"]*"',
                      'hook blocking error from command: "<COMMAND>"', text)

    def system_events(self, r, needle):
        return [e for e in r.events if e.get("type") == "system" and needle in json.dumps(e)]

    def test_visibility_missing_plugin(self):
        super().test_visibility_missing_plugin()

    def test_visibility_broken_settings(self):
        super().test_visibility_broken_settings()

    def assert_failure_visible(self, r, needle):
        self.assertTrue(self.system_events(r, needle),
                        "no stream-json system event names the failure\n" + r.describe())

    def assert_native_sysmsg(self, r, text):
        self.assertEqual([(e["subtype"], e["content"]) for e in self.system_events(r, text)],
                         [("informational", f"PreToolUse:Bash says: {text}")], r.describe())
        self.assertTrue(text not in r.stderr, r.describe())
        self.assertTrue(text not in r.model_text(), r.describe())

    def assert_native_exit1(self, r, text):
        # a non-blocking error is invisible headless: not in stream-json, not on stderr
        self.assertTrue(text not in r.stdout + r.stderr, r.describe())
        self.assertTrue(text not in r.model_text(), r.describe())

    def assert_native_exit2(self, r, text):
        self.assertRegex(last_results(r)[0],
                         r"^PreToolUse:Bash hook error: \[python3 [^\]]*\]: " + text)
        result = [e for e in r.events if e.get("type") == "result"][-1]
        self.assertEqual([d["tool_name"] for d in result["permission_denials"]], ["Bash"])
        self.assertFalse(self.system_events(r, text), r.describe())
        self.assertTrue(text not in r.stderr, r.describe())

    def check_probe(self, native):
        for name in ("CLAUDE_PROJECT_DIR", "CLAUDECODE", "CLAUDE_CODE_ENTRYPOINT",
                     "CLAUDE_CODE_SESSION_ID"):
            self.assertIn(name, native["env"])
        for name in ("GEMINI_PROJECT_DIR", "CODEX_HOME"):
            self.assertNotIn(name, native["env"])
        self.assertIn("prompt_id", native["stdin"])
        self.assertNotIn("turn_id", native["stdin"])

    # -- an async hook of hookhost's own settings does not hold up the agent
    def test_async_hook_does_not_delay_the_turn(self):
        """hookhost's user settings hold one `async: true` command hook on BeforeTool that
        sleeps 6 s; the agent's whole run (one shell call) takes about as long as the same run
        without it (before the fix: 5.2 s against 2.4–2.8 s)."""
        def one(tag, hooks):
            ws = self.setup_ws(tag)
            self.hh_setup(ws)
            self.user_settings(ws, hooks(ws))
            return self.setup_run(ws, Script([shell(f"touch {ws.marker('ran')}")]), tag)

        def slow(ws):
            return {"BeforeTool": [{"matcher": "run_shell_command", "hooks": [{
                "type": "command", "async": True, "timeout": 30000,
                "command": f"touch {ws.marker('async-started')}; sleep 6; touch {ws.marker('async-done')}"}]}]}

        with ThreadPoolExecutor(2) as pool:
            f_async = pool.submit(one, "async", slow)
            f_plain = pool.submit(one, "plain", lambda ws: {})
            r_async, r_plain = f_async.result(), f_plain.result()
        note("setup-claude-async-seconds.json", {"async": round(r_async.seconds, 2),
                                                 "plain": round(r_plain.seconds, 2)})
        for r in (r_async, r_plain):
            self.assertTrue(r.ws.marker("ran").exists(), r.describe())
        self.assertTrue(r_async.ws.marker("async-started").exists(), "the async hook never ran")
        self.assertLess(r_async.seconds - r_plain.seconds, 3.0,
                        f"async {r_async.seconds:.1f} s, plain {r_plain.seconds:.1f} s")

    # -- `if` on an allow-everything hook must not widen permission mode dontAsk
    def if_allow(self, mode):
        a = self.agent
        r = self.side(
            mode,
            lambda ws: {"hooks": {"PreToolUse": [a.group(
                [a.hook(policy(ws, "allowjson"), **{"if": "Bash(git status*)"})],
                matcher="Bash")]}},
            lambda ws: Script([shell("touch $HOME/should-not-exist")]),
            permission_mode="dontAsk", allowed_tools="Write,Read")
        self.assertFalse((r.ws.home / "should-not-exist").exists(), "touch $HOME/should-not-exist ran\n" + r.describe())
        self.assertEqual(calls(r.ws), [], "the guarded allow hook ran\n" + r.describe())
        result = [e for e in r.events if e.get("type") == "result"][-1]
        self.assertEqual([d["tool_name"] for d in result["permission_denials"]], ["Bash"])

    def test_if_allow_dontask_native(self):
        self.if_allow("native")

    def test_if_allow_dontask_hookhost(self):
        self.if_allow("hookhost")


    # -- which commands an `if: "Bash(git status*)"` guard lets the hook see, with expansions
    IF_EXPANSIONS = {  # command → does Claude Code (2.1.331, 2.1.332) run the guarded hook?
        "echo $HOME": False,
        "touch $HOME/x": False,
        'echo "$HOME"': False,
        "echo ${HOME}": True,          # a braced expansion: Claude fails open
        "$CMD status": True,           # the command name is an expansion
        "git status $HOME": True,
        "git status": True,
        "echo $(git status)": True,
        "echo `git status`": True,
        "X=$HOME git status": True,
        "git status > $HOME/y": True,
    }

    def if_expansions(self, mode):
        a = self.agent
        cmds = list(self.IF_EXPANSIONS)
        r = self.side(
            mode,
            lambda ws: {"hooks": {"PreToolUse": [a.group(
                [a.hook(policy(ws, "allow"), **{"if": "Bash(git status*)"})], matcher="Bash")]}},
            lambda ws: Script([shell(c) for c in cmds]))
        ran = {c["tool_input"]["command"] for c in calls(r.ws)}
        self.assertEqual({c: c in ran for c in cmds}, self.IF_EXPANSIONS, r.describe())

    def test_if_expansions_native(self):
        self.if_expansions("native")

    def test_if_expansions_hookhost(self):
        self.if_expansions("hookhost")


# ====================================================================== Gemini CLI

class GeminiTests(SetupScenarios, AgentCase):
    agent = A.AGENTS["gemini"]
    setup_failure_seen_in = ("stderr",)  # `Hook system message: hookhost: …`

    def stderr_lines(self, r, needle):
        return [line for line in r.stderr.splitlines() if needle in line]

    def assert_failure_visible(self, r, needle):
        # hookhost answers exit 0 with systemMessage; Gemini prints it on stderr
        lines = self.stderr_lines(r, needle)
        self.assertTrue(lines and lines[0].startswith("Hook system message: hookhost: "),
                        r.describe())
        self.assertTrue(needle not in r.stdout, "stream-json shows it too?\n" + r.describe())

    def assert_native_sysmsg(self, r, text):
        self.assertEqual(self.stderr_lines(r, text), [f"Hook system message: {text}"],
                         r.describe())
        self.assertTrue(text not in r.stdout, r.describe())

    def assert_native_exit1(self, r, text):
        self.assertEqual(self.stderr_lines(r, text)[0], f"Hook system message: Warning: {text}",
                         r.describe())
        self.assertTrue(self.stderr_lines(r, "[WARNING] Hook(s) ["), r.describe())
        self.assertTrue(text not in r.stdout, r.describe())

    def assert_native_exit2(self, r, text):
        results = [e for e in r.events if e.get("type") == "tool_result"]
        self.assertEqual(results[0]["status"], "error")
        self.assertEqual(results[0]["error"], {"type": "policy_violation",
                                               "message": f"Tool execution blocked: {text}"})
        self.assertEqual(last_results(r), [json.dumps({"error": f"Tool execution blocked: {text}"})])

    def check_probe(self, native):
        for name in ("GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "GEMINI_SESSION_ID", "GEMINI_CWD"):
            self.assertIn(name, native["env"])
        self.assertNotIn("CLAUDECODE", native["env"])
        self.assertIn("timestamp", native["stdin"])


# ====================================================================== Codex

class CodexTests(SetupScenarios, NewKeys, AgentCase):
    agent = A.AGENTS["codex"]
    # Codex 0.171 applies `updatedInput` only beside `permissionDecision: "allow"` (measured:
    # a bare updatedInput is ignored natively too); `hookhost hook` adds the allow for Codex
    # (it sends `turn_id`) since this suite found the shortfall.
    setup_rewrites = True
    write_tool = None  # the fake server's Codex model gets no apply_patch tool

    def assert_failure_visible(self, r, needle):
        # Codex exec shows neither a hook's stderr nor its systemMessage: nothing to see,
        # only --fail-closed (a deny naming the cause) makes a failure visible
        self.assertTrue(needle not in r.stdout + r.stderr, r.describe())

    def assert_native_sysmsg(self, r, text):
        self.assertTrue(text not in r.stdout + r.stderr, r.describe())
        self.assertTrue(text not in r.model_text(), r.describe())

    def assert_native_exit1(self, r, text):
        self.assertTrue(text not in r.stdout + r.stderr, r.describe())
        self.assertTrue(text not in r.model_text(), r.describe())

    def assert_native_exit2(self, r, text):
        self.assertRegex(last_results(r)[0],
                         f"^Command blocked by PreToolUse hook: {text}. Command: touch ")
        # not in the JSON events (no command_execution item at all), only in Codex's log
        self.assertTrue(text not in r.stdout, r.describe())
        self.assertEqual([e for e in r.events if e.get("item", {}).get("type") == "command_execution"],
                         [], r.describe())
        self.assertTrue(f"ERROR codex_core::tools::router: error=Command blocked by PreToolUse hook: {text}"
                        in r.stderr, r.describe())

    def check_probe(self, native):
        self.assertIn("turn_id", native["stdin"])
        self.assertIn("model", native["stdin"])
        for name in ("CLAUDE_PROJECT_DIR", "CLAUDECODE", "GEMINI_PROJECT_DIR"):
            self.assertNotIn(name, native["env"])

    # -- `hookhost hook --codex-settings`: the project's `.codex/hooks.json`
    def test_codex_settings_project_hooks(self):
        """Native: Codex runs a project's `.codex/hooks.json` only when the project is trusted
        (`[projects."DIR"] trust_level = "trusted"`). Through hookhost: the agent's one hook is
        `hookhost hook --codex-settings` in $CODEX_HOME/hooks.json, the project untrusted (so
        Codex itself does not run the project's file) — hookhost reads and enforces it. Note:
        hookhost runs an *untrusted* project's Codex hooks (unless --require-trust)."""
        a = self.agent

        def defs_for(ws):
            d = ws.project / ".codex"
            d.mkdir(exist_ok=True)
            (d / "hooks.json").write_text(json.dumps(self.pre(ws, "denyjson")))
            return {}

        def script_for(ws):
            return Script([shell(f"touch {ws.marker('ran')}")])

        def hookhost_run():
            ws = self.ws("hookhost")
            defs_for(ws)
            settings = {"hooks": {"PreToolUse": [a.group([a.hook(
                f"{shlex.quote(A.hookhost_bin())} hook --codex-settings", timeout=60)])]}}
            return A.run(a, script_for(ws), settings, ws, "hookhost")

        with ThreadPoolExecutor(3) as pool:
            trusted = pool.submit(self.native, defs_for, script_for, trusted_project=True)
            untrusted = pool.submit(self.native, defs_for, script_for)
            hh = pool.submit(hookhost_run)
            trusted, untrusted, hh = trusted.result(), untrusted.result(), hh.result()
        for r in (trusted, untrusted, hh):
            check_ran(r)
        self.assertFalse(trusted.ws.marker("ran").exists(), trusted.describe())
        self.assertTrue(untrusted.ws.marker("ran").exists(), untrusted.describe())
        self.assertEqual(calls(untrusted.ws), [])
        self.assertFalse(hh.ws.marker("ran").exists(), hh.describe())
        self.assertEqual(len(calls(hh.ws)), 1, hh.describe())
        self.assertEqual(self.normalize(last_results(trusted), trusted),
                         self.normalize(last_results(hh), hh))

    # -- `hookhost setup codex` writes the trust records Codex needs; without them Codex
    #    skips the hook silently
    def test_check_agents_reports_untrusted_codex_hook(self):
        ws = self.setup_ws("untrusted")
        hooks = ws.home / ".codex" / "hooks.json"
        hooks.parent.mkdir(parents=True, exist_ok=True)
        hooks.write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{
            "type": "command", "command": f"{shlex.quote(A.hookhost_bin())} hook", "timeout": 60}]}]}},
            indent=2))
        self.user_settings(ws, self.deny_hooks(ws))
        check = self.hookhost_cmd(ws, "check", "--agents", expect=1).stdout
        note("setup-codex-check-untrusted.txt", check)
        self.assertIn("not trusted", check)
        self.assertIn("hookhost setup codex", check)
        # the hook is wired but untrusted: Codex skips it without a word, and the command the
        # user's hook denies runs. (Not an rm -rf: without --dangerously-bypass-approvals-and-
        # sandbox, Codex itself rejects "rm -f style commands", hook or no hook.)
        r = self.setup_run(ws, Script([shell(f"echo {FORBIDDEN}; touch {ws.marker('first')}")]),
                           "untrusted")
        self.assertTrue(ws.marker("first").exists(), "Codex ran an untrusted hook?\n" + r.describe())
        self.assertEqual(calls(ws), [], "the user's hook ran")
        self.assertNotIn("POLICY-DENYIF", r.model_text(), r.describe())
        self.assertNotIn("hook", (r.stdout + r.stderr).lower().replace("hookhost-suite", ""),
                         "Codex said something about the skipped hook\n" + r.describe())
        # `hookhost setup codex` adds the trust records: now blocked
        self.hh_setup(ws)
        self.assertNotIn("not trusted", self.hookhost_cmd(ws, "check", "--agents", expect=0).stdout)
        r = self.setup_run(ws, self.harmful_script(ws), "trusted")
        self.assertFalse(ws.marker("destroyed").exists(), "the rm -rf ran after setup\n" + r.describe())
        self.assertFalse(ws.marker("forbidden").exists(), "the forbidden call ran after setup\n" + r.describe())
        said = last_said(r)
        self.assertIn("destructive: outside-project", said, r.describe())
        self.assertIn(DENYIF, said, r.describe())

    # Codex 0.169 runs Claude's format but not Claude's newer keys. Natively: `if` is
    # ignored (the hook runs for every Bash call), the exec form's `args` are ignored
    # (`python3` alone runs, reads the input JSON as a program and fails: fail-open), and a
    # comma list is no list. Through hookhost the same definitions get Claude's meaning.
    def test_if_deny_native(self):
        r = self.side("native", *self.if_deny_parts())
        self.assertFalse(r.ws.marker("free").exists(), r.describe())
        self.assertFalse(r.ws.marker("guarded").exists(), "echo guarded ran\n" + r.describe())
        self.assertEqual(len(calls(r.ws)), 2, "Codex ran the `if`-guarded hook for every call")

    def test_exec_form_native(self):
        r = self.side("native", *self.exec_form_parts())
        self.assertTrue(r.ws.marker("ran").exists(), "the call did not run (no marker file)\n" + r.describe())
        self.assertEqual(calls(r.ws), [], "Codex ran the exec form's args?")

    def test_comma_matcher_native(self):
        r = self.comma("native")
        self.assertTrue(r.ws.marker("ran").exists(), "the call did not run (no marker file)\n" + r.describe())
        self.assertEqual(calls(r.ws), [], "Codex read a comma list as a list?")


# ====================================================================== smoke: the newer agents

class SmokeCase(AgentTestCase):
    """One run per test, the agent's own hook wired by hand (or, for opencode and Kilo, the
    adapter plugin `hookhost setup` installs): a deny stops the shell call and its reason
    reaches the model. Scenarios wired with `hookhost setup` come later."""

    def go(self, settings_for, script_for, tag="smoke", setup=None, **opts) -> A.Run:
        ws = self.ws(tag)
        if setup:
            setup(ws)
        started = time.time()
        r = A.run(self.agent, script_for(ws), settings_for(ws), ws, tag, **opts)
        note(f"smoke-{self.agent.name}-{tag}.json",
             {"seconds": round(time.time() - started, 1), "rc": r.returncode,
              "model_saw": model_saw(r), "stderr": r.stderr[-3000:]})
        check_ran(r)
        return r

    def touch(self, ws):
        return Script([shell(f"touch {ws.marker('ran')}")])

    def claude_pre(self, ws, mode, matcher=None, arg=""):
        a = self.agent
        return {"hooks": {"PreToolUse": [a.group([a.hook(policy(ws, mode, arg))],
                                                 matcher=matcher or a.shell_tool)]}}

    def assert_denied(self, r, text=DENY, calls_expected=1):
        self.assertFalse(r.ws.marker("ran").exists(), "the call ran (its marker file exists)\n" + r.describe())
        self.assertEqual(len(calls(r.ws)), calls_expected, r.describe())
        self.assertIn(text, last_said(r), r.describe())


class CopilotTests(SetupScenarios, SmokeCase):
    agent = A.AGENTS["copilot"]
    setup_context = ()  # Copilot shows no hook's additionalContext to the model (natively neither)

    def own(self, ws, mode):
        return {"hooks": {"preToolUse": [self.agent.own_hook(policy(ws, mode))]}}

    def test_deny_own_format(self):
        r = self.go(lambda ws: self.own(ws, "denyflat"), self.touch, "own-deny")
        self.assert_denied(r)
        self.assertEqual(last_said(r), f"Denied by preToolUse hook: {DENY}")
        self.assertEqual(calls(r.ws)[0]["tool_name"], "bash")

    def test_deny_claude_format(self):
        r = self.go(lambda ws: self.claude_pre(ws, "denyjson"), self.touch, "claude-deny")
        self.assert_denied(r)
        self.assertEqual(calls(r.ws)[0]["tool_name"], "Bash")

    def test_exit2_denies_without_its_reason(self):
        r = self.go(lambda ws: self.own(ws, "deny2"), self.touch, "own-exit2")
        self.assert_denied(r, "Denied by preToolUse hook: hook exited with code 2")
        self.assertNotIn(DENY, last_said(r), "Copilot now passes exit 2's stderr on")

    def test_failing_hook_denies(self):
        r = self.go(lambda ws: self.own(ws, "fail1"), self.touch, "own-fail1")
        self.assert_denied(r, 'Denied by preToolUse hook from "global settings" (hook errored)')


class QwenTests(SetupScenarios, SmokeCase):
    agent = A.AGENTS["qwen"]
    setup_rewrites = False  # Qwen applies no updatedInput (natively neither)

    def test_deny_json(self):
        r = self.go(lambda ws: self.claude_pre(ws, "denyjson"), self.touch, "deny-json")
        self.assert_denied(r)
        self.assertEqual(last_said(r), DENY)
        self.assertEqual(calls(r.ws)[0]["tool_name"], "run_shell_command")

    def test_deny_exit2_alias_matcher(self):
        # a matcher may name the tool's alias (Bash for run_shell_command)
        r = self.go(lambda ws: self.claude_pre(ws, "deny2", matcher="Bash"), self.touch, "deny-exit2")
        self.assert_denied(r)


class DroidTests(SetupScenarios, SmokeCase):
    agent = A.AGENTS["droid"]
    setup_context = ("SessionStart",)  # `droid exec` runs no UserPromptSubmit hook (natively neither)

    def test_deny_json(self):
        r = self.go(lambda ws: self.claude_pre(ws, "denyjson"), self.touch, "deny-json")
        self.assert_denied(r)
        self.assertEqual(calls(r.ws)[0]["tool_name"], "Execute")

    def test_deny_exit2(self):
        r = self.go(lambda ws: self.claude_pre(ws, "deny2"), self.touch, "deny-exit2")
        self.assert_denied(r)

    def test_legacy_block_is_ignored(self):
        # exit 0 with {"decision": "block"}: Droid runs the tool anyway
        r = self.go(lambda ws: self.claude_pre(ws, "stop", arg="LEGACY-BLOCK"), self.touch, "legacy")
        self.assertTrue(r.ws.marker("ran").exists(), "Droid now honours a legacy block\n" + r.describe())


# hookhost's own settings in the project: a shell hook that blocks run_shell_command (the shell
# tool as hookhost names it; the adapter hands opencode's `bash` over as Claude's `Bash`)
NO_SHELL = {"tools": {"enableHooks": True}, "hooks": {"BeforeTool": [{
    "matcher": "run_shell_command", "hooks": [{"type": "command",
        "command": "echo '{\"decision\":\"block\",\"reason\":\"NO-SHELL\"}'; exit 2"}]}]}}


class OpencodeTests(SetupScenarios, SmokeCase):
    agent = A.AGENTS["opencode"]
    setup_context = ()  # the adapter has tool.execute.before only
    setup_failure_seen_in = ("stderr",)  # the adapter prints hookhost's systemMessage

    def hookhost_settings(self, settings):
        def setup(ws):
            d = ws.project / ".llxprt"
            d.mkdir(parents=True, exist_ok=True)
            (d / "settings.json").write_text(json.dumps(settings))
        return setup

    def adapter(self, ws):
        return self.agent.adapter_plugin()

    def test_adapter_denies_shell(self):
        r = self.go(self.adapter, self.touch, "adapter-deny",
                    setup=self.hookhost_settings(NO_SHELL), env={"HOOKHOST_BIN": A.hookhost_bin()})
        self.assertFalse(r.ws.marker("ran").exists(), r.describe())
        self.assertEqual(last_said(r), "NO-SHELL", r.describe())

    def test_adapter_maps_write(self):
        """opencode's `write` {filePath, content} reaches hookhost's hooks as write_file with
        file_path; policy.py's deny stops it and its reason reaches the model."""
        def setup(ws):
            self.hookhost_settings({"tools": {"enableHooks": True}, "hooks": {"BeforeTool": [{
                "matcher": "write_file", "hooks": [{"type": "command",
                                                    "command": policy(ws, "denyjson")}]}]}})(ws)
        r = self.go(self.adapter,
                    lambda ws: Script([write(str(ws.project / "written.txt"), "x\n")]),
                    "adapter-write", setup=setup, env={"HOOKHOST_BIN": A.hookhost_bin()})
        target = r.ws.project / "written.txt"
        self.assertFalse(target.exists(), r.describe())
        self.assertEqual([(c["tool_name"], c["tool_input"]) for c in calls(r.ws)],
                         [("write_file", {"file_path": str(target), "content": "x\n"})])
        self.assertIn(DENY, last_said(r), r.describe())

    def test_adapter_fails_open_visibly(self):
        r = self.go(self.adapter, self.touch, "adapter-missing",
                    env={"HOOKHOST_BIN": "/nonexistent/hookhost-e2e"})
        self.assertTrue(r.ws.marker("ran").exists(), r.describe())
        self.assertIn("hookhost: cannot run /nonexistent/hookhost-e2e", r.stderr, r.describe())


class KiloTests(OpencodeTests):
    agent = A.AGENTS["kilo"]


# the base classes hold no agent: not tests of their own
del AgentCase, SmokeCase


# test class → the agent it runs
CLASSES = {"ClaudeTests": "claude", "GeminiTests": "gemini", "CodexTests": "codex",
           "CopilotTests": "copilot", "QwenTests": "qwen", "DroidTests": "droid",
           "OpencodeTests": "opencode", "KiloTests": "kilo"}


def not_run() -> dict:
    """agent → why its pinned version cannot run (its install failed or is missing)."""
    return {n: p for n in VERSIONS["agents"] if (p := A.install_problem(n))}


def header():
    print("agents:", ", ".join(f"{n} {a['package'].replace('{arch}', A.ARCH)}@{a['version']}"
                               for n, a in VERSIONS["agents"].items()))
    for n, a in VERSIONS.get("not_installed", {}).items():
        print(f"NOT RUN: {n} ({a['package']}): {a['reason']}")
    for n, why in not_run().items():
        print(f"NOT RUN: {n}: {why} (fails the suite)")
    print("hookhost:", A.hookhost_bin())
    sys.stdout.flush()


# a first guess of a test's wall time by agent, for the order of the parallel run (longest
# first); the measured times of the last run (FINDINGS/test-seconds.json) replace it
GUESS = {"claude": 5, "gemini": 10, "codex": 5, "copilot": 8, "qwen": 15, "droid": 15,
         "opencode": 25, "kilo": 35}


def main():
    """With arguments: plain unittest (`run.py ClaudeTests.test_allow -v`). Without: every test
    of every agent's class, each in its own process, AGENTS_JOBS at a time (default: twice
    the CPUs, at least 4), the longest first; one line per test, the whole output of each
    failure, a summary per class. An agent that did not install is not run, and fails the
    suite."""
    start = time.time()
    if len(sys.argv) > 1:
        header()
        prog = unittest.main(module=__name__, exit=False, verbosity=2)
        print(f"agents e2e: {time.time() - start:.1f} s")
        sys.exit(0 if prog.result.wasSuccessful() else 1)

    import subprocess
    header()
    jobs = int(os.environ.get("AGENTS_JOBS") or max(4, 2 * (os.cpu_count() or 2)))
    try:
        last = json.loads((FINDINGS / "test-seconds.json").read_text())
    except (OSError, ValueError):
        last = {}

    skipped = not_run()
    failed = [f"{cls} (NOT RUN: {skipped[agent]})" for cls, agent in CLASSES.items()
              if agent in skipped]
    loader = unittest.TestLoader()
    tests = [f"{cls}.{name}" for cls, agent in CLASSES.items() if agent not in skipped
             for name in loader.getTestCaseNames(globals()[cls])]
    tests.sort(key=lambda t: -last.get(t, GUESS[CLASSES[t.split(".")[0]]]))
    print(f"{len(tests)} tests, {jobs} at a time")
    sys.stdout.flush()

    def one(test):
        t = time.time()
        p = subprocess.run([sys.executable, __file__, test], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, errors="replace")
        return test, p.returncode, p.stdout, time.time() - t

    results = {}
    from concurrent.futures import as_completed
    with ThreadPoolExecutor(jobs) as pool:
        for f in as_completed([pool.submit(one, t) for t in tests]):
            test, rc, out, took = f.result()
            results[test] = (rc, out, took)
            status = "ok" if rc == 0 else "FAILED"
            if rc == 0 and "expected failure" in out:
                status = "ok (expected failure)"
            print(f"{took:6.1f} s  {status:8}  {test}")
            sys.stdout.flush()
    seconds = {t: round(results[t][2], 1) for t in tests}
    note("test-seconds.json", seconds)
    for test in tests:
        rc, out, _ = results[test]
        if rc != 0:
            print(f"\n======== {test}: FAILED\n{out}")
            failed.append(test)
    print()
    for cls in CLASSES:
        mine = [t for t in results if t.startswith(cls + ".")]
        if mine:
            bad = [t for t in mine if results[t][0] != 0]
            print(f"{cls}: {len(mine) - len(bad)}/{len(mine)} ok, "
                  f"{sum(results[t][2] for t in mine):.0f} s of runs")
    print(f"agents e2e: {time.time() - start:.1f} s; " +
          (f"FAILED: {', '.join(failed)}" if failed else "all agents ok"))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
