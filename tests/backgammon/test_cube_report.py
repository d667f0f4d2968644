"""Report section ``backgammon_cube`` (quick mode) and the doubling-cube notebook."""

from __future__ import annotations

import pytest

from dicemath.games.backgammon.game import BACKGAMMON_GAME
from dicemath.games.backgammon.report_cube import _window_figure, compute, render, take_point_rows
from dicemath.reporting.context import ReportContext

from ..conftest import linked_pictures


def test_quick_report_builds(tmp_path):
    context = ReportContext(tmp_path, quick=True)
    report = compute(BACKGAMMON_GAME, context)
    text = render(report, context)
    assert [p.name for p in linked_pictures(text, tmp_path)] == ["backgammon_cube_decision.svg"]
    assert "cube centred: **double**" in text and "O should **take**" in text
    assert [a.text for a in report.decision_advice.options] == ["double", "roll"]
    for heading in ("## Take points and gammons", "## Market window",
                    "## Janowski's model against exact bear-off equities",
                    "## Race doubling rules against exact decisions"):
        assert heading in text
    assert (tmp_path / "backgammon_cube_window.png").stat().st_size > 1000
    assert (tmp_path / "backgammon_cube_fit.png").stat().st_size > 1000
    assert "keith" in text and "thorp" in text and "8-9-12" in text


def test_every_line_of_the_window_figure_is_labelled(tmp_path):
    import matplotlib.pyplot as plt

    figure = _window_figure(compute(BACKGAMMON_GAME, ReportContext(tmp_path, quick=True)))
    for axis in figure.axes:
        labels = [line.get_label() for line in axis.get_lines()]
        assert labels and not [label for label in labels if label.startswith("_")], labels
        assert set(axis.get_legend_handles_labels()[1]) >= set(labels)
    assert any(label.startswith("take point 0.2") for label in figure.axes[1].get_legend_handles_labels()[1])
    plt.close(figure)


def test_take_point_rows_without_gammons_are_the_classic_values():
    first = take_point_rows((0.0,), efficiency=0.68)[0]
    assert first[2] == pytest.approx(0.25) and first[4] == pytest.approx(0.2)
