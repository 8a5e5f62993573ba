#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 60) with cargo-fuzz (nightly), then
# minimises its corpus back into fuzz/corpus/<target>. Prints the number of executions
# per target at the end. A crash stops the script with libFuzzer's report; minimise it
# (`cargo +nightly fuzz tmin <target> <artifact>`), save it under
# fuzz/regressions/<target>/ (tests/all/fuzz_corpus.rs replays it on stable).
#
#   scripts/fuzz.sh [SECONDS]          e.g. scripts/fuzz.sh 120
#   FUZZ_TARGETS="matcher settings" scripts/fuzz.sh 30
#
# Needs: rustup toolchain nightly, `cargo install cargo-fuzz --locked`.
set -euo pipefail
cd "$(dirname "$0")/../fuzz"
seconds="${1:-60}"
targets="${FUZZ_TARGETS:-hook_output settings matcher aggregate serve_request dialect}"
# No sanitizer: hookhost has no unsafe code (and the targets reach none of its
# dependencies' unsafe code that ASan would add anything to); coverage-guided
# fuzzing with debug assertions is what finds panics and broken properties.
sanitizer="${FUZZ_SANITIZER:-none}"

cargo +nightly fuzz build -s "$sanitizer"
summary=()
for target in $targets; do
    mkdir -p "corpus/$target" "regressions/$target"
    work="$(mktemp -d)"
    log="$work/fuzz.log"
    echo "== $target: ${seconds}s"
    # New inputs go to a scratch dir; the checked-in corpus stays read-only seed input
    # until the minimisation below.
    if ! cargo +nightly fuzz run -s "$sanitizer" "$target" "$work" "corpus/$target" \
        -- -max_total_time="$seconds" -print_final_stats=1 2>"$log"; then
        tail -n 60 "$log"
        echo "fuzz.sh: $target FAILED; the input is in fuzz/artifacts/$target/" >&2
        exit 1
    fi
    runs="$(grep -h 'stat::number_of_executed_units' "$log" | awk '{s += $2} END {print s + 0}')"
    summary+=("$target: $runs executions in ${seconds}s")
    # Minimise: a set cover of the edges reached by the old corpus and the new inputs
    # (edges only, not hit counts, so the checked-in corpus stays a few hundred files).
    min="$(mktemp -d)"
    "target/x86_64-unknown-linux-gnu/release/$target" -set_cover_merge=1 -use_counters=0 \
        "$min" "corpus/$target" "$work" \
        >/dev/null 2>&1 || true
    if [ -n "$(ls -A "$min")" ]; then
        rm -f "corpus/$target"/*
        cp "$min"/* "corpus/$target/"
    fi
    echo "   $(ls "corpus/$target" | wc -l) inputs in fuzz/corpus/$target"
    rm -rf "$work" "$min"
done
printf '%s\n' "${summary[@]}"
