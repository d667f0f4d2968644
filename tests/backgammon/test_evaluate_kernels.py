"""The numba play generator (``_play_kernels``, via ``selfplay.roll_results``) against the
plain-Python ``legal_moves`` on random positions, both presets."""

from __future__ import annotations

import random

import pytest

from dicemath.games.backgammon.moves import legal_moves
from dicemath.games.backgammon.position import Position
from dicemath.games.backgammon.rules import PLAYTIVE, STANDARD
from dicemath.games.backgammon.selfplay import roll_results

from .strategies import random_position


def _results(position: Position, dice, rules) -> set:
    movers, opponents = roll_results(position.on_roll, position.opponent, dice[0], dice[1], rules)
    found = {(tuple(int(c) for c in m), tuple(int(c) for c in o)) for m, o in zip(movers, opponents)}
    assert len(found) == len(movers), "the kernel listed a position twice"
    return found


@pytest.mark.parametrize("rules", [STANDARD, PLAYTIVE], ids=["standard", "playtive"])
def test_kernel_equals_legal_moves_on_random_positions(rules):
    rng = random.Random(2024)
    checked = 0
    while checked < 120:
        position = random_position(rng, bear_off_bias=0.3)
        if position.is_over():
            continue
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        expected = {(m.after.on_roll, m.after.opponent) for m in legal_moves(position, dice, rules)}
        assert _results(position, dice, rules) == expected, (position.position_id(), dice, rules.name)
        checked += 1


def test_kernel_on_hand_checked_cases():
    start = Position.initial()
    assert len(_results(start, (6, 5), STANDARD)) == 7            # 24/13 counted once
    assert len(_results(start, (6, 5), PLAYTIVE)) == 6            # 24/13 would be a sixth checker
    # BG-3 strictness: one checker on the 4-point, a blot on the 2-point, roll 4-2: only 4/2*/off.
    bear = Position((0, 0, 0, 1) + (0,) * 21, (0,) * 22 + (1, 0, 0))
    assert _results(bear, (4, 2), STANDARD) == {((0,) * 25, (0,) * 22 + (0, 0, 1))}
