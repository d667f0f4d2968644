"""Recompute the report sections' committed studies: write ``dicemath/studies/data/report_studies.json``.

The expensive numbers of ``dicemath report`` (the exact two-player races of Pegs and Fives on
reduced boards and their deviation curves, the Pitjesbak tables of three and four players and
the round-maximiser's simulations, ...) are committed study data
(:mod:`dicemath.studies.report_studies`) the sections read. This script writes the named
sections (default: every section) with ``recompute`` and ``record`` set: each study a section
asks for is computed afresh (through the cache, :mod:`dicemath.core.cache`: an empty cache
recomputes from scratch) and its record replaced. The reports it writes go to ``--out`` (a
temporary folder by default); ``dicemath report`` then reads the new records.

Usage::

    python analyses/report_studies.py                    # every section (about half an hour cold)
    python analyses/report_studies.py playing_to_win     # the exact races only
    DICEMATH_CACHE_DIR=$(mktemp -d) python analyses/report_studies.py pitjesbak
"""

from __future__ import annotations

import argparse
import tempfile

from dicemath.games.registry import GAMES
from dicemath.reporting import section_names, sections, write_reports
from dicemath.studies.report_studies import RESULTS, study


def main(argv=None) -> int:
    every = sections(GAMES)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sections", nargs="*", metavar="SECTION",
                        help=f"sections whose studies to recompute (default: all): {', '.join(section_names(every))}")
    parser.add_argument("--out", default=None, help="where to write the reports (default: a temporary folder)")
    parser.add_argument("--jobs", type=int, default=None, help="sections at once (default: one per core)")
    args = parser.parse_args(argv)
    out = args.out or tempfile.mkdtemp(prefix="dicemath-report-studies-")
    write_reports(out, every, only=args.sections or None, recompute=True, record=True, jobs=args.jobs, runner=study)
    print(f"recorded the studies in {RESULTS}; reports in {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
