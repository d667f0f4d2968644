"""The dice report: hit distributions for every number 1..12 and 1..6 dice."""

from __future__ import annotations

from dicemath.core.dice import TARGETS, hit_distribution
from dicemath.reporting.context import ReportContext, markdown_table


def build(context: ReportContext) -> str:
    """Markdown of the dice report, with its figure saved next to it."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    parts = [
        "Hits for a number t (RULES.md, preamble): for 1..6 the dice showing t; for 7..12 the "
        "largest number of disjoint pairs summing to t. All values are exact (integer weights "
        "over 6^n), shown here rounded.",
        "",
        "## Chance of at least one hit",
        "",
    ]
    rows = []
    for target in TARGETS:
        rows.append([target] + [f"{1 - float(hit_distribution(n, target).probability(0)):.4f}"
                                for n in range(1, 7)])
    parts.append(markdown_table(["number"] + [f"{n} dice" for n in range(1, 7)], rows))
    parts += ["", "## Expected number of hits", ""]
    rows = [[target] + [f"{float(hit_distribution(n, target).mean()):.4f}" for n in range(1, 7)]
            for target in TARGETS]
    parts.append(markdown_table(["number"] + [f"{n} dice" for n in range(1, 7)], rows))

    parts += ["", "## Distribution of hits with 6 dice", ""]
    six = [hit_distribution(6, t) for t in TARGETS]
    rows = [[t] + [f"{float(d.probability(k)):.4f}" for k in range(7)] for t, d in zip(TARGETS, six)]
    parts.append(markdown_table(["number"] + [f"{k} hits" for k in range(7)], rows))

    figure, axes = plt.subplots(1, 2, figsize=(11, 4))
    for n in range(1, 7):
        axes[0].plot(TARGETS, [1 - float(hit_distribution(n, t).probability(0)) for t in TARGETS],
                     marker="o", label=f"{n} dice")
    axes[0].set(xlabel="number", ylabel="P(at least one hit)", xticks=TARGETS,
                title="Chance of a hit")
    axes[0].legend(fontsize=8)
    bottom = [0.0] * 12
    for k in range(7):
        heights = [float(d.probability(k)) for d in six]
        axes[1].bar(TARGETS, heights, bottom=bottom, label=f"{k} hits")
        bottom = [b + h for b, h in zip(bottom, heights)]
    axes[1].set(xlabel="number", ylabel="probability", xticks=TARGETS,
                title="Hits with 6 dice")
    axes[1].legend(fontsize=8, bbox_to_anchor=(1.01, 1), loc="upper left")
    parts += ["", context.save_figure(figure, "dice_hits.png", "hit chances per number"), ""]
    parts.append("The pair numbers 7..12 need two dice per hit, so with six dice they never "
                 "exceed three hits; 7 is the easiest pair number, 12 (only 6+6) the hardest.")
    return "\n".join(parts)
