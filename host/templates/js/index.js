// `{{name}}` as a hookhost plugin: a WASI 0.2 component built with
// ComponentizeJS against wit/ (world hookhost:plugin/hook). The rules are in
// policy.js.
//
// WASI imports are ES modules ('wasi:cli/stdin@0.2.12', …): streams are
// resources with methods, and an error `result` is thrown. ComponentizeJS
// runs the top level once at build time, so stdin and the environment are
// read inside `run` only.

import { getStdin } from 'wasi:cli/stdin@0.2.12';
import { getStdout } from 'wasi:cli/stdout@0.2.12';
import { getStderr } from 'wasi:cli/stderr@0.2.12';
import { getEnvironment } from 'wasi:cli/environment@0.2.12';
import { exitWithCode } from 'wasi:cli/exit@0.2.12';

import { DEFAULT_DENY, TAG, decide } from './policy.js';

/** All of stdin as text; `blocking-read` throws `closed` at end of input. */
function readStdin() {
  const stdin = getStdin();
  const chunks = [];
  for (;;) {
    try {
      chunks.push(stdin.blockingRead(65536n));
    } catch (e) {
      if (e?.payload?.tag === 'closed') break;
      throw e;
    }
  }
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return new TextDecoder().decode(all);
}

/** Writes text to an output stream, at most 4096 bytes per blocking write. */
function write(stream, text) {
  const bytes = new TextEncoder().encode(text);
  for (let at = 0; at < bytes.length; at += 4096) {
    stream.blockingWriteAndFlush(bytes.subarray(at, at + 4096));
  }
}

function main() {
  let event;
  try {
    event = JSON.parse(readStdin());
  } catch (e) {
    write(getStderr(), `${TAG}: input is not JSON: ${e}\n`);
    return exitWithCode(1);
  }
  const env = new Map(getEnvironment());
  const reason = decide(event, env.get('DENY_PREFIXES') ?? DEFAULT_DENY);
  if (reason === null) {
    write(getStdout(), '{}\n');
    return exitWithCode(0);
  }
  write(getStdout(), JSON.stringify({ decision: 'block', reason }) + '\n');
  // exit-with-code(2) is a block; wasi:cli/exit.exit(err) would arrive as 1.
  return exitWithCode(2);
}

// The `wasi:cli/run` export.
export const run = { run: main };
