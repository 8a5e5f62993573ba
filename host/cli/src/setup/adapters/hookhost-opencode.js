// Hands every tool call of opencode / Kilo CLI to `hookhost hook` as a Claude Code
// PreToolUse, and stops the call when hookhost denies it (the thrown message reaches
// the model). A hookhost that cannot be run is reported on stderr and the call goes
// ahead, unless HOOKHOST_FAIL_CLOSED=1.
import { spawnSync } from "node:child_process";

const HOOKHOST = process.env.HOOKHOST_BIN || "__HOOKHOST_BIN__";
const TOOLS = { bash: "Bash", write: "Write", edit: "Edit", read: "Read" };

function toolInput(tool, args) {
  const a = args || {};
  switch (tool) {
    case "bash":
      return { command: a.command, description: a.description };
    case "write":
      return { file_path: a.filePath ?? a.file_path, content: a.content };
    case "edit":
      return {
        file_path: a.filePath ?? a.file_path,
        old_string: a.oldString ?? a.old_string,
        new_string: a.newString ?? a.new_string,
      };
    case "read":
      return { file_path: a.filePath ?? a.file_path };
    default:
      return a;
  }
}

function applyUpdate(tool, args, updated) {
  if (!updated || typeof updated !== "object") return;
  const names = { file_path: "filePath", old_string: "oldString", new_string: "newString" };
  for (const [key, value] of Object.entries(updated)) {
    args[tool in TOOLS ? names[key] ?? key : key] = value;
  }
}

export const HookhostPlugin = async (ctx) => ({
  "tool.execute.before": async (input, output) => {
    const stdin = JSON.stringify({
      session_id: input.sessionID ?? "",
      transcript_path: "",
      cwd: ctx?.directory ?? process.cwd(),
      hook_event_name: "PreToolUse",
      permission_mode: "default",
      tool_name: TOOLS[input.tool] ?? input.tool,
      tool_input: toolInput(input.tool, output.args),
      tool_use_id: input.callID ?? "",
    });
    const run = spawnSync(HOOKHOST, ["hook"], {
      input: stdin,
      encoding: "utf8",
      timeout: 60000,
      env: { ...process.env, CLAUDE_PROJECT_DIR: ctx?.directory ?? process.cwd() },
    });
    const failed = (why) => {
      console.error(`hookhost: ${why}`);
      if (process.env.HOOKHOST_FAIL_CLOSED === "1") throw new Error(`hookhost: ${why}`);
    };
    if (run.error) return failed(`cannot run ${HOOKHOST}: ${run.error.message}`);
    if (run.status === 2) throw new Error((run.stderr || "blocked by hookhost").trim());
    if (run.status !== 0) return failed(`exited ${run.status}: ${(run.stderr || "").trim()}`);
    let answer = {};
    try {
      answer = JSON.parse(run.stdout || "{}");
    } catch {
      return failed(`answer is not JSON: ${run.stdout}`);
    }
    const specific = answer.hookSpecificOutput || {};
    if (specific.permissionDecision === "deny" || answer.decision === "block") {
      throw new Error(specific.permissionDecisionReason || answer.reason || "blocked by hookhost");
    }
    applyUpdate(input.tool, output.args, specific.updatedInput);
  },
});
