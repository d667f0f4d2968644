"""Value tables on disk: one raw array file plus a JSON manifest per table.

A table directory holds

* ``values.bin`` -- the values ``E`` of every board in the layout order of
  :class:`.layout.BoardLayout` (float32 or float64, native byte order), written in place
  slab by slab through a memory map;
* ``manifest.json`` -- what the table is (game rules, open rows, policy, dtype, slab plan,
  the digest of the code that computes it) and which slabs are finished. It is rewritten
  atomically after every finished slab, so an interrupted build resumes from the last
  finished slab.

A table is versioned by its rules, open rows, policy and a digest of the kernel and driver
sources only (:func:`source_digest`), so that editing a report or the advice code does not
invalidate an hours-long build. Its default home is ``<cache dir>/fullboard/<key>``
(:func:`dicemath.core.cache.cache_dir`).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import mmap
import os
import tempfile
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import numpy as np

from dicemath.core.cache import cache_dir
from dicemath.core.errors import DicemathError, InvalidRulesError
from dicemath.games.pegs_fives.fullboard.layout import BoardLayout
from dicemath.games.pegs_fives.rules import Rules

FORMAT = 1
"""Version of the directory format."""

VALUES = "values.bin"
MANIFEST = "manifest.json"

KERNEL_SOURCES = {"fives": ("fives_kernel.py",), "pegs": ("pegs_kernel.py", "_pegs_c.c", "_pegs_c_solver.h")}
"""The kernel modules of each game structure (see :func:`.driver.game_of`)."""

DRIVER_SOURCES = ("layout.py", "driver.py")
"""Modules besides the kernel whose code decides the values of a table."""


class TableError(DicemathError):
    """A table directory that is missing, unfinished, corrupt or built for something else."""


@lru_cache(maxsize=None)
def source_digest(game: str) -> str:
    """A digest of the sources that compute a ``game`` table (kernel, layout, driver).

    A missing kernel module (the Pegs kernel before it is merged) digests as absent.
    """
    folder = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for name in KERNEL_SOURCES[game] + DRIVER_SOURCES:
        path = folder / name
        digest.update(name.encode())
        digest.update(path.read_bytes() if path.exists() else b"<absent>")
    return digest.hexdigest()[:16]


def rules_dict(rules: Rules) -> dict:
    """The rule fields of ``rules`` as a JSON-ready dict."""
    return dataclasses.asdict(rules)


@dataclass
class Manifest:
    """What a table directory holds (the JSON of ``manifest.json``).

    Attributes:
        game: the kernel's game structure (``"fives"`` or ``"pegs"``).
        rules: the rule fields (:func:`rules_dict`).
        rows: the open rows of the layout.
        policy: the policy the values belong to (``"optimal"``, ``"greedy"``, ...).
        dtype: ``"float32"`` or ``"float64"``.
        top: top axes per slab (:class:`.layout.SlabPlan`).
        digest: :func:`source_digest` of the code that built it.
        guide: for a lookahead table, the guide table's directory.
        done: finished slabs.
        slab_seconds: compute time of each finished task, by its slabs (``"3,7,12"``;
            thread time, one core).
        wall_seconds: wall-clock time of the build so far, summed over its runs (from
            each run's start to its last finished task).
    """

    game: str
    rules: dict
    rows: list[int]
    policy: str
    dtype: str
    top: int
    digest: str
    guide: str | None = None
    done: list[int] = field(default_factory=list)
    slab_seconds: dict = field(default_factory=dict)
    format: int = FORMAT
    wall_seconds: float = 0.0

    def same_table(self, other: Manifest) -> bool:
        """True when ``other`` describes the same values (ignoring progress)."""
        keys = ("game", "rules", "rows", "policy", "dtype", "top", "digest", "guide", "format")
        return all(getattr(self, k) == getattr(other, k) for k in keys)

    @property
    def slab_count(self) -> int:
        """Number of slabs of the plan."""
        return (self.rules["goal"] + 1) ** self.top

    @property
    def complete(self) -> bool:
        """Every slab finished."""
        return len(self.done) == self.slab_count


def table_key(game: str, rules: Rules, rows: tuple[int, ...], policy: str) -> str:
    """The directory name of a table in the default location."""
    label = "full" if len(rows) == rules.rows else "rows" + "-".join(map(str, rows))
    digest = hashlib.sha256(f"{rules!r}|{rows}|{policy}|{source_digest(game)}".encode()).hexdigest()[:12]
    return f"{rules.name}-{label}-{policy}-{digest}"


def default_table_dir(game: str, rules: Rules, rows: tuple[int, ...], policy: str = "optimal") -> Path:
    """Where :func:`.driver.build_table` puts a table unless told otherwise."""
    return cache_dir() / "fullboard" / table_key(game, rules, rows, policy)


def read_manifest(directory: Path) -> Manifest | None:
    """The manifest of ``directory``, or None when it has none.

    Raises:
        TableError: the manifest cannot be read.
    """
    path = Path(directory) / MANIFEST
    if not path.exists():
        return None
    try:
        data = json.loads(path.read_text())
        return Manifest(**data)
    except (ValueError, TypeError) as error:
        raise TableError(f"{path} is not a table manifest: {error}") from None


def write_manifest(directory: Path, manifest: Manifest) -> None:
    """Write the manifest atomically (temporary file, fsync, rename)."""
    directory = Path(directory)
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=MANIFEST, suffix=".tmp")
    try:
        with os.fdopen(handle, "w") as stream:
            json.dump(dataclasses.asdict(manifest), stream, indent=1)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, directory / MANIFEST)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


def create_values(directory: Path, size: int, dtype: str) -> None:
    """Create ``values.bin`` for ``size`` boards (zero-filled, sparse on disk)."""
    path = Path(directory) / VALUES
    with open(path, "wb") as stream:
        stream.truncate(size * np.dtype(dtype).itemsize)


class MappedValues:
    """A memory map of ``values.bin`` as a numpy array; a context manager.

    Args:
        directory: the table directory.
        dtype: the stored dtype.
        writable: map read-write (builds) or read-only (queries).
    """

    def __init__(self, directory: Path, dtype: str, *, writable: bool = False):
        path = Path(directory) / VALUES
        self._file = open(path, "r+b" if writable else "rb")
        self._map = mmap.mmap(self._file.fileno(), 0, access=mmap.ACCESS_WRITE if writable else mmap.ACCESS_READ)
        self.array = np.frombuffer(self._map, dtype=dtype)

    def flush(self, start: int, stop: int) -> None:
        """Write boards ``start .. stop - 1`` to disk."""
        item = self.array.itemsize
        first = (start * item) // mmap.PAGESIZE * mmap.PAGESIZE
        self._map.flush(first, stop * item - first)

    def close(self) -> None:
        """Close the file and unmap it; while an array still uses the map, the map is released
        with the last such array instead."""
        self.array = None
        try:
            self._map.close()
        except BufferError:
            pass
        self._file.close()

    def __enter__(self) -> MappedValues:
        return self

    def __exit__(self, *exc) -> None:
        self.close()


@dataclass
class Table:
    """A finished table opened for queries.

    Attributes:
        directory: where it lives.
        manifest: its manifest.
        layout: its board layout.
        rules: its rules.
        values: the read-only memory-mapped values (float32 or float64).
    """

    directory: Path
    manifest: Manifest
    layout: BoardLayout
    rules: Rules
    values: np.ndarray
    _mapping: MappedValues = field(repr=False)

    def value(self, board) -> float:
        """Expected turns of a whole board (a tuple of ``rules.rows`` entries) under the
        table's policy, at the start of a turn (float64)."""
        return float(self.values[self.layout.index(board)])

    def close(self) -> None:
        """Release the memory map (``values`` is no longer usable)."""
        self.values = None
        self._mapping.close()


def open_table(directory: Path, rules: Rules | None = None) -> Table:
    """Open a finished table.

    Args:
        directory: the table directory.
        rules: if given, the rules the caller needs; a table for other rules is refused.

    Raises:
        TableError: no table there, or an unfinished one.
        InvalidRulesError: the table was built for other rules.
    """
    directory = Path(directory)
    manifest = read_manifest(directory)
    if manifest is None:
        raise TableError(f"no table in {directory} (no {MANIFEST})")
    if not manifest.complete:
        raise TableError(f"the table in {directory} is unfinished ({len(manifest.done)} of "
                         f"{manifest.slab_count} slabs); run build-table again to resume it")
    table_rules = Rules(**manifest.rules)
    if rules is not None and table_rules != rules:
        differ = [k for k, v in rules_dict(rules).items() if manifest.rules.get(k) != v]
        raise InvalidRulesError(f"the table in {directory} was built for other rules "
                                f"(differing fields: {', '.join(differ)})")
    layout = BoardLayout(table_rules, tuple(manifest.rows))
    size = (directory / VALUES).stat().st_size if (directory / VALUES).exists() else -1
    if size != layout.size * np.dtype(manifest.dtype).itemsize:
        raise TableError(f"{directory / VALUES} has {size} bytes, expected "
                         f"{layout.size * np.dtype(manifest.dtype).itemsize}")
    mapping = MappedValues(directory, manifest.dtype)
    return Table(directory, manifest, layout, table_rules, mapping.array, mapping)
