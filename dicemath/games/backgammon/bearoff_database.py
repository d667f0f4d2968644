"""The complete two-sided bear-off database: every pair of home boards, built in chunks on Dask.

For every pair of home boards of at most ``N`` checkers (``N`` up to 15: 54,264 x 54,264 =
2.94e9 pairs; docs/rules.md BG-3, BG-6) the database holds the exact cubeless probability that
the player on roll wins, both sides playing to maximise their winning chance::

    P(a, b) = sum_r w_r / 36 * max_{a' in plays(a, r)} (1 - P(b, a')),   1 when a' is empty

(the same recursion as :func:`~.bearoff.two_sided_table`, which keeps a float64 table in
memory and stops at 10 checkers). For ``N = 15`` it also holds the two gammon races of
BG-7 (in a pure bear-off no checker can be in the winner's home board, so there are no
backgammons, and a gammon needs the loser to have all 15 checkers left):

* ``gammon_finish``: for ``a`` on roll against ``b`` with all 15 checkers, the probability
  that ``a`` bears off every checker before ``b`` bears off one, ``a`` playing to win the
  gammon and ``b`` to save it;
* ``gammon_save``: for ``b`` with all 15 checkers on roll against ``a``, the probability
  that ``b`` bears off a checker before ``a`` bears off all, same strategies.

Which terms are exact: ``win`` is the exact value of the race to bear off first, and
``P(win a gammon)`` = ``gammon_finish``, ``P(lose a gammon)`` = ``1 - gammon_save`` are the
exact values of the gammon races (each side playing that race optimally), all within
:data:`ERROR_BOUND`. Money play scores a gammon double, so its best cubeless play
maximises ``win + win_gammon - lose - lose_gammon`` at once; where that play differs from
the best play for the race or for the gammon, the chances under money-optimal play differ
from these game values (they are then the inputs the cube models use, not the chances of
one money-optimal strategy). For ``N < 15`` no side has 15 checkers: no gammons.

Storage (:data:`SCALE`): 32-bit unsigned fixed point, value ``u / (2**32 - 1)``, computed in
integer arithmetic with round-half-up at every step, so a build gives the same bits on
any number of workers. Error: each ply adds at most half a unit (1.2e-10) to the error of
the values it reads; a bear-off lasts at most 180 plies (every turn removes a pip), so
every stored value is within 180 * 2**-33 = 2.1e-8 of the exact probability (in practice
about 1e-9; the tests compare with the float64 tables). The tables are ``.npy`` files
memory-mapped read-only: a query reads one 4-byte value and never loads a table.

Layout: every table is a matrix ``array[other board, board on roll]`` whose rows and
columns are sorted by pip count (ties in dense-index order, :mod:`~.bearoff`). To fill the
pairs of one block (the boards ``a`` on roll of one pip count against the boards ``b`` of
another) the kernel needs, for each play ``a'`` of ``a``, the values of every ``b`` on roll
against ``a'``: one contiguous stretch of row ``a'``, so the max over plays becomes a
vectorised minimum over stretches of memory.

Dependency order and chunks: a play lowers the pip count, so ``P(a, b)`` needs only pairs
of smaller pip total ``pip(a) + pip(b)``. The pairs are cut into blocks ``(pip(a),
pip(b))``; the blocks of one total ("diagonal") are independent and are grouped into
chunks of about ``chunk_pairs`` pairs; every chunk of a diagonal depends on the chunks of
the diagonal before. That is the Dask graph (:func:`build_database`) run by
:func:`~dicemath.core.table_store.run_graph`: the threaded local scheduler by default (the
C kernel releases the GIL), or a ``dask.distributed`` cluster (its workers must see the
same folder). A worker writes its tables back at most every :data:`FLUSH_SECONDS` and only
then marks the chunks finished meanwhile done; an interrupted build resumes at the first
chunk not marked done.

Files: the database for ``N`` checkers is the table store folder ``ROOT/two-sided-N/``
(:mod:`dicemath.core.table_store`, kind ``"bearoff"``): ``manifest.json`` (its spec: the
format version :data:`DATABASE_FORMAT`, rules, ``checkers``, ``full``, ``chunk_pairs`` and
:data:`SCALE`; the build's runs with each worker's peak memory),
``win.npy`` (``C(N+6,6)**2 * 4`` bytes: 11.8 GB for 15), ``gammon_finish.npy`` and
``gammon_save.npy`` (15 only, 3.4 GB each) and ``done/``. A folder of the format before
the table store (``meta.json``) or of another format version is refused, never read: build it again. ``ROOT`` is
``$DICEMATH_BEAROFF_DIR`` if set, else the ``bearoff`` folder of the dicemath cache
(:func:`~dicemath.core.cache.cache_dir`).

Example:
    >>> import tempfile
    >>> root = tempfile.mkdtemp()
    >>> summary = build_database(3, root, show_progress=False)
    >>> database = open_database(3, root)
    >>> round(database.win_probability((0, 0, 0, 0, 0, 1), (0, 0, 0, 0, 0, 1)), 9)  # 27/36 + 9/36 * 9/36
    0.8125
"""

