"""How to run each real agent CLI headless against a fake model server.

`run(agent, script, hooks, …)` makes a fresh temp HOME / CODEX_HOME / project, writes the
agent's hook settings, runs the agent with a timeout (its whole process group killed when it
expires) and returns a `Run`: exit code, stdout, stderr, parsed JSON-lines events and the
requests the model server recorded.

Each agent is installed in its own npm prefix, target/agents/NAME (scripts/agents-install.sh,
which records per agent whether that worked in target/agents/status.json — `install_problem`).

Wiring with `hookhost setup` (for scenarios that test it): every agent's `prepare` *merges* its
run configuration (model provider, switches) into the user-level files instead of overwriting
them (and leaves a file they do not change byte for byte alone), so `setup_argv(agent)` run
first with `setup_env(ws)` — the same HOME / XDG directories / CODEX_HOME the agent gets — leaves
what setup wrote in place; `setup_files(agent, ws)` are the files setup may write. `run(…,
user_like=True)` starts the agent as a user does (no hook-trust bypass), `before_start` runs
setup after the agent's own configuration is written.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from fake_models import FakeModels, Script

ROOT = Path(__file__).resolve().parents[2]
AGENTS_ROOT = ROOT / "target" / "agents"  # one npm prefix per agent: target/agents/NAME
STATUS = AGENTS_ROOT / "status.json"        # written by scripts/agents-install.sh
# Copilot CLI unpacks ~235 MB into $XDG_CACHE_HOME on its first run: one cache for every run
# (and for agents-install.sh's version check)
SHARED_CACHE = ROOT / "target" / "agents-cache"
HERE = Path(__file__).resolve().parent
VERSIONS = json.loads((HERE / "versions.json").read_text())
ARCH = {"x86_64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(os.uname().machine, "x64")
POLICY = HERE / "policy.py"
TIMEOUT = float(os.environ.get("AGENTS_TIMEOUT", "120"))


def guest_wasm(name: str) -> Path:
    """A plugin built from examples/rust by the test build (tests/build.rs)."""
    base = Path(os.environ.get("CARGO_TARGET_DIR") or ROOT / "target")
    return base / "guests" / "wasm32-wasip2" / "release" / f"{name}.wasm"


def install_problem(name: str) -> str | None:
    """Why the pinned version of agent `name` cannot be run (None: installed)."""
    pinned = VERSIONS["agents"][name]["version"]
    try:
        status = json.loads(STATUS.read_text()).get(name)
    except (OSError, ValueError):
        status = None
    if status is None:
        return None if AGENTS[name].binary().exists() else (
            f"not installed ({AGENTS[name].binary()} missing; run scripts/agents-install.sh)")
    if status.get("version") != pinned:
        return f"installed status is for {status.get('version')}, pinned {pinned}: run scripts/agents-install.sh"
    if not status.get("ok"):
        return f"install failed: {status.get('error')}"
    return None


def merge(base: dict, extra: dict) -> dict:
    """`extra` merged into `base` (a copy): objects recursively, lists appended, else replaced."""
    out = dict(base)
    for k, v in extra.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = merge(out[k], v)
        elif isinstance(v, list) and isinstance(out.get(k), list):
            out[k] = out[k] + v
        else:
            out[k] = v
    return out


def merge_json_file(path: Path, *layers: dict):
    """Writes `path` as its current content (if any) with each layer merged in. A file whose
    content the layers do not change is left alone, byte for byte (what `hookhost setup`
    wrote stays as it wrote it: its `--remove` restores only files nothing else changed)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        before = json.loads(path.read_text())
    except (OSError, ValueError):
        before = None
    data = before if isinstance(before, dict) else {}
    for layer in layers:
        data = merge(data, layer)
    if path.exists() and data == before:
        return
    path.write_text(json.dumps(data, indent=2))


