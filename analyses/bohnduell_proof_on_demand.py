"""How much of the standard BohnDuell game the proof on demand answers exactly, and how fast.

Plays ``--games`` advisor-played and ``--games`` random 40-bean games and asks the game's chain
of sources (:meth:`BohnDuellGame.advise <dicemath.core.game.Game.advise>`, default settings: the
proof within :data:`~dicemath.games.bohnduell.limits.PROOF_SECONDS` over the strong table of
:data:`~dicemath.games.bohnduell.limits.PROOF_TABLE_STOCK` beans, its transposition table
kept from position to position) for the advice at every position where the mover has a
choice, in the order of play, one game after the other in one process. An advisor-played game
draws each side's first move at random (seeded), then follows the search advisor of the chain
(``SearchAdvisor`` at its default depth); a random game draws every move (seeded).

Per kind of game and stage (plies 1 to 5, 6 to 15, 16 to 19, 20 and after; a ply is one
player's move, 1 the start) it counts the positions answered exactly and by the proof, the
seconds of the answers, and the seconds of the proofs tried (mean, most). It also times the
first answer of a fresh process with the proof's table built, and with ``--first-use`` in an
empty cache (the table's build, then the same advice), at the first position of the first
advisor-played game with no side more than 4 beans above the table; and with ``--cold PLY`` at
that ply of every game (a command's answer: no proof before it in its process).

Writes ``analyses/data/bohnduell_proof_on_demand.json`` after each game (the games' kinds
alternate, so that a run cut short holds both). Usage (the proofs take up to their
time limit each, the first use minutes of both cores: run it late, niced)::

    nice -n 10 python analyses/bohnduell_proof_on_demand.py --games 2 [--cache DIR] [--first-use]
    python analyses/bohnduell_proof_on_demand.py --summarise [--first-use] [--cold 20] [--cache DIR]
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
from dicemath.games.bohnduell.proof_source import PROOF_REACH, proof_table, prove_position
from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.search import SearchAdvisor
from dicemath.games.bohnduell.state import State, initial_state

OUT = Path(__file__).resolve().parent / "data" / "bohnduell_proof_on_demand.json"

STAGES = (("plies 1-5", 1, 5), ("plies 6-15", 6, 15), ("plies 16-19", 16, 19), ("ply 20 on", 20, 10 ** 6))
"""The stages of a game by the ply a position is met at (1: the start)."""

FIRST_ANSWER = """
import time
t = time.perf_counter()
from dicemath.games.bohnduell.game import BOHNDUELL_GAME
advice = BOHNDUELL_GAME.advise(BOHNDUELL_GAME.read_state({position!r}))
print(round(time.perf_counter() - t, 2), advice.exact, advice.source)
"""


def played_game(seed: int, kind: str) -> list[State]:
    """The positions of one standard game (``kind`` "advisor" or "random"), the start first,
    the end left out."""
    rng = random.Random(seed)
    advisor = SearchAdvisor(Rules())
    state, positions = initial_state(Rules()), []
    while not state.is_over():
        positions.append(state)
        moves = state.legal_actions()
        if kind == "random" or len(positions) <= 2 or len(moves) == 1:
            move = rng.choice(moves)
        else:
            move = advisor.best_move(state)
        state = state.apply(move)
    return positions


def load() -> float:
    """The one-minute load average now."""
    return round(os.getloadavg()[0], 2)


def summary(rows: list[dict]) -> dict:
    """Per stage: positions, exact, by the proof, the share exact, the answers' seconds, and the
    seconds of the proofs the chain tried (those it answered with, and those before an estimate)."""
    stages = {}
    for name, low, high in STAGES:
        mine = [r for r in rows if low <= r["ply"] <= high]
        tried = [r["proof_seconds"] for r in mine if r["source"] == "proof"
                 or (r["source"].startswith("search") and r["proof_seconds"] is not None)]
        stages[name] = {"positions": len(mine), "exact": sum(r["exact"] for r in mine),
                        "by_proof": sum(r["source"] == "proof" for r in mine),
                        "exact_share": round(sum(r["exact"] for r in mine) / max(len(mine), 1), 3),
                        "seconds_mean": round(sum(r["seconds"] for r in mine) / max(len(mine), 1), 2),
                        "seconds_max": max((r["seconds"] for r in mine), default=0.0),
                        "proofs_tried": len(tried),
                        "proof_seconds_mean": round(sum(tried) / max(len(tried), 1), 2),
                        "proof_seconds_max": round(max(tried, default=0.0), 2)}
    return stages


def first_answer(position: str, cache: str) -> dict:
    """The wall seconds of one advice in a fresh process with the cache ``cache``."""
    tic = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", FIRST_ANSWER.format(position=position)], capture_output=True,
                          text=True, env={**os.environ, "DICEMATH_CACHE_DIR": cache}, check=True)
    seconds, exact, source = done.stdout.split(maxsplit=2)
    return {"position": position, "seconds": float(seconds), "process_seconds": round(time.perf_counter() - tic, 2),
            "exact": exact == "True", "source": source.strip(), "notice": done.stderr.strip().splitlines()}


def write(args: argparse.Namespace, rows: list[dict], first: dict) -> dict:
    """Write the data file from the positions measured so far; returns the stages."""
    stages = {kind: summary([r for r in rows if r["kind"] == kind]) for kind in ("advisor", "random")}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({
        "description": "Standard BohnDuell games (40 beans, capture last), advisor-played and random: per kind and "
                       "stage, the positions with a choice, those the chain answered exactly and by the proof on "
                       "demand, the seconds of each answer and of each proof tried (one process, the proofs' "
                       "transposition table kept from position to position and game to game); the first answer of "
                       "a fresh process with the proof's table built and, when measured, not built. Written by "
                       "analyses/bohnduell_proof_on_demand.py.",
        "machine": machine(), "python": platform.python_version(), "proof_seconds": PROOF_SECONDS,
        "proof_table_stock": PROOF_TABLE_STOCK, "table_stock_used": args.table_used,
        "proof_reach": PROOF_REACH, "games_of_each_kind": args.games,
        "games_played": sorted({(r["kind"], r["game"]) for r in rows}),
        "load_mean": round(sum(r["load"] for r in rows) / max(len(rows), 1), 2), "stages": stages,
        "first_answer": first, "positions": rows}, indent=1) + "\n")
    return stages


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="games of each kind")
    parser.add_argument("--cache", help="a cache folder holding the proof's table already (default: built here)")
    parser.add_argument("--first-use", action="store_true", help="time the first answer in an empty cache too")
    parser.add_argument("--out", type=Path, default=OUT, help=f"the data file (default {OUT.name} in analyses/data)")
    parser.add_argument("--cold", type=int, help="with --summarise: time a fresh process's first answer at this "
                                                 "ply of every game (no proof before it in the process)")
    parser.add_argument("--summarise", action="store_true",
                        help="only recompute the stages of the data file from its positions (with --first-use: "
                             "and time the first use)")
    args = parser.parse_args()
    cache = args.cache or tempfile.mkdtemp(prefix="bohnduell-proof-")
    if args.summarise:
        data = json.loads(args.out.read_text())
        args.games, first = data["games_of_each_kind"], data["first_answer"]
        args.table_used = data.get("table_stock_used", data["proof_table_stock"])
        if args.first_use:
            first["table not built"] = first_answer(first["table built"]["position"],
                                                    tempfile.mkdtemp(prefix="bohnduell-first-use-"))
        if args.cold:
            at: dict[tuple[str, int], str] = {}
            for r in data["positions"]:
                if r["ply"] >= args.cold:
                    at.setdefault((r["kind"], r["game"]), r["position"])
            first[f"table built, at ply {args.cold}"] = [first_answer(position, cache) for position in at.values()]
        print(json.dumps({"stages": write(args, data["positions"], first), "first_answer": first}, indent=1))
        return
    os.environ["DICEMATH_CACHE_DIR"] = cache
    table = proof_table(Rules(), PROOF_TABLE_STOCK)        # a larger finished one in the cache serves instead
    args.table_used = table.stock if table is not None else 0
    games = {(kind, seed): played_game(seed, kind) for seed in range(args.games) for kind in ("advisor", "random")}
    probe = next(str(p) for p in games["advisor", 0] if max(map(sum, p.mover_sides)) <= PROOF_TABLE_STOCK + 4)
    first = {"table not built": first_answer(probe, tempfile.mkdtemp(prefix="bohnduell-first-use-"))
             if args.first_use else None,
             "table built": first_answer(probe, cache)}
    print(json.dumps(first), flush=True)
    rows: list[dict] = []
    for (kind, seed), positions in games.items():         # the kinds alternate: a run cut short has both
        for ply, state in enumerate(positions, start=1):
            if len(state.legal_actions()) < 2:
                continue
            before = load()
            tic = time.perf_counter()
            advice = BOHNDUELL_GAME.advise(state)
            seconds = time.perf_counter() - tic
            proof = prove_position(state)
            rows.append({"kind": kind, "game": seed, "ply": ply, "position": str(state),
                         "beans": max(map(sum, state.mover_sides)), "exact": advice.exact,
                         "source": advice.source, "seconds": round(seconds, 3),
                         "proof_seconds": round(proof.seconds, 3) if proof.tried else None,
                         "proof_nodes": proof.nodes, "load": before})
            print(json.dumps(rows[-1]), flush=True)
        stages = write(args, rows, first)
    print(json.dumps({"stages": stages, "first_answer": first}, indent=1))


if __name__ == "__main__":
    main()
