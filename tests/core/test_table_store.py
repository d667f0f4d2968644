"""The resumable, chunked, memory-mapped table store (dicemath.core.table_store)."""

from __future__ import annotations

import functools
import json
import threading
import time

import numpy as np
import pytest

from dicemath.core.table_store import (
    FORMAT_KEY,
    MANIFEST,
    Manifest,
    TableError,
    TableStore,
    read_manifest,
    run_graph,
)

SPEC = {FORMAT_KEY: 1, "rules": "standard", "size": 3, "code": "abc123"}
ARRAYS = {"values": ("float32", (10,)), "moves": ("uint8", (2, 3))}
SCHEDULERS = [None, "threads", "synchronous"]


def new_store(directory, spec=SPEC, kind="toy", chunks=2):
    return TableStore.create(directory, kind, spec, ARRAYS, chunks)


def finish(store, chunks=None):
    for chunk in range(store.manifest.chunks if chunks is None else chunks):
        store.mark_done(chunk)
    store.record_run(0.5, store.manifest.chunks if chunks is None else chunks)


# --- create / open ------------------------------------------------------------------------------


def test_round_trip(tmp_path):
    folder = tmp_path / "table"
    store = new_store(folder)
    assert (folder / MANIFEST).is_file() and (folder / "done").is_dir()
    assert store.done() == {}
    assert not store.manifest.complete

    values = store.array("values", writable=True)
    assert values.dtype == np.float32 and values.shape == (10,)
    assert not values.any()                                     # created zero-filled (sparse)
    values[:] = np.arange(10, dtype=np.float32) / 4
    TableStore.flush(values, 0, 10)
    TableStore.flush(values, 3, 7)                              # a part, not page aligned
    moves = store.array("moves", writable=True)
    moves[1, 2] = 200
    moves.flush()
    del values, moves

    store.mark_done(0, 1.25)
    store.record_run(2.0, 1, scheduler="synchronous")
    assert not store.manifest.complete                          # one of two chunks
    store.mark_done(1)
    store.record_run(0.5, 1)
    assert store.manifest.complete
    assert not list((folder / "done").glob("*.tmp"))

    opened = TableStore.open(folder, "toy")
    assert opened.manifest == store.manifest == read_manifest(folder)
    assert opened.manifest.build_id == store.manifest.build_id
    assert opened.manifest.arrays == {"values": {"dtype": "float32", "shape": [10]},
                                      "moves": {"dtype": "uint8", "shape": [2, 3]}}
    assert opened.manifest.runs == [{"seconds": 2.0, "chunks": 1, "scheduler": "synchronous"},
                                    {"seconds": 0.5, "chunks": 1}]
    assert opened.manifest.wall_seconds == pytest.approx(2.5)
    assert opened.done() == {0: 1.25, 1: 0.0}
    read = opened.array("values")
    np.testing.assert_array_equal(read, np.arange(10, dtype=np.float32) / 4)
    assert opened.array("moves")[1, 2] == 200 and opened.array("moves").sum() == 200
    assert not read.flags.writeable
    with pytest.raises(ValueError):
        read[0] = 1.0
    # the manifest is plain JSON, and the .npy files are standard .npy files
    assert json.loads((folder / MANIFEST).read_text())["kind"] == "toy"
    np.testing.assert_array_equal(np.load(folder / "values.npy"), read)


def test_open_refuses_an_unfinished_table_unless_asked(tmp_path):
    store = new_store(tmp_path, chunks=3)
    finish(store, chunks=1)
    with pytest.raises(TableError, match=r"unfinished \(1 of 3 chunks\)"):
        TableStore.open(tmp_path)
    with pytest.raises(TableError, match="unfinished"):
        TableStore.open(tmp_path, "toy")
    partial = TableStore.open(tmp_path, "toy", complete=False)
    assert partial.done() == {0: 0.0} and not partial.manifest.complete


