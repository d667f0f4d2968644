"""Benchmark: what a player's query pays to read one value of a big table on disk.

Run ``python benchmarks/bench_table_store.py [--boards 50000000] [--lookups 20000]``.

It writes ``--boards`` random float32 values (one value per board, chunk by chunk) three
times in a temporary folder (``--dir`` chooses its parent; deleted at the end unless
``--keep``):

* the ``.npy`` memory map of :class:`dicemath.core.table_store.TableStore` (built through
  ``create`` / ``array(writable=True)`` / ``mark_done`` / ``record_run``, opened with
  ``TableStore.open`` + ``array``);
* a zarr 2 array of the same values in chunks of 1,048,576 values, uncompressed;
* the same zarr array with zarr's default compressor (Blosc).

For each it prints: the open time (the first open after the files' pages were dropped from
the page cache with ``posix_fadvise(DONTNEED)``, and the median of 20 reopenings); the
latency of one random-index lookup ``table[i]`` over ``--lookups`` random indices, on the
first pass (cold-ish: the kernel may still hold some pages, and a chunk read once is cached
for the lookups after it) and on a second pass over the same indices (warm), median and
99th percentile in microseconds; a batch of ``--batch`` random indices at once (median of 5
batches, ms: fancy indexing for the memory map, ``get_coordinate_selection`` for zarr); and
the bytes the table takes on disk (allocated blocks). Beside the wall times it prints the
process CPU time of the warm pass per lookup and of a batch, which a busy machine does not
inflate (a wall time of milliseconds is preempted there; one under a microsecond rarely is).

Random float32 values barely compress; a real table (probabilities with structure)
compresses better, which changes the disk column but hardly the per-lookup decode cost.
The machine may be shared: ``os.getloadavg()`` is printed beside the results.
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import platform
import shutil
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from dicemath.core.table_store import TableStore

ZARR_CHUNK = 1_048_576
"""Values per zarr chunk (and per chunk of the store's build)."""

REOPENS = 20
BATCHES = 5


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.lower().startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def disk_bytes(folder: Path) -> int:
    """Allocated bytes of every file under ``folder``."""
    return sum(path.stat().st_blocks * 512 for path in folder.rglob("*") if path.is_file())


def evict(folder: Path) -> None:
    """Write back and drop the page-cache pages of every file under ``folder`` (only those)."""
    for path in folder.rglob("*"):
        if path.is_file():
            handle = os.open(path, os.O_RDONLY)
            try:
                os.fsync(handle)
                if hasattr(os, "posix_fadvise"):
                    os.posix_fadvise(handle, 0, 0, os.POSIX_FADV_DONTNEED)
            finally:
                os.close(handle)


def chunk_values(chunk: int, boards: int, seed: int) -> np.ndarray:
    """The values of chunk ``chunk`` (deterministic: the same for every format)."""
    start, stop = chunk * ZARR_CHUNK, min((chunk + 1) * ZARR_CHUNK, boards)
    return np.random.default_rng([seed, chunk]).random(stop - start, dtype=np.float32)


def write_store(folder: Path, boards: int, seed: int) -> None:
    chunks = math.ceil(boards / ZARR_CHUNK)
    spec = {"benchmark": "table_store", "boards": boards, "seed": seed}
    store = TableStore.create(folder, "bench", spec, {"values": ("float32", (boards,))}, chunks)
    values = store.array("values", writable=True)
    start = time.perf_counter()
    for chunk in range(chunks):
        block = chunk_values(chunk, boards, seed)
        values[chunk * ZARR_CHUNK: chunk * ZARR_CHUNK + block.size] = block
        TableStore.flush(values, chunk * ZARR_CHUNK, chunk * ZARR_CHUNK + block.size)
        store.mark_done(chunk)
    del values
    store.record_run(time.perf_counter() - start, chunks)


def write_zarr(zarr, folder: Path, boards: int, seed: int, compressed: bool):
    options = {} if compressed else {"compressor": None}          # no argument: zarr's default (Blosc)
    array = zarr.open_array(str(folder), mode="w", shape=(boards,), chunks=(ZARR_CHUNK,), dtype="f4", **options)
    for chunk in range(math.ceil(boards / ZARR_CHUNK)):
        block = chunk_values(chunk, boards, seed)
        array[chunk * ZARR_CHUNK: chunk * ZARR_CHUNK + block.size] = block
    return array.compressor


def lookup_latencies(table, indices: list[int]) -> tuple[np.ndarray, float, list]:
    """Wall nanoseconds of ``table[i]`` for each index, the CPU nanoseconds of the pass (this
    process, every thread), and the values read."""
    clock = time.perf_counter_ns
    times, values = [], []
    cpu = time.process_time_ns()
    for index in indices:
        start = clock()
        value = table[index]
        times.append(clock() - start)
        values.append(value)
    return np.array(times, dtype=np.float64), time.process_time_ns() - cpu, values


def timer_overhead() -> float:
    clock = time.perf_counter_ns
    samples = []
    for _ in range(10_000):
        start = clock()
        samples.append(clock() - start)
    return float(np.median(samples))


def measure(name: str, folder: Path, opener, batch_read, indices: list[int], batch: int, seed: int,
            reference: np.ndarray | None) -> dict:
    evict(folder)
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        table = opener()
        first_open = time.perf_counter() - start
        cold, cold_cpu, cold_values = lookup_latencies(table, indices)
        warm, warm_cpu, warm_values = lookup_latencies(table, indices)
        rng = np.random.default_rng(seed + 1)
        batch_times, batch_cpu = [], []
        for _ in range(BATCHES):
            chosen = rng.integers(0, table.shape[0], batch)
            cpu, start = time.process_time(), time.perf_counter()
            read = batch_read(table, chosen)
            batch_times.append(time.perf_counter() - start)
            batch_cpu.append(time.process_time() - cpu)
            if reference is not None:                                # the same values in every format
                np.testing.assert_array_equal(read, reference[chosen])
        reopen_times = []
        for _ in range(REOPENS):
            start = time.perf_counter()
            opener()
            reopen_times.append(time.perf_counter() - start)
    finally:
        gc.enable()
    assert [float(v) for v in cold_values] == [float(v) for v in warm_values]
    return {"name": name, "open_first_ms": first_open * 1e3, "open_ms": statistics.median(reopen_times) * 1e3,
            "cold_p50": np.percentile(cold, 50) / 1e3, "cold_p99": np.percentile(cold, 99) / 1e3,
            "warm_p50": np.percentile(warm, 50) / 1e3, "warm_p99": np.percentile(warm, 99) / 1e3,
            "warm_cpu": warm_cpu / len(indices) / 1e3, "batch_ms": statistics.median(batch_times) * 1e3,
            "batch_cpu_ms": statistics.median(batch_cpu) * 1e3, "disk": disk_bytes(folder),
            "values": np.array([float(v) for v in warm_values], dtype=np.float32)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=50_000_000, help="float32 values in the table")
    parser.add_argument("--lookups", type=int, default=20_000, help="single random-index lookups per pass")
    parser.add_argument("--batch", type=int, default=10_000, help="random indices per batch lookup")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--dir", type=Path, default=None, help="parent of the temporary folder (default: system temp)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    args = parser.parse_args()

    try:
        import zarr
    except ImportError:
        zarr = None
    print(f"CPU: {cpu_model()} ({os.cpu_count()} logical cores); Python {platform.python_version()}, "
          f"numpy {np.__version__}, zarr {zarr.__version__ if zarr else 'not installed'}")
    print(f"{args.boards:,} float32 values ({args.boards * 4 / 2**20:,.0f} MiB), {args.lookups:,} single lookups "
          f"per pass, batches of {args.batch:,}; timer overhead {timer_overhead():.0f} ns (included below); "
          f"load average {os.getloadavg()[0]:.2f}")

    if args.dir is not None:
        args.dir.mkdir(parents=True, exist_ok=True)
    root = Path(tempfile.mkdtemp(prefix="bench_table_store_", dir=args.dir))
    try:
        indices = np.random.default_rng(args.seed).integers(0, args.boards, args.lookups).tolist()
        results = []

        start = time.perf_counter()
        write_store(root / "npy", args.boards, args.seed)
        print(f"wrote the .npy store in {time.perf_counter() - start:.1f} s")

        def open_store():
            return TableStore.open(root / "npy", "bench").array("values")

        results.append(measure("npy memmap (TableStore.array)", root / "npy", open_store,
                               lambda table, chosen: table[chosen], indices, args.batch, args.seed, None))
        reference = np.load(root / "npy" / "values.npy")             # a copy in memory, not a map

        if zarr is None:
            print("zarr is not importable: skipping the zarr rows")
        else:
            for compressed in (False, True):
                folder = root / ("zarr_blosc" if compressed else "zarr_raw")
                start = time.perf_counter()
                compressor = write_zarr(zarr, folder, args.boards, args.seed, compressed)
                print(f"wrote zarr ({compressor}) in {time.perf_counter() - start:.1f} s")
                label = "zarr, Blosc (default)" if compressed else "zarr, uncompressed"
                results.append(measure(label, folder, lambda f=folder: zarr.open_array(str(f), mode="r"),
                                       lambda table, chosen: table.get_coordinate_selection(chosen),
                                       indices, args.batch, args.seed, reference))
                np.testing.assert_array_equal(results[-1]["values"], results[0]["values"])

        print()
        header = (f"{'format':<30} {'open ms':>15} {'cold p50 µs':>12} {'cold p99 µs':>12} {'warm p50 µs':>12} "
                  f"{'warm p99 µs':>12} {'warm CPU µs':>12} {f'batch {args.batch:,} ms':>16} {'batch CPU ms':>13} "
                  f"{'disk MiB':>9}")
        print(header)
        print("-" * len(header))
        for row in results:
            opened = f"{row['open_first_ms']:.2f} / {row['open_ms']:.2f}"
            print(f"{row['name']:<30} {opened:>15} {row['cold_p50']:>12.2f} {row['cold_p99']:>12.2f} "
                  f"{row['warm_p50']:>12.2f} {row['warm_p99']:>12.2f} {row['warm_cpu']:>12.2f} "
                  f"{row['batch_ms']:>16.2f} {row['batch_cpu_ms']:>13.2f} {row['disk'] / 2**20:>9.1f}")
        print("open ms: first open after dropping the files' cached pages / median of "
              f"{REOPENS} reopenings; cold = first pass over the indices, warm = second pass; "
              "CPU = process CPU time (all threads), mean per lookup / median per batch: "
              "unlike wall time, it does not count waiting for a busy CPU.")
        print(f"load average after: {os.getloadavg()[0]:.2f}")
    finally:
        if args.keep:
            print(f"kept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
