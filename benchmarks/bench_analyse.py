"""Benchmark ``dicemath analyse``: decisions analysed per second and seconds per whole game.

Analyses the seeded whole-game records of ``dicemath/data/records/`` (written by
``analyses/analyse_records.py``), game by game, through the registry's games as
``dicemath analyse`` does. The analysis keeps nothing between records; what the games keep in
the process (solutions, loaded tables) stays, so a game's time is that of one ``dicemath
analyse`` call once the game's tables are loaded, except the first game of each kind, which
also loads them (reported apart as ``first``). The issue's target: a whole game in under 1 s for Pegs, Fives,
Pitjesbak and BohnDuell with its default search (depth 6, 12-bean tables). Timings taken
while the machine is busy are larger; the CPU seconds of the process and the load average
are printed beside them. Run::

    python benchmarks/bench_analyse.py
    python benchmarks/bench_analyse.py --games pegs fives --json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from dataclasses import replace
from pathlib import Path

RECORDS = Path(__file__).resolve().parent.parent / "dicemath" / "data" / "records"


def measure(game: str, settings: dict | None = None) -> dict:
    from dicemath.analysis import analyse, read_record
    from dicemath.games.registry import GAMES

    paths = sorted(RECORDS.glob(f"{game}-*.json"))
    if not paths:
        raise SystemExit(f"no records of {game} in {RECORDS}: run analyses/analyse_records.py")
    seconds, cpu, decisions, entries = [], [], 0, 0
    first = None
    for path in paths:
        record = read_record(path)
        if settings:
            record = replace(record, settings={**record.settings, **settings})
        tic, tic_cpu = time.perf_counter(), time.process_time()
        analysis = analyse(record, GAMES)
        elapsed, elapsed_cpu = time.perf_counter() - tic, time.process_time() - tic_cpu
        if first is None:
            first = elapsed
            continue
        seconds.append(elapsed)
        cpu.append(elapsed_cpu)
        decisions += len(analysis.decisions)
        entries += len(record.moves)
    total = sum(seconds)
    label = game + "".join(f" {k}={v}" for k, v in (settings or {}).items())
    return {"game": label, "games": len(seconds), "first_seconds": first, "decisions": decisions,
            "entries": entries, "decisions_per_second": decisions / total, "entries_per_second": entries / total,
            "mean_seconds_per_game": statistics.mean(seconds), "max_seconds_per_game": max(seconds),
            "mean_cpu_seconds_per_game": statistics.mean(cpu), "max_cpu_seconds_per_game": max(cpu),
            "load": os.getloadavg()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", nargs="+", default=["pegs", "fives", "pitjesbak", "bohnduell", "backgammon"])
    parser.add_argument("--bohnduell-depths", type=int, nargs="*", default=[4],
                        help="also measure BohnDuell at these search depths (default 4)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = [measure(game) for game in args.games]
    if "bohnduell" in args.games:
        rows += [measure("bohnduell", {"depth": depth}) for depth in args.bohnduell_depths]
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{'game':<19}{'games':>6}{'first s':>9}{'decisions/s':>13}{'entries/s':>11}{'mean s/game':>13}"
          f"{'max s/game':>12}{'mean cpu s':>12}{'max cpu s':>11}  load")
    for r in rows:
        print(f"{r['game']:<19}{r['games']:>6}{r['first_seconds']:>9.2f}{r['decisions_per_second']:>13.1f}"
              f"{r['entries_per_second']:>11.1f}{r['mean_seconds_per_game']:>13.3f}{r['max_seconds_per_game']:>12.3f}"
              f"{r['mean_cpu_seconds_per_game']:>12.3f}{r['max_cpu_seconds_per_game']:>11.3f}  {r['load'][0]:.2f}")


if __name__ == "__main__":
    main()