def test_open_refuses_another_kind_and_a_missing_table(tmp_path):
    finish(new_store(tmp_path / "t"))
    assert TableStore.open(tmp_path / "t", "toy").manifest.complete
    with pytest.raises(TableError, match="holds a toy table, not a bearoff table"):
        TableStore.open(tmp_path / "t", "bearoff")
    with pytest.raises(TableError, match="no table"):
        TableStore.open(tmp_path / "empty")
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / MANIFEST).write_text('{"kind": "toy"}')
    with pytest.raises(TableError, match="not a table manifest"):
        read_manifest(tmp_path / "bad")
    (tmp_path / "bad" / MANIFEST).write_text("{not json")
    with pytest.raises(TableError, match="not a table manifest"):
        TableStore.open(tmp_path / "bad")


def test_create_refuses_a_folder_holding_another_table(tmp_path):
    new_store(tmp_path)
    before = (tmp_path / MANIFEST).read_text()
    with pytest.raises(TableError, match=r"differing: size\)") as error:
        new_store(tmp_path, spec={**SPEC, "size": 4})
    assert "rules" not in str(error.value) and "code" not in str(error.value)
    with pytest.raises(TableError, match=r"differing: code, extra\)"):
        new_store(tmp_path, spec={**SPEC, "code": "def456", "extra": 1})
    with pytest.raises(TableError, match=r"differing: rules\)"):
        new_store(tmp_path, spec={key: value for key, value in SPEC.items() if key != "rules"})
    with pytest.raises(TableError, match=r"differing: kind or format\)"):
        new_store(tmp_path, kind="bearoff")
    assert (tmp_path / MANIFEST).read_text() == before            # untouched by the refusals


def test_create_on_the_same_spec_resumes(tmp_path):
    spec = {**SPEC, "shape": (6, 15)}                              # a tuple: JSON reads it back as a list
    first = new_store(tmp_path, spec=spec, chunks=3)
    values = first.array("values", writable=True)
    values[:5] = 7.0
    values.flush()
    del values
    first.mark_done(0, 0.75)
    first.record_run(1.0, 1)

    again = new_store(tmp_path, spec=spec, chunks=3)
    assert again.manifest.build_id == first.manifest.build_id
    assert again.manifest.runs == [{"seconds": 1.0, "chunks": 1}]
    assert again.done() == {0: 0.75}
    np.testing.assert_array_equal(again.array("values")[:6], [7, 7, 7, 7, 7, 0])   # not recreated

    other = new_store(tmp_path / "other", spec=spec, chunks=3)     # a fresh folder: a fresh build
    assert other.manifest.build_id != first.manifest.build_id


# --- corrupt array files ------------------------------------------------------------------------


@pytest.mark.parametrize("cut", ["empty", "in the magic", "in the header", "all data", "half the data"])
def test_open_refuses_a_truncated_array(tmp_path, cut):
    finish(new_store(tmp_path))
    full = (tmp_path / "values.npy").stat().st_size
    header = full - 10 * 4                                         # 10 float32 after the header
    assert header >= 64
    size = {"empty": 0, "in the magic": 4, "in the header": header // 2, "all data": header,
            "half the data": header + 20}[cut]
    with open(tmp_path / "values.npy", "r+b") as stream:
        stream.truncate(size)
    with pytest.raises(TableError, match="values.npy"):
        TableStore.open(tmp_path, "toy")


@pytest.mark.parametrize("wrong", [np.zeros(10, np.float64), np.zeros(10, np.int32), np.zeros(11, np.float32),
                                   np.zeros((2, 5), np.float32)])
def test_open_refuses_an_array_of_the_wrong_dtype_or_shape(tmp_path, wrong):
    finish(new_store(tmp_path))
    np.save(tmp_path / "values.npy", wrong)
    with pytest.raises(TableError, match=r"values.npy holds .*expected float32\[10\]"):
        TableStore.open(tmp_path, "toy")
    with pytest.raises(TableError):
        TableStore.open(tmp_path, "toy", complete=False)


def test_open_refuses_a_missing_array(tmp_path):
    finish(new_store(tmp_path))
    (tmp_path / "moves.npy").unlink()
    with pytest.raises(TableError, match="moves.npy cannot be read"):
        TableStore.open(tmp_path)


