"""The rules of ``plays`` (C, ``_plays_c.c``) against a second method in plain Python: the
step rule written out again here (BG-4..BG-6), and every sequence of single steps of the
dice tried, then BG-3's choice among them (the method of the former plain-Python engine),
on random positions of both presets."""

from __future__ import annotations

import random

import numpy as np
import pytest

from dicemath.games.backgammon import plays
from dicemath.games.backgammon.moves import legal_moves, roll_results
from dicemath.games.backgammon.position import BAR, OFF, Position
from dicemath.games.backgammon.rules import PLAYTIVE, STANDARD

from .strategies import random_position


def reference_target(mine, theirs, source, die, limit):
    """BG-4..BG-6 in plain Python: where a step lands, or -1."""
    if mine[source - 1] == 0 or (mine[BAR - 1] > 0 and source != BAR):
        return -1
    target = source - die
    if target >= 1:
        closed = theirs[24 - target] >= 2 or (limit > 0 and mine[target - 1] >= limit)
        return -1 if closed else target
    if any(mine[6:]) or (target < 0 and any(mine[source:6])):
        return -1
    return OFF


def reference_step(position, source, target):
    """The position after a legal step, a blot hit going to the bar (BG-5)."""
    mine, theirs = list(position.on_roll), list(position.opponent)
    mine[source - 1] -= 1
    if target != OFF:
        mine[target - 1] += 1
        if theirs[24 - target] == 1:
            theirs[24 - target], theirs[BAR - 1] = 0, theirs[BAR - 1] + 1
    return Position(tuple(mine), tuple(theirs), position.player)


def single_steps(position, die, rules):
    limit = rules.max_per_point or 0
    for source in range(BAR, 0, -1):
        target = reference_target(position.on_roll, position.opponent, source, die, limit)
        if target >= 0:
            yield (source, target), reference_step(position, source, target)


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
        got = {m.after: m.steps for m in legal_moves(rules, position, dice)}
        assert got == expected, (position.position_id(), dice, rules.name)
        movers, opponents = roll_results(rules, position.on_roll, position.opponent, dice[0], dice[1])
        assert {(tuple(m.tolist()), tuple(o.tolist())) for m, o in zip(movers, opponents)} == \
            {(a.on_roll, a.opponent) for a in expected} and len(movers) == len(expected)


def test_step_rule_is_the_reference_on_random_positions():
    rng = random.Random(5)
    for _ in range(300):
        position = random_position(rng, bear_off_bias=0.5)
        arrays = np.array(position.on_roll, np.int8), np.array(position.opponent, np.int8)
        for limit in (0, 5):
            for source in range(1, BAR + 1):
                for die in range(1, 7):
                    target = reference_target(position.on_roll, position.opponent, source, die, limit)
                    assert plays.step_target(position.on_roll, position.opponent, source, die, limit) == target
                    assert plays.step_target(*arrays, source, die, limit) == target
                    if target >= 0:
                        mine, theirs, hit = plays.move_checker(position.on_roll, position.opponent, source, target)
                        expected = reference_step(position, source, target)
                        assert (mine, theirs) == (expected.on_roll, expected.opponent)
                        assert hit == (expected.opponent[BAR - 1] > position.opponent[BAR - 1])


def test_roll_plays_orders_results_and_keeps_the_highest_steps():
    """Results come once each, ordered by key; the steps kept are those of the highest play."""
    start = Position.initial()
    mines, theirs, steps, used = plays.roll_plays(start.on_roll, start.opponent, 6, 5, 0)
    assert used == 2 and len(mines) == len({m.tobytes() + t.tobytes() for m, t in zip(mines, theirs)}) == 7
    run = plays.unpack_steps(steps[[m[12] == 6 and m[23] == 1 for m in mines].index(True)], used)
    assert run == ((24, 18), (18, 13))     # 24/13: of 24/18/13 and 24/19/13 the higher steps


def test_hand_checked_cases():
    start = Position.initial()
    assert len(roll_results(STANDARD, start.on_roll, start.opponent, 6, 5)[0]) == 7     # 24/13 counted once
    assert len(roll_results(PLAYTIVE, start.on_roll, start.opponent, 6, 5)[0]) == 6     # 24/13: a sixth checker
    # BG-3 strictness: one checker on the 4-point, a blot on the 2-point, roll 4-2: only 4/2*/off.
    bear = Position((0, 0, 0, 1) + (0,) * 21, (0,) * 22 + (1, 0, 0))
    assert [str(m) for m in legal_moves(STANDARD, bear, (4, 2))] == ["4/2 2/off"]
    assert legal_moves(STANDARD, bear, (4, 2))[0].after.opponent == (0,) * 24 + (1,)
