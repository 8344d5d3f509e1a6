#!/usr/bin/env bash
# Trains, measures and ships the shipped model of a variant (docs/how-to/zoo.md):
#
#   tools/zoo.sh russian                  # configs/russian.toml for its run.time_limit_min
#   MINUTES=30 SEED=2 tools/zoo.sh frisian
#   LEVER=target-60min SHIP=0 MINUTES=60 SEED=2 tools/zoo.sh international  # measure, ship nothing
#
# Trains configs/V.toml (CONFIG=... for another) for MINUTES of wall time
# (default: the config's run.time_limit_min), places the final model on the
# variant's ladder at 64 and 256 simulations (GAMES games each, default
# 200), plays it at 256 simulations against alphabeta:4 (GAMES games),
# appends the 256-simulation placement to configs/results/V.tsv (lever
# LEVER, default "zoo"), ships it with its card (tools/ship_model.py: both placements,
# the score, budget, recipe, date, commit), renders the models table of
# README.md and docs/how-to/zoo.md (tools/zoo_table.py) and commits the
# model, its card, the row and the table at once (COMMIT=0: no commit;
# SHIP=0: measure only). Run it on a quiet machine: the budget is wall
# time. The run and reports land in runs/zoo-V. TRAIN=0 measures the
# shipped zoo:V again instead: the same placements and match, written to
# its card (ship_model.py --card), no results row.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -ne 1 ]; then
    sed -n '2,/^set /{/^#/p}' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
V=$1
CONFIG=${CONFIG:-configs/$V.toml}
[ -f "$CONFIG" ] || { echo "error: no config $CONFIG" >&2; exit 1; }
SEED=${SEED:-1} GAMES=${GAMES:-200} COMMIT=${COMMIT:-1} SHIP=${SHIP:-1} TRAIN=${TRAIN:-1} LEVER=${LEVER:-zoo}
. scripts/env.sh
BIN=${RAFLE:-target/release/rafle}
[ -x "$BIN" ] || cargo build --release -p rafle-zero
export RAFLE=$BIN  # results_row.py hashes the settings with it
# The settings CONFIG trains with, its bases merged (a bad config stops here).
SETTINGS=$("$BIN" config "$CONFIG")
[ "$(sed -n 's/^variant = "\(.*\)"/\1/p' <<< "$SETTINGS")" = "$V" ] \
    || { echo "error: $CONFIG does not train $V" >&2; exit 1; }
MINUTES=${MINUTES:-$(sed -n 's/^time_limit_min = \([0-9.]*\).*/\1/p' <<< "$SETTINGS")}
PY=${PY:-.venv/bin/python}
OUT=runs/zoo-$V
run=$OUT/run
mkdir -p "$OUT"

if [ "$TRAIN" = 1 ]; then
    echo "== $V: training $CONFIG for $MINUTES min (seed $SEED)"
    rm -rf "$run"
    ticks0=$(python3 tools/results_row.py --cpu-ticks)
    "$BIN" train --config "$CONFIG" --set run.seed="$SEED" --set run.out_dir="$run" \
        --time-limit-min "$MINUTES" --final-games 0 --quiet > "$OUT/train.log"
    ticks1=$(python3 tools/results_row.py --cpu-ticks)
    model=model:$run/latest.safetensors
else
    model=zoo:$V
fi
for sims in 64 256; do
    echo "== $V: ladder at $sims simulations"
    "$BIN" ladder --variant "$V" --player "$model:$sims" --games "$GAMES" --seed "$SEED" --quiet \
        | tee "$OUT/ladder$sims.txt"
done
echo "== $V: against alphabeta:4 at 256 simulations"
"$BIN" eval --variant "$V" --a "$model:256" --b alphabeta:4 --games "$GAMES" --seed "$SEED" --quiet \
    | tee "$OUT/vs-ab4.txt"

if [ "$TRAIN" != 1 ]; then
    card=python/rafle/zoo/$V.json
    "$PY" tools/ship_model.py --card "$V" \
        --ladder "64=$OUT/ladder64.txt" --ladder "256=$OUT/ladder256.txt" --vs "$OUT/vs-ab4.txt"
    python3 tools/zoo_table.py --write
    [ "$COMMIT" = 1 ] && git commit -q -m "zoo:$V measured again: $(sed -n 's/^elo //p' "$OUT/ladder256.txt") on the ladder at 256 simulations, $(sed -n 's/^elo //p' "$OUT/ladder64.txt") at 64" -- "$card" README.md docs/how-to/zoo.md
    exit 0
fi
RESULTS=configs/results/$V.tsv
python3 tools/results_row.py --run "$run" --ladder "$OUT/ladder256.txt" --config "$CONFIG" \
    --lever "$LEVER" --arm zoo --seed "$SEED" --budget "$MINUTES" --out "$RESULTS" \
    --ticks-before "$ticks0" --ticks-after "$ticks1" --note "tools/zoo.sh $V (MINUTES=$MINUTES SEED=$SEED GAMES=$GAMES); 64 simulations: $(sed -n 's/^elo //p' "$OUT/ladder64.txt")"
files=("$RESULTS")
if [ "$SHIP" = 1 ]; then
    "$PY" tools/ship_model.py "$run/latest.safetensors" --config "$CONFIG ($MINUTES min)" --budget "$MINUTES" \
        --ladder "64=$OUT/ladder64.txt" --ladder "256=$OUT/ladder256.txt" --vs "$OUT/vs-ab4.txt"
    python3 tools/zoo_table.py --write
    files+=("python/rafle/zoo/$V.safetensors" "python/rafle/zoo/$V.json" README.md docs/how-to/zoo.md)
fi
if [ "$COMMIT" = 1 ] && git rev-parse --git-dir >/dev/null 2>&1; then
    git add "${files[@]}"
    git commit -q -m "zoo:$V ($LEVER): $CONFIG for $MINUTES min, $(sed -n 's/^elo //p' "$OUT/ladder256.txt") on the ladder at 256 simulations" -- "${files[@]}"
fi
