"""The report section (quick) and the notebook."""

from dicemath.games.pitjesbak.report import (
    GainRow,
    RoundRow,
    TableRow,
    advantage_conclusions,
    compute,
    gain_conclusions,
    heat_map_values,
    render,
    round_conclusion,
    threshold_conclusions,
)
from dicemath.games.pitjesbak.game import PITJESBAK_GAME
from dicemath.reporting.context import ReportContext

from ..conftest import linked_pictures


def test_report_section_quick(tmp_path):
    context = ReportContext(tmp_path, quick=True)
    report = compute(PITJESBAK_GAME, context)
    text = render(report, context)
    assert "6/216" in text and "Policy card" in text
    assert (tmp_path / "pitjesbak_heatmap.png").stat().st_size > 1000
    assert [p.name for p in linked_pictures(text, tmp_path)] == ["pitjesbak_first_throw.svg"]
    assert "the advice is to **throw**" in text
    # the tables of 2 to 8 players
    assert (tmp_path / "pitjesbak_thresholds.png").stat().st_size > 1000
    assert "## Tables of 2 to 8 players" in text and "First-seat advantage" in text
    assert [r.players for r in report.tables] == list(range(2, 9))
    assert [r.exact for r in report.tables] == [True, True] + [False] * 5
    assert all(len(r.thresholds) == r.players for r in report.tables)
    assert report.gains[0].players == 2 and report.gains[0].exact_losses[0] > 0
    assert all(g.simulated["low"] <= g.simulated["loss"] <= g.simulated["high"] for g in report.gains if g.simulated)


def test_heat_map_monotone():
    from dicemath.games.pitjesbak.game_solver import solve_game
    values = heat_map_values(solve_game())
    # fewer own stripes never hurts, more of the other's never hurts
    assert (values[:-1, :] >= values[1:, :] - 1e-12).all()
    assert (values[:, 1:] >= values[:, :-1] - 1e-12).all()



def test_round_conclusion_follows_the_numbers():
    """The sentence about the start player is read off the solved rounds, not written in advance."""
    leading = (RoundRow(2, (0.6, 0.4), (None, None)), RoundRow(3, (0.4, 0.3, 0.3), (None, None)))
    trailing = (RoundRow(2, (0.4, 0.6), (None, None)), RoundRow(3, (0.2, 0.5, 0.3), (None, None)))
    mixed = (RoundRow(2, (0.6, 0.4), (None, None)), RoundRow(3, (0.2, 0.5, 0.3), (None, None)))
    assert round_conclusion(leading).startswith("At every table size (2..3 players)")
    assert round_conclusion(trailing).startswith("At no table size")
    assert "with 2 players" in round_conclusion(mixed)


def _row(players, first, thresholds, exact=True):
    rest = (1 - first) / (players - 1)
    return TableRow(players, exact, (first,) + (rest,) * (players - 1), thresholds)


def test_table_conclusions_follow_the_numbers():
    """The sentences about thresholds, the first seat and the gains are read off the rows."""
    rising = (_row(2, 0.51, (("score 68", "score 105"), ("score 65", "score 65"))),
              _row(3, 0.34, (("score 106", "score 108"), ("score 162", "score 109"), ("score 65", "score 65"))))
    words = " ".join(threshold_conclusions(rising))
    assert "rises with every added player: 6-5-3/6-4-4 (68) at 2 players, 4-2-1/3-3-1 (106) at 3" in words
    assert "stops as soon as he beats it, on 6-3-2 (65) or better, at every table size" in words
    falling = (rising[0], _row(3, 0.34, (("score 14", "score 108"), ("score 162", "score 109"),
                                         ("score 70", "score 65"))))
    words = " ".join(threshold_conclusions(falling))
    assert "never rises" in words and "stops as soon as he beats it" not in words
    assert advantage_conclusions(rising, None)[0].startswith("The first start player's chance is above")
    behind = (_row(2, 0.49, rising[0].thresholds), _row(3, 0.30, rising[1].thresholds))
    assert "below a fair share" in advantage_conclusions(behind, None)[0]
    assert "largest in points of probability at 3 players" in " ".join(
        advantage_conclusions((_row(2, 0.505, ()), _row(3, 0.35, ())), None))
    inside = {"loss": 0.002, "low": 0.001, "high": 0.003, "games": 10, "exact_values": True}
    outside = {"loss": 0.004, "low": 0.0035, "high": 0.0045, "games": 10, "exact_values": True}
    beyond = {"loss": 0.001, "low": -0.001, "high": 0.003, "games": 10, "exact_values": False}
    words = " ".join(gain_conclusions((GainRow(3, (0.0025, 0.0026, 0.0027), inside), GainRow(5, None, beyond))))
    assert "between 0.00250 and 0.00270" in words and "inside the simulated 95% interval every time" in words
    assert "above zero with 95% confidence at no table size of 5 players" in words
    positive = {"loss": 0.002, "low": 0.001, "high": 0.003, "games": 10, "exact_values": False}
    assert "at every table size simulated (5, 6 players)" in " ".join(
        gain_conclusions((GainRow(5, None, positive), GainRow(6, None, positive))))
    words = " ".join(gain_conclusions((GainRow(3, (0.0025, 0.0026, 0.0027), outside),)))
    assert "inside the simulated 95% interval at no table size" in words
