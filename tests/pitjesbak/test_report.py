"""The report section (quick) and the notebook."""

from dicemath.games.pitjesbak.report import RoundRow, compute, heat_map_values, render, round_conclusion
from dicemath.reporting.context import ReportContext

from ..conftest import linked_pictures


def test_report_section_quick(tmp_path):
    context = ReportContext(tmp_path, quick=True)
    text = render(compute(context), context)
    assert "6/216" in text and "Policy card" in text
    assert (tmp_path / "pitjesbak_heatmap.png").stat().st_size > 1000
    assert [p.name for p in linked_pictures(text, tmp_path)] == ["pitjesbak_first_throw.svg"]
    assert "the advice is to **throw**" in text


def test_heat_map_monotone():
    from dicemath.games.pitjesbak.game_solver import solve_game
    values = heat_map_values(solve_game())
    # fewer own stripes never hurts, more of the other's never hurts
    assert (values[:-1, :] >= values[1:, :] - 1e-12).all()
    assert (values[:, 1:] >= values[:, :-1] - 1e-12).all()


def test_notebook_runs(run_notebook):
    run_notebook("pitjesbak.ipynb")


def test_round_conclusion_follows_the_numbers():
    """The sentence about the start player is read off the table, not written in advance."""
    leading = (RoundRow(2, (0.6, 0.4), (None, None)), RoundRow(3, (0.4, 0.3, 0.3), (None, None)))
    trailing = (RoundRow(2, (0.4, 0.6), (None, None)), RoundRow(3, (0.2, 0.5, 0.3), (None, None)))
    mixed = (RoundRow(2, (0.6, 0.4), (None, None)), RoundRow(3, (0.2, 0.5, 0.3), (None, None)))
    assert round_conclusion(leading).startswith("At every table size (2..3 players)")
    assert round_conclusion(trailing).startswith("At no table size")
    assert "with 2 players" in round_conclusion(mixed)
