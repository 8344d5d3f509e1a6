#!/usr/bin/env bash
# README command 1, the main job: set up (.venv with torch for tch), build,
# train by self-play on configs/thai.toml (or the config given as $1), and
# print the final evaluation (a placement on the variant's ladder: the games
# against each rung played and `ladder elo E [lo, hi]`).
# The run folder (checkpoints, metrics.csv, plots/) is the config's run.out_dir;
# a killed run continues with: target/release/rafle train --resume runs/thai
set -euo pipefail
cd "$(dirname "$0")/.."
CONFIG=${1:-configs/thai.toml}
bash scripts/setup.sh
. scripts/env.sh
cargo build --release -p rafle-zero
OUT=$(target/release/rafle config "$CONFIG" | sed -n 's/^out_dir = "\(.*\)"/\1/p')
time target/release/rafle train --config "$CONFIG"
echo "plots: $OUT/plots/   model: $OUT/latest.safetensors"
echo "play it: target/release/rafle eval --variant thai --model $OUT/latest.safetensors --vs alphabeta:2 --games 20"