from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from dicemath.core.cache import cache_dir
from dicemath.core.dice import TWO_DICE_ROLLS
from dicemath.core.errors import InvalidStateError
from dicemath.core.progress import progress
from dicemath.core.table_store import (FORMAT_KEY, MANIFEST, Manifest, TableError, TableStore, read_manifest,
                                       run_graph)
from dicemath.games.backgammon._bearoff_kernels import database_block_kernel
from dicemath.games.backgammon.bearoff import (
    MAX_CHECKERS,
    ROLL_WEIGHTS,
    _all_positions,
    check_board,
    move_table,
    pip_counts,
    position_index,
    positions_count,
)
from dicemath.games.backgammon.limits import EXACT_CHECKERS
from dicemath.games.backgammon.rules import STANDARD

SCALE = 2 ** 32 - 1
"""Stored value ``u`` means probability ``u / SCALE``."""

ERROR_BOUND = 180 * 0.5 / SCALE
"""Largest possible distance of a stored probability from the exact one (see the module docstring)."""

DEFAULT_CHUNK_PAIRS = 4_000_000
"""Pairs per chunk aimed at (about half a second of one core for 15 checkers; 1,510 chunks)."""

WIN, GAMMON_FINISH, GAMMON_SAVE = "win", "gammon_finish", "gammon_save"
TABLES = (WIN, GAMMON_FINISH, GAMMON_SAVE)


def default_root() -> Path:
    """The folder holding the databases: ``$DICEMATH_BEAROFF_DIR`` or ``<cache>/bearoff``."""
    root = os.environ.get("DICEMATH_BEAROFF_DIR")
    return Path(root) if root else cache_dir() / "bearoff"


def table_folder(checkers: int, root: str | Path | None = None) -> Path:
    """The folder of the database for ``checkers`` checkers a side under ``root``."""
    return Path(root if root is not None else default_root()) / f"two-sided-{int(checkers)}"


# ----------------------------------------------------------------------------------------
# Layout: axes sorted by pip count, blocks, chunks
# ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class _Axis:
    """Boards along one side of a table: ``boards`` (dense indices in pip order), ``starts``
    (``boards[starts[p]:starts[p+1]]`` have ``p`` pips) and ``rank`` (dense index -> position
    on this axis, -1 when absent)."""

    boards: np.ndarray = field(repr=False)
    starts: np.ndarray = field(repr=False)
    rank: np.ndarray = field(repr=False)

    def pip_size(self, pips: int) -> int:
        return int(self.starts[pips + 1] - self.starts[pips]) if 0 <= pips < len(self.starts) - 1 else 0


