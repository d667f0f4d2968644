"""The report writer: sections in parallel processes keep the report order, each its own files,
and each progress line says what the section does and how long it is expected to take."""

from __future__ import annotations

import pytest

from dicemath.games.registry import GAMES
from dicemath.reporting import writer
from dicemath.reporting.writer import expected_times, section, section_names, sections, write_reports

SECTIONS = sections(GAMES)


def test_parallel_sections_keep_the_report_order_and_their_files(tmp_path):
    lines = []
    written = write_reports(tmp_path, SECTIONS, only=["pig", "dice"], quick=True, jobs=2,
                            log=lambda line, **k: lines.append(line))
    assert [p.name for p in written] == ["dice.md", "pig.md", "README.md"]
    assert (tmp_path / "dice_hits.png").exists() and (tmp_path / "pig_thresholds.png").exists()
    index = (tmp_path / "README.md").read_text()
    assert index.index("(dice.md)") < index.index("(pig.md)")
    starts = [line for line in lines if line.startswith("[")]
    assert len(starts) == 2
    assert all("expected" in line for line in starts)
    assert sum("wrote" in line for line in lines) == 2


def test_the_recorded_times_name_known_sections():
    times = expected_times()
    assert set(times) <= set(section_names(SECTIONS))
    assert all(t["cold"] >= 0 and (t["warm"] is None or t["warm"] >= 0) for t in times.values())


def test_a_progress_line_quotes_the_measured_time():
    times = {"dice": {"cold": 12.0, "warm": 3.0}}
    assert writer._expected_text("dice", times) == "expected about 12 s with an empty cache, 3 s warm"
    assert "not measured" in writer._expected_text("pig", times)
    assert "recomputing" in writer._expected_text("dice", times, recompute=True)
    assert "quick" in writer._expected_text("dice", times, quick=True)


def test_the_sections_are_those_of_the_games_handed_in_their_order_then_the_analysed_games():
    names = section_names(SECTIONS)
    assert names == [s.name for g in GAMES for s in g.report_sections()] + ["analyse"]
    assert section_names(sections(GAMES[-1:])) == [s.name for s in GAMES[-1].report_sections()] + ["analyse"]
    assert section("analyse", SECTIONS) is SECTIONS[-1]
    with pytest.raises(ValueError, match="unknown report section 'nothing'"):
        section("nothing", SECTIONS)


def test_only_a_section_handed_is_written(tmp_path):
    with pytest.raises(ValueError, match="unknown report section"):
        write_reports(tmp_path, sections(GAMES[-1:]), only=["dice"], log=lambda *a, **k: None)


def test_recording_needs_a_study_runner(tmp_path):
    with pytest.raises(ValueError, match="runner"):
        write_reports(tmp_path, SECTIONS, only=["dice"], record=True, log=lambda *a, **k: None)
