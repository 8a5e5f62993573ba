#!/usr/bin/env python3
"""End-to-end suite: the real agent CLIs (Claude Code, Gemini CLI, Codex), headless, against
fake model servers on 127.0.0.1. Each scenario runs twice per agent:

* NATIVE   — the agent's own command hook runs policy.py;
* HOOKHOST — the agent's one hook is `$HOOKHOST_BIN hook --settings DEFS` and DEFS holds the
  *same* hook definitions (Claude's format in a `.claude` directory for Claude and Codex,
  Gemini's in a `.gemini` directory for Gemini),

and asserts the same outcome on disk and in the requests that reached the model.

    python3 tests/agents/run.py [-v] [-k PATTERN]      (scripts/test-agents.sh installs first)

HOOKHOST_BIN defaults to target/debug/hookhost. AGENTS_FINDINGS_DIR (default
target/agents-findings) receives the probe dumps and the failure-visibility observations.
"""

from __future__ import annotations

import json
import os
import sys
import time
import unittest
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import agents as A  # noqa: E402
from fake_models import Script, shell, tool_results, write  # noqa: E402

VERSIONS = json.loads((A.HERE / "versions.json").read_text())
FINDINGS = Path(os.environ.get("AGENTS_FINDINGS_DIR") or A.ROOT / "target" / "agents-findings")
KEEP = os.environ.get("AGENTS_KEEP") == "1"  # keep the temp dirs for debugging

DENY = "POLICY-DENY: shell commands are not allowed by policy.py"


def policy(ws: A.Workspace, mode: str, arg: str = "") -> str:
    cmd = f"python3 {A.POLICY} {mode} {ws.markers}"
    return cmd + (f" '{arg}'" if arg else "")


def calls(ws: A.Workspace) -> list:
    f = ws.markers / "calls.jsonl"
    return [json.loads(line) for line in f.read_text().splitlines()] if f.exists() else []


def note(name: str, obj):
    FINDINGS.mkdir(parents=True, exist_ok=True)
    (FINDINGS / name).write_text(json.dumps(obj, indent=1, sort_keys=True))


