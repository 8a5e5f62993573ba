"""The policy of `{{name}}`: pure Python, no WASI, so test_policy.py can run it natively.

It blocks BeforeTool calls that touch protected system directories (any string
in ``tool_input`` under a prefix of ``deny``, colon-separated, default
``/etc:/usr:/bin:/boot``), shell commands that use ``sudo``, and shell
commands that run a download as code (``curl … | sh``: hookhost_guest's shell
parser).
"""

import hookhost_guest

DEFAULT_DENY = "/etc:/usr:/bin:/boot"
TAG = "{{name}}"


def decide(event, deny=DEFAULT_DENY):
    """The block reason for an event, or None to allow it."""
    call = hookhost_guest.tool_call(event)
    if call is None or event.get("hook_event_name") != "BeforeTool":
        return None
    # shell_command() reads run_shell_command (LLxprt, Gemini CLI) and Bash (Claude Code).
    command = call.shell_command()
    if command is not None:
        if "sudo" in command.split():
            return f"{TAG}: {call.name} may not use sudo"
        why = hookhost_guest.download_into_shell(command)
        if why:
            return f"{TAG}: {why}"
    prefixes = [p.rstrip("/") for p in deny.split(":") if p]
    for text in call.strings():
        for prefix in prefixes:
            if text == prefix or text.startswith(prefix + "/"):
                return f"{TAG}: {call.name} may not touch {prefix}/ ({text})"
    return None
