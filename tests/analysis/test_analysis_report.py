"""The ``analyse`` report section: computed from records, conclusions read off the numbers."""

from __future__ import annotations

from dicemath.analysis.report import PolicyRow, compute, concentration_sentence, ranking_sentence, render
from dicemath.reporting import section
from dicemath.reporting.context import ReportContext


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
    report = compute(context)
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
    assert section("analyse").render == "dicemath.analysis.report:render"
