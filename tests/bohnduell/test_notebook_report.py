"""The BohnDuell notebook runs, and the report section builds (quick)."""

from __future__ import annotations

from dicemath.games.bohnduell.report import (compute, first_player_conclusion, growth_conclusion,
                                             overfill_conclusion, proof_conclusion, render,
                                             search_quality_conclusion, solved_stocks)
from dicemath.games.bohnduell.game import BOHNDUELL_GAME
from dicemath.games.registry import GAMES
from dicemath.reporting import section_names, sections
from dicemath.reporting.context import ReportContext

from ..conftest import linked_pictures



def test_report_section(tmp_path):
    assert "bohnduell" in section_names(sections(GAMES))
    context = ReportContext(tmp_path, quick=True)
    text = render(compute(BOHNDUELL_GAME, context), context)
    assert "## Value by stock size" in text and "overfill" in text
    assert (tmp_path / "bohnduell_values.png").exists()
    assert [p.name for p in linked_pictures(text, tmp_path)] == ["bohnduell_start.svg"]
    assert 'class="advised"' in (tmp_path / "bohnduell_start.svg").read_text()


def test_committed_results_agree_with_the_solver():
    """The stored table of solved stocks matches a fresh solve for the small stocks."""
    from dicemath.games.bohnduell.rules import Rules
    from dicemath.games.bohnduell.solver_dense import solve_dense
    from dicemath.games.bohnduell.state import initial_state

    data = solved_stocks()["results"]
    for capture, rows in data.items():
        table = solve_dense(Rules(stock=8, capture=capture))
        for row in rows:
            if row["stock"] <= 8:
                start = initial_state(table.rules_for(row["stock"]))
                assert row["value"] == table.position_value(start)
                assert row["first_moves"] == {str(m): v for m, v in table.move_values(start).items()}


def test_conclusions_follow_the_numbers():
    """The sentences that judge the numbers change when the numbers do."""
    behind = {"last": {1: {"value": 0}, 2: {"value": -1}}, "every": {1: {"value": 0}}}
    ahead = {"last": {1: {"value": 2}, 2: {"value": 1}}, "every": {}}
    assert "never an advantage" in first_player_conclusion(behind)
    assert "ahead at 0 stock sizes, level at 1, behind at 1 of the 2" in first_player_conclusion(behind)
    assert "advantage more often than not" in first_player_conclusion(ahead)
    clean = ((5, {"positions": 10, "overfill_better": 0, "tie": 1, "overfill_worse": 9, "mean_loss_when_worse": 2.0}),)
    risky = ((5, {"positions": 10, "overfill_better": 6, "tie": 0, "overfill_worse": 4, "mean_loss_when_worse": 1.0}),)
    assert "is sound" in overfill_conclusion(clean) and "never" in overfill_conclusion(clean)
    assert "unreliable" in overfill_conclusion(risky) and "60.0%" in overfill_conclusion(risky)


def test_growth_and_search_sentences_follow_the_numbers():
    rows = [{"stock": 9, "table_positions": 1000, "solve_seconds_estimated": 5.0},
            {"stock": 10, "table_positions": 1500, "solve_seconds": 600.0}]
    text = growth_conclusion(rows, None)
    assert "grows 1.50x" in text and "10 beans a side, holds 1,500 positions" in text and "10.0 minutes" in text
    standard = {"table_positions": 494_000_000_000, "build_hours_estimated": 12.0}
    assert "494 GB" in growth_conclusion(rows, standard) and "12 hours" in growth_conclusion(rows, standard)
    quality = {"depth": 6, "results": [
        {"stock": 30, "best_share": 0.8, "mean_loss_per_decision": 0.3, "mean_loss_per_game": 12.0},
        {"stock": 14, "best_share": 0.95, "mean_loss_per_decision": 0.05, "mean_loss_per_game": 1.5}]}
    sentence = search_quality_conclusion(quality)
    assert "in 80% to 95%" in sentence and "14 to 30 beans; the share falls" in sentence
    assert "0.05 to 0.30 beans per decision, 1.5 to 12.0 per game" in sentence
    quality["results"][0]["best_share"] = 0.99
    assert "does not fall" in search_quality_conclusion(quality)


def test_proof_sentence_follows_the_numbers():
    rows = [{"stock": 32, "proven": True, "value": -1, "optimal_first_moves": ["S1"], "nodes": 2433,
             "table_stock": 30},
            {"stock": 34, "proven": True, "value": -1, "optimal_first_moves": ["S1"], "nodes": 46001,
             "table_stock": 30}]
    text = proof_conclusion(rows)
    assert "starts of 32, 34 beans" in text and "every one is worth -1" in text and "46,001" in text
    rows[1]["value"] = 2
    assert "range over -1, +2" in proof_conclusion(rows)
    open_only = [{"stock": 40, "proven": False, "lower": -80, "upper": 3, "nodes": 5, "table_stock": 30}]
    assert "No start beyond the tables is proven yet; for 40 beans the search proved -80 <= value <= +3" in (
        proof_conclusion(open_only))
    standard = {"table_positions": 494_000_000_000, "build_hours_estimated": 12.0}
    rows_ = [{"stock": 9, "table_positions": 1000}, {"stock": 10, "table_positions": 1500, "solve_seconds": 60.0}]
    assert "answered by the search" in growth_conclusion(rows_, standard)
    assert "proven by search instead (value -1" in growth_conclusion(rows_, {**standard, "proven": True, "value": -1})


def test_reproduced_sentence_follows_the_numbers():
    from dicemath.games.bohnduell.report import reproduced_conclusion

    def record(capture, value, bounds, seconds):
        return {"capture": capture, "value": value, "lower": -3, "upper": 2, "table_stock": 24,
                "first_move_bounds": bounds, "table_seconds": seconds[0], "proof_seconds": seconds[1],
                "check_seconds": seconds[2], "machine": "a machine", "table_bytes": 4.1e9}

    rows = [record("every", 2, {"S1": [2, 2], "S2": [0, 1]}, (120, 300, 60)),
            record("last", -1, {"S1": [-1, -1], "S2": [-3, -3]}, (100, 200, 30))]
    text = reproduced_conclusion(rows)
    assert text.startswith("The standard game is worth -1 with capture `last` (best first move S1; proven over the "
                           "table of 24 beans) and +2 with capture `every` (best first move S1; proven over the table "
                           "of 24 beans)")
    assert "took 5.5 to 8.0 minutes all told" in text and "at most 4.1 GB" in text
    bigger = {**rows[1], "table_stock": 26, "table_bytes": 8.7e9}
    assert "-1 with capture `last` (best first move S1; proven over the tables of 24 and 26 beans)" in (
        reproduced_conclusion([*rows, bigger]))
    assert "at most 8.7 GB" in reproduced_conclusion([*rows, bigger])
    assert "DISAGREE" in reproduced_conclusion([*rows, {**bigger, "value": 0, "first_move_bounds": {"S1": [0, 0]}}])
    rows[0]["value"] = None
    assert "between -3 and +2 with capture `every` (not proven)" in reproduced_conclusion(rows)
