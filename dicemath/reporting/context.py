"""What a report section gets: where to write, how much to compute, and whether to read the
committed study data or recompute it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from dicemath.core.figures import readable


def study_file(name: str) -> Path:
    """The committed study data file ``name`` (in ``dicemath/studies/data/``), which a report
    section reads: the studies' results reach the games' sections through the report framework."""
    from dicemath.studies import DATA

    return DATA / name


@dataclass
class ReportContext:
    """The destination of one report section.

    Attributes:
        out_dir: the reports folder; figures go next to the Markdown files.
        quick: True asks for smaller computations (tests, previews).
        recompute: True computes the expensive studies afresh instead of reading their
            committed data (:mod:`dicemath.studies.report_studies`).
        record: True writes what was recomputed into the committed data
            (``analyses/report_studies.py``).
    """

    out_dir: Path
    quick: bool = False
    recompute: bool = False
    record: bool = False

    def study(self, section: str, name: str, params, compute):
        """The committed numbers of study ``section/name`` for ``params``, computed by
        ``compute`` when ``recompute`` is set or the committed data does not hold them
        (:func:`dicemath.studies.report_studies.study`)."""
        from dicemath.studies.report_studies import study

        return study(f"{section}/{name}", params, compute, section=section, recompute=self.recompute,
                     record=self.record)

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
