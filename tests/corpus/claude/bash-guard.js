#!/usr/bin/env node
// PreToolUse(Bash): a JSON-answering guard (permissionDecision deny + reason,
// systemMessage for the user).
let raw = "";
process.stdin.on("data", (c) => (raw += c));
process.stdin.on("end", () => {
  const input = JSON.parse(raw);
  const cmd = (input.tool_input && input.tool_input.command) || "";
  if (/git\s+push\s+.*--force/.test(cmd)) {
    console.log(JSON.stringify({
      hookSpecificOutput: {
        hookEventName: "PreToolUse",
        permissionDecision: "deny",
        permissionDecisionReason: "force-push is forbidden (rule X)",
      },
      systemMessage: "rule X matched",
    }));
  }
  process.exit(0);
});
