"""The BohnDuell report section: solved small games, best play, and the 40-bean advisor.

Heavy numbers (every stock solved from the start, the 1,000-game strength matches) come
from the data files written by ``analyses/bohnduell_solve_stocks.py`` and
``analyses/bohnduell_strength.py``; the section recomputes small things live (a principal
variation, the overfill statistics of a small game, a short strength match), smaller
still when ``context.quick``.
"""

from __future__ import annotations

import json
from pathlib import Path

from dicemath.reporting.context import ReportContext, markdown_table

DATA = Path(__file__).resolve().parent / "data"


def solved_stocks() -> dict:
    """The committed results of ``analyses/bohnduell_solve_stocks.py`` (empty if absent)."""
    path = DATA / "solved_stocks.json"
    return json.loads(path.read_text()) if path.exists() else {"results": {}}


def advisor_strength() -> dict | None:
    """The committed results of ``analyses/bohnduell_strength.py`` (None if absent)."""
    path = DATA / "advisor_strength.json"
    return json.loads(path.read_text()) if path.exists() else None


def _live_rows(capture: str, upto: int) -> list[dict]:
    from dicemath.games.bohnduell.solver_dense import solve_dense

    table = solve_dense(4, upto, capture)
    rows = []
    for stock in range(1, upto + 1):
        start = table.rules_for(stock).initial()
        moves = {str(m): v for m, v in table.move_values(start).items()}
        value = table.position_value(start)
        rows.append({"stock": stock, "value": value, "first_moves": moves,
                     "optimal_first_moves": [m for m, v in moves.items() if v == value]})
    return rows


