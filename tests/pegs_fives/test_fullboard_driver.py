"""The full-board driver: in-memory and on-disk builds, resume after an interruption, the
Dask graph locally and on a ``dask.distributed`` cluster, and clear errors."""

from __future__ import annotations

import json
import shutil
from functools import partial

import numpy as np
import pytest

from dicemath.core.errors import InvalidRulesError
from dicemath.core.table_store import MANIFEST, TableStore
from dicemath.games.pegs_fives.advisor import board_value
from dicemath.games.pegs_fives.fullboard import storage
from dicemath.games.pegs_fives.fullboard.driver import (
    BuildInterrupted, build_table, kernel_for, solve_sequential, solve_table)
from dicemath.games.pegs_fives.fullboard.guides import build_guide, fitted_slab_values
from dicemath.games.pegs_fives.fullboard.layout import BoardLayout
from dicemath.games.pegs_fives.rules import FIVES, PEGS
from dicemath.games.pegs_fives.state import InvalidBoardError

SEVEN = (1, 3, 5, 7, 9, 11, 12)


def sequential(rules, rows, dtype=np.float64, policy="optimal"):
    kernel = kernel_for(rules, rows)
    return solve_sequential(kernel, np.zeros(kernel.layout.size, dtype=dtype), policy=policy)


def stored(directory, rules=FIVES):
    table = storage.open_table(directory, rules)
    try:
        return np.array(table.values)
    finally:
        table.close()


def test_layout_round_trips_and_orders_successors_first():
    layout = BoardLayout(FIVES, (2, 5, 11))
    for index in (0, 17, layout.last):
        assert layout.index(layout.board(index)) == index
    by_total = layout.boards_by_total()
    assert sum(len(b) for b in by_total) == layout.size
    plan = layout.slabs(2)
    for slab in range(plan.count):
        assert all(s > slab for s in plan.successors(slab))
    with pytest.raises(InvalidBoardError, match="only open rows"):
        layout.index([0] * 12)


def test_threaded_slab_graph_equals_the_sequential_sweep_bit_for_bit():
    assert np.array_equal(solve_table(FIVES, SEVEN, workers=2), sequential(FIVES, SEVEN))


@pytest.mark.parametrize("rules,dtype", [(FIVES, "float32"), (FIVES, "float64"), (PEGS, "float32")])
def test_interrupted_build_resumes_to_the_uninterrupted_table(tmp_path, rules, dtype):
    rows = (3, 5, 8, 11)
    whole = build_table(rules, rows, out=tmp_path / "whole", dtype=dtype)
    first = []
    with pytest.raises(BuildInterrupted):
        build_table(rules, rows, out=tmp_path / "parts", dtype=dtype, stop_after=7,
                    on_slab=lambda slabs, s: first.extend(slabs))
    store = TableStore.open(tmp_path / "parts", storage.KIND, complete=False)
    assert sorted(store.done()) == sorted(first) and not store.manifest.complete
    with pytest.raises(storage.TableError, match="unfinished"):
        storage.open_table(tmp_path / "parts")
    resumed = []
    build_table(rules, rows, out=tmp_path / "parts", dtype=dtype, on_slab=lambda slabs, s: resumed.extend(slabs))
    assert sorted(resumed + first) == list(range(store.manifest.chunks))
    assert np.array_equal(stored(whole, rules), stored(tmp_path / "parts", rules))
    assert np.array_equal(stored(whole, rules), sequential(rules, rows, dtype=np.dtype(dtype)))


def test_table_files_and_manifest(tmp_path):
    directory = build_table(FIVES, (6, 7), out=tmp_path / "t")
    manifest = json.loads((directory / MANIFEST).read_text())
    spec = manifest["spec"]
    assert manifest["kind"] == storage.KIND and manifest["complete"] and manifest["chunks"] == 6 ** spec["top"]
    assert spec["rows"] == [6, 7] and spec["dtype"] == "float64" and spec["policy"] == "optimal"
    assert np.load(directory / f"{storage.VALUES}.npy", mmap_mode="r").shape == (36,)
    table = storage.open_table(directory, FIVES)
    assert table.value((5,) * 5 + (0, 0) + (5,) * 5) == pytest.approx(sequential(FIVES, (6, 7))[0], abs=0)
    table.close()


def test_default_location_is_versioned_by_rules_rows_policy_and_code(tmp_path, monkeypatch):
    monkeypatch.setenv("DICEMATH_CACHE_DIR", str(tmp_path))
    directory = build_table(FIVES, (3, 9))
    assert directory.parent == tmp_path / "fullboard"
    assert directory != storage.default_table_dir("fives", FIVES, (3, 9), "greedy")
    assert directory != storage.default_table_dir("fives", FIVES.variant(goal=4), (3, 9))
    assert build_table(FIVES, (3, 9)) == directory            # finished: nothing to do


def test_a_directory_holding_another_table_is_refused(tmp_path):
    build_table(FIVES, (6, 7), out=tmp_path / "t")
    with pytest.raises(storage.TableError, match="another table"):
        build_table(FIVES, (6, 8), out=tmp_path / "t")
    with pytest.raises(InvalidRulesError, match="goal"):
        storage.open_table(tmp_path / "t", FIVES.variant(goal=4))
    with pytest.raises(storage.TableError, match="no table"):
        storage.open_table(tmp_path / "empty")


