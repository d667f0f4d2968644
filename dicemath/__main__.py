"""``python -m dicemath`` runs the command line."""

import sys

from dicemath.cli import main

sys.exit(main())
