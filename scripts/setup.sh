#!/usr/bin/env bash
# Creates .venv with torch (for tch), maturin, numpy, pytest, the Gymnasium /
# PettingZoo stack, the RL libraries of the examples and MkDocs for the book
# (docs/). Idempotent: a second run only checks what is there. Every install
# honours python/constraints.txt, so nothing moves torch. Source
# scripts/env.sh afterwards. `setup.sh torch` stops once torch is there (all
# the Rust build needs: scripts/test.sh builds while the rest installs).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
pip() { .venv/bin/pip install --disable-pip-version-check -q -c python/constraints.txt "$@"; }
need() { ! .venv/bin/python -c "$1" >/dev/null 2>&1; }
TORCH=$(sed -n 's/^torch==//p' python/constraints.txt)
if need "import torch, sys; sys.exit(torch.__version__.split('+')[0] != '$TORCH')"; then
    pip "torch==$TORCH"
fi
[ "${1:-}" = torch ] && exit 0
if need "import maturin, numpy, pytest, xdist, gymnasium, pettingzoo, mypy, ruff, torchrl, tianshou, supersuit, safetensors, ray, draughts, hypothesis, selenium, mkdocs, mkdocstrings_handlers.python"; then
    pip -r python/requirements-dev.txt
fi
# The browser tests of rafle serve (python/tests/test_browser.py): Debian's
# headless Chromium and its driver, installed when missing (as root with
# apt); without them those tests skip.
if ! command -v chromium >/dev/null 2>&1 || ! command -v chromedriver >/dev/null 2>&1; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver
    else
        echo "setup: chromium/chromium-driver missing and not root: the browser tests will skip" >&2
    fi
fi
