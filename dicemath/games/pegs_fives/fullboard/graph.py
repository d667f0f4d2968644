"""The sweep as a Dask task graph: one task per slab, each waiting for its successor slabs.

Slab ``t`` (the values of the top axes, :class:`.layout.SlabPlan`) reads only slabs whose
top digits are componentwise at least ``t``'s; it depends on the slabs one top digit
higher, which depend on theirs, so the graph orders the whole sweep, and slabs with the
same top total run in parallel.

* Without a scheduler address the graph runs on Dask's local threaded scheduler (the
  kernels release the GIL, so threads share the table and use every core).
* With ``scheduler="tcp://host:8786"`` it runs on a ``dask.distributed`` cluster. Every
  worker maps the table file itself, so **workers must share the table's filesystem**
  (one machine, or a shared filesystem on which a file written and closed by one machine
  is read fresh by the next task that opens it); each task writes its slab to disk before
  it reports back.

Finished slabs are reported, in the calling process, to ``on_done(slab, seconds)``
(:func:`.driver.build_table` writes them to the manifest there).
"""

from __future__ import annotations

from collections.abc import Callable

from dicemath.games.pegs_fives.fullboard.driver import InMemory, SlabJob, run_slab, worker_count
from dicemath.games.pegs_fives.fullboard.layout import SlabPlan


def slab_key(slab: int) -> str:
    """The task key of a slab."""
    return f"slab-{slab}"


def slab_graph(job: SlabJob, plan: SlabPlan, done: set[int], arrays: InMemory) -> dict:
    """The task graph of every slab not in ``done`` (a finished slab is no dependency)."""
    graph = {}
    for slab in range(plan.count):
        if slab in done:
            continue
        waits = [slab_key(s) for s in plan.successors(slab) if s not in done]
        graph[slab_key(slab)] = (run_slab, job, slab, arrays, *waits)
    return graph


def run_slabs(job: SlabJob, plan: SlabPlan, *, done: set[int], workers: int | None = None,
              scheduler: str | None = None, arrays: InMemory | None = None,
              on_done: Callable[[int, float], None] | None = None) -> None:
    """Run every slab not yet ``done``, locally or on a cluster.

    Args:
        job: the slab task (a file job for a cluster).
        plan: the slab plan.
        done: slabs already finished.
        workers: local threads (default every core).
        scheduler: a ``dask.distributed`` scheduler address, or None for local threads.
        arrays: the in-memory arrays of an in-memory job.
        on_done: called with ``(slab, seconds)`` as each slab finishes; an exception it
            raises stops the run.
    """
    graph = slab_graph(job, plan, done, arrays or InMemory())
    if not graph:
        return
    keys = list(graph)
    if scheduler is None:
        _run_local(graph, keys, worker_count(workers), on_done)
    else:
        if job.directory is None:
            raise ValueError("a cluster run needs a table on disk")
        _run_distributed(graph, keys, scheduler, on_done)


def _run_local(graph: dict, keys: list, workers: int, on_done) -> None:
    import dask.threaded
    from dask.callbacks import Callback

    def posttask(key, result, dsk, state, worker_id):
        if on_done is not None:
            on_done(*result)

    with Callback(posttask=posttask):
        dask.threaded.get(graph, keys, num_workers=workers)


def _run_distributed(graph: dict, keys: list, address: str, on_done) -> None:
    from distributed import Client, as_completed

    with Client(address) as client:
        futures = client.get(graph, keys, sync=False)
        try:
            for future in as_completed(futures):
                slab, seconds = future.result()
                if on_done is not None:
                    on_done(slab, seconds)
        except BaseException:
            client.cancel(futures)
            raise
