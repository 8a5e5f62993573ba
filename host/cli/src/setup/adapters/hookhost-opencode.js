// hookhost for opencode and Kilo CLI, which have no command hooks, only JavaScript plugins.
//
// Before each tool call, `tool.execute.before` hands the call to `hookhost hook` as a Claude Code
// PreToolUse (opencode's `bash`/`write`/`edit`/`read` become `Bash`/`Write`/`Edit`/`Read` with
// Claude's argument names; other tools keep their own name and arguments) and:
//   * a deny (stdout `hookSpecificOutput.permissionDecision: "deny"`, or a top-level
//     `decision: "block"`/`"deny"`, or exit 2 with the reason on stderr) throws an Error with
//     the reason: opencode stops the tool and the model gets the message as the tool's result;
//   * `hookSpecificOutput.updatedInput` is merged into the call's arguments (opencode's names),
//     in place — opencode runs the tool with the object it passed as `output.args`;
//   * a `systemMessage` is printed on stderr.
// A hookhost that cannot be run (not found, killed, timed out after 60 s, exit other than 0 or
// 2, an answer that is not JSON) is reported on stderr and the call goes ahead — unless
// HOOKHOST_FAIL_CLOSED=1, when it is denied naming the cause.
//
// Installed as a user-level plugin: $XDG_CONFIG_HOME/opencode/plugin/ (default ~/.config/…),
// or for Kilo $XDG_CONFIG_HOME/kilo/plugin/; opencode loads every `{plugin,plugins}/*.{js,ts}`
// there and calls every function the module exports, so this file exports exactly one.
// HOOKHOST_BIN in the environment overrides the path `hookhost setup` writes below.
import { spawnSync } from "node:child_process";

const HOOKHOST = process.env.HOOKHOST_BIN || "__HOOKHOST_BIN__";
const TIMEOUT_MS = 60000;

// opencode tool → Claude tool, and opencode argument name → Claude argument name
const TOOLS = {
  bash: { name: "Bash", args: {} },
  write: { name: "Write", args: { filePath: "file_path" } },
  edit: {
    name: "Edit",
    args: { filePath: "file_path", oldString: "old_string", newString: "new_string", replaceAll: "replace_all" },
  },
  read: { name: "Read", args: { filePath: "file_path" } },
};

function rename(obj, names) {
  const out = {};
  for (const [key, value] of Object.entries(obj || {})) out[names[key] ?? key] = value;
  return out;
}

function invert(names) {
  return Object.fromEntries(Object.entries(names).map(([a, b]) => [b, a]));
}

function fail(why) {
  const message = `hookhost: ${why}`;
  if (process.env.HOOKHOST_FAIL_CLOSED === "1") throw new Error(`${message} (HOOKHOST_FAIL_CLOSED=1: denied)`);
  console.error(`${message} (failing open: the tool call goes ahead)`);
}

export const HookhostPlugin = async (ctx) => {
  const cwd = (ctx && ctx.directory) || process.cwd();
  return {
    "tool.execute.before": async (input, output) => {
      const tool = TOOLS[input.tool];
      const args = (output && output.args) || {};
      const stdin = JSON.stringify({
        session_id: input.sessionID ?? "",
        transcript_path: "",
        cwd,
        hook_event_name: "PreToolUse",
        tool_name: tool ? tool.name : input.tool,
        tool_input: tool ? rename(args, tool.args) : args,
        tool_use_id: input.callID ?? "",
      });
      const run = spawnSync(HOOKHOST, ["hook"], {
        input: stdin,
        encoding: "utf8",
        timeout: TIMEOUT_MS,
        cwd,
        env: process.env,
        maxBuffer: 16 * 1024 * 1024,
      });
      if (run.error) {
        const timedOut = run.error.code === "ETIMEDOUT";
        return fail(timedOut ? `${HOOKHOST} hook timed out after ${TIMEOUT_MS / 1000} s`
                             : `cannot run ${HOOKHOST}: ${run.error.message}`);
      }
      const stderr = (run.stderr || "").trim();
      const stdout = (run.stdout || "").trim();
      if (run.status === 2) {
        let reason = stderr;
        try {
          const a = JSON.parse(stdout);
          reason = a.reason || (a.hookSpecificOutput && a.hookSpecificOutput.permissionDecisionReason) || reason;
        } catch {}
        throw new Error(reason || "blocked by hookhost");
      }
      if (run.status !== 0) {
        return fail(`${HOOKHOST} hook ${run.signal ? `was killed (${run.signal})` : `exited ${run.status}`}` +
                    (stderr ? `: ${stderr}` : ""));
      }
      if (stdout === "") return;
      let answer;
      try {
        answer = JSON.parse(stdout);
      } catch {
        return fail(`answer is not JSON: ${stdout.slice(0, 500)}`);
      }
      if (!answer || typeof answer !== "object") return fail(`answer is not a JSON object: ${stdout.slice(0, 500)}`);
      if (answer.systemMessage) console.error(String(answer.systemMessage));
      const specific = answer.hookSpecificOutput || {};
      if (specific.permissionDecision === "deny" || answer.decision === "block" || answer.decision === "deny") {
        throw new Error(specific.permissionDecisionReason || answer.reason || "blocked by hookhost");
      }
      if (answer.continue === false) {
        throw new Error(answer.stopReason || answer.reason || "stopped by hookhost");
      }
      const updated = specific.updatedInput;
      if (updated && typeof updated === "object" && output && output.args) {
        Object.assign(output.args, tool ? rename(updated, invert(tool.args)) : updated);
      }
    },
  };
};
