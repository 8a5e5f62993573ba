// A hookhost client for Node.js agents: one long-lived `hookhost serve` process,
// JSON Lines over its stdin/stdout, a correlation id per request, and a promise per
// request that resolves when its response arrives — in whatever order they do.
//
//   import { HookhostClient } from './hookhost-client.mjs';
//   const hooks = new HookhostClient({ projectDir: process.cwd() });
//   const result = await hooks.fire('BeforeTool', { tool_name: 'write_file', tool_input: { path } });
//   if (result.finalOutput.decision === 'block' || result.finalOutput.decision === 'deny') { … }
//   await hooks.close();
//
// `fire` resolves with the aggregated result (CONTRACT §1: success, finalOutput,
// allOutputs, errors, totalDuration) and rejects with an Error carrying `code` when the
// server answers with an error (INVALID_JSON, UNKNOWN_EVENT, …) or exits.
//
// Run as a script for a quick check: node hookhost-client.mjs EVENT '<input JSON>'
// (HOOKHOST_BIN, HOOKHOST_PROJECT_DIR and HOOKHOST_SETTINGS set the binary, project
// dir and settings file).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

export class HookhostClient {
  /**
   * @param {object} [options]
   * @param {string} [options.bin] the hookhost binary (default: `hookhost` on PATH)
   * @param {string} [options.projectDir] --project-dir
   * @param {string[]} [options.settings] --settings files (default: discovery)
   * @param {object} [options.env] environment of the server (default: this process's)
   */
  constructor({ bin = 'hookhost', projectDir, settings = [], env } = {}) {
    const args = ['serve'];
    if (projectDir) args.push('--project-dir', projectDir);
    for (const file of settings) args.push('--settings', file);
    this.pending = new Map();
    this.nextId = 1;
    this.exited = null;
    this.child = spawn(bin, args, { stdio: ['pipe', 'pipe', 'inherit'], env: env ?? process.env });
    this.child.stdin.on('error', () => {}); // EPIPE after an exit is reported via `exit`
    const lines = createInterface({ input: this.child.stdout, crlfDelay: Infinity });
    lines.on('line', (line) => this.#onLine(line));
    this.closed = new Promise((resolve) => {
      this.child.on('exit', (code, signal) => {
        this.exited = { code, signal };
        const error = new Error(`hookhost serve exited (${signal ?? code})`);
        error.code = 'SERVER_EXITED';
        for (const { reject } of this.pending.values()) reject(error);
        this.pending.clear();
        resolve(this.exited);
      });
    });
    this.child.on('error', (err) => {
      for (const { reject } of this.pending.values()) reject(err);
      this.pending.clear();
    });
  }

  /** Fires `eventName` with `input`; resolves with the aggregated result. */
  fire(eventName, input = {}) {
    return this.request({ eventName, input });
  }

  /** Sends a raw request object (a correlationId is added); resolves with `output`. */
  request(request) {
    if (this.exited) return Promise.reject(new Error('hookhost serve has exited'));
    const correlationId = `req-${this.nextId++}`;
    return new Promise((resolve, reject) => {
      this.pending.set(correlationId, { resolve, reject });
      this.child.stdin.write(JSON.stringify({ ...request, correlationId }) + '\n');
    });
  }

  /** Writes one raw line (for tests of malformed input); errors without id are emitted. */
  sendRaw(line) {
    this.child.stdin.write(line.endsWith('\n') ? line : line + '\n');
  }

  /** Responses to lines that had no readable correlationId. */
  onUncorrelated = (response) => {
    process.emitWarning(`hookhost: ${response.error?.code}: ${response.error?.message}`);
  };

  /** Closes stdin: the server finishes in-flight requests, then exits 0. */
  async close() {
    this.child.stdin.end();
    return this.closed;
  }

  #onLine(line) {
    let response;
    try {
      response = JSON.parse(line);
    } catch {
      return; // not a response line; the server only writes JSON, so this is noise
    }
    const waiter = this.pending.get(response.correlationId);
    if (!waiter) {
      this.onUncorrelated(response);
      return;
    }
    this.pending.delete(response.correlationId);
    if (response.success) {
      waiter.resolve(response.output);
    } else {
      const error = new Error(response.error?.message ?? 'hookhost request failed');
      error.code = response.error?.code;
      waiter.reject(error);
    }
  }
}

// Script mode: fire one event and print the result.
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [eventName = 'BeforeTool', inputText = '{}'] = process.argv.slice(2);
  const client = new HookhostClient({
    bin: process.env.HOOKHOST_BIN ?? 'hookhost',
    projectDir: process.env.HOOKHOST_PROJECT_DIR,
    settings: process.env.HOOKHOST_SETTINGS ? [process.env.HOOKHOST_SETTINGS] : [],
  });
  try {
    console.log(JSON.stringify(await client.fire(eventName, JSON.parse(inputText))));
  } finally {
    await client.close();
  }
}
