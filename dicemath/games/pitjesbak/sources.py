"""Pitjesbak's chain of value sources: which solution answers a decision, decided once.

Which solution answers depends on the players still in the game (PIT-1: a player put out in
an earlier round has left the table) and on their stripes; the limits are written once
(the constants of :mod:`.limits`, :func:`.table_solver.table_solvable`) and applied only by
the covers of :func:`source_chain` (:meth:`PitjesbakGame.sources
<dicemath.core.game.Game.sources>`), which the command line, the page, the analysis, the
report and :func:`default_solution` (the solution of a whole table, for the policy cards) ask:

1. ``two-player game solution`` (exact, float64): :data:`~.limits.GAME_SOLUTION_PLAYERS`
   players, :func:`.game_solver.solve_game` (value iteration with rigorous bounds), any stripes;
   it values every state of such a game too (:func:`game_value`), and every finished game;
2. ``table solution`` (exact, float64): :data:`~.limits.TABLE_SOLUTION_PLAYERS` players,
   :func:`.table_solver.solve_table` (value iteration), when the table's work
   (:func:`.table_solver.table_work` at the cap :func:`.table_solver.table_cap`) is at most
   :data:`.table_solver.MAX_WORK`: the presets' tables (9 stripes, stripe counts up to 11) read
   from the package's data (:mod:`.shipped`), the others solved on demand and cached;
3. ``table estimate (fitted strengths)`` (estimate): any table of 2 to 8 players,
   :func:`.table_estimate.estimate_table`.

Each source answers with :func:`.decision.decide` and :func:`.decision.decision_advice`, given
its own solution (:data:`SOLUTIONS`; the two-player game solution of a two-player game:
:func:`.game_solver.solve_game`).
Every source covers chance states and finished games too (by the players still in the game);
the two-player game solution values any state it covers (:attr:`~dicemath.core.sources.Source.value`:
each seat's probability of winning the game), the table sources give advice only.

Example:
    >>> print(source_chain().describe())
    two-player game solution (exact, float64): 2 players still in the game, any stripes; a finished game
    table solution (exact, float64): 3 or 4 players still in the game, their stripes within the table solver's MAX_WORK
    table estimate (fitted strengths) (estimate): any table of 2 to 8 players
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from dicemath.core.errors import InvalidStateError
from dicemath.core.sources import Source, SourceChain, Valued
from dicemath.games.pitjesbak.decision import decide, decision_advice
from dicemath.games.pitjesbak.game_solver import DEFAULT_EXTRA, GameSolution, TwoPlayerRound, solve_game
from dicemath.games.pitjesbak.limits import (
    ESTIMATE, ESTIMATE_PLAYERS, GAME_SOLUTION, GAME_SOLUTION_PLAYERS, TABLE_SOLUTION, TABLE_SOLUTION_PLAYERS)
from dicemath.games.pitjesbak.rules import Rules
from dicemath.games.pitjesbak.state import State
from dicemath.games.pitjesbak.table_estimate import estimate_table
from dicemath.games.pitjesbak.table_solver import (
    TableValues, solve_table, table_cap, table_solvable, two_player_solution)
from dicemath.games.pitjesbak.throws import class_space, classify

__all__ = ["ESTIMATE", "ESTIMATE_PLAYERS", "GAME_SOLUTION", "GAME_SOLUTION_PLAYERS", "SOLUTIONS", "TABLE_SOLUTION",
           "TABLE_SOLUTION_PLAYERS", "default_solution", "game_value", "round_stripes", "source_chain", "table_cap",
           "table_solvable"]


def round_stripes(state: State) -> tuple[int, ...]:
    """The stripes of the players still in the game, in this round's turn order."""
    return tuple(state.stripes[seat] for seat in state.order)


def _given_exact(solution: Any) -> bool | None:
    """None without a solution; else whether the given solution is exact."""
    if solution is None:
        return None
    return True if isinstance(solution, GameSolution) else bool(solution.exact)


