"""Strong BohnDuell tables larger than memory: the dense solve written to the core's table store.

:func:`build_strong` solves every position whose sides hold at most ``rules.stock`` beans
each (the values of :func:`~dicemath.games.bohnduell.solver_dense.solve_dense`, bit for
bit) into a folder of :class:`~dicemath.core.table_store.TableStore`, one chunk per potential
``Phi`` (the layout of :class:`~dicemath.games.bohnduell.solver_dense.SideIndex` makes each
``Phi`` one contiguous range). The table need not fit in memory: it is one memory-mapped
``int8`` file that the operating system pages in and out, and the sweep reads mostly the
potentials just below the one it writes.

The build is a Dask task graph run by :func:`~dicemath.core.table_store.run_graph`: each
potential is cut into ``parts`` ranges of whole blocks; a *moves* task solves the positions
of its range where the mover has a move (reading the solved lower potentials) into a
buffer of its own and writes it with one ``pwrite``; once every range of the potential is
written its *passes* tasks solve the positions where the mover must pass (BOHN-6, the same
sides swapped); a *done* task then syncs the file, and the chunk is marked finished. The
next potential's moves wait only for this one's passes. An interrupted build resumes at the
first unfinished potential.

The tasks run on local threads (the kernels release the GIL) or on the processes of a
``dask.distributed`` cluster whose workers share the folder on one machine's disk (they then
share its page cache; a network file system would need each task's writes flushed before
the next potential reads them). On a cluster part ``p`` of every potential runs on worker
``p`` modulo their number, so that each worker writes its parts of the table.

:func:`open_strong` maps a finished table read-only as a
:class:`~dicemath.games.bohnduell.solver_dense.DenseTable`; :func:`strong_tables` lists
those built in the cache (``dicemath bohnduell table list``), and the game's chain of
sources answers from the smallest that covers a position.

Example:
    >>> import tempfile
    >>> from dicemath.games.bohnduell.state import initial_state
    >>> folder = tempfile.mkdtemp()
    >>> build_strong(Rules(stock=5), folder, workers=1, announce=False).complete
    True
    >>> open_strong(folder).position_value(initial_state(Rules(stock=5)))
    0
"""

from __future__ import annotations

import os
import resource
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from dicemath.core.cache import cache_dir
from dicemath.core.errors import InvalidStateError
from dicemath.core.table_store import FORMAT_KEY, TableError, TableStore, run_graph
from dicemath.games.bohnduell import _dense_c  # type: ignore[attr-defined]  # C extension, no stubs
from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.solver_dense import LAYOUT, MAX_TABLE_STOCK, DenseTable, SideIndex

KIND = "bohnduell-strong"
"""The ``kind`` of a strong table's manifest, and the name of its folder in the cache."""

STRONG_FORMAT = 1
"""The format version of a strong table (its spec's ``format``): change it when the
computation of its values changes (the layout has its own version,
:data:`~dicemath.games.bohnduell.solver_dense.LAYOUT`); a table of another version or layout
is refused."""

POSITIONS_PER_SECOND = 2.0e7
"""The build speed the estimate printed before a build assumes, positions per second of wall
time on two threads (the figure ``benchmarks/bench_bohnduell_strong.py`` measures and records)."""


def strong_spec(rules: Rules, sides: str = "reachable") -> dict[str, Any]:
    """What decides a strong table's values: its format version, the variant, the sides ranked
    and the layout's version."""
    return {FORMAT_KEY: STRONG_FORMAT, "cups": rules.cups, "stock": rules.stock, "capture": rules.capture,
            "sides": sides, "layout": LAYOUT}


def default_folder(rules: Rules, sides: str = "reachable") -> Path:
    """Where :func:`build_strong` puts the table of ``rules`` by default: in the cache
    (``dicemath cache`` lists it)."""
    suffix = "" if sides == "reachable" else f"-{sides}"
    return cache_dir() / KIND / f"cups{rules.cups}-stock{rules.stock}-{rules.capture}{suffix}"


def table_positions(rules: Rules, sides: str = "reachable") -> int:
    """The positions of the strong table of ``rules`` (one byte each): ``NP ** 2``."""
    from dicemath.games.bohnduell.solver_dense import side_closure, side_count

    count = len(side_closure(rules.cups, rules.stock)) if sides == "reachable" else side_count(rules.cups, rules.stock)
    return count * count


