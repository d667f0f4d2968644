"""The Pig report section: computed, rendered, every conclusion read off the numbers."""

from __future__ import annotations

from dataclasses import replace

from dicemath.games.pig import report
from dicemath.reporting.context import ReportContext


def test_section(tmp_path):
    context = ReportContext(tmp_path, quick=True)
    data = report.compute(context)
    text = report.render(data, context)
    assert (tmp_path / "pig_thresholds.png").is_file() and "pig_thresholds.png" in text
    assert "reproduces to the printed precision" in text and "0.530593" in text
    assert data.card_scores == [0, 25, 50, 75] and 0 < data.agreement < 1
    assert f"{data.agreement:.1%}" in text


def test_conclusions_follow_the_numbers(tmp_path):
    data = report.compute(ReportContext(tmp_path, quick=True))
    assert "does **not** reproduce" in report.published_conclusion(replace(data, first_player=0.52))
    assert "risk more" in report.risk_conclusion(replace(data, behind=25.0, ahead=20.0))
    assert "hold earlier" in report.risk_conclusion(replace(data, behind=18.0, ahead=20.0))
    assert "poor guide" in report.rule_of_thumb_conclusion(replace(data, agreement=0.5))