def _axis(mask: np.ndarray) -> _Axis:
    pips = pip_counts()
    boards = np.nonzero(mask)[0]
    boards = boards[np.argsort(pips[boards], kind="stable")]
    starts = np.searchsorted(pips[boards], np.arange(6 * MAX_CHECKERS + 2)).astype(np.int64)
    rank = np.full(len(mask), -1, dtype=np.int64)
    rank[boards] = np.arange(len(boards))
    return _Axis(boards, starts, rank)


@dataclass(frozen=True)
class _TableSpec:
    """One table, stored as ``array[other, on_roll]``: its column axis ``on_roll`` (the
    board on roll), row axis ``other`` (the other board), the table it reads (``reads``;
    its ``on_roll`` axis is this table's ``other`` axis) and, for the kernel, the row in
    that table of every successor board (``succ_rows``; -1 where a play reaches the goal).
    """

    name: str
    on_roll: _Axis
    other: _Axis
    reads: str
    succ_rows: np.ndarray = field(repr=False)


@lru_cache(maxsize=8)
def _axes(checkers: int, full: int) -> tuple[_Axis, _Axis]:
    """The boards of at most ``checkers`` and those of exactly ``full`` checkers, by pips."""
    totals = _all_positions().sum(axis=1)
    return _axis(totals <= checkers), _axis(totals == full)


@lru_cache(maxsize=4)
def _layout(checkers: int, full: int) -> dict[str, _TableSpec]:
    """The tables of a database of ``checkers`` a side; gammon tables when ``checkers == full``.

    ``full`` is the number of checkers that means "none borne off" (15; smaller in tests).
    """
    moves = move_table(STANDARD)
    count = positions_count(checkers)
    targets = moves.targets[:moves.starts[count * len(TWO_DICE_ROLLS)]]
    boards, fulls = _axes(checkers, full)
    to_any = boards.rank[targets].astype(np.int32)
    to_any[targets == 0] = -1                         # borne off: the goal of WIN / FINISH
    tables = {WIN: _TableSpec(WIN, boards, boards, WIN, to_any)}
    if checkers == full:
        to_full = fulls.rank[targets].astype(np.int32)  # -1: a checker is off, gammon saved
        tables[GAMMON_FINISH] = _TableSpec(GAMMON_FINISH, boards, fulls, GAMMON_SAVE, to_any)
        tables[GAMMON_SAVE] = _TableSpec(GAMMON_SAVE, fulls, boards, GAMMON_FINISH, to_full)
    return tables


@dataclass(frozen=True)
class Chunk:
    """A task of the build: blocks of pairs of one diagonal (pip total).

    Attributes:
        index: position in the plan (markers are ``done/<index>``).
        diagonal: the pip total of every pair in the chunk.
        blocks: ``(table name, pips of the board on roll, pips of the other board)``.
        pairs: number of pairs (table entries) computed.
    """

    index: int
    diagonal: int
    blocks: tuple[tuple[str, int, int], ...]
    pairs: int


@lru_cache(maxsize=8)
def chunk_plan(checkers: int, chunk_pairs: int = DEFAULT_CHUNK_PAIRS, full: int = MAX_CHECKERS) -> tuple[Chunk, ...]:
    """The chunks of a build in dependency order (deterministic, so a resumed build agrees).

    Args:
        checkers: at most this many checkers a side (1..15).
        chunk_pairs: pairs per chunk aimed at (blocks are never split).
        full: checkers meaning "none off" (15); the gammon tables are built when equal.

    Returns:
        Chunks sorted by diagonal; within a diagonal the blocks in order of the pips on roll.
    """
    layout = _layout(checkers, full)
    chunks: list[Chunk] = []
    for diagonal in range(2 * 6 * checkers + 1):
        current: list[tuple[str, int, int]] = []
        pairs = 0
        for spec in layout.values():
            for pips in range(diagonal + 1):
                size = spec.on_roll.pip_size(pips) * spec.other.pip_size(diagonal - pips)
                if size == 0:
                    continue
                if current and pairs + size > chunk_pairs:
                    chunks.append(Chunk(len(chunks), diagonal, tuple(current), pairs))
                    current, pairs = [], 0
                current.append((spec.name, pips, diagonal - pips))
                pairs += size
        if current:
            chunks.append(Chunk(len(chunks), diagonal, tuple(current), pairs))
    return tuple(chunks)


