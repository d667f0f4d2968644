"""Single-row expected turns against a from-scratch simulation of the rules text.

The simulation below is written straight from docs/rules.md (PEGS-3..9, FIVES-2..5) and shares
no code with the engine, so it checks the rules reading as well as the exact arithmetic.
"""

import random

import pytest

from dicemath.games.pegs_fives import FIVES, PEGS, row_table

GAMES = 12_000


def count_hits(target, faces):
    if target <= 6:
        return faces.count(target)
    pairs = 0
    for low in range(max(1, target - 6), (target + 1) // 2):
        pairs += min(faces.count(low), faces.count(target - low))
    if target % 2 == 0:
        pairs += faces.count(target // 2) // 2
    return pairs


def pegs_turn(step, target, rng):
    """One Pegs turn with only ``target`` open; returns the new step (5 = in)."""
    per_hit = 1 if target <= 6 else 2
    while True:                                        # cycles (PEGS-3, PEGS-8)
        dice, budget, count = 6, 3, 0
        faces = [rng.randint(1, 6) for _ in range(dice)]
        budget -= 1
        hit = count_hits(target, faces)
        if hit == 0:                                   # PEGS-4: nothing to name
            return step
        while True:
            count += hit
            dice -= hit * per_hit
            if step + count > 5:                       # PEGS-6 overthrow
                return step
            if dice == 0:                              # PEGS-8 before PEGS-7
                step += count
                if step == 5:
                    return step
                break
            if step + count == 5:                      # PEGS-7
                return 5
            if budget == 0:                            # PEGS-9
                return step + count
            faces = [rng.randint(1, 6) for _ in range(dice)]
            budget -= 1
            hit = count_hits(target, faces)
            if hit == 0:                               # PEGS-5 miss
                return step + count


def fives_turn(marks, target, rng):
    """One Fives turn with only ``target`` incomplete; returns the new marks (5 = complete)."""
    per_hit = 1 if target <= 6 else 2
    dice = 6
    hit = count_hits(target, [rng.randint(1, 6) for _ in range(dice)])
    while hit:
        marks = min(5, marks + hit)                    # FIVES-5: hits beyond 5 are lost
        dice -= hit * per_hit
        if marks == 5:
            return 5
        if dice == 0:                                  # FIVES-4
            dice = 6
        hit = count_hits(target, [rng.randint(1, 6) for _ in range(dice)])
    return marks


@pytest.mark.parametrize("rules, turn", [(PEGS, pegs_turn), (FIVES, fives_turn)], ids=["pegs", "fives"])
@pytest.mark.parametrize("row", [1, 7, 10])
def test_expected_turns_match_independent_simulation(rules, turn, row):
    rng = random.Random(row)
    samples = []
    for _ in range(GAMES):
        progress, turns = 0, 0
        while progress < 5:
            progress = turn(progress, row, rng)
            turns += 1
        samples.append(turns)
    mean = sum(samples) / GAMES
    sd = (sum((x - mean) ** 2 for x in samples) / (GAMES - 1)) ** 0.5
    # Four standard errors: a false alarm about once in 16,000 runs.
    assert float(row_table(rules, row).expected_turns) == pytest.approx(mean, abs=4 * sd / GAMES**0.5)
