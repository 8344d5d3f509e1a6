#!/usr/bin/env bash
# Trains, measures and ships the learned evaluation of a variant
# (docs/how-to/learned-eval.md):
#
#   tools/eval_zoo.sh thai                  # configs/eval/thai.toml for its run.time_limit_min
#   SEED=1 LEVER=eval-net SHIP=0 tools/eval_zoo.sh thai -- --set model.design=net
#
# Trains configs/eval/V.toml (CONFIG=... for another; arguments after `--`
# go to rafle train-eval, e.g. --set) into runs/eval-zoo-V/run (a run
# folder that holds a run already resumes), then measures the evaluation at
# the config's check.depth D: against alphabeta:D (GAMES games, default 400
# for thai and international, 200 otherwise), against the hand-written
# evaluation at TIME a move both (default 0.02s), and its place on the
# variant's ladder (LADDER_GAMES, default 200). Appends the run's row to
# configs/results/V.tsv (lever LEVER, default eval-<design>), ships the
# file and its card (tools/ship_eval.py: python/rafle/zoo/eval/V.safetensors
# and V.json), renders the evaluations table of README.md and
# docs/how-to/learned-eval.md, and commits them (COMMIT=0: no commit;
# SHIP=0: measure only). TRAIN=0 RUN=DIR measures and ships the finished
# run in DIR (an A/B arm) instead of training one (ROW=0: no results row,
# where the arm has its row already); TRAIN=0 alone measures
# the shipped eval=zoo again and rewrites its card. Run it on a quiet
# machine: the budget is wall time.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ $# -lt 1 ]; then
    sed -n '2,/^set /{/^#/p}' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
V=$1
shift
[ "${1:-}" = "--" ] && shift
CONFIG=${CONFIG:-configs/eval/$V.toml}
[ -f "$CONFIG" ] || { echo "error: no config $CONFIG" >&2; exit 1; }
SEED=${SEED:-0} ROW=${ROW:-1} COMMIT=${COMMIT:-1} SHIP=${SHIP:-1} TRAIN=${TRAIN:-1} TIME=${TIME:-0.02s}
case $V in thai|international) GAMES=${GAMES:-400} ;; *) GAMES=${GAMES:-200} ;; esac
LADDER_GAMES=${LADDER_GAMES:-200}
. scripts/env.sh
BIN=${RAFLE:-target/release/rafle}
[ -x "$BIN" ] || cargo build --release -p rafle-zero
export RAFLE=$BIN
SETTINGS=$("$BIN" config "$CONFIG" "$@")
[ "$(sed -n 's/^variant = "\(.*\)"/\1/p' <<< "$SETTINGS")" = "$V" ] \
    || { echo "error: $CONFIG does not train $V" >&2; exit 1; }
MINUTES=$(sed -n 's/^time_limit_min = \([0-9.]*\).*/\1/p' <<< "$SETTINGS")
DESIGN=$(sed -n 's/^design = "\(.*\)"/\1/p' <<< "$SETTINGS")
D=$(sed -n '/^\[check\]/,/^\[/s/^depth = \([0-9]*\)/\1/p' <<< "$SETTINGS")
LEVER=${LEVER:-eval-$DESIGN}
OUT=runs/eval-zoo-$V
run=${RUN:-$OUT/run}
mkdir -p "$OUT"
ticks0="" ticks1=""

if [ "$TRAIN" = 1 ]; then
    ticks0=$(python3 tools/results_row.py --cpu-ticks)
    if [ -f "$run/state.json" ]; then
        echo "== $V: resuming $run"
        "$BIN" train-eval --resume "$run" --quiet | tee -a "$OUT/train.log"
    else
        echo "== $V: training $CONFIG ($DESIGN) for $MINUTES min, seed $SEED"
        "$BIN" train-eval --config "$CONFIG" --set run.seed="$SEED" --set run.out_dir="$run" "$@" --quiet \
            | tee "$OUT/train.log"
    fi
    ticks1=$(python3 tools/results_row.py --cpu-ticks)
    file=$run/eval.safetensors
elif [ -n "${RUN:-}" ]; then
    file=$run/eval.safetensors
    MINUTES=$(python3 -c "import json,sys; print(round(json.load(open(sys.argv[1]))['minutes'], 1))" "$run/state.json")
else
    file=zoo
fi
echo "== $V: against alphabeta:$D"
"$BIN" eval --variant "$V" --a "alphabeta:d=$D,eval=$file" --b "alphabeta:$D" --games "$GAMES" --seed 1 --quiet \
    | tee "$OUT/vs-depth.txt"
echo "== $V: against the hand-written evaluation at $TIME a move"
"$BIN" eval --variant "$V" --a "alphabeta:t=$TIME,eval=$file" --b "alphabeta:t=$TIME" --games "$GAMES" --seed 1 --quiet \
    | tee "$OUT/vs-time.txt"
echo "== $V: ladder"
"$BIN" ladder --variant "$V" --player "alphabeta:d=$D,eval=$file" --games "$LADDER_GAMES" --seed 1 --quiet \
    | tee "$OUT/ladder.txt"

reports=(--vs-depth "$OUT/vs-depth.txt" --vs-time "$OUT/vs-time.txt" --ladder "$OUT/ladder.txt")
if [ "$TRAIN" != 1 ] && [ -z "${RUN:-}" ]; then
    python3 tools/ship_eval.py --card "$V" "${reports[@]}"
    python3 tools/ship_eval.py --table --write
    [ "$COMMIT" = 1 ] && git commit -q -m "eval=zoo of $V measured again: $(sed -n 's/^elo //p' "$OUT/ladder.txt") on the ladder" \
        -- "python/rafle/zoo/eval/$V.json" README.md docs/how-to/learned-eval.md
    exit 0
fi
RESULTS=configs/results/$V.tsv
files=()
score() { awk 'NR == 3 { print $5 }' "$1"; }  # player A's score: the first player row
pair() { sed -n 's/.*pair-based Elo \(.*\)$/\1/p' "$1"; }
[ "$ROW" = 1 ] && python3 tools/results_row.py --run "$run" --ladder "$OUT/ladder.txt" --config "$CONFIG" \
    --lever "$LEVER" --arm "$DESIGN" --seed "$SEED" --budget "$MINUTES" --out "$RESULTS" \
    ${ticks0:+--ticks-before "$ticks0" --ticks-after "$ticks1"} \
    --note "tools/eval_zoo.sh $V $*; ladder of alphabeta:d=$D,eval=FILE; vs alphabeta:$D $(score "$OUT/vs-depth.txt") over $GAMES games (pair Elo $(pair "$OUT/vs-depth.txt")); at t=$TIME $(score "$OUT/vs-time.txt") (pair Elo $(pair "$OUT/vs-time.txt"))"
[ "$ROW" = 1 ] && files+=("$RESULTS")
if [ "$SHIP" = 1 ]; then
    python3 tools/ship_eval.py "$run" --config "$CONFIG" "${reports[@]}"
    python3 tools/ship_eval.py --table --write
    files+=("python/rafle/zoo/eval/$V.safetensors" "python/rafle/zoo/eval/$V.json" README.md docs/how-to/learned-eval.md)
fi
if [ "$COMMIT" = 1 ]; then
    git add "${files[@]}"
    git commit -q -m "eval $V ($DESIGN, $MINUTES min): $(sed -n 's/^elo //p' "$OUT/ladder.txt") on the ladder, $(score "$OUT/vs-depth.txt") against alphabeta:$D" -- "${files[@]}"
fi
