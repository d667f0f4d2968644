"""The complete two-sided bear-off database checked against independent methods.

* the float64 DP of :func:`~.bearoff.two_sided_table` (6x6 and 6x8 slices);
* one roll of expectimax with the rules engine's own legal moves (:mod:`.moves`, not the
  move table the build uses) into the database, on random pairs of 9.. checkers a side;
* exact Fractions for the gammon races (with "all checkers" = 3, so the recursion is
  small) and for the first chunks of the real 15-checker build (win and gammon tables);
* the same build on two Dask worker processes, and an interrupted build resumed;
* a folder of the format before the table store refused;
* GNU Backgammon's ``makebearoff -t 6x8`` (in ``test_gnubg.py``).
"""

from __future__ import annotations

import os
import random
import shutil
from fractions import Fraction
from functools import lru_cache

import numpy as np
import pytest

from dicemath.core.errors import InvalidStateError
from dicemath.core.table_store import TableError, TableStore
from dicemath.games.backgammon import bearoff as bo
from dicemath.games.backgammon import bearoff_database as db
from dicemath.games.backgammon.cube import CubelessProbabilities
from dicemath.games.backgammon.moves import legal_moves
from dicemath.games.backgammon.position import Position
from dicemath.games.backgammon.rules import STANDARD

from .test_bearoff import ROLLS, exact_win, reference_successors


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    """A folder with the finished 9-checker database (25 million pairs, a few seconds)."""
    folder = tmp_path_factory.mktemp("bearoff")
    db.build_database(9, folder, show_progress=False)
    return folder


def win_matrix(database, checkers: int) -> np.ndarray:
    """P[x, y] (dense indices, boards of at most ``checkers``) read from a database."""
    count = bo.positions_count(checkers)
    rank = db._axes(database.checkers, database.full)[0].rank[:count]
    return np.asarray(database.tables[db.WIN])[np.ix_(rank, rank)].T / db.SCALE


@pytest.mark.parametrize("checkers", [6, 8])
def test_slices_match_the_float64_tables(root, checkers):
    """The 6x6 and 6x8 slices agree with the float64 DP within the stated bound (2.1e-8);
    measured 3.6e-10: not bit for bit, as each side rounds differently."""
    database = db.open_database(9, root)
    difference = np.abs(win_matrix(database, checkers) - bo.two_sided_table(STANDARD, checkers))
    assert difference.max() <= db.ERROR_BOUND
    assert difference.max() < 1e-9


def expectimax(database, board, versus) -> float:
    """One roll of the player on roll, plays from the rules engine, then the database."""
    position = Position.from_home_boards(board, versus)
    total = 0.0
    for high, low, weight in ROLLS:
        best = 0.0
        for move in legal_moves(STANDARD, position, (high, low)):
            after = move.after.on_roll[:6]
            value = 1.0 if sum(after) == 0 else 1.0 - database.win_probability(versus, after)
            best = max(best, value)
        total += float(weight) * best
    return total


def random_board(rng: random.Random, checkers: int) -> tuple[int, ...]:
    cuts = sorted(rng.randint(0, checkers) for _ in range(5))
    counts = [b - a for a, b in zip([0] + cuts, cuts + [checkers])]
    return tuple(counts)


def check_random_pairs(database, pairs: int, seed: int, smallest: int = 9) -> None:
    rng = random.Random(seed)
    for _ in range(pairs):
        board = random_board(rng, rng.randint(smallest, database.checkers))
        versus = random_board(rng, rng.randint(smallest, database.checkers))
        stored = database.win_probability(board, versus)
        assert abs(stored - expectimax(database, board, versus)) <= 2 * db.ERROR_BOUND, (board, versus)


def test_random_pairs_satisfy_the_recursion_with_engine_moves(root):
    check_random_pairs(db.open_database(9, root), 60, seed=1)


@pytest.mark.slow
def test_ten_thousand_random_pairs_of_up_to_eleven_checkers(tmp_path):
    """10,000 pairs of 9..11 checkers a side (about 6 minutes); with a larger database
    under ``$DICEMATH_BEAROFF_DIR`` the next test samples 9..N."""
    db.build_database(11, tmp_path, show_progress=False)
    check_random_pairs(db.open_database(11, tmp_path), 10_000, seed=2)


