"""What a report section gets: where to write, how much to compute, Markdown helpers."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dicemath.reporting.figures import readable


@dataclass
class ReportContext:
    """The destination of one report section.

    Attributes:
        out_dir: the reports folder; figures go next to the Markdown files.
        quick: True asks for smaller computations (tests, previews).
    """

    out_dir: Path
    quick: bool = False

    def save_figure(self, figure, name: str, alt: str) -> str:
        """Save a matplotlib figure as ``<out_dir>/<name>`` (PNG), its text made
        :func:`~dicemath.reporting.figures.readable`, and return its Markdown."""
        import matplotlib.pyplot as plt

        path = self.out_dir / name
        readable(figure).savefig(path, dpi=110, bbox_inches="tight")
        plt.close(figure)
        return f"![{alt}]({name})"

    def save_picture(self, document: str, name: str, alt: str) -> str:
        """Save an SVG picture (a drawn position, :func:`dicemath.core.svg.picture`) as
        ``<out_dir>/<name>`` and return its Markdown."""
        (self.out_dir / name).write_text(document, encoding="utf-8")
        return f"![{alt}]({name})"


def markdown_table(headers: Sequence[str], rows: Sequence[Sequence[Any]],
                   align: str | None = None) -> str:
    """A GitHub Markdown table; ``align`` is one letter per column (l, r, c), default r."""
    align = align or "l" + "r" * (len(headers) - 1)
    marks = {"l": ":---", "r": "---:", "c": ":---:"}
    lines = ["| " + " | ".join(str(h) for h in headers) + " |",
             "| " + " | ".join(marks[a] for a in align) + " |"]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)
