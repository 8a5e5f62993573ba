"""`{{name}}` as a hookhost plugin: a WASI 0.2 component built with componentize-py.

The rules are in policy.py. componentize-py imports this module at build time
(pre-initialisation), so nothing at the top level may read stdin or the
environment: that happens in ``Run.run``, once per event.
"""

import json
import os
import sys

from wit_world import exports
from wit_world.imports import exit as wasi_exit

import policy


def finish(code):
    """Flush and end the hook with ``code``.

    ``sys.exit(2)`` would reach the host as status 1 (``wasi:cli/exit.exit(err)``,
    a failed hook); ``exit-with-code`` carries the 2 that means "block".
    """
    sys.stdout.flush()
    sys.stderr.flush()
    wasi_exit.exit_with_code(code)


class Run(exports.Run):
    """The ``wasi:cli/run`` export."""

    def run(self) -> None:
        try:
            event = json.loads(sys.stdin.read())
        except ValueError as error:
            print(f"{policy.TAG}: input is not JSON: {error}", file=sys.stderr)
            finish(1)
            return
        reason = policy.decide(event, os.environ.get("DENY_PREFIXES", policy.DEFAULT_DENY))
        if reason is None:
            print("{}")
            finish(0)
        else:
            print(json.dumps({"decision": "block", "reason": reason}))
            finish(2)
