"""Self-play of cubeless money games by the evaluator's best play (BG-1..BG-7).

A game starts with the opening throw (BG-2: two different dice, the higher die's owner
plays both), then each turn rolls two dice and plays the legal play whose resulting
position is best by :func:`~dicemath.games.backgammon.evaluate.evaluate_many` at the chosen ply (cubeless money
equity, gammons and backgammons counted, BG-7). No cube is used.

:func:`self_play_game` plays one game under one preset. Under ``playtive`` it also finds the
best *standard* play of every roll (evaluated the same way, as a position of the playtive
game) and records when it is illegal under BG-4's 5-checker limit ("the limit binds") and
what the limit costs then: best standard play minus best playtive play, in equity of the
player to move.

Dice come from a ``numpy.random.Generator``; two games started from generators with the
same seed see the same dice for as long as both last (the opening throw and each turn
draw the same numbers), which pairs a playtive game with a standard one.

Example:
    >>> import numpy as np
    >>> from dicemath.games.backgammon.rules import STANDARD
    >>> game = self_play_game(np.random.default_rng(7), STANDARD)
    >>> game.points in (1, 2, 3) and game.turns > 10
    True
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from dicemath.core.errors import InvalidStateError
from dicemath.games.backgammon.evaluate import cubeless_equity, evaluate_many
from dicemath.games.backgammon.moves import roll_results
from dicemath.games.backgammon.position import Position, game_result
from dicemath.games.backgammon.rules import STANDARD, Rules

MAX_TURNS = 2000
"""Safety bound on a game's length (self-play games end in about 60 turns)."""


@dataclass
class SelfPlayGame:
    """One self-play game, seen from the player who won the opening throw ("the starter").

    Attributes:
        rules: the preset played.
        starter_won: whether the starter won.
        points: 1, 2 or 3 (single, gammon, backgammon; BG-7).
        turns: plays made by both sides (the opening play counts).
        binds: playtive turns on which the best standard play was illegal under BG-4.
        costs: the equity each binding turn cost its mover (best standard minus best
            playtive play); empty under the standard rules.
        samples: ``(position_id, player, die1, die2)`` of the turns asked for by ``sample``.
    """

    rules: Rules
    starter_won: bool = False
    points: int = 0
    turns: int = 0
    binds: int = 0
    costs: list = field(default_factory=list)
    samples: list = field(default_factory=list)


def binding_cost(mover, other, dice, movers, opponents, equities, ply) -> float | None:
    """Best standard play minus best playtive play when the best standard play of ``dice``
    is illegal under BG-4, else None (``movers, opponents, equities``: the playtive plays
    and their equities; every play is evaluated as a position of the playtive game)."""
    from dicemath.games.backgammon.rules import PLAYTIVE

    index = {(m.tobytes(), o.tobytes()): i for i, (m, o) in enumerate(zip(movers, opponents))}
    std_movers, std_opponents = roll_results(STANDARD, mover, other, dice[0], dice[1])
    inside, outside = [], []
    for i, (m, o) in enumerate(zip(std_movers, std_opponents)):
        j = index.get((m.tobytes(), o.tobytes()))
        (outside.append(i) if j is None else inside.append(j))
    if not outside:
        return None
    extra, _ = evaluate_many(PLAYTIVE, std_opponents[outside], std_movers[outside], ply)
    best_outside = float(np.max(-cubeless_equity(extra)))
    best_inside = float(np.max(equities[inside])) if inside else -np.inf
    if best_outside <= best_inside:
        return None
    return best_outside - float(np.max(equities))


def _opening(rng: np.random.Generator) -> tuple[int, int, int]:
    """BG-2: each player throws one die until they differ; (starter, high die, low die)."""
    while True:
        x, o = (int(d) for d in rng.integers(1, 7, size=2))
        if x != o:
            return (0 if x > o else 1), max(x, o), min(x, o)


def _over(on_roll: np.ndarray, opponent: np.ndarray) -> bool:
    return on_roll.sum() == 0 or opponent.sum() == 0


def self_play_game(rng: np.random.Generator, rules: Rules = STANDARD, ply: int = 0,
                   sample: frozenset = frozenset()) -> SelfPlayGame:
    """Play one game (see the module docstring).

    Args:
        rng: the dice.
        rules: STANDARD or PLAYTIVE.
        ply: the evaluator's look-ahead when choosing plays.
        sample: turn numbers (0 = the opening play) whose position and roll to record.

    Returns:
        A :class:`SelfPlayGame`.
    """
    game = SelfPlayGame(rules)
    starter, high, low = _opening(rng)
    start = Position.initial()
    mover, other = np.array(start.on_roll, np.int8), np.array(start.opponent, np.int8)
    player, dice = starter, (high, low)
    playtive = rules.max_per_point is not None
    for turn in range(MAX_TURNS):
        if turn in sample:
            position = Position(tuple(int(c) for c in mover), tuple(int(c) for c in other), player)
            game.samples.append((position.position_id(), player, dice[0], dice[1]))
        movers, opponents = roll_results(rules, mover, other, dice[0], dice[1])
        seen, _ = evaluate_many(rules, opponents, movers, ply)
        equities = -cubeless_equity(seen)
        best = int(np.argmax(equities))
        if playtive:
            cost = binding_cost(mover, other, dice, movers, opponents, equities, ply)
            if cost is not None:
                game.binds += 1
                game.costs.append(cost)
        mover, other = opponents[best], movers[best]       # the turn passes
        player = 1 - player
        game.turns += 1
        if _over(mover, other):
            break
        first, second = (int(d) for d in rng.integers(1, 7, size=2))
        dice = (first, second)
    else:
        raise RuntimeError(f"self-play game exceeded {MAX_TURNS} turns")
    # The previous mover (now "other") bore off his last checker and won (BG-7).
    result = game_result(Position(tuple(int(c) for c in mover), tuple(int(c) for c in other), player))
    if result is None:
        raise InvalidStateError("a self-play game stopped before its end")
    game.starter_won = result.winner == starter
    game.points = result.points
    return game
