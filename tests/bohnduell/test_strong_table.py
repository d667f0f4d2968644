"""Strong tables on disk: bit for bit the in-memory solve, resumable, refused when stale, and
answering the chain exactly; the shipped solved starts against a fresh solve."""

from __future__ import annotations

import json

import numpy as np
import pytest

from dicemath.cli import main
from dicemath.core.errors import InvalidStateError
from dicemath.core.table_store import TableError, TableStore
from dicemath.games.bohnduell import Rules, State, initial_state
from dicemath.games.bohnduell.game import BOHNDUELL_GAME
from dicemath.games.bohnduell.limits import MAX_TABLE_STOCK
from dicemath.games.bohnduell.search import solved_starts
from dicemath.games.bohnduell.solver_dense import SideIndex, solve_dense
from dicemath.games.bohnduell.solver_dict import DictSolver
from dicemath.games.bohnduell.state import side_moves
from dicemath.games.bohnduell.strong_table import (
    KIND, STRONG_FORMAT, build_strong, building_here, default_folder, open_strong, phi_parts, strong_spec,
    strong_tables)


@pytest.mark.parametrize("rules,sides,parts", [
    (Rules(stock=9), "reachable", 3), (Rules(stock=8, capture="every"), "reachable", 2),
    (Rules(cups=3, stock=5), "all", 5)])
def test_strong_table_equals_the_in_memory_solve(tmp_path, rules, sides, parts):
    built = build_strong(rules, tmp_path / "t", sides=sides, workers=2, parts=parts, announce=False)
    assert built.complete and built.chunks == built.chunks_total
    table = open_strong(tmp_path / "t")
    assert np.array_equal(np.asarray(table.values), solve_dense(rules, sides).values)


def test_the_layout_is_a_permutation_and_decodes():
    index = SideIndex.build(4, 5)
    n = index.size
    positions = np.array([index.position(a, b) for a in range(n) for b in range(n)])
    assert np.array_equal(np.sort(positions), np.arange(n * n))
    movers, others = index.decode(positions)
    assert np.array_equal(movers, np.repeat(np.arange(n), n)) and np.array_equal(others, np.tile(np.arange(n), n))
    # each potential is one range, and its parts tile it
    for phi in range(2 * index.kmax + 1):
        first, last = index.potential_ranks(phi)
        inside = positions.reshape(n, n)[:, first:last]
        potentials = index.potentials[:, None] + index.potentials[None, first:last]
        assert np.all((inside >= index.phi_starts[phi]) == (potentials >= phi))
        parts = phi_parts(index, phi, 3)
        assert parts[0][2] == index.phi_starts[phi] and parts[-1][3] == index.phi_starts[phi + 1]
        assert all(a[3] == b[2] and a[1] == b[0] for a, b in zip(parts, parts[1:]))


def test_an_interrupted_build_resumes(tmp_path):
    rules = Rules(stock=8)
    first = build_strong(rules, tmp_path, max_chunks=30, announce=False)
    assert not first.complete and first.chunks == 30
    with pytest.raises(TableError, match="unfinished"):
        open_strong(tmp_path)
    second = build_strong(rules, tmp_path, workers=1, max_chunks=11, announce=False)
    assert second.chunks == 11 and len(TableStore.open(tmp_path, KIND, complete=False).done()) == 41
    last = build_strong(rules, tmp_path, announce=False)
    assert last.complete and last.chunks == last.chunks_total - 41
    assert np.array_equal(np.asarray(open_strong(tmp_path).values), solve_dense(rules).values)


def test_a_table_of_another_format_version_layout_or_rules_is_refused(tmp_path):
    build_strong(Rules(stock=4), tmp_path, announce=False)
    with pytest.raises(TableError, match="another table"):
        build_strong(Rules(stock=5), tmp_path, announce=False)
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    for spec, refusal in [({**manifest["spec"], "format": STRONG_FORMAT + 1}, "has format version"),
                          ({k: v for k, v in manifest["spec"].items() if k != "format"}, "has no format version"),
                          ({**strong_spec(Rules(stock=4)), "layout": "another"}, "built with another spec")]:
        (tmp_path / "manifest.json").write_text(json.dumps({**manifest, "spec": spec}))
        with pytest.raises(TableError, match=refusal):
            open_strong(tmp_path)
        with pytest.raises(TableError, match="another table"):
            build_strong(Rules(stock=4), tmp_path, announce=False)
    with pytest.raises(InvalidStateError, match="int8"):
        build_strong(Rules(stock=64), tmp_path / "big", announce=False)


