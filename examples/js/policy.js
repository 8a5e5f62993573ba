// A hookhost BeforeTool policy in JavaScript, compiled to a WASI 0.2
// component with ComponentizeJS (StarlingMonkey) against wit/ world
// hookhost:plugin/hook. The rules are in decide.js.
//
// The component's WASI imports are ES modules: the runtime resolves
// 'wasi:cli/stdin@0.2.12' & co. to the host's functions. Streams are
// resources with methods; a `result` error is thrown as an exception.
//
// Nothing at the top level may read stdin or the environment:
// ComponentizeJS runs the module once at build time (Wizer pre-initialisation)
// and snapshots it; `run` is what runs per event.

import { getStdin } from 'wasi:cli/stdin@0.2.12';
import { getStdout } from 'wasi:cli/stdout@0.2.12';
import { getStderr } from 'wasi:cli/stderr@0.2.12';
import { getEnvironment } from 'wasi:cli/environment@0.2.12';
import { exitWithCode } from 'wasi:cli/exit@0.2.12';

import { DEFAULT_DENY, TAG, decide } from './decide.js';

/** All of stdin, as text. `blocking-read` throws `closed` at end of input. */
function readStdin() {
  const stdin = getStdin();
  const chunks = [];
  let size = 0;
  for (;;) {
    let chunk;
    try {
      chunk = stdin.blockingRead(65536n);
    } catch (e) {
      if (e?.payload?.tag === 'closed') break;
      throw e;
    }
    chunks.push(chunk);
    size += chunk.length;
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return new TextDecoder().decode(all);
}

/** Writes text to an output stream (at most 4096 bytes per blocking write). */
function write(stream, text) {
  const bytes = new TextEncoder().encode(text);
  for (let at = 0; at < bytes.length; at += 4096) {
    stream.blockingWriteAndFlush(bytes.subarray(at, at + 4096));
  }
}

/**
 * Ends the hook with `code`. `exit-with-code(2)` is what makes a block a
 * block: `wasi:cli/exit.exit(err)` would reach the host as 1 (a failed hook).
 */
function finish(code) {
  exitWithCode(code);
}

function main() {
  let event;
  try {
    event = JSON.parse(readStdin());
  } catch (e) {
    write(getStderr(), `${TAG}: input is not JSON: ${e}\n`);
    return finish(1);
  }
  const env = new Map(getEnvironment());
  const reason = decide(event, env.get('DENY_PREFIXES') ?? DEFAULT_DENY);
  if (reason === null) {
    write(getStdout(), '{}\n');
    return finish(0);
  }
  write(getStdout(), JSON.stringify({ decision: 'block', reason }) + '\n');
  return finish(2);
}

// The `wasi:cli/run` export.
export const run = { run: main };