@pytest.mark.slow
def test_ten_thousand_random_pairs_of_the_largest_database():
    database = db.largest_database()
    if database is None or database.checkers < 12:
        pytest.skip("no database of 12 or more checkers under $DICEMATH_BEAROFF_DIR")
    check_random_pairs(database, 10_000, seed=3)


def test_prefix_and_lookups(root):
    """The 9-checker table answers smaller queries exactly as the 4-checker one; lookups
    check their boards; ``exact_probabilities`` names the table."""
    small = root / "small"
    db.build_database(4, small, show_progress=False)
    nine, four = db.open_database(9, root), db.open_database(4, small)
    assert np.array_equal(win_matrix(nine, 4), win_matrix(four, 4))
    result = db.exact_probabilities((0, 0, 3, 3, 2, 1), (1, 1, 1, 2, 2, 2), root)
    assert result["table"] == "two-sided-9" and result["exact"]
    assert result["win_probability"] == nine.win_probability((0, 0, 3, 3, 2, 1), (1, 1, 1, 2, 2, 2))
    assert db.exact_probabilities((0, 0, 0, 0, 0, 1), (1, 0, 0, 0, 0, 0), root / "none")["table"] == \
        "in-memory two-sided-1"
    with pytest.raises(InvalidStateError):
        four.win_probability((0, 0, 0, 0, 0, 5), (1, 0, 0, 0, 0, 0))
    with pytest.raises(InvalidStateError):
        db.exact_probabilities((0, 0, 0, 0, 0, 10), (1, 0, 0, 0, 0, 0), root)
    with pytest.raises(InvalidStateError):
        db.open_database(7, root)
    with pytest.raises(InvalidStateError):
        db.build_database(16, root)
    assert [entry["checkers"] for entry in db.available_databases(root)] == [9]


