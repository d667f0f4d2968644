"""Big tables on disk: one resumable, chunked, memory-mapped store for every game.

A table too big to rebuild at each use (a full-board value table, a bear-off database) is
a folder written chunk by chunk, so that a build interrupted at any point resumes at the
first unfinished chunk, on the same machine or on any machine that sees the folder:

* ``manifest.json`` -- what the table is: its ``kind``, its ``spec`` (the format version of
  that kind of table under :data:`FORMAT_KEY`, the game rules and every parameter that
  decides the values), its ``arrays`` (name, dtype, shape), its chunk count, a ``build_id``
  and the ``runs`` of its build (wall seconds, chunks). Written atomically, only by the
  process that runs the build.
* ``<array>.npy`` -- one standard ``.npy`` file per array, created sparse at full size and
  written in place through memory maps; a query maps it read-only and reads a few bytes
  (:meth:`TableStore.array`), never the whole table.
* ``done/<chunk>`` -- one marker per finished chunk, holding its compute seconds, written
  only **after** the chunk's values are on disk (:meth:`TableStore.mark_done`): by the
  process that computed it, or by the build's process once the task has returned. Workers
  of a cluster that share the folder therefore never write the same file.

:func:`run_graph` runs a build's Dask task graph on Dask's local threaded scheduler (the
kernels release the GIL), synchronously, or on a ``dask.distributed`` cluster whose
workers share the folder, and reports each finished task in the calling process.

Why ``.npy`` memory maps and not zarr: a player's query reads one value, and a memory-map
read costs well under a microsecond once the page is in memory, where a chunked, compressed
array decodes a whole chunk per read (``benchmarks/bench_table_store.py`` measures both).
Dask needs no chunked array format here: its tasks write disjoint parts of one map.
"""

from __future__ import annotations

import dataclasses
import json
import mmap
import os
import tempfile
import uuid
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import numpy as np

from dicemath.core.errors import DicemathError

if TYPE_CHECKING:
    from dask.typing import Key
    from distributed import Client

Stopped = TypeVar("Stopped")
"""What a build's ``on_stop`` returns (:func:`run_graph`)."""

FORMAT = 2
"""Version of the folder format (manifest and files), whatever the table; the version of a
kind of table's values is its spec's :data:`FORMAT_KEY`."""

FORMAT_KEY = "format"
"""The spec entry holding the format version of a kind of table: a constant beside the
table's builder, changed on purpose when the computation or the layout of its values
changes (:meth:`TableStore.open` refuses another version when asked for one)."""

MANIFEST = "manifest.json"
DONE = "done"


class TableError(DicemathError):
    """A table folder that is missing, unfinished, corrupt or built for something else."""


@dataclass
class Manifest:
    """The JSON of ``manifest.json``.

    Attributes:
        kind: what sort of table (``"fullboard"``, ``"bearoff"`` ...).
        spec: everything that decides the values (the format version under :data:`FORMAT_KEY`,
            rules, parameters); two folders with equal kind and spec hold the same table.
        arrays: ``name -> {"dtype": ..., "shape": [...]}``.
        chunks: chunks of the build.
        build_id: a fresh id per folder created (a folder deleted and built again differs).
        runs: one entry per build run: ``seconds`` (wall), ``chunks`` finished, and what the
            builder adds (scheduler, peak memory ...).
        complete: every chunk finished (set by the last run).
    """

    kind: str
    spec: dict[str, Any]
    arrays: dict[str, dict[str, Any]]
    chunks: int
    build_id: str = field(default_factory=lambda: uuid.uuid4().hex)
    runs: list[dict[str, Any]] = field(default_factory=list)
    complete: bool = False
    format: int = FORMAT

    def describes(self, kind: str, spec: dict[str, Any]) -> bool:
        """True when this manifest is for the table ``kind``/``spec`` (progress aside)."""
        return self.kind == kind and self.spec == spec and self.format == FORMAT

    @property
    def wall_seconds(self) -> float:
        """Wall-clock seconds of the build, summed over its runs."""
        return float(sum(run.get("seconds", 0.0) for run in self.runs))


