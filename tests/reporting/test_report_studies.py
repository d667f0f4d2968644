"""The report sections' committed studies (``dicemath/studies/data/report_studies.json``): every
record is well formed and for this package version, every study the full report asks for is
committed for the parameters it asks with, and a record is used only for its parameters. The
slow tests recompute small cases and compare them with the committed numbers."""

from __future__ import annotations

import json

import numpy as np
import pytest

from functools import partial

from dicemath._version import __version__
from dicemath.games.pegs_fives import report_playing_to_win as ptw
from dicemath.games.pitjesbak import report as pit
from dicemath.games.pitjesbak.rules import STANDARD
from dicemath.games.registry import GAMES
from dicemath.reporting import section_names, sections
from dicemath.reporting.context import STUDIES_FILE, STUDY_DATA, ReportContext, committed_study
from dicemath.studies.report_studies import RESULTS, read_studies, study

PLAYING_TO_WIN_RECORDED = any(name.startswith("playing_to_win/") for name in read_studies()["studies"])
"""Whether the exact races of ``playing_to_win`` are recorded (``python analyses/report_studies.py
playing_to_win``); once one is, every one the section asks for must be."""

TIMINGS = {"kernel_seconds", "pairs_per_second", "seconds", "cpu_seconds"}
"""Keys of a record's value that measure time, not the game."""


def committed(name, params):
    """The committed record of study ``name`` for ``params``, as the report reads it."""
    return committed_study(STUDY_DATA / STUDIES_FILE, name, params)


def _strip_timings(value):
    if isinstance(value, dict):
        return {k: _strip_timings(v) for k, v in value.items() if k not in TIMINGS}
    if isinstance(value, list):
        return [_strip_timings(v) for v in value]
    return value


def _playing_to_win_studies():
    out = []
    for rules in ptw.GAMES:
        out += [(f"playing_to_win/exact/{rules.name}/{ptw.rows_text(rows)}", (rules, tuple(rows)))
                for rows in ptw.EXACT_ROWS]
        rows = tuple(ptw.DEVIATION_ROWS)
        out.append((f"playing_to_win/deviation/{rules.name}/{ptw.rows_text(rows)}",
                    (rules, rows, ptw.GAP_BIN, ptw.NOTICEABLE[rules.scoring])))
    return out


def _asked_for():
    """(name, params) of every study the full sections ask for."""
    out = [study for study in _playing_to_win_studies() if PLAYING_TO_WIN_RECORDED]
    out.append(("pitjesbak/tables", (STANDARD, pit.TABLE_SIZES, pit._exact_sizes(False))))
    out.append(("pitjesbak/gains", (STANDARD, pit.TABLE_SIZES, pit.SIMULATED_GAMES, pit.SEED)))
    return out


def test_the_report_reads_the_file_the_studies_write():
    assert STUDY_DATA / STUDIES_FILE == RESULTS


def test_every_record_is_well_formed_and_of_this_version():
    studies = read_studies()["studies"]
    assert studies
    names = section_names(sections(GAMES))
    for name, record in studies.items():
        assert set(record) == {"section", "params", "version", "seconds", "value"}, name
        assert record["section"] in names and name.startswith(record["section"] + "/"), name
        assert record["version"] == __version__, name


@pytest.mark.parametrize("name, params", _asked_for(), ids=lambda v: v if isinstance(v, str) else "rules")
def test_every_study_of_the_full_report_is_committed_for_its_parameters(name, params):
    record = committed(name, params)
    assert record is not None, f"{name} is not committed for {params!r}: run analyses/report_studies.py"


def test_the_committed_values_describe_what_they_are_named():
    for rules in ptw.GAMES if PLAYING_TO_WIN_RECORDED else ():
        for rows in ptw.EXACT_ROWS:
            figures = committed(f"playing_to_win/exact/{rules.name}/{ptw.rows_text(rows)}", (rules, tuple(rows)))
            if figures is None:
                continue                        # test_every_study_of_the_full_report_is_committed says so
            assert figures["value"]["game"] == rules.name and figures["value"]["open_rows"] == list(rows)
    tables = committed("pitjesbak/tables", (STANDARD, pit.TABLE_SIZES, pit._exact_sizes(False)))["value"]
    assert [row[0] for row in tables["rows"]] == list(pit.TABLE_SIZES)
    for n, exact, probabilities, thresholds in tables["rows"]:
        assert exact == (n in pit._exact_sizes(False)) and len(probabilities) == n == len(thresholds)
        assert sum(probabilities) == pytest.approx(1.0, abs=1e-6)