def build(context: ReportContext) -> str:
    """Markdown of the BohnDuell section (figures saved through ``context``)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from dicemath.games.bohnduell.players import SearchPlayer, greedy_player, match, random_player
    from dicemath.games.bohnduell.rules import BohnRules
    from dicemath.games.bohnduell.search import Advisor
    from dicemath.games.bohnduell.solver_dense import solve_dense

    data = solved_stocks()
    results = {c: data["results"].get(c) or _live_rows(c, 6 if context.quick else 10)
               for c in ("last", "every")}
    parts = [
        "BohnDuell (RULES.md section 5) is a game of perfect information without dice, so small "
        "versions can be solved exactly. **Value** = final pot difference A - B when both play "
        "perfectly, where **A moves first** (BOHN-7); positive favours the first player. Moves: "
        "`S<k>` sows k beans from the stock (BOHN-3), `H<d>` harvests the cup at distance d "
        "(BOHN-5). Capture `last` is the published rule (BOHN-4), `every` the literal reading "
        "of the seed. All games below use 4 cups.",
        "",
        "## Value by stock size",
        "",
        f"Source: `{data.get('produced_by', 'computed live')}` "
        f"({data.get('machine', 'this machine')}); the dense solver ranks every pair of sides "
        "a player starting with `stock` beans can have into one `int8` table (1 byte per "
        "position) and solves it in order of the bean-distance potential, without recursion. "
        "`solve s` is wall-clock time on a shared 2-core machine, `cpu s` the process time; "
        "`peak MB` is the solving process's peak resident memory (about 160 MB of it is "
        "Python, numpy and numba). Reachable positions were not counted above 23 beans.",
        "",
    ]
    by_stock = {c: {r["stock"]: r for r in rows} for c, rows in results.items()}
    stocks = sorted(set(by_stock["last"]) | set(by_stock["every"]))
    table_rows = []
    for stock in stocks:
        row = [stock]
        for capture in ("last", "every"):
            r = by_stock[capture].get(stock)
            row += [f"{r['value']:+d}", " ".join(r["optimal_first_moves"])] if r else ["", ""]
        r = by_stock["last"].get(stock) or by_stock["every"].get(stock)
        row += [f"{r['reachable_positions']:,}" if "reachable_positions" in r else "",
                f"{r['table_positions']:,}" if "table_positions" in r else "",
                f"{r['solve_seconds']:.1f}" if "solve_seconds" in r else "",
                f"{r['solve_cpu_seconds']:.1f}" if "solve_cpu_seconds" in r else "",
                f"{r['peak_rss_megabytes']:.0f}" if "peak_rss_megabytes" in r else ""]
        table_rows.append(row)
    parts.append(markdown_table(
        ["stock", "value (last)", "best first (last)", "value (every)", "best first (every)",
         "reachable (last)", "table positions", "solve s (last)", "cpu s (last)", "peak MB (last)"],
        table_rows))
    largest = {c: max(by_stock[c]) if by_stock[c] else 0 for c in by_stock}
    values_last = [by_stock["last"][s]["value"] for s in sorted(by_stock["last"])]
    parts += ["", f"Largest stock solved: {largest['last']} (capture last), {largest['every']} "
              f"(capture every). First-player advantage: with capture `last` the first player "
              f"is ahead at {sum(v > 0 for v in values_last)} stock sizes, level at "
              f"{sum(v == 0 for v in values_last)}, behind at {sum(v < 0 for v in values_last)} "
              f"of the {len(values_last)} stock sizes solved: moving first is no advantage in "
              "these small games.", ""]

    figure, axis = plt.subplots(figsize=(7, 3.5))
    for capture, marker in (("last", "o"), ("every", "s")):
        xs = sorted(by_stock[capture])
        axis.plot(xs, [by_stock[capture][s]["value"] for s in xs], marker=marker, label=f"capture={capture}")
    axis.axhline(0, color="grey", lw=0.8)
    axis.set(xlabel="beans per player (stock)", ylabel="value for A (first player)",
             title="BohnDuell, 4 cups: value under perfect play")
    axis.legend()
    parts += [context.save_figure(figure, "bohnduell_values.png", "value by stock size"), ""]

    # principal variation --------------------------------------------------------------
    stock = 6 if context.quick else 10
    table = solve_dense(4, stock)
    start = table.rules_for(stock).initial()
    line = table.principal_variation(start)
    parts += ["## A perfectly played game", "",
              f"Stock {stock}, capture `last` (value {table.position_value(start):+d}); ties between "
              "equally good moves are broken towards harvests and small sowings.", ""]
    moves = [f"{i // 2 + 1}{'.' if i % 2 == 0 else '...'} {m}" for i, (m, _) in enumerate(line)]
    parts += ["`" + " ".join(moves) + "`", "", "Final position:", "", "```",
              line[-1][1].diagram() if line else start.diagram(), "```", ""]

    # overfill ---------------------------------------------------------------------------
    parts += ["## \"Never overfill a cup\"", "",
              "The seed warns never to put more beans in a cup than its distance to the pot "
              "(such a cup can only be emptied by the opponent's capture, BOHN-5). Counted over "
              "every position reachable from the start where the mover can choose between a "
              "move that puts a bean into a cup already holding its distance and a move that "
              "does not:", ""]
    over_rows = []
    for s in sorted(by_stock["last"]):
        o = by_stock["last"][s].get("overfill")
        if o and o["positions"]:
            over_rows.append([s, f"{o['positions']:,}", f"{o['overfill_better'] / o['positions']:.1%}",
                              f"{o['tie'] / o['positions']:.1%}", f"{o['overfill_worse'] / o['positions']:.1%}",
                              f"{o['mean_loss_when_worse']:.2f}"])
    if not over_rows:
        o = table.overfill_stats()
        over_rows.append([stock, f"{o['positions']:,}", f"{o['overfill_better'] / o['positions']:.1%}",
                          f"{o['tie'] / o['positions']:.1%}", f"{o['overfill_worse'] / o['positions']:.1%}",
                          f"{o['mean_loss_when_worse']:.2f}"])
    parts.append(markdown_table(["stock", "positions with the choice", "overfill strictly best",
                                 "as good", "overfill worse", "mean loss when worse (beans)"], over_rows))
    parts += ["", "The advice is sound but not absolute: in over nine positions in ten the best "
              "clean move beats every overfilling one, by several beans on average, yet in a few "
              "percent of them overfilling is strictly best.", ""]

    # advisor ----------------------------------------------------------------------------
    parts += ["## Advisor for the 40-bean game", "",
              "Alpha-beta search (negamax with a transposition table) over the same values, "
              "exact 12-bean tables when both sides hold at most 12 beans, and at the horizon a "
              "linear evaluation least-squares fitted to those exact values. Score = (wins + "
              "draws/2)/games, seats alternating; 95% Wilson interval; margin = mean final pot "
              "difference with a normal 95% interval.", ""]
    strength = advisor_strength()
    if strength:
        rows = [[name, r["games"], f"{r['wins']}/{r['draws']}/{r['losses']}",
                 f"{r['score']:.3f} [{r['score_ci95'][0]:.3f}, {r['score_ci95'][1]:.3f}]",
                 f"{r['margin']:+.2f} [{r['margin_ci95'][0]:+.2f}, {r['margin_ci95'][1]:+.2f}]"]
                for name, r in strength["results"].items()]
        parts += [f"Full run: `{strength['produced_by']}`", "",
                  markdown_table(["match", "games", "W/D/L", "score [95% CI]", "margin [95% CI]"], rows), ""]
        for name, r in strength["results"].items():
            if "game_value_for_first_player" in r:
                parts += [f"The last row measures the distance to perfect play: in a game small "
                          f"enough to solve (value {r['game_value_for_first_player']:+d} for the "
                          "first player) perfect play against perfect play averages a margin of 0 "
                          "over both seats, so the advisor, limited to 8-bean tables there, gives "
                          f"away {-r['margin']:.2f} beans per game on average against a perfect "
                          "opponent: strong against the baselines, not perfect.", ""]
    games = 10 if context.quick else 100
    rules = BohnRules()
    advisor = SearchPlayer(Advisor(rules, depth=3 if context.quick else 4, table_stock=12))
    rows = []
    for name, baseline in (("advisor vs random", random_player), ("advisor vs greedy", greedy_player)):
        r = match(rules, advisor, baseline, games=games, seed=7).as_dict()
        rows.append([name, games, f"{r['wins']}/{r['draws']}/{r['losses']}",
                     f"{r['score']:.3f} [{r['score_ci95'][0]:.3f}, {r['score_ci95'][1]:.3f}]",
                     f"{r['margin']:+.2f} [{r['margin_ci95'][0]:+.2f}, {r['margin_ci95'][1]:+.2f}]"])
    parts += [f"Quick live check ({games} games each):", "",
              markdown_table(["match", "games", "W/D/L", "score [95% CI]", "margin [95% CI]"], rows)]
    return "\n".join(parts)