def test_bad_rows_and_variants_raise_clear_errors(tmp_path):
    with pytest.raises(InvalidBoardError, match="does not exist"):
        build_table(FIVES, (0, 5), out=tmp_path / "t")
    with pytest.raises(InvalidBoardError, match="at least one row"):
        solve_table(FIVES, ())
    with pytest.raises(InvalidRulesError, match="overthrow"):
        solve_table(FIVES.variant(overthrow=True), (1, 2))
    with pytest.raises(ValueError, match="guide"):
        solve_table(FIVES, (1, 2), policy="lookahead")


def test_pegs_kernel_runs_through_the_same_driver(tmp_path):
    from dicemath.games.pegs_fives.solver import solve_reduced

    rows = (3, 8)
    directory = build_table(PEGS, rows, out=tmp_path / "p")
    reference = solve_reduced(PEGS, rows, exact=False)
    table = storage.open_table(directory, PEGS)
    assert max(abs(table.value(b) - v) for b, v in reference.values.items()) < 1e-9
    table.close()


@pytest.mark.slow
def test_dask_cluster_build_equals_the_single_process_table(tmp_path):
    distributed = pytest.importorskip("distributed")
    single = build_table(FIVES, SEVEN, out=tmp_path / "single", workers=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None) as cluster:
        spread = build_table(FIVES, SEVEN, out=tmp_path / "cluster", scheduler=cluster.scheduler_address)
    assert np.array_equal(stored(single), stored(spread))


def test_lookahead_build_on_a_guide_table(tmp_path):
    rows = (2, 6, 9)
    optimal = build_table(FIVES, rows, out=tmp_path / "optimal")
    looked = build_table(FIVES, rows, out=tmp_path / "lookahead", policy="lookahead", guide=optimal)
    assert np.abs(stored(looked) - stored(optimal)).max() < 1e-12        # acting on E is optimal
    build_table(FIVES, (2, 6), out=tmp_path / "other")
    with pytest.raises(storage.TableError, match="covers rows"):
        build_table(FIVES, rows, out=tmp_path / "bad", policy="lookahead", guide=tmp_path / "other")


def test_a_lookahead_build_resumes_on_its_guide_and_not_on_one_rebuilt_from_another_source(tmp_path):
    rows = (2, 6, 9)
    slab_values = partial(fitted_slab_values, board_value(FIVES))
    guide = build_guide(FIVES, rows, tmp_path / "guide", slab_values, name="fitted", digest="first")
    looked = build_table(FIVES, rows, out=tmp_path / "lookahead", policy="lookahead", guide=guide)
    assert build_table(FIVES, rows, out=looked, policy="lookahead", guide=guide) == looked
    shutil.rmtree(guide)
    build_guide(FIVES, rows, guide, slab_values, name="fitted", digest="second")
    with pytest.raises(storage.TableError, match="guide_digest"):
        build_table(FIVES, rows, out=looked, policy="lookahead", guide=guide)


def test_a_float32_guide_is_widened_exactly_and_a_float64_one_refused_for_float32(check_guide_dtypes):
    check_guide_dtypes(FIVES, (4, 9, 12))       # Pegs: in test_pegs_kernel.py, the process that compiles Pegs


def test_a_table_is_keyed_by_its_format_version_and_parameters_not_by_the_sources(tmp_path, monkeypatch):
    monkeypatch.setenv("DICEMATH_CACHE_DIR", str(tmp_path))
    rows = (2, 6)
    key = storage.table_key("fives", FIVES, rows, "optimal")
    others = {storage.table_key("fives", FIVES, (2, 7), "optimal"), storage.table_key("fives", FIVES, rows, "greedy"),
              storage.table_key("pegs", PEGS, rows, "optimal")}
    assert key not in others and len(others) == 3
    spec = storage.table_spec("fives", FIVES, rows, "optimal", "float64", 1)
    read_bytes = storage.Path.read_bytes                   # a docstring edited in every source file
    monkeypatch.setattr(storage.Path, "read_bytes", lambda path: b'"""Edited."""\n' + read_bytes(path))
    assert storage.table_key("fives", FIVES, rows, "optimal") == key
    assert storage.table_spec("fives", FIVES, rows, "optimal", "float64", 1) == spec
    monkeypatch.undo()
    monkeypatch.setenv("DICEMATH_CACHE_DIR", str(tmp_path))
    built = build_table(FIVES, rows)
    assert built == storage.default_table_dir("fives", FIVES, rows) and built.name == key
    monkeypatch.setattr(storage, "FULLBOARD_FORMAT", storage.FULLBOARD_FORMAT + 1)   # the computation changed
    assert storage.table_key("fives", FIVES, rows, "optimal") != key
    with pytest.raises(storage.TableError, match="has format version .*delete the folder and build the table again"):
        storage.open_table(built, FIVES)
    with pytest.raises(storage.TableError, match="differing: format"):
        build_table(FIVES, rows, out=built)
    rebuilt = build_table(FIVES, rows)                     # the default folder moves with the version
    assert rebuilt != built and np.array_equal(stored(rebuilt), sequential(FIVES, rows))
