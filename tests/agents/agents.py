"""How to run each real agent CLI headless against a fake model server.

`run(agent, script, hooks, …)` makes a fresh temp HOME / CODEX_HOME / project, writes the
agent's hook settings, runs the agent with a timeout (its whole process group killed when it
expires) and returns a `Run`: exit code, stdout, stderr, parsed JSON-lines events and the
requests the model server recorded.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from fake_models import FakeModels, Script

ROOT = Path(__file__).resolve().parents[2]
AGENTS_DIR = ROOT / "target" / "agents" / "node_modules" / ".bin"
HERE = Path(__file__).resolve().parent
POLICY = HERE / "policy.py"
TIMEOUT = float(os.environ.get("AGENTS_TIMEOUT", "120"))


def guest_wasm(name: str) -> Path:
    """A plugin built from examples/rust by the test build (tests/build.rs)."""
    base = Path(os.environ.get("CARGO_TARGET_DIR") or ROOT / "target")
    return base / "guests" / "wasm32-wasip2" / "release" / f"{name}.wasm"


def hookhost_bin() -> str:
    b = os.environ.get("HOOKHOST_BIN") or str(ROOT / "target" / "debug" / "hookhost")
    return str(Path(b).resolve())


@dataclass
class Workspace:
    root: Path
    home: Path = field(init=False)
    project: Path = field(init=False)
    markers: Path = field(init=False)

    def __post_init__(self):
        self.home = self.root / "home"
        self.project = self.root / "project"
        self.markers = self.root / "markers"
        for d in (self.home, self.project, self.markers, self.root / "tmp"):
            d.mkdir(parents=True, exist_ok=True)

    def marker(self, name: str) -> Path:
        return self.markers / name


@dataclass
class Run:
    agent: str
    mode: str
    argv: list
    returncode: int | None
    stdout: str
    stderr: str
    timed_out: bool
    requests: list
    ws: Workspace
    env_given: list = field(default_factory=list)  # names of the variables the agent was started with

    @property
    def events(self) -> list:
        out = []
        for line in self.stdout.splitlines():
            line = line.strip()
            if line.startswith("{"):
                try:
                    out.append(json.loads(line))
                except ValueError:
                    pass
        return out

    def main_requests(self):
        return [r for r in self.requests if r.main]

    def model_text(self) -> str:
        """Everything the model was sent in its main (tool-bearing) requests."""
        return "\n".join(r.text() for r in self.main_requests())

    def describe(self) -> str:
        return (f"{self.agent}/{self.mode}: rc={self.returncode} timed_out={self.timed_out} "
                f"requests={self.requests}\n--- stdout\n{self.stdout[-6000:]}\n--- stderr\n"
                f"{self.stderr[-4000:]}")


# ------------------------------------------------------------------ dialects

class Agent:
    name = ""
    bin = ""
    shell_tool = "Bash"
    pre_tool = "PreToolUse"
    session_start = "SessionStart"
    prompt_event = "UserPromptSubmit"
    stop_event = "Stop"
    seconds = True  # timeouts in seconds (Claude format) or milliseconds (Gemini)

    def binary(self) -> Path:
        return AGENTS_DIR / self.bin

    def hook(self, command: str, timeout: int = 30, **extra) -> dict:
        h = {"type": "command", "command": command,
             "timeout": timeout if self.seconds else timeout * 1000}
        h.update(extra)
        return h

    def group(self, hooks: list, matcher: str | None = None, **extra) -> dict:
        g = {"hooks": hooks}
        if matcher is not None:
            g["matcher"] = matcher
        g.update(extra)
        return g

    def defs_path(self, ws: Workspace) -> Path:
        """Where the hook definitions live for hookhost's `--settings FILE`: a file in a
        `.claude` directory is read as Claude's, one in `.gemini` as Gemini's."""
        return ws.root / "defs" / ".claude" / "settings.json"

    def hookhost_settings(self, ws: Workspace, defs: dict, extra_args: str = "") -> dict:
        """The agent's settings: one `hookhost hook` per event the definitions use."""
        path = self.defs_path(ws)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(defs, indent=2))
        cmd = f"{shlex.quote(hookhost_bin())} hook --settings {shlex.quote(str(path))}" + (
            f" {extra_args}" if extra_args else "")
        return {"hooks": {event: [self.group([self.hook(cmd, timeout=60)])]
                          for event in defs.get("hooks", {})}}


class Claude(Agent):
    name = "claude"
    bin = "claude"

    def prepare(self, ws: Workspace, settings: dict, url: str, opts: dict):
        path = ws.root / "claude-settings.json"
        path.write_text(json.dumps(settings, indent=2))
        argv = [str(self.binary()), "-p", opts["prompt"], "--output-format", "stream-json",
                "--verbose", "--settings", str(path), "--model", "claude-sonnet-4-5"]
        argv += ["--allowedTools", opts.get("allowed_tools", "Bash,Write,Edit,Read")]
        if opts.get("permission_mode"):
            argv += ["--permission-mode", opts["permission_mode"]]
        env = {"ANTHROPIC_BASE_URL": url, "ANTHROPIC_API_KEY": "dummy",
               "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1", "DISABLE_TELEMETRY": "1",
               "DISABLE_AUTOUPDATER": "1", "DISABLE_ERROR_REPORTING": "1"}
        return argv, env


