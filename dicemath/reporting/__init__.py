"""Strategy reports: Markdown with matplotlib figures and drawn positions, one section per game.

A section *computes, then renders*: ``compute(context)`` returns the section's numbers
(a data object, no prose), ``render(data, context)`` writes the Markdown and saves the
figures through ``context.save_figure`` and the pictures of positions (SVG) through
``context.save_picture``; every sentence that states a conclusion is read
off the data. :data:`SECTIONS` is the one registry: a game adds its
report by adding a line there. :func:`write_reports` writes each section to
``<out>/<name>.md`` and an index ``<out>/README.md``.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from dicemath.reporting.context import ReportContext


def _function(path: str):
    module, name = path.split(":")
    return getattr(importlib.import_module(module), name)


@dataclass(frozen=True)
class Section:
    """One report: its file name, title, and where its code is (``"module:function"``).

    Attributes:
        name, title: file name (without ``.md``) and heading.
        compute: ``compute(context) -> data``.
        render: ``render(data, context) -> Markdown``.
    """

    name: str
    title: str
    compute: str
    render: str

    def data(self, context: ReportContext):
        """The section's numbers."""
        return _function(self.compute)(context)

    def build(self, context: ReportContext) -> str:
        """The section's Markdown."""
        return _function(self.render)(self.data(context), context)


SECTIONS: tuple[Section, ...] = (
    Section("dice", "Dice: hits for every number",
            compute="dicemath.reporting.dice:compute", render="dicemath.reporting.dice:render"),
    Section("pegs", "Pegs: expected turns per row, optimal rows, the row advisor",
            compute="dicemath.games.pegs_fives.report:compute_pegs",
            render="dicemath.games.pegs_fives.report:render"),
    Section("fives", "Fives: expected turns per number, the advisor, races and rest points",
            compute="dicemath.games.pegs_fives.report:compute_fives",
            render="dicemath.games.pegs_fives.report:render"),
    Section("full_board", "Pegs and Fives on the full board: the exact optimum and every policy measured",
            compute="dicemath.games.pegs_fives.full_board_report:compute",
            render="dicemath.games.pegs_fives.full_board_report:render"),
    Section("pitjesbak", "Pitjesbak: when to stop, and who wins",
            compute="dicemath.games.pitjesbak.report:compute", render="dicemath.games.pitjesbak.report:render"),
    Section("backgammon_bearoff", "Backgammon: exact bear-off",
            compute="dicemath.games.backgammon.report:compute", render="dicemath.games.backgammon.report:render"),
    Section("backgammon_cube", "Backgammon: the doubling cube",
            compute="dicemath.games.backgammon.cube_report:compute",
            render="dicemath.games.backgammon.cube_report:render"),
    Section("backgammon_playtive", "Backgammon: the Playtive rule measured by self-play",
            compute="dicemath.games.backgammon.playtive_report:compute",
            render="dicemath.games.backgammon.playtive_report:render"),
    Section("bohnduell", "BohnDuell: solved small games and a 40-bean advisor",
            compute="dicemath.games.bohnduell.report:compute", render="dicemath.games.bohnduell.report:render"),
    Section("analyse", "Analysed games: where each policy loses",
            compute="dicemath.analysis.report:compute", render="dicemath.analysis.report:render"),
)


def section(name: str) -> Section:
    """The registered section called ``name``.

    Raises:
        ValueError: no such section.
    """
    for candidate in SECTIONS:
        if candidate.name == name:
            return candidate
    raise ValueError(f"unknown report section {name!r}; known: {section_names()}")


def section_names() -> list[str]:
    """The names of every registered section, in report order."""
    return [s.name for s in SECTIONS]


def write_reports(out_dir: str | Path = "reports", *, only: Sequence[str] | None = None,
                  quick: bool = False, log=print) -> list[Path]:
    """Write every (or ``only`` the named) report section into ``out_dir``.

    Args:
        out_dir: destination folder, created if missing.
        only: names of the sections to write (default: all of :data:`SECTIONS`).
        quick: smaller computations (fewer simulations), for tests and previews.
        log: where to print one progress line per section.

    Returns:
        The paths of the Markdown files written, the index last.

    Raises:
        ValueError: ``only`` names a section that does not exist.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    chosen = list(SECTIONS)
    if only:
        unknown = sorted(set(only) - set(section_names()))
        if unknown:
            raise ValueError(f"unknown report section(s) {unknown}; known: {section_names()}")
        chosen = [s for s in SECTIONS if s.name in only]
    written = []
    for number, section in enumerate(chosen, 1):
        start = time.perf_counter()
        log(f"[{number}/{len(chosen)}] {section.title} ...", flush=True)
        context = ReportContext(out, quick=quick)
        body = section.build(context)
        path = out / f"{section.name}.md"
        path.write_text(f"# {section.title}\n\n{body.strip()}\n", encoding="utf-8")
        written.append(path)
        log(f"      wrote {path} in {time.perf_counter() - start:.1f} s", flush=True)
    index = out / "README.md"
    lines = ["# dicemath strategy reports", "",
             "Generated by `dicemath report`; every number here is computed by the library.", ""]
    lines += [f"- [{s.title}]({s.name}.md)" for s in SECTIONS if (out / f"{s.name}.md").exists()]
    index.write_text("\n".join(lines) + "\n", encoding="utf-8")
    written.append(index)
    return written
