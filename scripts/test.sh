#!/usr/bin/env bash
# README command 2: every test (the Python lint, the Rust workspace, then
# the Python package, the book's examples and its build included). Sets up
# .venv, builds, runs. Deep perft and long training are opt-in
# (docs/how-to/reliability.md).
#
# What keeps it short on 2 cores: the release profile has no LTO (its speed
# effect is on docs/benchmarks.md), each crate's integration tests are one
# binary (tests/it/), the build without libtorch reuses this target folder,
# the Python bindings are built once, as a wheel that both the .venv and
# the wheel test install (RAFLE_WHEEL), every build shares the crates of the
# first (crates/rafle-workspace-hack), the Rust build runs beside the rest of
# the .venv's installs and the lint (its output in target/test-logs/,
# printed whole where it fails), and the Python tests run on both cores
# (pytest -n 2).
set -euo pipefail
cd "$(dirname "$0")/.."
LOGS=target/test-logs
# Each part's wall time, on stderr as it ends.
took() { echo "-- $1: $SECONDS s since the start" >&2; }
trap 'kill $(jobs -p) 2>/dev/null || true' EXIT
bash scripts/setup.sh torch
. scripts/env.sh
mkdir -p "$LOGS"
echo "== Rust build, beside the rest of the .venv and the Python lint"
cargo test --release --no-run > "$LOGS/rust-build.log" 2>&1 &
build=$!
bash scripts/setup.sh
took setup
echo "== Python lint (ruff) and types (mypy)"
ruff check python tools
(cd python && mypy rafle)
took lint
if ! wait $build; then
    cat "$LOGS/rust-build.log"
    echo "error: the Rust build failed (log: $LOGS/rust-build.log)" >&2
    exit 1
fi
grep "Finished" "$LOGS/rust-build.log"
rm -rf target/wheels
(cd python && maturin build --release --quiet --out ../target/wheels) > "$LOGS/wheel.log" 2>&1 \
    || { cat "$LOGS/wheel.log"; exit 1; }
export RAFLE_WHEEL
RAFLE_WHEEL=$(ls "$PWD"/target/wheels/rafle-*.whl)
pip install --disable-pip-version-check -q --force-reinstall --no-deps "$RAFLE_WHEEL"
took "Rust build and Python package"
echo "== Rust tests"
cargo test --release
took "Rust tests"
echo "== Python tests"
python -m pytest -q -n 2 --dist loadfile python/tests
took "Python tests"
