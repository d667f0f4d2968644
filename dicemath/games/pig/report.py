"""The Pig report section: who wins with optimal play, and when to hold.

:func:`compute` solves the standard game (:func:`~dicemath.games.pig.solver.solve`) and
gathers the numbers into a :class:`PigReport`; :func:`render` writes the Markdown and the
figure of the hold thresholds. Every sentence that states a conclusion (the agreement with
the published figure, how good "hold at 20" is, whether a player behind should risk more)
is read off the numbers by the ``*_conclusion`` functions. With ``context.quick`` the
printed card is coarser and the figure has fewer curves; the solve is the same (it is
fast).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dicemath.core.markdown import markdown_table
from dicemath.games.pig.advice import policy_card
from dicemath.games.pig.commands import PUBLISHED
from dicemath.games.pig.rules import STANDARD
from dicemath.games.pig.solver import solve

RULE_OF_THUMB = 20
"""The folk rule "hold at 20" (it maximises the expected points of one turn)."""


@dataclass(frozen=True, eq=False)
class PigReport:
    """The numbers of the Pig section.

    Attributes:
        goal: the goal (PIG-1).
        first_player: P(player 0 wins) with optimal play.
        published: Neller and Presser's printed figure.
        thresholds: ``[my score, their score]`` -> the turn total to hold at.
        card_scores, card: the printed card's scores and thresholds.
        curves: their score -> the threshold at each of my scores (the figure).
        agreement: the share of decisions (turn total 2 or more) where "hold at 20" chooses
            as the optimal policy does.
        behind, ahead: the mean threshold over score pairs where the mover is behind, ahead.
        states, sweeps, tolerance, seconds: how the solve went.
    """

    goal: int
    first_player: float
    published: float
    thresholds: np.ndarray
    card_scores: list
    card: list
    curves: dict
    agreement: float
    behind: float
    ahead: float
    states: int
    sweeps: int
    tolerance: float
    seconds: float


def compute(context) -> PigReport:
    """Solve the standard game and gather the section's numbers (``context.quick``: a coarser card)."""
    solution = solve(STANDARD)
    goal = STANDARD.goal
    card = policy_card(STANDARD, 25 if context.quick else 10, solution)
    thresholds = card.thresholds
    i, k = np.arange(goal)[:, None, None], np.arange(goal)[None, None, :]
    decisions = np.broadcast_to((k >= 2) & (i + k < goal), solution.hold_table.shape)
    thumb = np.broadcast_to(k >= RULE_OF_THUMB, solution.hold_table.shape)
    agreement = float(np.mean((thumb == solution.hold_table)[decisions]))
    mine, theirs = np.meshgrid(np.arange(goal), np.arange(goal), indexing="ij")
    shown = (0, 50) if context.quick else (0, 25, 50, 75)
    return PigReport(goal, solution.first_player_win_probability, PUBLISHED, thresholds, card.scores, card.grid(),
                     {j: thresholds[:, j].tolist() for j in shown}, agreement,
                     float(thresholds[theirs > mine].mean()), float(thresholds[mine > theirs].mean()),
                     solution.states, sum(solution.sweeps), solution.tolerance, solution.seconds)


def published_conclusion(report: PigReport) -> str:
    """Whether the solve reproduces the published figure to its printed precision."""
    agrees = round(report.first_player, 4) == report.published
    return (f"With optimal play the first player wins {report.first_player:.6f} of games to {report.goal}; "
            f"Neller and Presser (2004) print {report.published:.2%}, which this solve "
            + ("reproduces to the printed precision." if agrees else "does **not** reproduce."))


def rule_of_thumb_conclusion(report: PigReport) -> str:
    """How often "hold at 20" takes the optimal decision."""
    quality = "a good first approximation" if report.agreement >= 0.8 else "a poor guide"
    return (f"\"Hold at {RULE_OF_THUMB}\" chooses as the optimal policy does in {report.agreement:.1%} of the "
            f"decisions with a turn total of 2 or more that a hold would not win: {quality}. It ignores the "
            f"scores; the optimal threshold moves with them from {int(report.thresholds.min())} to "
            f"{int(report.thresholds.max())}.")


def risk_conclusion(report: PigReport) -> str:
    """Whether the player behind holds later (risks more) than the player ahead."""
    if report.behind > report.ahead:
        verdict = "the player behind should risk more and hold later"
    elif report.behind < report.ahead:
        verdict = "the player behind should hold earlier than the player ahead"
    else:
        verdict = "being behind or ahead does not move the threshold on average"
    return (f"Averaged over the score pairs, the threshold is {report.behind:.1f} when the mover is behind and "
            f"{report.ahead:.1f} when he is ahead: {verdict}.")


def _figure(report: PigReport):
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(7, 3.8))
    scores = np.arange(report.goal)
    for theirs, curve in report.curves.items():
        axis.step(scores, curve, where="post", label=f"their score {theirs}")
    axis.plot(scores, report.goal - scores, color="grey", lw=0.8, ls=":", label="goal - my score")
    axis.axhline(RULE_OF_THUMB, color="black", lw=0.8, ls="--", label=f"hold at {RULE_OF_THUMB}")
    axis.set(xlabel="my score", ylabel="turn total to hold at", ylim=(0, min(report.goal, 60)),
             title=f"Pig to {report.goal}: the optimal hold threshold")
    axis.legend(fontsize=8)
    return figure


def render(report: PigReport, context) -> str:
    """Markdown of the Pig section (the threshold figure saved through ``context``)."""
    rows = [[mine, *row] for mine, row in zip(report.card_scores, report.card)]
    return "\n".join([
        ("Pig (docs/rules.md section 6): roll a die as often as you dare; a 1 loses the turn's points (PIG-3), a "
        "hold banks them (PIG-5); the first to reach the goal wins (PIG-6). Player 0 starts (PIG-7)."),
        "",
        "## Who wins",
        "",
        (f"The probability of winning from every one of the {report.states:,} decision states, both players "
        f"maximising it, by the core's layered value iteration (float64; every layer of equal score sum swept "
        f"until no value changed by {report.tolerance:g}; {report.sweeps:,} sweeps in all; "
        "`python benchmarks/bench_pig.py` times it)."),
        "",
        published_conclusion(report),
        "",
        "## When to hold",
        "",
        context.save_figure(_figure(report), "pig_thresholds.png", "the optimal hold threshold by my score"),
        "",
        "Hold once the turn total reaches (rows: my score, columns: the opponent's):",
        "",
        markdown_table(["my score \\ theirs", *report.card_scores], rows),
        "",
        rule_of_thumb_conclusion(report),
        "",
        risk_conclusion(report),
    ])
