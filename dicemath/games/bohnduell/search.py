"""Advisor beyond the solved range: alpha-beta search with exact tables near the end.

For the standard 40-bean game (too large to solve, docs/rules.md section 5) the advisor runs a
negamax alpha-beta search with a transposition table over ``(mover side, other side)``
keys, the same values as the exact solvers (future pot difference from the mover's view,
so the pots already filled never enter the search). A position whose two sides each hold
at most ``table.stock`` beans in stock and cups is looked up *exactly* in a
:class:`~dicemath.games.bohnduell.solver_dense.DenseTable`; at the search horizon other
positions get a linear evaluation whose weights are least-squares fitted to the exact
values of that table (see :func:`fit_evaluation`). Values are floats (an estimate),
except those marked exact.

The tests check the search against the core's generic search
(:mod:`dicemath.core.search`) run on :class:`~dicemath.games.bohnduell.state.State`.

Example:
    >>> from dicemath.games.bohnduell.rules import Rules
    >>> advice = advise(initial_state(Rules()), depth=2, table_stock=6)
    >>> advice.best.action.kind, advice.exact, advice.source
    ('sow', False, 'search (depth 2) with exact tables of 6 beans a side')
"""

from __future__ import annotations

import numpy as np

from dicemath.core.advice import Advice, Option
from dicemath.core.cache import cached_object
from dicemath.core.errors import InvalidStateError
from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.solver_dense import DenseTable, load_dense
from dicemath.games.bohnduell.solver_dict import Key, successors
from dicemath.games.bohnduell.state import PLAYER_NAMES, Move, Side, State, initial_state

EXACT, LOWER, UPPER = 0, 1, 2


def side_features(side: Side) -> tuple[float, ...]:
    """Features of one side: stock, beans in cups that can still be harvested
    (``c_d <= d``), beans in overfilled cups (``c_d > d``, BOHN-5: only a capture
    empties them), and the number of cups ready to harvest (``c_d == d``)."""
    n = len(side) - 1
    live = sum(side[d] for d in range(1, n + 1) if side[d] <= d)
    dead = sum(side[d] for d in range(1, n + 1) if side[d] > d)
    ready = sum(1 for d in range(1, n + 1) if side[d] == d)
    return (side[0], live, dead, ready)


def features(me: Side, opp: Side) -> np.ndarray:
    """Mover-minus-other differences of :func:`side_features`, plus a constant 1."""
    mine, theirs = side_features(me), side_features(opp)
    return np.array([a - b for a, b in zip(mine, theirs)] + [1.0])


