// The policy of `{{name}}`: plain JavaScript, no WASI, so `node --test` can
// run it natively (policy.test.js) and index.js can wrap it as a component.
//
// It blocks BeforeTool calls that touch protected system directories (any
// string in tool_input under a prefix of `deny`, colon-separated, default
// /etc:/usr:/bin:/boot), shell commands that use `sudo`, and shell commands
// that run a download as code (`curl … | sh`: hookhost-guest.js's parser).

import { downloadIntoShell, toolCall } from './hookhost-guest.js';

export const TAG = '{{name}}';
export const DEFAULT_DENY = '/etc:/usr:/bin:/boot';

/** The block reason for an event, or null to allow it. */
export function decide(event, deny = DEFAULT_DENY) {
  const call = toolCall(event);
  if (call === null || event.hook_event_name !== 'BeforeTool') return null;
  // shellCommand() reads run_shell_command (LLxprt, Gemini CLI) and Bash (Claude Code).
  const command = call.shellCommand();
  if (command !== null) {
    if (command.split(/\s+/).includes('sudo')) return `${TAG}: ${call.name} may not use sudo`;
    const why = downloadIntoShell(command);
    if (why) return `${TAG}: ${why}`;
  }
  const prefixes = deny.split(':').filter((p) => p !== '').map((p) => p.replace(/\/+$/, ''));
  for (const text of call.strings()) {
    for (const prefix of prefixes) {
      if (text === prefix || text.startsWith(prefix + '/')) {
        return `${TAG}: ${call.name} may not touch ${prefix}/ (${text})`;
      }
    }
  }
  return null;
}