def read_manifest(directory: Path) -> Manifest | None:
    """The manifest of ``directory``, or None when it has none.

    Raises:
        TableError: the file is not a manifest of this format.
    """
    path = Path(directory) / MANIFEST
    if not path.exists():
        return None
    try:
        return Manifest(**json.loads(path.read_text()))
    except (ValueError, TypeError) as error:
        raise TableError(f"{path} is not a table manifest of format {FORMAT}: {error}") from None


def _write_manifest(directory: Path, manifest: Manifest) -> None:
    """Write the manifest atomically (temporary file, fsync, rename)."""
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=MANIFEST, suffix=".tmp")
    try:
        with os.fdopen(handle, "w") as stream:
            json.dump(dataclasses.asdict(manifest), stream, indent=1)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, Path(directory) / MANIFEST)
    except BaseException:
        if os.path.exists(temporary):
            os.unlink(temporary)
        raise


class TableStore:
    """One table folder (see the module docstring). Create or resume with :meth:`create`,
    open a built one with :meth:`open`."""

    def __init__(self, directory: Path, manifest: Manifest):
        self.directory = Path(directory)
        self.manifest = manifest

    @classmethod
    def create(cls, directory: Path | str, kind: str, spec: dict[str, Any],
               arrays: dict[str, tuple[str, tuple[int, ...]]], chunks: int) -> TableStore:
        """Create the folder for a new table, or resume the same table found there.

        Args:
            directory: the table folder.
            kind, spec: what the table is (see :class:`Manifest`); JSON-ready.
            arrays: ``name -> (dtype, shape)``; each becomes a sparse ``.npy`` file.
            chunks: chunks of the build.

        Raises:
            TableError: the folder holds another table.
        """
        directory = Path(directory)
        spec = json.loads(json.dumps(spec))            # as it reads back from the manifest
        found = read_manifest(directory)
        wanted = {name: {"dtype": np.dtype(dtype).name, "shape": list(shape)}
                  for name, (dtype, shape) in arrays.items()}
        if found is not None:
            if not found.describes(kind, spec):
                differ = sorted(k for k in set(spec) | set(found.spec) if spec.get(k) != found.spec.get(k))
                raise TableError(f"{directory} holds another table ({found.kind}; differing: "
                                 f"{', '.join(differ) or 'kind or format'}); choose another folder or delete it")
            if found.arrays != wanted or found.chunks != chunks:
                raise TableError(f"{directory} holds this table with other arrays or chunks (a damaged manifest?); "
                                 "delete it")
            return cls(directory, found)
        directory.mkdir(parents=True, exist_ok=True)
        (directory / DONE).mkdir(exist_ok=True)
        for name, (dtype, shape) in arrays.items():
            array = np.lib.format.open_memmap(directory / f"{name}.npy", mode="w+", dtype=dtype, shape=tuple(shape))
            del array                                  # sparse: every entry is written by its chunk
        manifest = Manifest(kind, spec, wanted, int(chunks))
        _write_manifest(directory, manifest)
        return cls(directory, manifest)

    @classmethod
    def open(cls, directory: Path | str, kind: str | None = None, *, complete: bool = True,
             format_version: int | None = None) -> TableStore:
        """Open an existing table folder (by default only a finished one).

        Args:
            directory: the table folder.
            kind: if given, the kind of table wanted.
            complete: refuse an unfinished build.
            format_version: if given, the format version the caller reads (the spec's
                :data:`FORMAT_KEY`); a table of another version, or of none, is refused.

        Raises:
            TableError: no table there, another kind, another format version, an
                unfinished build (with ``complete``), or an array file of the wrong size.
        """
        directory = Path(directory)
        manifest = read_manifest(directory)
        if manifest is None:
            raise TableError(f"no table in {directory} (no {MANIFEST})")
        if kind is not None and manifest.kind != kind:
            raise TableError(f"{directory} holds a {manifest.kind} table, not a {kind} table")
        found = manifest.spec.get(FORMAT_KEY)
        if format_version is not None and found != format_version:
            held = "no format version (built by an older dicemath)" if found is None else f"format version {found}"
            raise TableError(f"the {manifest.kind} table in {directory} has {held}; this dicemath reads format "
                             f"version {format_version} only: delete the folder and build the table again")
        store = cls(directory, manifest)
        if complete and not manifest.complete:
            raise TableError(f"the table in {directory} is unfinished ({len(store.done())} of {manifest.chunks} "
                             "chunks); build it again to resume")
        for name in manifest.arrays:
            store.check_array(name)
        return store

    def path(self, name: str) -> Path:
        """The ``.npy`` file of array ``name``."""
        return self.directory / f"{name}.npy"

    def check_array(self, name: str) -> None:
        """Raise :class:`TableError` unless array ``name``'s file has the manifest's dtype and shape."""
        wanted = self.manifest.arrays[name]
        try:
            array = np.load(self.path(name), mmap_mode="r")
        except (OSError, ValueError, EOFError) as error:      # EOFError: an empty file
            raise TableError(f"{self.path(name)} cannot be read: {error}") from None
        if array.dtype != np.dtype(wanted["dtype"]) or list(array.shape) != list(wanted["shape"]):
            raise TableError(f"{self.path(name)} holds {array.dtype}{list(array.shape)}, "
                             f"expected {wanted['dtype']}{wanted['shape']}")

    def array(self, name: str, *, writable: bool = False) -> np.memmap[Any, np.dtype[Any]]:
        """Array ``name`` memory-mapped (read-only unless ``writable``)."""
        mapped: np.memmap[Any, np.dtype[Any]] = np.load(self.path(name), mmap_mode="r+" if writable else "r")
        return mapped

    @staticmethod
    def flush(array: np.memmap[Any, np.dtype[Any]], start: int, stop: int) -> None:
        """Write entries ``start .. stop - 1`` of a writable 1-D ``array`` (from :meth:`array`)
        back to disk, and only those pages."""
        mapped: mmap.mmap = array._mmap  # type: ignore[attr-defined]  # numpy's stubs omit memmap's private map
        base = array.offset - array.offset % mmap.ALLOCATIONGRANULARITY     # where numpy's map begins
        first = (array.offset - base + start * array.itemsize) // mmap.PAGESIZE * mmap.PAGESIZE
        mapped.flush(first, array.offset - base + stop * array.itemsize - first)

    def done(self) -> dict[int, float]:
        """Finished chunks and their compute seconds."""
        finished: dict[int, float] = {}
        for marker in (self.directory / DONE).iterdir():
            if marker.name.isdigit():
                text = marker.read_text().strip()
                finished[int(marker.name)] = float(text) if text else 0.0
        return finished

    def mark_done(self, chunk: int, seconds: float = 0.0) -> None:
        """Record chunk ``chunk`` as finished; call it only once its values are on disk."""
        marker = self.directory / DONE / f"{chunk:06d}"
        temporary = marker.with_suffix(".tmp")
        temporary.write_text(f"{seconds:.4f}\n")
        os.replace(temporary, marker)

    def record_run(self, seconds: float, chunks: int, **extra: Any) -> None:
        """Append a build run to the manifest and note whether the table is now complete."""
        self.manifest.runs.append({"seconds": round(seconds, 3), "chunks": chunks, **extra})
        self.manifest.complete = len(self.done()) == self.manifest.chunks
        _write_manifest(self.directory, self.manifest)


