"""Exact values of any BohnDuell position on demand: a proof by search within a time limit.

The chain's source ``proof`` (:func:`~dicemath.games.bohnduell.search.source_chain`: after the
exact tables and the exact solve of small positions, before the search estimate) proves the
value of every legal move of a position with the compiled MTD(f) search over proven bounds
(:func:`~dicemath.games.bohnduell.proof_compiled.search_compiled`, the search of
:func:`~dicemath.games.bohnduell.proof.prove` started at the position, without a
certificate). Its leaves are the exact values of the strong table of ``proof_table_stock``
beans a side (:data:`~dicemath.games.bohnduell.limits.PROOF_TABLE_STOCK`, :func:`proof_table`:
memory-mapped from the cache; built there once on first use by
:func:`~dicemath.games.bohnduell.strong_table.build_strong`, which says so with its size and
time; a larger finished strong table of the variant in the cache serves instead, its values
being as exact), the end of the game (BOHN-6) and the static bounds of
:func:`~dicemath.games.bohnduell.proof_format.static_bounds`.

The searches of a process share one transposition table per variant (:data:`PROOF_MEMORY`,
:func:`~dicemath.games.bohnduell.proof_compiled.transpositions`): a proven bound is the
game's, so the proof of a game's next position starts from what the proofs before it
proved, finished or not. Before a search the table drops the positions no later position
of the game reaches (a side with more beans than either side of the position searched, or
more beans in all; a side's beans never grow, BOHN-3..BOHN-5) once it is half full.

The search runs at most ``proof_seconds`` seconds of wall time
(:data:`~dicemath.games.bohnduell.limits.PROOF_SECONDS`). A position whose every move is
proven exactly within them is answered exactly: each move valued by the mover's final pot
difference after it and best play (BOHN-6, BOHN-7), as the tables value it. Otherwise the
source does not cover the position and the chain answers with the search estimate, whose
advice says that the proof did not finish (:func:`unfinished`). A position with a side of
more than :data:`PROOF_REACH` beans above the table is not tried: its proof needs far more
than the time limit. Each position is searched once per process for each time limit and table
(finished or not), so its advice and the values of the positions around it ask one proof.

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
import threading
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from dicemath.games.bohnduell.limits import PROOF_SECONDS, PROOF_TABLE_STOCK
from dicemath.games.bohnduell.proof_compiled import MAX_CUPS, search_compiled, transpositions
from dicemath.games.bohnduell.proof_format import decode_move
from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.solver_dense import DenseTable
from dicemath.games.bohnduell.state import Move, Side, State
from dicemath.games.bohnduell.strong_table import build_strong, covering_entry, covering_table

PROOF_REACH = 12
"""The most beans a side of a position proven on demand may hold above the proof's table
(``proof_table_stock``); beyond, no proof is tried (the search estimate answers). The proofs
that do not finish near it still leave their bounds to the positions that follow."""

PROOF_MEMORY = 1 << 30
"""The bound of the proofs' shared transposition table in bytes (1 GiB, about 33 million
positions once grown; entries are replaced beyond, see
:mod:`~dicemath.games.bohnduell.proof_compiled`)."""


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
    kept, swept = _kept(cups, capture)
    began = time.perf_counter()
    side, total = rules.stock, sum(me) + sum(opp)
    with swept[1]:
        if kept.positions > kept.capacity // 2 and (side < swept[0][0] or total < swept[0][1]):
            kept.drop_beyond(side, total)
            swept[0] = (side, total)
        outcome = search_compiled(rules, table, seconds=float(seconds), all_first_moves=True, sides=(me, opp),
                                  rows=False, transpositions=kept)
    spent = time.perf_counter() - began
    if outcome.exhausted or any(low != high for _, low, high in outcome.first_moves):
        return None, spent, outcome.nodes
    return {decode_move(code): low for code, low, _ in outcome.first_moves}, spent, outcome.nodes


@lru_cache(maxsize=2)
def _kept(cups: int, capture: str) -> tuple[Any, list[Any]]:
    """The process's transposition table of a variant, and ``[(side, total) it was last swept
    to, the lock of its one search at a time]``."""
    return transpositions(Rules(cups=cups, capture=capture), PROOF_MEMORY), [(1 << 30, 1 << 30), threading.Lock()]


def proof_table(rules: Rules, table_stock: int) -> DenseTable | None:
    """The table the proof searches over for the variant of ``rules`` (cups, capture): its
    sides hold at least ``table_stock`` beans (None for 0). The smallest finished strong table
    of the variant in the cache that holds them (``dicemath bohnduell table list``), else the
    strong table of ``table_stock`` built there now (the first use, which says so on standard
    error, and :func:`~dicemath.games.bohnduell.strong_table.build_strong` announces its size
    and time); memory-mapped, opened once per process."""
    return _proof_table(rules.cups, rules.capture, table_stock)


@lru_cache(maxsize=2)
def _proof_table(cups: int, capture: str, table_stock: int) -> DenseTable | None:
    if not table_stock:
        return None
    rules = Rules(cups=cups, stock=table_stock, capture=capture)
    table = covering_table(rules, table_stock)
    if table is None:
        sys.stderr.write(first_use_notice(rules) + "\n")
        sys.stderr.flush()
        build_strong(rules)
        table = covering_table(rules, table_stock)
    return table


def table_built(rules: Rules) -> bool:
    """Whether the proof's table of ``rules`` (its stock a side) is on this machine: a finished
    strong table of the variant holding that stock in the cache."""
    return covering_entry(rules, rules.stock) is not None


def first_use_notice(rules: Rules) -> str:
    """The line the first proof on a machine writes before its table is built.

    Example:
        >>> first_use_notice(Rules(stock=3)).startswith("dicemath: BohnDuell proves positions beyond")
        True
    """
    return (f"dicemath: BohnDuell proves positions beyond its exact tables by search over the strong table of "
            f"{rules.stock} beans a side, built once now (the proof_table_stock setting chooses another)")


def unfinished(state: State, seconds: int = PROOF_SECONDS, table_stock: int = PROOF_TABLE_STOCK) -> str | None:
    """Why the proof did not answer ``state``, for the estimate's advice: ``"not finished within
    20 s over the table of 26 beans a side"``, ``"not tried: a side holds more than 38 beans"``;
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
