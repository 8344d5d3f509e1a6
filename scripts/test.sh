#!/usr/bin/env bash
# README command 2: every test (the Python lint, the Rust workspace, then
# the Python package, the book's examples and its build included). Sets up
# .venv, builds, runs. Deep perft and long training are opt-in
# (docs/how-to/reliability.md).
#
# What keeps it short on 2 cores: the release profile has no LTO (its speed
# effect is on docs/benchmarks.md), each crate's integration tests are one
# binary (tests/it/), the build without libtorch reuses this target folder,
# and the Python bindings are built once, as a wheel that both the .venv
# and the wheel test install (RAFLE_WHEEL).
set -euo pipefail
cd "$(dirname "$0")/.."
# Each part's wall time, on stderr as it ends.
took() { echo "-- $1: $SECONDS s since the start" >&2; }
bash scripts/setup.sh
. scripts/env.sh
took setup
echo "== Python lint (ruff) and types (mypy)"
ruff check python tools
(cd python && mypy rafle)
took lint
echo "== Rust tests"
cargo test --release
took "Rust tests"
echo "== Python package"
rm -rf target/wheels
(cd python && maturin build --release --quiet --out ../target/wheels)
export RAFLE_WHEEL
RAFLE_WHEEL=$(ls "$PWD"/target/wheels/rafle-*.whl)
pip install --disable-pip-version-check -q --force-reinstall --no-deps "$RAFLE_WHEEL"
took "Python package"
echo "== Python tests"
python -m pytest -q python/tests
took "Python tests"
