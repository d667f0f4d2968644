"""The rules of BohnDuell on one pair of sides, as the rules engine runs them.

A *side* is one player's ``(stock, c_1, ..., c_n)``: his stock and his cups indexed by the
distance ``d`` from his pot (``d = 1`` next to the pot, BOHN-2). Every rule that moves
beans lives here, as small functions on sequences of integers:

- :func:`can_harvest`, :func:`sow_limit`: which harvests (BOHN-5) and sows (BOHN-3) are
  open to a side; :func:`can_move`: whether any is (else the player passes, BOHN-6);
- :func:`sow`: a sow with its captures (BOHN-3, BOHN-4);
- :func:`harvest`: a harvest (BOHN-5);
- :func:`overfills`: whether a move puts a bean into an own cup already holding its
  distance (such a cup can no longer be harvested, BOHN-5);
- :func:`potential`: the sum of the beans' distances to the pot (the termination
  argument of :mod:`~dicemath.games.bohnduell.state`).

The rules engine (:mod:`~dicemath.games.bohnduell.state`), the memoised solver and the
proofs call them as plain Python on tuples, one move at a time. The dense solver's C
kernels (``_dense_c.c``) run their twin, ``_dense_c_sides.h``: the same functions with the
same names and loops, on small arrays inside the kernels' loops. A rule change is an edit
of both; the tests compare the dense table with the memoised search of the engine on every
pair of sides of small games, which any difference between the two would show.

Example:
    >>> new_me, new_opp = [0] * 5, [0] * 5
    >>> sow((2, 0, 0, 0, 0), (0, 0, 3, 0, 0), 2, False, new_me, new_opp)
    3
    >>> new_me, new_opp     # the last bean lands in the empty d=3, facing the opponent's d=2
    ([0, 0, 0, 1, 1], [0, 0, 0, 0, 0])
"""

from __future__ import annotations


def can_harvest(side, d) -> bool:
    """Whether the cup at distance ``d`` can be harvested: it holds exactly ``d`` (BOHN-5)."""
    return side[d] == d


def sow_limit(side) -> int:
    """The largest sow open to the owner of ``side``: ``min(n, stock)`` beans (BOHN-3)."""
    n = len(side) - 1
    return side[0] if side[0] < n else n


def can_move(side) -> bool:
    """Whether the owner of ``side`` can sow or harvest (BOHN-3, BOHN-5); otherwise he
    passes (BOHN-6)."""
    if sow_limit(side) > 0:
        return True
    for d in range(1, len(side)):
        if can_harvest(side, d):
            return True
    return False


def sow(me, opp, k, every, new_me, new_opp) -> int:
    """Sow ``k`` beans of the owner of ``me``; write both new sides, return his pot gain.

    BOHN-3: the beans come from the stock and go one each into the cups at distances
    ``n, n-1, ..., n-k+1``. BOHN-4: a bean landing in an empty cup at distance ``d``
    captures the opponent's facing cup ``n + 1 - d`` into the mover's pot: only the last
    sown bean captures, or every sown bean when ``every`` (the capture variant).
    The sow is assumed legal (``1 <= k <= min(n, stock)``, see :func:`sow_limit`).
    """
    n = len(me) - 1
    for j in range(n + 1):
        new_me[j] = me[j]
        new_opp[j] = opp[j]
    gain = 0
    new_me[0] -= k
    last = n - k + 1
    for d in range(n, last - 1, -1):
        if me[d] == 0 and (every or d == last):
            facing = n + 1 - d
            gain += new_opp[facing]
            new_opp[facing] = 0
        new_me[d] += 1
    return gain


def harvest(me, d, new_me) -> int:
    """Harvest the cup at distance ``d`` of the owner of ``me``; write his new side, return
    his pot gain (always 1).

    BOHN-5: the cup holds exactly ``d`` beans; they go one each into the cups nearer the
    pot and one into the pot. The opponent's side does not change. Assumed legal.
    """
    for j in range(len(me)):
        new_me[j] = me[j]
    new_me[d] = 0
    for j in range(1, d):
        new_me[j] += 1
    return 1


def overfills(side, harvest, count) -> bool:
    """Whether the move puts a bean into an own cup that already holds its distance (after
    which that cup can only be emptied by the opponent's capture, BOHN-5)."""
    n = len(side) - 1
    if harvest:
        for j in range(1, count):
            if side[j] == j:
                return True
        return False
    for d in range(n, n - count, -1):
        if side[d] == d:
            return True
    return False


def potential(side) -> int:
    """Sum of the distances to the pot of the beans of one side (the stock at ``n + 1``)."""
    n = len(side) - 1
    total = side[0] * (n + 1)
    for d in range(1, n + 1):
        total += d * side[d]
    return total