def phi_parts(index: SideIndex, phi: int, parts: int) -> list[tuple[int, int, int, int]]:
    """Cut the positions of potential ``phi`` into at most ``parts`` ranges of whole blocks of
    about equal size: ``(first rank, last rank, first index, last index)`` of the other
    side's ranks and of the table's positions (last ones excluded).

    Example:
        >>> index = SideIndex.build(4, 3)
        >>> parts = phi_parts(index, 10, 2)
        >>> bool(parts[0][2] == index.phi_starts[10] and parts[-1][3] == index.phi_starts[11])
        True
    """
    kmax = index.kmax
    lo, hi = max(phi - kmax, 0), min(phi, kmax)
    counts = np.diff(index.starts)
    sizes = [int(counts[phi - k] * counts[k]) for k in range(lo, hi + 1)]
    total = sum(sizes)
    cuts: list[tuple[int, int, int, int]] = []
    first_k, first_i, done = lo, int(index.phi_starts[phi]), 0
    for k, size in zip(range(lo, hi + 1), sizes):
        done += size
        if k == hi or (done * parts >= (len(cuts) + 1) * total and size):
            last_i = int(index.phi_starts[phi]) + done
            cuts.append((int(index.starts[first_k]), int(index.starts[k + 1]), first_i, last_i))
            first_k, first_i = k + 1, last_i
    return [cut for cut in cuts if cut[3] > cut[2]] or cuts[:1]


@dataclass
class _Opened:
    """What one process keeps of a table it builds: the index, the maps and a file descriptor."""

    rules: Rules
    index: SideIndex
    reading: np.ndarray
    writing: np.ndarray
    descriptor: int
    offset: int


_OPENED: dict[tuple[str, str], _Opened] = {}
_OPENING = threading.Lock()


def _opened(folder: str, build_id: str) -> _Opened:
    """The process's handles on the table being built in ``folder`` (opened once per process)."""
    with _OPENING:
        key = (folder, build_id)
        if key not in _OPENED:
            store = TableStore.open(folder, KIND, complete=False)
            spec = store.manifest.spec
            rules = Rules(cups=spec["cups"], stock=spec["stock"], capture=spec["capture"])
            reading = store.array("values")
            _OPENED[key] = _Opened(rules, SideIndex.build(rules.cups, rules.stock, spec["sides"]),
                                   np.asarray(reading), np.asarray(store.array("values", writable=True)),
                                   os.open(store.path("values"), os.O_WRONLY), int(reading.offset))
        return _OPENED[key]


def building_here() -> list[str]:
    """The folders of the tables this process has solved parts of (on a cluster: this worker)."""
    with _OPENING:
        return sorted({folder for folder, _ in _OPENED})


def _moves_task(folder: str, build_id: str, phi: int, part: tuple[int, int, int, int], after: object) -> float:
    """Solve the positions with a move of one part of potential ``phi`` and write them; returns seconds."""
    tic = time.perf_counter()
    table = _opened(folder, build_id)
    first_rank, last_rank, first, last = part
    buffer = np.zeros(last - first, dtype=np.int8)
    _dense_c.solve_moves(phi, first_rank, last_rank, table.rules.every, *table.index.kernel_arrays(), table.reading,
                         buffer, first)
    view = memoryview(buffer.data)
    written = 0
    while written < len(view):                       # one pwrite, repeated only if the system cuts it short
        written += os.pwrite(table.descriptor, view[written:], table.offset + first + written)
    return time.perf_counter() - tic


def _passes_task(folder: str, build_id: str, phi: int, part: tuple[int, int, int, int], after: object) -> float:
    """Solve the pass positions of one part of potential ``phi`` in place; returns seconds."""
    tic = time.perf_counter()
    table = _opened(folder, build_id)
    _dense_c.solve_passes(phi, part[0], part[1], *table.index.kernel_arrays(), table.writing)
    return time.perf_counter() - tic


def _done_task(folder: str, build_id: str, phi: int, seconds: list[float]) -> float:
    """Sync the table file (the potential's values reach the disk before its chunk is marked);
    returns the potential's compute seconds (its tasks' ``seconds`` summed)."""
    os.fdatasync(_opened(folder, build_id).descriptor)
    return float(sum(seconds))


@dataclass
class StrongBuild:
    """What one run of :func:`build_strong` did.

    Attributes:
        folder: the table folder.
        positions: positions of the whole table.
        chunks: potentials solved in this run (``chunks_total`` in all).
        seconds, cpu_seconds: wall and process CPU time of this run.
        complete: whether the table is now finished.
    """

    folder: Path
    positions: int
    chunks: int
    chunks_total: int
    seconds: float
    cpu_seconds: float
    complete: bool


