// The policy of `{{name}}`: plain JavaScript, no WASI, so `node --test` can
// run it natively (policy.test.js) and index.js can wrap it as a component.
//
// It blocks BeforeTool calls that touch protected system directories (any
// string in tool_input under a prefix of `deny`, colon-separated, default
// /etc:/usr:/bin:/boot) and shell commands that use `sudo`.

export const TAG = '{{name}}';
export const DEFAULT_DENY = '/etc:/usr:/bin:/boot';

/** Every string inside a JSON value, depth first. */
function* strings(value) {
  if (typeof value === 'string') {
    yield value;
  } else if (Array.isArray(value)) {
    for (const item of value) yield* strings(item);
  } else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) yield* strings(item);
  }
}

/** The block reason for an event, or null to allow it. */
export function decide(event, deny = DEFAULT_DENY) {
  if (event === null || typeof event !== 'object' || event.hook_event_name !== 'BeforeTool') {
    return null;
  }
  const tool = typeof event.tool_name === 'string' ? event.tool_name : '';
  const toolInput = event.tool_input || {};
  if (tool === 'run_shell_command' && typeof toolInput.command === 'string') {
    if (toolInput.command.split(/\s+/).includes('sudo')) {
      return `${TAG}: ${tool} may not use sudo`;
    }
  }
  const prefixes = deny.split(':').filter((p) => p !== '').map((p) => p.replace(/\/+$/, ''));
  for (const text of strings(toolInput)) {
    for (const prefix of prefixes) {
      if (text === prefix || text.startsWith(prefix + '/')) {
        return `${TAG}: ${tool} may not touch ${prefix}/ (${text})`;
      }
    }
  }
  return null;
}
