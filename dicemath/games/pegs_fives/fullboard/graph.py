"""The sweep as a Dask task graph: one task per group of slabs, each waiting for the groups
that hold its successor slabs.

Slab ``t`` (the values of the top axes, :class:`.layout.SlabPlan`) reads only slabs whose
top digits are componentwise at least ``t``'s; it depends on the slabs one top digit
higher, which depend on theirs, so the graph orders the whole sweep. A task solves a group
of slabs with the same top total (mutually independent; 16 for the Fives kernel's lanes,
one otherwise), and groups of the same top total run in parallel.

* Without a scheduler address the graph runs on Dask's local threaded scheduler (the
  kernels release the GIL, so threads share the table and use every core).
* With ``scheduler="tcp://host:8786"`` it runs on a ``dask.distributed`` cluster. Every
  worker maps the table file itself, so **workers must share the table's filesystem**
  (one machine, or a shared filesystem on which a file written and closed by one machine
  is read fresh by the next task that opens it); each task writes its slab to disk before
  it reports back.

Finished groups are reported, in the calling process, to ``on_done(slabs, seconds)``
(:func:`.driver.build_table` writes them to the manifest there).
"""

from __future__ import annotations

from collections.abc import Callable

from dicemath.games.pegs_fives.fullboard.driver import InMemory, SlabJob, run_slabs_task, worker_count
from dicemath.games.pegs_fives.fullboard.layout import SlabPlan


def group_key(slabs: tuple[int, ...]) -> str:
    """The task key of a slab group."""
    return "slabs-" + "-".join(map(str, slabs))


def slab_graph(job: SlabJob, plan: SlabPlan, lanes: int, done: set[int], arrays: InMemory) -> dict:
    """The task graph of every slab not in ``done`` (a finished slab is no dependency), in
    groups of at most ``lanes`` slabs."""
    groups = plan.groups(lanes, done)
    home = {slab: group_key(group) for group in groups for slab in group}
    graph = {}
    for group in groups:
        waits = sorted({home[s] for slab in group for s in plan.successors(slab) if s not in done})
        graph[group_key(group)] = (run_slabs_task, job, group, arrays, *waits)
    return graph


def run_slabs(job: SlabJob, plan: SlabPlan, lanes: int, *, done: set[int], workers: int | None = None,
              scheduler: str | None = None, arrays: InMemory | None = None,
              on_done: Callable[[int, float], None] | None = None) -> None:
    """Run every slab not yet ``done``, locally or on a cluster.

    Args:
        job: the slab task (a file job for a cluster).
        plan: the slab plan.
        lanes: slabs per task.
        done: slabs already finished.
        workers: local threads (default every core).
        scheduler: a ``dask.distributed`` scheduler address, or None for local threads.
        arrays: the in-memory arrays of an in-memory job.
        on_done: called with ``(slabs, seconds)`` as each group finishes; an exception it
            raises stops the run.
    """
    graph = slab_graph(job, plan, lanes, done, arrays or InMemory())
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
                slabs, seconds = future.result()
                if on_done is not None:
                    on_done(slabs, seconds)
        except BaseException:
            client.cancel(futures)
            raise
