"""Report section ``backgammon_cube`` (quick mode) and the doubling-cube notebook."""

from __future__ import annotations

import pytest

from dicemath.games.backgammon.cube_report import compute, render, take_point_rows
from dicemath.reporting.context import ReportContext


def test_quick_report_builds(tmp_path):
    context = ReportContext(tmp_path, quick=True)
    text = render(compute(context), context)
    for heading in ("## Take points and gammons", "## Market window",
                    "## Janowski's model against exact bear-off equities",
                    "## Race doubling rules against exact decisions"):
        assert heading in text
    assert (tmp_path / "backgammon_cube_window.png").stat().st_size > 1000
    assert (tmp_path / "backgammon_cube_fit.png").stat().st_size > 1000
    assert "keith" in text and "thorp" in text and "8-9-12" in text


def test_take_point_rows_without_gammons_are_the_classic_values():
    first = take_point_rows((0.0,), efficiency=0.68)[0]
    assert first[2] == pytest.approx(0.25) and first[4] == pytest.approx(0.2)


@pytest.mark.slow
def test_notebook_runs(run_notebook):
    run_notebook("doubling_cube.ipynb")
