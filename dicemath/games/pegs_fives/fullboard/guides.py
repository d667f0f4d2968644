"""Value tables that are not solved but evaluated: guides for the kernel's ``lookahead`` mode.

A *guide* is a table of the layout of :class:`.layout.BoardLayout` whose values come from a
board-value estimate (the fitted :class:`..advisor.BoardValue`, or the distilled model of
:mod:`..distilled`); the kernel's ``lookahead`` mode plays the one-turn lookahead on it and
writes that policy's exact values (the package docstring of :mod:`dicemath.games.pegs_fives.fullboard`). This module

* turns index ranges of a layout into whole boards (:func:`layout_boards`) and a layout into
  slabs of *top digits x lower board* (:class:`SlabSplit`);
* evaluates the fitted value (:func:`fitted_slab_values`) and the distilled model
  (:func:`distilled_slab_values`) slab by slab, their per-row sums computed once for the
  lower rows (the full board's 2.2e9 boards in minutes rather than hours);
* writes a guide table to disk chunk by chunk, resumably (:func:`build_guide`), in the
  directory format of :mod:`.storage`, so that :func:`.driver.build_table` accepts it as
  ``guide``, or returns it in memory for reduced boards (:func:`guide_values`);
* compares tables of one layout with a reference board by board (:func:`compare_tables`).

Guide values are float64 computed in float32 (the network) or float64 (the fitted value);
guide tables are stored as float32 (the kernel reads them as float64).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from dicemath.core.errors import DicemathError
from dicemath.core.progress import progress
from dicemath.core.table_store import TableStore
from dicemath.games.pegs_fives.advisor import BoardValue, single_row_values
from dicemath.games.pegs_fives.distilled import DistilledValue, one_hot
from dicemath.games.pegs_fives.fullboard import storage
from dicemath.games.pegs_fives.fullboard.driver import game_of
from dicemath.games.pegs_fives.fullboard.layout import BoardLayout
from dicemath.games.pegs_fives.rules import Rules

GUIDE_TOP = 5
"""Top axes of a guide table's chunks on the full board (``6**7`` boards a chunk)."""


