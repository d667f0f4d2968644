"""Optimal play of one Pitjesbak round by backward induction (PIT-4..PIT-6, PIT-8).

Every player maximises their own probability of winning the *round* (a game won during the
round by drie apen, PIT-6, or by being the last player left, PIT-8, counts as winning it;
tied best throws go to a fair roll-off, PIT-5). Stripes do not enter; for the whole game see
:mod:`dicemath.games.pitjesbak.game_solver`.

The state a follower at turn position ``j`` acts on is ``(limit, best, tied)``: the number
of throws the start player used (PIT-4), the rank level of the best counting throw so far
(``-1`` if everybody before was eliminated by 1-1-1) and how many players share it. That
suffices because later players see no more than this and their policies are functions of it.
With ``F_j(L, b, k)`` the probability that one particular holder of the best throw ``b``
(one of ``k``) wins when positions ``j..N-1`` are still to play, ``F_N = 1/k``, and each
player's optimal stopping problem over at most ``L`` throws is solved given ``F_{j+1}``.
The start player's stop after throw ``t`` sets ``L = t``. Ties between stopping and throwing
again are broken towards stopping.

Exact :class:`fractions.Fraction` arithmetic by default up to 4 players (cheap); float64
Python floats above (``exact=True`` forces exact, slow for 7-8 players).

Example:
    >>> solution = solve_round(Rules(players=2))
    >>> sum(solution.win_probabilities) == 1
    True
    >>> solution.start_stop_threshold(1).label, solution.start_stop_threshold(2).label
    ('score 68', 'score 105')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from typing import Any

from dicemath.core.errors import InvalidStateError
from dicemath.core.mdp import optimal_stopping
from dicemath.games.pitjesbak.rules import MAX_THROWS, STANDARD, Rules, check_players
from dicemath.games.pitjesbak.state import STOP, THROW, State
from dicemath.games.pitjesbak.throws import ThrowClass, class_space, classify

EXACT_UP_TO = 4
"""Default: exact fractions for at most this many players, floats above."""

Probability = Fraction | float
"""A value of the solver: an exact fraction, or a float (``exact=False``). One solve uses one kind
throughout, which the core's constrained ``Number`` (:func:`~dicemath.core.mdp.optimal_stopping`)
needs; as a union it cannot take it, so the values that go there are typed ``Any``."""


@dataclass(frozen=True)
class TurnPlan:
    """A follower's optimal plan at one situation ``(position, limit, best, tied)``.

    Attributes:
        stop: ``stop[t-1][c]`` whether to stop after throw ``t`` showing class index ``c``
            (the last allowed throw always counts).
        stop_values: own win probability when stopping on class ``c``.
        continue_values: ``continue_values[t-1]`` own win probability of throwing again
            after throw ``t`` (``None`` for the last allowed throw).
        value: own win probability at the start of the turn.
        outcome: probability that the counting throw is class ``c``.
        holders_value: win probability of each current holder of the best throw.
        auto_win: True when everybody else was eliminated: the player wins without throwing.
    """

    stop: tuple[tuple[bool, ...], ...]
    stop_values: tuple
    continue_values: tuple
    value: Probability
    outcome: tuple
    holders_value: Probability
    auto_win: bool = False


@dataclass
class RoundSolution:
    """Optimal policies of a round with ``N`` players in a given seating.

    Positions are turn positions: 0 is the start player, 1 the next clockwise, ...

    Attributes:
        rules: the rules (die values).
        wiped: has-wiped flag of each position (PIT-6: decides what 1-1-1 does).
        exact: whether values are exact fractions.
        win_probabilities: each position's probability of winning the round under the
            optimal policies.
    """

    rules: Rules
    wiped: tuple[bool, ...]
    exact: bool
    win_probabilities: tuple = ()
    start_stop: tuple = ()
    start_stop_values: tuple = ()
    start_continue_values: tuple = ()
    _plans: dict = field(default_factory=dict, repr=False)
    _holders: dict = field(default_factory=dict, repr=False)

    @property
    def players(self) -> int:
        """Number of players in the round."""
        return len(self.wiped)

    def plan(self, position: int, limit: int, best: int, tied: int) -> TurnPlan:
        """The :class:`TurnPlan` of the follower at ``position`` (1..N-1).

        Args:
            position: turn position 1..N-1.
            limit: throws allowed, 1..3.
            best: rank level of the best counting throw so far (``-1``: none, all eliminated).
            tied: players sharing it (0 when ``best == -1``).

        Raises:
            InvalidStateError: the situation cannot occur.
        """
        if not 1 <= position < self.players or not 1 <= limit <= MAX_THROWS:
            raise InvalidStateError(f"no follower situation at position {position} with limit {limit}")
        if (best < 0) != (tied == 0) or not 0 <= tied <= position:
            raise InvalidStateError(f"best level {best} shared by {tied} players is impossible at position {position}")
        return _plan(self, position, limit, best, tied)

    def _repr_markdown_(self) -> str:
        rows = "\n".join(f"| {pos} | {'yes' if flag else 'no'} | {float(p):.6f} |"
                         for pos, (flag, p) in enumerate(zip(self.wiped, self.win_probabilities)))
        return ("| turn position | has wiped | P(win the round) |\n| ---: | :---: | ---: |\n" + rows)

    def start_decision(self, throw_number: int, class_index: int) -> tuple[bool, Probability, Probability]:
        """The start player's decision after throw 1 or 2: (stop?, P(win) if stop, if throw again)."""
        if throw_number not in (1, 2):
            raise InvalidStateError(f"the start player decides after throw 1 or 2, not {throw_number}")
        t = throw_number - 1
        return (self.start_stop[t][class_index], self.start_stop_values[t][class_index],
                self.start_continue_values[t])

    def start_stop_threshold(self, throw_number: int) -> ThrowClass | None:
        """The weakest ranked class the start player stops on after ``throw_number`` if the
        stop set is "this class or better" (else None)."""
        return _threshold(self.rules, self.start_stop[throw_number - 1])

    def situation(self, state: State) -> tuple[int, int, int, int]:
        """``(position, limit, best level, tied)`` of the player to act in ``state``."""
        space = class_space(self.rules)
        best, tied = state.best_so_far()
        level = -1 if best is None else space.levels[space.index(best)]
        return state.turn, state.limit, level, tied

    def policy(self) -> Callable[[State], str]:
        """The optimal policy as a simulator policy (state -> ``"stop"``/``"throw"``).

        The state's turn order must match the solution's seating (flags by position).
        """
        space = class_space(self.rules)
        class_of: dict[tuple[int, ...], int] = {}
        situations: dict[tuple, tuple[int, int, int, int]] = {}

        def decide(state: State) -> str:
            dice = state.current
            assert dice is not None  # a decision follows a throw
            c = class_of.get(dice)
            if c is None:
                c = class_of[dice] = space.index(classify(dice, self.rules))
            if state.turn == 0:
                return STOP if self.start_stop[state.throws - 1][c] else THROW
            seen = (state.turn, state.limit, state.results)
            situation = situations.get(seen)
            if situation is None:
                situation = situations[seen] = self.situation(state)
            return STOP if self.plan(*situation).stop[state.throws - 1][c] else THROW
        return decide


