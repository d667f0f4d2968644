"""The edges a new user hit (issue 45, item 7), each driven through the command line
(``dicemath.cli.main``) or the object a player reads: bounds refused up front with exit 2 and a
message naming the bound, ``dicemath cache`` telling entries apart and clearing exact names,
first-use notices with size and time, a report that does not depend on the local cache, text
answers labelled exact or estimate, Pitjesbak throws named by their dice, BohnDuell's move
notation explained, and ``str(advice)`` reading well.
"""

from __future__ import annotations

import json

import pytest

from dicemath.cli import main
from dicemath.core.advice import Advice, Option
from dicemath.games.bohnduell.commands import MAX_STOCK
from dicemath.games.bohnduell.limits import MAX_TABLE_STOCK
from dicemath.games.pitjesbak.commands import MAX_STRIPES

PITJESBAK_STATE = ("[0:{a} 1:{b}] round 0 start 0 order 0,1 turn 0 limit 0 throws 1 current 235 results - rolloff - "
                   "winner - | last winner - limit 0 results - | 2 players {s} stripes traditional")
"""A two-player Pitjesbak state's text form: seat 0 with ``a`` stripes, seat 1 with ``b``, ``s`` at the start."""


def _refused(capsys, argv: list[str]) -> str:
    """Run ``argv``, expect exit 2 (as a return or argparse's ``SystemExit``), return stderr."""
    try:
        code = main(argv)
    except SystemExit as stop:
        code = stop.code
    assert code == 2, argv
    return capsys.readouterr().err


# ---------------------------------------------------------------- 1. Pitjesbak's stripes bound

@pytest.mark.parametrize("argv", [
    ["pitjesbak", "game", "--players", "2", "--stripes", "100000"],
    ["pitjesbak", "game", "--players", "3", "--stripes", str(MAX_STRIPES + 1)],
    ["pitjesbak", "round", "--players", "8", "--stripes", "100000"],
    ["pitjesbak", "card", "--stripes", "100000"],
    ["pitjesbak", "simulate", "--stripes", "1000", "--games", "1"],
    ["pitjesbak", "classes", "--stripes", "100000"],
    ["pitjesbak", "show", "start", "--stripes", "100000"],
    ["pitjesbak", "advise", "--stripes", "100000", "--my-stripes", "9", "--their-stripes", "9", "--role",
     "start", "--throw", "6-5-4", "--throws-used", "1"],
])
def test_pitjesbak_starting_stripes_are_bounded_everywhere(capsys, argv):
    err = _refused(capsys, argv)
    assert f"at most {MAX_STRIPES} stripes (MAX_STRIPES), got " in err


@pytest.mark.parametrize("argv, count", [
    (["pitjesbak", "advise", "--stripes-left", "100000,5,5", "--wiped", "1,1,1", "--position", "0",
      "--throw", "6-5-4", "--throws-used", "1"], 100000),
    (["pitjesbak", "advise", "--my-stripes", str(MAX_STRIPES + 1), "--their-stripes", "5", "--their-wiped",
      "--role", "start", "--throw", "6-5-4", "--throws-used", "1"], MAX_STRIPES + 1),
    (["pitjesbak", "advise", PITJESBAK_STATE.format(a=100000, b=100000, s=100000)], 100000),
    (["pitjesbak", "show", PITJESBAK_STATE.format(a=99, b=9, s=9)], 99),
    (["pitjesbak", "card", "--state", "30,1,9,0"], 30),
    (["pitjesbak", "card", "--players", "3", "--stripes-left", "100000,2,2"], 100000),
])
def test_pitjesbak_stripes_left_are_bounded_everywhere(capsys, argv, count):
    err = _refused(capsys, argv)
    assert f"at most {MAX_STRIPES} stripes (MAX_STRIPES), got {count}" in err


def test_pitjesbak_takes_the_bound_itself(capsys):
    state = PITJESBAK_STATE.format(a=MAX_STRIPES, b=MAX_STRIPES, s=MAX_STRIPES)
    assert main(["pitjesbak", "show", state]) == 0
    assert main(["pitjesbak", "classes", "--stripes", str(MAX_STRIPES), "--json"]) == 0
    capsys.readouterr()


# ---------------------------------------------------------------- 2. BohnDuell's stock bound

