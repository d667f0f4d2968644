"""The Pegs/Fives report: conclusions are read off the numbers, and say the opposite when
the numbers do."""

from __future__ import annotations

from dicemath.games.pegs_fives.report import (
    LateRace, PolicyRow, Simulation, late_race_sentence, policies_sentence, simulation_sentence, switch_sentence)


def test_simulation_sentence_says_whether_the_intervals_separate_the_best():
    clear = (Simulation("advisor", 20.0, 0.5, 0), Simulation("greedy", 25.0, 0.5, 3))
    close = (Simulation("advisor", 20.0, 3.0, 0), Simulation("greedy", 22.0, 3.0, 0))
    assert "clear of the greedy" in simulation_sentence(clear) and "3 greedy games" in simulation_sentence(clear)
    assert "within the 95% intervals" in simulation_sentence(close)
    assert simulation_sentence(close[::-1]).startswith("The advisor")


def test_switch_sentence_follows_the_confidence_intervals():
    def races(plain, aware):
        return {"games": 100, "advisor_vs_greedy": {"a_rest_when_losing": plain, "a_rest_when_losing_ci": 5.0},
                "rest_aware_vs_greedy": {"a_rest_when_losing": aware, "a_rest_when_losing_ci": 5.0}}

    assert "does not measurably pay" in switch_sentence(races(100.0, 95.0))
    assert "lowers it" in switch_sentence(races(100.0, 80.0))
    assert "raises it" in switch_sentence(races(80.0, 100.0))


def test_late_race_and_policy_sentences_read_the_numbers():
    same = LateRace((0,) * 12, (1,) * 6, {3: 10.0, 12: 20.0}, {3: 5.0, 12: 4.0}, advisor_row=3)
    differ = LateRace((0,) * 12, (1,) * 6, {3: 10.0, 12: 20.0}, {3: 5.0, 12: 4.0}, advisor_row=12)
    assert late_race_sentence(same) == "Both minimising turns and minimising rest points name row 3."
    assert "names row 3 (10.00)" in late_race_sentence(differ) and "1.00 more" in late_race_sentence(differ)
    rows = (PolicyRow((1, 2), 10.0, 10.5, 11.0, 12.0), PolicyRow((3, 4), 20.0, 20.0, 19.0, 25.0))
    sentence = policies_sentence(rows)
    assert "2.50% more" in sentence and "at most 5.00%" in sentence and "on 1 of them" in sentence