def _threshold(rules: Rules, stops: Sequence[bool]) -> ThrowClass | None:
    space = class_space(rules)
    ranked = list(stops[:space.apen])
    if not any(ranked):
        return None
    first = ranked.index(True)
    if all(ranked[first:]):
        return space.classes[first]
    return None


@lru_cache(maxsize=None)
def _probabilities(die_values: str, exact: bool) -> tuple[Any, ...]:
    """The classes' probabilities: exact Fractions, or Python floats."""
    fractions = class_space(Rules(die_values=die_values)).fractions()
    return fractions if exact else tuple(float(p) for p in fractions)


def _number(exact: bool) -> Callable[..., Any]:
    return (lambda a, b=1: Fraction(a, b)) if exact else (lambda a, b=1: a / b)


def _holders(solution: RoundSolution, position: int, limit: int, best: int, tied: int) -> Probability:
    """``F_position(limit, best, tied)``: win probability of one holder of the best throw."""
    if position == solution.players:
        return _number(solution.exact)(1, tied)
    return _plan(solution, position, limit, best, tied).holders_value


def _plan(solution: RoundSolution, position: int, limit: int, best: int, tied: int) -> TurnPlan:
    key = (position, limit, best, tied)
    cached = solution._plans.get(key)
    if cached is not None:
        return cached
    space = class_space(solution.rules)
    num = _number(solution.exact)
    probs = _probabilities(solution.rules.die_values, solution.exact)
    zero, one = num(0), num(1)
    n = solution.players
    if best < 0 and position == n - 1:
        plan = TurnPlan((), (), (), one, (), zero, auto_win=True)
        solution._plans[key] = plan
        return plan
    flag = solution.wiped[position]
    nxt = position + 1
    same = _holders(solution, nxt, limit, best, tied) if tied else zero
    joined = _holders(solution, nxt, limit, best, tied + 1) if tied else zero
    stop_values = []
    holder_after = []
    beat_cache: dict[int, Any] = {}
    for c in range(space.size):
        if c == space.apen:
            stop_values.append(one if flag else zero)
            holder_after.append(zero if flag else same)
            continue
        level = space.levels[c]
        if best < 0 or level > best:
            if level not in beat_cache:
                beat_cache[level] = _holders(solution, nxt, limit, level, 1)
            stop_values.append(beat_cache[level])
            holder_after.append(zero)
        elif level == best:
            stop_values.append(joined)
            holder_after.append(joined)
        else:
            stop_values.append(zero)
            holder_after.append(same)
    stopping = optimal_stopping([stop_values] * limit, probs)
    outcome = stopping.outcome
    holders_value = sum((o * h for o, h in zip(outcome, holder_after)), zero) if tied else zero
    plan = TurnPlan(stopping.stops, tuple(stop_values), stopping.continue_values, stopping.value,
                    outcome, holders_value)
    solution._plans[key] = plan
    return plan


