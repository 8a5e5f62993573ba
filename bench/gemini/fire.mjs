// Fires BeforeTool through @google/gemini-cli-core's own HookSystem (the reference
// implementation) with one command hook, N times, in this Node process, and prints
// the per-fire latency as JSON: {"name", "unit": "us", "n", "median", "p90", ...}.
//
// usage: node fire.mjs <node_modules dir> <hook command> <project dir> [runs]
//
// The package's Config is a large class wired to the whole CLI; the hook system uses
// a handful of its methods, so a small stand-in provides exactly those (a Proxy
// answers `undefined` for anything else, and records what was asked for).
import { pathToFileURL } from 'node:url';
import path from 'node:path';

const [modules, command, projectDir, runsArg] = process.argv.slice(2);
const runs = Number(runsArg ?? 300);
// The package logs every fire through console.debug/log; the CLI patches the console
// so that this goes nowhere unless in debug mode. Do the same.
const print = (line) => process.stdout.write(line + '\n');
for (const k of ['log', 'debug', 'info', 'warn']) console[k] = () => {};
const core = path.join(modules, '@google/gemini-cli-core/dist/src/hooks/hookSystem.js');
const { HookSystem } = await import(pathToFileURL(core).href);

const hooks = {
  BeforeTool: [{ matcher: 'write_file', hooks: [{ type: 'command', command, timeout: 60000 }] }],
};
const asked = new Set();
const known = {
  getSessionId: () => 'bench-session',
  getWorkingDir: () => projectDir,
  getProjectRoot: () => projectDir,
  getTargetDir: () => projectDir,
  isTrustedFolder: () => true,
  getHooks: () => hooks,
  getProjectHooks: () => undefined,
  getExtensions: () => [],
  getDisabledHooks: () => [],
  getEnableHooks: () => true,
  getTelemetryEnabled: () => false,
  getUsageStatisticsEnabled: () => false,
  getDebugMode: () => false,
  sanitizationConfig: { enableEnvironmentVariableRedaction: false },
  storage: { getPlansDir: () => path.join(projectDir, '.gemini', 'plans') },
  geminiClient: undefined,
};
const config = new Proxy(known, {
  get(target, prop) {
    if (prop === 'config') return config;
    if (prop in target) return target[prop];
    if (typeof prop === 'string' && prop !== 'then') asked.add(prop);
    return typeof prop === 'string' && prop.startsWith('get') ? () => undefined : undefined;
  },
});

const system = new HookSystem(config);
await system.initialize();
const handler = system.getEventHandler();
const toolInput = {
  path: '/home/dev/project/src/server/handlers/session.rs',
  content: 'pub fn handle(req: Request) -> Response {\n    Response::ok(req.body())\n}\n',
};
const blockInput = { ...toolInput, path: '/etc/ssh/sshd_config.d/50-cloud-init.conf.bak.2024' };

// Sanity: the policy answers as expected through the reference implementation.
const allowed = await handler.fireBeforeToolEvent('write_file', toolInput);
const blocked = await handler.fireBeforeToolEvent('write_file', blockInput);
const decision = (r) => r?.finalOutput?.decision ?? r?.decision;
if (!allowed || decision(allowed) === 'block' || decision(blocked) !== 'block') {
  console.error('unexpected answers', JSON.stringify(allowed), JSON.stringify(blocked));
  process.exit(1);
}
for (let i = 0; i < 10; i++) await handler.fireBeforeToolEvent('write_file', toolInput);
const samples = [];
for (let i = 0; i < runs; i++) {
  const start = process.hrtime.bigint();
  await handler.fireBeforeToolEvent('write_file', toolInput);
  samples.push(Number(process.hrtime.bigint() - start) / 1000);
}
samples.sort((a, b) => a - b);
const pick = (q) => samples[Math.round((samples.length - 1) * q)];
print(JSON.stringify({
  name: 'gemini-cli-core HookSystem: 1 sh command hook, allow',
  unit: 'us', n: runs, median: pick(0.5), p90: pick(0.9), min: samples[0],
  mean: samples.reduce((a, b) => a + b, 0) / runs,
  node: process.version, configMethodsAskedFor: [...asked].sort(),
}));
