"""The report section (quick) and the notebook."""

from dicemath.games.pitjesbak.report import build, heat_map_values
from dicemath.reporting.context import ReportContext


def test_report_section_quick(tmp_path):
    text = build(ReportContext(tmp_path, quick=True))
    assert "6/216" in text and "Policy card" in text
    assert (tmp_path / "pitjesbak_heatmap.png").stat().st_size > 1000


def test_heat_map_monotone():
    from dicemath.games.pitjesbak.game_solver import solve_game
    values = heat_map_values(solve_game())
    # fewer own stripes never hurts, more of the other's never hurts
    assert (values[:-1, :] >= values[1:, :] - 1e-12).all()
    assert (values[:, 1:] >= values[:, :-1] - 1e-12).all()


def test_notebook_runs(run_notebook):
    run_notebook("pitjesbak.ipynb")
