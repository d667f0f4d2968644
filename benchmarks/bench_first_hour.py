"""A new player's first hour, measured: per game, the time from a fresh process
to the first answer of a typical query, cold and warm; the size and drawing time of the
picture of a typical position; and the latency of one advice request to ``dicemath serve``.

Run: ``python benchmarks/bench_first_hour.py`` (about a minute on two idle cores; it prints
a table). Every measurement runs ``sys.executable -m dicemath ...`` in a fresh process:

- **cold**: every cache empty, as after installing: ``DICEMATH_CACHE_DIR``,
  ``DICEMATH_BEAROFF_DIR``, ``NUMBA_CACHE_DIR`` and ``XDG_CACHE_HOME`` point into a new
  temporary folder (one per game), so each first-use table the query needs is built (the
  kernels are C, compiled when the package is installed);
  **written**: what that run left in the caches;
- **warm**: the same query again, in a new process with those caches;
- **SVG** and **draw**: the picture of the query's position with its advice, as ``--svg``
  and the page draw it (:func:`typical_picture`), drawn in a process of its own with the warm
  caches: its size in bytes and the mean time of one drawing;
- **page first**, **page again**: ``dicemath serve --port 0`` started with the warm caches,
  and the time of the same query posted to ``/api/advise``, the first request of the new
  server and the next one.

``--record-costs`` also writes what each cold run's first-use builds cost (seconds and bytes,
from the cache's notes) to ``dicemath/data/table_costs.json``, which the build notices quote
(:func:`dicemath.core.cache.expected_cost`); run it on idle cores.

The Backgammon play query needs the optional ``gnubg`` package; without it its row says so.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

TIMEOUT = 300
"""Seconds any one process may take before the benchmark gives up on it."""

DRAWINGS = 20
"""Drawings timed per picture (the mean is printed)."""

PEGS_BOARD, PEGS_ROLL = "5,5,5,5,5,5,5,5,5,4,2,0", "6,6,5,5,2,1"
FIVES_BOARD, FIVES_ROLL = "5,5,5,5,5,5,5,5,5,5,3,0", "1,2,3,4,5,6"
BACKGAMMON_START = "4HPwATDgc/ABMA"
HOME, VERSUS = "2,2,0,0,0,0", "0,0,1,1,1,0"


@dataclass(frozen=True)
class Query:
    """A typical first question: the command line and the page's request for it."""

    name: str
    argv: tuple[str, ...]
    request: dict


QUERIES = (
    Query("pegs", ("pegs", "advise", "--board", PEGS_BOARD, "--roll", PEGS_ROLL),
          {"game": "pegs", "board": PEGS_BOARD, "roll": PEGS_ROLL}),
    Query("fives", ("fives", "advise", "--board", FIVES_BOARD, "--roll", FIVES_ROLL),
          {"game": "fives", "board": FIVES_BOARD, "roll": FIVES_ROLL}),
    Query("pitjesbak", ("pitjesbak", "advise", "--my-stripes", "9", "--their-stripes", "9", "--role", "start",
                        "--throw-number", "1", "--current", "6-5-4"),
          {"game": "pitjesbak", "my_stripes": 9, "their_stripes": 9, "role": "start", "throw_number": 1,
           "current": "6-5-4"}),
    Query("backgammon hint", ("backgammon", "hint", BACKGAMMON_START, "3", "1"),
          {"game": "backgammon", "query": "hint", "position": BACKGAMMON_START, "dice": "3,1"}),
    Query("backgammon cube", ("backgammon", "cube", HOME, "--versus", VERSUS),
          {"game": "backgammon", "query": "cube", "position": HOME, "versus": VERSUS}),
    Query("bohnduell", ("bohnduell", "advise", "start"), {"game": "bohnduell", "position": "start"}),
)
"""One typical query per game (two for Backgammon: a play and a cube decision)."""


