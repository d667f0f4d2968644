"""How good BohnDuell's depth-6 search is against exact play, judged by a strong table.

For each stock, plays ``--games`` games from the start: ``--random-plies`` random moves (so
the games differ), then both players move by the search advisor
(:class:`dicemath.games.bohnduell.search.SearchAdvisor`, depth 6, exact 12-bean tables,
fitted horizon evaluation: what ``advise`` answers beyond the exact sources). Every decision
of the searching players with at least two legal moves is judged by the exact move values of
the strong table (``dicemath bohnduell table build --stock 30``): whether the search chose a
best move, and the beans it gave away (best value minus the chosen move's value, final pot
difference). Writes ``dicemath/studies/data/bohnduell_search_quality.json``.

Usage::

    python analyses/bohnduell_search_quality.py --stocks 14 18 22 26 30 --games 100
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import time
from pathlib import Path

from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.search import DEPTH, TABLE_STOCK, SearchAdvisor
from dicemath.games.bohnduell.state import initial_state
from dicemath.games.bohnduell.strong_table import covering_table

OUT = Path(__file__).resolve().parent.parent / "dicemath" / "studies" / "data" / "bohnduell_search_quality.json"


def judge_stock(stock: int, games: int, random_plies: int, depth: int, seed: int) -> dict:
    """Play ``games`` games of ``stock`` beans and judge every searched decision."""
    rules = Rules(stock=stock)
    table = covering_table(rules, stock)
    if table is None:
        raise SystemExit(f"no strong table of at least {stock} beans in the cache: "
                         f"dicemath bohnduell table build --stock {stock}")
    advisor = SearchAdvisor(rules, depth=depth, table_stock=TABLE_STOCK)
    rng = random.Random(seed + stock)
    decisions = best = 0
    loss = 0
    game_losses = []
    tic = time.perf_counter()
    for _ in range(games):
        position = initial_state(rules)
        for _ in range(random_plies):
            if position.is_over():
                break
            position = position.apply(rng.choice(position.legal_actions()))
        lost = 0
        while not position.is_over():
            moves = position.legal_actions()
            if len(moves) > 1:
                exact = table.move_values(position)
                chosen = advisor.best_move(position)
                top = max(exact.values())
                decisions += 1
                best += exact[chosen] == top
                lost += top - exact[chosen]
            else:
                chosen = moves[0]
            position = position.apply(chosen)
        loss += lost
        game_losses.append(lost)
    return {"stock": stock, "games": games, "decisions": decisions, "best_moves": best,
            "best_share": round(best / decisions, 4), "beans_lost": loss,
            "mean_loss_per_decision": round(loss / decisions, 4), "mean_loss_per_game": round(loss / games, 3),
            "worst_game_loss": max(game_losses), "judged_by": f"strong table of stock {table.stock}",
            "seconds": round(time.perf_counter() - tic, 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stocks", type=int, nargs="+", default=[14, 18, 22, 26, 30])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--random-plies", type=int, default=4)
    parser.add_argument("--depth", type=int, default=DEPTH)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rows = []
    for stock in args.stocks:
        rows.append(judge_stock(stock, args.games, args.random_plies, args.depth, args.seed))
        print(rows[-1], flush=True)
        OUT.write_text(json.dumps({
            "description": "BohnDuell's search advisor (alpha-beta, exact 12-bean tables, fitted horizon "
                           "evaluation) against exact play: both players search after random_plies random "
                           "moves; each decision with at least two legal moves is judged by a strong table. "
                           "best_share = decisions where the search chose a move of the best exact value; "
                           "beans lost = best exact value minus the chosen move's (final pot difference), "
                           "summed over both players.",
            "produced_by": "python analyses/bohnduell_search_quality.py " + " ".join(
                ["--stocks", *map(str, args.stocks), "--games", str(args.games), "--random-plies",
                 str(args.random_plies), "--depth", str(args.depth), "--seed", str(args.seed)]),
            "machine": f"{platform.machine()}, Python {platform.python_version()}, one thread",
            "depth": args.depth, "table_stock": TABLE_STOCK, "random_plies": args.random_plies,
            "results": rows}, indent=1) + "\n")


if __name__ == "__main__":
    main()
