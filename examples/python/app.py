"""A hookhost BeforeTool policy in Python, compiled to a WASI 0.2 component.

It blocks tool calls that touch protected system directories (any string in
``tool_input`` under a prefix listed in the ``DENY_PREFIXES`` variable,
colon-separated, default ``/etc:/usr:/bin:/boot``), shell commands that use
``sudo`` and shell commands that run a download as code (``curl … | sh``,
found by the guest helpers' shell parser, ``guest-sdk/python``). Anything else
is allowed with no output.

componentize-py imports this module at build time (pre-initialisation), so
nothing here may touch stdin or the environment outside ``Run.run``.
"""

import json
import os
import sys

import hookhost_guest
from wit_world import exports
from wit_world.imports import exit as wasi_exit

DEFAULT_DENY = "/etc:/usr:/bin:/boot"


def decide(event):
    """The block reason for a BeforeTool event, or None to allow it."""
    call = hookhost_guest.tool_call(event)
    if call is None or event.get("hook_event_name") != "BeforeTool":
        return None
    tool = call.name
    command = call.shell_command()
    if command is not None:
        if "sudo" in command.split():
            return f"python-policy: {tool} may not use sudo"
        why = hookhost_guest.download_into_shell(command)
        if why:
            return f"python-policy: {why}"
    prefixes = [p.rstrip("/") for p in os.environ.get("DENY_PREFIXES", DEFAULT_DENY).split(":") if p]
    for text in call.strings():
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
