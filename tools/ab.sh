#!/usr/bin/env bash
# The A/B protocol (docs/how-to/evaluation.md, "The ladder"): is config B stronger than config A?
#
#   STAGE=screen tools/ab.sh configs/thai.toml configs/results/thai/net-depth.toml   # 3 seeds an arm, 5 min each
#   STAGE=confirm tools/ab.sh configs/A.toml configs/B.toml    # 3 seeds an arm, 14 minutes each
#   K=5 MINUTES=30 GAMES=200 LEVER=teacher OUT=runs/ab tools/ab.sh A.toml B.toml
#   RAFLE_A=/path/to/old/rafle LEVER=allocator tools/ab.sh thai.toml thai.toml
#
# An arm is a config file; an experiment's arm is an overlay beside its
# results (configs/results/V/LEVER.toml: `base = "../../V.toml"` and what
# it changes, crates/rafle-train/src/overlay.rs). Trains each config K times
# (rafle train --set run.seed=1..K --set run.out_dir=OUT/SIDE-seedN; the
# arms alternate, A B A B), one run at a time, each for MINUTES of wall time
# (rafle train --time-limit-min), places every final model
# on the variant's ladder (rafle ladder, GAMES games, seeded by the run's seed),
# appends its row to the variant's results file (configs/results/V.tsv,
# tools/results_row.py: LEVER names the lever, default B's file name) and
# commits that file at once (COMMIT=0: no commit), so an interruption loses at
# most the run in progress; a run whose row is already there (same settings,
# hashed from `rafle config FILE`, lever, arm, seed, budget and machine:
# results_row.py --config-sha, --machine) is
# not run again (RERUN="B3 A1" runs those sides and seeds again: the newer row
# is the one counted, the older stays in the file), and a row of another
# machine is not counted. Each row records the share of CPU time the host
# stole while the run trained (steal_pct, warned of above results_row.py's
# STEAL_WARN: on a virtual machine a busy host shortens a wall budget as
# other load would). It prints each
# placement and the mean Elo difference B - A with its 95% interval (Welch's t
# over the K Elos of each side, which holds the training noise and the
# placement noise together; with K = 1 the two placements' own intervals).
# A lever that is code, not a setting, is one config and two builds:
# RAFLE_A and RAFLE_B name the binary each arm trains with (default RAFLE,
# target/release/rafle; each must know `rafle train --set`, 2026-12-07 on);
# every model is placed with RAFLE's ladder, and the note names the binaries. A_LEVER files A's rows under another lever's name
# (default LEVER), so that A/Bs of one baseline share its runs: with
# A_LEVER=egtb, an eval-cadence A/B against configs/thai.toml takes the A
# runs of the egtb A/B (same config, seed and budget) and adds its own.
# Run it on a quiet machine: wall-clock budgets mean that other load changes
# the result (it warns when the load is above half the cores). The runs and
# ladder reports land in OUT.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -ne 2 ]; then
    sed -n '2,/^set /{/^#/p}' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
A=$1 B=$2
case "${STAGE:-}" in
    screen) K=${K:-3} MINUTES=${MINUTES:-5} ;;
    confirm) K=${K:-3} MINUTES=${MINUTES:-14} ;;
    "") ;;
    *) echo "error: STAGE is screen or confirm, not $STAGE" >&2; exit 2 ;;
esac
K=${K:-3} MINUTES=${MINUTES:-30} GAMES=${GAMES:-200} OUT=${OUT:-runs/ab}
LEVER=${LEVER:-$(basename "$B" .toml)} COMMIT=${COMMIT:-1}
A_LEVER=${A_LEVER:-$LEVER}
for f in "$A" "$B"; do
    [ -f "$f" ] || { echo "error: no config $f" >&2; exit 1; }
done
. scripts/env.sh
BIN=${RAFLE:-target/release/rafle}
[ -x "$BIN" ] || cargo build --release -p rafle-zero
BIN_A=${RAFLE_A:-$BIN} BIN_B=${RAFLE_B:-$BIN}
for b in "$BIN_A" "$BIN_B"; do
    [ -x "$b" ] || { echo "error: no rafle binary $b" >&2; exit 1; }
done
# The variant a config trains, its bases merged (a bad config stops here).
variant_of() { "$BIN" config "$1" | sed -n 's/^variant = "\(.*\)"/\1/p'; }
V=$(variant_of "$A")
[ "$V" = "$(variant_of "$B")" ] || { echo "error: $A and $B train different variants" >&2; exit 1; }
NOTE=${NOTE:-tools/ab.sh $A $B, GAMES=$GAMES}
if [ "$BIN_A" != "$BIN" ] || [ "$BIN_B" != "$BIN" ]; then
    NOTE="$NOTE; A trains with $BIN_A, B with $BIN_B"
fi
mkdir -p "$OUT"
load=$(cut -d' ' -f1 /proc/loadavg)
if awk -v l="$load" -v c="$(nproc)" 'BEGIN { exit !(l > c / 2) }'; then
    echo "warning: load average $load on $(nproc) cores: wall-clock budgets will be unequal" >&2
fi

