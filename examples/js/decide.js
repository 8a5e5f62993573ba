// The policy itself: pure JavaScript, no I/O, so `node --test` can check it
// natively (policy.test.js) and policy.js can wrap it as a component.
//
// The same rules, in the same order and with the same reasons, as
// examples/python/app.py and examples/zig/policy.zig; only the tag differs.

export const TAG = 'js-policy';
export const DEFAULT_DENY = '/etc:/usr:/bin:/boot';

// Python's str.split() whitespace, so "sudo" is found exactly where
// app.py finds it.
const WHITESPACE = /[\t\n\v\f\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u;

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

/**
 * The block reason for an event, or null to allow it.
 * @param {object} event the hook input
 * @param {string} [deny] colon-separated protected prefixes
 */
export function decide(event, deny = DEFAULT_DENY) {
  if (event === null || typeof event !== 'object' || event.hook_event_name !== 'BeforeTool') {
    return null;
  }
  const tool = typeof event.tool_name === 'string' ? event.tool_name : '';
  const toolInput = event.tool_input || {}; // Python's `or {}`
  if (tool === 'run_shell_command' && typeof toolInput.command === 'string') {
    if (toolInput.command.split(WHITESPACE).includes('sudo')) {
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
