"""The play generator of ``plays`` (compiled in ``_play_kernels``) against a second method:
every sequence of single steps of the dice tried, then BG-3's choice among them (the
method of the former plain-Python engine), on random positions of both presets."""

from __future__ import annotations

import random

import numpy as np
import pytest

from dicemath.games.backgammon import plays
from dicemath.games.backgammon.moves import legal_moves, roll_results, single_steps
from dicemath.games.backgammon.position import Position
from dicemath.games.backgammon.rules import PLAYTIVE, STANDARD

from .strategies import random_position


def _sequences(position, dice, rules, steps, out):
    if not dice or sum(position.on_roll) == 0:  # a play ending the game uses only its dice
        out.append((len(steps), steps, position))
        return
    moved = False
    for step, after in single_steps(position, dice[0], rules):
        moved = True
        _sequences(after, dice[1:], rules, steps + ((step, dice[0]),), out)
    if not moved:
        out.append((len(steps), steps, position))


def reference_plays(position, dice, rules) -> dict:
    """``{position after: highest sorted steps}`` of the legal plays (BG-3 from first principles)."""
    first, second = dice
    orders = [(first,) * 4] if first == second else [(first, second), (second, first)]
    found = []
    for order in orders:
        _sequences(position, order, rules, (), found)
    most = max(used for used, _, _ in found)
    chosen = [(steps, after) for used, steps, after in found if used == most]
    if first != second and most == 1:  # only one die can be played: the larger if able
        larger = max(first, second)
        chosen = [(s, a) for s, a in chosen if not s or s[0][1] == larger] or chosen
    best = {}
    for steps, after in chosen:
        plain = tuple(sorted((step for step, _ in steps), reverse=True))
        best[after] = max(best.get(after, plain), plain)
    return best


def _cases(rules, count, seed):
    rng = random.Random(seed)
    while count:
        position = random_position(rng, bear_off_bias=0.3)
        if not position.is_over():
            count -= 1
            yield position, (rng.randint(1, 6), rng.randint(1, 6))


@pytest.mark.parametrize("rules", [STANDARD, PLAYTIVE], ids=["standard", "playtive"])
def test_compiled_plays_equal_the_reference_on_random_positions(rules):
    for position, dice in _cases(rules, 60, 2024):
        expected = reference_plays(position, dice, rules)
        got = {m.after: m.steps for m in legal_moves(position, dice, rules)}
        assert got == expected, (position.position_id(), dice, rules.name)
        movers, opponents = roll_results(position.on_roll, position.opponent, dice[0], dice[1], rules)
        assert {(tuple(m.tolist()), tuple(o.tolist())) for m, o in zip(movers, opponents)} == \
            {(a.on_roll, a.opponent) for a in expected} and len(movers) == len(expected)


def test_plain_python_plays_are_the_compiled_ones():
    """The source of the kernels, run as plain Python, gives the same plays in the same order."""
    from dicemath.games.backgammon._play_kernels import roll_plays

    for position, dice in _cases(PLAYTIVE, 8, 7):
        arrays = (np.array(position.on_roll, np.int8), np.array(position.opponent, np.int8), *dice, 5)
        for plain, compiled in zip(plays.roll_plays(*arrays), roll_plays(*arrays)):
            assert np.array_equal(plain, compiled), (position.position_id(), dice)


def test_hand_checked_cases():
    start = Position.initial()
    assert len(roll_results(start.on_roll, start.opponent, 6, 5, STANDARD)[0]) == 7     # 24/13 counted once
    assert len(roll_results(start.on_roll, start.opponent, 6, 5, PLAYTIVE)[0]) == 6     # 24/13: a sixth checker
    # BG-3 strictness: one checker on the 4-point, a blot on the 2-point, roll 4-2: only 4/2*/off.
    bear = Position((0, 0, 0, 1) + (0,) * 21, (0,) * 22 + (1, 0, 0))
    assert [str(m) for m in legal_moves(bear, (4, 2))] == ["4/2 2/off"]
    assert legal_moves(bear, (4, 2))[0].after.opponent == (0,) * 24 + (1,)
    assert plays.unpack_steps(plays.with_step(plays.with_step(0, plays.step_code(6, 2)), plays.step_code(13, 7)),
                              2) == ((13, 7), (6, 2))
