// The policy itself: pure JavaScript, no I/O, so `node --test` can check it
// natively (policy.test.js) and policy.js can wrap it as a component.
//
// The same rules, in the same order and with the same reasons, as
// examples/python/app.py and examples/zig/policy.zig; only the tag differs.

// A copy of guest-sdk/js/hookhost-guest.js that build.sh makes (ComponentizeJS
// reads modules from this directory only).
import { downloadIntoShell, toolCall } from './hookhost-guest.js';

export const TAG = 'js-policy';
export const DEFAULT_DENY = '/etc:/usr:/bin:/boot';

// Python's str.split() whitespace, so "sudo" is found exactly where
// app.py finds it.
const WHITESPACE = /[\t\n\v\f\r\x1c-\x20\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/u;

/**
 * The block reason for an event, or null to allow it.
 * @param {object} event the hook input
 * @param {string} [deny] colon-separated protected prefixes
 */
export function decide(event, deny = DEFAULT_DENY) {
  const call = toolCall(event);
  if (call === null || event.hook_event_name !== 'BeforeTool') return null;
  const tool = call.name;
  const command = call.shellCommand();
  if (command !== null) {
    if (command.split(WHITESPACE).includes('sudo')) return `${TAG}: ${tool} may not use sudo`;
    // The guest helpers' shell parser (guest-sdk/js/hookhost-guest.js).
    const why = downloadIntoShell(command);
    if (why) return `${TAG}: ${why}`;
  }
  const prefixes = deny.split(':').filter((p) => p !== '').map((p) => p.replace(/\/+$/, ''));
  for (const text of call.strings()) {
    for (const prefix of prefixes) {
      if (text === prefix || text.startsWith(prefix + '/')) {
        return `${TAG}: ${tool} may not touch ${prefix}/ (${text})`;
      }
    }
  }
  return null;
}