def typical_picture(name: str) -> tuple:
    """``(draw, state, advice)``: the drawing function, the position of the query ``name``
    and its advice, as ``--svg`` draws them (imports dicemath: run in its own process)."""
    if name in ("pegs", "fives"):
        from dicemath.games.pegs_fives import FIVES, PEGS, advise, choice_state
        from dicemath.games.pegs_fives.drawing import draw

        board, roll = (PEGS_BOARD, PEGS_ROLL) if name == "pegs" else (FIVES_BOARD, FIVES_ROLL)
        state = choice_state(PEGS if name == "pegs" else FIVES, _ints(board), _ints(roll))
    elif name == "pitjesbak":
        from dicemath.games.pitjesbak import advise, initial_state
        from dicemath.games.pitjesbak.drawing import draw

        state = initial_state().apply((6, 5, 4))
    elif name.startswith("backgammon"):
        from dicemath.games.backgammon import advise
        from dicemath.games.backgammon.drawing import draw
        from dicemath.games.backgammon.position import Position
        from dicemath.games.backgammon.state import MAY_DOUBLE, State

        state = (State.from_str(f"{BACKGAMMON_START} X play 3-1 cube 1") if name.endswith("hint") else
                 State(Position.from_home_boards(_ints(HOME), _ints(VERSUS)), phase=MAY_DOUBLE))
    else:
        from dicemath.games.bohnduell import advise, initial_state
        from dicemath.games.bohnduell.drawing import draw

        state = initial_state()
    return draw, state, advise(state)


def _ints(text: str) -> list[int]:
    return [int(part) for part in text.split(",")]


def measure_drawing(name: str) -> dict:
    """The size of the picture of ``name``'s position and the mean time of one drawing."""
    draw, state, advice = typical_picture(name)
    picture = draw(state, advice)
    start = time.perf_counter()
    for _ in range(DRAWINGS):
        draw(state, advice)
    return {"bytes": len(picture.encode()), "seconds": (time.perf_counter() - start) / DRAWINGS}


def cache_env(root: Path) -> dict:
    """The environment of a process whose caches all lie under ``root``."""
    env = dict(os.environ)
    for name, folder in (("DICEMATH_CACHE_DIR", "dicemath"), ("DICEMATH_BEAROFF_DIR", "bearoff"),
                         ("NUMBA_CACHE_DIR", "numba"), ("XDG_CACHE_HOME", "xdg")):
        env[name] = str(root / folder)
    env["DICEMATH_PROGRESS"] = "0"
    return env


def timed_run(argv, env: dict) -> tuple[float, subprocess.CompletedProcess]:
    """Run ``argv`` in a fresh process; its wall time and result."""
    start = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, timeout=TIMEOUT)
    return time.perf_counter() - start, done


def folder_bytes(root: Path) -> int:
    return sum(path.stat().st_size for path in root.rglob("*") if path.is_file())


def size(count: int) -> str:
    """A number of bytes for people: ``"12 kB"``, ``"224.6 MB"``."""
    return f"{count / 1e6:.1f} MB" if count >= 1e6 else f"{count / 1e3:.0f} kB"