def build_strong(rules: Rules, folder: Path | str | None = None, *, sides: str = "reachable",
                 scheduler: Any = None, workers: int | None = None, parts: int | None = None,
                 max_chunks: int | None = None, announce: bool = True) -> StrongBuild:
    """Build (or resume) the strong table of every position with at most ``rules.stock`` beans a side.

    Args:
        rules: the variant (cups, BOHN-1; capture, BOHN-4); ``rules.stock`` is the per-side bound.
        folder: the table folder (default :func:`default_folder`, in the cache).
        sides: ``"reachable"`` (default) or ``"all"``, as :func:`solve_dense`.
        scheduler: ``None``/``"threads"`` (local threads), ``"synchronous"``, or a
            ``dask.distributed`` scheduler address or ``Client`` whose workers see ``folder``.
        workers: local threads (default: every core).
        parts: ranges each potential is cut into (default: ``workers``; on a cluster, its
            number of worker threads).
        max_chunks: stop after this many potentials (the table stays resumable).
        announce: print the table's size and the estimated time to standard error first.

    Returns:
        What the run did (:class:`StrongBuild`); :func:`open_strong` opens the finished table.

    Raises:
        InvalidStateError: ``rules.stock`` above :data:`MAX_TABLE_STOCK`.
        TableError: ``folder`` holds another table.
    """
    if rules.stock > MAX_TABLE_STOCK:
        raise InvalidStateError(f"the strong table stores values as int8: stock must be <= {MAX_TABLE_STOCK}, "
                                f"got {rules.stock}")
    folder = Path(folder) if folder is not None else default_folder(rules, sides)
    tic, cpu = time.perf_counter(), time.process_time()
    index = SideIndex.build(rules.cups, rules.stock, sides)
    positions = index.size ** 2
    chunks_total = 2 * index.kmax + 1
    store = TableStore.create(folder, KIND, strong_spec(rules, sides), {"values": ("int8", (positions,))},
                              chunks_total)
    finished = store.done()
    first = next((phi for phi in range(chunks_total) if phi not in finished), chunks_total)
    last = chunks_total if max_chunks is None else min(chunks_total, first + max_chunks)
    threads = workers or os.cpu_count() or 1
    cut = parts or (threads if scheduler in (None, "threads", "synchronous") else _cluster_threads(scheduler))
    remaining = int(index.phi_starts[last] - index.phi_starts[first])
    if announce and remaining:
        sys.stderr.write(f"dicemath: building the strong BohnDuell table of {rules} in {folder}: "
                         f"{positions:,} positions ({positions / 1e9:.1f} GB on disk), {remaining:,} still to solve, "
                         f"about {remaining / POSITIONS_PER_SECOND / 60:.0f} min at {POSITIONS_PER_SECOND:.1e} "
                         "positions/s (measured on 2 threads)\n")
    graph: dict[Any, Any] = {}
    name, build_id = str(folder), store.manifest.build_id
    previous: list[Any] = []
    for phi in range(first, last):
        cuts = phi_parts(index, phi, cut)
        moves = [("moves", phi, p) for p in range(len(cuts))]
        passes = [("passes", phi, p) for p in range(len(cuts))]
        synced = [("done", phi - 2)] if phi - 2 >= first else []     # a chunk is marked while the next is solved
        for key, part in zip(moves, cuts):
            graph[key] = (_moves_task, name, build_id, phi, part, list(previous) + synced)
        for key, part in zip(passes, cuts):
            graph[key] = (_passes_task, name, build_id, phi, part, list(moves))
        graph[("done", phi)] = (_done_task, name, build_id, phi, moves + passes)
        previous = passes
    from dicemath.core.progress import progress

    bar = progress(total=remaining, desc=f"BohnDuell strong table, stock {rules.stock}", unit="pos")
    solved = []

    def on_done(key: Any, result: object) -> None:
        if isinstance(key, tuple) and key[0] == "done":
            phi = int(key[1])
            store.mark_done(phi, float(result))            # type: ignore[arg-type]  # _done_task returns seconds
            solved.append(phi)
            bar.update(int(index.phi_starts[phi + 1] - index.phi_starts[phi]))

    try:
        run_graph(graph, list(graph), scheduler=scheduler, workers=threads + 1, on_done=on_done,
                  placement=lambda key: int(key[2]) if key[0] != "done" else 0)
    finally:
        bar.close()
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        scheduler_name = scheduler if isinstance(scheduler, str) or scheduler is None else "distributed"
        seconds, cpu_seconds = time.perf_counter() - tic, time.process_time() - cpu
        store.record_run(seconds, len(solved), cpu_seconds=round(cpu_seconds, 3),
                         scheduler=scheduler_name or "threads", workers=threads, parts=cut,
                         peak_rss_megabytes=round(peak, 1))
    return StrongBuild(folder, positions, len(solved), chunks_total, seconds, cpu_seconds, store.manifest.complete)