def run_graph(graph: Mapping[Any, Any], keys: Sequence[Key], *, scheduler: str | Client | None = None,
              workers: int | None = None, on_done: Callable[[str, object], None] | None = None,
              on_stop: Callable[[], Stopped] | None = None,
              placement: Callable[[Any], int] | None = None) -> list[Stopped]:
    """Run a Dask task graph of a table build and report each finished task; return what
    ``on_stop`` returned in each process (empty without ``on_stop``).

    Args:
        graph: the Dask graph (``key -> (function, *arguments)``, dependencies as keys).
        keys: the keys to compute (on a cluster, :func:`on_done` sees only these: pass
            every key of the graph to hear of every task).
        scheduler: None or ``"threads"`` for Dask's local threaded scheduler, ``"synchronous"``
            for one thread, a ``dask.distributed`` scheduler address (``"tcp://host:8786"``)
            or a ``distributed.Client``. A cluster's workers must share the table folder.
        workers: local threads (default: every core).
        on_done: called in this process with ``(key, result)`` as each task finishes; an
            exception it raises stops the run.
        on_stop: called at the end of the run, also an interrupted one, once no task runs
            any more: in this process, or on a cluster in every worker (e.g. to write back
            the chunks a process buffered).
        placement: on a cluster, ``placement(key)`` is the worker (an index into the
            workers sorted by address, modulo their number) that runs task ``key``; without
            it the scheduler places every task (and may keep small ones on one worker).
    """
    if scheduler not in (None, "threads", "synchronous"):
        return _run_distributed(graph, keys, scheduler, on_done, on_stop, placement)
    import dask
    import dask.threaded
    from dask.callbacks import Callback

    def posttask(key: str, result: object, dsk: object, state: object, worker_id: object) -> None:
        if on_done is not None and key in graph:
            on_done(key, result)

    pool = ThreadPoolExecutor(workers or os.cpu_count() or 1)
    try:
        with Callback(posttask=posttask):  # type: ignore[no-untyped-call]  # dask leaves Callback unannotated
            if scheduler == "synchronous":
                dask.get(graph, keys)
            else:
                dask.threaded.get(graph, keys, pool=pool)
    finally:
        pool.shutdown(wait=True)            # after a failure too: no task still writes when on_stop runs
        stopped = [on_stop()] if on_stop is not None else []
    return stopped


