"""Positions evaluated per second through dicemath's interface vs ``gnubg.evaluate`` directly,
and self-play games per second.

Run: ``python benchmarks/bench_evaluate.py``. The positions are the recorded self-play
positions (``tests/backgammon/data/selfplay_positions.json``) that need gnubg (contact and
races outside the bear-off). Timed, best of three, CPU seconds (the machine is shared; the
load average is printed):

gnubg's position cache is emptied before each timing (resized to 0 and back to 2**20
entries), so repeats evaluate again, and the methods take turns. Methods:

* direct: ``gnubg.evaluate(board, cube, context)`` on prepared boards;
* ``evaluate_many``: dicemath's batch interface on ``(k, 25)`` arrays (classification of
  every row, the calls, the float64 result array);
* ``evaluate``: one :class:`~dicemath.games.backgammon.position.Position` at a time (an
  :class:`~dicemath.games.backgammon.evaluate.Evaluation` per call);

at 0 and 2 ply, and the overhead ``dicemath / direct - 1`` (target at 0 ply: under 20%).
Then self-play games per second under both presets (0 ply, gnubg's cache warm as in the
study: positions recur between games, the opening above all). Target figures are not
asserted anywhere: this script prints them.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import numpy as np

from dicemath.games.backgammon import gnubg_engine
from dicemath.games.backgammon.evaluate import classify, evaluate, evaluate_many
from dicemath.games.backgammon.position import Position
from dicemath.games.backgammon.rules import PLAYTIVE, STANDARD
from dicemath.studies.backgammon_selfplay import self_play_game

DATA = Path(__file__).resolve().parent.parent / "tests" / "backgammon" / "data" / "selfplay_positions.json"


def _flush_cache() -> None:
    """Empty gnubg's position cache (resize it to 0 and back), quietly."""
    gnubg = gnubg_engine.engine()
    sys.stdout.flush()
    saved, null = os.dup(1), os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)                      # gnubg's commands print on the C-level stdout
    try:
        gnubg.command("set cache 0")
        gnubg.command("set cache 1048576")
    finally:
        os.dup2(saved, 1)
        os.close(saved)
        os.close(null)


def interleaved(methods: dict, repeats: int) -> dict:
    """Best CPU seconds of each method over ``repeats`` rounds (methods interleaved, the
    cache emptied before each call), so that load changes hit all methods alike."""
    best = {name: float("inf") for name in methods}
    for _ in range(repeats):
        for name, function in methods.items():
            _flush_cache()
            start = time.process_time()
            function()
            best[name] = min(best[name], time.process_time() - start)
    return best


def main() -> None:
    gnubg = gnubg_engine.engine("the benchmark")
    positions = [Position.from_position_id(p["position_id"]) for p in json.loads(DATA.read_text())["positions"]]
    on_roll = np.array([p.on_roll for p in positions])
    opponent = np.array([p.opponent for p in positions])
    keep = classify(on_roll, opponent) == 2
    positions = [p for p, k in zip(positions, keep) if k]
    on_roll, opponent = on_roll[keep], opponent[keep]
    boards = [gnubg_engine.board(p) for p in positions]
    cube = gnubg_engine.money_cube_info()
    print(f"{len(positions)} positions evaluated by gnubg; load average {os.getloadavg()}")
    print("(CPU seconds, best of interleaved rounds, gnubg's cache emptied before each)")
    for ply, count, repeats in ((0, len(positions), 15), (2, 30, 3)):
        context = gnubg_engine.eval_context(ply)
        best = interleaved({                      # this round's ply and count bound as defaults
            "direct": lambda context=context, count=count: [gnubg.evaluate(b, cube, context) for b in boards[:count]],
            "evaluate_many": lambda ply=ply, count=count: evaluate_many(STANDARD, on_roll[:count], opponent[:count],
                                                                        ply),
            "evaluate": lambda ply=ply, count=count: [evaluate(STANDARD, p, ply) for p in positions[:count]],
        }, repeats)
        direct = best["direct"]
        print(f"{ply}-ply: direct {count / direct:9,.0f}/s   " + "   ".join(
            f"{name} {count / best[name]:9,.0f}/s ({best[name] / direct - 1:+.0%})"
            for name in ("evaluate_many", "evaluate")))
    for rules in (STANDARD, PLAYTIVE):
        self_play_game(np.random.default_rng(0), rules)                # compile, load tables, warm the cache
        games, start, cpu = 60, time.time(), time.process_time()
        for seed in range(games):
            self_play_game(np.random.default_rng(seed), rules)
        print(f"self-play {rules.name:8s} 0-ply: {games / (time.process_time() - cpu):6.1f} games/s CPU, "
              f"{games / (time.time() - start):6.1f} wall; load {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
