#!/usr/bin/env bash
# Creates .venv with torch (for tch), maturin, numpy and pytest. Idempotent:
# a second run only checks what is there. Source scripts/env.sh afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
    "$PY" -m venv .venv
fi
need() { ! .venv/bin/python -c "$1" >/dev/null 2>&1; }
if need "import torch, sys; sys.exit(torch.__version__.split('+')[0] != '2.13.0')"; then
    .venv/bin/pip install --disable-pip-version-check -q torch==2.13.0
fi
if need "import maturin, numpy, pytest, gymnasium, pettingzoo, mypy, safetensors"; then
    .venv/bin/pip install --disable-pip-version-check -q -r python/requirements-dev.txt
fi
