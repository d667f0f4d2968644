"""Random legal Backgammon positions for property tests and gnubg cross-checks."""

from __future__ import annotations

import random

from dicemath.games.backgammon.position import Position


def random_position(rng: random.Random, *, bear_off_bias: float = 0.2) -> Position:
    """A random legal position: each side's 15 checkers spread over its points, bar and off."""
    while True:
        mine, theirs = [0] * 25, [0] * 25
        home_only = rng.random() < bear_off_bias
        for side, other in ((mine, theirs), (theirs, mine)):
            placed = rng.randint(1 if side is mine else 0, 15)
            for _ in range(placed):
                for _attempt in range(20):
                    roll = rng.random()
                    if home_only:
                        point = rng.randint(1, 6)
                    elif roll < 0.04:
                        point = 25
                    else:
                        point = rng.randint(1, 24)
                    if point == 25 or other[24 - point] == 0:
                        side[point - 1] += 1
                        break
        try:
            return Position(tuple(mine), tuple(theirs), rng.randint(0, 1))
        except ValueError:
            continue