def fit_evaluation(table: DenseTable, samples: int = 50_000, seed: int = 0) -> np.ndarray:
    """Least-squares weights of :func:`features` against the exact values of ``table``.

    Fitted on ``samples`` positions drawn uniformly from those reachable from the start
    of the table's largest game.
    """
    reach = np.flatnonzero(np.unpackbits(table.reachable(), bitorder="little"))
    rng = np.random.default_rng(seed)
    chosen = rng.choice(reach, size=min(samples, reach.size), replace=False)
    np_ = table.index.sides.shape[0]
    sides = table.index.sides
    rows = np.array([features(tuple(sides[i // np_]), tuple(sides[i % np_])) for i in chosen.tolist()])
    weights, *_ = np.linalg.lstsq(rows, table.values[chosen].astype(float), rcond=None)
    return weights


DEPTH = 6
"""The default search depth in plies beyond the move (every door: ``advise``, the command, the page)."""

TABLE_STOCK = 12
"""The default exact tables: sides of at most this many beans."""

UNIT = "final pot difference"
"""What BohnDuell advice values measure: the mover's pot minus the other's at the end, after
the move and best play from both (BOHN-7; higher is better)."""


class SearchAdvisor:
    """Alpha-beta (negamax, transposition table) with exact end-game tables.

    Args:
        rules: the variant; the exact table has the same cups and capture rule.
        depth: search depth in plies (a pass counts as a ply).
        table_stock: per-side bean bound of the exact table (0: no table).
    """

    def __init__(self, rules: Rules, depth: int = DEPTH, table_stock: int = TABLE_STOCK):
        self.rules = rules
        self.every = rules.every
        self.depth = depth
        self.table = load_dense(rules.cups, table_stock, rules.capture) if table_stock else None
        weight_table = self.table if self.table is not None else None
        if weight_table is None:
            self.weights = np.array([0.3, 0.5, -0.5, 0.0, 0.0])
        else:
            self.weights = cached_object("bohnduell-eval-weights",
                                         (rules.cups, table_stock, rules.capture),
                                         lambda: fit_evaluation(weight_table))
        self.tt: dict[Key, tuple[int, float, int]] = {}
        self.nodes = 0

    # -- values ----------------------------------------------------------------------
    def exact_value(self, me: Side, opp: Side) -> int | None:
        """``V(me, opp)`` from the table, or None when a side is not in it."""
        table = self.table
        if table is None or sum(me) > table.stock or sum(opp) > table.stock:
            return None
        index = table.index
        if not (index.contains(me) and index.contains(opp)):
            return None
        return table.value(me, opp)

    def evaluate(self, me: Side, opp: Side) -> float:
        """Estimated ``V(me, opp)`` at the horizon (fitted linear evaluation)."""
        return float(features(me, opp) @ self.weights)

    def search(self, me: Side, opp: Side, depth: int, alpha: float = -1e9, beta: float = 1e9) -> float:
        """Negamax alpha-beta value of ``V(me, opp)`` to ``depth`` plies."""
        self.nodes += 1
        exact = self.exact_value(me, opp)
        if exact is not None:
            return exact
        key = (me, opp)
        entry = self.tt.get(key)
        if entry is not None and entry[0] >= depth:
            _, value, flag = entry
            if flag == EXACT or (flag == LOWER and value >= beta) or (flag == UPPER and value <= alpha):
                return value
        nexts = successors(me, opp, self.every)
        if not nexts:
            return 0.0
        if depth <= 0:
            return self.evaluate(me, opp)
        nexts.sort(key=lambda item: -item[1])
        start_alpha, best = alpha, -1e9
        for _, gain, (o2, m2) in nexts:
            value = gain - self.search(o2, m2, depth - 1, -(beta - gain), -(alpha - gain))
            if value > best:
                best = value
            if best > alpha:
                alpha = best
            if alpha >= beta:
                break
        flag = UPPER if best <= start_alpha else LOWER if best >= beta else EXACT
        self.tt[key] = (depth, best, flag)
        return best

    def advise(self, position: State, depth: int | None = None) -> Advice:
        """Every legal move with its value (mover's view final pot difference), best first.

        A move whose successor lies in the exact table gets the exact value (option extra
        ``method`` ``"exact"``); the others a searched value to ``depth`` plies. The advice
        is exact when every option is. A finished game has no options.
        """
        depth = self.depth if depth is None else depth
        me, opp = position.mover_sides
        base = position.pots[position.to_move] - position.pots[1 - position.to_move]
        if len(self.tt) > 2_000_000:
            self.tt.clear()
        result = []
        for move, gain, (o2, m2) in ([] if position.is_over() else successors(me, opp, self.every)):
            exact = self.exact_value(o2, m2)
            value = exact if exact is not None else self.search(o2, m2, depth - 1)
            result.append((base + gain - value, move, exact is not None))
        result.sort(key=lambda a: (-a[0], a[1]))
        mover, other = PLAYER_NAMES[position.to_move], PLAYER_NAMES[1 - position.to_move]
        options = tuple(Option(move, position.action_text(move), value,
                               {"move": str(move), "method": "exact" if exact else f"searched (depth {depth})"})
                        for value, move, exact in result)
        stock = self.table.stock if self.table is not None else 0
        exact = all(o.extras["method"] == "exact" for o in options)
        source = "table" if exact else (f"search (depth {depth})" + (f" with exact tables of {stock} beans a side"
                                                                      if stock else ""))
        return Advice(game="bohnduell", state=str(position), unit=UNIT, higher_is_better=True, exact=exact,
                      source=source, options=options,
                      extras={"to_move": mover, "value_view": f"final pot difference {mover} - {other} after the "
                                                              "move and best play",
                              "game_over": position.is_over(), "pots": list(position.pots), "table_stock": stock,
                              "depth": depth})

    def best_move(self, position: State) -> Move:
        """The move with the highest value (ties: the first in move order)."""
        return self.advise(position).best.action


def advise(state: State, *, depth: int = DEPTH, table_stock: int = TABLE_STOCK) -> Advice:
    """Every legal move of ``state`` with its value, best first (a :class:`SearchAdvisor`).

    Args:
        state: a state where a player moves.
        depth: alpha-beta depth in plies beyond the move.
        table_stock: exact tables for sides of at most this many beans (0: none).

    Returns:
        The :class:`~dicemath.core.advice.Advice`: per legal move the final pot difference
        from the mover's view after the move and best play, exact (``method``) where the
        position after the move is in the table.

    Raises:
        InvalidStateError: the game is over (nobody decides).
    """
    if state.is_over():
        raise InvalidStateError(f"the game is over in {state}: there is no move to advise")
    return SearchAdvisor(state.rules, depth=depth, table_stock=table_stock).advise(state)
