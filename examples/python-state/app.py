"""A hookhost policy in Python that keeps state across events: a tool-call
budget per agent session.

On every ``BeforeTool`` event it adds one to the session's counter (key
``calls:<session_id>`` in the plugin's private store, ``wasi:keyvalue``):

- every 10th call it lets the call through with a ``systemMessage`` saying
  how many calls the session has made;
- past the budget (``MAX_CALLS`` in the hook's ``env``, default 100) it blocks
  the call, saying how many were made; a blocked call is not counted.

Other events are allowed with ``{}``. The hook needs ``"state": true``:
without it the store answers ``access-denied`` and the hook fails (exit 1,
fail-open) with a message naming the setting. Each decision is logged
(``wasi:logging``, context ``session-budget``).

componentize-py imports this module at build time (pre-initialisation), so
nothing here may touch stdin, the environment or the store outside
``Run.run``.
"""

import json
import os
import sys

import hookhost_guest
from wit_world import exports
from wit_world.imports import exit as wasi_exit

TAG = "session-budget"
DEFAULT_MAX_CALLS = 100
REPORT_EVERY = 10


def budget():
    """The budget from ``MAX_CALLS``, or the default."""
    try:
        return max(0, int(os.environ.get("MAX_CALLS", DEFAULT_MAX_CALLS)))
    except ValueError:
        return DEFAULT_MAX_CALLS


def decide(event, bucket, limit):
    """The answer (a dict) to an event, counting it in ``bucket``."""
    if event.get("hook_event_name") != "BeforeTool":
        return {}
    key = f"calls:{event.get('session_id') or 'unknown'}"
    made = bucket.counter(key)
    if made >= limit:
        reason = f"{TAG}: {made} tool calls in this session; the budget is {limit}"
        hookhost_guest.log("info", TAG, f"blocked: call {made + 1}, budget {limit}")
        return {"decision": "block", "reason": reason}
    made = bucket.increment(key)
    hookhost_guest.log("debug", TAG, f"call {made} of {limit}")
    if made % REPORT_EVERY == 0:
        return {"systemMessage": f"{TAG}: {made} of {limit} tool calls used in this session"}
    return {}


def finish(code):
    """Flush and end the component with ``code`` (``sys.exit(2)`` would arrive
    as status 1 on WASI 0.2; see examples/python/README.md)."""
    sys.stdout.flush()
    sys.stderr.flush()
    wasi_exit.exit_with_code(code)


class Run(exports.Run):
    """The ``wasi:cli/run`` export: hookhost calls ``run`` once per event."""

    def run(self) -> None:
        try:
            event = json.loads(sys.stdin.read())
        except ValueError as error:
            print(f"{TAG}: input is not JSON: {error}", file=sys.stderr)
            finish(1)
            return
        try:
            answer = decide(event, hookhost_guest.open_bucket(""), budget())
        except hookhost_guest.StateError as error:
            # No grant (or a full store): fail open, saying why.
            print(f"{TAG}: {error}", file=sys.stderr)
            finish(1)
            return
        print(json.dumps(answer))
        finish(2 if answer.get("decision") == "block" else 0)
