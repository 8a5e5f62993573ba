"""A hookhost BeforeTool policy in Python, compiled to a WASI 0.2 component.

It blocks tool calls that touch protected system directories (any string in
``tool_input`` under a prefix listed in the ``DENY_PREFIXES`` variable,
colon-separated, default ``/etc:/usr:/bin:/boot``) and shell commands that use
``sudo``. Anything else is allowed with no output.

componentize-py imports this module at build time (pre-initialisation), so
nothing here may touch stdin or the environment outside ``Run.run``.
"""

import json
import os
import sys

from wit_world import exports
from wit_world.imports import exit as wasi_exit

DEFAULT_DENY = "/etc:/usr:/bin:/boot"


def strings(value):
    """Every string inside a JSON value, depth first."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def decide(event):
    """The block reason for a BeforeTool event, or None to allow it."""
    if event.get("hook_event_name") != "BeforeTool":
        return None
    tool = event.get("tool_name", "")
    tool_input = event.get("tool_input") or {}
    if tool == "run_shell_command":
        command = tool_input.get("command", "")
        if "sudo" in command.split():
            return f"python-policy: {tool} may not use sudo"
    prefixes = [p.rstrip("/") for p in os.environ.get("DENY_PREFIXES", DEFAULT_DENY).split(":") if p]
    for text in strings(tool_input):
        for prefix in prefixes:
            if text == prefix or text.startswith(prefix + "/"):
                return f"python-policy: {tool} may not touch {prefix}/ ({text})"
    return None


def finish(code):
    """Flush and end the component with `code`.

    `sys.exit(2)` is not enough: on WASI 0.2 it arrives as status 1 (a failed
    hook). `wasi:cli/exit.exit-with-code` carries the number itself.
    """
    sys.stdout.flush()
    sys.stderr.flush()
    wasi_exit.exit_with_code(code)


class Run(exports.Run):
    """The `wasi:cli/run` export: hookhost calls `run` once per event."""

    def run(self) -> None:
        try:
            event = json.loads(sys.stdin.read())
        except ValueError as error:
            print(f"python-policy: input is not JSON: {error}", file=sys.stderr)
            finish(1)
            return
        reason = decide(event)
        if reason is None:
            print("{}")
            finish(0)
        else:
            print(json.dumps({"decision": "block", "reason": reason}))
            finish(2)