def build_work(checkers: int, full: int = MAX_CHECKERS) -> dict[str, int]:
    """Size of a build: ``pairs`` (table entries) and ``scans`` (values the kernel reads:
    for every pair, the plays of the board on roll summed over the 21 rolls), for scaling."""
    layout = _layout(checkers, full)
    plays = move_table(STANDARD).counts().sum(axis=1)
    return {"pairs": sum(len(s.on_roll.boards) * len(s.other.boards) for s in layout.values()),
            "scans": sum(int(plays[s.on_roll.boards].sum()) * len(s.other.boards) for s in layout.values())}


# ----------------------------------------------------------------------------------------
# Building
# ----------------------------------------------------------------------------------------

KIND = "bearoff"
"""The :class:`~dicemath.core.table_store.Manifest` kind of a database folder."""

DATABASE_FORMAT = 1
"""The format version of a database (its spec's ``format``): change it when the computation
or the layout of its values changes (the block kernel, :data:`SCALE`'s rounding, the board
order); a database of another version is refused."""


def _spec(checkers: int, chunk_pairs: int, full: int) -> dict:
    """Everything that decides a database's values (its :class:`~dicemath.core.table_store.Manifest` spec)."""
    return {FORMAT_KEY: DATABASE_FORMAT, "rules": STANDARD.name, "checkers": checkers, "full": full,
            "chunk_pairs": chunk_pairs, "scale": SCALE}


def _refuse_old_format(folder: Path) -> None:
    """Raise :class:`TableError` for a folder written before the table store (a ``meta.json``):
    its files are never read, nor resumed."""
    if (folder / "meta.json").exists() and not (folder / MANIFEST).exists():
        raise TableError(f"{folder} holds a bear-off database built by an older dicemath (meta.json, no "
                         f"{MANIFEST}); it is not read: delete the folder and build it again")


def _open_store(folder: Path, *, complete: bool = True) -> TableStore:
    """The database store in ``folder`` (:meth:`TableStore.open`), old formats refused."""
    _refuse_old_format(folder)
    return TableStore.open(folder, KIND, complete=complete, format_version=DATABASE_FORMAT)


@lru_cache(maxsize=4)
def _writable(folder: str, build_id: str) -> tuple[TableStore, dict[str, np.memmap]]:
    """The store of a build folder and its tables memory-mapped for writing (kept per
    process and build: a folder deleted and built again gets a new ``build_id``)."""
    store = TableStore.open(folder, KIND, complete=False)
    if store.manifest.build_id != build_id:
        raise InvalidStateError(f"{folder} no longer holds build {build_id}")
    return store, {name: store.array(name, writable=True) for name in store.manifest.arrays}


FLUSH_SECONDS = 30.0
"""A worker writes its tables back to disk, and then marks the chunks it finished
meanwhile done, at most this often (and at the end of a run); ``$DICEMATH_BEAROFF_FLUSH_SECONDS``
overrides it."""

_PENDING: dict = {"chunks": [], "tables": [], "since": time.monotonic()}
_PENDING_LOCK = threading.Lock()


def _flush_pending(force: bool = True) -> None:
    """Write this process's finished chunks to disk, then mark them done.

    A done marker therefore always stands for values on disk, even after a machine crash;
    a killed worker loses at most :data:`FLUSH_SECONDS` of work (its chunks are redone).
    """
    with _PENDING_LOCK:
        interval = float(os.environ.get("DICEMATH_BEAROFF_FLUSH_SECONDS", FLUSH_SECONDS))
        if not force and time.monotonic() - _PENDING["since"] < interval:
            return
        for table in _PENDING["tables"]:
            table.flush()
        for store, index, seconds in _PENDING["chunks"]:
            store.mark_done(index, seconds)
        _PENDING.update(chunks=[], tables=[], since=time.monotonic())


