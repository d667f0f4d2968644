"""The Playtive rule (BG-4: at most 5 own checkers on a point) measured by paired self-play.

Three steps, each resumable:

``run``: plays games ``0 .. --games - 1`` in chunks (:func:`dicemath.studies.backgammon_playtive.run_chunk`,
both presets from the same dice) and saves each chunk under ``analyses/data/backgammon_playtive/``;
chunks already there are skipped, so an interrupted run continues and a larger ``--games``
extends a finished one. Prints games per second.

``confirm``: the binding check of ``--positions`` sampled playtive positions at ``--ply``
(default 2), and the opening rolls at 0 and 2 ply.

``summarize``: reads every chunk and the confirmation and writes the findings to
``dicemath/studies/data/playtive_study.json`` (read by the report) and the sampled
standard-game positions to ``tests/backgammon/data/selfplay_positions.json``.

Usage::

    nice -n 10 python analyses/backgammon_playtive.py run --games 20000
    python analyses/backgammon_playtive.py confirm --positions 300
    python analyses/backgammon_playtive.py summarize
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path

import numpy as np

from dicemath.core.progress import progress
from dicemath.studies import backgammon_playtive as playtive

ROOT = Path(__file__).resolve().parent.parent
CHUNKS = ROOT / "analyses" / "data" / "backgammon_playtive"
CONFIRM = CHUNKS / "confirm.json"
POSITIONS = ROOT / "tests" / "backgammon" / "data" / "selfplay_positions.json"


def run(games: int, chunk: int, ply: int) -> None:
    CHUNKS.mkdir(parents=True, exist_ok=True)
    todo = [first for first in range(0, games, chunk)
            if not playtive.chunk_path(CHUNKS, first, min(chunk, games - first), ply).exists()]
    played, started = 0, time.time()
    for first in progress(todo, desc="chunks", unit="chunk"):
        count = min(chunk, games - first)
        arrays = playtive.run_chunk(first, count, ply)
        path = playtive.chunk_path(CHUNKS, first, count, ply)
        temporary = path.with_suffix(".tmp.npz")
        np.savez_compressed(temporary, **arrays)
        os.replace(temporary, path)
        played += count
        elapsed = time.time() - started
        print(f"games {first}..{first + count - 1}: {2 * played / elapsed:.1f} games/s "
              f"(both presets), load {os.getloadavg()[0]:.1f}", flush=True)


def confirm(positions: int, ply: int) -> None:
    data = playtive.load_chunks(CHUNKS, 0)
    samples = [s for s in data["p_sample"] if s][:positions]
    started = time.time()
    found = playtive.confirm_positions(samples, ply)
    found["ply"] = ply
    found["seconds"] = time.time() - started
    found["openings"] = {str(depth): playtive.opening_changes(depth) for depth in (0, ply)}
    CONFIRM.write_text(json.dumps(found, indent=1))
    print(json.dumps({k: v for k, v in found.items() if not isinstance(v, (list, dict))}))


def summarize() -> None:
    data = playtive.load_chunks(CHUNKS, 0)
    findings = {"method": "paired self-play, both sides playing the best legal play by the evaluator "
                          "(gnubg 0-ply nets, exact/race bear-off tables), cubeless money, seed "
                          f"{playtive.SEED}", "ply": 0, **playtive.summarize(data)}
    if CONFIRM.exists():
        findings["confirmation"] = json.loads(CONFIRM.read_text())
    playtive.DATA_FILE.parent.mkdir(parents=True, exist_ok=True)
    playtive.DATA_FILE.write_text(json.dumps(findings, indent=1) + "\n")
    standard = [s.split() for s in data["s_sample"] if s]
    POSITIONS.write_text(json.dumps({
        "about": "one position per game (a random turn 1..40) of the standard self-play games "
                 "0..1999 of analyses/backgammon_playtive.py: position ID (player on roll to move), "
                 "the player, and the roll he played",
        "positions": [{"position_id": pid, "player": int(player), "dice": [int(a), int(b)]}
                      for pid, player, a, b in standard]}, indent=0) + "\n")
    print(f"{findings['games']} games; binds per move {findings['binds_per_move']['value']:.4%}; "
          f"written {playtive.DATA_FILE} and {POSITIONS} ({len(standard)} positions)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    run_parser = commands.add_parser("run")
    run_parser.add_argument("--games", type=int, default=20_000)
    run_parser.add_argument("--chunk", type=int, default=500)
    run_parser.add_argument("--ply", type=int, default=0)
    confirm_parser = commands.add_parser("confirm")
    confirm_parser.add_argument("--positions", type=int, default=300)
    confirm_parser.add_argument("--ply", type=int, default=2)
    commands.add_parser("summarize")
    args = parser.parse_args()
    if args.command == "run":
        run(args.games, args.chunk, args.ply)
    elif args.command == "confirm":
        confirm(args.positions, args.ply)
    else:
        summarize()


if __name__ == "__main__":
    main()
