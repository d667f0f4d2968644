"""Pitjesbak's chain of value sources: which solution answers a decision, decided once.

Which solution answers depends on the players still in the game (PIT-1: a player put out in
an earlier round has left the table) and on their stripes; the limits are written once
(the constants of :mod:`.limits`, :func:`.table_solver.table_solvable`) and
:func:`source_chain` (:meth:`PitjesbakGame.sources <dicemath.core.game.Game.sources>`),
:func:`.table_game.default_solution`, the command line, the page, the analysis and the
report all follow them:

1. ``two-player game solution`` (exact, float64): :data:`~.limits.GAME_SOLUTION_PLAYERS`
   players, :func:`.game_solver.solve_game` (value iteration with rigorous bounds), any stripes;
2. ``table solution`` (exact, float64): :data:`~.limits.TABLE_SOLUTION_PLAYERS` players,
   :func:`.table_solver.solve_table` (value iteration), solved on demand and cached, when the
   table's work (:func:`.table_solver.table_work` at the cap :func:`.table_solver.table_cap`)
   is at most :data:`.table_solver.MAX_WORK`;
3. ``table estimate (fitted strengths)`` (estimate): any table of 2 to 8 players,
   :func:`.table_estimate.estimate_table`.

Each source answers with :func:`.decision.decide` and :func:`.decision.decision_advice`.

Example:
    >>> print(source_chain().describe())
    two-player game solution (exact, float64): 2 players still in the game, any stripes
    table solution (exact, float64): 3 or 4 players still in the game, their stripes within the table solver's MAX_WORK
    table estimate (fitted strengths) (estimate): any table of 2 to 8 players
"""

from __future__ import annotations

from typing import Any

from dicemath.core.sources import Source, SourceChain
from dicemath.games.pitjesbak.decision import decide, decision_advice
from dicemath.games.pitjesbak.game_solver import GameSolution
from dicemath.games.pitjesbak.limits import (
    ESTIMATE, ESTIMATE_PLAYERS, GAME_SOLUTION, GAME_SOLUTION_PLAYERS, TABLE_SOLUTION, TABLE_SOLUTION_PLAYERS)
from dicemath.games.pitjesbak.rules import Rules
from dicemath.games.pitjesbak.state import State
from dicemath.games.pitjesbak.table_solver import table_cap, table_solvable

__all__ = ["ESTIMATE", "ESTIMATE_PLAYERS", "GAME_SOLUTION", "GAME_SOLUTION_PLAYERS", "TABLE_SOLUTION",
           "TABLE_SOLUTION_PLAYERS", "round_stripes", "source_chain", "table_cap", "table_solvable"]


def round_stripes(state: State) -> tuple[int, ...]:
    """The stripes of the players still in the game, in this round's turn order."""
    return tuple(state.stripes[seat] for seat in state.order)


def _given_exact(solution: Any) -> bool | None:
    """None without a solution; else whether the given solution is exact."""
    if solution is None:
        return None
    return True if isinstance(solution, GameSolution) else bool(solution.exact)


def _covers_game(state: State, solution: Any = None, **_: Any) -> bool:
    return len(state.order) == GAME_SOLUTION_PLAYERS and _given_exact(solution) in (None, True)


def _covers_table(state: State, solution: Any = None, **_: Any) -> bool:
    given = _given_exact(solution)
    if len(state.order) not in TABLE_SOLUTION_PLAYERS or given is False:
        return False
    return given is True or table_solvable(state.rules, round_stripes(state))


def _covers_estimate(state: State, solution: Any = None, **_: Any) -> bool:
    return len(state.order) in ESTIMATE_PLAYERS and _given_exact(solution) in (None, False)


def _answer(name: str):
    """The advise function of source ``name``: :func:`.decision.decide` on the state (with the
    given ``solution``, else the source's default), named ``name``."""

    def advise(state: State, solution: Any = None, **_: Any):
        if solution is None and name == ESTIMATE:
            from dicemath.games.pitjesbak.table_estimate import estimate_table

            solution = estimate_table(state.rules.with_players(len(state.order)))
        return decision_advice(state, decide(state, solution=solution), source=name)

    return advise


def source_chain(rules: Rules | None = None) -> SourceChain:
    """The chain (see the module docstring), the same for every rules (``rules`` is the
    :meth:`~dicemath.core.game.Game.sources` argument, unused: each source reads the state's).

    The settings its sources take: ``solution``, a solved game or table to answer with
    instead of the default one (it must be of the source's kind: exact, or an estimate).
    """
    return SourceChain(
        Source(GAME_SOLUTION, True, f"{GAME_SOLUTION_PLAYERS} players still in the game, any stripes",
               _covers_game, _answer(GAME_SOLUTION)),
        Source(TABLE_SOLUTION, True, f"{' or '.join(map(str, TABLE_SOLUTION_PLAYERS))} players still in the "
               "game, their stripes within the table solver's MAX_WORK", _covers_table, _answer(TABLE_SOLUTION)),
        Source(ESTIMATE, False, f"any table of {ESTIMATE_PLAYERS[0]} to {ESTIMATE_PLAYERS[-1]} players",
               _covers_estimate, _answer(ESTIMATE)))