def solve_round(rules: Rules | None = None, wiped: Sequence[bool] | None = None,
                *, players: int | None = None, exact: bool | None = None) -> RoundSolution:
    """Solve a round: every player's optimal stop policy and win probability (PIT-4..PIT-6).

    Args:
        rules: the rules; ``rules.players`` is the number of players unless ``players``
            or ``wiped`` says otherwise.
        wiped: has-wiped flag of each turn position (default all False). A player with the
            flag wins the game with a counting 1-1-1; without it is eliminated (PIT-6).
        players: number of players (2..8).
        exact: exact fractions (default: for at most :data:`EXACT_UP_TO` players).

    Returns:
        The :class:`RoundSolution`.

    Raises:
        InvalidRulesError: players outside 2..8.
        InvalidStateError: a flag list of the wrong length.

    Example:
        >>> s = solve_round(players=3)
        >>> [round(float(p), 4) for p in s.win_probabilities]
        [0.4294, 0.2746, 0.2961]
    """
    rules = rules or STANDARD
    n = players if players is not None else (len(wiped) if wiped is not None else rules.players)
    check_players(n)
    wiped = tuple(bool(w) for w in wiped) if wiped is not None else (False,) * n
    if len(wiped) != n:
        raise InvalidStateError(f"need {n} has-wiped flags, got {len(wiped)}")
    exact = n <= EXACT_UP_TO if exact is None else exact
    solution = RoundSolution(rules.with_players(n), wiped, exact)
    space = class_space(rules)
    num = _number(exact)
    probs = _probabilities(rules.die_values, exact)
    zero, one = num(0), num(1)

    # Start player: stopping after throw t sets the limit to t.
    def stop_value(t: int, c: int) -> Any:
        if c == space.apen:
            return one if wiped[0] else zero
        return _holders(solution, 1, t, space.levels[c], 1)

    stop_values = [[stop_value(t, c) for c in range(space.size)] for t in (1, 2, 3)]
    start = optimal_stopping(stop_values, probs)
    solution.start_stop = start.stops[:2]
    solution.start_stop_values = tuple(tuple(v) for v in stop_values[:2])
    solution.start_continue_values = start.continue_values[:2]

    # Forward: the distribution of (limit, best, tied) before each position.
    wins = [zero] * n
    wins[0] = start.value
    states: dict[tuple[int, int, int], Probability] = {}
    for t, counting in enumerate(start.counting):
        for c, m in enumerate(counting):
            if not m:
                continue
            if c == space.apen:
                if not wiped[0]:
                    key = (t + 1, -1, 0)
                    states[key] = states.get(key, zero) + m
            else:
                key = (t + 1, space.levels[c], 1)
                states[key] = states.get(key, zero) + m
    for position in range(1, n):
        following: dict[tuple[int, int, int], Probability] = {}
        for (limit, best, tied), m in states.items():
            plan = _plan(solution, position, limit, best, tied)
            wins[position] += m * plan.value
            if plan.auto_win:
                continue
            for c, o in enumerate(plan.outcome):
                if not o:
                    continue
                if c == space.apen:
                    if wiped[position]:
                        continue
                    key = (limit, best, tied)
                else:
                    level = space.levels[c]
                    if best < 0 or level > best:
                        key = (limit, level, 1)
                    elif level == best:
                        key = (limit, best, tied + 1)
                    else:
                        key = (limit, best, tied)
                following[key] = following.get(key, zero) + m * o
        states = following
    solution.win_probabilities = tuple(wins)
    return solution


def round_policy(rules: Rules | None = None, *, exact: bool = False) -> Callable[[State], str]:
    """A simulator policy for any game state: play each round to maximise P(win the round).

    The round is re-solved (and kept) for each seating of alive players' flags, so the policy
    works for whole games with eliminations (PIT-6) and changing flags.

    Example:
        >>> from dicemath.games.pitjesbak.simulate import simulate_game
        >>> simulate_game(Rules(players=3), round_policy(), seed=2).winner in (0, 1, 2)
        True
    """
    rules = rules or STANDARD
    policies: dict[tuple[bool, ...], Callable[[State], str]] = {}

    def decide(state: State) -> str:
        flags = tuple(state.wiped[seat] for seat in state.order)
        policy = policies.get(flags)
        if policy is None:
            policy = policies[flags] = solve_round(state.rules, flags, exact=exact).policy()
        return policy(state)
    return decide
