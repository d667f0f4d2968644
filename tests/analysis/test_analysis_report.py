"""The ``analyse`` report section: computed from records, conclusions read off the numbers."""

from __future__ import annotations

from dicemath.reporting.sections.analyse import (
    AnalyseReport, GroupRow, PolicyRow, compute, concentration_sentence, figure, ranking_sentence, render)
from dicemath.reporting import section, sections
from dicemath.reporting.context import ReportContext
from dicemath.games.registry import GAMES

from ..conftest import linked_pictures


def _row(policy, decisions, loss, exact=0, exact_loss=0.0):
    return PolicyRow("pegs", policy, "turns", 2, decisions, exact, loss, exact_loss, 0, 0.1)


def test_ranking_sentence_follows_the_numbers():
    rows = [_row("a", 10, 1.0, 10, 1.0), _row("b", 10, 3.0, 10, 3.0)]
    assert ranking_sentence(rows).startswith("a loses least per decision (0.1 turns), b most (0.3)")
    rows = [_row("a", 10, 4.0, 10, 4.0), _row("b", 10, 3.0, 10, 3.0)]
    assert ranking_sentence(rows).startswith("b loses least")
    own = ranking_sentence([_row("advisor", 10, 0.5, 4, 0.5), _row("greedy", 10, 2.0, 4, 1.0)])
    assert "advisor lost nothing on the estimated decisions" in own and "greedy lost nothing" not in own


def test_section_from_the_committed_records(tmp_path):
    context = ReportContext(tmp_path, quick=True)
    report = compute(context, GAMES)
    assert report.records >= 10
    assert {row.game for row in report.policies} == {"pegs", "fives", "pitjesbak", "bohnduell", "backgammon"}
    for row in report.policies:
        cells = [g for g in report.groups if (g.game, g.policy) == (row.game, row.policy)]
        by_grouping = {}
        for cell in cells:
            by_grouping.setdefault(cell.grouping, []).append(cell)
        for grouping in by_grouping.values():      # each grouping splits all the policy's decisions
            assert sum(c.decisions for c in grouping) == row.decisions
            assert abs(sum(c.total_loss for c in grouping) - row.total_loss) < 1e-9
    worst = max((r for r in report.policies if r.game == "pitjesbak"), key=lambda r: r.mean_loss)
    sentence = concentration_sentence(report, "pitjesbak", "throw", worst.policy)
    assert sentence.startswith(f"{worst.policy}'s losses concentrate in")
    markdown = render(report, context)
    assert "## Where the losses concentrate" in markdown and (tmp_path / "analyse_losses.png").exists()
    assert section("analyse", sections(GAMES)).render is render
    drawn = {p.name for p in linked_pictures(markdown, tmp_path)}
    assert drawn == {f"analyse_{d.game}_costliest.svg" for d in report.costliest} and len(drawn) >= 4
    for picture in report.costliest:                # the policy losing least among those that lose
        losing = [r for r in report.policies if r.game == picture.game and r.total_loss > 0]
        assert picture.policy == min(losing, key=lambda r: r.mean_loss).policy
        assert picture.decision.loss > 0
        assert f"Played by {picture.policy}: {picture.decision.choice}," in picture.picture


def test_stages_without_decisions_are_shown_as_not_measured():
    rows = (_row("advisor", 4, 0.2), _row("greedy", 2, 0.0))
    groups = (GroupRow("pegs", "stage", "12-9 rows open", "advisor", 2, 0.1),
              GroupRow("pegs", "stage", "8-5 rows open", "advisor", 2, 0.1),
              GroupRow("pegs", "stage", "12-9 rows open", "greedy", 2, 0.0))
    stages = {"stage": ("12-9 rows open", "8-5 rows open", "4-1 rows open")}
    drawn = figure(AnalyseReport(1, ("pegs",), {"pegs": stages}, rows, groups, {"pegs": "exact"}, ()))
    axis = drawn.axes[0]
    hatched = [patch for patch in axis.patches if patch.get_hatch()]
    assert len(hatched) == 3                        # advisor 4-1, greedy 8-5 and 4-1: nothing measured
    assert all(patch.get_height() == axis.get_ylim()[1] for patch in hatched)
    assert [t.get_text() for t in axis.get_legend().get_texts()] == ["advisor", "greedy", "not measured (no decisions)"]
    assert [t.get_text() for t in axis.texts] == ["0"]    # greedy's measured 0 in 12-9 rows open
    complete = (*groups, GroupRow("pegs", "stage", "4-1 rows open", "advisor", 1, 0.0))
    others = figure(AnalyseReport(1, ("pegs",), {"pegs": stages}, rows[:1], complete[:2] + complete[3:],
                                  {"pegs": "exact"}, ()))
    assert not [p for p in others.axes[0].patches if p.get_hatch()]
    assert "not measured (no decisions)" not in [t.get_text() for t in others.axes[0].get_legend().get_texts()]
