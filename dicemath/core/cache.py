"""On-disk cache for heavy tables: computed once, written atomically, reused.

A table is stored under a key made of its name, its format version and the parameters
that determine it (for a game: its rules object), :func:`cache_key`. The format version is
a constant beside the table's builder, changed on purpose when the computation or the layout
of the table changes: a new version is a new key, so a table built by older code is never
read (it is built again, and the new file replaces the old one), while an edit that leaves
the computation alone (a docstring, a release) keeps every user's tables. Files are written
to a temporary name in the same folder and moved into place with :func:`os.replace`, so a
reader never sees half a file.

The folder is ``$DICEMATH_CACHE_DIR`` if set, else ``~/.cache/dicemath``. Each table written
here is noted in the folder's ``index.json`` (what it is, its format version, its parameters,
how long it took to build); :func:`cache_entries` lists what the folder holds and
:func:`clear_cache` removes all or part of it (``dicemath cache``).
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import shutil
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

import numpy as np
from numpy.typing import NDArray

from dicemath.core.table_store import FORMAT_KEY, MANIFEST, TableError, read_manifest


def cache_dir() -> Path:
    """The folder holding cached tables (created on first use)."""
    root = os.environ.get("DICEMATH_CACHE_DIR")
    path = Path(root) if root else Path.home() / ".cache" / "dicemath"
    path.mkdir(parents=True, exist_ok=True)
    return path


PACKAGE_ROOT = Path(__file__).resolve().parent.parent


def cache_key(name: str, params: Any, format_version: int) -> str:
    """A file-name-safe key for table ``name`` of format ``format_version`` built for ``params``.

    The key is ``name``, a dash and 16 hex digits of a SHA-256 of the format version and the
    ``repr`` of ``params``: nothing else (no source file, no package version) enters it.

    Raises:
        ValueError: ``format_version`` is not a positive int.

    Example:
        >>> cache_key("demo", (1, 2), 1) == cache_key("demo", (1, 2), 1) != cache_key("demo", (1, 2), 2)
        True
        >>> cache_key("demo", (1, 2), 1).startswith("demo-")
        True
    """
    if isinstance(format_version, bool) or not isinstance(format_version, int) or format_version < 1:
        raise ValueError(f"the format version of table {name!r} must be a positive int, not {format_version!r}")
    digest = hashlib.sha256(f"{format_version}|{params!r}".encode()).hexdigest()[:16]
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


def cached_arrays(name: str, params: Any, build: Callable[[], dict[str, NDArray[Any]]],
                  *, format_version: int, use_cache: bool = True) -> dict[str, NDArray[Any]]:
    """Load the arrays of table ``name`` for ``params``, building and saving them if absent.

    Args:
        name: what the table is, e.g. ``"backgammon-one-sided-bearoff"``.
        params: everything the table depends on besides its code (a rules object...);
            its ``repr`` enters the key.
        build: computes the table as a dict of numpy arrays.
        format_version: the table's format version (a constant beside ``build``, changed when
            the computation or the layout of the table changes); it enters the key.
        use_cache: False computes afresh and neither reads nor writes the cache.

    Raises:
        ValueError: ``format_version`` is not a positive int.
    """
    if not use_cache:
        return build()
    path = cache_dir() / f"{cache_key(name, params, format_version)}.npz"
    if path.exists():
        with np.load(path, allow_pickle=False) as data:
            return {key: data[key] for key in data.files}
    start = time.perf_counter()
    with _announced(name, params) as built:
        arrays = build()
    # numpy's stubs let ``**kwds`` stand for ``allow_pickle: bool`` too: the names here are array names
    named = cast(dict[str, Any], arrays)
    _atomic_write(path, lambda stream: np.savez(stream, **named))
    _note(path, name, format_version, params, time.perf_counter() - start)
    built(path.stat().st_size, time.perf_counter() - start)
    return arrays


def cached_object(name: str, params: Any, build: Callable[[], Any], *, format_version: int,
                  use_cache: bool = True) -> Any:
    """Like :func:`cached_arrays` for any picklable object (written by this package only)."""
    if not use_cache:
        return build()
    path = cache_dir() / f"{cache_key(name, params, format_version)}.pickle"
    if path.exists():
        with open(path, "rb") as stream:
            return pickle.load(stream)
    start = time.perf_counter()
    with _announced(name, params) as built:
        value = build()
    _atomic_write(path, lambda stream: pickle.dump(value, stream, protocol=pickle.HIGHEST_PROTOCOL))
    _note(path, name, format_version, params, time.perf_counter() - start)
    built(path.stat().st_size, time.perf_counter() - start)
    return value


ANNOUNCE_AFTER = 2.0
"""Seconds a first-use table build runs before it says so on stderr."""

ANNOUNCE_BYTES = 100e6
"""A build expected to write more than this says so before it starts."""

COSTS = PACKAGE_ROOT / "data" / "table_costs.json"
"""What the first-use builds cost when measured (``benchmarks/bench_first_hour.py
--record-costs``): ``{"machine": ..., "tables": {name: {params: {"seconds", "bytes"}}}}``."""


@lru_cache(maxsize=1)
def _costs() -> dict[str, Any]:
    try:
        costs: dict[str, Any] = json.loads(COSTS.read_text(encoding="utf-8"))
        return costs
    except (OSError, ValueError):
        return {}


def expected_cost(name: str, params: Any) -> dict[str, Any] | None:
    """The measured ``{"seconds", "bytes"}`` of building table ``name`` for ``params``
    (None when not measured), and on what machine (``"machine"``)."""
    costs = _costs()
    found = costs.get("tables", {}).get(name, {}).get(_params_text(params))
    return None if found is None else {**found, "machine": costs.get("machine", "another machine")}


def _params_text(params: Any) -> str:
    return repr(params)[:200]


def _write_stderr(text: str) -> None:
    """A line on stderr that does not run into an active progress bar."""
    from tqdm.auto import tqdm

    tqdm.write(text, file=sys.stderr)
    sys.stderr.flush()


def size_text(size: float) -> str:
    """A size in bytes in the unit that shows it.

    Example:
        >>> size_text(56), size_text(4_100), size_text(12_345_678), size_text(1.2e9)
        ('56 bytes', '4.1 kB', '12.3 MB', '1.2 GB')
    """
    for unit, scale in (("GB", 1e9), ("MB", 1e6), ("kB", 1e3)):
        if size >= scale:
            return f"{size / scale:,.1f} {unit}"
    return f"{size:.0f} bytes"


def announcement(name: str, params: Any = None) -> tuple[str, bool]:
    """The line saying table ``name`` is being built, and whether to say it at once (a
    build expected to write more than :data:`ANNOUNCE_BYTES`) rather than after
    :data:`ANNOUNCE_AFTER` seconds."""
    cost = expected_cost(name, params)
    expected = ("; not measured for these parameters: its size and time follow when it is built" if cost is None
                else f"; about {cost['seconds']:.0f} s and {size_text(cost['bytes'])} "
                     f"when measured on {cost['machine']}")
    line = (f"dicemath: building the table {name!r} (first use only{expected}; it is kept in {cache_dir()}: "
            "`dicemath cache` lists and clears it) ...")
    return line, cost is not None and cost["bytes"] > ANNOUNCE_BYTES


@contextmanager
def _announced(name: str, params: Any = None, delay: float | None = None,
               write: Callable[[str], None] | None = None) -> Iterator[Callable[[int, float], None]]:
    """Say once on stderr (or through ``write``) that table ``name`` is being built, with
    what it is expected to cost when measured: at once for a big one, else once the build
    has taken ``delay`` seconds. A user waiting for a first answer sees why, and that it
    happens once.

    Yields:
        ``built(size, seconds)``, to call once the table is written: when the build was
        announced, it says what it took (bytes on disk, seconds).
    """
    write = write or _write_stderr
    line, now = announcement(name, params)
    said: list[str] = []

    def say(text: str) -> None:
        said.append(text)
        write(text)

    def built(size: int, seconds: float) -> None:
        if said:
            write(f"dicemath: built the table {name!r} in {seconds:,.1f} s, {size_text(size)} on disk")

    if now:
        say(line)
        yield built
        return
    timer = threading.Timer(ANNOUNCE_AFTER if delay is None else delay, say, (line,))
    timer.daemon = True
    timer.start()
    try:
        yield built
    finally:
        timer.cancel()


INDEX = "index.json"
"""The cache folder's notes on its files: ``{file name: {"name", "format", "params", "seconds", "bytes"}}``
(``"format"``: the table's format version; ``"params"``: the ``repr`` of its parameters)."""


def _read_index(folder: Path) -> dict[str, dict[str, Any]]:
    try:
        index: dict[str, dict[str, Any]] = json.loads((folder / INDEX).read_text(encoding="utf-8"))
        return index
    except (OSError, ValueError):
        return {}


def _note(path: Path, name: str, format_version: int, params: Any, seconds: float) -> None:
    """Note in the index what ``path`` holds, and remove the files it supersedes (the same
    table and parameters under another key: another format version). Best effort: a lost
    note loses only the note."""
    index = _read_index(path.parent)
    text = _params_text(params)
    for other, note in list(index.items()):
        if other != path.name and note.get("name") == name and note.get("params") == text:
            (path.parent / other).unlink(missing_ok=True)
            del index[other]
    index[path.name] = {"name": name, "format": format_version, "params": text, "seconds": round(seconds, 2),
                        "bytes": path.stat().st_size}
    _atomic_write(path.parent / INDEX, lambda stream: stream.write(json.dumps(index, indent=1).encode()))


@dataclass(frozen=True)
class CacheEntry:
    """One file or folder of the cache.

    Attributes:
        path: where it is.
        name: what it is (the table's name; a folder's own name for table folders such as
            the full-board tables and the bear-off database).
        bytes: its size on disk.
        seconds: how long it took to build, when known (else None).
        params: the parameters it was built for, when noted (the ``repr`` of a cached file's
            parameters; a table folder's spec, its format version aside, as JSON).
        format_version: the table's format version, when noted (else None).
    """

    path: Path
    name: str
    bytes: int
    seconds: float | None = None
    params: str | None = None
    format_version: int | None = None


def _size(path: Path) -> int:
    if path.is_dir():
        return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())
    return path.stat().st_size


