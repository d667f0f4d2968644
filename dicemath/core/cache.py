"""On-disk cache for heavy tables: computed once, written atomically, reused.

A table is stored under a key made of its name, the parameters that determine it (for a
game: its rules object) and the code version (the package version and a digest of its
source), so a change to either rebuilds it. Files
are written to a temporary name in the same folder and moved into place with
:func:`os.replace`, so a reader never sees half a file.

The folder is ``$DICEMATH_CACHE_DIR`` if set, else ``~/.cache/dicemath``.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from dicemath._version import __version__


def cache_dir() -> Path:
    """The folder holding cached tables (created on first use)."""
    root = os.environ.get("DICEMATH_CACHE_DIR")
    path = Path(root) if root else Path.home() / ".cache" / "dicemath"
    path.mkdir(parents=True, exist_ok=True)
    return path


@lru_cache(maxsize=1)
def code_version() -> str:
    """The package version plus a digest of every source file of the package.

    Any change to the code changes this, so a cached table never outlives the code that
    computed it.
    """
    digest = hashlib.sha256(__version__.encode())
    package = Path(__file__).resolve().parent.parent
    for source in sorted(package.rglob("*.py")):
        digest.update(str(source.relative_to(package)).encode())
        digest.update(source.read_bytes())
    return f"{__version__}+{digest.hexdigest()[:12]}"


def cache_key(name: str, params: Any) -> str:
    """A file-name-safe key for ``name`` with ``params`` (their ``repr``) and the code version."""
    digest = hashlib.sha256(f"{code_version()}|{params!r}".encode()).hexdigest()[:16]
    return f"{name}-{digest}"


def _atomic_write(path: Path, write: Callable[[Any], None]) -> None:
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            write(stream)
        os.replace(temporary, path)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def cached_arrays(name: str, params: Any, build: Callable[[], dict[str, np.ndarray]],
                  *, use_cache: bool = True) -> dict[str, np.ndarray]:
    """Load the arrays of table ``name`` for ``params``, building and saving them if absent.

    Args:
        name: what the table is, e.g. ``"backgammon-one-sided-bearoff"``.
        params: everything the table depends on besides the code (a rules object...);
            its ``repr`` enters the key.
        build: computes the table as a dict of numpy arrays.
        use_cache: False computes afresh and neither reads nor writes the cache.
    """
    if not use_cache:
        return build()
    path = cache_dir() / f"{cache_key(name, params)}.npz"
    if path.exists():
        with np.load(path, allow_pickle=False) as data:
            return {key: data[key] for key in data.files}
    arrays = build()
    _atomic_write(path, lambda stream: np.savez(stream, **arrays))
    return arrays


def cached_object(name: str, params: Any, build: Callable[[], Any], *, use_cache: bool = True) -> Any:
    """Like :func:`cached_arrays` for any picklable object (written by this package only)."""
    if not use_cache:
        return build()
    path = cache_dir() / f"{cache_key(name, params)}.pickle"
    if path.exists():
        with open(path, "rb") as stream:
            return pickle.load(stream)
    value = build()
    _atomic_write(path, lambda stream: pickle.dump(value, stream, protocol=pickle.HIGHEST_PROTOCOL))
    return value
