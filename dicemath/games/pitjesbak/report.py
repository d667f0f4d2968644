"""The Pitjesbak report section: class table, game values, policy card, heat map.

Built by :func:`build` (registered in :data:`dicemath.reporting.SECTIONS`). With
``context.quick`` the round-maximising comparison and rounds with more than 4 players are
skipped.
"""

from __future__ import annotations

import numpy as np

from dicemath.games.pitjesbak.advice import policy_card
from dicemath.games.pitjesbak.game_solver import GameSolution, solve_game
from dicemath.games.pitjesbak.round_solver import solve_round
from dicemath.games.pitjesbak.rules import Rules
from dicemath.games.pitjesbak.throws import class_table, throw_text
from dicemath.reporting.context import ReportContext, markdown_table


def class_rows(rules: Rules | None = None) -> list[list[str]]:
    """Rows of the class table: class, kind, wipes, penalty, exact, probability, throws."""
    rows = []
    for row in class_table(rules):
        c = row.throw_class
        rows.append([c.label, c.kind, str(c.wipe), str(c.penalty), f"{row.weight}/216",
                     f"{float(row.probability):.4f}", " ".join(throw_text(t) for t in row.throws)])
    return rows


def heat_map_values(solution: GameSolution, top: int = 9) -> np.ndarray:
    """``[a-1, b-1]``: P(start player wins) with ``a`` and ``b`` stripes, both flags set."""
    return np.array([[solution.value(a, True, b, True) for b in range(1, top + 1)]
                     for a in range(1, top + 1)])


def heat_map_figure(solution: GameSolution, top: int = 9):
    """The heat map of :func:`heat_map_values` as a matplotlib figure."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    values = heat_map_values(solution, top)
    figure, axis = plt.subplots(figsize=(6.5, 5.5))
    image = axis.imshow(values, origin="lower", cmap="RdBu", vmin=0, vmax=1,
                        extent=(0.5, top + 0.5, 0.5, top + 0.5))
    for a in range(1, top + 1):
        for b in range(1, top + 1):
            v = values[a - 1, b - 1]
            axis.text(b, a, f"{v:.2f}", ha="center", va="center", fontsize=7,
                      color="white" if abs(v - 0.5) > 0.3 else "black")
    axis.set(xlabel="follower's stripes", ylabel="start player's stripes",
             title="P(start player wins the game), both have wiped",
             xticks=range(1, top + 1), yticks=range(1, top + 1))
    figure.colorbar(image, ax=axis, shrink=0.8)
    return figure


def build(context: ReportContext) -> str:
    """Markdown of the Pitjesbak report; figures saved through ``context``."""
    rules = Rules()
    solution = solve_game(rules, compare=not context.quick)
    parts = [
        "Rules: RULES.md section 3 (PIT-1..PIT-8), traditional die values (1 = 100, 6 = 60). "
        "Exact probabilities are integer weights over the 216 ordered throws; the game values "
        "are float64 from value iteration with rigorous lower and upper bounds.",
        "",
        "## Throw classes (PIT-2, PIT-3)",
        "",
        markdown_table(["class", "kind", "wipes", "penalty", "exact", "probability", "throws"],
                       class_rows(rules), align="llrrrrl"),
        "",
        "1-1-1 (drie apen) is not ranked: with the has-wiped flag it wins the game, without it "
        "the player is eliminated (PIT-6). 2-2-3 adds a stripe to whoever ends a turn on it (PIT-7).",
        "",
        "## The two-player game (9 stripes each)",
        "",
    ]
    low, high = solution.bounds(*solution.opening)
    parts.append(f"P(the first start player wins the game), both playing to win the game: "
                 f"**{solution.start_player_win_probability:.10f}** (bounds {low:.12f} .. "
                 f"{high:.12f}; states up to {solution.cap} stripes, {solution.sweeps} sweeps).")
    if solution.comparison:
        value = solution.start_player_win_probability
        rvo = sum(solution.comparison["round_vs_optimal"]) / 2
        rso = sum(solution.comparison["round_second_vs_optimal"]) / 2
        rvr = sum(solution.comparison["round_vs_round"]) / 2
        parts += ["", markdown_table(
            ["policies", "P(first start player wins)", "loss of the round-maximiser"],
            [["both game-optimal", f"{value:.6f}", ""],
             ["start player maximises round wins, other game-optimal", f"{rvo:.6f}", f"{value - rvo:.6f}"],
             ["start player game-optimal, other maximises round wins", f"{1 - rso:.6f}",
              f"{(1 - value) - rso:.6f}"],
             ["both maximise round wins", f"{rvr:.6f}", ""]], align="lrr")]
    parts += ["", "## Policy card (opening position)", "", policy_card(solution).markdown(), "",
              "### Late in the game: 2 v 2 stripes, both have wiped", "",
              policy_card(solution, (2, True, 2, True)).markdown(), ""]
    parts += ["## Win chances by stripes", "",
              context.save_figure(heat_map_figure(solution), "pitjesbak_heatmap.png",
                                  "P(start player wins) by stripes"), ""]
    parts += ["## One round: P(win the round) by turn position", "",
              "Every player maximises their own chance to win the round (no flags set)."]
    top = 4 if context.quick else 8
    rows = []
    for players in range(2, top + 1):
        solution = solve_round(players=players, exact=False)
        probs = solution.win_probabilities
        thresholds = [solution.start_stop_threshold(t) for t in (1, 2)]
        rows.append([players] + [f"{float(p):.4f}" for p in probs] + [""] * (top - players)
                    + [t.label if t else "(no threshold)" for t in thresholds])
    parts += ["", markdown_table(["players"] + [f"pos {i}" for i in range(top)]
                                 + ["start stops after throw 1 on", "after throw 2 on"], rows,
                                 align="l" + "r" * top + "ll"), ""]
    parts.append("The start player's advantage comes from setting the limit: a good first "
                 "throw leaves every follower a single throw.")
    if not context.quick:
        from dicemath.games.pitjesbak.game_solver3 import solve_game3
        rows = []
        for stripes in (1, 2):
            three = solve_game3(Rules(players=3, stripes=stripes))
            rows.append([stripes] + [f"{v:.4f}" for v in three.opening_values] + [three.cap])
        parts += ["", "## Three players (small stripe counts)", "",
                  "Each player maximises their own game win probability (not zero-sum; stripe "
                  "counts above the cap are clipped, see `game_solver3`).", "",
                  markdown_table(["stripes each", "first start player", "second", "third", "cap"], rows)]
    return "\n".join(parts)