def _cluster_threads(scheduler: Any) -> int:
    """The worker threads of a ``dask.distributed`` cluster (a ``Client`` or a scheduler address)."""
    from distributed import Client

    client = scheduler if isinstance(scheduler, Client) else Client(scheduler)
    try:
        return max(1, sum(client.nthreads().values()))
    finally:
        if client is not scheduler:
            client.close()


def open_strong(folder: Path | str) -> DenseTable:
    """A finished strong table, memory-mapped read-only.

    Raises:
        TableError: no strong table there, an unfinished one, or one of another format
            version (:data:`STRONG_FORMAT`), layout or spec.
    """
    store = TableStore.open(folder, KIND, format_version=STRONG_FORMAT)
    spec = store.manifest.spec
    rules = Rules(cups=spec["cups"], stock=spec["stock"], capture=spec["capture"])
    expected = strong_spec(rules, spec["sides"])
    if spec != expected:
        raise TableError(f"the strong table in {folder} was built with another spec ({spec}; this dicemath "
                         f"builds {expected}): delete the folder and build the table again")
    index = SideIndex.build(rules.cups, rules.stock, spec["sides"])
    return DenseTable(rules.cups, rules.stock, rules.capture, index, store.array("values"),
                      store.manifest.wall_seconds)


@dataclass(frozen=True)
class StrongTableEntry:
    """One strong table found in the cache (:func:`strong_tables`)."""

    folder: Path
    cups: int
    stock: int
    capture: str
    sides: str
    complete: bool
    current: bool
    positions: int
    seconds: float


def strong_tables(root: Path | None = None) -> list[StrongTableEntry]:
    """The strong tables in ``root`` (default: the cache's :data:`KIND` folder), finished or
    not, smallest stock first; ``current`` says whether this code can use it."""
    from dicemath.core.table_store import read_manifest

    root = root if root is not None else cache_dir() / KIND
    found = []
    for folder in sorted(root.iterdir()) if root.is_dir() else []:
        try:
            manifest = read_manifest(folder)
        except TableError:
            continue
        if manifest is None or manifest.kind != KIND:
            continue
        spec = manifest.spec
        rules = Rules(cups=spec["cups"], stock=spec["stock"], capture=spec["capture"])
        found.append(StrongTableEntry(folder, rules.cups, rules.stock, rules.capture, spec["sides"],
                                      manifest.complete, spec == strong_spec(rules, spec["sides"]),
                                      int(manifest.arrays["values"]["shape"][0]), manifest.wall_seconds))
    return sorted(found, key=lambda e: (e.stock, str(e.folder)))


def covering_entry(rules: Rules, beans: int) -> StrongTableEntry | None:
    """The smallest finished, current strong table in the cache of the variant of ``rules``
    whose sides hold at least ``beans`` beans (not opened), or None."""
    for entry in strong_tables():
        if (entry.complete and entry.current and entry.cups == rules.cups and entry.capture == rules.capture
                and entry.stock >= beans):
            return entry
    return None


def covering_table(rules: Rules, beans: int) -> DenseTable | None:
    """The table of :func:`covering_entry`, opened (once per process), or None."""
    entry = covering_entry(rules, beans)
    return _open_cached(str(entry.folder)) if entry is not None else None


def endgame_table(rules: Rules, table_stock: int) -> DenseTable | None:
    """The table of the variant of ``rules`` for sides of at most ``table_stock`` beans: the
    strong table of exactly that stock in the cache, else solved in memory
    (:func:`~dicemath.games.bohnduell.solver_dense.load_dense`); None for 0."""
    from dicemath.games.bohnduell.solver_dense import load_dense

    if not table_stock:
        return None
    for entry in strong_tables():
        if (entry.complete and entry.current and entry.sides == "reachable"
                and (entry.cups, entry.stock, entry.capture) == (rules.cups, table_stock, rules.capture)):
            return _open_cached(str(entry.folder))
    return load_dense(Rules(cups=rules.cups, stock=table_stock, capture=rules.capture))


_OPEN_TABLES: dict[str, DenseTable] = {}


def _open_cached(folder: str) -> DenseTable:
    if folder not in _OPEN_TABLES:
        _OPEN_TABLES[folder] = open_strong(folder)
    return _OPEN_TABLES[folder]