def layout_boards(layout: BoardLayout, start: int, stop: int) -> np.ndarray:
    """The whole boards of indices ``start .. stop - 1``: int8 array ``[board, row - 1]``,
    closed rows at the goal (:mod:`.layout`)."""
    index = np.arange(start, stop, dtype=np.int64)
    boards = np.full((stop - start, layout.rules.rows), layout.rules.goal, dtype=np.int8)
    for row, stride in zip(layout.rows, layout.strides):
        boards[:, row - 1] = (index // stride) % layout.base
    return boards


class SlabSplit:
    """A layout's boards as *top digits x lower board* (the slabs of :class:`.layout.SlabPlan`).

    A board-value estimate that is a sum over rows before a non-linearity (the fitted
    features, the network's first layer) is evaluated on the lower boards once and combined
    with each slab's few top digits, instead of decoding every board again.

    Attributes:
        layout: the table layout. plan: its slabs.
        lower: the whole boards of the lower axes, every other row at the goal (int8
            ``[lower index, row - 1]``).
    """

    def __init__(self, layout: BoardLayout, top: int):
        self.layout = layout
        self.plan = layout.slabs(top)
        if self.plan.lower is None:
            raise DicemathError(f"a slab split needs fewer than {layout.k} top axes, got {top}")
        self.lower = layout_boards(self.plan.lower, 0, self.plan.slab_size)

    def top_board(self, slab: int) -> np.ndarray:
        """The whole board of ``slab``'s top digits, every other row at the goal (int8)."""
        board = np.full(self.layout.rules.rows, self.layout.rules.goal, dtype=np.int8)
        rows = self.layout.rows[self.layout.k - self.plan.top:]
        board[np.array(rows, dtype=np.int64) - 1] = self.plan.top_digits(slab)
        return board

    def boards(self, slab: int, where: np.ndarray) -> np.ndarray:
        """The whole boards of ``slab`` at lower indices ``where``."""
        boards = self.lower[where].copy()
        top = self.top_board(slab)
        rows = np.array(self.layout.rows[self.layout.k - self.plan.top:], dtype=np.int64) - 1
        boards[:, rows] = top[rows]
        return boards


def fitted_slab_values(value: BoardValue, split: SlabSplit) -> Callable[[int], np.ndarray]:
    """``slab -> value(board)`` for every board of the slab (float64), the features of
    :data:`..advisor.FEATURES` in their order: sums over rows add, the two largest
    single-row values merge; 0 for the complete board."""
    rules = value.rules
    single = single_row_values(rules)
    weights = np.array(value.weights)
    low = single[np.arange(rules.rows), split.lower]
    low_total = low.sum(axis=1)
    low_sorted = np.sort(low, axis=1)
    low_first, low_second = low_sorted[:, -1], low_sorted[:, -2]
    low_open = (split.lower < rules.goal).sum(axis=1)
    low_missing = (rules.goal - split.lower.astype(np.int64)).sum(axis=1)
    last = split.layout.last

    def values(slab: int) -> np.ndarray:
        top = split.top_board(slab)
        top_values = np.sort(single[np.arange(rules.rows), top])
        first, second = top_values[-1], top_values[-2]
        total = low_total + top_values.sum()
        merged_first = np.maximum(low_first, first)
        merged_second = np.where(low_first >= first, np.maximum(low_second, first), np.maximum(low_first, second))
        features = (total, merged_first, merged_second, low_open + int((top < rules.goal).sum()),
                    low_missing + int((rules.goal - top.astype(np.int64)).sum()), np.sqrt(total))
        out = weights[-1] + sum(w * f for w, f in zip(weights, features))
        np.maximum(out, 0.0, out=out)
        start = slab * split.plan.slab_size
        if start <= last < start + len(out):
            out[last - start] = 0.0                      # the complete board
        return out

    return values


def distilled_slab_values(model: DistilledValue, split: SlabSplit) -> Callable[[int], np.ndarray]:
    """``slab -> the distilled model's values of its boards`` (float64), equal to
    :meth:`..distilled.DistilledValue.values` on them within float32 rounding (about 1e-5):
    the network's first layer is a sum over rows (one-hot input), so the lower rows' part
    is computed once and each slab adds its top rows' part; the rest runs compiled
    (``_network_c.c``, built at install); boards of the exact end game are looked up."""
    from dicemath.games.pegs_fives.fullboard import _network_c  # type: ignore[attr-defined]  # C extension, no stubs

    rules = model.rules
    goal = rules.goal
    first, bias, w2, b2, w3, b3 = model.layers
    complete = np.full((1, rules.rows), goal, dtype=np.int8)
    base = one_hot(complete, goal) @ first                   # the rows at the goal
    low = np.ascontiguousarray(one_hot(split.lower, goal) @ first - base, dtype=np.float32)
    w2, b2, w3, b3 = (np.ascontiguousarray(a, dtype=np.float32) for a in (w2, b2, w3, b3))
    low_open = (split.lower < goal).sum(axis=1)

    def values(slab: int) -> np.ndarray:
        top = split.top_board(slab)
        offset = (one_hot(top[None, :], goal) @ first)[0] + bias
        out = np.empty(len(low))
        _network_c.network(low, offset.astype(np.float32), w2, b2, w3, b3, out)
        lookup = np.flatnonzero(low_open + int((top < goal).sum()) <= model.endgame_rows)
        if len(lookup):
            out[lookup] = model.values(split.boards(slab, lookup))
        return out

    return values


def distilled_guide_digest(model: DistilledValue) -> str:
    """The digest of a guide of ``model`` built by :func:`distilled_slab_values`: the model's
    digest and the compiled loop's order of summation (``_network_c.SUMMATION``: the vector
    width the extension was built for), since values summed in another order differ in
    their last float32 bits (a few near-tied choices of a lookahead on them differ too)."""
    from dicemath.games.pegs_fives.fullboard import _network_c  # type: ignore[attr-defined]  # C extension, no stubs

    return f"{model.digest}-{_network_c.SUMMATION}"


def guide_spec(rules: Rules, rows: tuple[int, ...], name: str, digest: str, top: int) -> dict:
    """The spec of a guide table: policy ``guide-<name>``, float32, ``digest`` names the
    values' source (e.g. the model file's digest)."""
    return storage.table_spec(game_of(rules), rules, rows, f"guide-{name}", "float32", top, digest)


def guide_top(layout: BoardLayout) -> int:
    """Top axes per guide chunk: :data:`GUIDE_TOP`, fewer for small tables."""
    return min(GUIDE_TOP, layout.k - 1)


def build_guide(rules: Rules, rows: tuple[int, ...], out: Path | str,
                slab_values: Callable[[SlabSplit], Callable[[int], np.ndarray]], *, name: str, digest: str,
                workers: int = 2, batch: int = 64) -> Path:
    """Write (or resume) a guide table on disk, slab by slab.

    Args:
        rules, rows: the game and the open rows of the table.
        out: the table directory.
        slab_values: given the layout's :class:`SlabSplit`, a function ``slab -> float64
            values of the slab's boards`` (0 for the complete board), e.g.
            :func:`fitted_slab_values` or :func:`distilled_slab_values`.
        name, digest: the guide's name and the digest of its source (in the manifest; a
            directory holding another guide is refused).
        workers: threads (numpy releases the GIL in its array operations).
        batch: slabs written back to disk together (then marked finished: the resume points).

    Raises:
        TableError: ``out`` holds another table.
    """
    layout = BoardLayout(rules, tuple(rows))
    top = guide_top(layout)
    out = Path(out)
    store = storage.create_table(out, guide_spec(rules, layout.rows, name, digest, top))
    split = SlabSplit(layout, top)
    plan = split.plan
    todo = sorted(set(range(plan.count)) - set(store.done()))
    if not todo:
        if not store.manifest.complete:
            store.record_run(0.0, 0)
        return out
    values = slab_values(split)
    bar = progress(desc=f"guide {name}", total=plan.count, unit="chunk")
    bar.update(plan.count - len(todo))
    mapped = store.array(storage.VALUES, writable=True)

    def fill(slab: int) -> int:
        start = slab * plan.slab_size
        mapped[start:start + plan.slab_size] = values(slab)
        return slab

    start, finished = time.perf_counter(), 0
    try:
        with ThreadPoolExecutor(workers) as pool:
            for first in range(0, len(todo), batch):
                chunk = todo[first:first + batch]
                done = list(pool.map(fill, chunk))
                TableStore.flush(mapped, chunk[0] * plan.slab_size, (chunk[-1] + 1) * plan.slab_size)
                for slab in done:
                    store.mark_done(slab)
                finished += len(done)
                bar.update(len(done))
    finally:
        bar.close()
        store.record_run(time.perf_counter() - start, finished)
    return out


def guide_values(layout: BoardLayout, slab_values: Callable[[SlabSplit], Callable[[int], np.ndarray]]) -> np.ndarray:
    """A whole guide table in memory (float64), for reduced boards: the values of
    :func:`build_guide` without the disk."""
    split = SlabSplit(layout, guide_top(layout))
    values = slab_values(split)
    return np.concatenate([values(slab) for slab in range(split.plan.count)]).astype(np.float64)


class _Comparison:
    """Running board-by-board statistics of ``other - reference`` (see :func:`compare_tables`)."""

    def __init__(self) -> None:
        self.boards = 0
        self.squares = 0.0
        self.other = self.reference = self.relative = 0.0
        self.max_abs, self.max_relative, self.where = -1.0, -np.inf, -1

    def add(self, ref: np.ndarray, other: np.ndarray, start: int) -> None:
        """Boards ``start ..`` of both tables (float64); infinite ``other`` values left out."""
        finite = np.isfinite(other)
        where = None if finite.all() else np.flatnonzero(finite)
        o, r = (other, ref) if where is None else (other[where], ref[where])
        if not len(o):
            return
        diff = o - r
        self.boards += len(o)
        self.squares += float(diff @ diff)
        self.other += float(o.sum())
        self.reference += float(r.sum())
        relative = diff / r
        self.relative += float(relative.sum())
        self.max_relative = max(self.max_relative, float(relative.max()))
        i = int(np.abs(diff).argmax())
        if abs(diff[i]) > self.max_abs:
            self.max_abs, self.where = float(abs(diff[i])), start + (i if where is None else int(where[i]))

    def merge(self, other: _Comparison) -> None:
        self.boards += other.boards
        self.squares += other.squares
        self.other += other.other
        self.reference += other.reference
        self.relative += other.relative
        self.max_relative = max(self.max_relative, other.max_relative)
        if other.max_abs > self.max_abs:
            self.max_abs, self.where = other.max_abs, other.where

    def result(self, size: int) -> dict:
        n = max(self.boards, 1)
        return {"boards": self.boards, "infinite": size - self.boards, "rms": float(np.sqrt(self.squares / n)),
                "max_abs": self.max_abs, "max_abs_board": self.where, "mean_reference": self.reference / n,
                "mean_other": self.other / n, "mean_relative": self.relative / n, "max_relative": self.max_relative}


def compare_tables(reference: np.ndarray, others: dict[str, np.ndarray], *, chunk: int = 6 ** 8) -> dict[str, dict]:
    """Board-by-board comparison of tables of one layout with a reference (float64 sums,
    chunked; the reference is read once for all of them).

    Args:
        reference: the reference table (e.g. the optimal one).
        others: tables to compare with it, by name.
        chunk: boards per step.

    Returns:
        Per name: ``boards`` compared (every board but the complete one and those where the
        other table is infinite: a policy that never finishes from them), ``infinite`` (those
        left out), ``rms`` and ``max_abs`` of ``other - reference``, the board index of the
        largest difference, ``mean_reference`` and ``mean_other`` (the means over the boards
        compared), and ``mean_relative`` / ``max_relative``, the mean and largest
        ``other / reference - 1``.
    """
    size = len(reference) - 1                   # the complete board (value 0) is left out
    sums = {name: _Comparison() for name in others}
    for start in range(0, size, chunk):
        stop = min(size, start + chunk)
        ref = np.asarray(reference[start:stop], dtype=np.float64)
        for name, table in others.items():
            sums[name].add(ref, np.asarray(table[start:stop], dtype=np.float64), start)
    return {name: r.result(size) for name, r in sums.items()}


def compare_estimate(reference: np.ndarray, layout: BoardLayout,
                     slab_values: Callable[[SlabSplit], Callable[[int], np.ndarray]], *,
                     workers: int = 2) -> dict:
    """:func:`compare_tables` of an estimate evaluated slab by slab (as :func:`build_guide`
    does) with ``reference``, without writing the estimate's table: the model error over
    every board in the time of one guide build and no disk."""
    split = SlabSplit(layout, guide_top(layout))
    plan = split.plan
    values = slab_values(split)
    size = layout.size - 1

    def compare(slab: int) -> _Comparison:
        start = slab * plan.slab_size
        stop = min(start + plan.slab_size, size)
        part = _Comparison()
        if stop > start:
            part.add(np.asarray(reference[start:stop], dtype=np.float64), values(slab)[:stop - start], start)
        return part

    total = _Comparison()
    with ThreadPoolExecutor(workers) as pool:
        for part in progress(pool.map(compare, range(plan.count)), desc="model error", total=plan.count,
                             unit="chunk"):
            total.merge(part)
    return total.result(size)
