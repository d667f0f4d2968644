"""The BohnDuell notebook runs, and the report section builds (quick)."""

from __future__ import annotations

from dicemath.games.bohnduell.report import build, solved_stocks
from dicemath.reporting import section_names
from dicemath.reporting.context import ReportContext


def test_notebook_runs(run_notebook):
    run_notebook("bohnduell.ipynb")


def test_report_section(tmp_path):
    assert "bohnduell" in section_names()
    text = build(ReportContext(tmp_path, quick=True))
    assert "## Value by stock size" in text and "overfill" in text
    assert (tmp_path / "bohnduell_values.png").exists()


def test_committed_results_agree_with_the_solver():
    """The stored table of solved stocks matches a fresh solve for the small stocks."""
    from dicemath.games.bohnduell.solver_dense import solve_dense

    data = solved_stocks()["results"]
    for capture, rows in data.items():
        table = solve_dense(4, 8, capture)
        for row in rows:
            if row["stock"] <= 8:
                start = initial_state(table.rules_for(row["stock"]))
                assert row["value"] == table.position_value(start)
                assert row["first_moves"] == {str(m): v for m, v in table.move_values(start).items()}
