#!/usr/bin/env bash
# The release archive: target/dist/hookhost-VERSION-TARGET.tar.gz (the static binary,
# LICENSE, README.md) and target/dist/SHA256SUMS. Reproducible: the same binary gives the
# same bytes (sorted names, fixed owners and times from SOURCE_DATE_EPOCH, gzip -n).
#   BIN=path   archive this binary instead of building it (scripts/build-dist.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
target=x86_64-unknown-linux-musl
version=$(sed -n 's/^version = "\(.*\)"/\1/p' Cargo.toml | head -n 1)
bin="${BIN:-$(./scripts/build-dist.sh "$target")}"
export SOURCE_DATE_EPOCH="${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || echo 0)}"
name="hookhost-$version-$target"
out=target/dist
stage="$out/$name"
rm -rf "$stage" && mkdir -p "$stage"
install -m 755 "$bin" "$stage/hookhost"
install -m 644 LICENSE README.md "$stage/"
tar --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner \
    --mode='u+rwX,go+rX,go-w' -C "$out" -cf - "$name" | gzip -n -9 > "$out/$name.tar.gz"
rm -rf "$stage"
(cd "$out" && sha256sum "$name.tar.gz" > SHA256SUMS && cat SHA256SUMS)
