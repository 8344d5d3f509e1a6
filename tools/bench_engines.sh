#!/usr/bin/env bash
# The same match in-process, through Hub and through DXP: alphabeta:2
# (in-process, seeded by the arena) against rafle's international model
# playing its policy (zoo:international:0, which draws nothing at random), so
# the three runs must give the same games; prints W/D/L, games per minute
# and whether the PDN move lists agree.
#
#   bash tools/bench_engines.sh [GAMES] [B] [CONCURRENCY]
#       (default 100 games, B = zoo:international:0, 1 engine game at a time)
#
# The in-process network side batches the leaves of all games; from 16
# leaves on, a CPU with fast bf16 evaluates them in bf16 while the engine
# (one game per process) stays in f32: with 16 or more games in flight the
# games may then differ. Below that they must be the same.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/env.sh
games=${1:-100}
b=${2:-zoo:international:0}
conc=${3:-1}
rafle=target/release/rafle
out=$(mktemp -d)
trap 'kill "${dxp_pid:-0}" 2>/dev/null || true; rm -rf "$out"' EXIT

"$rafle" dxp --listen 0 --player "$b" 2>"$out/dxp.log" &
dxp_pid=$!
for _ in $(seq 100); do grep -q listening "$out/dxp.log" 2>/dev/null && break; sleep 0.1; done
addr=$(grep -o '127.0.0.1:[0-9]*' "$out/dxp.log")

run() { # name, spec of B
    local t0 t1
    t0=$(date +%s.%N)
    "$rafle" eval --variant international --a alphabeta:2 --b "$2" --games "$games" \
        --quiet --pdn "$out/$1.pdn" --engine-timeout 30 --engine-concurrency "$conc" >"$out/$1.txt"
    t1=$(date +%s.%N)
    local wdl
    wdl=$(awk 'NR==3 {print $2 "/" $3 "/" $4}' "$out/$1.txt")
    # The moves of every game, names and tags aside.
    grep -v '^\[' "$out/$1.pdn" >"$out/$1.moves"
    printf '| %-10s | %-9s | %7.1f s | %8.1f |\n' "$1" "$wdl" "$(echo "$t1 - $t0" | bc)" \
        "$(echo "60 * $games / ($t1 - $t0)" | bc -l)"
}

echo "alphabeta:2 against $b, $games international games, $conc engine game(s) at a time"
echo "| path       | W/D/L (A) | wall      | games/min |"
echo "|---|---|---|---|"
run in-process "$b"
run hub "hub:$rafle hub --player $b"
run dxp "dxp:$addr"
for pair in in-process:hub in-process:dxp hub:dxp; do
    x=${pair%%:*} y=${pair##*:}
    differ=$(python3 - "$out/$x.moves" "$out/$y.moves" <<'PY'
import sys
games = [[g for g in open(f).read().split("\n\n") if g.strip()] for f in sys.argv[1:]]
print(sum(a != b for a, b in zip(*games)) + abs(len(games[0]) - len(games[1])))
PY
)
    echo "$x and $y: $differ of $games games differ"
done
