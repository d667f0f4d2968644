"""The ``dicemath`` command: one sub-command per game, plus ``dice``, ``analyse`` and ``report``.

Every sub-command is a module of this package with ``register(subparsers)``; this module
only lists them in :data:`COMMAND_MODULES`. Errors of input (a
:class:`~dicemath.core.errors.DicemathError`) print a one-line message and exit 2.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from dicemath._version import __version__
from dicemath.core.errors import DicemathError

COMMAND_MODULES = (
    "dicemath.cli.dice",
    "dicemath.cli.pegs_fives",
    "dicemath.cli.pitjesbak",
    "dicemath.cli.backgammon",
    "dicemath.cli.bohnduell",
    "dicemath.cli.analyse",
    "dicemath.cli.report",
)
"""Modules whose ``register(subparsers)`` adds a sub-command, in help order."""


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every sub-command registered."""
    parser = argparse.ArgumentParser(
        prog="dicemath",
        description="Exact probabilities and optimal strategies for Pegs, Fives, Pitjesbak, "
                    "Backgammon and BohnDuell.")
    parser.add_argument("--version", action="version", version=f"dicemath {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code."""
    os.environ.setdefault("MPLBACKEND", "Agg")      # figures go to files; the library never sets a backend
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0 if args.command is None else 2
    try:
        return args.func(args) or 0
    except DicemathError as error:
        print(f"dicemath: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader (``| head``) closed the pipe: stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141


if __name__ == "__main__":
    sys.exit(main())
