"""``dicemath report``: write the strategy reports (the main job)."""

from __future__ import annotations

from dicemath.reporting import section_names, write_reports


def register(subparsers) -> None:
    """Add ``dicemath report``."""
    report = subparsers.add_parser("report", help="write the strategy reports (Markdown, PNG plots, SVG pictures)")
    report.add_argument("--out", default="reports", help="output folder (default: reports)")
    report.add_argument("--only", nargs="+", metavar="SECTION", choices=section_names(),
                        help=f"write only these sections: {', '.join(section_names())}")
    report.add_argument("--quick", action="store_true",
                        help="smaller computations (fewer simulations) for a fast preview")
    report.add_argument("--recompute", action="store_true",
                        help="recompute the expensive studies (exact races, Pitjesbak tables, long simulations) "
                             "instead of reading their committed data (takes about half an hour)")
    report.add_argument("--jobs", type=int, default=None, metavar="N",
                        help="sections written at once, each in its own process (default: one per core)")
    report.set_defaults(func=run_report)


def run_report(args) -> int:
    written = write_reports(args.out, only=args.only, quick=args.quick, recompute=args.recompute,
                            jobs=args.jobs)
    print(f"wrote {len(written)} files; start at {written[-1]}")
    return 0
