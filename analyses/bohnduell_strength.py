"""Strength of the BohnDuell advisor in the standard 40-bean game against the baselines.

Plays ``--games`` games (seats alternating) of the alpha-beta advisor
(:class:`dicemath.games.bohnduell.search.SearchAdvisor`, exact 12-bean tables, fitted horizon
evaluation) against the random and the greedy-by-immediate-gain players, and greedy
against random for scale; prints score and pot margin with 95% intervals and writes
``dicemath/studies/data/bohnduell_advisor_strength.json``. Last, ``--games / 5`` games of a
14-bean game against perfect play (the exact table), with the advisor limited to 8-bean
tables, show how far from perfect its search is (perfect play scores a mean margin of 0
over both seats, since the game value is the same magnitude from either seat).

Usage::

    python analyses/bohnduell_strength.py --games 1000 --depth 4
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from dicemath.games.bohnduell.players import ExactPlayer, SearchPlayer, greedy_player, match, random_player
from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.search import SearchAdvisor
from dicemath.games.bohnduell.state import initial_state
from dicemath.games.bohnduell.solver_dense import solve_dense

OUT = Path(__file__).resolve().parent.parent / "dicemath" / "studies" / "data" / "bohnduell_advisor_strength.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--depth", type=int, default=4)
    parser.add_argument("--table-stock", type=int, default=12)
    parser.add_argument("--capture", default="last")
    args = parser.parse_args()
    rules = Rules(capture=args.capture)
    advisor = SearchAdvisor(rules, depth=args.depth, table_stock=args.table_stock)
    searcher = SearchPlayer(advisor)
    rows = {}
    for name, player, baseline, seed in (("advisor vs random", searcher, random_player, 1),
                                         ("advisor vs greedy", searcher, greedy_player, 2),
                                         ("greedy vs random", greedy_player, random_player, 3)):
        tic = time.perf_counter()
        result = match(rules, player, baseline, games=args.games, seed=seed).as_dict()
        result["seconds"] = round(time.perf_counter() - tic, 1)
        rows[name] = result
        print(f"{name}: score {result['score']:.3f} (95% CI {result['score_ci95'][0]:.3f}.."
              f"{result['score_ci95'][1]:.3f}), W/D/L {result['wins']}/{result['draws']}/"
              f"{result['losses']}, margin {result['margin']:.2f} (95% CI {result['margin_ci95'][0]:.2f}.."
              f"{result['margin_ci95'][1]:.2f}), {result['seconds']} s", flush=True)
    # how far from perfect: a 14-bean game the advisor cannot look up (8-bean tables only)
    small = Rules(stock=14, capture=args.capture)
    table = solve_dense(Rules(stock=14, capture=args.capture))
    tic = time.perf_counter()
    result = match(small, SearchPlayer(SearchAdvisor(small, depth=args.depth, table_stock=8)), ExactPlayer(table),
                   games=max(2, args.games // 5), seed=4).as_dict()
    result["seconds"] = round(time.perf_counter() - tic, 1)
    result["game_value_for_first_player"] = table.position_value(initial_state(small))
    rows["advisor (8-bean tables) vs perfect play, stock 14"] = result
    print(f"advisor vs perfect (stock 14): W/D/L {result['wins']}/{result['draws']}/{result['losses']}, "
          f"margin {result['margin']:.2f} (95% CI {result['margin_ci95'][0]:.2f}..{result['margin_ci95'][1]:.2f}); "
          f"perfect play would give 0 on average over both seats", flush=True)
    OUT.write_text(json.dumps({
        "produced_by": f"python analyses/bohnduell_strength.py --games {args.games} --depth {args.depth} "
                       f"--table-stock {args.table_stock} --capture {args.capture}",
        "rules": repr(rules), "depth": args.depth, "table_stock": args.table_stock,
        "results": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
