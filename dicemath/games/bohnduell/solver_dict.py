"""Baseline exact solver: a memoised depth-first search keyed by the two sides.

Values are *future pot differences from the mover's view*: ``V(me, opp)`` is what the
player to move will add to his pot from here on minus what the opponent will add, both
playing to maximise their own final pot difference (BOHN-6: the final pots decide). Pots
already filled do not change the best play, so a solved position is just the pair of
sides ``(mover's side, other side)``; the final pot difference is the current one plus
``V``. The recursion (negamax, exact integers)::

    V(me, opp) = max over moves m of  gain(m) - V(opp', me')      (a move exists)
               = -V(opp, me)                                        (me must pass)
               = 0                                                  (game over)

The search uses an explicit stack (games last up to ``2 * Phi + 1`` moves, more than
Python's recursion limit allows) and terminates because every successor has a smaller
potential ``Phi`` (see :mod:`dicemath.games.bohnduell.state`), so the graph is acyclic.

Why a game-specific search next to the core's :func:`dicemath.core.search.expectimax`:
the core keys its memo by whole states, pots included, so it solves each pair of sides
once per split of the pots (from the 7-bean start, more positions and several times the
time); keyed by the sides alone this solver answers any pair of sides, reachable
or not, and is the reference for the dense table on games too large for the core's
search in a test. The tests check it against the core's search on small games; the rules
it plays are those of :mod:`~dicemath.games.bohnduell.sides`.

Example:
    >>> from dicemath.games.bohnduell.rules import Rules
    >>> from dicemath.games.bohnduell.state import initial_state
    >>> start = initial_state(Rules(stock=6))
    >>> solver = DictSolver(start.rules)
    >>> solver.position_value(start)      # A, moving first with 6 beans each, loses by 1
    -1
    >>> {str(m): v for m, v in solver.move_values(start).items()}
    {'S1': -1, 'S2': -2, 'S3': -5, 'S4': -8}
"""

from __future__ import annotations

from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.sides import can_move
from dicemath.games.bohnduell.state import PASS_MOVE, Move, Side, State, initial_state, play_side, side_moves

Key = tuple[Side, Side]
"""``(side of the mover, side of the other player)``."""


def successors(me: Side, opp: Side, every: bool) -> list[tuple[Move, int, Key]]:
    """``(move, gain of the mover, key of the next position)`` for every legal move.

    The next key is seen from the next mover, i.e. ``(opp', me')``. Empty at the end.
    """
    moves = side_moves(me)
    if not moves:
        return [(PASS_MOVE, 0, (opp, me))] if can_move(opp) else []
    result = []
    for move in moves:
        gain, mine, theirs = play_side(me, opp, move, every)
        result.append((move, gain, (theirs, mine)))
    return result


class DictSolver:
    """Memoised negamax over ``(mover side, other side)`` keys (the baseline).

    Args:
        rules: only ``rules.capture`` matters (and the row length of the sides given).

    Attributes:
        table: every solved key with its value ``V`` (future pot difference, mover's view).
    """

    def __init__(self, rules: Rules):
        self.rules = rules
        self.every = rules.every
        self.table: dict[Key, int] = {}

    def value(self, me: Side, opp: Side) -> int:
        """``V(me, opp)``: the mover's future pot gain minus the opponent's, under best play."""
        table, every = self.table, self.every
        root = (me, opp)
        if root in table:
            return table[root]
        stack = [root]
        while stack:
            key = stack[-1]
            if key in table:
                stack.pop()
                continue
            nexts = successors(key[0], key[1], every)
            missing = [k for _, _, k in nexts if k not in table]
            if missing:
                stack.extend(missing)
                continue
            table[key] = max((gain - table[k] for _, gain, k in nexts), default=0)
            stack.pop()
        return table[root]

    def position_value(self, position: State) -> int:
        """Final pot difference (mover minus other) under best play from ``position``."""
        me, other = position.to_move, 1 - position.to_move
        return position.pots[me] - position.pots[other] + self.value(*position.mover_sides)

    def move_values(self, position: State) -> dict[Move, int]:
        """For each legal move: the final pot difference (mover's view) after best play."""
        me, other = position.to_move, 1 - position.to_move
        base = position.pots[me] - position.pots[other]
        return {move: base + gain - self.value(*key)
                for move, gain, key in successors(*position.mover_sides, self.every)}


def solve_from_start(rules: Rules) -> tuple[int, DictSolver]:
    """Solve every position reachable from the start of ``rules``.

    Returns:
        ``(value for player A, the solver)``; ``len(solver.table)`` is the number of
        distinct reachable positions (mover-relative keys, passes included).
    """
    solver = DictSolver(rules)
    return solver.position_value(initial_state(rules)), solver
