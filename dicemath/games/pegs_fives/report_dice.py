"""The dice report: hit distributions for every number 1..12 and 1..6 dice.

:func:`compute` returns the numbers (:class:`DiceReport`, exact Fractions); :func:`render`
writes the Markdown and the figure from them, including the closing sentence, which is
read off the numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from dicemath.games.pegs_fives.hits import PAIR_TARGETS, TARGETS, hit_distribution
from dicemath.core.markdown import markdown_table
from dicemath.reporting.context import ReportContext

DICE_COUNTS = tuple(range(1, 7))
"""The numbers of dice in the tables."""


@dataclass(frozen=True)
class DiceReport:
    """The numbers of the dice report, exact.

    Attributes:
        at_least_one: ``[target][n]``: P(at least one hit) with ``n`` dice (``DICE_COUNTS``).
        mean_hits: ``[target][n]``: expected hits.
        six_dice: ``[target][k]``: P(k hits) with six dice, k = 0..6.
    """

    at_least_one: dict[int, tuple[Fraction, ...]]
    mean_hits: dict[int, tuple[Fraction, ...]]
    six_dice: dict[int, tuple[Fraction, ...]]


def compute(context: ReportContext | None = None) -> DiceReport:
    """The exact numbers of the dice report (docs/rules.md preamble: hits)."""
    at_least_one, mean_hits, six_dice = {}, {}, {}
    for target in TARGETS:
        distributions = [hit_distribution(n, target) for n in DICE_COUNTS]
        at_least_one[target] = tuple(1 - d.probability(0) for d in distributions)
        mean_hits[target] = tuple(d.mean() for d in distributions)
        six_dice[target] = tuple(distributions[-1].probability(k) for k in range(7))
    return DiceReport(at_least_one, mean_hits, six_dice)


def conclusion(report: DiceReport) -> str:
    """The closing sentence, read off the numbers: the most hits a pair number can get
    with six dice, and the easiest and hardest pair numbers to hit at least once."""
    most = max(max(k for k, p in enumerate(report.six_dice[t]) if p) for t in PAIR_TARGETS)
    chance = {t: report.at_least_one[t][-1] for t in PAIR_TARGETS}
    easiest = max(PAIR_TARGETS, key=lambda t: (chance[t], -t))
    hardest = min(PAIR_TARGETS, key=lambda t: (chance[t], t))
    return (f"The pair numbers {PAIR_TARGETS[0]}..{PAIR_TARGETS[-1]} need two dice per hit, so with six "
            f"dice they get at most {most} hits; {easiest} is the easiest pair number to hit at least "
            f"once ({float(chance[easiest]):.4f}), {hardest} the hardest ({float(chance[hardest]):.4f}).")


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def render(report: DiceReport, context: ReportContext) -> str:
    """Markdown of the dice report, with its figure saved through ``context``."""
    import matplotlib.pyplot as plt

    columns = ["number"] + [_plural(n, "die", "dice") for n in DICE_COUNTS]
    parts = [
        "Hits for a number t (docs/rules.md, preamble): for 1..6 the dice showing t; for 7..12 the "
        "largest number of disjoint pairs summing to t. All values are exact (integer weights "
        "over 6^n), shown here rounded.",
        "",
        "## Chance of at least one hit",
        "",
        markdown_table(columns, [[t] + [f"{float(p):.4f}" for p in report.at_least_one[t]] for t in TARGETS]),
        "",
        "## Expected number of hits",
        "",
        markdown_table(columns, [[t] + [f"{float(m):.4f}" for m in report.mean_hits[t]] for t in TARGETS]),
        "",
        "## Distribution of hits with 6 dice",
        "",
        markdown_table(["number"] + [_plural(k, "hit", "hits") for k in range(7)],
                       [[t] + [f"{float(p):.4f}" for p in report.six_dice[t]] for t in TARGETS]),
    ]
    figure, axes = plt.subplots(1, 2, figsize=(11, 4))
    for i, n in enumerate(DICE_COUNTS):
        axes[0].plot(TARGETS, [float(report.at_least_one[t][i]) for t in TARGETS], marker="o",
                     label=_plural(n, "die", "dice"))
    axes[0].set(xlabel="number", ylabel="P(at least one hit)", xticks=TARGETS, title="Chance of a hit")
    axes[0].legend()
    bottom = [0.0] * len(TARGETS)
    for k in range(7):
        heights = [float(report.six_dice[t][k]) for t in TARGETS]
        axes[1].bar(TARGETS, heights, bottom=bottom, label=_plural(k, "hit", "hits"))
        bottom = [b + h for b, h in zip(bottom, heights)]
    axes[1].set(xlabel="number", ylabel="probability", xticks=TARGETS, title="Hits with 6 dice")
    axes[1].legend(bbox_to_anchor=(1.01, 1), loc="upper left")
    parts += ["", context.save_figure(figure, "dice_hits.png", "hit chances per number"), "",
              conclusion(report)]
    return "\n".join(parts)
