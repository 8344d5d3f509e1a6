"""Files replaced whole, as the Rust side writes them (``rafle_core::atomic``):
written to ``.tmp-NAME`` in the same folder, flushed to disk, then renamed
over ``NAME``, so a kill at any moment leaves the old file or the new one."""

import os
from pathlib import Path
from typing import Callable, Union

PathLike = Union[str, "os.PathLike[str]"]


def temp_path(path: PathLike) -> Path:
    """The temporary name of ``path`` while it is written."""
    path = Path(path)
    return path.with_name(".tmp-" + path.name)


def replace(path: PathLike, write: Callable[[Path], object]) -> None:
    """Replaces ``path`` by what ``write`` writes to the temporary path it is given."""
    path = Path(path)
    tmp = temp_path(path)
    try:
        write(tmp)
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def write_text(path: PathLike, text: str) -> None:
    """Replaces ``path`` by ``text``."""
    replace(path, lambda tmp: tmp.write_text(text))
