"""What a report section gets: where to write, and how much to compute."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from dicemath.core.figures import readable


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
        :func:`~dicemath.core.figures.readable`, and return its Markdown."""
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