def run_chunk(folder: str, build_id: str, index: int, _after=None) -> int:
    """Compute chunk ``index`` of the build in ``folder`` (a Dask task).

    It is marked done by :func:`_flush_pending` once its values are on disk: within
    :data:`FLUSH_SECONDS`, or at the end of the run.

    Args:
        folder: the table folder (shared by every worker).
        build_id: the build's id (its manifest's ``build_id``).
        index: the chunk's position in :func:`chunk_plan`.
        _after: results of the chunks it depends on (unused: they only order the graph).

    Returns:
        The number of pairs computed.
    """
    start = time.perf_counter()
    store, tables = _writable(str(folder), build_id)
    spec = store.manifest.spec
    layout = _layout(spec["checkers"], spec["full"])
    chunk = chunk_plan(spec["checkers"], spec["chunk_pairs"], spec["full"])[index]
    moves = move_table(STANDARD)
    weights = ROLL_WEIGHTS.astype(np.int64)
    for name, on_roll_pips, other_pips in chunk.blocks:
        table = layout[name]
        a0, a1 = table.on_roll.starts[on_roll_pips], table.on_roll.starts[on_roll_pips + 1]
        b0, b1 = table.other.starts[other_pips], table.other.starts[other_pips + 1]
        out = np.empty((a1 - a0, b1 - b0), dtype=np.uint32)
        database_block_kernel(out, tables[table.reads].view(np.ndarray), table.on_roll.boards[a0:a1],
                              table.other.boards[b0:b1], b0, moves.starts, table.succ_rows, weights, SCALE)
        tables[name][b0:b1, a0:a1] = out.T
    with _PENDING_LOCK:
        _PENDING["chunks"].append((store, index, time.perf_counter() - start))
        _PENDING["tables"].extend(table for table in tables.values()
                                  if not any(table is seen for seen in _PENDING["tables"]))
    _flush_pending(force=False)
    _note_memory()
    return chunk.pairs


_PEAK_ANONYMOUS = [0]


def _note_memory() -> None:
    """Remember this process's largest anonymous resident memory (Linux ``RssAnon``): what
    a worker needs besides the memory-mapped table pages, which the kernel may evict."""
    try:
        with open("/proc/self/status") as status:
            line = next(line for line in status if line.startswith("RssAnon:"))
    except (OSError, StopIteration):
        return
    _PEAK_ANONYMOUS[0] = max(_PEAK_ANONYMOUS[0], int(line.split()[1]) * 1024)


def _stop_worker() -> int:
    """End of a run in one process (``on_stop`` of :func:`~dicemath.core.table_store.run_graph`):
    write back and mark done its finished chunks, forget the tables it mapped for writing,
    and return its largest anonymous resident memory since the last run (bytes)."""
    _flush_pending()
    _writable.cache_clear()
    peak, _PEAK_ANONYMOUS[0] = _PEAK_ANONYMOUS[0], 0
    return peak


@dataclass(frozen=True)
class BuildSummary:
    """What one call of :func:`build_database` did.

    Attributes:
        folder: the table folder.
        checkers: checkers a side.
        chunks_run: chunks computed by this call.
        pairs_run: table entries computed by this call.
        seconds: wall-clock seconds of this call (graph run only).
        peak_memory: peak anonymous resident memory of each worker process (bytes): its own
            memory, without the pages of the memory-mapped tables (written back at every
            flush, so the kernel can drop them).
        complete: whether every chunk is now done.
        chunks_total: chunks in the plan.
    """

    folder: Path
    checkers: int
    chunks_run: int
    pairs_run: int
    seconds: float
    complete: bool
    chunks_total: int
    peak_memory: tuple[int, ...] = ()