RESULTS=${RESULTS:-configs/results/$V.tsv}
# Wall-clock budgets give other runs on another CPU: rows count on theirs.
MACHINE=$(python3 tools/results_row.py --machine)
echo "machine: $MACHINE"
export RAFLE=$BIN
sha() { python3 tools/results_row.py --config-sha "$1"; }
# The Elo, lo and hi of a row already in the results file for this run
# (config $1, arm $2, seed $3, lever $4) on this machine, if any.
recorded() {
    [ -f "$RESULTS" ] || return 0
    awk -F'\t' -v sha="$(sha "$1")" -v lever="$4" -v arm="$2" -v seed="$3" -v budget="$MINUTES" -v machine="$MACHINE" \
        'NR > 1 && $4 == sha && $5 == lever && $6 == arm && $7 == seed && $8 + 0 == budget + 0 && $17 == machine { r = $12 "\t" $13 "\t" $14 } END { if (r) print r }' "$RESULTS"
}

printf 'side\tseed\telo\tlo\thi\n' > "$OUT/results.tsv"
# Seed by seed, A then B (A B A B ...): drift in the machine's speed falls on
# both arms alike.
for seed in $(seq 1 "$K"); do
    for side in A B; do
        cfg=$A train=$BIN_A lever=$A_LEVER
        [ "$side" = B ] && cfg=$B train=$BIN_B lever=$LEVER
        run="$OUT/$side-seed$seed"
        done_row=$(recorded "$cfg" "$side" "$seed" "$lever")
        if [ -n "$done_row" ] && [[ " ${RERUN:-} " == *" $side$seed "* ]]; then
            echo "== $side ($cfg), seed $seed: in $RESULTS, running again (RERUN)"
            done_row=
        fi
        if [ -n "$done_row" ]; then
            echo "== $side ($cfg), seed $seed: already in $RESULTS"
            printf '%s\t%s\t%s\n' "$side" "$seed" "$done_row" >> "$OUT/results.tsv"
            continue
        fi
        echo "== $side ($cfg), seed $seed: training for $MINUTES min"
        rm -rf "$run"
        ticks0=$(python3 tools/results_row.py --cpu-ticks)
        "$train" train --config "$cfg" --set run.seed="$seed" --set run.out_dir="$run" \
            --time-limit-min "$MINUTES" --final-games 0 --quiet > "$run.train.log"
        ticks1=$(python3 tools/results_row.py --cpu-ticks)
        "$BIN" ladder --variant "$V" --player "model:$run/latest.safetensors" --games "$GAMES" \
            --seed "$seed" --quiet | tee "$run.ladder.txt"
        sed -n 's/^elo \(-\{0,1\}[0-9]*\) \[\(-\{0,1\}[0-9]*\), \(-\{0,1\}[0-9]*\)\]$/\1\t\2\t\3/p' "$run.ladder.txt" \
            | sed "s/^/$side\t$seed\t/" >> "$OUT/results.tsv"
        python3 tools/results_row.py --run "$run" --ladder "$run.ladder.txt" --config "$cfg" \
            --lever "$lever" --arm "$side" --seed "$seed" --budget "$MINUTES" --out "$RESULTS" \
            --note "$NOTE" --ticks-before "$ticks0" --ticks-after "$ticks1"
        if [ "$COMMIT" = 1 ] && git rev-parse --git-dir >/dev/null 2>&1; then
            git add "$RESULTS"
            git commit -q -m "results: $V $lever $side seed $seed ($MINUTES min): $(sed -n 's/^elo //p' "$run.ladder.txt")" -- "$RESULTS"
        fi
    done
done

python3 - "$OUT/results.tsv" <<'EOF'
import math, statistics, sys
rows = [l.split("\t") for l in open(sys.argv[1]).read().split("\n")[1:] if l.strip()]
elo = {s: [float(r[2]) for r in rows if r[0] == s] for s in "AB"}
half = {s: [(float(r[4]) - float(r[3])) / 2 for r in rows if r[0] == s] for s in "AB"}
# Two-sided 95% t quantiles by degrees of freedom (normal beyond 30).
T = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
     2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]
for s in "AB":
    print(f"{s}: " + ", ".join(f"{e:.0f}" for e in elo[s]) + f"  mean {statistics.mean(elo[s]):.0f}")
d = statistics.mean(elo["B"]) - statistics.mean(elo["A"])
if min(len(elo["A"]), len(elo["B"])) >= 2:
    va, vb = (statistics.variance(elo[s]) / len(elo[s]) for s in "AB")
    se = math.sqrt(va + vb)
    df = (va + vb) ** 2 / ((va ** 2 / (len(elo["A"]) - 1) + vb ** 2 / (len(elo["B"]) - 1)) or 1e-12)
    t = T[min(max(int(df), 1), 30) - 1] if df < 30 else 1.96
    how = f"Welch t, {df:.1f} degrees of freedom"
else:
    se, t = math.sqrt(sum((h[0] / 1.96) ** 2 for h in half.values())), 1.96
    how = "one run a side: the placements' own intervals"
print(f"B - A: {d:+.0f} Elo [{d - t * se:+.0f}, {d + t * se:+.0f}] (95%, {how})")
EOF