def hookhost_bin() -> str:
    b = os.environ.get("HOOKHOST_BIN") or str(ROOT / "target" / "debug" / "hookhost")
    return str(Path(b).resolve())


def setup_bin() -> str:
    """The command `hookhost setup` writes into an agent's file: the running binary itself. Installed
    from the npm packages, HOOKHOST_BIN is the launcher (node_modules/hookhost/bin/hookhost.js) and
    the binary is the platform package's, beside it (node_modules/@hookhost/linux-x64/bin/hookhost)."""
    b = Path(hookhost_bin())
    if b.suffix == ".js":
        return str((b.parents[2] / "@hookhost" / "linux-x64" / "bin" / "hookhost").resolve())
    return str(b)


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
    seconds: float = 0.0  # the agent's wall time, start to exit

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
    shell_tool = "Bash"
    pre_tool = "PreToolUse"
    session_start = "SessionStart"
    prompt_event = "UserPromptSubmit"
    stop_event = "Stop"
    seconds = True  # timeouts in seconds (Claude format) or milliseconds (Gemini)

    def binary(self) -> Path:
        bin_ = VERSIONS["agents"][self.name]["bin"].replace("{arch}", ARCH)
        return AGENTS_ROOT / self.name / bin_

    def version(self) -> str:
        return VERSIONS["agents"][self.name]["version"]

    def user_file(self, ws: Workspace) -> Path:
        """The user-level file `hookhost setup NAME` writes (in the run's temp HOME)."""
        raise NotImplementedError

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

    def user_file(self, ws):
        return ws.home / ".claude" / "settings.json"

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
    shell_tool = "run_shell_command"
    pre_tool = "BeforeTool"
    prompt_event = "BeforeAgent"
    stop_event = "AfterAgent"
    seconds = False

    def defs_path(self, ws):
        return ws.root / "defs" / ".gemini" / "settings.json"

    def user_file(self, ws):
        return ws.home / ".gemini" / "settings.json"

    def prepare(self, ws: Workspace, settings: dict, url: str, opts: dict):
        """opts: user_like — only what a user needs for headless auth (no folder-trust switch,
        no telemetry switches): the `hookhost setup` scenarios."""
        if opts.get("user_like"):
            own = {"security": {"auth": {"selectedType": "gemini-api-key"}}}
            # the user trusted the project once, in interactive mode (Gemini's own record;
            # headless Gemini refuses an untrusted folder, exit 55)
            merge_json_file(ws.home / ".gemini" / "trustedFolders.json",
                            {str(ws.project): "TRUST_FOLDER"})
        else:
            own = {"security": {"auth": {"selectedType": "gemini-api-key"},
                                "folderTrust": {"enabled": False}},
                   "general": {"disableAutoUpdate": True},
                   "privacy": {"usageStatisticsEnabled": False},
                   "telemetry": {"enabled": False}}
        merge_json_file(self.user_file(ws), own, settings)
        argv = [str(self.binary()), "-p", opts["prompt"], "--yolo", "-o", "stream-json",
                "-m", "gemini-2.5-flash"]
        env = {"GOOGLE_GEMINI_BASE_URL": url, "GEMINI_API_KEY": "dummy",
               "GEMINI_CLI_NO_RELAUNCH": "true"}
        return argv, env


