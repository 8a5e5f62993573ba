#!/usr/bin/env bash
# npm packages in Codex's layout, written to target/npm/*.tgz: `hookhost` (a launcher,
# packaging/npm/hookhost.js, that runs the platform package's binary; no post-install
# download) and one platform package per target built here (`@hookhost/linux-x64`),
# the static binary inside. Then, on a machine with only Node.js:
#   npm install -g --prefix DIR target/npm/*.tgz && DIR/bin/hookhost setup --dry-run
#   BIN=path   package this binary instead of building it (scripts/build-dist.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
bin="${BIN:-$(./scripts/build-dist.sh x86_64-unknown-linux-musl)}"
out=target/npm
rm -rf "$out" && mkdir -p "$out/stage"
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}"

platform="$out/stage/linux-x64"
mkdir -p "$platform/bin"
cp "$bin" "$platform/bin/hookhost"
chmod 755 "$platform/bin/hookhost"
cp LICENSE "$platform/"
cat > "$platform/package.json" <<JSON
{
  "name": "@hookhost/linux-x64",
  "version": "$version",
  "description": "hookhost's static binary for Linux x64 (installed by the hookhost package)",
  "license": "Apache-2.0",
  "os": ["linux"],
  "cpu": ["x64"],
  "files": ["bin/hookhost", "LICENSE"]
}
JSON

main="$out/stage/hookhost"
mkdir -p "$main/bin"
cp packaging/npm/hookhost.js "$main/bin/hookhost.js"
chmod 755 "$main/bin/hookhost.js"
cp LICENSE README.md "$main/"
cat > "$main/package.json" <<JSON
{
  "name": "hookhost",
  "version": "$version",
  "description": "Run AI coding agents' hooks: shell commands, sandboxed Wasm policies and builtin guards",
  "license": "Apache-2.0",
  "bin": { "hookhost": "bin/hookhost.js" },
  "files": ["bin/hookhost.js", "README.md", "LICENSE"],
  "engines": { "node": ">=18" },
  "optionalDependencies": { "@hookhost/linux-x64": "$version" }
}
JSON
for dir in "$platform" "$main"; do
  (cd "$dir" && npm pack --silent --pack-destination "$OLDPWD/$out" >/dev/null)
done
rm -rf "$out/stage"
ls -l "$out"/*.tgz
