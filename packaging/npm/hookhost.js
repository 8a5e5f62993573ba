#!/usr/bin/env node
// The `hookhost` command of the npm package: runs the platform package's static
// binary (@hookhost/linux-x64, …), installed beside this one as an optional
// dependency, as Codex's and Claude Code's npm packages do. No download, no network.
"use strict";
const { spawnSync } = require("node:child_process");
const path = require("node:path");

const platforms = { "linux-x64": "@hookhost/linux-x64", "linux-arm64": "@hookhost/linux-arm64" };
const key = `${process.platform}-${process.arch}`;
const pkg = platforms[key];
if (!pkg) {
  console.error(`hookhost: no build for ${key} (there are: ${Object.keys(platforms).join(", ")}); build from source: cargo install hookhost-cli`);
  process.exit(1);
}
let binary;
try {
  binary = path.join(path.dirname(require.resolve(`${pkg}/package.json`)), "bin", "hookhost");
} catch {
  console.error(`hookhost: the platform package ${pkg} is not installed (npm install -g ${pkg}, or reinstall hookhost without --no-optional)`);
  process.exit(1);
}
// HOOKHOST_LAUNCHER: this process is a step of the binary's own, so that a
// `hookhost hook` run as a hook of hookhost still knows it (host/cli/src/nested.rs).
const env = { ...process.env, HOOKHOST_LAUNCHER: String(process.pid) };
const run = spawnSync(binary, process.argv.slice(2), { stdio: "inherit", env });
if (run.error) {
  console.error(`hookhost: cannot run ${binary}: ${run.error.message}`);
  process.exit(1);
}
if (run.signal) {
  process.kill(process.pid, run.signal);
}
process.exit(run.status ?? 1);