# --- run_graph ----------------------------------------------------------------------------------


def _record(log, name, *dependencies):
    log.append(name)
    return (name, dependencies)


def diamond(log):
    """load -> (left, right) -> join; each task logs its name and returns (name, its inputs)."""
    task = functools.partial(_record, log)
    return {"load": (functools.partial(task, "load"),),
            "left": (functools.partial(task, "left"), "load"),
            "right": (functools.partial(task, "right"), "load"),
            "join": (functools.partial(task, "join"), "left", "right")}


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_run_graph_runs_in_dependency_order_and_reports_every_task(scheduler):
    log, reported, stops = [], {}, []
    graph = diamond(log)

    def on_done(key, result):
        assert threading.current_thread() is threading.main_thread()
        reported[key] = result

    stopped = run_graph(graph, ["join"], scheduler=scheduler, workers=2, on_done=on_done,
                        on_stop=lambda: stops.append(1) or "flushed")
    assert sorted(log) == sorted(graph)                             # each task once
    assert log[0] == "load" and log[-1] == "join"
    assert set(reported) == set(graph)
    load = ("load", ())
    assert reported["left"] == ("left", (load,)) and reported["right"] == ("right", (load,))
    assert reported["join"] == ("join", (("left", (load,)), ("right", (load,))))
    assert stopped == ["flushed"] and stops == [1]
    assert run_graph(diamond([]), ["join"], scheduler=scheduler) == []       # no on_stop


class Boom(Exception):
    pass


def _fail(*dependencies):
    raise Boom("task failed")


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_on_stop_runs_when_a_task_raises_and_the_error_propagates(scheduler):
    log, reported, stops = [], [], []
    graph = diamond(log)
    graph["right"] = (_fail, "load")
    with pytest.raises(Boom, match="task failed"):
        run_graph(graph, ["join"], scheduler=scheduler, workers=2,
                  on_done=lambda key, result: reported.append(key), on_stop=lambda: stops.append(1))
    assert stops == [1]
    assert "join" not in log and "join" not in reported and "right" not in reported
    assert "load" in reported


@pytest.mark.parametrize("scheduler", SCHEDULERS)
def test_on_done_raising_stops_the_run(scheduler):
    log, reported, stops = [], [], []
    task = functools.partial(_record, log)
    chain = {"a": (functools.partial(task, "a"),)}
    for previous, key in zip("abc", "bcd"):
        chain[key] = (functools.partial(task, key), previous)

    def on_done(key, result):
        reported.append(key)
        if key == "a":
            raise Boom("stop here")

    with pytest.raises(Boom, match="stop here"):
        run_graph(chain, ["d"], scheduler=scheduler, workers=2, on_done=on_done, on_stop=lambda: stops.append(1))
    assert reported == ["a"] and stops == [1]
    assert "c" not in log and "d" not in log


# --- a toy chunked build, interrupted and resumed --------------------------------------------------

CHUNKS, CHUNK = 8, 1000
TOY_SPEC = {"kind": "cumulative sums", "chunk": CHUNK, "seed": 11}


def toy_input():
    return np.random.default_rng(11).integers(-50, 100, CHUNKS * CHUNK).astype(np.int64)


