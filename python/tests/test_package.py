"""The package imports without its optional dependencies."""

from __future__ import annotations

import subprocess
import sys


def test_import_without_gymnasium_pettingzoo_torch() -> None:
    code = (
        "import sys\n"
        "for m in ('gymnasium', 'pettingzoo', 'torch'): sys.modules[m] = None\n"
        "import rafle\n"
        "rafle.VecEnv('thai', num_envs=2).step([int(a) for a in rafle.VecEnv('thai', num_envs=2).sample_legal_actions()])\n"
        "try:\n"
        "    import rafle.gym\n"
        "except ImportError:\n"
        "    print('adapter needs gymnasium')\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert "adapter needs gymnasium" in run.stdout