def test_bohnduell_stock_bound_is_the_tables():
    assert MAX_STOCK == MAX_TABLE_STOCK


@pytest.mark.parametrize("argv", [
    ["bohnduell", "advise", "start", "--stock", "100000000"],
    ["bohnduell", "solve", "--stock", str(MAX_STOCK + 1)],
    ["bohnduell", "show", "start", "--stock", "100000000"],
    ["bohnduell", "table", "build", "--stock", "100000000"],
    ["bohnduell", "proof", "search", "--stock", "100000000"],
])
def test_bohnduell_stock_is_bounded_everywhere(capsys, argv):
    err = _refused(capsys, argv)
    assert f"0..{MAX_STOCK} (MAX_STOCK)" in err


@pytest.mark.parametrize("command", ["advise", "show"])
def test_bohnduell_positions_are_bounded_too(capsys, command):
    beans = MAX_STOCK + 1
    err = _refused(capsys, ["bohnduell", command, f"{beans}:0,0,0,0:0/{beans}:0,0,0,0:0/A"])
    assert f"{beans} beans a player: at most {MAX_STOCK} (MAX_STOCK)" in err
    assert main(["bohnduell", command, f"{MAX_STOCK}:0,0,0,0:0/{MAX_STOCK}:0,0,0,0:0/A"]) == 0


# ---------------------------------------------------------------- 6. every text answer says exact or estimate

@pytest.mark.parametrize("argv", [
    ["pitjesbak", "advise", "--my-stripes", "3", "--their-stripes", "3", "--my-wiped", "--their-wiped",
     "--stripes", "3", "--role", "start", "--throw", "6-5-4", "--throws-used", "1"],
    ["pitjesbak", "advise", "--stripes", "2", "--stripes-left", "2,2,2", "--position", "0", "--throw", "6-5-4",
     "--throws-used", "1"],
    ["pig", "advise", "0:90-50 t5 choose"],
    ["bohnduell", "advise", "start", "--stock", "6"],
    ["pegs", "advise", "--board", "0,0,3,0,0,0,1,0,0,0,0,0", "--roll", "6-5-3-3-3-2"],
    ["fives", "advise", "--board", "3,3,3,3,3,3,3,3,3,3,3,3", "--roll", "6,6,6,6,2,1"],
    ["backgammon", "advise", "4HPwATDgc/ABMA O play 2-1 cube 1"],
])
def test_every_text_answer_says_exact_or_estimate(capsys, argv):
    assert main(argv) == 0
    out = capsys.readouterr().out
    main(argv + ["--json"])
    exact = json.loads(capsys.readouterr().out)["exact"]
    assert ("exact" in out) if exact else ("estimate" in out or "est." in out), out


# ---------------------------------------------------------------- 8. BohnDuell's move notation

def test_bohnduell_notation_is_explained_in_rules_and_advice(capsys):
    assert main(["bohnduell", "rules"]) == 0
    rules = " ".join(capsys.readouterr().out.split())
    assert "`S1`" in rules and "`H2`" in rules and "`Sk` sows k beans" in rules and "`Hd` harvests" in rules
    assert main(["bohnduell", "advise", "1:1,0,0,0:1/0:3,2,0,0:2/A", "--table-stock", "8"]) == 0
    out = capsys.readouterr().out
    assert "H1" in out and "S1" in out
    assert "Sk sows k beans from the stock" in out and "Hd harvests the cup at distance d" in out


# ---------------------------------------------------------------- 9. str(advice)

def test_str_advice_names_the_game_once():
    from dicemath.games.pegs_fives import PEGS, advise_throw

    advice = advise_throw(PEGS, [0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 0, 0], [3, 3, 3, 5, 6, 2])
    assert advice.state.startswith("pegs ")                   # the state's own text names the game
    text = str(advice)
    assert text.startswith("pegs at board 0,0,3,") and "pegs, pegs" not in text and text.count("pegs") == 1
    assert f"best {advice.best.text} (" in text and "estimate" in text
    assert advice.short_state() in advice._repr_markdown_()


@pytest.mark.parametrize("state, shown", [("toy | 3 left", "3 left"), ("toy 3 left", "3 left"),
                                          ("3 left", "3 left"), ("toy", "toy"), ("toyland 3", "toyland 3")])
