"""The on-disk table cache: built once, reused, keyed by format version and parameters."""

import pathlib

import numpy as np
import pytest

from dicemath.core import cache


def test_arrays_are_built_once_and_reused(tmp_path, monkeypatch):
    monkeypatch.setenv("DICEMATH_CACHE_DIR", str(tmp_path))
    calls = []

    def build():
        calls.append(1)
        return {"table": np.arange(5.0)}

    first = cache.cached_arrays("demo", ("rules", 1), build, format_version=1)
    second = cache.cached_arrays("demo", ("rules", 1), build, format_version=1)
    other = cache.cached_arrays("demo", ("rules", 2), build, format_version=1)
    assert len(calls) == 2
    np.testing.assert_array_equal(first["table"], second["table"])
    np.testing.assert_array_equal(other["table"], first["table"])
    assert not list(tmp_path.glob("*.tmp"))


def test_objects_and_opt_out(tmp_path, monkeypatch):
    monkeypatch.setenv("DICEMATH_CACHE_DIR", str(tmp_path))
    assert cache.cached_object("obj", 1, lambda: {"a": 1}, format_version=1) == {"a": 1}
    assert cache.cached_object("obj", 1, lambda: {"a": 2}, format_version=1) == {"a": 1}
    assert cache.cached_object("obj", 1, lambda: {"a": 3}, format_version=1, use_cache=False) == {"a": 3}
    assert cache.cached_object("obj", 1, lambda: {"a": 4}, format_version=2) == {"a": 4}


def test_the_key_changes_with_the_format_version_and_every_parameter():
    key = cache.cache_key("x", ("rules", 1, 0.5), 1)
    assert key == cache.cache_key("x", ("rules", 1, 0.5), 1)
    others = [cache.cache_key("x", ("rules", 1, 0.5), 2), cache.cache_key("x", ("other", 1, 0.5), 1),
              cache.cache_key("x", ("rules", 2, 0.5), 1), cache.cache_key("x", ("rules", 1, 0.25), 1),
              cache.cache_key("y", ("rules", 1, 0.5), 1)]
    assert len({key, *others}) == 1 + len(others)
    for wrong in (0, -1, 1.0, "1", True, None):
        with pytest.raises(ValueError, match="format version of table 'x' must be a positive int"):
            cache.cache_key("x", 1, wrong)


def _with_edited_docstrings(monkeypatch):
    """Make every source file of the package read as if a line were added to its docstring."""
    read_bytes, read_text = pathlib.Path.read_bytes, pathlib.Path.read_text

    def edited(path):
        return path.suffix in (".py", ".c", ".h") and "dicemath" in path.parts

    monkeypatch.setattr(pathlib.Path, "read_bytes",
                        lambda path: b'"""An edited docstring."""\n' * edited(path) + read_bytes(path))
    monkeypatch.setattr(pathlib.Path, "read_text",
                        lambda path, *a, **k: '"""An edited docstring."""\n' * edited(path) + read_text(path, *a, **k))


def test_the_key_does_not_follow_the_source_files(tmp_path, monkeypatch):
    monkeypatch.setenv("DICEMATH_CACHE_DIR", str(tmp_path))
    calls = []

    def build():
        calls.append(1)
        return {"table": np.arange(3)}

    key = cache.cache_key("demo", ("rules", 1), 1)
    cache.cached_arrays("demo", ("rules", 1), build, format_version=1)
    _with_edited_docstrings(monkeypatch)
    assert pathlib.Path(cache.__file__).read_bytes().startswith(b'"""An edited docstring."""')
    assert cache.cache_key("demo", ("rules", 1), 1) == key
    cache.cached_arrays("demo", ("rules", 1), build, format_version=1)
    assert len(calls) == 1                                       # read back, not rebuilt


