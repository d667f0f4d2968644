"""Report section ``backgammon_cube``: doubling-cube models against exact bear-off equities.

:func:`compute` gathers the numbers into a :class:`CubeReport` (no prose); :func:`render`
writes the Markdown and the figures from it, every conclusion read off the numbers. Both
are registered in the game registry (:mod:`dicemath.games.registry`). With ``context.quick`` the section
uses the 3-checker bear-off database instead of the 6-checker one and a coarse
Keeler-Spencer grid, so it runs in a few seconds.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dicemath.core.advice import Advice
from dicemath.core.game import Game
from dicemath.games.backgammon.cube import (
    CUBE_STATES,
    DEFAULT_EFFICIENCY,
    CubelessProbabilities,
    CubeModel,
    KeelerSpencerSolution,
    janowski_equity,
    keeler_spencer,
    keeler_spencer_points,
)
from dicemath.core.svg import picture
from dicemath.games.backgammon.position import Position
from dicemath.games.backgammon.rules import STANDARD
from dicemath.games.backgammon.state import DOUBLE, MAY_DOUBLE, State
from dicemath.core.markdown import markdown_table
from dicemath.reporting.context import ReportContext

KEELER_SPENCER_POINTS = (0.8, 0.2)
"""Keeler & Spencer's doubling and take points of the continuous game (1975)."""

CUBE_EXAMPLE = ((1, 0, 0, 1, 0, 1), (1, 1, 1, 0, 0, 0))
"""The section's picture: X's home board (points 1..6) on roll, cube centred, against O's; a
bear-off between the doubling point and the take point."""


def take_point_rows(gammon_rates=(0.0, 0.1, 0.2, 0.3), efficiency: float = DEFAULT_EFFICIENCY,
                    win: float = 0.75) -> list[tuple[float, ...]]:
    """Opponent's take points for gammon rates of both sides: rows ``(doubler's gammon rate,
    taker's gammon rate, dead TP, Janowski TP at efficiency, live TP, doubling point)``.

    A gammon rate is the fraction of a side's wins that are gammons; ``win`` only sets the
    scale (take points depend on W and L, not on p).
    """
    rows: list[tuple[float, ...]] = []
    for mine in gammon_rates:
        for theirs in gammon_rates:
            model = CubeModel(CubelessProbabilities(win, mine * win, 0.0, theirs * (1 - win)))
            rows.append((mine, theirs, model.dead_take_point(), model.take_point(efficiency),
                         model.live_take_point(), model.doubling_point(efficiency)))
    return rows


def fit_rows(table) -> list[dict]:
    """Janowski efficiency fitted per cube state, then per race length (cube centred):
    :func:`~dicemath.games.backgammon.cubeful_bearoff.fit_janowski` results, ``pip_range`` None for all positions."""
    from dicemath.games.backgammon.cubeful_bearoff import fit_janowski

    rows = [fit_janowski(table, cube) for cube in CUBE_STATES]
    edges = (0, 10, 20, 30, 40, 90) if table.checkers >= 6 else (0, 6, 12, 40)
    for lo, hi in zip(edges[:-1], edges[1:]):
        fit = fit_janowski(table, "centred", (lo, hi))
        if fit["positions"]:
            rows.append(fit)
    return rows