def test_str_advice_drops_only_a_leading_game_name(state, shown):
    advice = Advice("toy", state, "win probability", True, False, "model", (Option(1, "take 1", 0.5),))
    assert str(advice) == f"toy at {shown}: best take 1 (win probability 0.5, estimate; source: model)"
    assert str(Advice("toy", state, "win probability", True, True, "solve", ())) == f"toy at {shown}: nothing to choose"


# ---------------------------------------------------------------- 3. dicemath cache: exact names, entries told apart

def test_cache_tells_entries_apart_and_clears_exact_names(tmp_path, monkeypatch, capsys):
    import numpy as np

    from dicemath.core.cache import cache_entries, cached_arrays

    monkeypatch.setenv("DICEMATH_CACHE_DIR", str(tmp_path))
    cached_arrays("demo-table", ("rules", 6), lambda: {"a": np.arange(100)}, format_version=2)
    cached_arrays("demo-table", ("rules", 15), lambda: {"a": np.arange(200_000)}, format_version=2)
    cached_arrays("demo-table-other", 1, lambda: {"b": np.arange(10)}, format_version=1)
    assert main(["cache"]) == 0
    listing = capsys.readouterr().out
    same = [e for e in cache_entries() if e.name == "demo-table"]
    assert len(same) == 2
    for entry in same:                                 # each says what it was built for, its format, size and file
        assert f"built for {entry.params}" in listing and entry.path.name in listing
    assert "('rules', 6)" in listing and "('rules', 15)" in listing and "1.6 MB" in listing
    assert main(["cache", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)["entries"]
    assert {(r["name"], r["params"], r["format"]) for r in rows} == {
        ("demo-table", "('rules', 6)", 2), ("demo-table", "('rules', 15)", 2), ("demo-table-other", "1", 1)}

    err = _refused(capsys, ["cache", "clear", "demo"])          # a prefix is no name
    assert "'demo'" in err and "demo-table, demo-table-other" in err
    assert len(cache_entries()) == 3
    err = _refused(capsys, ["cache", "clear", "demo-table", "nothing"])     # one unknown name: nothing removed
    assert "'nothing'" in err and len(cache_entries()) == 3

    small = min(same, key=lambda e: e.bytes)
    assert main(["cache", "clear", small.path.name, "--json"]) == 0            # one entry, by its file
    assert [r["file"] for r in json.loads(capsys.readouterr().out)["removed"]] == [small.path.name]
    assert main(["cache", "clear", "demo-table"]) == 0                         # every entry of a table, exactly
    assert "removed 1 entry" in capsys.readouterr().out
    assert [e.name for e in cache_entries()] == ["demo-table-other"]


# ---------------------------------------------------------------- 4. first-use notices give size and time

def test_a_first_use_notice_gives_size_and_time(tmp_path, monkeypatch, capsys):
    import time

    import numpy as np

    from dicemath.core import cache

    monkeypatch.setenv("DICEMATH_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(cache, "ANNOUNCE_AFTER", 0.0)

    def slow():
        time.sleep(0.3)
        return {"a": np.zeros(250_000)}                        # 2 MB

    cache.cached_arrays("unmeasured-table", 1, slow, format_version=1)
    started, done = capsys.readouterr().err.strip().splitlines()
    assert "'unmeasured-table'" in started and "not measured for these parameters" in started
    seconds = float(done.split(" in ")[1].split(" s, ")[0])
    assert done.startswith("dicemath: built the table 'unmeasured-table' in ") and 0.3 <= seconds < 60
    written = next(tmp_path.glob("unmeasured-table-*")).stat().st_size
    assert done.endswith(f", {cache.size_text(written)} on disk") and " 2.0 MB on disk" in done
    cache.cached_arrays("unmeasured-table", 1, slow, format_version=1)          # from the cache: no notice
    assert capsys.readouterr().err == ""

    monkeypatch.setattr(cache, "_costs", lambda: {"machine": "a test machine (2 cores)", "tables": {
        "measured-table": {"2": {"seconds": 42.0, "bytes": 3e6}}}})
    line, _ = cache.announcement("measured-table", 2)
    assert "about 42 s and 3.0 MB when measured on a test machine (2 cores)" in line


def test_warmup_says_what_each_step_added_to_the_cache(tmp_path, monkeypatch, capsys):
    from dicemath.cli import warmup
    from dicemath.core.cache import cache_entries, size_text

    monkeypatch.setenv("DICEMATH_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(warmup, "steps", lambda: (("pitjesbak-game", "a small game solution",
                                                   ("pitjesbak", "game", "--stripes", "2", "--json")),))
    assert main(["warmup"]) == 0
    out = capsys.readouterr().out
    added = sum(e.bytes for e in cache_entries())
    assert added > 0 and f"s, {size_text(added)} more in the cache" in out