class Codex(Agent):
    name = "codex"

    def user_file(self, ws):
        return ws.home / ".codex" / "hooks.json"

    @staticmethod
    def others(config: str) -> str:
        """config.toml without what an earlier `prepare` wrote (its top-level keys and its
        tables): what others wrote, e.g. the `[hooks.state."…"]` trust tables of setup."""
        out, keep = [], False  # the top-level keys are all the suite's
        for line in config.splitlines(keepends=True):
            head = line.strip()
            if head.startswith("["):
                keep = not (head in ("[model_providers.fake]", "[analytics]")
                            or head.startswith("[projects."))
            if keep:
                out.append(line)
        return "".join(out)

    def prepare(self, ws: Workspace, settings: dict, url: str, opts: dict):
        """opts: trusted_project; bypass_hook_trust (default True: `exec` skips every hook
        it has no trust record for — measured on 0.169.0 and 0.171.0); user_like — run as a
        user does after `hookhost setup codex`: no `--dangerously-bypass-*` flag at all (the
        approval policy and sandbox come from config.toml)."""
        chome = ws.home / ".codex"  # Codex's default CODEX_HOME
        chome.mkdir(parents=True, exist_ok=True)
        config = chome / "config.toml"
        # e.g. setup's trust tables (a run before this one in the same HOME: its part dropped)
        existing = self.others(config.read_text()) if config.exists() else ""
        config.write_text(f"""\
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
""" + (f'\n[projects."{ws.project}"]\ntrust_level = "trusted"\n' if opts.get("trusted_project") else "")
          + ("\n" + existing if existing else ""))
        if settings:  # none: hooks.json is left as it is (absent, or what setup wrote)
            merge_json_file(chome / "hooks.json", settings)
        argv = [str(self.binary()), "exec", "--json", "--skip-git-repo-check"]
        if not opts.get("user_like"):
            argv.append("--dangerously-bypass-approvals-and-sandbox")
            if opts.get("bypass_hook_trust", True):
                argv.append("--dangerously-bypass-hook-trust")
        argv += ["-C", str(ws.project), opts["prompt"]]
        env = {"OPENAI_API_KEY": "dummy"}
        return argv, env


# Agents that speak OpenAI chat completions to a custom base URL (fake_models serves `/v1/chat/
# completions`, SSE). The model name the fake server is asked for:
CHAT_MODEL = "fake-model"


class Copilot(Agent):
    """GitHub Copilot CLI. Hooks in ~/.copilot/settings.json (user level: always run; a
    repository's .github/hooks/*.json only with --trust-folder), in its own camelCase format
    (`preToolUse`, `{"type":"command","bash":CMD,"matcher":"bash","timeoutSec":N}`, stdin
    `{sessionId,timestamp,cwd,toolName,toolArgs}`, answer `{"permissionDecision":"deny",…}`) or
    in Claude's (`PreToolUse`, tool names `Bash`/`Write`/`Edit` but Copilot's own argument
    names). A hook that fails (exit 1, program missing) denies the call; one that times out
    does not."""
    name = "copilot"
    shell_tool = "Bash"  # in Claude's format; `bash` in its own

    def user_file(self, ws):
        return ws.home / ".copilot" / "settings.json"

    def own_hook(self, command: str, matcher: str = "bash", timeout: int = 30) -> dict:
        """Copilot's own format: {"hooks": {"preToolUse": [this]}}"""
        return {"type": "command", "bash": command, "matcher": matcher, "timeoutSec": timeout}

    def prepare(self, ws, settings, url, opts):
        merge_json_file(self.user_file(ws), settings)
        argv = [str(self.binary()), "-p", opts["prompt"], "--allow-all-tools",
                "--output-format", "json"]
        if opts.get("user_like"):
            # the markers live outside the project: the user grants that one directory
            # (not --allow-all-paths / --allow-all / COPILOT_ALLOW_ALL)
            argv += ["--add-dir", str(ws.markers)]
        env = {"COPILOT_PROVIDER_BASE_URL": f"{url}/v1", "COPILOT_MODEL": "gpt-4.1",
               "COPILOT_PROVIDER_API_KEY": "dummy", "COPILOT_OFFLINE": "true",
               "COPILOT_AUTO_UPDATE": "false", "XDG_CACHE_HOME": str(SHARED_CACHE)}
        return argv, env


