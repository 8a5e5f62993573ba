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
            self.check_run(r)
        return runs

    def check_run(self, r: A.Run):
        if r.timed_out:
            raise Infra(f"timed out\n{r.describe()}")
        if not r.main_requests():
            raise Infra(f"the model was never asked\n{r.describe()}")

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
                self.assertTrue(r.ws.marker("ran").exists(), "the call did not run (no marker file)\n" + r.describe())
                self.assertEqual([c["mode"] for c in calls(r.ws)], ["allow"], r.describe())

    def check_deny(self, mode):
        runs = self.pair(lambda ws: self.pre(ws, mode),
                         lambda ws: Script([shell(f"touch {ws.marker('ran')}")]))
        for r in runs:
            with self.subTest(r.mode):
                self.assertFalse(r.ws.marker("ran").exists(), "the call ran (its marker file exists)\n" + r.describe())
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
        self.check_run(r)
        self.assertFalse(r.ws.marker("ran").exists(), "the call ran (its marker file exists)\n" + r.describe())
        self.assertIn("download-guard: a download (`curl`) is piped into `sh`",
                      "\n".join(self.last_results(r)), r.describe())

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
        self.check_run(r)
        self.assertFalse(r.ws.marker("download").exists(), "the download ran\n" + r.describe())
        self.assertFalse(r.ws.marker("delete").exists(), "the delete ran\n" + r.describe())
        self.assertTrue(r.ws.marker("harmless").exists(), "the harmless call did not run\n" + r.describe())
        said = "\n".join(self.last_results(r))
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
        self.check_run(r)
        self.assertTrue(r.ws.marker("first").exists(), "the first push was stopped\n" + r.describe())
        self.assertFalse(r.ws.marker("second").exists(), "the second push ran\n" + r.describe())
        self.assertIn("push-limit: 1 force push already made in this session; the limit is 1",
                      "\n".join(self.last_results(r)), r.describe())

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
        self.check_run(r)
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
        self.assertFalse(r.ws.marker("ran").exists(), "the call ran (its marker file exists)\n" + r.describe())
        self.assertIn("missing.wasm", "\n".join(self.last_results(r)), r.describe())

    def assert_failure_visible(self, r, needle):
        """What the user can see of a hookhost that failed; per agent."""
        raise NotImplementedError

    def native_visibility(self, mode, arg):
        a = self.agent
        r = self.native(lambda ws: self.pre(ws, mode, arg),
                        lambda ws: Script([shell(f"touch {ws.marker('ran')}")]))
        self.check_run(r)
        note(f"visibility-native-{a.name}-{mode}.json",
             {"stdout": r.stdout, "stderr": r.stderr, "rc": r.returncode,
              "model_saw": self.last_results(r) if r.main_requests() else None,
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
        self.check_run(r)
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
        self.assertIn(DENY, "\n".join(self.last_results(r)), r.describe())

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
        self.assertIn(DENY, "\n".join(self.last_results(r)), r.describe())

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


# ====================================================================== Claude Code

class ClaudeTests(NewKeys, AgentCase):
    agent = A.AGENTS["claude"]

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
        self.assertRegex(self.last_results(r)[0],
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
    IF_EXPANSIONS = {  # command → does Claude Code 2.1.331 run the guarded hook?
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

class GeminiTests(AgentCase):
    agent = A.AGENTS["gemini"]

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
        self.assertEqual(self.last_results(r), [json.dumps({"error": f"Tool execution blocked: {text}"})])

    def check_probe(self, native):
        for name in ("GEMINI_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "GEMINI_SESSION_ID", "GEMINI_CWD"):
            self.assertIn(name, native["env"])
        self.assertNotIn("CLAUDECODE", native["env"])
        self.assertIn("timestamp", native["stdin"])


# ====================================================================== Codex

class CodexTests(NewKeys, AgentCase):
    agent = A.AGENTS["codex"]
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
        self.assertRegex(self.last_results(r)[0],
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
            self.check_run(r)
        self.assertFalse(trusted.ws.marker("ran").exists(), trusted.describe())
        self.assertTrue(untrusted.ws.marker("ran").exists(), untrusted.describe())
        self.assertEqual(calls(untrusted.ws), [])
        self.assertFalse(hh.ws.marker("ran").exists(), hh.describe())
        self.assertEqual(len(calls(hh.ws)), 1, hh.describe())
        self.assertEqual(self.normalize(self.last_results(trusted), trusted),
                         self.normalize(self.last_results(hh), hh))

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


# the base class holds no agent: not a test of its own
del AgentCase


CLASSES = ["ClaudeTests", "GeminiTests", "CodexTests"]


def header():
    print("agents:", ", ".join(f"{n} {a['package']}@{a['version']}"
                               for n, a in VERSIONS["agents"].items()))
    for n, a in VERSIONS.get("not_installed", {}).items():
        print(f"NOT RUN: {n} ({a['package']}): {a['reason']}")
    print("hookhost:", A.hookhost_bin())
    sys.stdout.flush()


def main():
    """With arguments: plain unittest (`run.py ClaudeTests.test_allow -v`). Without: the three
    agents' classes in parallel processes (AGENTS_JOBS, default 3), one report each."""
    start = time.time()
    if len(sys.argv) > 1:
        header()
        prog = unittest.main(module=__name__, exit=False, verbosity=2)
        print(f"agents e2e: {time.time() - start:.1f} s")
        sys.exit(0 if prog.result.wasSuccessful() else 1)

    import subprocess
    header()
    jobs = int(os.environ.get("AGENTS_JOBS", "3"))

    def one(cls):
        t = time.time()
        p = subprocess.run([sys.executable, __file__, cls], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True, errors="replace")
        return cls, p.returncode, p.stdout, time.time() - t

    failed = []
    with ThreadPoolExecutor(jobs) as pool:
        for cls, rc, out, took in pool.map(one, CLASSES):
            print(f"\n======== {cls} ({took:.1f} s): {'ok' if rc == 0 else 'FAILED'}")
            print(out)
            if rc != 0:
                failed.append(cls)
    print(f"agents e2e: {time.time() - start:.1f} s; " +
          (f"FAILED: {', '.join(failed)}" if failed else "all agents ok"))
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