class AgentCase(unittest.TestCase):
    """One agent's scenarios; subclasses set `agent`."""

    agent: A.Agent = None
    maxDiff = None

    @classmethod
    def setUpClass(cls):
        if cls.agent is None:
            raise unittest.SkipTest("base class")
        # a missing agent is a failure, never a skip
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
            self.assertFalse(r.timed_out, r.describe())
            self.assertTrue(r.main_requests(), f"the model was never asked:\n{r.describe()}")
        return runs

    # ---------------------------------------------------------------- helpers

    def pre(self, ws, mode, arg="", matcher=None, **hook_extra) -> dict:
        a = self.agent
        return {"hooks": {a.pre_tool: [a.group([a.hook(policy(ws, mode, arg), **hook_extra)],
                                                matcher=matcher or a.shell_tool)]}}

    def last_results(self, r: A.Run) -> list:
        return tool_results(r.main_requests()[-1])

    # ---------------------------------------------------------------- scenarios

    def test_allow(self):
        runs = self.pair(lambda ws: self.pre(ws, "allow"),
                         lambda ws: Script([shell(f"touch {ws.marker('ran')}")]))
        for r in runs:
            with self.subTest(r.mode):
                self.assertTrue(r.ws.marker("ran").exists(), r.describe())
                self.assertEqual([c["mode"] for c in calls(r.ws)], ["allow"], r.describe())

    def check_deny(self, mode):
        runs = self.pair(lambda ws: self.pre(ws, mode),
                         lambda ws: Script([shell(f"touch {ws.marker('ran')}")]))
        for r in runs:
            with self.subTest(r.mode):
                self.assertFalse(r.ws.marker("ran").exists(), r.describe())
                self.assertEqual(len(calls(r.ws)), 1, r.describe())
                self.assertIn(DENY, "\n".join(self.last_results(r)), r.describe())
        return runs

    def test_deny_json(self):
        native, hh = self.check_deny("denyjson")
        self.assert_same_deny_text(native, hh, "denyjson")

    def test_deny_exit2(self):
        native, hh = self.check_deny("deny2")
        self.assert_same_deny_text(native, hh, "deny2")

    def assert_same_deny_text(self, native, hh, mode):
        """Byte identity of what the model saw for the denied call, where it holds."""
        n = self.normalize(self.last_results(native), native)
        h = self.normalize(self.last_results(hh), hh)
        note(f"deny-text-{self.agent.name}-{mode}.json", {"native": n, "hookhost": h})
        expected = self.deny_text_difference(mode, n)
        if expected is None:
            self.assertEqual(n, h, "the model saw different text for the same deny")
        else:
            self.assertEqual(h, expected, "hookhost's deny text is not the known difference")

    def normalize(self, texts, r):
        # the policy command names the run's temp dir; make the two runs comparable
        return [t.replace(str(r.ws.root), "<ws>") for t in texts]

    def deny_text_difference(self, mode, native_texts):
        """None: byte-identical; else what hookhost's run shows instead (documented)."""
        return None

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

    def test_session_context(self):
        a = self.agent
        ctx = "SESSION-CTX-7f3a"
        runs = self.pair(
            lambda ws: {"hooks": {a.session_start: [a.group([a.hook(policy(ws, "context", ctx))])]}},
            lambda ws: Script([]))
        for r in runs:
            with self.subTest(r.mode):
                self.assertIn(ctx, r.main_requests()[0].text(), r.describe())

    def test_prompt_context(self):
        a = self.agent
        ctx = "PROMPT-CTX-91bc"
        runs = self.pair(
            lambda ws: {"hooks": {a.prompt_event: [a.group([a.hook(policy(ws, "context", ctx))])]}},
            lambda ws: Script([]))
        for r in runs:
            with self.subTest(r.mode):
                self.assertIn(ctx, r.main_requests()[0].text(), r.describe())

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
                self.assertNotIn("STOP-REASON-4d2e", mains[0].text())
                self.assertIn("STOP-REASON-4d2e", mains[1].text(), r.describe())
                self.assertEqual([c["mode"] for c in calls(r.ws)], ["stop", "stop"])

    # ------------------------------------------------------- failure visibility

    def failing_hookhost(self, tag, raw_defs=None, defs=None, extra_args=""):
        a = self.agent

        def defs_for(ws):
            return defs or {"hooks": {a.pre_tool: [a.group(
                [{"type": "plugin", "path": "/nonexistent/hookhost-e2e/missing.wasm"}],
                matcher=a.shell_tool)]}}

        r = self.hookhost(defs_for, lambda ws: Script([shell(f"touch {ws.marker('ran')}")]),
                          raw_defs=raw_defs, extra_args=extra_args)
        self.assertFalse(r.timed_out, r.describe())
        note(f"visibility-hookhost-{a.name}-{tag}.json",
             {"stdout": r.stdout, "stderr": r.stderr, "rc": r.returncode,
              "model_saw": self.last_results(r) if r.main_requests() else None,
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
        self.assertFalse(r.ws.marker("ran").exists(), r.describe())
        self.assertIn("missing.wasm", "\n".join(self.last_results(r)), r.describe())

    def assert_failure_visible(self, r, needle):
        """What the user can see of a hookhost that failed; per agent."""
        raise NotImplementedError

    def native_visibility(self, mode, arg):
        a = self.agent
        r = self.native(lambda ws: self.pre(ws, mode, arg),
                        lambda ws: Script([shell(f"touch {ws.marker('ran')}")]))
        self.assertFalse(r.timed_out, r.describe())
        note(f"visibility-native-{a.name}-{mode}.json",
             {"stdout": r.stdout, "stderr": r.stderr, "rc": r.returncode,
              "model_saw": self.last_results(r) if r.main_requests() else None,
              "ran": r.ws.marker("ran").exists()})
        return r

    def test_native_visibility_sysmsg(self):
        r = self.native_visibility("sysmsg", "SYSMSG-i-3c1d")
        self.assertTrue(r.ws.marker("ran").exists(), r.describe())
        self.assert_native_sysmsg(r, "SYSMSG-i-3c1d")

    def test_native_visibility_exit1(self):
        r = self.native_visibility("fail1", "STDERR-ii-8e2f")
        self.assertTrue(r.ws.marker("ran").exists(), r.describe())
        self.assert_native_exit1(r, "STDERR-ii-8e2f")

    def test_native_visibility_exit2(self):
        r = self.native_visibility("fail2", "STDERR-iii-5a7b")
        self.assertFalse(r.ws.marker("ran").exists(), r.describe())
        self.assertIn("STDERR-iii-5a7b", "\n".join(self.last_results(r)), r.describe())
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
                             "stdin": d["stdin"], "env_values": d["env_values"]}
        note(f"probe-{a.name}.json", found)
        self.assertEqual(found["native"]["stdin"]["hook_event_name"], a.pre_tool)
        self.assertEqual(found["native"]["stdin"]["tool_name"], a.shell_tool)
        # through hookhost, the policy sees the agent's fields (plus the base fields hookhost adds)
        self.assertLessEqual(set(found["native"]["stdin_fields"]) - {"timestamp"},
                             set(found["hookhost"]["stdin_fields"]))
        self.check_probe(found["native"])


# ====================================================================== Claude Code

class ClaudeTests(AgentCase):
    agent = A.AGENTS["claude"]

    def deny_text_difference(self, mode, native_texts):
        return None

    def assert_failure_visible(self, r, needle):
        msgs = [e for e in r.events if e.get("type") == "system" and needle in json.dumps(e)]
        self.assertTrue(msgs, "no stream-json system event names the failure\n" + r.describe())

    def assert_native_sysmsg(self, r, text):
        msgs = [e for e in r.events if e.get("type") == "system" and text in json.dumps(e)]
        self.assertTrue(msgs, r.describe())

    def assert_native_exit1(self, r, text):
        pass  # measured in FINDINGS.md

    def assert_native_exit2(self, r, text):
        pass

    def check_probe(self, native):
        self.assertIn("CLAUDE_PROJECT_DIR", native["env"])
        self.assertIn("CLAUDECODE", native["env"])

    # ---- Claude's newer hook keys

    def test_if_allow_hook_does_not_widen_dontask(self):
        """An allow-everything hook guarded by `if: Bash(git status*)` must not allow `touch`."""
        a = self.agent
        runs = self.pair(
            lambda ws: {"hooks": {"PreToolUse": [a.group(
                [a.hook(policy(ws, "allowjson"), **{"if": "Bash(git status*)"})], matcher="Bash")]}},
            lambda ws: Script([shell("touch $HOME/should-not-exist")]),
            permission_mode="dontAsk", allowed_tools="Write,Read")
        for r in runs:
            with self.subTest(r.mode):
                self.assertFalse((r.ws.home / "should-not-exist").exists(), r.describe())
                self.assertEqual(calls(r.ws), [], "the guarded hook ran\n" + r.describe())

    def test_if_deny_hook_only_for_matching(self):
        a = self.agent
        runs = self.pair(
            lambda ws: {"hooks": {"PreToolUse": [a.group(
                [a.hook(policy(ws, "denyjson"), **{"if": "Bash(echo guarded*)"})], matcher="Bash")]}},
            lambda ws: Script([shell(f"echo free > {ws.marker('free')}"),
                               shell(f"echo guarded > {ws.marker('guarded')}")]))
        for r in runs:
            with self.subTest(r.mode):
                self.assertTrue(r.ws.marker("free").exists(), r.describe())
                self.assertFalse(r.ws.marker("guarded").exists(), r.describe())
                self.assertEqual([c["tool_input"]["command"].split()[1] for c in calls(r.ws)],
                                 ["guarded"], r.describe())

    def test_exec_form_args(self):
        a = self.agent
        runs = self.pair(
            lambda ws: {"hooks": {"PreToolUse": [a.group(
                [{"type": "command", "command": "python3",
                  "args": [str(A.POLICY), "denyjson", str(ws.markers)], "timeout": 30}],
                matcher="Bash")]}},
            lambda ws: Script([shell(f"touch {ws.marker('ran')}")]))
        for r in runs:
            with self.subTest(r.mode):
                self.assertFalse(r.ws.marker("ran").exists(), r.describe())
                self.assertIn(DENY, "\n".join(self.last_results(r)), r.describe())

    def comma_matcher_runs(self):
        a = self.agent
        return self.pair(
            lambda ws: {"hooks": {"PreToolUse": [a.group([a.hook(policy(ws, "denyjson"))],
                                                         matcher="Write,Bash")]}},
            lambda ws: Script([write(str(ws.marker("written")), "x\n"),
                               shell(f"touch {ws.marker('ran')}")]))

    def test_comma_matcher_native(self):
        native, _ = self.comma_matcher_runs()
        self.assert_comma(native)

    # hookhost fix pending: a comma list "Write,Bash" as a Claude matcher (the lead is fixing it)
    @unittest.expectedFailure
    def test_comma_matcher_hookhost(self):
        _, hh = self.comma_matcher_runs()
        self.assert_comma(hh)

    def assert_comma(self, r):
        self.assertFalse(r.ws.marker("written").exists(), r.describe())
        self.assertFalse(r.ws.marker("ran").exists(), r.describe())
        self.assertEqual(sorted(c["tool_name"] for c in calls(r.ws)), ["Bash", "Write"],
                         r.describe())


# ====================================================================== Gemini CLI

class GeminiTests(AgentCase):
    agent = A.AGENTS["gemini"]

    def assert_failure_visible(self, r, needle):
        self.assertIn(needle, r.stdout + r.stderr, r.describe())

    def assert_native_sysmsg(self, r, text):
        self.assertIn(text, r.stdout + r.stderr, r.describe())

    def assert_native_exit1(self, r, text):
        pass

    def assert_native_exit2(self, r, text):
        pass

    def check_probe(self, native):
        self.assertIn("GEMINI_PROJECT_DIR", native["env"])


# ====================================================================== Codex

class CodexTests(AgentCase):
    agent = A.AGENTS["codex"]

    def assert_failure_visible(self, r, needle):
        # Codex exec shows neither a hook's stderr nor its systemMessage
        self.assertNotIn(needle, r.stdout + r.stderr, r.describe())

    def assert_native_sysmsg(self, r, text):
        pass

    def assert_native_exit1(self, r, text):
        pass

    def assert_native_exit2(self, r, text):
        pass

    def check_probe(self, native):
        self.assertIn("turn_id", native["stdin"])


# the base class holds no agent: not a test of its own
del AgentCase


def main():
    start = time.time()
    print("agents:", ", ".join(f"{n} {a['package']}@{a['version']}"
                               for n, a in VERSIONS["agents"].items()))
    for n, a in VERSIONS.get("not_installed", {}).items():
        print(f"not run: {n} ({a['package']}): {a['reason']}")
    print("hookhost:", A.hookhost_bin())
    prog = unittest.main(module=__name__, exit=False, verbosity=2)
    print(f"agents e2e: {time.time() - start:.1f} s")
    result = prog.result
    sys.exit(0 if result.wasSuccessful() else 1)


if __name__ == "__main__":
    main()
