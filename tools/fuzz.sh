#!/usr/bin/env bash
# The fuzz campaign (docs/how-to/reliability.md): every cargo-fuzz target of crates/rafle-props/fuzz/
# (or those named) for SECONDS each (default 60), one after the other at the
# lowest priority, growing fuzz/corpus/<target>/; a table of executions,
# time and crashes per target at the end. Crashes stay in
# fuzz/artifacts/<target>/ (replay one: cargo +nightly fuzz run TARGET FILE).
#
#   bash tools/fuzz.sh 60              # all targets, a minute each
#   bash tools/fuzz.sh 300 dxp_message # one target, five minutes
set -euo pipefail
cd "$(dirname "$0")/../crates/rafle-props/fuzz"
secs=${1:-60}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    mapfile -t targets < <(cargo +nightly fuzz list)
fi
# No sanitizer (rafle denies unsafe code; more executions), overflow checks on.
flags=(-s none -a)
cargo +nightly fuzz build "${flags[@]}" >/dev/null
log=$(mktemp -d)
for t in "${targets[@]}"; do
    nice -n 19 cargo +nightly fuzz run "${flags[@]}" "$t" -- \
        -max_total_time="$secs" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
        >"$log/$t" 2>&1 || true
done
printf '%-14s %12s %8s %8s %8s\n' target executions seconds crashes corpus
for t in "${targets[@]}"; do
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log/$t" | tail -1)
    time=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log/$t" | tail -1)
    crashes=$(ls artifacts/"$t" 2>/dev/null | wc -l)
    corpus=$(ls corpus/"$t" | wc -l)
    printf '%-14s %12s %8s %8s %8s\n' "$t" "${runs:-?}" "${time:-?}" "$crashes" "$corpus"
done
echo "logs: $log"