def test_the_chain_answers_from_a_strong_table_in_the_cache(tmp_path, monkeypatch):
    monkeypatch.setenv("DICEMATH_CACHE_DIR", str(tmp_path))
    rules = Rules(stock=40)
    position = State.from_str("2:0,1,2,2:34/2:0,0,2,3:32/A", rules)    # 7 beans a side, outside a 6-bean table
    before = BOHNDUELL_GAME.advise(position, depth=1, table_stock=6, proof_seconds=0)
    assert before.source == "solve" or not before.exact
    build_strong(Rules(stock=7), default_folder(Rules(stock=7)), announce=False)
    assert [e.stock for e in strong_tables() if e.complete and e.current] == [7]
    after = BOHNDUELL_GAME.advise(position, depth=1, table_stock=6)
    assert after.exact and after.source == "strong table" and after.extras["table_stock"] == 7
    exact = DictSolver(rules).move_values(position)
    assert {o.action: o.value for o in after.options} == exact


def test_the_shipped_starts_equal_a_fresh_solve():
    starts = solved_starts()["starts"]
    for capture, stock in (("last", 14), ("every", 13)):
        row = starts[f"cups4-{capture}"][str(stock)]
        table = solve_dense(Rules(stock=stock, capture=capture))
        start = initial_state(table.rules_for(stock))
        assert row["first_moves"] == {str(m): v for m, v in table.move_values(start).items()}
        assert row["value"] == table.position_value(start)


def test_the_chain_answers_a_solved_start_exactly_and_searches_beyond():
    starts = solved_starts()["starts"]["cups4-last"]
    stock = max(int(s) for s in starts)
    advice = BOHNDUELL_GAME.advise(initial_state(Rules(stock=stock)), depth=1, table_stock=6)
    assert advice.exact and advice.source == "solved start"
    assert {o.text: o.value for o in advice.options} == starts[str(stock)]["first_moves"]
    assert advice.best.value == starts[str(stock)]["value"]
    after = initial_state(Rules(stock=stock)).apply("S1")
    assert not BOHNDUELL_GAME.advise(after, depth=1, table_stock=6, proof_seconds=0).exact   # only the start is shipped


def test_table_commands(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DICEMATH_CACHE_DIR", str(tmp_path))
    assert main(["bohnduell", "table", "list"]) == 0
    assert "no strong tables" in capsys.readouterr().out
    assert main(["bohnduell", "table", "build", "--stock", "6", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    expected = solve_dense(Rules(stock=6))
    start = initial_state(Rules(stock=6))
    assert result["complete"] and result["positions"] == expected.positions
    assert result["value"] == expected.position_value(start)
    assert result["first_moves"] == {str(m): v for m, v in expected.move_values(start).items()}
    assert main(["bohnduell", "table", "list", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["tables"]
    assert [(t["stock"], t["complete"], t["current"]) for t in listed] == [(6, True, True)]
    with pytest.raises(SystemExit) as refused:
        main(["bohnduell", "table", "build", "--stock", "6", "--workers", "0"])
    assert refused.value.code == 2
    with pytest.raises(SystemExit) as refused:                # the bound of --stock, checked as it is read
        main(["bohnduell", "table", "build", "--stock", "64"])
    assert refused.value.code == 2
    assert f"0..{MAX_TABLE_STOCK}" in capsys.readouterr().err


def test_a_table_too_big_for_memory_is_refused_naming_the_build():
    with pytest.raises(InvalidStateError, match="table build --stock 30"):
        solve_dense(Rules(stock=30))


def test_a_cluster_of_processes_builds_the_same_table(tmp_path):
    """Two worker processes of a ``dask.distributed`` local cluster, sharing the folder, write
    the table bit for bit as one process does in memory; both workers solve parts of it."""
    distributed = pytest.importorskip("distributed")
    rules = Rules(stock=9)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            built = build_strong(rules, tmp_path, scheduler=client, announce=False)   # parts: the cluster's threads
            workers = client.run(building_here)
    assert np.array_equal(np.asarray(open_strong(tmp_path).values), solve_dense(rules).values)
    assert sorted(workers.values()) == [[str(tmp_path)], [str(tmp_path)]]
    parts = TableStore.open(tmp_path, KIND).manifest.runs[-1]["parts"]
    assert built.complete and parts == 2


def test_remote_reads_count_what_a_shared_nothing_cluster_moves():
    """One machine reads nothing remotely; on several, the reads are those of the in-memory
    solve (every successor of every position with a move), and the distinct values fetched
    are at most the table."""
    from dicemath.games.bohnduell.strong_cost import remote_reads

    alone = remote_reads(Rules(stock=7), 1)
    assert alone["remote_reads"] == alone["distinct_remote"] == 0
    index = SideIndex.build(4, 7)
    reads = sum(len(side_moves(tuple(side))) for side in index.sides.tolist()) * index.size
    for machines in (2, 3):
        counted = remote_reads(Rules(stock=7), machines)
        assert counted["reads"] == alone["reads"] == reads
        assert 0 < counted["distinct_remote"] <= counted["remote_reads"] <= counted["reads"]
        assert counted["distinct_remote"] <= counted["positions"]
