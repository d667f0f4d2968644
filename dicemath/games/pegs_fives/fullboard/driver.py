"""The driver of the full-board solver: the right kernel, the sweep, tables in memory or on disk.

* :func:`kernel_for` picks the kernel by the rules' structure: Fives (no throw limit,
  FIVES-3) -> :class:`.fives_kernel.FivesKernel`; Pegs (a throw budget, PEGS-3) -> the
  :class:`.pegs_kernel.PegsKernel` (each imported only when needed; both are C compiled at
  install).
* :func:`solve_sequential` is the plain sweep: board sets of equal total progress, highest
  total first (every transition that makes progress raises the total).
* :func:`solve_table` solves a table in memory (float64), slab by slab on threads (the
  kernels release the GIL).
* :func:`build_table` writes a table to disk slab by slab (:mod:`.storage`, the core table
  store): a graph of slab tasks (:func:`slab_graph`) on Dask's local threaded scheduler or
  a ``dask.distributed`` cluster (:func:`dicemath.core.table_store.run_graph`), a progress
  bar with ETA, and a finished mark per slab so that an interrupted build resumes from the
  last finished slab.

The slab graph: slab ``t`` (the values of the top axes, :class:`.layout.SlabPlan`) reads only
slabs whose top digits are componentwise at least ``t``'s; it depends on the slabs one top
digit higher, which depend on theirs, so the graph orders the whole sweep. A task solves a
group of slabs with the same top total (mutually independent; 16 for the Fives kernel's
lanes, one otherwise), and groups of the same top total run in parallel. On a cluster every
worker maps the table file itself, so **workers must share the table's filesystem**; each
task writes its slabs to disk before it reports back.

Memory: a build holds the memory map of the table (the operating system pages it; 8.7 GB
for the full board in float32) and, per worker thread, the kernel's scratch space (and,
for a kernel without slab lanes, the index arrays of one slab: ``6**8`` boards, 13 MB).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import cast

import numpy as np

from dicemath.core.errors import DicemathError
from dicemath.core.progress import progress
from dicemath.core.table_store import TableStore, run_graph
from dicemath.games.pegs_fives.fullboard import storage
from dicemath.games.pegs_fives.fullboard.layout import FULL_ROWS, BoardLayout, SlabPlan
from dicemath.games.pegs_fives.rules import Rules

FLOAT64_MAX_BOARDS = 6 ** 9
"""Tables up to this many boards are stored as float64 by default, bigger ones as float32."""


class BuildInterrupted(DicemathError):
    """A build stopped before its last slab (resume it by building again)."""


def game_of(rules: Rules) -> str:
    """The kernel structure of ``rules``: ``"fives"`` without a throw limit (FIVES-3),
    ``"pegs"`` with a throw budget (PEGS-3)."""
    return "fives" if rules.throws is None else "pegs"


@lru_cache(maxsize=32)
def kernel_for(rules: Rules, rows: tuple[int, ...]):
    """The kernel for ``rules`` and open ``rows`` (cached; kernels are stateless).

    Raises:
        InvalidRulesError: a variant the kernel does not implement (the kernel names it).
        InvalidBoardError: bad rows.
    """
    if game_of(rules) == "fives":
        from dicemath.games.pegs_fives.fullboard.fives_kernel import FivesKernel

        return FivesKernel(rules, rows)
    from dicemath.games.pegs_fives.fullboard.pegs_kernel import PegsKernel

    return PegsKernel(rules, rows)


def check_policy_inputs(policy: str, guide) -> None:
    """A lookahead needs a guide table; the other policies take none.

    Raises:
        ValueError: a guide is missing or superfluous.
    """
    if (policy == "lookahead") != (guide is not None):
        raise ValueError("policy 'lookahead' needs a guide table and the other policies take none")


def guide_for(E: np.ndarray, guide: np.ndarray | None) -> np.ndarray | None:
    """``guide`` in the dtype of ``E`` (the kernels are compiled once per table dtype, and
    take a guide of that dtype): a float32 guide widens exactly to float64.

    Raises:
        ValueError: a float64 guide for a float32 table (narrowing it would round the
            values the lookahead compares; store the table as float64 instead).
    """
    if guide is None or guide.dtype == E.dtype:
        return guide
    if E.dtype == np.float64 and guide.dtype == np.float32:
        return guide.astype(np.float64)
    raise ValueError(f"a {E.dtype} table takes a guide of its own dtype or float32, got {guide.dtype}")


def solve_sequential(kernel, E: np.ndarray, *, policy: str = "optimal", guide: np.ndarray | None = None) -> np.ndarray:
    """Fill ``E`` for every board of ``kernel.layout``: decreasing indices in one call for a
    kernel with ``solve_range`` (the Pegs kernel), else totals from high to low, one
    ``kernel.solve`` call per total; ``E[last]`` is set to 0. Returns ``E``."""
    guide = guide_for(E, guide)
    E[kernel.layout.last] = 0.0
    if hasattr(kernel, "solve_range"):
        kernel.solve_range(E, 0, kernel.layout.last, policy=policy, guide=guide)
        return E
    for boards in kernel.layout.boards_by_total()[-2::-1]:
        kernel.solve(E, boards, policy=policy, guide=guide)
    return E


def lanes_of(kernel) -> int:
    """Slabs per kernel call: 16 for a kernel with ``solve_slabs`` (the Fives kernel), else 1."""
    return 16 if hasattr(kernel, "solve_slabs") else 1


def default_top(layout: BoardLayout, lanes: int = 1) -> int:
    """Top axes per slab.

    For a slab-lanes kernel (:meth:`.fives_kernel.FivesKernel.solve_slabs`) at least four
    top axes, so that a top total holds enough slabs to fill the 16 lanes, and slabs of at
    most ``base**7`` boards; otherwise slabs of at most ``base**8`` boards and at least two
    top axes (from three open rows), so that independent slabs exist for parallel workers.
    """
    if lanes > 1:
        return min(layout.k - 1, max(4, layout.k - 7))
    return max(min(2, layout.k - 1), layout.k - 8)


def solve_slabs(kernel, plan: SlabPlan, E: np.ndarray, slabs: Sequence[int], policy: str,
                guide: np.ndarray | None) -> None:
    """Solve every board of ``slabs`` (mutually independent; their successor slabs final):
    with the kernel's ``solve_slabs`` in one call, or slab by slab: with ``solve_range``
    (decreasing indices: every successor inside the slab comes first), else board set by
    board set."""
    guide = guide_for(E, guide)
    if hasattr(kernel, "solve_slabs"):
        kernel.solve_slabs(E, np.array(slabs), plan.top, policy=policy, guide=guide)
        return
    if hasattr(kernel, "solve_range"):
        for slab in slabs:
            start, stop = slab * plan.slab_size, (slab + 1) * plan.slab_size
            if stop - 1 == plan.layout.last:
                E[plan.layout.last] = 0.0
                stop -= 1
            kernel.solve_range(E, start, stop, policy=policy, guide=guide)
        return
    for slab in slabs:
        for boards in plan.independent_sets(slab):
            if boards[0] == plan.layout.last:
                E[plan.layout.last] = 0.0
                boards = boards[1:]
            if len(boards):
                kernel.solve(E, boards, policy=policy, guide=guide)


@dataclass(frozen=True)
class SlabJob:
    """What a slab task needs, picklable for ``dask.distributed`` workers.

    Attributes:
        rules, rows: the table's game and open rows.
        policy: the kernel mode.
        top: top axes per slab.
        directory: the table directory (values memory-mapped per task), or None for
            in-memory arrays passed to :meth:`run` (local threads only).
        guide: the guide table's directory for a lookahead (file jobs).
    """

    rules: Rules
    rows: tuple[int, ...]
    policy: str
    top: int
    directory: str | None = None
    guide: str | None = None

    def run(self, slabs: tuple[int, ...], values: np.ndarray | None = None,
            guide: np.ndarray | None = None) -> tuple[tuple[int, ...], float]:
        """Solve a group of independent ``slabs``; return ``(slabs, compute seconds of this
        thread)``.

        A file job maps the table for this task only and writes the slabs to disk before it
        returns, so that a worker on another machine sharing the filesystem reads them fresh.
        """
        kernel = kernel_for(self.rules, self.rows)
        plan = kernel.layout.slabs(self.top)
        start = time.thread_time()
        if self.directory is None:
            if values is None:
                raise ValueError("an in-memory slab job needs the values array")
            solve_slabs(kernel, plan, values, slabs, self.policy, guide)
        else:
            guide_table = storage.open_table(Path(self.guide)) if self.guide else None
            mapped: np.memmap = np.load(Path(self.directory) / f"{storage.VALUES}.npy", mmap_mode="r+")
            solve_slabs(kernel, plan, mapped, slabs, self.policy, guide_table.values if guide_table else None)
            for slab in slabs:
                TableStore.flush(mapped, slab * plan.slab_size, (slab + 1) * plan.slab_size)
        return slabs, time.thread_time() - start


@dataclass(frozen=True)
class InMemory:
    """The arrays of an in-memory run (local threads only).

    Attributes:
        values: the table being solved. guide: the guide table of a lookahead, or None.
    """

    values: np.ndarray | None = None
    guide: np.ndarray | None = None


def run_slabs_task(job: SlabJob, slabs: tuple[int, ...], arrays: InMemory, *finished) -> tuple[tuple[int, ...], float]:
    """The task body of the slab graph (``finished``: the results of the groups holding the
    successor slabs, which only order the tasks)."""
    return job.run(slabs, arrays.values, arrays.guide)


def group_key(slabs: tuple[int, ...]) -> str:
    """The task key of a slab group."""
    return "slabs-" + "-".join(map(str, slabs))


def slab_graph(job: SlabJob, plan: SlabPlan, lanes: int, done: set[int], arrays: InMemory) -> dict:
    """The Dask task graph of every slab not in ``done`` (a finished slab is no dependency),
    in groups of at most ``lanes`` slabs, each waiting for the groups that hold its
    successor slabs."""
    groups = plan.groups(lanes, done)
    home = {slab: group_key(group) for group in groups for slab in group}
    graph = {}
    for group in groups:
        waits = sorted({home[s] for slab in group for s in plan.successors(slab) if s not in done})
        graph[group_key(group)] = (run_slabs_task, job, group, arrays, *waits)
    return graph


def solve_table(rules: Rules, rows: Sequence[int], *, policy: str = "optimal", guide: np.ndarray | None = None,
                workers: int | None = None) -> np.ndarray:
    """Solve a whole table in memory (float64) and return it.

    Small tables run :func:`solve_sequential`; bigger ones the slab graph on Dask's local
    threaded scheduler with ``workers`` threads (default: every core).

    Raises:
        InvalidRulesError, InvalidBoardError: see :func:`kernel_for`.
    """
    kernel = kernel_for(rules, tuple(BoardLayout(rules, tuple(rows)).rows))
    check_policy_inputs(policy, guide)
    layout = kernel.layout
    E = np.zeros(layout.size)
    guide = guide_for(E, guide)                 # once, not per slab task
    if layout.size <= 6 ** 6 or workers == 1:
        return solve_sequential(kernel, E, policy=policy, guide=guide)
    job = SlabJob(rules, layout.rows, policy, default_top(layout, lanes_of(kernel)))
    graph = slab_graph(job, layout.slabs(job.top), lanes_of(kernel), set(), InMemory(E, guide))
    run_graph(graph, list(graph), workers=worker_count(workers))
    return E


def default_dtype(layout: BoardLayout) -> str:
    """float64 up to :data:`FLOAT64_MAX_BOARDS` boards, float32 beyond."""
    return "float64" if layout.size <= FLOAT64_MAX_BOARDS else "float32"


def build_table(rules: Rules, rows: Sequence[int] = FULL_ROWS, *, out: Path | str | None = None,
                policy: str = "optimal", guide: Path | str | None = None, dtype: str | None = None,
                top: int | None = None, scheduler: str | None = None, workers: int | None = None,
                stop_after: int | None = None,
                on_slab: Callable[[tuple[int, ...], float], None] | None = None) -> Path:
    """Build (or resume) a table on disk; return its directory.

    Args:
        rules: the game (:data:`~.rules.FIVES`, :data:`~.rules.PEGS` or a variant).
        rows: the open rows (default: the full board).
        out: the table directory (default: :func:`.storage.default_table_dir`).
        policy: ``"optimal"`` or a policy to evaluate (the kernel's modes).
        guide: the guide table directory for ``"lookahead"``.
        dtype: ``"float32"`` or ``"float64"`` (default :func:`default_dtype`).
        top: top axes per slab (default :func:`default_top`).
        scheduler: a ``dask.distributed`` scheduler address; None runs Dask's local
            threaded scheduler. Workers must share the table's filesystem.
        workers: local threads (default: every core).
        stop_after: stop after this many newly finished tasks (slab groups; raise
            :class:`BuildInterrupted`), as an interruption would.
        on_slab: called with ``(slabs, seconds)`` after every finished slab group.

    Raises:
        TableError: ``out`` holds a different table, or ``guide`` is unfinished or covers other rows.
        BuildInterrupted: ``stop_after`` was reached.
        InvalidRulesError, InvalidBoardError: see :func:`kernel_for`.
    """
    kernel = kernel_for(rules, tuple(BoardLayout(rules, tuple(rows)).rows))
    layout = kernel.layout
    game = game_of(rules)
    check_policy_inputs(policy, guide)
    if guide is not None:
        guide_table = storage.open_table(Path(guide), rules)
        guide_table.close()
        if guide_table.layout.rows != layout.rows:
            raise storage.TableError(f"the guide table in {guide} covers rows {list(guide_table.layout.rows)}, "
                                     f"not {list(layout.rows)}")
    top = default_top(layout, lanes_of(kernel)) if top is None else top
    plan = layout.slabs(top)
    directory = Path(out) if out is not None else storage.default_table_dir(game, rules, layout.rows, policy)
    spec = storage.table_spec(game, rules, layout.rows, policy, dtype or default_dtype(layout), top,
                              guide=None if guide is None else str(Path(guide).resolve()))
    store = storage.create_table(directory, spec)
    done = set(store.done())
    if len(done) == plan.count:
        if not store.manifest.complete:
            store.record_run(0.0, 0)
        return directory
    job = SlabJob(rules, layout.rows, policy, top, str(directory.resolve()), spec["guide"])
    graph = slab_graph(job, plan, lanes_of(kernel), done, InMemory())
    bar = progress(desc=f"{rules.name} table {_rows_label(layout)}", total=layout.size, unit="board")
    bar.update(len(done) * plan.slab_size)
    finished: list[int] = []
    tasks = 0
    start = time.perf_counter()

    def record(key: str, result: object) -> None:
        nonlocal tasks
        slabs, seconds = cast(tuple[tuple[int, ...], float], result)      # what SlabJob.run returns
        for slab in slabs:                      # on disk: the task flushed them
            store.mark_done(slab, seconds / len(slabs))
        finished.extend(slabs)
        tasks += 1
        bar.update(len(slabs) * plan.slab_size)
        if on_slab is not None:
            on_slab(slabs, seconds)
        if stop_after is not None and tasks >= stop_after and len(done) + len(finished) < plan.count:
            raise BuildInterrupted(f"stopped after {tasks} tasks; {len(done) + len(finished)} of "
                                   f"{plan.count} slabs done in {directory}")

    try:
        run_graph(graph, list(graph), scheduler=scheduler, workers=worker_count(workers), on_done=record)
    finally:
        bar.close()
        store.record_run(time.perf_counter() - start, len(finished), scheduler=str(scheduler or "threads"))
    return directory


def _rows_label(layout: BoardLayout) -> str:
    return "full board" if layout.k == layout.rules.rows else f"rows {','.join(map(str, layout.rows))}"



def worker_count(workers: int | None) -> int:
    """Threads for local runs: ``workers`` or every core."""
    return workers or os.cpu_count() or 1
