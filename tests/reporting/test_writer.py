"""The report writer: sections in parallel processes keep the report order, each its own files,
and each progress line says what the section does and how long it is expected to take."""

from __future__ import annotations

from dicemath.reporting import writer
from dicemath.reporting.writer import expected_times, section_names, write_reports


def test_parallel_sections_keep_the_report_order_and_their_files(tmp_path):
    lines = []
    written = write_reports(tmp_path, only=["pig", "dice"], quick=True, jobs=2,
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
    assert set(times) <= set(section_names())
    assert all(t["cold"] >= 0 and (t["warm"] is None or t["warm"] >= 0) for t in times.values())


def test_a_progress_line_quotes_the_measured_time():
    times = {"dice": {"cold": 12.0, "warm": 3.0}}
    assert writer._expected_text("dice", times) == "expected about 12 s with an empty cache, 3 s warm"
    assert "not measured" in writer._expected_text("pig", times)
    assert "recomputing" in writer._expected_text("dice", times, recompute=True)
    assert "quick" in writer._expected_text("dice", times, quick=True)
