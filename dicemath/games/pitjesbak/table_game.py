"""Game-optimal play at a table of 2 to 8 players: the advice and a simulator policy from a
table's solution (PIT-1..PIT-8).

Which solution answers a table is the game's chain of sources (:mod:`.sources`,
:func:`.sources.default_solution`): the
two-player solver :func:`.game_solver.solve_game` (rigorous bounds), the table solver
:func:`.table_solver.solve_table` (float64 value iteration) for three and four players, the
labelled estimate :func:`.table_estimate.estimate_table` (``exact`` False) beyond.
:func:`table_advice` answers one stop-or-throw question with an :class:`.advice_type.StopOrThrow`,
:func:`table_policy` plays the same decisions in the simulator (:mod:`.simulate`).
:func:`solve_table` and :class:`.table_solver.TableSolution` are here too, for callers of the
table as a whole.

Example:
    >>> solution = solve_table(Rules(players=3, stripes=1), cap=2, use_cache=False)
    >>> table_advice((1, 1, 1), (False, False, False), 0, dice=(6, 6, 2), throws=1, rules=Rules(stripes=1),
    ...              solution=solution).decision
    'stop'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from dicemath.core.errors import InvalidStateError
from dicemath.games.pitjesbak.advice_type import StopOrThrow
from dicemath.games.pitjesbak.rules import Rules, check_players, check_stripes
from dicemath.games.pitjesbak.state import STOP, THROW, State
from dicemath.games.pitjesbak.table_solver import (
    TableSolution,
    TableValues,
    solve_table,
)

__all__ = ["TableSolution", "solve_table", "table_advice", "table_policy"]


def table_advice(stripes: Sequence[int], wiped: Sequence[bool], position: int, *,
                 before: Sequence[Sequence[int] | None] = (),
                 limit: int | None = None, dice: Sequence[int], throws: int, rules: Rules | None = None,
                 solution: TableValues) -> StopOrThrow:
    """Game-optimal advice at a table: the probability of winning the game if I stop and if I
    throw again (PIT-4..PIT-8).

    Args:
        stripes, wiped: stripes and has-wiped flags (PIT-6) of the players still in, in seat
            order from this round's start player (turn order).
        position: my turn position (0 = the start player).
        before: the counting throws of the players before me, in turn order (None for a player
            out by 1-1-1 this round).
        limit: the start player's throws this round (for positions >= 1).
        dice: my current throw (three dice).
        throws: the throws I have used, this one included.
        rules: the rules (die values, starting stripes), checked against the solution's;
            ``players`` is taken from ``stripes``.
        solution: a table's solution (the chain's: :func:`.sources.default_solution`); its subgames
            answer for fewer players.

    Returns:
        The :class:`.advice.StopOrThrow` (with every player's values in turn order).

    Raises:
        InvalidRulesError: fewer than 2 or more than 8 players (PIT-1).
        InvalidStateError: negative or zero stripes, flags of another length, a situation the
            rules cannot produce, a solution of other rules.
        InvalidDiceError: a throw that is not three dice 1..6.
    """
    stripes, wiped = tuple(stripes), tuple(bool(w) for w in wiped)
    if len(wiped) != len(stripes):
        raise InvalidStateError(f"need one has-wiped flag per player, got {len(stripes)} stripes and "
                                f"{len(wiped)} flags")
    check_players(len(stripes))
    if rules is not None and (rules.stripes, rules.die_values) != (solution.rules.stripes, solution.rules.die_values):
        raise InvalidStateError(f"the solution is one of {solution.rules}, not of the rules {rules}")
    for pos, a in enumerate(stripes):
        check_stripes(a, f"stripes of position {pos}")
    answering = solution.solution_for(len(stripes))
    stripes, wiped = answering.check(stripes, wiped)
    solved = answering.round_at(stripes, wiped)
    stop, again = solved.decision(position, before=before, limit=limit, dice=dice, throws=throws)
    mine_stop = float(stop[position])
    mine_again = None if again is None else float(again[position])
    decision = STOP if mine_again is None or mine_stop >= mine_again else THROW
    situation = {"stripes": list(stripes), "wiped": list(wiped), "position": position,
                 "before": [None if t is None else "-".join(map(str, sorted(t, reverse=True))) for t in before],
                 "limit": limit, "dice": "-".join(map(str, sorted(dice, reverse=True))), "throws": throws}
    return StopOrThrow(decision, mine_stop, mine_again, situation, exact=answering.exact,
                  stop_values=tuple(float(v) for v in stop),
                  throw_values=None if again is None else tuple(float(v) for v in again))


def table_policy(solution: TableValues) -> Callable[[State], str]:
    """The game-optimal decisions as a simulator policy (:mod:`.simulate`), for every table the
    solution covers (its players and, after eliminations, its subgames). Stripe counts above the
    answering solution's cap are clipped to it, as the solver does."""

    def decide(state: State) -> str:
        order = state.order
        answering = solution.solution_for(len(order))
        stripes = [min(state.stripes[s], answering.cap) for s in order]
        wiped = [state.wiped[s] for s in order]
        solved = answering.round_at(stripes, wiped)
        position = state.turn
        if state.current is None:
            raise InvalidStateError(f"no throw to stop on or throw again after in {state}")
        stop, again = solved.decision(position, before=list(state.results),
                                      limit=state.limit if position else None, dice=state.current,
                                      throws=state.throws)
        if again is None or stop[position] >= again[position]:
            return STOP
        return THROW
    return decide