def toy_build(directory, scheduler, stop_after=None):
    """Cumulative sums of ``toy_input()`` chunk by chunk: chunk c adds the last sum of chunk
    c - 1, read back from the memory map (written by this run or by an earlier one). With
    ``stop_after``, on_done raises once that many chunks are marked done. Returns the store
    and the chunks this run computed."""
    values = toy_input()
    store = TableStore.create(directory, "toy", TOY_SPEC, {"sums": ("int64", (CHUNKS * CHUNK,))}, CHUNKS)
    finished = store.done()
    sums = store.array("sums", writable=True)

    def compute(chunk, *dependencies):
        start, stop = chunk * CHUNK, (chunk + 1) * CHUNK
        carry = int(sums[start - 1]) if chunk else 0
        sums[start:stop] = np.cumsum(values[start:stop]) + carry
        TableStore.flush(sums, start, stop)
        return chunk

    graph = {}
    for chunk in range(CHUNKS):
        if chunk not in finished:
            previous = (f"chunk-{chunk - 1}",) if chunk and chunk - 1 not in finished else ()
            graph[f"chunk-{chunk}"] = (compute, chunk, *previous)
    computed = []

    def on_done(key, chunk):
        store.mark_done(chunk)
        computed.append(chunk)
        if stop_after is not None and len(computed) >= stop_after:
            raise KeyboardInterrupt                              # as a user's Ctrl-C would

    start = time.perf_counter()
    try:
        run_graph(graph, list(graph), scheduler=scheduler, workers=2, on_done=on_done, on_stop=sums.flush)
    finally:
        store.record_run(time.perf_counter() - start, len(computed), scheduler=str(scheduler))
    return store, computed


@pytest.mark.parametrize("scheduler", SCHEDULERS)
@pytest.mark.parametrize("stop_after", [1, 5])
def test_an_interrupted_build_resumes_to_the_same_table(tmp_path, scheduler, stop_after):
    expected = np.cumsum(toy_input())
    whole, computed = toy_build(tmp_path / "whole", scheduler)
    assert computed == list(range(CHUNKS))
    np.testing.assert_array_equal(TableStore.open(tmp_path / "whole", "toy").array("sums"), expected)

    with pytest.raises(KeyboardInterrupt):
        toy_build(tmp_path / "resumed", scheduler, stop_after=stop_after)
    halfway = TableStore.open(tmp_path / "resumed", "toy", complete=False)
    assert sorted(halfway.done()) == list(range(stop_after))
    assert halfway.manifest.runs[0]["chunks"] == stop_after and not halfway.manifest.complete
    with pytest.raises(TableError, match="unfinished"):
        TableStore.open(tmp_path / "resumed", "toy")

    resumed, computed = toy_build(tmp_path / "resumed", scheduler)
    assert computed == list(range(stop_after, CHUNKS))              # nothing computed twice
    table = TableStore.open(tmp_path / "resumed", "toy")
    assert table.manifest.build_id == halfway.manifest.build_id
    assert [run["chunks"] for run in table.manifest.runs] == [stop_after, CHUNKS - stop_after]
    np.testing.assert_array_equal(table.array("sums"), whole.array("sums"))
    np.testing.assert_array_equal(table.array("sums"), expected)


# --- format version ---------------------------------------------------------------------------


def test_open_reads_only_the_format_version_asked_for(tmp_path):
    finish(new_store(tmp_path / "t"))
    assert TableStore.open(tmp_path / "t", "toy", format_version=1).manifest.spec[FORMAT_KEY] == 1
    assert TableStore.open(tmp_path / "t", "toy").manifest.complete        # not asked: any version
    with pytest.raises(TableError, match="has format version 1; this dicemath reads format version 2 only"):
        TableStore.open(tmp_path / "t", "toy", format_version=2)
    finish(new_store(tmp_path / "old", spec={k: v for k, v in SPEC.items() if k != FORMAT_KEY}))
    with pytest.raises(TableError, match="has no format version .built by an older dicemath.*delete the folder"):
        TableStore.open(tmp_path / "old", "toy", format_version=1)


def test_a_new_format_version_is_another_table(tmp_path):
    new_store(tmp_path)
    with pytest.raises(TableError, match=r"differing: format\)"):
        new_store(tmp_path, spec={**SPEC, FORMAT_KEY: 2})


def test_manifest_describes_only_its_own_table():
    manifest = Manifest("toy", dict(SPEC), {}, 4)
    assert manifest.describes("toy", dict(SPEC))
    assert not manifest.describes("toy", {**SPEC, "size": 5})
    assert not manifest.describes("other", dict(SPEC))
    assert not Manifest("toy", dict(SPEC), {}, 4, format=1).describes("toy", dict(SPEC))
    assert manifest.build_id != Manifest("toy", dict(SPEC), {}, 4).build_id