class Qwen(Agent):
    """Qwen Code. Claude's events and answers, Gemini's tool names (`run_shell_command`,
    `write_file`, `edit`, `read_file`; a matcher may also name an alias: `Bash`, `Write`, …),
    timeouts in seconds (default 60; values >= 1000 are read as milliseconds). User level:
    ~/.qwen/settings.json ($QWEN_HOME/settings.json if set); no enable switch."""
    name = "qwen"
    shell_tool = "run_shell_command"

    def user_file(self, ws):
        return ws.home / ".qwen" / "settings.json"

    def prepare(self, ws, settings, url, opts):
        merge_json_file(self.user_file(ws),
                        {"privacy": {"usageStatisticsEnabled": False},
                         "telemetry": {"enabled": False},
                         "general": {"disableAutoUpdate": True},
                         # what Qwen adds to a settings file on its first run (its migration):
                         # a user's file has it
                         "$version": 4},
                        settings)
        argv = [str(self.binary()), "--auth-type", "openai", "--openai-base-url", f"{url}/v1",
                "--openai-api-key", "dummy", "-m", CHAT_MODEL, "--yolo", "-o", "stream-json",
                opts["prompt"]]
        return argv, {"QWEN_CODE_SUPPRESS_YOLO_WARNING": "1"}


class Droid(Agent):
    """Factory Droid (`droid exec`). Claude's format in ~/.factory/settings.json, which also
    holds the custom model; shell tool `Execute`, file tools `Create` / `Edit` (`old_str`,
    `new_str`) / `Read`; timeouts in seconds (default 60)."""
    name = "droid"
    shell_tool = "Execute"

    def user_file(self, ws):
        return ws.home / ".factory" / "settings.json"

    def prepare(self, ws, settings, url, opts):
        merge_json_file(self.user_file(ws),
                        {"customModels": [{"model": CHAT_MODEL, "displayName": "Fake",
                                           "baseUrl": f"{url}/v1", "apiKey": "dummy",
                                           "provider": "generic-chat-completion-api",
                                           "maxOutputTokens": 4096}]},
                        settings)
        argv = [str(self.binary()), "exec", "--model", f"custom:{CHAT_MODEL}", "--auto", "high",
                "-o", "json", opts["prompt"]]
        return argv, {"FACTORY_DROID_AUTO_UPDATE_ENABLED": "false"}


ADAPTER = ROOT / "host" / "cli" / "src" / "setup" / "adapters" / "hookhost-opencode.js"


class Opencode(Agent):
    """opencode: no command hooks, only JavaScript plugins. `settings` here maps plugin file
    names to their source, written to the user-level plugin directory
    $XDG_CONFIG_HOME/opencode/plugin/ (`plugin/` and `plugins/` both load); the model provider
    goes into the user-level config $XDG_CONFIG_HOME/opencode/opencode.json."""
    name = "opencode"
    shell_tool = "bash"
    pre_tool = "tool.execute.before"
    prefix = "OPENCODE"
    config_name = "opencode"

    def config_dir(self, ws) -> Path:
        return ws.home / ".config" / self.config_name  # XDG_CONFIG_HOME is ws.home/.config

    def user_file(self, ws):
        return self.config_dir(ws) / "plugin" / "hookhost.js"

    def adapter_plugin(self) -> dict:
        """The adapter setup installs, unchanged (HOOKHOST_BIN from the environment)."""
        return {"hookhost.js": ADAPTER.read_text()}

    def prepare(self, ws, settings, url, opts):
        pdir = self.config_dir(ws) / "plugin"
        pdir.mkdir(parents=True, exist_ok=True)
        for fname, source in settings.items():
            (pdir / fname).write_text(source)
        merge_json_file(self.config_dir(ws) / f"{self.config_name}.json", {
            "provider": {"fake": {"npm": "@ai-sdk/openai-compatible",
                                  "options": {"baseURL": f"{url}/v1", "apiKey": "dummy"},
                                  "models": {CHAT_MODEL: {"tool_call": True}}}},
            "model": f"fake/{CHAT_MODEL}",
            "permission": {"bash": "allow", "edit": "allow", "external_directory": "allow"}})
        p = self.prefix
        env = {f"{p}_DISABLE_MODELS_FETCH": "true", f"{p}_DISABLE_AUTOUPDATE": "true",
               f"{p}_DISABLE_DEFAULT_PLUGINS": "true", f"{p}_DISABLE_LSP_DOWNLOAD": "true",
               # its bundled providers are fetched from npm into the cache once
               "XDG_CACHE_HOME": str(SHARED_CACHE)}
        return [str(self.binary()), "run", "--format", "json", opts["prompt"]], env