@dataclass(frozen=True)
class CubeReport:
    """The numbers of the cube section.

    Attributes:
        checkers: the cubeful bear-off table used (6, or 3 when quick).
        efficiency: the Janowski x of the model parts (gnubg's contact value).
        take_points: :func:`take_point_rows`.
        keeler_spencer: the continuous game on a grid of ``keeler_spencer.p`` steps.
        limit: Keeler-Spencer doubling and take points extrapolated to the continuous limit
            from half the grid and the grid.
        window: the market window of the model at :attr:`efficiency` without gammons.
        fits: :func:`fit_rows` of the table; ``linear``:
            :func:`~dicemath.games.backgammon.cubeful_bearoff.fit_janowski_by_pips`.
        cubeless, centred: every position's exact cubeless chance and centred-cube equity
            without doubling (the figure's points).
        agreement: :func:`~dicemath.games.backgammon.race_cube.agreement_table` at the fitted centred x.
        decision, decision_advice, answer_advice: the cube decision of :data:`CUBE_EXAMPLE`
            (X may double), X's actions and O's answers to a double, best first.
    """

    checkers: int
    efficiency: float
    take_points: tuple
    keeler_spencer: KeelerSpencerSolution
    limit: tuple[float, float]
    window: tuple[float, float]
    fits: tuple[dict, ...]
    linear: dict
    cubeless: np.ndarray
    centred: np.ndarray
    agreement: tuple[dict, ...]
    decision: State
    decision_advice: Advice
    answer_advice: Advice

    @property
    def steps(self) -> int:
        """Grid intervals of the Keeler-Spencer solution."""
        return len(self.keeler_spencer.p) - 1

    @property
    def fit(self) -> dict:
        """The single efficiency fitted to the centred-cube equities of every position."""
        return self.fits[0]