class Gemini(Agent):
    name = "gemini"
    bin = "gemini"
    shell_tool = "run_shell_command"
    pre_tool = "BeforeTool"
    prompt_event = "BeforeAgent"
    stop_event = "AfterAgent"
    seconds = False

    def defs_path(self, ws):
        return ws.root / "defs" / ".gemini" / "settings.json"

    def prepare(self, ws: Workspace, settings: dict, url: str, opts: dict):
        gdir = ws.home / ".gemini"
        gdir.mkdir(parents=True, exist_ok=True)
        full = {"security": {"auth": {"selectedType": "gemini-api-key"},
                             "folderTrust": {"enabled": False}},
                "general": {"disableAutoUpdate": True},
                "privacy": {"usageStatisticsEnabled": False},
                "telemetry": {"enabled": False}}
        full.update(settings)
        (gdir / "settings.json").write_text(json.dumps(full, indent=2))
        argv = [str(self.binary()), "-p", opts["prompt"], "--yolo", "-o", "stream-json",
                "-m", "gemini-2.5-flash"]
        env = {"GOOGLE_GEMINI_BASE_URL": url, "GEMINI_API_KEY": "dummy",
               "GEMINI_CLI_NO_RELAUNCH": "true"}
        return argv, env


class Codex(Agent):
    name = "codex"
    bin = "codex"

    def prepare(self, ws: Workspace, settings: dict, url: str, opts: dict):
        chome = ws.home / ".codex"  # Codex's default CODEX_HOME; not set in the environment
        chome.mkdir(parents=True, exist_ok=True)
        (chome / "config.toml").write_text(f"""\
model = "gpt-5.1-codex"
model_provider = "fake"
approval_policy = "never"
sandbox_mode = "danger-full-access"

[model_providers.fake]
name = "fake"
base_url = "{url}/v1"
wire_api = "responses"
env_key = "OPENAI_API_KEY"
request_max_retries = 0
stream_max_retries = 0

[analytics]
enabled = false
""" + (f'\n[projects."{ws.project}"]\ntrust_level = "trusted"\n' if opts.get("trusted_project") else ""))
        (chome / "hooks.json").write_text(json.dumps(settings, indent=2))
        argv = [str(self.binary()), "exec", "--json", "--skip-git-repo-check",
                "--dangerously-bypass-approvals-and-sandbox", "--dangerously-bypass-hook-trust",
                "-C", str(ws.project), opts["prompt"]]
        env = {"OPENAI_API_KEY": "dummy"}
        return argv, env


AGENTS = {"claude": Claude(), "gemini": Gemini(), "codex": Codex()}


# ------------------------------------------------------------------ running

def clean_env() -> dict:
    keep = ("PATH", "LANG", "LC_ALL", "TERM", "TZ", "TMPDIR", "HOOKHOST_LOG")
    env = {k: v for k, v in os.environ.items() if k in keep}
    env.setdefault("PATH", "/usr/local/bin:/usr/bin:/bin")
    # python3 for the policies: the one running the suite
    import sys
    env["PATH"] = f"{Path(sys.executable).parent}:{env['PATH']}"
    env["NO_COLOR"] = "1"
    env["CI"] = "1"
    return env


def run(agent: Agent, script: Script, settings: dict, ws: Workspace, mode: str,
        prompt: str = "Do the task.", **opts) -> Run:
    """Runs `agent` once with `settings` (its own hook settings) against a fake server."""
    opts["prompt"] = prompt
    if not agent.binary().exists():
        raise AssertionError(f"{agent.name}: {agent.binary()} is missing: run scripts/agents-install.sh")
    with FakeModels(script) as models:
        argv, extra = agent.prepare(ws, settings, models.url, opts)
        env = clean_env()
        env.update({"HOME": str(ws.home), "XDG_CONFIG_HOME": str(ws.home / ".config"),
                    "XDG_STATE_HOME": str(ws.home / ".local/state"),
                    "XDG_DATA_HOME": str(ws.home / ".local/share"),
                    "XDG_CACHE_HOME": str(ws.home / ".cache"),
                    "TMPDIR": str(ws.root / "tmp"),  # Claude keeps per-session files there
                    "MARKERS": str(ws.markers)})
        env.update(extra)
        env.update(opts.get("env", {}))
        proc = subprocess.Popen(argv, cwd=ws.project, env=env, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                start_new_session=True, text=True, errors="replace")
        timed_out = False
        try:
            out, err = proc.communicate(timeout=opts.get("timeout", TIMEOUT))
        except subprocess.TimeoutExpired:
            timed_out = True
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            out, err = proc.communicate()
        else:
            # hooks or helpers left behind in the agent's group
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        return Run(agent.name, mode, argv, proc.returncode, out, err, timed_out,
                   list(models.requests), ws, sorted(env))


def workspace(prefix: str) -> Workspace:
    return Workspace(Path(tempfile.mkdtemp(prefix=f"hh-agents-{prefix}-")))


def remove(ws: Workspace):
    shutil.rmtree(ws.root, ignore_errors=True)
