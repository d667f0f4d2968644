"""What a strong BohnDuell table costs on a cluster: the values a worker reads from the others.

On a cluster whose machines do not share a disk, each worker keeps the parts of the table
it solves and fetches from the others the solved values its moves lead to. With the build's
partition (:func:`~dicemath.games.bohnduell.strong_table.phi_parts`: every potential cut into
``parts`` ranges of whole blocks, part ``p`` on worker ``p`` modulo ``workers``),
:func:`remote_reads` counts, for every position with a move, the successors owned by
another worker, and the distinct such values each worker needs: the bytes moved over the
network, one byte a value, if each worker keeps what it fetched.

Example:
    >>> counts = remote_reads(Rules(stock=6), workers=2)
    >>> counts["positions"] == SideIndex.build(4, 6).size ** 2
    True
    >>> 0 < counts["distinct_remote"] <= counts["remote_reads"] < counts["reads"]
    True
"""

from __future__ import annotations

import numpy as np

from dicemath.games.bohnduell import _dense_c  # type: ignore[attr-defined]  # C extension, no stubs
from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.solver_dense import SideIndex
from dicemath.games.bohnduell.strong_table import phi_parts


def remote_reads(rules: Rules, workers: int, parts: int | None = None) -> dict[str, int]:
    """Count the reads of the strong table of ``rules`` on ``workers`` machines sharing nothing.

    Args:
        rules: the variant; ``rules.stock`` is the table's per-side bound.
        workers: machines; part ``p`` of every potential is solved on machine ``p % workers``.
        parts: ranges per potential (default ``workers``).

    Returns:
        ``positions``, ``reads`` (successor values read), ``remote_reads`` (of another
        machine's values) and ``distinct_remote`` (the values moved over the network, summed
        over the machines; one byte each).
    """
    index = SideIndex.build(rules.cups, rules.stock)
    kmax = index.kmax
    counts = np.diff(index.starts)
    owner_of = np.zeros((kmax + 1) * (kmax + 1), dtype=np.int64)
    cuts = {phi: phi_parts(index, phi, parts or workers) for phi in range(2 * kmax + 1)}
    for phi, phi_cuts in cuts.items():
        for p, (first_rank, last_rank, _, _) in enumerate(phi_cuts):
            for k_opp in np.unique(index.potentials[first_rank:last_rank]).tolist():
                if 0 <= phi - k_opp <= kmax:
                    owner_of[(phi - k_opp) * (kmax + 1) + k_opp] = p % workers
    filled = np.flatnonzero(np.outer(counts, counts).ravel())
    flat = index.block_offsets.ravel()
    block_ids = filled[np.argsort(flat[filled], kind="stable")]      # the non-empty blocks in table order
    block_starts = flat[block_ids]
    seen = [np.zeros((index.size ** 2 + 7) // 8, dtype=np.uint8) for _ in range(workers)]
    totals = np.zeros(3, dtype=np.int64)
    arrays = index.kernel_arrays()
    for phi, phi_cuts in cuts.items():
        for p, (first_rank, last_rank, _, _) in enumerate(phi_cuts):
            # totals: reads, reads of another worker's values, distinct such values (marked in seen)
            _dense_c.count_reads(phi, first_rank, last_rank, p % workers, rules.every, *arrays,
                                 block_ids, block_starts, owner_of, seen[p % workers], totals)
    reads, remote, distinct = (int(t) for t in totals)
    return {"positions": index.size ** 2, "reads": reads, "remote_reads": remote, "distinct_remote": distinct}
