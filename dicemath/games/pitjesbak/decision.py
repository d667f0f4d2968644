"""The stop-or-throw answer at a decision, and the :class:`~dicemath.core.advice.Advice` it
makes: the machinery each source of the game's chain (:mod:`.sources`) answers with.

:func:`decide` gives the :class:`~.advice_type.StopOrThrow` at a decision (two players: the
solved rounds of :func:`.game_solver.solve_game`; more: :func:`.table_game.table_advice`);
:func:`decision_advice` makes it an Advice, named by its source. The game's entry point is
its advice (:meth:`PITJESBAK_GAME.advise <dicemath.core.game.Game.advise>`, through the chain);
this module sits below the chain so that the chain's sources can answer with it.

Example:
    >>> from dicemath.games.pitjesbak.game_solver import solve_game
    >>> from dicemath.games.pitjesbak.state import initial_state
    >>> small = solve_game(Rules(stripes=3), use_cache=False, compare=False)
    >>> state = initial_state(small.rules).apply((6, 5, 4))
    >>> decision = decide(state, solution=small)
    >>> decision.decision, decision_advice(state, decision).source
    ('stop', 'two-player game solution')
"""

from __future__ import annotations

from dicemath.core.advice import Advice, Option
from dicemath.core.dice import throw_text
from dicemath.core.errors import InvalidStateError
from dicemath.games.pitjesbak.advice_type import StopOrThrow
from dicemath.games.pitjesbak.game_solver import GameSolution, solve_game
from dicemath.games.pitjesbak.limits import ESTIMATE, GAME_SOLUTION, GAME_SOLUTION_PLAYERS, TABLE_SOLUTION
from dicemath.games.pitjesbak.rules import Rules
from dicemath.games.pitjesbak.state import STOP, THROW, State
from dicemath.games.pitjesbak.throws import class_space, classify

ROLES = ("start", "follower")
"""The two roles of a two-player round: the start player sets the limit, the follower follows (PIT-4)."""


UNIT = "win probability"
"""What Pitjesbak advice values measure: the chance to win the whole game (PIT-1)."""


def decision_advice(state: State, decision: StopOrThrow, source: str | None = None) -> Advice:
    """The :class:`~dicemath.core.advice.Advice` of a stop-or-throw answer at ``state`` (the
    state it was asked at, or the state a situation describes): options best first, their
    values the chances to win the game, each with every player's chances (``win_values``,
    in turn order); extras the keys of :meth:`StopOrThrow.as_dict` (the start player's
    counting throw of a two-player situation, ``best`` there, as ``to_beat``).

    ``source``: the name of the chain's source that answered (default: the name of the source
    of the decision's kind, :mod:`.limits`)."""
    values = {STOP: (decision.stop_probability, decision.stop_values)}
    if decision.throw_probability is not None:
        values[THROW] = (decision.throw_probability, decision.throw_values)
    order = sorted(values, key=lambda action: action != decision.decision)
    options = tuple(Option(action, state.action_text(action), values[action][0],
                           {"win_values": None if (win := values[action][1]) is None else list(win)})
                    for action in order)
    players = len(decision.stop_values) if decision.stop_values is not None else state.rules.players
    if source is None:
        source = (GAME_SOLUTION if players == GAME_SOLUTION_PLAYERS else TABLE_SOLUTION) if decision.exact \
            else ESTIMATE
    extras = {("to_beat" if key == "best" else key): value for key, value in decision.as_dict().items()
              if key != "exact"}
    return Advice(game="pitjesbak", state=str(state), unit=UNIT, higher_is_better=True, exact=decision.exact,
                  source=source, options=options, extras=extras, detail=decision)


def decide(state: State, *, solution=None) -> StopOrThrow:
    """The stop-or-throw answer at a decision of ``state`` (the :class:`StopOrThrow` behind
    the game's advice, which each source of :mod:`.sources` gives its solution).

    Args:
        state: a state where a player decides (``state.current_player() >= 0``).
        solution: two players: a solved game (default :func:`solve_game` of ``state.rules``,
            cached); more: a table solution for :func:`.table_game.table_advice`.

    Raises:
        InvalidStateError: not a decision, or a table without its solution.
    """
    if state.rules.players != 2 or not (solution is None or isinstance(solution, GameSolution)):
        return table_state_advice(state, solution=solution)
    if state.current is None or state.current_player() < 0:
        raise InvalidStateError(f"no player decides in {state}: advice needs a decision")
    me, them = state.order[state.turn], state.order[1 - state.turn]
    best = None if state.turn == 0 else state.results[0]
    return two_player_decision(state.stripes[me], state.wiped[me], state.stripes[them], state.wiped[them],
                               role=ROLES[state.turn], throw_number=state.throws, dice=state.current, best=best,
                               cap=state.throw_cap, rules=state.rules, solution=solution)


