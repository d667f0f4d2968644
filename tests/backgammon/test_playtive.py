"""The Playtive study (``dicemath.studies.backgammon_playtive``), its report and notebook."""

from __future__ import annotations

import numpy as np
import pytest

from dicemath.games.backgammon import gnubg_engine
from dicemath.games.backgammon.rules import PLAYTIVE, STANDARD
from dicemath.reporting.context import ReportContext
from dicemath.games.backgammon.report_playtive import compute, render
from dicemath.studies import backgammon_playtive as playtive
from dicemath.studies.backgammon_selfplay import self_play_game

needs_gnubg = pytest.mark.skipif(not gnubg_engine.available(), reason="the gnubg package is not installed")


@needs_gnubg
def test_paired_games_share_their_dice_until_they_part():
    """With no binding turn the playtive game is the standard game, play for play."""
    for seed in range(30):
        standard = self_play_game(np.random.default_rng([playtive.SEED, seed]), STANDARD)
        limited = self_play_game(np.random.default_rng([playtive.SEED, seed]), PLAYTIVE)
        if limited.binds == 0:
            assert (limited.starter_won, limited.points, limited.turns) == \
                   (standard.starter_won, standard.points, standard.turns)
        assert all(np.isfinite(cost) for cost in limited.costs)


@needs_gnubg
def test_chunk_and_summary_by_hand():
    data = playtive.run_chunk(0, 3)
    assert list(data["game"]) == [0, 1, 2]
    assert len(data["cost"]) == data["p_binds"].sum() == len(data["cost_game"])
    found = playtive.summarize(data)
    assert found["games"] == 3 and found["binds"] == data["p_binds"].sum()
    assert found["binds_per_move"]["value"] == pytest.approx(data["p_binds"].sum() / data["p_turns"].sum())
    wins = data["p_starter_won"].mean()
    assert found["starter_wins"]["playtive"]["value"] == pytest.approx(wins)


def test_committed_findings_cover_the_study():
    findings = playtive.load_findings()
    assert findings["games"] >= 20_000
    assert 0 < findings["binds_per_move"]["low"] <= findings["binds_per_move"]["value"] <= \
        findings["binds_per_move"]["high"] < 1
    for key in ("starter_wins", "gammons", "backgammons", "starter_equity"):
        entry = findings[key]["difference"]
        assert entry["low"] <= entry["value"] <= entry["high"]
    assert sum(findings["cost"]["histogram"]["counts"]) <= findings["binds"]
    confirmation = findings["confirmation"]
    assert confirmation["ply"] == 2 and confirmation["positions"] >= 100
    changed = [o["roll"] for o in confirmation["openings"]["0"] if o["changes"]]
    assert "6-5" in changed                         # 24/13 would put a sixth checker on the mid-point


def test_report_section_builds_from_committed_data(tmp_path):
    context = ReportContext(tmp_path)
    text = render(compute(context), context)
    assert "binds" in text and (tmp_path / "backgammon_playtive.png").exists()