def test_the_readme_says_what_the_main_job_caches():
    from pathlib import Path

    readme = " ".join((Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8").split())
    assert "`dicemath report` leaves about" in readme and "MB in the cache" in readme


# ---------------------------------------------------------------- 5. the report does not depend on the local cache

def test_bearoff_report_lists_recorded_builds_not_the_local_ones(tmp_path, monkeypatch, capsys):
    from dicemath.games.backgammon.game import BACKGAMMON_GAME
    from dicemath.games.backgammon.report_bearoff import (
        compute, database_lines, database_summary, record_databases, recorded_summary)
    from dicemath.reporting.context import ReportContext

    from .conftest import REPO

    recorded = "\n".join(database_lines(*recorded_summary()))
    assert recorded in (REPO / "reports" / "backgammon_bearoff.md").read_text(encoding="utf-8")
    assert "`two-sided-15`" in recorded and "| complete |" in recorded

    root = tmp_path / "bearoff"                        # a machine that built a small database of its own
    monkeypatch.setenv("DICEMATH_BEAROFF_DIR", str(root))
    assert main(["backgammon", "build-bearoff", "--checkers", "2", "--out", str(root), "--json"]) == 0
    capsys.readouterr()
    assert [e["name"] for e in database_summary(root)[0]] == ["two-sided-2"]
    assert "\n".join(database_lines(*recorded_summary())) == recorded
    report = compute(BACKGAMMON_GAME, ReportContext(tmp_path / "out", quick=True))
    assert report.databases == recorded_summary()[0] and "two-sided-2" not in str(report.databases)

    written = record_databases(root, tmp_path / "builds.json")       # how this machine's builds are recorded
    again = "\n".join(database_lines(*recorded_summary(written)))
    assert "`two-sided-2`" in again and "| complete |" in again and str(root) not in written.read_text()


# ---------------------------------------------------------------- 7. Pitjesbak names throws by their dice

def test_pitjesbak_throw_names_are_their_dice():
    from dicemath.core.dice import throw_text
    from dicemath.games.pitjesbak.rules import Rules
    from dicemath.games.pitjesbak.throws import class_rows, classify

    assert classify((1, 2, 6)).name == "6-2-1 (162)" and classify((1, 2, 6)).label == "score 162"
    for die_values in ("traditional", "pips"):
        for row in class_rows(Rules(die_values=die_values)):                 # every throw of a class is named
            name = row.throw_class.name
            assert all(throw_text(t) in name or throw_text(t)[::-1] in name for t in row.throws), name
            assert "score" not in name
            assert row.throw_class == classify(row.throws[0], Rules(die_values=die_values))


@pytest.mark.parametrize("argv", [
    ["pitjesbak", "card", "--stripes", "3"],
    ["pitjesbak", "card", "--players", "3", "--stripes", "1"],
    ["pitjesbak", "round", "--players", "3"],
])
def test_pitjesbak_cards_name_throws_by_their_dice(capsys, argv):
    import re

    assert main(argv) == 0
    out = capsys.readouterr().out
    assert "score" not in out and re.search(r"\d-\d-\d(/\d-\d-\d)* \(\d+\) or better", out), out
    assert argv[1] != "card" or "exact" in out.splitlines()[0]            # a card's numbers are labelled too


def test_pitjesbak_threshold_plot_names_throws_by_their_dice():
    import matplotlib

    matplotlib.use("Agg")
    from dicemath.games.pitjesbak.report import TableRow, thresholds_figure

    rows = (TableRow(2, True, (0.51, 0.49), (("score 68", "score 105"), ("score 65", "score 65"))),)
    figure = thresholds_figure(rows)
    ticks = [t.get_text() for t in figure.axes[0].get_yticklabels()]
    assert ticks == ["6-3-2 (65)", "6-5-3/6-4-4 (68)", "3-2-1 (105)"]
    assert "6-2-2 (64)" in figure._suptitle.get_text()
