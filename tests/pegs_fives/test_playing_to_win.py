"""The "Playing to win" report section and notebook (PEGS-2, FIVES-6): the quick section is
written with its pictures, its exact figures obey what playing to win must do, and its
sentences follow the numbers they describe."""

from __future__ import annotations

import numpy as np
import pytest

from dicemath.games.pegs_fives.game import FIVES_GAME
from dicemath.games.pegs_fives.rules import FIVES, PEGS
from dicemath.reporting.context import ReportContext
from dicemath.games.pegs_fives import report_playing_to_win as section

from ..conftest import linked_pictures


@pytest.fixture(scope="module")
def quick(tmp_path_factory):
    """The quick section's numbers and Markdown (written as ``dicemath report`` writes it)."""
    from dicemath.reporting import write_reports

    out = tmp_path_factory.mktemp("report")
    context = ReportContext(out, quick=True)
    data = section.compute(FIVES_GAME, context)
    written = write_reports(out, FIVES_GAME.report_sections(), only=["playing_to_win"], quick=True,
                            log=lambda *a, **k: None)
    return data, (out / "playing_to_win.md").read_text(), out, written


def test_the_quick_section_is_written_with_its_figure_and_pictures(quick):
    data, text, out, written = quick
    assert [p.name for p in written] == ["playing_to_win.md", "README.md"]
    assert "- [Playing to win: Pegs and Fives against the opponent on the table](playing_to_win.md)" in \
        (out / "README.md").read_text()
    assert (out / "playing_to_win_deviation.png").stat().st_size > 10_000
    pictures = [p.name for p in linked_pictures(text, out)]
    assert pictures == [f"playing_to_win_{p.game}_1.svg" for p in data.positions] and len(pictures) == 2
    for heading in ("## Exact on reduced boards", "## When it pays to deviate", "## Simulated on the full board",
                    "## Positions"):
        assert heading in text


def test_playing_to_win_never_hurts_the_player_who_does_it(quick):
    data = quick[0]
    assert {r.game for r in data.exact} == {"pegs", "fives"}
    for race in data.exact:
        f = race.figures
        assert f["race_vs_solo"] >= f["solo_vs_solo"] - 1e-12, race          # the first mover's best response
        assert f["solo_vs_race"] <= f["solo_vs_solo"] + 1e-12, race          # the second mover's
        assert f["solo_vs_race"] - 1e-12 <= f["race_vs_race"] <= f["race_vs_solo"] + 1e-12, race
        assert 0 < race.share_of_choices < 1
    for d in data.deviations:
        shown = d.pairs > 0
        assert (d.mean[shown] >= -1e-12).all() and (d.q90[shown] <= d.largest[shown] + 1e-12).all()
        assert int(d.pairs.sum()) == d.total_pairs
        assert ((0 <= d.share[shown]) & (d.share[shown] <= 1)).all()


def test_the_sentences_name_the_larger_number(quick):
    data, text = quick[0], quick[1]
    for race in data.exact:
        sentence = section.gain_sentence(race)
        larger = "the first mover" if race.first_gain > race.second_gain else "the second mover"
        assert f"worth more to {larger}" in sentence and sentence in text
    for d in data.deviations:
        behind, ahead = d.side_means()
        sentence = section.deviation_sentence(d)
        assert f"so it pays more {'behind' if behind > ahead else 'ahead'}" in sentence and sentence in text
    for p in data.positions:
        best = max(p.race["options"], key=lambda o: o["race_value"])["row"]
        sentence = section.position_sentence(p)
        assert best == p.race["race_best"] and f"row {best}" in sentence and sentence in text
        assert (f"Playing to win names row {best}" in sentence) == (best != p.solo.best.action)


def test_the_simulation_sentences_follow_the_intervals():
    pegs = {"games": 1000, "race_win_rate": 0.53, "race_win_rate_ci95": 0.02}
    assert "above one half beyond the 95% interval" in section.simulation_sentence("pegs", pegs)
    assert "within the 95% interval of one half" in section.simulation_sentence(
        "pegs", dict(pegs, race_win_rate=0.51))
    assert "below one half" in section.simulation_sentence("pegs", dict(pegs, race_win_rate=0.47))
    fives = dict(pegs, race_win_rate=0.47, rest_point_difference=2.0, rest_point_difference_ci95=1.0)
    sentence = section.simulation_sentence("fives", fives)
    assert "clear of zero" in sentence and "less often" in sentence
    assert "does not come from ending the round more often" in sentence
    assert "within the 95% interval of zero" in section.simulation_sentence(
        "fives", dict(fives, rest_point_difference=0.5))
    committed = section.read_study()["games"]["fives"]["simulate"]
    low = committed["rest_point_difference"] - committed["rest_point_difference_ci95"]
    assert ("clear of zero" in section.simulation_sentence("fives", committed)) == (low > 0)


@pytest.mark.parametrize("rules", [PEGS, FIVES], ids=["pegs", "fives"])
def test_the_deviation_curve_equals_the_plain_python_race(rules):
    """The gain of every pair on one open row, from the reference solver: race play against
    a solo-optimal opponent minus solo play against him."""
    from dicemath.games.pegs_fives.race_solver import solve_race

    d = section.deviation_curve(rules, (9,), use_cache=False)
    race = solve_race(rules, (9,), first="race", second="solo", exact=False).values[1]
    solo = solve_race(rules, (9,), first="solo", second="solo", exact=False).values[1]
    gains = np.array([float(race[pair]) - float(solo[pair]) for pair in race])
    assert d.total_pairs == len(gains) == 25
    assert d.mean_gain == pytest.approx(gains.mean(), abs=1e-12)
    assert (gains >= -1e-12).all() and gains.max() > 0



def test_the_study_sentences_follow_the_numbers():
    record = {"row_sets": [{}, {}], "mean_over_row_sets": {"race_gain_first": 0.002, "approx_gain_first": 0.001},
              "agreement": [{"agreement": 0.95, "solo_agreement": 0.90}, {"agreement": 0.90, "solo_agreement": 0.95},
                            {"agreement": 0.900001, "solo_agreement": 0.90}]}
    assert "(50% of the exact gain)" in section.approximation_sentence("pegs", record)
    worse = dict(record, mean_over_row_sets={"race_gain_first": 0.002, "approx_gain_first": -0.001})
    assert "does worse than solo-optimal play" in section.approximation_sentence("pegs", worse)
    assert "more often than the solo-optimal row is on 1 of 3 boards, less often on 1" in \
        section.agreement_sentence("pegs", record)