class Kilo(Opencode):
    """Kilo CLI (an opencode fork): the same plugins, in $XDG_CONFIG_HOME/kilo/plugin/."""
    name = "kilo"
    prefix = "KILO"
    config_name = "kilo"

    def prepare(self, ws, settings, url, opts):
        argv, env = super().prepare(ws, settings, url, opts)
        env["KILO_NO_DAEMON"] = "1"
        return argv, env


AGENTS = {"claude": Claude(), "gemini": Gemini(), "codex": Codex(), "copilot": Copilot(),
          "qwen": Qwen(), "droid": Droid(), "opencode": Opencode(), "kilo": Kilo()}


def setup_argv(agent: Agent, *more: str) -> list:
    """`hookhost setup AGENT` — run it with `setup_env(ws)` before `run(…)`."""
    return [hookhost_bin(), "setup", agent.name, *more]


def setup_env(ws: "Workspace") -> dict:
    """`env_for(ws)` plus CODEX_HOME (Codex's default, ~/.codex, named explicitly): the
    environment of `hookhost setup`, and of an agent run in a setup scenario."""
    env = env_for(ws)
    env["CODEX_HOME"] = str(ws.home / ".codex")
    return env


def setup_files(agent: Agent, ws: "Workspace") -> list:
    """Every user file `hookhost setup AGENT` may write."""
    files = [agent.user_file(ws)]
    if agent.name == "codex":
        files.append(ws.home / ".codex" / "config.toml")
    return files


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


def env_for(ws: Workspace) -> dict:
    """The environment an agent runs in (before its own additions): temp HOME and XDG dirs."""
    env = clean_env()
    env.update({"HOME": str(ws.home), "XDG_CONFIG_HOME": str(ws.home / ".config"),
                "XDG_STATE_HOME": str(ws.home / ".local/state"),
                "XDG_DATA_HOME": str(ws.home / ".local/share"),
                "XDG_CACHE_HOME": str(ws.home / ".cache"),
                "TMPDIR": str(ws.root / "tmp"),  # Claude keeps per-session files there
                "MARKERS": str(ws.markers)})
    return env


def run(agent: Agent, script: Script, settings: dict, ws: Workspace, mode: str,
        prompt: str = "Do the task.", **opts) -> Run:
    """Runs `agent` once with `settings` (its own hook settings) against a fake server."""
    opts["prompt"] = prompt
    if not agent.binary().exists():
        raise AssertionError(f"{agent.name}: {agent.binary()} is missing: run scripts/agents-install.sh")
    with FakeModels(script) as models:
        argv, extra = agent.prepare(ws, settings, models.url, opts)
        env = env_for(ws)
        env.update(extra)
        env.update(opts.get("env", {}))
        if opts.get("before_start"):  # e.g. `hookhost setup` after the agent is configured
            opts["before_start"](ws, env)
        started = time.monotonic()
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
        took = time.monotonic() - started
        return Run(agent.name, mode, argv, proc.returncode, out, err, timed_out,
                   list(models.requests), ws, sorted(env), took)


def workspace(prefix: str) -> Workspace:
    return Workspace(Path(tempfile.mkdtemp(prefix=f"hh-agents-{prefix}-")))


def remove(ws: Workspace):
    shutil.rmtree(ws.root, ignore_errors=True)
