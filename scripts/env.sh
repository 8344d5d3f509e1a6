# Source this (". scripts/env.sh") before cargo: tch finds libtorch through
# the project's virtual environment, and programs find it at run time.
_rafle_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export VIRTUAL_ENV="$_rafle_root/.venv"
export PATH="$VIRTUAL_ENV/bin:$PATH"
export LIBTORCH_USE_PYTORCH=1
_torch_lib="$(ls -d "$VIRTUAL_ENV"/lib/python3*/site-packages/torch/lib 2>/dev/null | head -1)"
if [ -n "$_torch_lib" ]; then
    export LD_LIBRARY_PATH="$_torch_lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
fi
unset _rafle_root _torch_lib