def compute(game: Game, context: ReportContext) -> CubeReport:
    """The numbers of the section (the cubeful bear-off table of 6 checkers, 3 when quick)."""
    from dicemath.games.backgammon.cubeful_bearoff import cubeful_table, fit_janowski_by_pips
    from dicemath.games.backgammon.race_cube import agreement_table

    checkers = 3 if context.quick else 6
    x = DEFAULT_EFFICIENCY
    steps = 30 if context.quick else 80
    table = cubeful_table(checkers)
    fits = tuple(fit_rows(table))
    decision = State(Position.from_home_boards(*CUBE_EXAMPLE), STANDARD, MAY_DOUBLE)
    return CubeReport(checkers, x, tuple(take_point_rows(efficiency=x)), keeler_spencer(steps),
                      keeler_spencer_points(steps // 2), CubeModel(CubelessProbabilities(0.5)).market_window(x),
                      fits, fit_janowski_by_pips(table, "centred"), table.cubeless[1:, 1:].ravel(),
                      table.no_double[0, 1:, 1:].ravel(), tuple(agreement_table(checkers, efficiency=fits[0]["x"])),
                      decision, game.advise(decision), game.advise(decision.apply(DOUBLE)))


def limit_conclusion(report: CubeReport) -> str:
    """Whether the extrapolated points are Keeler & Spencer's (within 0.005)."""
    close = all(abs(a - b) < 0.005 for a, b in zip(report.limit, KEELER_SPENCER_POINTS))
    return (f"{report.limit[0]:.4f} and {report.limit[1]:.4f}, "
            + ("Keeler & Spencer's 0.8 and 0.2." if close else "against Keeler & Spencer's 0.8 and 0.2."))


def race_length_conclusion(report: CubeReport) -> str:
    """What the fits by race length say about the cube's efficiency."""
    by_length = [fit["x"] for fit in report.fits if fit["pip_range"] is not None]
    if all(a < b for a, b in zip(by_length, by_length[1:])):
        return ("The fitted efficiency grows with the race, from "
                f"{by_length[0]:.3f} to {by_length[-1]:.3f}: the cube is less efficient in short races (fewer rolls "
                "left to use it) and more efficient in longer ones, as GNU Backgammon's race efficiency formula "
                "assumes.")
    return (f"The fitted efficiency does not grow steadily with the race length (from {by_length[0]:.3f} to "
            f"{by_length[-1]:.3f}).")


def shape_conclusion(report: CubeReport) -> str:
    """Whether an efficiency growing with the race explains the error, or the model's shape does."""
    fit, linear = report.fit, report.linear
    verdict = ("most of the remaining error is the shape of the model (straight lines between the cube points), "
               "not the choice of x" if linear["rms"] > 0.8 * fit["rms"] else
               "most of the error of a single x was the choice of x")
    return (f"An efficiency growing with the race, x = {linear['a']:.3f} + {linear['b']:.4f} x "
            f"(total pips), fits the centred-cube equities with rms {linear['rms']:.4f} (max "
            f"{linear['max_error']:.3f}) against {fit['rms']:.4f} (max {fit['max_error']:.3f}) "
            f"for the single x = {fit['x']:.3f}: {verdict}.")


def decision_sentence(report: CubeReport) -> str:
    """The picture's cube decision in words: X's best action and O's answer, read off the advice."""
    best, other = report.decision_advice.options
    answer, refused = report.answer_advice.options
    mine, theirs = CUBE_EXAMPLE
    return (f"X ({','.join(map(str, mine))}) on roll against O ({','.join(map(str, theirs))}), cube centred: "
            f"**{best.text}** (equity {best.value:+.3f} per cube against {other.value:+.3f} for {other.text}, "
            f"{best.extras['source']}); after a double O should **{answer.text}** ({answer.value:+.3f} for O "
            f"against {refused.value:+.3f} if he chose {refused.text}).")


def agreement_conclusion(report: CubeReport) -> str:
    """Which method agrees most often with the exact action, and which costs least."""
    rows = report.agreement
    best = max(rows, key=lambda r: r["action"])
    cheapest = min(rows, key=lambda r: r["doubler_cost"] + r["taker_cost"])
    return (f"Closest to the exact cube action: {best['method']} ({best['action']:.1%} of positions); least "
            f"equity lost by both sides together: {cheapest['method']} "
            f"({cheapest['doubler_cost'] + cheapest['taker_cost']:.4f} per cube).")


def _window_figure(report: CubeReport):
    import matplotlib.pyplot as plt

    x, ks = report.efficiency, report.keeler_spencer
    p = np.linspace(0, 1, 401)
    figure, axes = plt.subplots(1, 2, figsize=(11, 4))
    for cube, style in (("centred", "-"), ("owned", "--"), ("opponent_owned", ":")):
        axes[0].plot(p, janowski_equity(p, x, cube), style, label=f"no double, {cube}")
    axes[0].plot(p, np.minimum(2 * janowski_equity(p, x, "opponent_owned"), 1.0), label="double (take or pass)")
    axes[0].axvspan(*report.window, color="grey", alpha=0.2, label="market window")
    axes[0].set(xlabel="cubeless winning chance of the player on roll", ylabel="equity per cube",
                title=f"Janowski model, x = {x}, no gammons")
    axes[0].legend()
    axes[1].plot(ks.p, ks.centred, label="centred")
    axes[1].plot(ks.p, ks.owned, label="owned")
    axes[1].plot(ks.p, ks.opponent_owned, label="opponent owns")
    axes[1].axvline(ks.doubling_point, color="grey", ls=":", label=f"doubling point {ks.doubling_point:.3f}")
    axes[1].axvline(1 - ks.take_point, color="grey", ls="--",
                    label=f"take point {ks.take_point:.3f} (doubler's chance {1 - ks.take_point:.3f})")
    axes[1].set(xlabel="winning chance", ylabel="equity per cube", title="Keeler-Spencer continuous game (numerical)")
    axes[1].legend()
    return figure


def _fit_figure(report: CubeReport):
    import matplotlib.pyplot as plt

    p = np.linspace(0, 1, 401)
    figure, axis = plt.subplots(figsize=(6, 4.2))
    axis.hexbin(report.cubeless, report.centred, gridsize=80, bins="log", cmap="Blues", mincnt=1)
    for xx, style in ((0.0, ":"), (report.fit["x"], "-"), (1.0, "--")):
        axis.plot(p, janowski_equity(p, xx, "centred"), style, color="C3", label=f"Janowski x = {xx:.2f}")
    axis.set(xlabel="exact cubeless winning chance", ylabel="exact equity, cube centred",
             title=f"{report.checkers}-checker bear-offs: exact vs model")
    axis.legend()
    return figure


def render(report: CubeReport, context: ReportContext) -> str:
    """Markdown of the cube section, figures saved through ``context``."""
    x, ks, steps = report.efficiency, report.keeler_spencer, report.steps
    best = report.decision_advice.best
    if best is None:
        raise ValueError("the cube decision example has no action to frame")
    fit_table = [[fit["cube"],
                  "all" if fit["pip_range"] is None else f"{fit['pip_range'][0]}-{fit['pip_range'][1] - 1}",
                  fit["positions"], f"{fit['x']:.3f}", f"{fit['rms']:.4f}", f"{fit['max_error']:.3f}"]
                 for fit in report.fits]
    parts = [
        "Money play, no Jacoby rule, no beavers, cube 1..64 (docs/rules.md BG-7, BG-8). Equities "
        "are per unit of the current cube, from the side of the player on roll. Models: dead "
        "cube, fully live cube (Keeler & Spencer 1975) and Janowski's interpolation with cube "
        "efficiency x (Rick Janowski, \"Take-Points in Money Games\", 1993). Exact values: a "
        f"dynamic programme over every two-sided bear-off position of at most {report.checkers} "
        "checkers a side, checked against GNU Backgammon's `makebearoff` database "
        "(`benchmarks/bench_cube.py`).",
        "",
        "## Take points and gammons",
        "",
        f"The opponent's minimum winning chance to take, and the doubling point (x = {x}), as "
        "the share of gammons among the doubler's wins and among his losses grows:",
        "",
        markdown_table(["doubler's gammons", "taker's gammons", "dead TP", f"Janowski TP x={x}", "live TP",
                        "doubling point"],
                       [[f"{mine:.0%}", f"{theirs:.0%}", *(f"{v:.3f}" for v in values)]
                        for mine, theirs, *values in report.take_points]),
        "",
        "## Market window",
        "",
        f"Keeler & Spencer's continuous game, solved on a {steps}-step random walk of the "
        f"winning chance: doubling point {ks.doubling_point:.4f}, take point "
        f"{ks.take_point:.4f}; extrapolated from {steps // 2} and {steps} steps to the "
        f"continuous limit: {limit_conclusion(report)}",
        "",
        context.save_figure(_window_figure(report), "backgammon_cube_window.png",
                            "cubeful equities and the market window"),
        "",
        f"With x = {x} and no gammons the window runs from {report.window[0]:.3f} to {report.window[1]:.3f}.",
        "",
        "A cube decision in a bear-off, the exact cubeful equities of both actions drawn: "
        + decision_sentence(report),
        "",
        context.save_picture(picture(report.decision, report.decision_advice), "backgammon_cube_decision.svg",
                             f"a cube decision: {best.text}"),
        "",
        "## Janowski's model against exact bear-off equities",
        "",
        "Least-squares cube efficiency x explaining the exact no-double equities of every "
        "position from its exact cubeless winning chance (W = L = 1: bear-offs have no "
        "gammons); rms and max error in equity per cube:",
        "",
        markdown_table(["cube", "total pips", "positions", "fitted x", "rms", "max error"], fit_table),
        "",
        race_length_conclusion(report),
        "",
        shape_conclusion(report),
        "",
        context.save_figure(_fit_figure(report), "backgammon_cube_fit.png",
                            "exact bear-off equities against Janowski's model"),
        "",
        "## Race doubling rules against exact decisions",
        "",
        f"Positions: every pair of {report.checkers}-checker-or-fewer bear-off boards whose exact "
        "cubeless winning chance (player on roll) lies in 0.50..0.95, sure wins excluded "
        f"({report.agreement[0]['positions']} positions). Share of positions where the method's decision "
        "equals the exact one, and the mean equity per cube lost by following it (the other "
        "side playing perfectly). The pip rules were designed for 15-checker races; the "
        "one-sided method is the winning chance from two one-sided roll distributions fed "
        "to Janowski's model with the fitted x.",
        "",
        markdown_table(["method", "double", "redouble", "take", "action", "doubler's cost", "taker's cost"],
                       [[r["method"], f"{r['double']:.1%}", f"{r['redouble']:.1%}", f"{r['take']:.1%}",
                         f"{r['action']:.1%}", f"{r['doubler_cost']:.4f}", f"{r['taker_cost']:.4f}"]
                        for r in report.agreement]),
        "",
        agreement_conclusion(report),
    ]
    return "\n".join(parts)