def _covers_game(state: State, solution: Any = None, **_: Any) -> bool:
    return (len(state.order) == GAME_SOLUTION_PLAYERS or state.winner >= 0) and _given_exact(solution) in (None, True)


def _covers_table(state: State, solution: Any = None, **_: Any) -> bool:
    given = _given_exact(solution)
    if len(state.order) not in TABLE_SOLUTION_PLAYERS or given is False:
        return False
    return given is True or table_solvable(state.rules, round_stripes(state))


def _covers_estimate(state: State, solution: Any = None, **_: Any) -> bool:
    return len(state.order) in ESTIMATE_PLAYERS and _given_exact(solution) in (None, False)


def _two_player_solution(rules: Rules, stripes: Sequence[int]) -> TableValues:
    return two_player_solution(rules, max((rules.stripes + DEFAULT_EXTRA, *stripes)))


def _table_solution(rules: Rules, stripes: Sequence[int]) -> TableValues:
    return solve_table(rules, cap=table_cap(rules, stripes))


def _table_estimate(rules: Rules, stripes: Sequence[int]) -> TableValues:
    return estimate_table(rules)


SOLUTIONS: dict[str, Callable[[Rules, Sequence[int]], TableValues]] = {
    GAME_SOLUTION: _two_player_solution, TABLE_SOLUTION: _table_solution, ESTIMATE: _table_estimate}
"""Each source's solution of a whole table, ``(rules of the table's players, their stripes) ->``
:class:`~.table_solver.TableValues` (all cached): the two-player game solution
(:func:`.table_solver.two_player_solution`), the table solver (:func:`.table_solver.solve_table`
at :func:`.table_solver.table_cap`), the labelled estimate (:func:`.table_estimate.estimate_table`)."""


def default_solution(rules: Rules, stripes: Sequence[int] = ()) -> TableValues:
    """The solution of the source of :func:`source_chain` that answers a table of
    ``rules.players`` holding ``stripes`` (one count a player in turn order, default the
    starting ones): the table solution a policy card reads (:data:`SOLUTIONS`).

    Example:
        >>> default_solution(Rules(players=6)).exact
        False
    """
    n = rules.players
    stripes = tuple(stripes) or (rules.stripes,) * n
    start = State(rules, stripes, (False,) * n, (True,) * n, 0, tuple(range(n)))
    return SOLUTIONS[source_chain(rules).source_for(start).name](rules, stripes)


def _answer(name: str):
    """The advise function of source ``name``: :func:`.decision.decide` on the state with the
    given ``solution``, else the source's own (:data:`SOLUTIONS` of the round's players; a
    two-player game: its game solution), named ``name``."""

    def advise(state: State, solution: Any = None, **_: Any):
        if solution is None and (name != GAME_SOLUTION or state.rules.players != GAME_SOLUTION_PLAYERS):
            solution = SOLUTIONS[name](state.rules.with_players(len(state.order)), round_stripes(state))
        return decision_advice(state, decide(state, solution=solution), source=name)

    return advise


RoundAt = Callable[[int, bool, int, bool], TwoPlayerRound]
"""The solved round of a game solution at ``(start stripes, start wiped, follower stripes, follower wiped)``."""


@lru_cache(maxsize=4)
def _solved_rounds(rules: Rules) -> RoundAt:
    """The solved rounds of :func:`.game_solver.solve_game` of ``rules`` (two players), each
    computed once per process."""
    return lru_cache(maxsize=None)(solve_game(rules).round_at)


