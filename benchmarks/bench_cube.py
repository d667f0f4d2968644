"""Building the 6x6 cubeful bear-off tables vs GNU Backgammon's ``makebearoff -t 6x6``.

Run: ``python benchmarks/bench_cube.py``. Times our exact DP (the C kernel, and the numpy
twin) over all 924 x 924 positions and three cube states, and, if
GNU Backgammon is installed, ``makebearoff -t 6x6`` writing the same database (cubeless and
three cubeful equities). Prints both and the ratio; also the largest difference between the
two databases.
"""

from __future__ import annotations

import resource
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np

from dicemath.games.backgammon.bearoff import move_table
from dicemath.games.backgammon.cubeful_bearoff import (
    CubefulBearoffTable,
    build_cubeful_arrays,
    gnubg_columns,
    read_gnubg_two_sided,
)


def best_of(function, repeats: int) -> tuple[float, float, object]:
    """Best wall-clock and CPU seconds of ``repeats`` calls, and the last result."""
    walls, cpus, result = [], [], None
    for _ in range(repeats):
        start, cpu = time.perf_counter(), time.process_time()
        result = function()
        walls.append(time.perf_counter() - start)
        cpus.append(time.process_time() - cpu)
    return min(walls), min(cpus), result


def main() -> None:
    move_table()                      # the move table (bearoff.py) is not part of the timing
    build_cubeful_arrays(2)           # a first build (the C kernel is compiled at install)
    ours, ours_cpu, arrays = best_of(lambda: build_cubeful_arrays(6), 3)
    plain, plain_cpu, _ = best_of(lambda: build_cubeful_arrays(6, compiled=False), 1)
    capped, capped_cpu, _ = best_of(lambda: build_cubeful_arrays(6, max_cube=64), 1)
    print("(wall-clock / CPU seconds; on a shared machine the CPU time is the fair figure)")
    print(f"dicemath cubeful 6x6 (C, 3 cube states + cubeless):       {ours:6.2f} / {ours_cpu:6.2f} s")
    print(f"dicemath cubeful 6x6 (numpy twin):                        {plain:6.2f} / {plain_cpu:6.2f} s")
    print(f"dicemath cubeful 6x6 (C, BG-8 cap 64, 7 cube levels):     {capped:6.2f} / {capped_cpu:6.2f} s")
    makebearoff = shutil.which("makebearoff") or "/usr/games/makebearoff"
    if not Path(makebearoff).exists():
        print("makebearoff not installed: no comparison")
        return
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bo6x6.bd"
        start = time.perf_counter()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([makebearoff, "-t", "6x6", "-f", str(path)], check=True, capture_output=True)
        gnubg_time = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        gnubg_cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        gnubg = read_gnubg_two_sided(path)
    table = CubefulBearoffTable(6, arrays["no_double"], arrays["optimal"], arrays["action"],
                                arrays["cubeless"])
    diff = np.abs(gnubg_columns(table) - gnubg)
    print(f"makebearoff -t 6x6:                                       {gnubg_time:6.2f} / {gnubg_cpu:6.2f} s")
    print(f"ratio makebearoff / dicemath (C): {gnubg_time / ours:.1f}x wall-clock, "
          f"{gnubg_cpu / ours_cpu:.1f}x CPU")
    names = ["cubeless", "owned", "centred", "opponent owns"]
    print("max |dicemath - gnubg|: " + ", ".join(
        f"{name} {diff[..., k].max():.2e}" for k, name in enumerate(names)))


if __name__ == "__main__":
    main()
