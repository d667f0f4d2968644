"""Figures of an analysis: the value over a whole game, the losses of a decision list.

matplotlib is imported when a figure is drawn (``import dicemath`` does not load it); the
figure's text is sized by :func:`~dicemath.core.figures.readable`.
"""

from __future__ import annotations

from dicemath.analysis.result import Analysis
from dicemath.core.numbers import number_text
from dicemath.core.figures import readable


def analysis_figure(analysis: Analysis, threshold: float | None = None):
    """A whole game: the first seat's value after every entry of the record, decisions that
    lost more than ``threshold`` marked. A decision list: each decision's loss as a bar,
    the threshold as a line.

    Returns:
        A matplotlib figure.
    """
    import matplotlib.pyplot as plt

    limit = analysis.threshold if threshold is None else threshold
    figure, axis = plt.subplots(figsize=(8, 4))
    if analysis.kind == "game":
        steps = [index + 1 for index, _ in analysis.trajectory]
        values = [valued.values[0] for _, valued in analysis.trajectory]
        axis.plot(steps, values, color="tab:blue", drawstyle="steps-post", label=analysis.value_label)
        at = dict(zip(steps, values))
        errors = [d for d in analysis.decisions if d.loss > limit]
        if errors:
            axis.scatter([d.index + 1 for d in errors], [at[d.index + 1] for d in errors], color="tab:red",
                         zorder=3, label=f"decision losing more than {limit:g} {analysis.unit}")
            for d in errors:
                axis.annotate(f"{d.choice} (-{number_text(d.loss, '.3g')})", (d.index + 1, at[d.index + 1]),
                              xytext=(3, 5), textcoords="offset points")
        axis.set(xlabel="moves played so far (each throw and each choice counts one)", ylabel=analysis.value_label,
                 title=f"{analysis.game}: value over the game")
    else:
        indices = [d.index for d in analysis.decisions]
        axis.bar(indices, [d.loss for d in analysis.decisions],
                 color=["tab:red" if d.loss > limit else "tab:blue" for d in analysis.decisions])
        axis.axhline(limit, color="gray", linestyle="--", label=f"threshold {limit:g}")
        axis.set(xlabel="decision number in the record's list", ylabel=f"loss ({analysis.unit})",
                 title=f"{analysis.game}: loss of each decision")
    axis.legend()
    return readable(figure)