def _resident_bytes() -> int:
    with open("/proc/self/statm") as stream:
        return int(stream.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_queries_read_the_memory_map_without_loading_the_table(root):
    """200 queries of the 100 MB table map at most a few pages each (Linux maps up to 64 KiB
    around a faulting page), never the table."""
    database = db.open_database(9, root)
    assert isinstance(database.tables[db.WIN], np.memmap)
    size = database.tables[db.WIN].nbytes
    rng = random.Random(5)
    database.win_probability((0, 0, 0, 0, 0, 9), (9, 0, 0, 0, 0, 0))
    before = _resident_bytes()
    for _ in range(200):
        database.win_probability(random_board(rng, 9), random_board(rng, 9))
    assert _resident_bytes() - before < 200 * 65536 + 4_000_000 < size / 4


# ----------------------------------------------------------------------------------------
# Gammon races, against exact Fractions with "all checkers" = 3
# ----------------------------------------------------------------------------------------

FULL = 3


@lru_cache(maxsize=None)
def finish_first(x, y, full=FULL) -> Fraction:
    """P(x, on roll, bears off everything before y, with all ``full`` checkers, bears off one)."""
    if sum(x) == 0:
        return Fraction(1)
    return sum((p * max(Fraction(1) if sum(n) == 0 else 1 - save(y, n, full) for n in reference_successors(x, (h, low)))
                for h, low, p in ROLLS), Fraction(0))


@lru_cache(maxsize=None)
def save(y, x, full=FULL) -> Fraction:
    """P(y, all ``full`` checkers, on roll, bears off one before x bears off everything)."""
    if sum(x) == 0:
        return Fraction(0)
    return sum((p * max(Fraction(1) if sum(n) < full else 1 - finish_first(x, n, full)
                        for n in reference_successors(y, (h, low)))
                for h, low, p in ROLLS), Fraction(0))


def test_gammon_races_match_fractions(tmp_path):
    db.build_database(FULL, tmp_path, show_progress=False, full=FULL)
    database = db.open_database(FULL, tmp_path)
    assert database.has_gammons
    boards = [tuple(int(c) for c in b) for b in bo.positions_up_to(FULL)]
    fulls = [b for b in boards if sum(b) == FULL]
    equal_pairs = []
    for x in [b for b in boards[1:] if bo.pip_counts(np.array([b]))[0] <= 6]:
        for y in fulls:
            probabilities = database.gammon_probabilities(x, y)
            assert probabilities["win_gammon"] == pytest.approx(float(finish_first(x, y)), abs=db.ERROR_BOUND)
            assert probabilities["win_gammon"] <= database.win_probability(x, y) + db.ERROR_BOUND
            lose = database.gammon_probabilities(y, x)["lose_gammon"]
            assert lose == pytest.approx(float(1 - save(y, x)), abs=db.ERROR_BOUND)
            assert lose <= 1 - database.win_probability(y, x) + db.ERROR_BOUND
            if database.win_probability(x, y) == probabilities["win_gammon"]:
                equal_pairs.append((x, y))
    assert equal_pairs  # e.g. one checker vs three on the 1-point: every win is a gammon
    for x, y in equal_pairs[:100]:
        for on_roll, other in ((x, y), (y, x)):  # valid cube-model inputs, rounding and all
            chances = db.exact_probabilities(on_roll, other, tmp_path)
            CubelessProbabilities(chances["win_probability"], chances["win_gammon"],
                                  lose_gammon=chances["lose_gammon"])


def test_first_chunks_of_the_fifteen_checker_build_match_fractions(tmp_path):
    """The real 15-checker build (win and both gammon tables), its first 27 chunks (pairs of
    at most 26 pips in all; the files are sparse), against exact Fractions of the game for
    boards of 1..3 checkers against boards of all 15."""
    last = max(chunk.index for chunk in db.chunk_plan(15) if chunk.diagonal <= 26)
    db.build_database(15, tmp_path, show_progress=False, max_chunks=last + 1)
    store = TableStore.open(db.table_folder(15, tmp_path), db.KIND, complete=False)
    boards, fulls = db._axes(15, 15)
    tables = {name: store.array(name) for name in db.TABLES}

    def stored(name, on_roll, other):
        rows = fulls if name == db.GAMMON_FINISH else boards
        cols = fulls if name == db.GAMMON_SAVE else boards
        return tables[name][rows.rank[bo.position_index(other)], cols.rank[bo.position_index(on_roll)]] / db.SCALE

    small = [tuple(int(c) for c in b) for b in bo.positions_up_to(3)[1:] if bo.pip_counts(b[None])[0] <= 6]
    full = [tuple(int(c) for c in bo.position_from_index(int(i))) for i in fulls.boards[:8]]
    assert max(bo.pip_counts(np.array(full))) <= 20
    for x in small:
        for y in full:
            assert stored(db.WIN, x, y) == pytest.approx(float(exact_win(x, y)), abs=db.ERROR_BOUND)
            assert stored(db.WIN, y, x) == pytest.approx(float(exact_win(y, x)), abs=db.ERROR_BOUND)
            assert stored(db.GAMMON_FINISH, x, y) == pytest.approx(float(finish_first(x, y, 15)), abs=db.ERROR_BOUND)
            assert stored(db.GAMMON_SAVE, y, x) == pytest.approx(float(save(y, x, 15)), abs=db.ERROR_BOUND)


# ----------------------------------------------------------------------------------------
# Dask and resuming
# ----------------------------------------------------------------------------------------

def _files(folder) -> dict[str, bytes]:
    return {name: (folder / f"{name}.npy").read_bytes() for name in ("win",)}


def test_interrupted_build_resumed_equals_uninterrupted(tmp_path):
    """Stop a 6x7 build after 30 chunks, scribble over everything not yet done, resume."""
    whole = db.build_database(7, tmp_path / "whole", show_progress=False, chunk_pairs=100_000,
                              scheduler="synchronous")
    first = db.build_database(7, tmp_path / "parts", show_progress=False, chunk_pairs=100_000, max_chunks=30)
    assert not first.complete and first.chunks_run == 30
    with pytest.raises(InvalidStateError):
        db.open_database(7, tmp_path / "parts")
    store = TableStore.open(first.folder, db.KIND, complete=False)
    done = store.done()
    assert sorted(done) == [chunk.index for chunk in db.chunk_plan(7, 100_000)[:30]]
    axis = db._axes(7, db.MAX_CHECKERS)[0]
    table = store.array("win", writable=True)
    for chunk in db.chunk_plan(7, 100_000):
        if chunk.index not in done:
            for _, on_roll_pips, other_pips in chunk.blocks:
                table[axis.starts[other_pips]:axis.starts[other_pips + 1],
                      axis.starts[on_roll_pips]:axis.starts[on_roll_pips + 1]] = 12345
    table.flush()
    del table
    second = db.build_database(7, tmp_path / "parts", show_progress=False)   # the first run fixed chunk_pairs
    assert second.complete and second.chunks_run == whole.chunks_total - 30
    assert _files(whole.folder) == _files(second.folder)
    runs = db.open_database(7, tmp_path / "parts").manifest.runs
    assert [run["chunks"] for run in runs] == [30, whole.chunks_total - 30]
    assert all(run["peak_memory"] for run in runs)
    shutil.rmtree(second.folder)  # built again in the same process: fresh files, fresh maps
    db.build_database(7, tmp_path / "parts", show_progress=False, chunk_pairs=100_000)
    assert _files(whole.folder) == _files(second.folder)


def test_folders_of_another_table_or_the_old_format_are_refused(tmp_path):
    """A folder holding another table is not resumed; one written before the table store
    (``meta.json``, no manifest) is neither read nor resumed: the message says to rebuild."""
    built = db.build_database(2, tmp_path, show_progress=False)
    with pytest.raises(TableError, match="another table"):
        db.build_database(2, tmp_path, show_progress=False, full=2)
    old = db.table_folder(3, tmp_path)
    shutil.copytree(built.folder, old)
    (old / "manifest.json").rename(old / "meta.json")
    for call in (lambda: db.build_database(3, tmp_path, show_progress=False), lambda: db.largest_database(tmp_path),
                 lambda: db.available_databases(tmp_path),
                 lambda: db.exact_probabilities((0, 0, 0, 0, 0, 1), (0, 0, 0, 0, 0, 1), tmp_path)):
        with pytest.raises(TableError, match="older dicemath.*build it again"):
            call()
    with pytest.raises(InvalidStateError, match="older dicemath"):
        db.open_database(3, tmp_path)
    assert not (old / "manifest.json").exists()
    shutil.rmtree(old)
    assert db.largest_database(tmp_path).name == "two-sided-2"


def test_a_database_of_another_format_version_is_refused(tmp_path, monkeypatch):
    db.build_database(2, tmp_path, show_progress=False)
    assert db.open_database(2, tmp_path).manifest.spec["format"] == db.DATABASE_FORMAT
    monkeypatch.setattr(db, "DATABASE_FORMAT", db.DATABASE_FORMAT + 1)       # the computation changed
    with pytest.raises(InvalidStateError, match="has format version .*build the table again"):
        db.open_database(2, tmp_path)
    with pytest.raises(TableError, match="has format version"):
        db.largest_database(tmp_path)
    with pytest.raises(TableError, match="differing: format"):
        db.build_database(2, tmp_path, show_progress=False)


@pytest.mark.slow
def test_killed_build_resumed_equals_uninterrupted(tmp_path):
    """A 6x8 build in another process, killed (SIGKILL) mid-way, then resumed here (the
    killed worker writes its markers after every chunk, so the kill lands mid-build)."""
    import signal
    import subprocess
    import sys
    import time

    script = ("from dicemath.games.backgammon import bearoff_database as db\n"
              f"db.build_database(8, {str(tmp_path / 'killed')!r}, show_progress=False, chunk_pairs=100_000)\n")
    process = subprocess.Popen([sys.executable, "-c", script],
                               env={**os.environ, "DICEMATH_BEAROFF_FLUSH_SECONDS": "0"})
    done = tmp_path / "killed" / "two-sided-8" / "done"
    while process.poll() is None and (not done.exists() or len(list(done.iterdir())) < 60):
        time.sleep(0.05)
    process.send_signal(signal.SIGKILL)
    process.wait()
    finished = len(list(done.iterdir()))
    resumed = db.build_database(8, tmp_path / "killed", show_progress=False)
    whole = db.build_database(8, tmp_path / "whole", show_progress=False, chunk_pairs=100_000)
    assert 60 <= finished < whole.chunks_total and resumed.chunks_run == whole.chunks_total - finished
    assert _files(whole.folder) == _files(resumed.folder)


@pytest.mark.slow
def test_local_cluster_build_equals_single_process_build(tmp_path):
    """6x8 through a dask.distributed LocalCluster of two worker processes, bit for bit."""
    distributed = pytest.importorskip("distributed")
    single = db.build_database(8, tmp_path / "single", show_progress=False, chunk_pairs=300_000,
                               scheduler="synchronous")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        clustered = db.build_database(8, tmp_path / "cluster", show_progress=False, chunk_pairs=300_000,
                                      scheduler=cluster.scheduler_address)
    assert clustered.complete and clustered.chunks_run == single.chunks_total > 100
    assert _files(single.folder) == _files(clustered.folder)


# ----------------------------------------------------------------------------------------
# Command line, cube code, imports
# ----------------------------------------------------------------------------------------

def test_cli_answers_from_the_largest_database(root, capsys, monkeypatch, tmp_path):
    import json

    from dicemath.cli import main

    monkeypatch.setenv("DICEMATH_BEAROFF_DIR", str(root))
    assert main(["backgammon", "bearoff", "0,0,3,3,2,1", "--versus", "1,1,1,2,2,2", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["table"] == "two-sided-9" and result["exact"] is True
    assert result["win_probability"] == db.open_database(9, root).win_probability((0, 0, 3, 3, 2, 1),
                                                                                  (1, 1, 1, 2, 2, 2))
    assert main(["backgammon", "bearoff", "0,0,3,3,3,1", "--versus", "1,1,1,2,2,2"]) == 2  # 10 checkers
    assert "build-bearoff --checkers 10" in capsys.readouterr().err
    assert main(["backgammon", "cube", "0,0,3,3,2,1", "--versus", "1,1,1,2,2,2", "--json"]) == 0
    cube = json.loads(capsys.readouterr().out)
    assert cube["exact"] is False and cube["table"] == "two-sided-9"
    assert cube["win_probability"] == result["win_probability"]
    assert main(["backgammon", "build-bearoff", "--checkers", "2", "--out", str(tmp_path), "--json"]) == 0
    built = json.loads(capsys.readouterr().out)
    assert built["complete"] and built["table"] == "two-sided-2"


def test_report_lists_the_databases(root, tmp_path):
    from dicemath.games.backgammon.report_bearoff import database_lines, database_summary

    text = "\n".join(database_lines(*database_summary(root)))
    assert "`two-sided-9`" in text and "| complete |" in text and "25,050,025" in text
    assert "Scaling (estimate)" in text
    assert "No database" in "\n".join(database_lines(*database_summary(tmp_path)))


def test_race_bear_off_uses_the_database(root, monkeypatch):
    from dicemath.games.backgammon.race import bear_off_win_probability

    monkeypatch.setenv("DICEMATH_BEAROFF_DIR", str(root))
    board, versus = (0, 0, 3, 3, 2, 1), (1, 1, 1, 2, 2, 2)
    probability, method = bear_off_win_probability(STANDARD, Position.from_home_boards(board, versus), exact_up_to=6)
    assert method == "exact" and probability == db.open_database(9, root).win_probability(board, versus)


def test_backgammon_modules_do_not_import_numba():
    """No backgammon module imports numba (its kernels are C), nor Dask when it is
    imported, even when the kernels run. (``import dicemath`` may load Dask for another
    game, so the check is on who asks for it.)"""
    import subprocess
    import sys

    script = ("import builtins, sys\n"
              "real = builtins.__import__\n"
              "def spy(name, globals=None, *args, **kwargs):\n"
              "    importer = (globals or {}).get('__name__') or ''\n"
              "    if name.split('.')[0] in ('numba', 'dask', 'distributed') and \\\n"
              "            importer.startswith('dicemath.games.backgammon'):\n"
              "        print(importer, 'imports', name)\n"
              "        sys.exit(1)\n"
              "    return real(name, globals, *args, **kwargs)\n"
              "builtins.__import__ = spy\n"
              "import dicemath.games.backgammon, dicemath.games.backgammon.commands\n"
              "import dicemath.games.backgammon.bearoff_database, dicemath.games.backgammon.report_bearoff\n"
              "from dicemath.games.backgammon import STANDARD, Position, legal_moves, cube, cubeful_bearoff\n"
              "legal_moves(STANDARD, Position.initial(), (3, 1))\n"
              "cube.cube_action([0.3, 0.8], [0.5, 1.2])\n"
              "cubeful_bearoff.build_cubeful_arrays(2)\n")
    completed = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert completed.returncode == 0, completed.stdout + completed.stderr
