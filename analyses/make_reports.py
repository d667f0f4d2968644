"""Generate the strategy reports in ``reports/`` (the same as ``dicemath report``).

Usage: ``python analyses/make_reports.py [--out reports] [--only SECTION ...] [--quick]``.
Each section is built by a library function registered in :mod:`dicemath.reporting`.
"""

import sys

from dicemath.cli import main

if __name__ == "__main__":
    sys.exit(main(["report", *sys.argv[1:]]))
