"""BohnDuell's chain of value sources, and the alpha-beta advisor beyond the exact ones.

Every door (:meth:`BohnDuellGame.advise <dicemath.core.game.Game.advise>`, ``dicemath
bohnduell advise``, the page, the analysis of played games, the report) asks
:func:`source_chain`; the first source that covers a position answers it (its advice at a
decision, its value of any position), each limit a constant of this module:

1. ``table`` (exact): both sides (stock and cups, BOHN-1) hold at most :data:`TABLE_STOCK`
   beans and lie in the :class:`~dicemath.games.bohnduell.solver_dense.DenseTable`.
2. ``strong table`` (exact): a strong table built on this machine
   (``dicemath bohnduell table build``, :mod:`~dicemath.games.bohnduell.strong_table`)
   covers both sides; the smallest such table answers.
3. ``solved start`` (exact): the start of a game whose first moves were solved by a strong
   table and ship with the package (:func:`solved_starts`, ``data/solved_starts.json``).
4. ``solve`` (exact): the potential ``Phi`` is at most :data:`SOLVE_POTENTIAL`; solved on
   demand by :class:`~dicemath.games.bohnduell.solver_dict.DictSolver`.
5. ``proof`` (exact): every move's value proven by search over the table of
   ``proof_table_stock`` beans a side (:data:`PROOF_TABLE_STOCK`, built once on first use)
   within ``proof_seconds`` (:data:`PROOF_SECONDS`),
   :func:`~dicemath.games.bohnduell.proof_source.prove_position`.
6. ``search`` (an estimate): any position; :class:`SearchAdvisor` to ``depth`` plies
   (:data:`DEPTH`, at most :data:`MAX_DEPTH`); its advice says why the proof did not answer
   (extra ``proof``).

A source's value of a position (:attr:`~dicemath.core.sources.Source.value`) is the final
pot difference under best play for each player (``(A - B, B - A)``, BOHN-6): the value of
its advice's best move, or the pots' difference once the game is over (exact, whatever the
source). BohnDuell has no chance.

Beyond the exact sources (in the standard 40-bean game, docs/rules.md section 5, most
positions after the start) the advisor runs the core's alpha-beta
(:func:`dicemath.core.search.negamax`) keyed by ``(mover side, other side)``, with the
same values as the exact solvers (future pot difference from the mover's view, so the pots
already filled never enter the search), its moves ordered by their immediate gain. A
position whose two sides lie in the dense table is looked up *exactly*; at the search
horizon other positions get a linear evaluation whose weights are least-squares fitted to
the exact values of that table (see :func:`fit_evaluation`).

The tests check the search against the core's :func:`~dicemath.core.search.alpha_beta` run
on :class:`~dicemath.games.bohnduell.state.State`, and the exact sources against the solvers.

Example:
    >>> from dicemath.games.bohnduell.rules import Rules
    >>> from dicemath.games.bohnduell.state import initial_state
    >>> chain = source_chain(Rules())
    >>> advice = chain.advise(initial_state(Rules()), depth=2, table_stock=6)   # the 40-bean start: proven
    >>> str(advice.best.action), advice.best.value, advice.exact, advice.source
    ('S1', -1, True, 'solved start')
    >>> chain.value(initial_state(Rules()), depth=2, table_stock=6)
    Valued(values=(-1.0, 1.0), exact=True)
    >>> advice = chain.advise(initial_state(Rules()).apply("S1"), depth=2, table_stock=6, proof_seconds=0)
    >>> advice.exact, advice.source
    (False, 'search (depth 2) with exact tables of 6 beans a side')
    >>> advice = chain.advise(initial_state(Rules(stock=12)).apply("S1"), table_stock=0, proof_table_stock=4)
    >>> advice.exact, advice.source, advice.best.value
    (True, 'proof', 1)
    >>> source_chain(Rules(stock=6)).advise(initial_state(Rules(stock=6)), table_stock=6).source
    'table'
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from functools import lru_cache
from importlib import resources
from typing import Any, cast

import numpy as np

from dicemath.core.advice import Advice, Option
from dicemath.core.cache import cached_object
from dicemath.core.errors import IllegalMoveError, InvalidStateError
from dicemath.core.search import negamax
from dicemath.core.sources import Source, SourceChain, Valued
from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.sides import can_move
from dicemath.games.bohnduell.limits import (DEPTH, MAX_DEPTH, PROOF_SECONDS, PROOF_TABLE_STOCK, TABLE_STOCK,
                                             check_settings)
from dicemath.games.bohnduell.proof_source import PROOF_REACH, prove_position, unfinished
from dicemath.games.bohnduell.solver_dense import DenseTable, load_dense
from dicemath.games.bohnduell.solver_dict import DictSolver, Key, successors
from dicemath.games.bohnduell.state import PLAYER_NAMES, Move, Side, State, initial_state
from dicemath.games.bohnduell.strong_table import covering_table


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
    index = table.index
    movers, others = index.decode(np.flatnonzero(np.unpackbits(table.reachable(), bitorder="little")))
    pairs = np.sort(movers * index.size + others)           # drawn in (mover rank, other rank) order
    rng = np.random.default_rng(seed)
    chosen = rng.choice(pairs, size=min(samples, pairs.size), replace=False)
    sides = index.sides
    rows = np.array([features(tuple(sides[p // index.size]), tuple(sides[p % index.size])) for p in chosen.tolist()])
    exact = [table.values[index.position(p // index.size, p % index.size)] for p in chosen.tolist()]
    weights, *_ = np.linalg.lstsq(rows, np.array(exact, dtype=float), rcond=None)
    return weights


SOLVE_POTENTIAL = 60
"""The exact solve's limit: positions outside the table whose potential ``Phi`` (the beans'
total distance to their pots, :meth:`State.potential`) is at most this are solved exactly on
demand (:class:`~dicemath.games.bohnduell.solver_dict.DictSolver`; the 6-bean start has 60)."""


def exact_table(rules: Rules, table_stock: int) -> DenseTable:
    """The exact table of the variant of ``rules`` (cups, capture) for sides of at most
    ``table_stock`` beans, loaded once per process (:func:`load_dense`)."""
    return _exact_table(Rules(cups=rules.cups, stock=table_stock, capture=rules.capture))


@lru_cache(maxsize=4)
def _exact_table(rules: Rules) -> DenseTable:
    return load_dense(rules)

UNIT = "final pot difference"
"""What BohnDuell advice values measure: the mover's pot minus the other's at the end, after
the move and best play from both (BOHN-7; higher is better)."""


EVAL_WEIGHTS_FORMAT = 1
"""The format version of the cached table ``bohnduell-eval-weights``: change it when its computation
or layout changes."""


class SearchAdvisor:
    """Alpha-beta (the core's negamax with this advisor's transposition table) with exact
    end-game tables.

    Args:
        rules: the variant; the exact table has the same cups and capture rule.
        depth: search depth in plies (a pass counts as a ply).
        table_stock: per-side bean bound of the exact table (0: no table).
    """

    def __init__(self, rules: Rules, depth: int = DEPTH, table_stock: int = TABLE_STOCK):
        self.rules = rules
        self.every = rules.every
        self.depth = depth
        self.table = exact_table(rules, table_stock) if table_stock else None
        weight_table = self.table if self.table is not None else None
        if weight_table is None:
            self.weights = np.array([0.3, 0.5, -0.5, 0.0, 0.0])
        else:
            self.weights = cached_object("bohnduell-eval-weights",
                                         (rules.cups, table_stock, rules.capture),
                                         lambda: fit_evaluation(weight_table), format_version=EVAL_WEIGHTS_FORMAT)
        self.tt: dict[Key, tuple[int, float, int]] = {}

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

    def moves(self, key: Key) -> list[tuple[int, Key, int]]:
        """The moves of ``(me, opp)`` for :func:`~dicemath.core.search.negamax`: ``(gain, key of
        the next position, -1)``, the largest gain first (move ordering); a pass is a move."""
        nexts = successors(key[0], key[1], self.every)
        nexts.sort(key=lambda item: -item[1])
        return [(gain, following, -1) for _, gain, following in nexts]

    def leaf(self, key: Key) -> int | None:
        """The known ``V(me, opp)``: exact from the table, 0 when the game is over (BOHN-6),
        else None."""
        me, opp = key
        exact = self.exact_value(me, opp)
        if exact is not None:
            return exact
        return None if can_move(me) or can_move(opp) else 0

    def search(self, me: Side, opp: Side, depth: int, alpha: float = float("-inf"),
               beta: float = float("inf")) -> float:
        """Alpha-beta value of ``V(me, opp)`` to ``depth`` plies: the core's
        :func:`~dicemath.core.search.negamax` keyed by the two sides, with the table's exact
        values at its leaves, the fitted evaluation at its horizon and this advisor's
        transposition table."""
        return negamax((me, opp), depth, children=self.moves, evaluate=self._evaluate_key, leaf=self.leaf,
                       table=self.tt, alpha=alpha, beta=beta)

    def _evaluate_key(self, key: Key) -> float:
        return float(features(key[0], key[1]) @ self.weights)

    def advise(self, position: State, depth: int | None = None) -> Advice:
        """Every legal move with its value (mover's view final pot difference), best first.

        A move whose successor lies in the exact table gets the exact value (option extra
        ``method`` ``"exact"``); the others a searched value to ``depth`` plies. The advice
        is an estimate (``exact`` False) even when every option happens to be exact: exact
        advice comes from the exact sources of :func:`source_chain`. A finished game has no
        options.
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
        stock = self.table.stock if self.table is not None else 0
        return _advice(position, result, False, search_label(depth, stock), depth, stock)

    def best_move(self, position: State) -> Move:
        """The move with the highest value (ties: the first in move order)."""
        best = self.advise(position).best
        if best is None:
            raise IllegalMoveError(f"the game is over in {position}: there is no move to choose")
        return cast(Move, best.action)            # the options' actions are the position's moves


def search_label(depth: int, table_stock: int) -> str:
    """The ``source`` of the search's advice: ``"search (depth 6) with exact tables of 12 beans a side"``."""
    return f"search (depth {depth})" + (f" with exact tables of {table_stock} beans a side" if table_stock else "")


def _advice(position: State, rows: list, exact: bool, source: str, depth: int, table_stock: int,
            **extras: Any) -> Advice:
    """The :class:`Advice` of ``rows`` ``(value, move, exact)``, best first (ties in move order),
    ``extras`` added to the envelope's."""
    rows = sorted(rows, key=lambda a: (-a[0], a[1]))
    mover, other = PLAYER_NAMES[position.to_move], PLAYER_NAMES[1 - position.to_move]
    options = tuple(Option(move, position.action_text(move), value,
                           {"move": str(move), "method": "exact" if known else f"searched (depth {depth})"})
                    for value, move, known in rows)
    return Advice(game="bohnduell", state=str(position), unit=UNIT, higher_is_better=True, exact=exact,
                  source=source, options=options,
                  extras={"to_move": mover, "value_view": f"final pot difference {mover} - {other} after the "
                                                          "move and best play",
                          "game_over": position.is_over(), "pots": list(position.pots), "table_stock": table_stock,
                          "depth": depth, **extras})


def _in_table(state: State, depth: int = DEPTH, table_stock: int = TABLE_STOCK, proof_seconds: int = PROOF_SECONDS,
              proof_table_stock: int = PROOF_TABLE_STOCK, **_: Any) -> bool:
    depth, table_stock = check_settings(depth, table_stock, proof_seconds,
                                        proof_table_stock)[:2]        # the first source: the settings' one check
    if not table_stock or max(map(sum, state.mover_sides)) > table_stock:
        return False
    return exact_table(state.rules, table_stock).covers(state)


def _table_advice(state: State, depth: int = DEPTH, table_stock: int = TABLE_STOCK, **_: Any) -> Advice:
    table = exact_table(state.rules, table_stock)
    return _advice(state, [(v, m, True) for m, v in table.move_values(state).items()], True, "table", depth,
                   table_stock)


def _strong_table(state: State) -> DenseTable | None:
    table = covering_table(state.rules, max(map(sum, state.mover_sides)))
    return table if table is not None and table.covers(state) else None


def _in_strong_table(state: State, **_: Any) -> bool:
    return _strong_table(state) is not None


def _strong_table_advice(state: State, depth: int = DEPTH, **_: Any) -> Advice:
    table = _strong_table(state)
    if table is None:
        raise InvalidStateError(f"no strong table covers {state}")
    return _advice(state, [(v, m, True) for m, v in table.move_values(state).items()], True, "strong table", depth,
                   table.stock)


@lru_cache(maxsize=1)
def solved_starts() -> dict[str, Any]:
    """The first moves of the starts solved exactly, shipped with the package.

    ``data/solved_starts.json`` (written by ``analyses/bohnduell_solve_stocks.py`` and
    ``analyses/bohnduell_prove_stocks.py``): per ``"cups<n>-<capture>"`` and stock, the value
    of each first move (final pot difference for A, who moves first, BOHN-7) and what solved
    it: a dense or strong table, or a proof by search whose certificate was checked (its
    SHA-256 and the command that checks it). The standard 40-bean start is among them.
    """
    text = resources.files("dicemath.games.bohnduell").joinpath("data", "solved_starts.json").read_text()
    data: dict[str, Any] = json.loads(text)
    return data


def solved_start(rules: Rules) -> dict[str, Any] | None:
    """The shipped solution of the start of ``rules`` (its ``value``, ``first_moves`` and
    ``solved_by``, see :func:`solved_starts`), or None when it is not among them.

    Example:
        >>> solved_start(Rules())["first_moves"]
        {'S1': -1, 'S2': -2, 'S3': -5, 'S4': -8}
    """
    row: dict[str, Any] | None = solved_starts()["starts"].get(f"cups{rules.cups}-{rules.capture}", {}).get(
        str(rules.stock))
    return row


def _solved_start(state: State) -> dict[str, int] | None:
    row = solved_start(state.rules)
    return row["first_moves"] if row is not None and state == initial_state(state.rules) else None


def _is_solved_start(state: State, **_: Any) -> bool:
    return _solved_start(state) is not None


def _solved_start_advice(state: State, depth: int = DEPTH, table_stock: int = TABLE_STOCK, **_: Any) -> Advice:
    first_moves = _solved_start(state)
    if first_moves is None:
        raise InvalidStateError(f"{state} is not a solved start")
    rows = [(first_moves[str(move)], move, True) for move in state.legal_actions()]
    return _advice(state, rows, True, "solved start", depth, table_stock)


def _solvable(state: State, **_: Any) -> bool:
    return state.potential() <= SOLVE_POTENTIAL


def _solve_advice(state: State, depth: int = DEPTH, table_stock: int = TABLE_STOCK, **_: Any) -> Advice:
    values = DictSolver(state.rules).move_values(state)
    return _advice(state, [(v, m, True) for m, v in values.items()], True, "solve", depth, table_stock)


def _proven(state: State, proof_seconds: int = PROOF_SECONDS, proof_table_stock: int = PROOF_TABLE_STOCK,
            **_: Any) -> bool:
    return prove_position(state, proof_seconds, proof_table_stock).values is not None


def _proof_advice(state: State, depth: int = DEPTH, table_stock: int = TABLE_STOCK, proof_seconds: int = PROOF_SECONDS,
                  proof_table_stock: int = PROOF_TABLE_STOCK, **_: Any) -> Advice:
    proof = prove_position(state, proof_seconds, proof_table_stock)
    if proof.values is None:
        raise InvalidStateError(f"no proof of {state} within {proof_seconds} s")
    return _advice(state, [(v, m, True) for m, v in proof.values.items()], True, "proof", depth, table_stock,
                   proof=f"proven in {proof.seconds:.1f} s over the table of {proof_table_stock} beans a side")


def _any_position(state: State, **_: Any) -> bool:
    return True


def _search_advice(state: State, depth: int = DEPTH, table_stock: int = TABLE_STOCK, proof_seconds: int = PROOF_SECONDS,
                   proof_table_stock: int = PROOF_TABLE_STOCK, **_: Any) -> Advice:
    advice = SearchAdvisor(state.rules, depth=depth, table_stock=table_stock).advise(state)
    why = None if state.is_over() else unfinished(state, proof_seconds, proof_table_stock)
    return advice if why is None else replace(advice, extras={**advice.extras, "proof": why})


def _values_of(answer: Callable[..., Advice]) -> Callable[..., Valued]:
    """The :attr:`~dicemath.core.sources.Source.value` of a source whose advice is ``answer``:
    the final pot difference for each player, ``(A - B, B - A)``: the pots' at the end of the
    game (exact), else the value of the best move of ``answer`` (exact as the advice is)."""

    def value(state: State, **settings: Any) -> Valued:
        if state.is_over():
            return Valued(tuple(float(v) for v in state.returns()), True)
        advice = answer(state, **settings)
        if advice.best is None:                   # a game going on has a move (a pass is one)
            raise InvalidStateError(f"no move to value in {state}")
        best = float(advice.best.value)
        return Valued((best, -best) if state.to_move == 0 else (-best, best), advice.exact)

    return value


@lru_cache(maxsize=8)
def source_chain(rules: Rules) -> SourceChain:
    """BohnDuell's chain of value sources for the variant of ``rules``: every door (the game's
    advice, the command, the page, the analysis, the report) asks it.

    1. ``table`` (exact, int8 integers): both sides within the dense table
       (:data:`TABLE_STOCK` beans, the ``table_stock`` setting).
    2. ``strong table`` (exact, integers): the smallest strong table built on this machine
       that covers both sides (none unless one was built).
    3. ``solved start`` (exact, integers): the start of a game in :func:`solved_starts`.
    4. ``solve`` (exact, integers): potential at most :data:`SOLVE_POTENTIAL`, solved on demand.
    5. ``proof`` (exact, integers): every move proven within ``proof_seconds`` by search over
       the table of ``proof_table_stock`` beans a side
       (:mod:`~dicemath.games.bohnduell.proof_source`).
    6. ``search`` (an estimate): any position; alpha-beta to ``depth`` plies (:data:`DEPTH`,
       at most :data:`MAX_DEPTH`), the advice's ``source`` naming the depth and the table, its
       extra ``proof`` why the proof did not answer (when one was asked for).

    Every source covers finished games within its limit too, and values any position it
    covers (see the module docstring). The settings are ``depth``, ``table_stock``,
    ``proof_seconds`` and ``proof_table_stock`` (:func:`check_settings`, checked by the first
    source); other settings are ignored.

    Advice at a position where the game is over has no options: ask
    :meth:`~dicemath.core.game.Game.advise`, which refuses it.

    Example:
        >>> print(source_chain(Rules()).describe())
        table (exact, integer): both sides hold at most 12 beans (the table_stock setting) and lie in the table
        strong table (exact, integer): a strong table built here (dicemath bohnduell table build) covers both sides
        solved start (exact, integer): the start of a game whose first moves ship with the package
        solve (exact, integer): potential (total distance of the beans to their pots) at most 60
        proof (exact, integer): proven in 20 s (proof_seconds) over the 26-bean table (proof_table_stock); sides to +12
        search (estimate): any position: alpha-beta search, 1..12 plies (default 6)
    """
    return SourceChain(
        Source("table", True, f"both sides hold at most {TABLE_STOCK} beans (the table_stock setting) and lie in "
                              "the table", _in_table, _table_advice, arithmetic="integer",
               value=_values_of(_table_advice)),
        Source("strong table", True, "a strong table built here (dicemath bohnduell table build) covers both sides",
               _in_strong_table, _strong_table_advice, arithmetic="integer", value=_values_of(_strong_table_advice)),
        Source("solved start", True, "the start of a game whose first moves ship with the package", _is_solved_start,
               _solved_start_advice, arithmetic="integer", value=_values_of(_solved_start_advice)),
        Source("solve", True, f"potential (total distance of the beans to their pots) at most {SOLVE_POTENTIAL}",
               _solvable, _solve_advice, arithmetic="integer", value=_values_of(_solve_advice)),
        Source("proof", True, f"proven in {PROOF_SECONDS} s (proof_seconds) over the {PROOF_TABLE_STOCK}-bean table "
                              f"(proof_table_stock); sides to +{PROOF_REACH}", _proven, _proof_advice,
               arithmetic="integer", value=_values_of(_proof_advice)),
        Source("search", False, f"any position: alpha-beta search, 1..{MAX_DEPTH} plies (default {DEPTH})",
               _any_position, _search_advice, value=_values_of(_search_advice)))