def table_state_advice(state: State, *, solution) -> StopOrThrow:
    """:func:`.table_game.table_advice` at an engine state where a player decides: the
    players of this round in its turn order (a game of five with one player out since an
    earlier round is a table of four; one out this round is still in the round, his result
    None), from ``solution`` (a table solution, :func:`.sources.default_solution`).

    Raises:
        InvalidStateError: not a decision, or no solution.
    """
    from dicemath.games.pitjesbak.table_game import table_advice

    if state.current is None or state.current_player() < 0:
        raise InvalidStateError(f"no player decides in {state}: advice needs a decision")
    if solution is None:
        raise InvalidStateError(f"a table of {len(state.order)} players is answered from its solution; none given")
    order = state.order
    return table_advice([state.stripes[s] for s in order], [state.wiped[s] for s in order], state.turn,
                        before=list(state.results), limit=state.limit if state.turn else None, dice=state.current,
                        throws=state.throws, rules=state.rules, solution=solution)


def two_player_decision(my_stripes: int, my_wiped: bool, their_stripes: int, their_wiped: bool, *, role: str,
                        throw_number: int, dice: tuple[int, int, int], best: tuple[int, int, int] | None,
                        cap: int, rules: Rules, solution: GameSolution | None) -> StopOrThrow:
    """The two-player answer from the solved round of the game solution (default
    :func:`.game_solver.solve_game` of ``rules``, cached): behind :func:`decide` at a state
    and :func:`.advice.advise_situation` at a situation described at the table.

    Raises:
        InvalidStateError: a throw number outside ``1..cap``, a follower after a counting
            1-1-1 of the start player (PIT-6).
    """
    solution = solution or solve_game(rules)
    space = class_space(rules)
    mine = space.index(classify(dice, rules))
    check_throw_number(throw_number, cap)
    situation = {"my_stripes": my_stripes, "my_wiped": bool(my_wiped), "their_stripes": their_stripes,
                 "their_wiped": bool(their_wiped), "role": role, "throw_number": throw_number,
                 "current": throw_text(dice)}
    if role == "start":
        solved_round = solution.round_at(my_stripes, my_wiped, their_stripes, their_wiped)
        stop = float(solved_round.follower[throw_number - 1, mine])
        again = float(solved_round.start_continue[throw_number - 1]) if throw_number < cap else None
    else:
        if best is None:
            raise InvalidStateError("a follower decides against the start player's counting throw: give best")
        theirs = space.index(classify(best, rules))
        if theirs == space.apen:
            raise InvalidStateError("after a counting 1-1-1 of the start player the follower does not throw (PIT-6)")
        situation.update(best=throw_text(best), limit=cap)
        solved_round = solution.round_at(their_stripes, their_wiped, my_stripes, my_wiped)
        stop = 1.0 - float(solved_round.result[theirs, mine])
        left = cap - throw_number
        again = 1.0 - float(solved_round.follower[left - 1, theirs]) if left else None
    decision = STOP if again is None or stop >= again else THROW
    mine = 0 if role == "start" else 1

    def vector(p: float | None) -> tuple[float, float] | None:
        return None if p is None else ((p, 1.0 - p) if mine == 0 else (1.0 - p, p))

    return StopOrThrow(decision, stop, again, situation, stop_values=vector(stop), throw_values=vector(again))


def check_throw_number(throw_number: int, cap: int) -> None:
    """Raise unless ``throw_number`` (the throws used, the current one included) is a whole
    number ``1..cap`` (PIT-4).

    Raises:
        InvalidStateError: it is not.
    """
    if isinstance(throw_number, bool) or not isinstance(throw_number, int) or not 1 <= throw_number <= cap:
        raise InvalidStateError(f"throw_number must be 1..{cap} here, got {throw_number!r}")
