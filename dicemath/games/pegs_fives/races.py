"""Fives two-player races and rest points (FIVES-6).

Players take turns (the start player alternates from race to race, FIVES-7); the round
ends as soon as one player has completed every number, and each other player scores rest
points: for every incomplete number, missing marks x number (:func:`.state.rest_points`).
Races are simulated with seeded dice; results carry 95% confidence intervals (normal
approximation). All figures are float64 estimates.

Race policies are *policy makers*: ``maker(own_board, opponent_board) -> Policy``, asked
once per turn, so a policy can react to the race situation. :class:`RestAware` is the
late-race variant analysed here: when the opponent is about to finish and the player cannot
catch up, it stops minimising turns and instead minimises the rest points left at the end
of this turn (:func:`last_turn_rest`, exact with few open rows; with more, the row that
marks the most points now, hits x number) -- e.g. 12s rather than 2s.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from dicemath.core.stats import Z95, mean_confidence_interval
from dicemath.games.pegs_fives.advisor import Advisor
from dicemath.games.pegs_fives.rules import Rules
from dicemath.games.pegs_fives.state import (
    BoardTuple, Policy, check_board, check_roll, greedy_policy, legal_rows, play_turn, rest_points)
from dicemath.games.pegs_fives.turn import TurnValue

EXACT_LAST_TURN_ROWS = 5
"""Up to this many open rows, the last-turn rest-point minimum is computed exactly."""


def last_turn_rest(rules: Rules, board: Sequence[int], throw: Sequence[int]) -> dict[int, float]:
    """Expected rest points at the end of this turn, per legal row, if the round ends then.

    The situation late in a lost race: the opponent will finish on the next turn, so only
    the rest points left after this turn count (FIVES-6). Later choices in the turn also
    minimise rest points. Exact recursion over the turn (float64, every fresh-dice
    restart enumerated), so it is meant for boards with few open rows.

    Example:
        >>> from dicemath.games.pegs_fives.rules import FIVES
        >>> board = (5,) + (3,) + (5,) * 9 + (4,)
        >>> r = last_turn_rest(FIVES, board, (2, 2, 6, 6, 1, 1))
        >>> sorted(r), r[12] < r[2]
        ([2, 12], True)
    """
    b = check_board(board, rules)
    faces = check_roll(throw, rules.dice)
    evaluator = TurnValue(rules, lambda x: float(rest_points(x, rules.goal)), exact=False,
                          restart_identity=False)
    after = None if rules.throws is None else rules.throws - 1
    here = float(rest_points(b, rules.goal))
    result = {}
    for row, h in legal_rows(b, faces, rules.goal):
        stay, rest = evaluator.option(b, row, h, rules.dice, after)
        result[row] = stay * here + rest
    return result

PolicyMaker = Callable[[BoardTuple, BoardTuple], Policy]


def fixed(policy: Policy) -> PolicyMaker:
    """A policy maker that ignores the race situation."""
    return lambda own, other: policy


@dataclass
class RestAware:
    """The advisor, switching to "most points now" late in a lost race.

    Attributes:
        advisor: the row advisor (turn-minimising).
        opponent_turns: switch when the opponent's estimated remaining turns are at most
            this many ...
        behind: ... and the player's own estimate exceeds the opponent's by at least this.
    """

    advisor: Advisor
    opponent_turns: float = 2.0
    behind: float = 2.0

    def __call__(self, own: BoardTuple, other: BoardTuple) -> Policy:
        value = self.advisor.value
        if value(other) <= self.opponent_turns and value(own) - value(other) >= self.behind:
            rules = self.advisor.rules
            goal = rules.goal
            rest_value = TurnValue(rules, lambda x: float(rest_points(x, goal)), exact=False,
                                   restart_identity=False)

            def fewest_rest_points(board: BoardTuple, legal: tuple[tuple[int, int], ...], dice: int,
                                   throws: int | None) -> int:
                if sum(1 for s in board if s < goal) <= EXACT_LAST_TURN_ROWS:
                    after = None if throws is None else throws - 1
                    here = float(rest_points(board, goal))
                    return min(legal, key=lambda rh: (lambda sr: (sr[0] * here + sr[1], -rh[0]))(
                        rest_value.option(board, rh[0], rh[1], dice, after)))[0]
                return max(legal, key=lambda rh: (min(rh[1], goal - board[rh[0] - 1]) * rh[0], rh[0]))[0]

            return fewest_rest_points
        return self.advisor.policy


def play_race(rules: Rules, makers: Sequence[PolicyMaker], rng: random.Random, *, first: int = 0,
              max_turns: int = 100_000,
              start: Sequence[Sequence[int]] | None = None) -> tuple[int, tuple[int, ...], int]:
    """Play one round; return (winner index, rest points per player, turns of the winner).

    ``start``: every player's board at the start (default: every row at 0), e.g. a reduced
    board (:func:`.state.reduced_board`)."""
    players = len(makers)
    boards = [(0,) * rules.rows for _ in range(players)] if start is None else \
        [check_board(board, rules) for board in start]
    turns = [0] * players
    current = first
    for _ in range(max_turns):
        others = [boards[(current + k) % players] for k in range(1, players)]
        opponent = min(others, key=lambda b: rest_points(b, rules.goal))
        policy = makers[current](boards[current], opponent)
        boards[current] = play_turn(rules, boards[current], policy, rng)
        turns[current] += 1
        if all(s >= rules.goal for s in boards[current]):
            return current, tuple(rest_points(b, rules.goal) for b in boards), turns[current]
        current = (current + 1) % players
    raise RuntimeError("race did not end")


def race_stats(rules: Rules, a: PolicyMaker, b: PolicyMaker, *, games: int = 200, seed: int = 0) -> dict:
    """Simulate ``games`` two-player races of ``a`` against ``b`` (start player alternating).

    Returns:
        ``games``, ``a_win_probability`` and its 95% half-width ``a_win_ci``,
        ``a_rest_when_losing`` / ``b_rest_when_losing`` (mean and ``_ci``), and
        ``a_mean_rest`` / ``b_mean_rest`` (rest points per race, 0 for the winner).

    Example:
        >>> from dicemath.games.pegs_fives.rules import FIVES
        >>> r = race_stats(FIVES, fixed(greedy_policy), fixed(greedy_policy), games=4, seed=1)
        >>> r["games"], 0 <= r["a_win_probability"] <= 1
        (4, True)
    """
    rng = random.Random(seed)
    wins = 0
    a_rest, b_rest, a_all, b_all = [], [], [], []
    for game in range(games):
        winner, rest, _ = play_race(rules, [a, b], rng, first=game % 2)
        a_all.append(rest[0])
        b_all.append(rest[1])
        if winner == 0:
            wins += 1
            b_rest.append(rest[1])
        else:
            a_rest.append(rest[0])
    p = wins / games
    a_mean, a_ci = mean_confidence_interval(a_rest)
    b_mean, b_ci = mean_confidence_interval(b_rest)
    a_total, a_total_ci = mean_confidence_interval(a_all)
    b_total, b_total_ci = mean_confidence_interval(b_all)
    return {
        "games": games,
        "a_win_probability": p,
        "a_win_ci": Z95 * math.sqrt(p * (1 - p) / games),
        "a_rest_when_losing": a_mean, "a_rest_when_losing_ci": a_ci,
        "b_rest_when_losing": b_mean, "b_rest_when_losing_ci": b_ci,
        "a_mean_rest": a_total, "a_mean_rest_ci": a_total_ci,
        "b_mean_rest": b_total, "b_mean_rest_ci": b_total_ci,
    }


def race_result(rules: Rules, *, games: int = 200, seed: int = 0) -> dict:
    """The JSON object of ``dicemath fives race``: advisor vs greedy, and the late-race switch.

    Keys: ``advisor_vs_greedy`` and ``rest_aware_vs_greedy`` (each a :func:`race_stats`
    object, player a first named), ``games``, ``seed``.
    """
    advisor = Advisor(rules)
    return {
        "game": rules.name,
        "games": games,
        "seed": seed,
        "advisor_vs_greedy": race_stats(rules, fixed(advisor.policy), fixed(greedy_policy), games=games, seed=seed),
        "rest_aware_vs_greedy": race_stats(rules, RestAware(advisor), fixed(greedy_policy), games=games, seed=seed),
    }