def test_a_record_is_read_for_its_parameters_only(tmp_path):
    path = tmp_path / STUDIES_FILE
    runner = partial(study, path=path)
    calls = []

    def compute():
        calls.append(1)
        return {"array": np.arange(3), "pair": (1, 2.5)}

    def context(**options):
        return ReportContext(tmp_path, runner=runner, data=tmp_path, **options)

    first = context(record=True).study("s", "x", ("rules", 1), compute)
    assert first == {"array": [0, 1, 2], "pair": [1, 2.5]} and len(calls) == 1
    assert context().study("s", "x", ("rules", 1), compute) == first and len(calls) == 1
    assert context().study("s", "x", ("rules", 2), compute) == first and len(calls) == 2
    assert context(recompute=True).study("s", "x", ("rules", 1), compute) == first and len(calls) == 3
    assert json.loads(path.read_text())["studies"]["s/x"]["params"] == repr(("rules", 1))


def test_without_a_runner_a_study_is_computed_in_place_and_never_recorded(tmp_path):
    def compute():
        return {"array": np.arange(3), "pair": (1, 2.5)}

    context = ReportContext(tmp_path, data=tmp_path)
    assert context.study("s", "x", 1, compute) == {"array": [0, 1, 2], "pair": [1, 2.5]}
    assert not (tmp_path / STUDIES_FILE).exists()
    with pytest.raises(ValueError, match="runner"):
        ReportContext(tmp_path, record=True, data=tmp_path).study("s", "x", 1, compute)


@pytest.mark.skipif(not PLAYING_TO_WIN_RECORDED, reason="playing_to_win's exact races are not recorded yet")
def test_the_context_reads_the_committed_study(tmp_path):
    race = ptw.exact_race(ReportContext(tmp_path), ptw.PEGS, ptw.EXACT_ROWS[0])
    assert race.figures == committed(f"playing_to_win/exact/pegs/{ptw.rows_text(ptw.EXACT_ROWS[0])}",
                                     (ptw.PEGS, tuple(ptw.EXACT_ROWS[0])))["value"]


@pytest.mark.slow
@pytest.mark.skipif(not PLAYING_TO_WIN_RECORDED, reason="playing_to_win's exact races are not recorded yet")
@pytest.mark.parametrize("rules", ptw.GAMES, ids=lambda r: r.name)
def test_recomputing_the_smallest_exact_race_gives_the_committed_figures(rules, tmp_path):
    rows = min(ptw.EXACT_ROWS, key=len)
    fresh = ptw.exact_race(ReportContext(tmp_path, recompute=True), rules, rows).figures
    stored = committed(f"playing_to_win/exact/{rules.name}/{ptw.rows_text(rows)}", (rules, tuple(rows)))["value"]
    assert _strip_timings(fresh) == _strip_timings(stored)


@pytest.mark.slow
@pytest.mark.skipif(not PLAYING_TO_WIN_RECORDED, reason="playing_to_win's exact races are not recorded yet")
@pytest.mark.parametrize("rules", ptw.GAMES, ids=lambda r: r.name)
def test_recomputing_the_deviation_curve_gives_the_committed_numbers(rules, tmp_path):
    fresh = ptw.committed_deviation(ReportContext(tmp_path, recompute=True), rules, ptw.DEVIATION_ROWS)
    stored = ptw.committed_deviation(ReportContext(tmp_path), rules, ptw.DEVIATION_ROWS)
    for name in ptw.DEVIATION_FIELDS:
        np.testing.assert_array_equal(getattr(fresh, name), getattr(stored, name))
    assert (fresh.total_pairs, fresh.mean_gain) == (stored.total_pairs, stored.mean_gain)


@pytest.mark.slow
def test_recomputing_the_three_player_table_gives_the_committed_row():
    from dicemath.games.pitjesbak.advice import table_policy_card
    from dicemath.games.pitjesbak.sources import default_solution

    rules = STANDARD.with_players(3)
    card = table_policy_card(rules=rules, solution=default_solution(rules))
    rows = committed("pitjesbak/tables", (STANDARD, pit.TABLE_SIZES, pit._exact_sizes(False)))["value"]["rows"]
    n, exact, probabilities, thresholds = next(r for r in rows if r[0] == 3)
    assert exact and list(card.win_probabilities) == probabilities
    assert [list(t) for t in card.thresholds] == thresholds