def _run_distributed(graph: Mapping[Any, Any], keys: Sequence[Key], scheduler: str | Client,
                     on_done: Callable[[str, object], None] | None,
                     on_stop: Callable[[], Stopped] | None,
                     placement: Callable[[Any], int] | None) -> list[Stopped]:
    # distributed ships py.typed but leaves these calls unannotated: hence the narrow ignores
    from distributed import Client, as_completed

    client = scheduler if isinstance(scheduler, Client) else Client(scheduler)  # type: ignore[no-untyped-call]
    try:
        if placement is None:
            futures = client.get(graph, keys, sync=False)  # type: ignore[no-untyped-call]
        else:
            futures = _submit_placed(client, graph, keys, placement)
        try:
            for future in as_completed(futures):  # type: ignore[no-untyped-call]
                result = future.result()
                if on_done is not None:
                    on_done(future.key, result)
        except BaseException:
            client.cancel(futures)  # type: ignore[no-untyped-call]
            raise
        finally:
            stopped = [value for _, value in sorted(client.run(on_stop).items())] if on_stop is not None else []
    finally:
        if client is not scheduler:
            client.close()  # type: ignore[no-untyped-call]
    return stopped


def _submit_placed(client: Client, graph: Mapping[Any, Any], keys: Sequence[Key],
                   placement: Callable[[Any], int]) -> list[Any]:
    """Submit each task of ``graph`` (``key -> (function, *arguments)``, dependencies as keys,
    also inside lists) to the worker ``placement(key)`` chooses; return the futures of ``keys``."""
    addresses = sorted(client.scheduler_info()["workers"])
    futures: dict[Any, Any] = {}

    def resolve(argument: Any) -> Any:
        if isinstance(argument, list):
            return [resolve(item) for item in argument]
        try:
            known = isinstance(argument, tuple | str) and argument in graph
        except TypeError:                               # a tuple holding something unhashable: not a key
            known = False
        return submit(argument) if known else argument

    def submit(key: Any) -> Any:
        if key not in futures:
            function, *arguments = graph[key]
            futures[key] = client.submit(function, *[resolve(a) for a in arguments], key=key,
                                         workers=[addresses[placement(key) % len(addresses)]], pure=False)
        return futures[key]

    for key in graph:
        submit(key)
    return [futures[key] for key in keys]
