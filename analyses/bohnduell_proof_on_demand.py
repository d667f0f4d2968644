"""How much of the standard BohnDuell game the proof on demand answers exactly, and how fast.

Plays ``--games`` advisor-played 40-bean games (each side's first move drawn at random, seeded,
then the search advisor of today's chain, ``SearchAdvisor`` at its default depth) and asks the
game's chain of sources (:meth:`BohnDuellGame.advise <dicemath.core.game.Game.advise>`, default
settings: the proof within :data:`~dicemath.games.bohnduell.limits.PROOF_SECONDS` over the table
of :data:`~dicemath.games.bohnduell.limits.PROOF_TABLE_STOCK` beans) for the advice at every
position where the mover has a choice. Per stage of the game (plies 1 to 5, 6 to 15, after 15;
a ply is one player's move) it counts the positions answered exactly, those answered by the
proof, and the seconds of the answers; it also times the first answer of a fresh process: with
the proof's table not yet built (the first use: the table's build, then the advice at the first
position of the first game with a side of 1 to 4 beans above the table) and built (at the first
position the proof answered).

Writes ``analyses/data/bohnduell_proof_on_demand.json``. Usage (minutes of CPU: run it once, late)::

    nice -n 10 python analyses/bohnduell_proof_on_demand.py --games 4 [--cache DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from dicemath.games.bohnduell.game import BOHNDUELL_GAME
from dicemath.games.bohnduell.limits import PROOF_SECONDS, PROOF_TABLE_STOCK
from dicemath.games.bohnduell.proof_record import machine
from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.search import SearchAdvisor
from dicemath.games.bohnduell.state import State, initial_state

OUT = Path(__file__).resolve().parent / "data" / "bohnduell_proof_on_demand.json"

STAGES = (("plies 1-5", 1, 5), ("plies 6-15", 6, 15), ("after ply 15", 16, 10 ** 6))
"""The stages of a game by the ply a position is met at (1: the start)."""

FIRST_ANSWER = """
import time
t = time.perf_counter()
from dicemath.games.bohnduell.game import BOHNDUELL_GAME
advice = BOHNDUELL_GAME.advise(BOHNDUELL_GAME.read_state({position!r}))
print(round(time.perf_counter() - t, 2), advice.exact, advice.source)
"""


def advisor_game(seed: int) -> list[State]:
    """The positions of one advisor-played standard game, the start first, the end left out."""
    rng = random.Random(seed)
    advisor = SearchAdvisor(Rules())
    state, positions = initial_state(Rules()), []
    while not state.is_over():
        positions.append(state)
        moves = state.legal_actions()
        move = rng.choice(moves) if len(positions) <= 2 else moves[0] if len(moves) == 1 else advisor.best_move(state)
        state = state.apply(move)
    return positions


def first_answer(position: str, cache: str) -> dict:
    """The wall seconds of one advice in a fresh process with the cache ``cache``."""
    tic = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", FIRST_ANSWER.format(position=position)], capture_output=True,
                          text=True, env={**os.environ, "DICEMATH_CACHE_DIR": cache}, check=True)
    seconds, exact, source = done.stdout.split(maxsplit=2)
    return {"position": position, "seconds": float(seconds), "process_seconds": round(time.perf_counter() - tic, 2),
            "exact": exact == "True", "source": source.strip(), "notice": done.stderr.strip().splitlines()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--cache", help="a cache folder holding the proof's table already (default: built here)")
    args = parser.parse_args()
    cache = args.cache or tempfile.mkdtemp(prefix="bohnduell-proof-")
    os.environ["DICEMATH_CACHE_DIR"] = cache
    games = [advisor_game(seed) for seed in range(args.games)]
    beyond = next(str(p) for p in games[0] if PROOF_TABLE_STOCK < max(map(sum, p.mover_sides)) <= PROOF_TABLE_STOCK + 4)
    first = {"table not built": None if args.cache is not None else first_answer(beyond, cache)}
    rows = []
    for seed, positions in enumerate(games):
        for ply, state in enumerate(positions, start=1):
            if len(state.legal_actions()) < 2:
                continue
            tic = time.perf_counter()
            advice = BOHNDUELL_GAME.advise(state)
            rows.append({"game": seed, "ply": ply, "position": str(state), "beans": max(map(sum, state.mover_sides)),
                         "exact": advice.exact, "source": advice.source,
                         "seconds": round(time.perf_counter() - tic, 3)})
            print(json.dumps(rows[-1]), flush=True)
    probe = next((r["position"] for r in rows if r["source"] == "proof"), beyond)
    first["table built"] = first_answer(probe, cache)
    stages = {}
    for name, low, high in STAGES:
        mine = [r for r in rows if low <= r["ply"] <= high]
        stages[name] = {"positions": len(mine), "exact": sum(r["exact"] for r in mine),
                        "by_proof": sum(r["source"] == "proof" for r in mine),
                        "exact_share": round(sum(r["exact"] for r in mine) / max(len(mine), 1), 3),
                        "seconds_mean": round(sum(r["seconds"] for r in mine) / max(len(mine), 1), 2),
                        "seconds_max": max((r["seconds"] for r in mine), default=0.0)}
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({
        "description": "Advisor-played standard BohnDuell games (40 beans, capture last): per stage, the positions "
                       "with a choice, those the chain answered exactly and by the proof on demand, and the seconds "
                       "of each answer; the first answer of a fresh process with the proof's table not yet built and "
                       "built. Written by analyses/bohnduell_proof_on_demand.py.",
        "machine": machine(), "python": platform.python_version(), "proof_seconds": PROOF_SECONDS,
        "proof_table_stock": PROOF_TABLE_STOCK, "games": args.games, "stages": stages, "first_answer": first,
        "positions": rows}, indent=1) + "\n")
    print(json.dumps({"stages": stages, "first_answer": first}, indent=1))


if __name__ == "__main__":
    main()