def build_database(checkers: int, root: str | Path | None = None, *, scheduler: str | None = None,
                   chunk_pairs: int = DEFAULT_CHUNK_PAIRS, max_chunks: int | None = None,
                   show_progress: bool = True, full: int = MAX_CHECKERS) -> BuildSummary:
    """Build (or resume) the two-sided database of boards of at most ``checkers`` checkers.

    Args:
        checkers: 1..15 checkers a side.
        root: folder holding the databases (default :func:`default_root`); the table goes
            to ``root/two-sided-<checkers>``.
        scheduler: None or ``"threads"`` for Dask's threaded local scheduler (all cores),
            ``"synchronous"`` for one thread, or the address of a ``dask.distributed``
            scheduler (``tcp://host:8786``) or a ``distributed.Client``.
        chunk_pairs: pairs per chunk aimed at (fixed by the first run of a build).
        max_chunks: compute at most this many of the missing chunks (a partial build;
            resume later), None for all.
        show_progress: progress bar with ETA (pairs computed).
        full: checkers meaning "none borne off" (15; for tests only).

    Returns:
        A :class:`BuildSummary`.

    Raises:
        InvalidStateError: ``checkers`` outside 1..15.
        TableError: the folder holds another table (other rules, size or format version) or a
            database of the format before the table store.
    """
    if not isinstance(checkers, (int, np.integer)) or not 1 <= checkers <= MAX_CHECKERS:
        raise InvalidStateError(f"the database covers 1..{MAX_CHECKERS} checkers a side, got {checkers!r}")
    checkers = int(checkers)
    folder = table_folder(checkers, root)
    _refuse_old_format(folder)
    found = read_manifest(folder)
    if found is not None and found.kind == KIND:          # resuming: the first run chose the chunks
        chunk_pairs = found.spec.get("chunk_pairs", chunk_pairs)
    plan = chunk_plan(checkers, int(chunk_pairs), full)
    store = TableStore.create(folder, KIND, _spec(checkers, int(chunk_pairs), full),
                              {table.name: ("uint32", (len(table.other.boards), len(table.on_roll.boards)))
                               for table in _layout(checkers, full).values()}, len(plan))
    done = store.done()
    todo = [chunk for chunk in plan if chunk.index not in done]
    if max_chunks is not None:
        todo = todo[:max_chunks]
    graph: dict[str, tuple[Any, ...]] = {}        # a Dask graph: key -> (function, *arguments)
    previous: list[str] = []
    current: list[str] = []
    diagonal: int | None = None
    for chunk in todo:       # each chunk waits for the missing chunks of the nearest earlier diagonal
        if chunk.diagonal != diagonal:
            previous, current, diagonal = current or previous, [], chunk.diagonal
        graph[f"bearoff-chunk-{chunk.index}"] = (run_chunk, str(folder), store.manifest.build_id, chunk.index,
                                                 previous)
        current.append(f"bearoff-chunk-{chunk.index}")
    bar = progress(total=sum(c.pairs for c in todo), desc=f"bear-off {folder.name}", unit="pair") \
        if show_progress and todo else None
    start, peaks = time.perf_counter(), []
    try:
        if todo:
            peaks = run_graph(graph, list(graph), scheduler=scheduler, on_stop=_stop_worker,
                              on_done=None if bar is None else lambda key, pairs: bar.update(pairs))
    finally:  # an interrupted run is recorded too (its finished chunks count)
        if bar is not None:
            bar.close()
        seconds = time.perf_counter() - start
        finished = store.done()
        run = [chunk for chunk in todo if chunk.index in finished]
        store.record_run(seconds, len(run), scheduler=str(scheduler or "threads"),
                         pairs=sum(c.pairs for c in run), peak_memory=peaks)
    return BuildSummary(folder, checkers, len(run), sum(c.pairs for c in run), seconds, store.manifest.complete,
                        len(plan), tuple(peaks))