def page_latencies(request: dict, env: dict) -> tuple[float, float]:
    """Start ``dicemath serve`` on a free port and time ``request`` twice (the new server's
    first answer, then the next)."""
    server = subprocess.Popen([sys.executable, "-m", "dicemath", "serve", "--port", "0"], env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = server.stdout.readline()                # "dicemath: the advice page is at http://...:PORT/ ..."
        url = next((word for word in line.split() if word.startswith("http://")), None)
        if url is None:
            raise RuntimeError(f"dicemath serve did not start: {line!r}")
        times = []
        for _ in range(2):
            body = urllib.request.Request(url + "api/advise", data=json.dumps(request).encode(),
                                          headers={"Content-Type": "application/json"})
            start = time.perf_counter()
            with urllib.request.urlopen(body, timeout=TIMEOUT) as answer:
                json.load(answer)
            times.append(time.perf_counter() - start)
        return times[0], times[1]
    finally:
        server.send_signal(signal.SIGINT)              # the server stops on Ctrl-C
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def measure(query: Query, costs: dict | None = None) -> list[str]:
    """One row of the table for ``query`` (see the module docstring); with ``costs``, the
    cold run's first-use builds are added to it (:func:`built_tables`)."""
    root = Path(tempfile.mkdtemp(prefix="dicemath-first-hour-"))
    try:
        env = cache_env(root)
        command = [sys.executable, "-m", "dicemath", *query.argv, "--json"]
        cold, done = timed_run(command, env)
        if done.returncode != 0:
            return [query.name, f"failed: {done.stderr.strip().splitlines()[-1]}"]
        written = folder_bytes(root)
        if costs is not None:
            for name, params, cost in built_tables(root / "dicemath"):
                costs.setdefault(name, {})[params] = cost
        warm, _ = timed_run(command, env)
        _, drawn = timed_run([sys.executable, __file__, "--draw", query.name], env)
        if drawn.returncode != 0:
            raise RuntimeError(f"drawing {query.name} failed:\n{drawn.stderr}")
        picture = json.loads(drawn.stdout)
        first, again = page_latencies(query.request, env)
        return [query.name, f"{cold:.1f}", f"{warm:.1f}", size(written), f"{picture['bytes']:,}",
                f"{1000 * picture['seconds']:.1f}", f"{1000 * first:.0f}", f"{1000 * again:.0f}"]
    finally:
        shutil.rmtree(root, ignore_errors=True)


def built_tables(folder: Path) -> list[tuple[str, str, dict]]:
    """``(name, params, {"seconds", "bytes"})`` of each table a cold run built, from the
    cache's own notes (``index.json``, :mod:`dicemath.core.cache`)."""
    try:
        index = json.loads((folder / "index.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    return [(note["name"], note["params"], {"seconds": note["seconds"], "bytes": note["bytes"]})
            for note in index.values() if "bytes" in note]


def cpu() -> str:
    """The processor's model name and the number of cores."""
    try:
        lines = Path("/proc/cpuinfo").read_text().splitlines()
        name = next(line.split(":", 1)[1].strip() for line in lines if line.startswith("model name"))
    except (OSError, StopIteration):
        name = platform.processor() or platform.machine()
    return f"{name}, {os.cpu_count()} cores"


def table(headers: list[str], rows: list[list[str]]) -> str:
    width = [max(len(row[i]) if i < len(row) else 0 for row in [headers, *rows]) for i in range(len(headers))]
    lines = ["  ".join(cell.rjust(w) if i else cell.ljust(w) for i, (cell, w) in enumerate(zip(row, width)))
             for row in [headers, *rows]]
    lines.insert(1, "  ".join("-" * w for w in width))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--draw", metavar="QUERY", choices=[q.name for q in QUERIES],
                        help=argparse.SUPPRESS)              # one picture's measurement, as JSON (internal)
    parser.add_argument("--only", nargs="+", metavar="QUERY", choices=[q.name for q in QUERIES],
                        help="measure only these queries")
    parser.add_argument("--record-costs", action="store_true",
                        help="write what the cold runs' first-use builds cost to the package's table_costs.json, "
                        "which the build notices quote")
    args = parser.parse_args()
    if args.draw:
        print(json.dumps(measure_drawing(args.draw)))
        return
    start = time.perf_counter()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"CPU: {cpu()}; load average {load:.1f} at the start; Python {platform.python_version()}", flush=True)
    rows, costs = [], {} if args.record_costs else None
    for query in QUERIES:
        if args.only and query.name not in args.only:
            continue
        rows.append(measure(query, costs))
        print(f"  measured {query.name}: `dicemath {' '.join(query.argv)}`", flush=True)
    print(table(["query", "cold s", "warm s", "written", "SVG bytes", "draw ms", "page first ms", "page again ms"],
                rows))
    print(f"({time.perf_counter() - start:.0f} s in all; cold: empty caches; page: `dicemath serve`, warm caches)")
    if costs is not None:
        from dicemath.core.cache import COSTS

        machine = cpu().split(",")[0]
        COSTS.write_text(json.dumps({"machine": machine_words(machine), "tables": costs},
                                    indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"recorded {sum(map(len, costs.values()))} first-use builds in {COSTS}")



def machine_words(machine: str) -> str:
    """``machine`` (a CPU's name) as the first-use notices name it: ``"an AMD EPYC (2 cores)"``."""
    article = "an" if machine[:1].upper() in "AEIOU" else "a"
    return f"{article} {machine} ({os.cpu_count()} cores)"

if __name__ == "__main__":
    main()
