"""The Pitjesbak report section: class table, game values, policy card, heat map.

:func:`compute` solves what the section shows and returns it as a
:class:`PitjesbakReport` (numbers and policy cards, no prose); :func:`render` writes the
Markdown and the heat map from it, every conclusion read off the numbers. Both are
registered in the game registry (:mod:`dicemath.games.registry`). With ``context.quick`` the
round-maximising comparison, rounds with more than 4 players and the three-player games
are skipped.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dicemath.core.dice import throw_text
from dicemath.core.svg import picture
from dicemath.games.pitjesbak.advice import Advice, PolicyCard, advise, policy_card
from dicemath.games.pitjesbak.game_solver import GameSolution, solve_game
from dicemath.games.pitjesbak.game_solver3 import solve_game3
from dicemath.games.pitjesbak.round_solver import solve_round
from dicemath.games.pitjesbak.rules import STANDARD, Rules
from dicemath.games.pitjesbak.state import State, initial_state
from dicemath.games.pitjesbak.throws import THROW_TOTAL, ClassRow, class_table
from dicemath.reporting.context import ReportContext, markdown_table

LATE_STATE = (2, True, 2, True)
"""The late-game situation of the second policy card: 2 v 2 stripes, both have wiped."""

FIRST_THROW = (5, 5, 3)
"""The start player's first throw of the game in the section's picture: a pair that looks
good enough to keep."""


@dataclass(frozen=True)
class RoundRow:
    """One round size: P(win the round) by turn position and the start player's thresholds."""

    players: int
    win_probabilities: tuple[float, ...]
    thresholds: tuple[str | None, str | None]


@dataclass(frozen=True)
class PitjesbakReport:
    """The numbers of the Pitjesbak section.

    Attributes:
        rules: the rules reported (two players, traditional values, 9 stripes).
        classes: the class table.
        value, bounds, cap, sweeps: the two-player game value at the opening and its solve.
        comparison: midpoints of the round-maximising comparisons (empty when quick).
        opening_card, late_card: policy cards at the opening and at :data:`LATE_STATE`.
        opening, opening_advice: the game after the start player's :data:`FIRST_THROW` and
            the game-optimal advice there (the picture).
        heat_map: ``[a-1, b-1]`` P(start player wins) with a and b stripes, both wiped.
        rounds: one row per number of players.
        three_players: ``(stripes, P(win) by turn position, cap)`` rows (empty when quick).
    """

    rules: Rules
    classes: tuple[ClassRow, ...]
    value: float
    bounds: tuple[float, float]
    cap: int
    sweeps: int
    comparison: dict
    opening_card: PolicyCard
    late_card: PolicyCard
    opening: State
    opening_advice: Advice
    heat_map: np.ndarray
    rounds: tuple[RoundRow, ...]
    three_players: tuple


def heat_map_values(solution: GameSolution, top: int = 9) -> np.ndarray:
    """``[a-1, b-1]``: P(start player wins) with ``a`` and ``b`` stripes, both flags set."""
    return np.array([[solution.value(a, True, b, True) for b in range(1, top + 1)]
                     for a in range(1, top + 1)])


def heat_map_figure(values: np.ndarray):
    """The heat map of :func:`heat_map_values` as a matplotlib figure."""
    import matplotlib.pyplot as plt

    top = values.shape[0]
    figure, axis = plt.subplots(figsize=(6.5, 5.5))
    image = axis.imshow(values, origin="lower", cmap="RdBu", vmin=0, vmax=1,
                        extent=(0.5, top + 0.5, 0.5, top + 0.5))
    for a in range(1, top + 1):
        for b in range(1, top + 1):
            v = values[a - 1, b - 1]
            axis.text(b, a, f"{v:.2f}", ha="center", va="center",
                      color="white" if abs(v - 0.5) > 0.3 else "black")
    axis.set(xlabel="follower's stripes", ylabel="start player's stripes",
             title="P(start player wins the game), both have wiped",
             xticks=range(1, top + 1), yticks=range(1, top + 1))
    figure.colorbar(image, ax=axis, shrink=0.8)
    return figure


def compute(context: ReportContext) -> PitjesbakReport:
    """Solve everything the section shows."""
    rules = STANDARD
    solution = solve_game(rules, compare=not context.quick)
    comparison = {key: (low + high) / 2 for key, (low, high) in solution.comparison.items()}
    rounds = []
    for players in range(2, (4 if context.quick else 8) + 1):
        round_solution = solve_round(players=players, exact=False)
        thresholds = tuple(t.label if t else None
                           for t in (round_solution.start_stop_threshold(1), round_solution.start_stop_threshold(2)))
        rounds.append(RoundRow(players, tuple(float(p) for p in round_solution.win_probabilities), thresholds))
    three = []
    if not context.quick:
        for stripes in (1, 2):
            solved = solve_game3(Rules(players=3, stripes=stripes))
            three.append((stripes, solved.opening_values, solved.cap))
    opening = initial_state(rules).apply(FIRST_THROW)
    return PitjesbakReport(rules, class_table(rules), solution.start_player_win_probability,
                           solution.bounds(*solution.opening), solution.cap, solution.sweeps, comparison,
                           policy_card(solution), policy_card(solution, LATE_STATE), opening,
                           advise(opening, solution=solution), heat_map_values(solution), tuple(rounds), tuple(three))


