#!/usr/bin/env bash
# README command 2: every test (Rust workspace, then Python, the book's
# examples and its build included). Sets up .venv, builds, runs. Deep perft
# and long training are opt-in (docs/how-to/reliability.md).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
. scripts/env.sh
echo "== Rust tests"
cargo test --release
echo "== Python package"
(cd python && maturin develop --release --quiet)
echo "== Python tests"
python -m pytest -q python/tests