def game_value(state: State, solution: Any = None, **_: Any) -> Valued:
    """Each seat's probability of winning the game (PIT-1) at any state of a game with two
    players still in it, both playing game-optimally from there: the returns at the end (of
    any game); else
    from the game solution (default :func:`.game_solver.solve_game` of the state's rules, for
    two players) and, inside a round, that state's solved round (the round's backward
    induction over the 42 throw classes): before a throw, after it with the choice still to
    make, before a roll-off. A seat out of the game has 0. Exact (float64, bounds about
    1e-14 apart).

    Args:
        state: a state with two players in this round (``len(state.order) == 2``).
        solution: a :class:`.game_solver.GameSolution` to read instead of the default one.

    Raises:
        InvalidStateError: another number of players, a solution of another kind, or stripes
            beyond the solution's cap.

    Example:
        >>> from dicemath.games.pitjesbak.state import initial_state
        >>> small = solve_game(Rules(stripes=2), use_cache=False, compare=False)
        >>> start = game_value(initial_state(small.rules), solution=small)
        >>> start.exact, abs(start.values[0] - small.start_player_win_probability) < 1e-12
        (True, True)
    """
    if state.winner >= 0:
        return Valued(tuple(state.returns()), True)
    if len(state.order) != GAME_SOLUTION_PLAYERS:
        raise InvalidStateError(f"the game solution values states with {GAME_SOLUTION_PLAYERS} players in the "
                                f"round, not {len(state.order)}: {state}")
    if solution is None:
        rounds = _solved_rounds(state.rules.with_players(GAME_SOLUTION_PLAYERS))
    elif isinstance(solution, GameSolution):
        rounds = solution.round_at
    else:
        raise InvalidStateError(f"states are valued from a two-player game solution, not {type(solution).__name__}")
    start = _start_value(state, rounds)
    values = [0.0] * state.rules.players
    values[state.order[0]], values[state.order[1]] = start, 1.0 - start
    return Valued(tuple(values), True)


def _start_value(state: State, round_at: RoundAt) -> float:
    """P(this round's start player wins the game) at a state of a two-player round."""
    start, follower = state.order
    solved_round = round_at(state.stripes[start], state.wiped[start], state.stripes[follower], state.wiped[follower])
    if state.rolloff:
        return float(solved_round.result[_class(state, state.results[0]), _class(state, state.results[1])])
    if state.turn == 0:
        done = state.throws
        if state.current is None:
            return float(solved_round.value if done == 0 else solved_round.start_continue[done - 1])
        stop = solved_round.follower[done - 1, _class(state, state.current)]
        return float(max(stop, solved_round.start_continue[done - 1]))
    theirs = _class(state, state.results[0])
    left = state.limit - state.throws
    if state.current is None:
        return float(solved_round.follower[left - 1, theirs])
    stop = solved_round.result[theirs, _class(state, state.current)]
    return float(min(stop, solved_round.follower[left - 1, theirs]))


def _class(state: State, dice: Sequence[int] | None) -> int:
    """The index of a counting throw's class in the class space of ``state``'s rules."""
    if dice is None:                              # a two-player round with a player out is over
        raise InvalidStateError("a player out by 1-1-1 has no throw class to value")
    return class_space(state.rules).index(classify(dice, state.rules))


def source_chain(rules: Rules | None = None) -> SourceChain:
    """The chain (see the module docstring), the same for every rules (``rules`` is the
    :meth:`~dicemath.core.game.Game.sources` argument, unused: each source reads the state's).

    The settings its sources take: ``solution``, a solved game or table to answer with
    instead of the default one (it must be of the source's kind: exact, or an estimate).
    """
    return SourceChain(
        Source(GAME_SOLUTION, True, f"{GAME_SOLUTION_PLAYERS} players still in the game, any stripes; a finished game",
               _covers_game, _answer(GAME_SOLUTION), value=game_value),
        Source(TABLE_SOLUTION, True, f"{' or '.join(map(str, TABLE_SOLUTION_PLAYERS))} players still in the "
               "game, their stripes within the table solver's MAX_WORK", _covers_table, _answer(TABLE_SOLUTION)),
        Source(ESTIMATE, False, f"any table of {ESTIMATE_PLAYERS[0]} to {ESTIMATE_PLAYERS[-1]} players",
               _covers_estimate, _answer(ESTIMATE)))
