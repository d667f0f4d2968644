"""Report section ``backgammon_cube``: doubling-cube models against exact bear-off equities.

Built by :func:`build` (registered in :mod:`dicemath.reporting`). With ``context.quick`` it
uses the 3-checker bear-off database instead of the 6-checker one and a coarse
Keeler-Spencer grid, so it runs in a few seconds.
"""

from __future__ import annotations

import numpy as np

from dicemath.games.backgammon.cube import (
    DEFAULT_EFFICIENCY,
    CubelessProbabilities,
    CubeModel,
    janowski_equity,
    keeler_spencer,
    keeler_spencer_points,
)
from dicemath.reporting.context import markdown_table


def take_point_rows(gammon_rates=(0.0, 0.1, 0.2, 0.3), efficiency: float = DEFAULT_EFFICIENCY,
                    win: float = 0.75) -> list[list[str]]:
    """Opponent's take points (dead, Janowski x, live) for gammon rates of both sides.

    A gammon rate is the fraction of a side's wins that are gammons; ``win`` only sets the
    scale (take points depend on W and L, not on p).
    """
    rows = []
    for mine in gammon_rates:
        for theirs in gammon_rates:
            model = CubeModel(CubelessProbabilities(win, mine * win, 0.0, theirs * (1 - win)))
            rows.append([f"{mine:.0%}", f"{theirs:.0%}", f"{model.dead_take_point():.3f}",
                         f"{model.take_point(efficiency):.3f}", f"{model.live_take_point():.3f}",
                         f"{model.doubling_point(efficiency):.3f}"])
    return rows


def fit_rows(table) -> list[list[str]]:
    """Janowski efficiency fitted per cube state and per race length."""
    from dicemath.games.backgammon.cubeful_bearoff import fit_janowski

    rows = []
    for cube in ("centred", "owned", "opponent_owned"):
        fit = fit_janowski(table, cube)
        rows.append([cube, "all", fit["positions"], f"{fit['x']:.3f}", f"{fit['rms']:.4f}",
                     f"{fit['max_error']:.3f}"])
    edges = (0, 10, 20, 30, 40, 90) if table.checkers >= 6 else (0, 6, 12, 40)
    for lo, hi in zip(edges[:-1], edges[1:]):
        fit = fit_janowski(table, "centred", (lo, hi))
        if fit["positions"] == 0:
            continue
        rows.append(["centred", f"{lo}-{hi - 1}", fit["positions"], f"{fit['x']:.3f}",
                     f"{fit['rms']:.4f}", f"{fit['max_error']:.3f}"])
    return rows


