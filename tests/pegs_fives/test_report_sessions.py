"""Playing a Fives session: the simulation of ``analyses/fives_sessions_simulated.py`` (its
session player against session advice, its sessions against the rules of FIVES-7) and the
report section ``sessions`` (its sentences read off the numbers)."""

from __future__ import annotations

import random

import pytest

from dicemath.games.pegs_fives import report_sessions as section
from dicemath.games.pegs_fives.game import FivesGame
from dicemath.games.pegs_fives.rules import FIVES
from dicemath.games.pegs_fives.session_advice import session_advice
from dicemath.games.pegs_fives.state import legal_rows
from dicemath.reporting.context import ReportContext

from ..conftest import analysis_script


MOVER = (2, 1, 2, 2, 2, 1, 2, 3, 2, 1, 2, 1)
OPPONENT = (4, 2, 4, 3, 3, 4, 2, 2, 2, 3, 4, 2)


@pytest.fixture(scope="module")
def simulated():
    """The simulation script as a module."""
    return analysis_script("fives_sessions_simulated")


def _legal(board, throw):
    return legal_rows(board, throw, FIVES.goal)


@pytest.mark.parametrize("totals", [(40, 60), (60, 40)])
def test_the_simulated_session_player_chooses_the_row_of_session_advice(simulated, totals):
    """The script's session player (the session model on the distilled values, one turn's
    leaves reused) names the row that ``session_advice`` (the model forced, exact_max_rows=0)
    ranks first, leading and trailing, two rounds after this one."""
    players = simulated.SessionPlayers(2)
    choose = players.policy("session", [OPPONENT], list(totals), 2)
    for throw in [(5, 4, 2, 2, 1, 1), (6, 6, 3, 3, 1, 1), (6, 5, 4, 3, 2, 1)]:
        advice = session_advice(FIVES, MOVER, throw, [OPPONENT], list(totals), 3, exact_max_rows=0)
        assert not advice.exact
        assert choose(MOVER, _legal(MOVER, throw), FIVES.dice, None) == advice.best.action


def test_session_shares_and_the_leader(simulated):
    assert simulated.session_shares([5, 5, 9, 5]) == [1 / 3, 1 / 3, 0.0, 1 / 3]
    assert simulated.session_shares([7, 3]) == [0.0, 1.0]
    assert simulated.leader_share([9, 4], [2, 6]) == 0.0
    assert simulated.leader_share([4, 4, 9], [2, 2, 2]) == pytest.approx(1 / 3)


class _Labelled(random.Random):
    """Seeded dice that remember their seed (``"<session>-<round>-<seat>"``)."""

    def __init__(self, seed: str) -> None:
        super().__init__(seed)
        self.label = seed


def test_a_session_adds_the_rounds_and_rotates_the_start(simulated, monkeypatch):
    """Round ``r`` is started by seat ``(first + r) % n`` and the seats move in turn (FIVES-7);
    every round ends on one complete board, its player scoring 0 that round; the totals add
    up; the same seeds play the same session."""
    players = simulated.SessionPlayers(3)
    turns: list[tuple[int, int]] = []
    real_turn = simulated.play_turn

    def play_turn(rules, board, policy, rng):
        _, r, seat = rng.label.rsplit("-", 2)
        turns.append((int(r), int(seat)))
        return real_turn(rules, board, policy, rng)

    monkeypatch.setattr(simulated, "random", type("Dice", (), {"Random": _Labelled}))
    monkeypatch.setattr(simulated, "play_turn", play_turn)
    final, before = simulated.play_session(players, ["solo"] * 3, 2, 1, "test")
    for r, start in ((0, 1), (1, 2)):
        seats = [seat for rr, seat in turns if rr == r]
        assert seats == [(start + k) % 3 for k in range(len(seats))]
    monkeypatch.undo()
    assert all(f >= b for f, b in zip(final, before)) and 0 in [f - b for f, b in zip(final, before)]
    assert 0 in before and sum(before) > 0
    assert simulated.play_session(players, ["solo"] * 3, 2, 1, "test") == (final, before)


def test_first_best_keeps_the_first_of_equal_values(simulated):
    assert simulated.first_best([1, 0, 2], [0.3, 0.3, 0.3]) == 1
    assert simulated.first_best([1, 0, 2], [0.3, 0.2, 0.31]) == 2