def _folder_entry(path: Path) -> CacheEntry:
    """The entry of a folder of tables: the build time its first table store records (wall
    seconds of its runs) and, when the folder is itself one table, that table's format
    version and the rest of its spec."""
    seconds = format_version = params = None
    for manifest in sorted(path.rglob(MANIFEST))[:1]:
        try:
            found = read_manifest(manifest.parent)
        except (OSError, TableError):
            break
        if found is None:
            break
        seconds = found.wall_seconds if found.runs else None
        if manifest.parent == path:
            spec = dict(found.spec)
            version = spec.pop(FORMAT_KEY, None)
            format_version = version if isinstance(version, int) else None
            params = json.dumps(spec, sort_keys=True)[:200]
    return CacheEntry(path, path.name, _size(path), seconds, params, format_version)


def cache_entries() -> list[CacheEntry]:
    """Everything the cache folder holds, largest first: each cached table file, and each
    folder of tables (``fullboard/<table>``, ``bearoff`` ...) as one entry."""
    folder = cache_dir()
    index = _read_index(folder)
    entries: list[CacheEntry] = []
    for path in folder.iterdir():
        if path.name == INDEX or path.name.endswith(".tmp"):
            continue
        if path.is_dir():
            parts = sorted(path.iterdir()) if path.name == "fullboard" else [path]
            entries.extend(_folder_entry(part) for part in parts)
            continue
        note = index.get(path.name, {})
        entries.append(CacheEntry(path, note.get("name", path.stem.rsplit("-", 1)[0]), _size(path),
                                  note.get("seconds"), note.get("params"), note.get("format")))
    return sorted(entries, key=lambda e: -e.bytes)


def clear_cache(names: list[str] | None = None) -> list[CacheEntry]:
    """Remove the entries named exactly by one of ``names``, a table's name (every entry of
    that table) or an entry's file or folder name (that entry); every entry when None. Return
    what was removed."""
    folder = cache_dir()
    removed = [e for e in cache_entries() if names is None or e.name in names or e.path.name in names]
    index = _read_index(folder)
    for entry in removed:
        if entry.path.is_dir():
            shutil.rmtree(entry.path)
        else:
            entry.path.unlink(missing_ok=True)
        index.pop(entry.path.name, None)
    if names is None:
        (folder / INDEX).unlink(missing_ok=True)
    elif removed:
        _atomic_write(folder / INDEX, lambda stream: stream.write(json.dumps(index, indent=1).encode()))
    return removed
