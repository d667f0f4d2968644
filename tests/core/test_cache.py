"""The on-disk table cache: built once, reused, keyed by parameters."""

import numpy as np

from dicemath.core import cache


def test_arrays_are_built_once_and_reused(tmp_path, monkeypatch):
    monkeypatch.setenv("DICEMATH_CACHE_DIR", str(tmp_path))
    calls = []

    def build():
        calls.append(1)
        return {"table": np.arange(5.0)}

    first = cache.cached_arrays("demo", ("rules", 1), build)
    second = cache.cached_arrays("demo", ("rules", 1), build)
    other = cache.cached_arrays("demo", ("rules", 2), build)
    assert len(calls) == 2
    np.testing.assert_array_equal(first["table"], second["table"])
    np.testing.assert_array_equal(other["table"], first["table"])
    assert not list(tmp_path.glob("*.tmp"))


def test_objects_and_opt_out(tmp_path, monkeypatch):
    monkeypatch.setenv("DICEMATH_CACHE_DIR", str(tmp_path))
    assert cache.cached_object("obj", 1, lambda: {"a": 1}) == {"a": 1}
    assert cache.cached_object("obj", 1, lambda: {"a": 2}) == {"a": 1}
    assert cache.cached_object("obj", 1, lambda: {"a": 3}, use_cache=False) == {"a": 3}


def test_key_depends_on_parameters_and_code_version(monkeypatch):
    assert cache.cache_key("x", 1) != cache.cache_key("x", 2)
    monkeypatch.setattr(cache, "code_version", lambda module=None: "0.1.0+aaaa")
    before = cache.cache_key("x", 1)
    monkeypatch.setattr(cache, "code_version", lambda module=None: "0.1.0+bbbb")
    assert cache.cache_key("x", 1) != before


def test_game_tables_depend_on_core_and_their_own_package_only():
    pegs = cache.code_version("dicemath.games.pegs_fives.advisor")
    assert pegs == cache.code_version("dicemath.games.pegs_fives.rows")
    assert pegs != cache.code_version("dicemath.games.pitjesbak.game_solver")
    assert cache.code_version(None) == cache.code_version("tests.something")


def test_the_cache_lists_and_clears_what_it_holds(tmp_path, monkeypatch, capsys):
    import json as json_module

    from dicemath.cli import main
    from dicemath.core.cache import cache_entries, cached_arrays, clear_cache
    from dicemath.core.table_store import TableStore

    monkeypatch.setenv("DICEMATH_CACHE_DIR", str(tmp_path))
    cached_arrays("demo-table", (1, 2), lambda: {"a": np.arange(1000)})
    cached_arrays("other-table", 3, lambda: {"b": np.arange(10)})
    folder = tmp_path / "fullboard" / "fives-rows3-9-optimal-x"
    store = TableStore.create(folder, "fullboard", {"rows": [3, 9]}, {"values": ("float64", (1024,))}, 1)
    store.array("values", writable=True)[:] = 1.0            # written: not sparse on disk
    store.mark_done(0, 2.0)
    store.record_run(3.5, 1)
    entries = {e.name: e for e in cache_entries()}
    assert set(entries) == {"demo-table", "other-table", "fives-rows3-9-optimal-x"}
    assert entries["demo-table"].params == "(1, 2)" and entries["demo-table"].bytes > 8000
    assert entries["fives-rows3-9-optimal-x"].seconds == 3.5 and entries["fives-rows3-9-optimal-x"].bytes > 4096
    assert main(["cache", "list", "--json"]) == 0
    listed = json_module.loads(capsys.readouterr().out)
    assert listed["bytes"] == sum(e.bytes for e in entries.values()) and len(listed["entries"]) == 3
    assert [e.name for e in clear_cache(["demo"])] == ["demo-table"]
    assert {e.name for e in cache_entries()} == {"other-table", "fives-rows3-9-optimal-x"}
    assert main(["cache", "clear"]) == 0 and "removed 2 entries" in capsys.readouterr().out
    assert cache_entries() == []


def test_a_long_first_use_build_says_so_once():
    import time as time_module

    from dicemath.core.cache import _announced

    said = []
    with _announced("slow-table", delay=0.0, write=said.append):
        time_module.sleep(0.2)
    with _announced("fast-table", delay=60.0, write=said.append):
        pass
    assert len(said) == 1 and "slow-table" in said[0] and "first use only" in said[0]


def test_a_big_build_says_so_before_it_starts_with_its_measured_cost(monkeypatch):
    from dicemath.core import cache

    measured = {"machine": "a test machine", "tables": {"big-table": {"(3, 'x')": {"seconds": 16.2, "bytes": 2.35e8}},
                                                        "small-table": {"3": {"seconds": 7.1, "bytes": 8.9e6}}}}
    monkeypatch.setattr(cache, "_costs", lambda: measured)
    said = []
    with cache._announced("big-table", (3, "x"), delay=60.0, write=said.append):
        assert len(said) == 1                                   # before the build runs
    assert "about 16 s and 235 MB on a test machine" in said[0]
    line, now = cache.announcement("small-table", 3)
    assert not now and "about 7 s and 9 MB" in line
    line, now = cache.announcement("small-table", 4)            # other parameters: not measured
    assert not now and "about" not in line


def test_a_rebuilt_table_replaces_the_version_it_supersedes(tmp_path, monkeypatch):
    from dicemath.core import cache

    monkeypatch.setenv("DICEMATH_CACHE_DIR", str(tmp_path))
    old, new, other = (tmp_path / f"demo-{k}.npz" for k in ("old", "new", "other"))
    for path in (old, new, other):
        path.write_bytes(b"x" * 10)
    cache._note(old, "demo", (1, 2), 1.0)
    cache._note(other, "demo", (1, 3), 1.0)                     # other parameters stay
    cache._note(new, "demo", (1, 2), 2.0)                       # new code, same table: replaces old
    assert not old.exists() and new.exists() and other.exists()
    index = cache._read_index(tmp_path)
    assert set(index) == {"demo-new.npz", "demo-other.npz"} and index["demo-new.npz"]["bytes"] == 10
