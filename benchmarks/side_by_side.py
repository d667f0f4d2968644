"""Run one measurement in this checkout and in an earlier revision, each in a fresh process with
empty caches, and print the figures side by side.

A benchmark writes its measurement as a snippet of Python that prints one JSON object of
figures on its last line of output; :func:`compare` runs the snippet in both trees (the earlier
one from a temporary ``git worktree``, its C extensions built in place as an install does) with
their own empty ``DICEMATH_CACHE_DIR`` and ``NUMBA_CACHE_DIR``, adds the process's wall time,
CPU time and peak resident memory, and prints a table with the ratio ``this / previous``.

Example (the cold start and one solve of a kernel)::

    from side_by_side import compare
    compare("import json, time; t = time.perf_counter(); ...; print(json.dumps({'solve_s': ...}))")
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

PREVIOUS = "3ccf0bf"
"""The last revision whose kernels (all but Pegs') are numba's."""

HERE = Path(__file__).resolve().parent.parent

_RUNNER = """
import json, resource, sys, time
wall, cpu = time.perf_counter(), time.process_time()
sys.argv = ["snippet"]
exec(compile(open({path!r}).read(), "snippet", "exec"), {{"__name__": "__main__"}})
try:        # this process's own peak (Linux); ru_maxrss keeps the launching process's peak across exec
    peak = next(int(line.split()[1]) for line in open("/proc/self/status") if line.startswith("VmHWM:")) / 1024
except (OSError, StopIteration):
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({{"process_wall_s": time.perf_counter() - wall, "process_cpu_s": time.process_time() - cpu,
                  "peak_rss_mib": peak}}))
"""


def figures(snippet: str, tree: Path) -> dict[str, float]:
    """The figures ``snippet`` prints, run in a fresh process on the checkout ``tree`` with
    empty caches, plus ``process_wall_s``, ``process_cpu_s`` and ``peak_rss_mib``."""
    with tempfile.TemporaryDirectory() as scratch:
        script = Path(scratch) / "snippet.py"
        script.write_text(snippet)
        env = {**os.environ, "PYTHONPATH": str(tree), "NUMBA_CACHE_DIR": f"{scratch}/numba",
               "DICEMATH_CACHE_DIR": f"{scratch}/dicemath", "DICEMATH_PROGRESS": "0"}
        run = subprocess.run([sys.executable, "-c", _RUNNER.format(path=str(script))], env=env, cwd=scratch,
                             capture_output=True, text=True)
        if run.returncode:
            raise RuntimeError(f"the snippet failed in {tree}:\n{run.stderr[-3000:]}")
        lines = [line for line in run.stdout.splitlines() if line.startswith("{")]
        return {**json.loads(lines[-2]), **json.loads(lines[-1])}


def build_in_place(tree: Path) -> None:
    """Compile ``tree``'s C extensions in place (as ``pip install -e`` does)."""
    if (tree / "setup.py").exists():
        subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=tree, check=True,
                       capture_output=True)


def compare(snippet: str, previous: str = PREVIOUS, title: str = "") -> dict[str, dict[str, float]]:
    """Run ``snippet`` on this checkout and on revision ``previous``; print and return the
    figures (``{"this checkout": ..., previous: ...}``)."""
    with tempfile.TemporaryDirectory() as folder:
        old = Path(folder) / "previous"
        subprocess.run(["git", "worktree", "add", "--detach", str(old), previous], cwd=HERE, check=True,
                       capture_output=True)
        try:
            build_in_place(old)
            both = {"this checkout": figures(snippet, HERE), previous: figures(snippet, old)}
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(old)], cwd=HERE, check=True)
    print_table(both, title)
    return both


def print_table(both: dict[str, dict[str, float]], title: str = "") -> None:
    """Print the figures of two runs side by side with the ratio first / second."""
    (a_name, a), (b_name, b) = both.items()
    load = "load %.1f %.1f %.1f" % os.getloadavg()
    print(f"{title}  this checkout vs {b_name} (fresh processes, empty caches)  [{load}]")
    print(f"  {'figure':36s}{'this checkout':>16s}{b_name:>16s}{'ratio':>9s}")
    for key in a:
        if key in b:
            ratio = f"{a[key] / b[key]:8.2f}x" if b[key] else "       -"
            print(f"  {key:36s}{a[key]:16.4g}{b[key]:16.4g}{ratio}")
