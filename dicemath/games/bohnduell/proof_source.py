"""Exact values of any BohnDuell position on demand: a proof by search within a time limit.

The chain's source ``proof`` (:func:`~dicemath.games.bohnduell.search.source_chain`: after the
exact tables and the exact solve of small positions, before the search estimate) proves the
value of every legal move of a position with the compiled MTD(f) search over proven bounds
(:func:`~dicemath.games.bohnduell.proof_compiled.search_compiled`, the search of
:func:`~dicemath.games.bohnduell.proof.prove` started at the position, without a
certificate). Its leaves are the exact values of the table of ``proof_table_stock`` beans a
side (:data:`~dicemath.games.bohnduell.limits.PROOF_TABLE_STOCK`, :func:`proof_table`: the
strong table of that stock when one was built, else the dense table, built once on first use
and kept in the cache; the first use says so, with its measured cost), the end of the game
(BOHN-6) and the static bounds of
:func:`~dicemath.games.bohnduell.proof_format.static_bounds`.

The search runs at most ``proof_seconds`` seconds of wall time
(:data:`~dicemath.games.bohnduell.limits.PROOF_SECONDS`). A position whose every move is
proven exactly within them is answered exactly: each move valued by the mover's final pot
difference after it and best play (BOHN-6, BOHN-7), as the tables value it. Otherwise the
source does not cover the position and the chain answers with the search estimate, whose
advice says that the proof did not finish (:func:`unfinished`). A position with a side of
more than :data:`PROOF_REACH` beans above the table is not tried: its proof needs far more
than seconds. Each position is searched once per process for each time limit and table (finished
or not), so its advice and the values of the positions around it ask one proof.

Example:
    >>> from dicemath.games.bohnduell.rules import Rules
    >>> from dicemath.games.bohnduell.solver_dense import solve_dense
    >>> from dicemath.games.bohnduell.state import initial_state
    >>> position = initial_state(Rules(stock=8)).apply("S2")
    >>> proof = prove_position(position, seconds=10, table_stock=4)
    >>> proof.values == solve_dense(Rules(stock=8)).move_values(position)
    True
    >>> prove_position(initial_state(Rules(stock=30)), seconds=1, table_stock=4).values is None   # too far
    True
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass
from functools import lru_cache

from dicemath.core.cache import cache_dir, cache_key, expected_cost, size_text
from dicemath.games.bohnduell.limits import PROOF_SECONDS, PROOF_TABLE_STOCK
from dicemath.games.bohnduell.proof_compiled import MAX_CUPS, search_compiled
from dicemath.games.bohnduell.proof_format import decode_move
from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.solver_dense import DENSE_FORMAT, DenseTable
from dicemath.games.bohnduell.state import Move, Side, State
from dicemath.games.bohnduell.strong_table import endgame_table, strong_tables

PROOF_REACH = 10
"""The most beans a side of a position proven on demand may hold above the proof's table
(``proof_table_stock``); beyond, no proof is tried (the search estimate answers)."""

PROOF_MEMORY = 256 << 20
"""The bound of the proof's transposition table in bytes (256 MiB, about 11 million positions;
entries are replaced beyond, see :mod:`~dicemath.games.bohnduell.proof_compiled`)."""


@dataclass(frozen=True)
class PositionProof:
    """What the proof of one position found (:func:`prove_position`).

    Attributes:
        values: per legal move, the mover's final pot difference after it and best play
            (exact, BOHN-6), in the position's move order; None when the proof did not finish
            within its time limit or was not tried (:data:`PROOF_REACH`).
        seconds: the wall time of the search (0 when it was not tried).
        nodes: the positions it expanded.
        tried: False when the position lies beyond :data:`PROOF_REACH`.
    """

    values: dict[Move, int] | None
    seconds: float
    nodes: int
    tried: bool


def within_reach(state: State, table_stock: int) -> bool:
    """Whether a proof of ``state`` over the table of ``table_stock`` beans a side is tried:
    the compiled search takes its cups (:data:`~.proof_compiled.MAX_CUPS`) and neither side
    holds more than :data:`PROOF_REACH` beans above the table."""
    return state.rules.cups <= MAX_CUPS and max(map(sum, state.mover_sides)) <= table_stock + PROOF_REACH


def prove_position(state: State, seconds: int = PROOF_SECONDS, table_stock: int = PROOF_TABLE_STOCK) -> PositionProof:
    """The exact value of every legal move of ``state`` proven within ``seconds`` over the table
    of ``table_stock`` beans a side (:func:`proof_table`), once per process.

    Args:
        state: any position (a finished game has no moves: ``values`` is empty).
        seconds: the time limit of the search (wall seconds; 0: not tried).
        table_stock: the stock of the proof's table (0: none, the leaves are the end of the game
            and the static bounds).

    Returns:
        A :class:`PositionProof` (``values`` None when it did not finish).
    """
    if not seconds or not within_reach(state, table_stock):
        return PositionProof(None, 0.0, 0, False)
    me, opp = state.mover_sides
    found, spent, nodes = _proof(state.rules.cups, state.rules.capture, me, opp, seconds, table_stock)
    if found is None:
        return PositionProof(None, spent, nodes, True)
    base = state.pots[state.to_move] - state.pots[1 - state.to_move]
    values = {move: base + found[move] for move in state.legal_actions()}
    return PositionProof(values, spent, nodes, True)


@lru_cache(maxsize=4096)
def _proof(cups: int, capture: str, me: Side, opp: Side, seconds: int,
           table_stock: int) -> tuple[dict[Move, int] | None, float, int]:
    """The search of one position: ``(future value of each move, or None; seconds; nodes)``."""
    rules = Rules(cups=cups, stock=max(sum(me), sum(opp), 1), capture=capture)
    table = proof_table(rules, table_stock)
    began = time.perf_counter()
    outcome = search_compiled(rules, table, seconds=float(seconds), all_first_moves=True, memory=PROOF_MEMORY,
                              sides=(me, opp), rows=False)
    spent = time.perf_counter() - began
    if outcome.exhausted or any(low != high for _, low, high in outcome.first_moves):
        return None, spent, outcome.nodes
    return {decode_move(code): low for code, low, _ in outcome.first_moves}, spent, outcome.nodes


def proof_table(rules: Rules, table_stock: int) -> DenseTable | None:
    """The table the proof searches over for the variant of ``rules`` (cups, capture): its
    sides hold at most ``table_stock`` beans (None for 0). The strong table of that stock when
    one was built (``dicemath bohnduell table build``), else the dense table, built on first
    use (which says so on standard error, with the cost measured) and kept in the cache;
    opened once per process."""
    return _proof_table(rules.cups, rules.capture, table_stock)


@lru_cache(maxsize=2)
def _proof_table(cups: int, capture: str, table_stock: int) -> DenseTable | None:
    if not table_stock:
        return None
    rules = Rules(cups=cups, stock=table_stock, capture=capture)
    if not table_built(rules):
        sys.stderr.write(first_use_notice(rules) + "\n")
        sys.stderr.flush()
    return endgame_table(rules, table_stock)


def table_built(rules: Rules) -> bool:
    """Whether the proof's table of ``rules`` (its stock a side) is on this machine: a finished
    strong table of that stock, or the dense table in the cache."""
    if any(entry.complete and entry.current and entry.sides == "reachable"
           and (entry.cups, entry.stock, entry.capture) == (rules.cups, rules.stock, rules.capture)
           for entry in strong_tables()):
        return True
    return (cache_dir() / f"{cache_key('bohnduell-dense', (rules, 'reachable'), DENSE_FORMAT)}.npz").exists()


def first_use_notice(rules: Rules) -> str:
    """The line the first proof on a machine writes before its table is built, with the cost
    measured (``dicemath/data/table_costs.json``) when there is one.

    Example:
        >>> first_use_notice(Rules(stock=3)).startswith("dicemath: BohnDuell proves positions beyond")
        True
    """
    cost = expected_cost("bohnduell-dense", (rules, "reachable"))
    measured = (f"about {cost['seconds']:.0f} s and {size_text(cost['bytes'])} when measured on {cost['machine']}"
                if cost is not None else "its size and time follow when it is built")
    return (f"dicemath: BohnDuell proves positions beyond its exact tables by search over the table of {rules.stock} "
            f"beans a side, built once now ({measured}; the proof_table_stock setting chooses another)")


def unfinished(state: State, seconds: int = PROOF_SECONDS, table_stock: int = PROOF_TABLE_STOCK) -> str | None:
    """Why the proof did not answer ``state``, for the estimate's advice: ``"not finished within
    10 s over the table of 20 beans a side"``, ``"not tried: a side holds more than 30 beans"``;
    None when no proof was asked for (``seconds`` 0) or it finished."""
    if not seconds:
        return None
    proof = prove_position(state, seconds, table_stock)
    if proof.values is not None:
        return None
    if state.rules.cups > MAX_CUPS:
        return f"not tried: the compiled proof takes at most {MAX_CUPS} cups"
    if not proof.tried:
        return f"not tried: a side holds more than {table_stock + PROOF_REACH} beans"
    return f"not finished within {seconds} s over the table of {table_stock} beans a side"
