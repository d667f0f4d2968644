"""``dicemath report``: write the strategy reports (the main job) of every registered game.

The command hands the report framework (:func:`dicemath.reporting.write_reports`) the sections
of :data:`dicemath.games.registry.GAMES` and the study runner
(:func:`dicemath.studies.report_studies.study`) that computes what the committed study data
does not hold. The report framework, the studies and the sections are imported only when the
command runs or its help is shown (listing the sections imports every game's report modules),
so that building the command line stays light.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

from dicemath.games import registry

if TYPE_CHECKING:
    from dicemath.reporting import Section


def report_sections() -> tuple[Section, ...]:
    """The sections of every registered game (the registry as it is when called), in report order."""
    from dicemath.reporting import sections        # the report framework loads when the command runs

    return sections(registry.GAMES)


class _SectionNames:
    """The choices of ``--only``: the section names, listed when argparse first reads them
    (``dicemath report --help``, or a check of ``--only``), not when the parser is built."""

    def __iter__(self) -> Iterator[str]:
        return iter(section.name for section in report_sections())

    def __contains__(self, name: object) -> bool:
        return name in list(self)


def register(subparsers) -> None:
    """Add ``dicemath report``."""
    report = subparsers.add_parser("report", help="write the strategy reports (Markdown, PNG plots, SVG pictures)")
    report.add_argument("--out", default="reports", help="output folder (default: reports)")
    report.add_argument("--only", nargs="+", metavar="SECTION", choices=_SectionNames(),
                        help="write only these sections: %(choices)s")
    report.add_argument("--quick", action="store_true",
                        help="smaller computations (fewer simulations) for a fast preview")
    report.add_argument("--recompute", action="store_true",
                        help="recompute the expensive studies (exact solutions, large tables, long simulations) "
                             "instead of reading their committed data (takes about half an hour)")
    report.add_argument("--jobs", type=int, default=None, metavar="N",
                        help="sections written at once, each in its own process (default: one per core)")
    report.set_defaults(func=run_report)


def run_report(args) -> int:
    from dicemath.reporting import write_reports   # the report and the studies load when the command runs
    from dicemath.studies.report_studies import study

    written = write_reports(args.out, report_sections(), only=args.only, quick=args.quick,
                            recompute=args.recompute, jobs=args.jobs, runner=study)
    print(f"wrote {len(written)} files; start at {written[-1]}")
    return 0
