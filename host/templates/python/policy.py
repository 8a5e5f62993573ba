"""The policy of `{{name}}`: pure Python, no WASI, so test_policy.py can run it natively.

It blocks BeforeTool calls that touch protected system directories (any string
in ``tool_input`` under a prefix of ``deny``, colon-separated, default
``/etc:/usr:/bin:/boot``) and shell commands that use ``sudo``.
"""

DEFAULT_DENY = "/etc:/usr:/bin:/boot"
TAG = "{{name}}"


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


def decide(event, deny=DEFAULT_DENY):
    """The block reason for an event, or None to allow it."""
    if not isinstance(event, dict) or event.get("hook_event_name") != "BeforeTool":
        return None
    tool = event.get("tool_name") or ""
    tool_input = event.get("tool_input") or {}
    if tool == "run_shell_command" and isinstance(tool_input, dict):
        command = tool_input.get("command")
        if isinstance(command, str) and "sudo" in command.split():
            return f"{TAG}: {tool} may not use sudo"
    prefixes = [p.rstrip("/") for p in deny.split(":") if p]
    for text in strings(tool_input):
        for prefix in prefixes:
            if text == prefix or text.startswith(prefix + "/"):
                return f"{TAG}: {tool} may not touch {prefix}/ ({text})"
    return None