def build(context) -> str:
    """Markdown of the cube report, figures saved through ``context``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from dicemath.games.backgammon.cubeful_bearoff import (
        cubeful_table,
        fit_janowski,
        fit_janowski_by_pips,
    )
    from dicemath.games.backgammon.race_cube import agreement_table

    checkers = 3 if context.quick else 6
    x = DEFAULT_EFFICIENCY
    parts = [
        "Money play, no Jacoby rule, no beavers, cube 1..64 (RULES.md BG-7, BG-8). Equities "
        "are per unit of the current cube, from the side of the player on roll. Models: dead "
        "cube, fully live cube (Keeler & Spencer 1975) and Janowski's interpolation with cube "
        "efficiency x (Rick Janowski, \"Take-Points in Money Games\", 1993). Exact values: a "
        f"dynamic programme over every two-sided bear-off position of at most {checkers} "
        "checkers a side, checked against GNU Backgammon's `makebearoff` database "
        "(`benchmarks/bench_cube.py`).",
        "",
        "## Take points and gammons",
        "",
        f"The opponent's minimum winning chance to take, and the doubling point (x = {x}), as "
        "the share of gammons among the doubler's wins and among his losses grows:",
        "",
        markdown_table(["doubler's gammons", "taker's gammons", "dead TP", f"Janowski TP x={x}",
                        "live TP", "doubling point"], take_point_rows(efficiency=x)),
        "",
    ]
    steps = 30 if context.quick else 80
    ks = keeler_spencer(steps)
    limit = keeler_spencer_points(steps // 2)
    parts += [
        "## Market window",
        "",
        f"Keeler & Spencer's continuous game, solved on a {steps}-step random walk of the "
        f"winning chance: doubling point {ks.doubling_point:.4f}, take point "
        f"{ks.take_point:.4f}; extrapolated from {steps // 2} and {steps} steps to the "
        f"continuous limit: {limit[0]:.4f} and {limit[1]:.4f} (Keeler & Spencer: 0.8 and 0.2).",
        "",
    ]
    p = np.linspace(0, 1, 401)
    figure, axes = plt.subplots(1, 2, figsize=(11, 4))
    for cube, style in (("centred", "-"), ("owned", "--"), ("opponent_owned", ":")):
        axes[0].plot(p, janowski_equity(p, x, cube), style, label=f"no double, {cube}")
    axes[0].plot(p, np.minimum(2 * janowski_equity(p, x, "opponent_owned"), 1.0),
                 label="double (take or pass)")
    model = CubeModel(CubelessProbabilities(0.5))
    low, high = model.market_window(x)
    axes[0].axvspan(low, high, color="grey", alpha=0.2, label="market window")
    axes[0].set(xlabel="cubeless winning chance of the player on roll", ylabel="equity per cube",
                title=f"Janowski model, x = {x}, no gammons")
    axes[0].legend(fontsize=7)
    axes[1].plot(ks.p, ks.centred, label="centred")
    axes[1].plot(ks.p, ks.owned, label="owned")
    axes[1].plot(ks.p, ks.opponent_owned, label="opponent owns")
    axes[1].axvline(ks.doubling_point, color="grey", ls=":")
    axes[1].axvline(1 - ks.take_point, color="grey", ls="--")
    axes[1].set(xlabel="winning chance", ylabel="equity per cube",
                title="Keeler-Spencer continuous game (numerical)")
    axes[1].legend(fontsize=7)
    parts += [context.save_figure(figure, "backgammon_cube_window.png",
                                  "cubeful equities and the market window"), ""]
    parts.append(f"With x = {x} and no gammons the window runs from {low:.3f} to {high:.3f}.")

    table = cubeful_table(checkers)
    parts += [
        "",
        "## Janowski's model against exact bear-off equities",
        "",
        "Least-squares cube efficiency x explaining the exact no-double equities of every "
        "position from its exact cubeless winning chance (W = L = 1: bear-offs have no "
        "gammons); rms and max error in equity per cube:",
        "",
        markdown_table(["cube", "total pips", "positions", "fitted x", "rms", "max error"],
                       fit_rows(table)),
        "",
        "The cube is less efficient in short races (fewer rolls left to use it) and more "
        "efficient in longer ones, as GNU Backgammon's race efficiency formula assumes.",
        "",
    ]
    fit = fit_janowski(table, "centred")
    linear = fit_janowski_by_pips(table, "centred")
    parts += [
        f"An efficiency growing with the race, x = {linear['a']:.3f} + {linear['b']:.4f} x "
        f"(total pips), fits the centred-cube equities with rms {linear['rms']:.4f} (max "
        f"{linear['max_error']:.3f}) against {fit['rms']:.4f} (max {fit['max_error']:.3f}) "
        f"for the single x = {fit['x']:.3f}: most of the remaining error is the shape of "
        "the model (straight lines between the cube points), not the choice of x.",
        "",
    ]
    pc = table.cubeless[1:, 1:].ravel()
    equity = table.no_double[0, 1:, 1:].ravel()
    figure, axis = plt.subplots(figsize=(6, 4.2))
    axis.hexbin(pc, equity, gridsize=80, bins="log", cmap="Blues", mincnt=1)
    for xx, style in ((0.0, ":"), (fit["x"], "-"), (1.0, "--")):
        axis.plot(p, janowski_equity(p, xx, "centred"), style, color="C3", label=f"Janowski x = {xx:.2f}")
    axis.set(xlabel="exact cubeless winning chance", ylabel="exact equity, cube centred",
             title=f"{checkers}-checker bear-offs: exact vs model")
    axis.legend(fontsize=7)
    parts += [context.save_figure(figure, "backgammon_cube_fit.png",
                                  "exact bear-off equities against Janowski's model"), ""]

    rows = agreement_table(checkers, efficiency=fit["x"])
    parts += [
        "## Race doubling rules against exact decisions",
        "",
        f"Positions: every pair of {checkers}-checker-or-fewer bear-off boards whose exact "
        "cubeless winning chance (player on roll) lies in 0.50..0.95, sure wins excluded "
        f"({rows[0]['positions']} positions). Share of positions where the method's decision "
        "equals the exact one, and the mean equity per cube lost by following it (the other "
        "side playing perfectly). The pip rules were designed for 15-checker races; the "
        "one-sided method is the winning chance from two one-sided roll distributions fed "
        "to Janowski's model with the fitted x.",
        "",
        markdown_table(["method", "double", "redouble", "take", "action", "doubler's cost",
                        "taker's cost"],
                       [[r["method"], f"{r['double']:.1%}", f"{r['redouble']:.1%}",
                         f"{r['take']:.1%}", f"{r['action']:.1%}", f"{r['doubler_cost']:.4f}",
                         f"{r['taker_cost']:.4f}"] for r in rows]),
    ]
    return "\n".join(parts)