# ----------------------------------------------------------------------------------------
# Lookups
# ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class BearoffDatabase:
    """A finished two-sided database, memory-mapped (a query reads a few bytes of the files).

    Attributes:
        folder: its folder.
        checkers: boards of at most this many checkers a side.
        manifest: the table store's manifest (``spec``, ``runs``, ``wall_seconds``, ...).
        tables: table name -> read-only memory map.
    """

    folder: Path
    checkers: int
    manifest: Manifest = field(repr=False)
    tables: dict = field(repr=False)

    @classmethod
    def from_store(cls, store: TableStore) -> BearoffDatabase:
        """The database of a finished store."""
        tables = {name: store.array(name) for name in store.manifest.arrays}
        return cls(store.directory, int(store.manifest.spec["checkers"]), store.manifest, tables)

    @property
    def name(self) -> str:
        """``"two-sided-N"``."""
        return self.folder.name

    @property
    def full(self) -> int:
        """Checkers meaning "none borne off" (15, smaller in tests)."""
        return int(self.manifest.spec["full"])

    @property
    def has_gammons(self) -> bool:
        """Whether the gammon tables are present (the 15-checker database)."""
        return GAMMON_FINISH in self.tables

    def covers(self, board, versus) -> bool:
        """Whether both boards have at most :attr:`checkers` checkers."""
        return max(sum(check_board(board)), sum(check_board(versus))) <= self.checkers

    def _indices(self, board, versus) -> tuple[int, int]:
        board, versus = check_board(board), check_board(versus)
        if not self.covers(board, versus):
            raise InvalidStateError(f"{self.name} covers at most {self.checkers} checkers a side; "
                                    f"got {sum(board)} and {sum(versus)}")
        return position_index(board), position_index(versus)

    def win_probability(self, board, versus) -> float:
        """Cubeless P(the player on roll with ``board`` wins) against ``versus`` (BG-6).

        Within :data:`ERROR_BOUND` of the exact value. ``board`` empty: 1; ``versus``
        empty (and ``board`` not): 0.

        Raises:
            InvalidStateError: a bad board or one with more checkers than the table.
        """
        x, y = self._indices(board, versus)
        rank = _axes(self.checkers, self.full)[0].rank
        return float(self.tables[WIN][rank[y], rank[x]]) / SCALE

    def gammon_probabilities(self, board, versus) -> dict[str, float]:
        """P(the player on roll wins a gammon) and P(he loses one) (BG-7), exact gammon races.

        Returns:
            ``{"win_gammon", "lose_gammon"}``; 0 where the side that would lose the gammon
            has a checker off (or when the table has no gammon tables: fewer than 15 checkers).
        """
        x, y = self._indices(board, versus)
        result = {"win_gammon": 0.0, "lose_gammon": 0.0}
        if not self.has_gammons:
            return result
        boards, fulls = (axis.rank for axis in _axes(self.checkers, self.full))
        if fulls[y] >= 0:
            result["win_gammon"] = float(self.tables[GAMMON_FINISH][fulls[y], boards[x]]) / SCALE
        if fulls[x] >= 0 and y != 0:
            result["lose_gammon"] = 1.0 - float(self.tables[GAMMON_SAVE][boards[y], fulls[x]]) / SCALE
        return result


def open_database(checkers: int, root: str | Path | None = None) -> BearoffDatabase:
    """Open the finished database for ``checkers`` under ``root``, memory-mapped read-only.

    Raises:
        InvalidStateError: no finished database of that size (missing, unfinished, of
            another kind or of the format before the table store).
    """
    folder = table_folder(checkers, root)
    try:
        return BearoffDatabase.from_store(_open_store(folder))
    except TableError as error:
        raise InvalidStateError(f"no finished bear-off database in {folder} ({error}); "
                                f"build it with: dicemath backgammon build-bearoff --checkers {checkers}") from None


