"""The main job, measured: the wall time of ``dicemath report`` from an empty cache and warm,
and each section's time.

Run: ``python benchmarks/bench_report.py`` (it prints a table). Each run is
``sys.executable -m dicemath report --out TMP`` in a fresh process:

- **cold**: every cache empty, as after installing from a fresh clone: ``DICEMATH_CACHE_DIR``,
  ``DICEMATH_BEAROFF_DIR``, ``NUMBA_CACHE_DIR`` and ``XDG_CACHE_HOME`` point into a new
  temporary folder, so each first-use table a section needs is built (the kernels are C,
  compiled at install); the expensive studies are read from the committed data
  (:mod:`dicemath.studies.report_studies`);
- **warm**: the same command again with those caches.

A section's time is the one its ``wrote ...`` line reports (the sections run in parallel
processes, ``--jobs``, so they add up to more than the wall time). ``--record`` writes the
times, the machine and its load to ``dicemath/data/report_times.json``, which the progress
lines of ``dicemath report`` quote as the expected time of each section; run it on idle cores.
``--only SECTION ...`` times some sections (with ``--record``, their times replace those recorded).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TIMES = ROOT / "dicemath" / "data" / "report_times.json"
LINE = re.compile(r"wrote \S+ \((?P<name>\w+)\) in (?P<seconds>[0-9.]+) s")


def machine() -> str:
    """The CPU model and core count (``lscpu``'s model name where available)."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model} ({os.cpu_count()} cores)"


def run(folder: Path, args: list[str]) -> tuple[float, dict[str, float], str]:
    """Run ``dicemath report`` with the caches in ``folder``; wall seconds, section seconds, output."""
    env = {**os.environ, "DICEMATH_CACHE_DIR": str(folder / "cache"), "DICEMATH_BEAROFF_DIR": str(folder / "bearoff"),
           "NUMBA_CACHE_DIR": str(folder / "numba"), "XDG_CACHE_HOME": str(folder / "xdg"),
           "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])}
    out = folder / "reports"
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "dicemath", "report", "--out", str(out), *args], env=env,
                          capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode:
        raise SystemExit(f"dicemath report failed:\n{done.stdout}\n{done.stderr}")
    sections = {}
    for line in done.stdout.splitlines():
        match = LINE.search(line)
        if match:
            sections[match["name"]] = float(match["seconds"])
    return wall, sections, done.stdout


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", nargs="+", metavar="SECTION", help="time these sections only")
    parser.add_argument("--jobs", type=int, default=None, help="dicemath report --jobs (default: one per core)")
    parser.add_argument("--keep", metavar="DIR", help="copy the reports the cold run wrote into DIR")
    parser.add_argument("--record", action="store_true", help=f"write the times to {TIMES.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    extra = (["--only", *args.only] if args.only else []) + ([] if args.jobs is None else ["--jobs", str(args.jobs)])
    load = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="dicemath-bench-report-") as temporary:
        folder = Path(temporary)
        cold_wall, cold, _ = run(folder, extra)
        if args.keep:
            shutil.copytree(folder / "reports", args.keep, dirs_exist_ok=True)
        warm_wall, warm, _ = run(folder, extra)
    print(f"{machine()}; load average before: {', '.join(f'{x:.2f}' for x in load)}")
    print(f"{'section':22} {'cold s':>8} {'warm s':>8}")
    sys.path.insert(0, str(ROOT))
    from dicemath.games.registry import GAMES
    from dicemath.reporting import section_names, sections

    names = section_names(sections(GAMES))
    order = [name for name in names if name in cold]
    for name in order:
        print(f"{name:22} {cold[name]:8.1f} {warm.get(name, float('nan')):8.1f}")
    print(f"{'wall (dicemath report)':22} {cold_wall:8.1f} {warm_wall:8.1f}")
    if args.record:
        old = json.loads(TIMES.read_text(encoding="utf-8")) if TIMES.exists() else {}
        sections = {**(old.get("sections", {}) if args.only else {}),
                    **{name: {"cold": cold[name], "warm": warm.get(name)} for name in order}}
        wall = {"only": args.only or None, "cold": round(cold_wall, 1), "warm": round(warm_wall, 1)}
        record = {"machine": machine(), "loadavg_before": [round(x, 2) for x in load],
                  "jobs": args.jobs or os.cpu_count(), "wall": wall,
                  "sections": {name: sections[name] for name in names if name in sections}}
        TIMES.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        print(f"recorded in {TIMES}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