def round_conclusion(rounds: tuple[RoundRow, ...]) -> str:
    """Who is best placed in a round, read off the round table."""
    leads = [r.players for r in rounds if r.win_probabilities[0] == max(r.win_probabilities)]
    sizes = f"{rounds[0].players}..{rounds[-1].players} players"
    if len(leads) == len(rounds):
        return f"At every table size ({sizes}) the start player has the best chance to win the round."
    if not leads:
        return f"At no table size ({sizes}) does the start player have the best chance to win the round."
    return (f"The start player has the best chance to win the round with {', '.join(map(str, leads))} "
            f"players, not at the other table sizes ({sizes}).")


def render(report: PitjesbakReport, context: ReportContext) -> str:
    """Markdown of the Pitjesbak section; the heat map saved through ``context``."""
    low, high = report.bounds
    parts = [
        "Rules: docs/rules.md section 3 (PIT-1..PIT-8), traditional die values (1 = 100, 6 = 60). "
        f"Exact probabilities are integer weights over the {THROW_TOTAL} ordered throws; the game "
        "values are float64 from value iteration with rigorous lower and upper bounds.",
        "",
        "## Throw classes (PIT-2, PIT-3)",
        "",
        markdown_table(["class", "kind", "wipes", "penalty", "exact", "probability", "throws"],
                       [[r.throw_class.label, r.throw_class.kind, r.throw_class.wipe, r.throw_class.penalty,
                         f"{r.weight}/{THROW_TOTAL}", f"{float(r.probability):.4f}",
                         " ".join(throw_text(t) for t in r.throws)] for r in report.classes], align="llrrrrl"),
        "",
        "1-1-1 (drie apen) is not ranked: with the has-wiped flag it wins the game, without it "
        "the player is eliminated (PIT-6). 2-2-3 adds a stripe to whoever ends a turn on it (PIT-7).",
        "",
        f"## The two-player game ({report.rules.stripes} stripes each)",
        "",
        f"P(the first start player wins the game), both playing to win the game: "
        f"**{report.value:.10f}** (bounds {low:.12f} .. {high:.12f}; states up to {report.cap} "
        f"stripes, {report.sweeps} sweeps).",
    ]
    if report.comparison:
        value, comparison = report.value, report.comparison
        rvo, rso, rvr = (comparison["round_vs_optimal"], comparison["round_second_vs_optimal"],
                         comparison["round_vs_round"])
        parts += ["", markdown_table(
            ["policies", "P(first start player wins)", "loss of the round-maximiser"],
            [["both game-optimal", f"{value:.6f}", ""],
             ["start player maximises round wins, other game-optimal", f"{rvo:.6f}", f"{value - rvo:.6f}"],
             ["start player game-optimal, other maximises round wins", f"{1 - rso:.6f}",
              f"{(1 - value) - rso:.6f}"],
             ["both maximise round wins", f"{rvr:.6f}", ""]], align="lrr")]
    a, fa, b, fb = LATE_STATE
    advice = report.opening_advice
    parts += ["", "## Policy card (opening position)", "",
              f"The start player's first throw of the game is {throw_text(FIRST_THROW)}: the picture gives his "
              "chance to win the game if he stops and if he throws again (both players game-optimal from there); "
              f"the advice is to **{advice.decision}**.", "",
              context.save_picture(picture(report.opening, advice), "pitjesbak_first_throw.svg",
                                   f"the start player's first throw {throw_text(FIRST_THROW)}: {advice.decision}"),
              "", report.opening_card.markdown(), "",
              f"### Late in the game: {a} v {b} stripes, {'both have' if fa and fb else 'not both'} wiped", "",
              report.late_card.markdown(), "",
              "## Win chances by stripes", "",
              context.save_figure(heat_map_figure(report.heat_map), "pitjesbak_heatmap.png",
                                  "P(start player wins) by stripes"), "",
              "## One round: P(win the round) by turn position", "",
              "Every player maximises their own chance to win the round (no flags set)."]
    top = report.rounds[-1].players
    rows = [[r.players] + [f"{p:.4f}" for p in r.win_probabilities] + [""] * (top - r.players)
            + [t or "(no threshold)" for t in r.thresholds] for r in report.rounds]
    parts += ["", markdown_table(["players"] + [f"pos {i}" for i in range(top)]
                                 + ["start stops after throw 1 on", "after throw 2 on"], rows,
                                 align="l" + "r" * top + "ll"), "", round_conclusion(report.rounds)]
    if report.three_players:
        rows = [[stripes] + [f"{v:.4f}" for v in values] + [cap] for stripes, values, cap in report.three_players]
        parts += ["", "## Three players (small stripe counts)", "",
                  "Each player maximises their own game win probability (not zero-sum; stripe "
                  "counts above the cap are clipped, see `game_solver3`).", "",
                  markdown_table(["stripes each", "first start player", "second", "third", "cap"], rows)]
    return "\n".join(parts)