def _stores(root: str | Path | None, sizes) -> list[TableStore]:
    """The database stores (finished or not) under ``root`` for the checker counts ``sizes``,
    in that order; a folder with no table is skipped, one of the old format refused."""
    base = Path(root if root is not None else default_root())
    folders = [table_folder(checkers, base) for checkers in sizes]
    return [_open_store(folder, complete=False) for folder in folders
            if (folder / MANIFEST).exists() or (folder / "meta.json").exists()]


def available_databases(root: str | Path | None = None) -> list[dict]:
    """Every database folder under ``root``: ``{"name", "checkers", "complete", "chunks_done",
    "chunks", "build_seconds", "runs", "bytes", "folder"}``, smallest first (``runs``: the
    manifest's build runs, each with its ``peak_memory`` per worker).

    Raises:
        TableError: a folder of the format before the table store (rebuild it), or a
            damaged one.
    """
    return [{"name": store.directory.name, "checkers": int(store.manifest.spec["checkers"]),
             "complete": store.manifest.complete, "chunks_done": len(store.done()), "chunks": store.manifest.chunks,
             "build_seconds": store.manifest.wall_seconds, "runs": store.manifest.runs,
             "bytes": sum(store.path(name).stat().st_size for name in store.manifest.arrays),
             "folder": str(store.directory)}
            for store in _stores(root, range(1, MAX_CHECKERS + 1))]


def largest_database(root: str | Path | None = None) -> BearoffDatabase | None:
    """The finished database with the most checkers under ``root``, or None.

    Raises:
        TableError: a folder of the format before the table store (rebuild it).
    """
    finished = (store for store in _stores(root, range(MAX_CHECKERS, 0, -1)) if store.manifest.complete)
    store = next(finished, None)
    return None if store is None else BearoffDatabase.from_store(store)


def exact_probabilities(board, versus, root: str | Path | None = None) -> dict:
    """Exact cubeless chances of the player on roll with ``board`` against ``versus``.

    Answers from the largest finished database under ``root`` when it covers both boards,
    else (at most :data:`~.limits.EXACT_CHECKERS` checkers a side) from the float64 in-memory table.

    Returns:
        ``{"win_probability", "win_gammon", "lose_gammon", "table", "exact": True,
        "error_bound"}``: ``table`` names the table used (``"two-sided-N"`` for a database,
        ``"in-memory two-sided-N"`` otherwise); gammons are 0 below 15 checkers (BG-7) and
        never above the wins (or losses) they are part of.

    Raises:
        InvalidStateError: a bad board, or no exact table covering both boards (the message
            says how to build one).
        TableError: a database folder of the format before the table store (rebuild it).
    """
    board, versus = check_board(board), check_board(versus)
    size = max(sum(board), sum(versus))
    database = largest_database(root)
    if database is not None and database.covers(board, versus):
        win = database.win_probability(board, versus)
        gammons = database.gammon_probabilities(board, versus)
        # Both tables are within ERROR_BOUND of exact values with gammons <= wins: where the
        # two are equal, rounding must not put a gammon above the win it is part of.
        return {"win_probability": win, "win_gammon": min(gammons["win_gammon"], win),
                "lose_gammon": min(gammons["lose_gammon"], 1.0 - win),
                "table": database.name, "exact": True, "error_bound": ERROR_BOUND}
    if size <= EXACT_CHECKERS:
        from dicemath.games.backgammon.bearoff import win_probability

        return {"win_probability": win_probability(STANDARD, board, versus), "win_gammon": 0.0, "lose_gammon": 0.0,
                "table": f"in-memory two-sided-{max(size, 1)}", "exact": True, "error_bound": 1e-12}
    built = f" (largest built: {database.name})" if database is not None else ""
    raise InvalidStateError(f"no exact bear-off table covers {size} checkers a side{built}; build one with: "
                            f"dicemath backgammon build-bearoff --checkers {size}")