def test_verdicts_read_the_interval():
    assert section.verdict(0.05, 0.04) == "above zero"
    assert section.verdict(-0.05, 0.04) == "below zero"
    assert section.verdict(0.05, 0.06) == "holding zero"


def _departure(leads_by_rounds):
    leads = list(range(-4, 5))
    cases = []
    for rounds, departing in leads_by_rounds.items():
        cases += [{"rounds": rounds, "lead": lead, "differs": 0.1, "mean_loss": 0.001 * rounds,
                   "differs_at_the_fresh_pair": lead in departing} for lead in leads]
        cases.append({"rounds": rounds, "smallest_departing_lead_at_the_fresh_pair": None})
    return {"open_rows": [1, 2], "leads": leads, "cases": cases}


def test_the_departure_sentence_follows_the_leads():
    text = section.departure_sentence(_departure({1: [2, 3], 2: [3, 4]}))
    assert "with 1 round left from a lead of +2 to +3" in text
    assert "with 2 rounds left from a lead of +3 to +4 (the largest lead measured)" in text
    assert "the larger the lead" in text
    text = section.departure_sentence(_departure({1: [-3, 2], 2: []}))
    assert "at the leads -3, +2" in text and "with 2 rounds left at no lead from -4 to +4" in text
    assert "larger the lead" not in text and "smaller the lead" not in text


def _table(rounds, players, gain, half):
    same = {"test": 0.5, "test_ci95": 0.1, "base": 0.5, "base_ci95": 0.1, "difference": 0.0,
            "difference_ci95": 0.05, "sessions": 16}
    return {"rounds": rounds, "players": players, "sessions": 16, "table_sessions": 8,
            "one_session_vs_round": {**same, "difference": gain, "difference_ci95": half},
            "one_session_vs_solo": same, "whole_table_leader_wins": same,
            "whole_table_rest_points": {**same, "difference": -2.0, "difference_ci95": 1.0}}


def test_the_simulation_sentences_follow_the_intervals():
    simulated = {"tables": [_table(3, 2, 0.10, 0.05), _table(3, 3, -0.10, 0.05), _table(5, 2, 0.02, 0.05)]}
    text = section.gain_sentence(simulated, "one_session_vs_round", "against round-aware players")
    assert "gains session wins at 3 rounds and 2 players" in text
    assert "loses session wins at 3 rounds and 3 players" in text
    assert "holds zero) at 5 rounds and 2 players" in text
    whole = section.whole_table_sentence(simulated)
    assert "the rest points a player scores a round go down at 3 rounds and 2 players" in whole
    assert "leader before the last round shows no difference" in whole


def test_the_section_renders_the_committed_data(tmp_path):
    report = section.compute(ReportContext(tmp_path, quick=True))
    text = section.render(report, ReportContext(tmp_path, quick=True))
    assert "## When to gamble" in text and "## Simulated sessions on the full board" in text
    if report.exact.get("departure"):
        assert section.departure_sentence(report.exact["departure"]) in text
    if report.simulated.get("tables"):
        assert (tmp_path / "sessions_gain.png").exists()
        assert section.whole_table_sentence(report.simulated) in text
    empty = section.render(section.SessionsReport({}, {}), ReportContext(tmp_path, quick=True))
    assert empty.count("Not yet") == 3


def test_fives_lists_the_section():
    assert "sessions" in [s.name for s in FivesGame().report_sections()]


def test_the_chance_sentence_weighs_the_intervals_against_chance():
    """Against round-aware players the gain's interval excludes zero where ``gain > half``;
    against solo-optimal ones it never does (the helper's ``same``)."""
    none = {"tables": [_table(3, p, 0.0, 0.05) for p in (2, 3, 4)]}
    assert "0 exclude zero" in section.chance_sentence(none)
    assert "probability 100.0%" in section.chance_sentence(none)
    assert "do not show" in section.chance_sentence(none)
    many = {"tables": [_table(r, p, 0.2, 0.05) for r in (3, 5) for p in (2, 3, 4)]}
    text = section.chance_sentence(many)
    assert "Of the 12 intervals" in text and "6 exclude zero" in text
    assert "show a gain" in text and "do not show" not in text