def test_a_table_of_an_older_format_version_is_not_read_but_replaced(tmp_path, monkeypatch):
    monkeypatch.setenv("DICEMATH_CACHE_DIR", str(tmp_path))
    old = cache.cached_arrays("demo", ("rules", 1), lambda: {"table": np.zeros(3)}, format_version=1)
    new = cache.cached_arrays("demo", ("rules", 1), lambda: {"table": np.ones(3)}, format_version=2)
    assert old["table"].sum() == 0 and new["table"].sum() == 3        # version 2 computed, not read from 1
    again = cache.cached_arrays("demo", ("rules", 1), lambda: {"table": np.full(3, 7.0)}, format_version=2)
    assert again["table"].sum() == 3                                   # version 2 read back
    assert [path.name for path in tmp_path.glob("demo-*")] == [f"{cache.cache_key('demo', ('rules', 1), 2)}.npz"]
    notes = cache._read_index(tmp_path)
    assert [(note["name"], note["format"], note["params"]) for note in notes.values()] == [("demo", 2, "('rules', 1)")]


def test_the_cache_lists_and_clears_what_it_holds(tmp_path, monkeypatch, capsys):
    import json as json_module

    from dicemath.cli import main
    from dicemath.core.cache import cache_entries, cached_arrays, clear_cache
    from dicemath.core.table_store import TableStore

    monkeypatch.setenv("DICEMATH_CACHE_DIR", str(tmp_path))
    cached_arrays("demo-table", (1, 2), lambda: {"a": np.arange(1000)}, format_version=3)
    cached_arrays("other-table", 3, lambda: {"b": np.arange(10)}, format_version=1)
    folder = tmp_path / "fullboard" / "fives-rows3-9-optimal-x"
    store = TableStore.create(folder, "fullboard", {"format": 2, "rows": [3, 9]}, {"values": ("float64", (1024,))}, 1)
    store.array("values", writable=True)[:] = 1.0            # written: not sparse on disk
    store.mark_done(0, 2.0)
    store.record_run(3.5, 1)
    entries = {e.name: e for e in cache_entries()}
    assert set(entries) == {"demo-table", "other-table", "fives-rows3-9-optimal-x"}
    assert entries["demo-table"].params == "(1, 2)" and entries["demo-table"].bytes > 8000
    assert entries["demo-table"].format_version == 3 and entries["other-table"].format_version == 1
    assert entries["fives-rows3-9-optimal-x"].seconds == 3.5 and entries["fives-rows3-9-optimal-x"].bytes > 4096
    assert entries["fives-rows3-9-optimal-x"].format_version == 2
    assert entries["fives-rows3-9-optimal-x"].params == '{"rows": [3, 9]}'
    assert main(["cache", "list", "--json"]) == 0
    listed = json_module.loads(capsys.readouterr().out)
    assert listed["bytes"] == sum(e.bytes for e in entries.values()) and len(listed["entries"]) == 3
    assert clear_cache(["demo"]) == [] and [e.name for e in clear_cache(["demo-table"])] == ["demo-table"]
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

    measured = {"machine": "a test machine (2 cores)",
                "tables": {"big-table": {"(3, 'x')": {"seconds": 16.2, "bytes": 2.35e8}},
                           "small-table": {"3": {"seconds": 7.1, "bytes": 8.9e6}}}}
    monkeypatch.setattr(cache, "_costs", lambda: measured)
    said = []
    with cache._announced("big-table", (3, "x"), delay=60.0, write=said.append):
        assert len(said) == 1                                   # before the build runs
    assert "about 16 s and 235.0 MB when measured on a test machine (2 cores)" in said[0]
    line, now = cache.announcement("small-table", 3)
    assert not now and "about 7 s and 8.9 MB" in line
    line, now = cache.announcement("small-table", 4)            # other parameters: not measured
    assert not now and "about" not in line


def test_a_rebuilt_table_replaces_the_version_it_supersedes(tmp_path, monkeypatch):
    from dicemath.core import cache

    monkeypatch.setenv("DICEMATH_CACHE_DIR", str(tmp_path))
    old, new, other = (tmp_path / f"demo-{k}.npz" for k in ("old", "new", "other"))
    for path in (old, new, other):
        path.write_bytes(b"x" * 10)
    cache._note(old, "demo", 1, (1, 2), 1.0)
    cache._note(other, "demo", 1, (1, 3), 1.0)                  # other parameters stay
    cache._note(new, "demo", 2, (1, 2), 2.0)                    # a new format version, same table: replaces old
    assert not old.exists() and new.exists() and other.exists()
    index = cache._read_index(tmp_path)
    assert set(index) == {"demo-new.npz", "demo-other.npz"} and index["demo-new.npz"]["bytes"] == 10
