"""The bear-off report section (quick mode) and the notebook run end to end."""

from __future__ import annotations

from dicemath.games.backgammon.report import compute, render
from dicemath.reporting.context import ReportContext


def test_report_section_quick(tmp_path):
    context = ReportContext(tmp_path, quick=True)
    text = render(compute(context), context)
    assert "Expected rolls to bear off" in text
    assert "12.2662" in text  # 15 on the 6-point, also GNU Backgammon's 12.266 (test_gnubg.py)
    assert (tmp_path / "backgammon_bearoff.png").exists()


def test_notebook_runs(run_notebook):
    run_notebook("backgammon_bearoff.ipynb")
