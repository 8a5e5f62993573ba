#!/usr/bin/env python3
"""A small policy hook for the agent end-to-end suite.

    policy.py MODE DIR [ARG]

Reads the hook input on stdin, appends {mode, event, tool_name, tool_input} to DIR/calls.jsonl
and answers according to MODE, in the dialect of the event it was given (Claude / Codex
`PreToolUse`, Gemini `BeforeTool`, …):

    probe     dump stdin and the environment's variable names to DIR/probe-EVENT.json, allow
    allow     exit 0, no output
    allowjson an explicit allow (Claude: permissionDecision "allow")
    deny2     exit 2, the reason on stderr
    denyjson  exit 0, a JSON deny with the reason
    denyflat  exit 0, {"permissionDecision": "deny", "permissionDecisionReason": …} (Copilot
              CLI's own format, whose input has no hook_event_name)
    rewrite   allow with the tool input's command replaced by ARG
    denyif    a JSON deny with DENYIF_REASON if the tool input holds ARG, else allow (exit 0)
    context   additionalContext ARG
    stop      the first time (DIR/stopped absent): block the stop with reason ARG
    sysmsg    exit 0, {"systemMessage": ARG}
    fail1     exit 1, ARG on stderr
    fail2     exit 2, ARG on stderr
"""

import json
import os
import sys

DENY_REASON = "POLICY-DENY: shell commands are not allowed by policy.py"
DENYIF_REASON = "POLICY-DENYIF-5b9e: this command is forbidden by the user's hookhost settings"


def main():
    mode, out_dir = sys.argv[1], sys.argv[2]
    arg = sys.argv[3] if len(sys.argv) > 3 else ""
    raw = sys.stdin.read()
    try:
        data = json.loads(raw)
    except ValueError:
        data = {"_unparsed": raw}
    event = data.get("hook_event_name", "")
    with open(os.path.join(out_dir, "calls.jsonl"), "a") as f:
        # Copilot CLI's own format: toolName / toolArgs
        f.write(json.dumps({"mode": mode, "event": event,
                            "tool_name": data.get("tool_name", data.get("toolName")),
                            "tool_input": data.get("tool_input", data.get("toolArgs"))}) + "\n")

    gemini = event in ("BeforeTool", "AfterTool", "BeforeAgent", "AfterAgent", "BeforeModel")

    def say(obj):
        sys.stdout.write(json.dumps(obj))
        sys.exit(0)

    if mode == "probe":
        with open(os.path.join(out_dir, f"probe-{event or 'unknown'}.json"), "w") as f:
            json.dump({"stdin": data, "env": sorted(os.environ), "argv": sys.argv,
                       "cwd": os.getcwd(),
                       "env_values": {k: v for k, v in os.environ.items()
                                      if any(s in k for s in ("PROJECT", "CODEX", "CLAUDE", "AI_AGENT",
                                                              "GEMINI", "HOOK", "LLXPRT"))}},
                      f, indent=1, sort_keys=True)
        sys.exit(0)
    if mode == "allow":
        sys.exit(0)
    if mode == "allowjson":
        say({"hookSpecificOutput": {"hookEventName": event, "permissionDecision": "allow",
                                    "permissionDecisionReason": "policy.py allows everything"}})
    if mode == "deny2":
        sys.stderr.write(arg or DENY_REASON)
        sys.exit(2)
    if mode == "denyjson":
        reason = arg or DENY_REASON
        if gemini:
            say({"decision": "deny", "reason": reason})
        say({"hookSpecificOutput": {"hookEventName": event, "permissionDecision": "deny",
                                    "permissionDecisionReason": reason}})
    if mode == "denyif":
        if arg not in json.dumps(data.get("tool_input", data.get("toolArgs"))):
            sys.exit(0)
        if gemini:
            say({"decision": "deny", "reason": DENYIF_REASON})
        say({"hookSpecificOutput": {"hookEventName": event, "permissionDecision": "deny",
                                    "permissionDecisionReason": DENYIF_REASON}})
    if mode == "denyflat":
        say({"permissionDecision": "deny", "permissionDecisionReason": arg or DENY_REASON})
    if mode == "rewrite":
        new_input = dict(data.get("tool_input") or {})
        new_input["command"] = arg
        if gemini:
            say({"hookSpecificOutput": {"hookEventName": event, "tool_input": new_input}})
        say({"hookSpecificOutput": {"hookEventName": event, "permissionDecision": "allow",
                                    "updatedInput": new_input}})
    if mode == "context":
        say({"hookSpecificOutput": {"hookEventName": event, "additionalContext": arg}})
    if mode == "stop":
        flag = os.path.join(out_dir, "stopped")
        if os.path.exists(flag):
            sys.exit(0)
        open(flag, "w").close()
        if gemini:
            say({"decision": "deny", "reason": arg})
        say({"decision": "block", "reason": arg})
    if mode == "sysmsg":
        say({"systemMessage": arg})
    if mode == "fail1":
        sys.stderr.write(arg)
        sys.exit(1)
    if mode == "fail2":
        sys.stderr.write(arg)
        sys.exit(2)
    sys.stderr.write(f"policy.py: unknown mode {mode}")
    sys.exit(1)


if __name__ == "__main__":
    main()
