"""Seeded games between policies for every game, written as records to ``dicemath/data/records/``
(shipped in the package).

Each pairing plays ``--games`` games (two-player pairings swap seats every game) and writes
one whole-game record per game (``docs/analyse.md``), the seats named after their policies;
the ``analyse`` report section (:mod:`dicemath.reporting.sections.analyse`) reads these files and
measures where each policy loses. Policies:

* Pitjesbak (9 stripes): ``optimal`` (game-optimal, :func:`~dicemath.games.pitjesbak.advice.game_policy`)
  against ``round-max`` (maximises P(win the round), :func:`~dicemath.games.pitjesbak.round_solver.round_policy`);
  ``threshold`` (stop on score 105 or better when it beats the best so far,
  :func:`~dicemath.games.pitjesbak.simulate.stop_on_rank`) against ``random``.
* BohnDuell (4 cups, 40 beans): ``search`` (the alpha-beta advisor, depth 4, 12-bean tables)
  against ``greedy`` (largest immediate gain); ``greedy`` against ``random``.
* Pegs and Fives (one player): ``advisor`` (the row advisor), ``safe greedy`` (most hits
  among rows that fit), and in Fives ``greedy`` (most hits).
* Backgammon bear-offs (8 checkers a side, seeded home boards): ``best`` (the exact
  two-sided table) against ``most off`` (bear off as many checkers as possible, then the
  fewest pips left); ``most off`` against ``random``.

Usage::

    python analyses/analyse_records.py --games 8
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path

from dicemath.analysis.play import record_game
from dicemath.analysis.records import record_json
from dicemath.games.backgammon import Position
from dicemath.games.backgammon.game import BACKGAMMON_GAME
from dicemath.games.bohnduell import Rules as BohnRules
from dicemath.games.bohnduell import SearchAdvisor
from dicemath.games.bohnduell.players import SearchPlayer, greedy_player
from dicemath.games.pegs_fives import FIVES, PEGS, Advisor, greedy_policy
from dicemath.games.pegs_fives.state import SafeGreedy, legal_rows
from dicemath.games.pitjesbak import solve_game
from dicemath.games.pitjesbak.advice import game_policy
from dicemath.games.pitjesbak.round_solver import round_policy
from dicemath.games.pitjesbak.simulate import stop_on_rank
from dicemath.games.pitjesbak.throws import classify

OUT = Path(__file__).resolve().parent.parent / "dicemath" / "data" / "records"


def random_choice(state, rng):
    """A uniformly random legal action."""
    return rng.choice(list(state.legal_actions()))


def pitjesbak_policies() -> dict:
    optimal, round_max = game_policy(solve_game()), round_policy()
    threshold = stop_on_rank(classify((1, 2, 3)).rank)
    return {"optimal": lambda s, rng: optimal(s), "round-max": lambda s, rng: round_max(s),
            "threshold": lambda s, rng: threshold(s), "random": random_choice}


def bohnduell_policies() -> dict:
    search = SearchPlayer(SearchAdvisor(BohnRules(), depth=4, table_stock=12))
    return {"search": search, "greedy": greedy_player, "random": random_choice}


def row_policy(policy):
    """A Pegs/Fives row policy (``board, legal, dice, throws``) as a record policy."""
    def choose(state, rng):
        legal = legal_rows(state.board, state.roll, state.rules.goal)
        return policy(state.board, legal, state.dice, None if state.throws is None else state.throws + 1)
    return choose


def pegs_fives_policies(rules) -> dict:
    policies = {"advisor": row_policy(Advisor(rules).policy), "safe greedy": row_policy(SafeGreedy(rules.goal))}
    if not rules.overthrow:
        policies["greedy"] = row_policy(greedy_policy)
    return policies


def backgammon_policies() -> dict:
    def best(state, rng):
        return BACKGAMMON_GAME.advise(state).options[0].action

    def most_off(state, rng):
        def key(move):
            return sum(target == 0 for _, target in move.steps), -move.after.pip_count()
        return max(state.legal_actions(), key=key)
    return {"best": best, "most off": most_off, "random": random_choice}


def bearoff_start(rng: random.Random, checkers: int = 8) -> str:
    """A seeded bear-off position: ``checkers`` on random points of each home board."""
    def board():
        counts = [0] * 6
        for _ in range(checkers):
            counts[rng.randrange(6)] += 1
        return tuple(counts)
    return Position.from_home_boards(board(), board()).position_id()


ANALYSIS_SETTINGS = {"bohnduell": {"proof_seconds": 0}}
"""Settings a game's records carry for their analysis: BohnDuell's are valued without proofs on
demand (its exact tables, else the search estimate), which would cost the report about 70 s a
game (the first one also building the 780 MB table of 20 beans)."""


def write(record, name: str, out: Path) -> None:
    data = {**record.as_dict(), "note": "seeded game written by analyses/analyse_records.py"}
    if record.game in ANALYSIS_SETTINGS:
        data["settings"] = {**data.get("settings", {}), **ANALYSIS_SETTINGS[record.game]}
    (out / f"{name}.json").write_text(record_json(data), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="games per pairing (default 8)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    for old in args.out.glob("*.json"):
        old.unlink()
    pairings = [("pitjesbak", pitjesbak_policies(), (("optimal", "round-max"), ("threshold", "random")), {}),
                ("bohnduell", bohnduell_policies(), (("search", "greedy"), ("greedy", "random")), {}),
                ("backgammon", backgammon_policies(), (("best", "most off"), ("most off", "random")), {})]
    for game, policies, pairs, rules in pairings:
        tic = time.perf_counter()
        for first, second in pairs:
            for number in range(args.games):
                seats = (first, second) if number % 2 == 0 else (second, first)
                seed = 1000 * (pairs.index((first, second)) + 1) + number
                start = bearoff_start(random.Random(seed)) if game == "backgammon" else None
                record = record_game(game, tuple(policies[s] for s in seats), seed=seed, rules=rules,
                                     players=seats, start=start)
                write(record, f"{game}-{first}-vs-{second}-{number}".replace(" ", "-"), args.out)
        print(f"{game}: {len(pairs) * args.games} games in {time.perf_counter() - tic:.1f} s", flush=True)
    for rules in (PEGS, FIVES):
        tic = time.perf_counter()
        policies = pegs_fives_policies(rules)
        for name, policy in policies.items():
            for number in range(args.games):
                record = record_game(rules.name, (policy,), seed=2000 + number, players=(name,))
                write(record, f"{rules.name}-{name}-{number}".replace(" ", "-"), args.out)
        print(f"{rules.name}: {len(policies) * args.games} games in {time.perf_counter() - tic:.1f} s", flush=True)


if __name__ == "__main__":
    main()
