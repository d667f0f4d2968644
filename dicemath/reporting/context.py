"""What a report section gets: where to write, how much to compute, and its studies' numbers,
read from the committed study data as files or computed.

The committed study data is the folder ``dicemath/studies/data/`` (:data:`STUDY_DATA`): a
section reads a study's results file by :func:`study_file`, and its own expensive numbers by
:meth:`ReportContext.study` from :data:`STUDIES_FILE` there, ``{"studies": {name: {"params":
repr(params), "value": ..., ...}}}``. Computing a study afresh, and recording it into that file,
is the study runner's job (:data:`StudyRunner`), handed down by the caller (the command line
hands :func:`dicemath.studies.report_studies.study`): the report reads study data, never study code.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dicemath.core.figures import readable

STUDY_DATA = Path(__file__).resolve().parent.parent / "studies" / "data"
"""The studies' committed data, shipped in the package."""

STUDIES_FILE = "report_studies.json"
"""The file of :data:`STUDY_DATA` that holds the report sections' own studies."""

StudyRunner = Callable[..., Any]
"""Computes one study: ``runner(name, params, compute, *, section, record) -> value`` calls
``compute()`` and returns its value as read back from JSON; with ``record`` it also writes the
record into :data:`STUDIES_FILE` (:func:`dicemath.studies.report_studies.study`)."""


def study_file(name: str) -> Path:
    """The committed study data file ``name`` (in :data:`STUDY_DATA`), which a report section reads."""
    return STUDY_DATA / name


_READ: dict[Path, tuple[int, dict]] = {}
"""Each studies file read, with its modification time: read again when it changed."""


def committed_study(path: Path, name: str, params: Any) -> dict | None:
    """The record of study ``name`` in the studies file ``path`` when it was computed for
    ``params`` (its ``params`` is ``repr(params)``), else None (also when there is no file)."""
    try:
        changed = path.stat().st_mtime_ns
    except FileNotFoundError:
        return None
    if path not in _READ or _READ[path][0] != changed:
        _READ[path] = changed, json.loads(path.read_text(encoding="utf-8")).get("studies", {})
    record = _READ[path][1].get(name)
    return record if record is not None and record.get("params") == repr(params) else None


def _plain(value: Any) -> Any:
    """A numpy array or scalar as JSON data (``json.dumps``'s ``default``)."""
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"not JSON study data: {type(value).__name__}")


@dataclass
class ReportContext:
    """The destination of one report section.

    Attributes:
        out_dir: the reports folder; figures go next to the Markdown files.
        quick: True asks for smaller computations (tests, previews).
        recompute: True computes the expensive studies afresh instead of reading their
            committed data.
        record: True has ``runner`` write what it computes into the committed data
            (``analyses/report_studies.py``).
        runner: the study runner (:data:`StudyRunner`); without one a study that is not
            read is computed in place, and never recorded.
        data: the committed study data folder (:data:`STUDY_DATA`).
    """

    out_dir: Path
    quick: bool = False
    recompute: bool = False
    record: bool = False
    runner: StudyRunner | None = None
    data: Path = STUDY_DATA

    def study(self, section: str, name: str, params: Any, compute: Callable[[], Any]) -> Any:
        """The numbers of study ``section/name`` for ``params``: the committed record of
        :data:`STUDIES_FILE` (:func:`committed_study`), else (or with ``recompute``) computed by
        ``compute`` through the runner, as read back from JSON (tuples become lists, numpy
        arrays lists), so a report does not depend on where its numbers came from.

        Raises:
            ValueError: ``record`` is set without a ``runner``.
        """
        key = f"{section}/{name}"
        if not self.recompute:
            found = committed_study(self.data / STUDIES_FILE, key, params)
            if found is not None:
                return found["value"]
            print(f"dicemath: the study {key!r} is not in the committed data for these parameters "
                  f"({STUDIES_FILE}); computing it (`python analyses/report_studies.py {section}` records it) ...",
                  file=sys.stderr, flush=True)
        if self.runner is not None:
            return self.runner(key, params, compute, section=section, record=self.record)
        if self.record:
            raise ValueError("recording a study needs a study runner (ReportContext.runner)")
        return json.loads(json.dumps(compute(), default=_plain))

    def save_figure(self, figure: Any, name: str, alt: str) -> str:
        """Save a matplotlib figure as ``<out_dir>/<name>`` (PNG), its text made
        :func:`~dicemath.core.figures.readable`, and return its Markdown."""
        import matplotlib.pyplot as plt    # loaded when a figure is saved: matplotlib takes a second to import

        path = self.out_dir / name
        readable(figure).savefig(path, dpi=110, bbox_inches="tight")
        plt.close(figure)
        return f"![{alt}]({name})"

    def save_picture(self, document: str, name: str, alt: str) -> str:
        """Save an SVG picture (a drawn position, :func:`dicemath.core.svg.picture`) as
        ``<out_dir>/<name>`` and return its Markdown."""
        (self.out_dir / name).write_text(document, encoding="utf-8")
        return f"![{alt}]({name})"
