"""The ``dicemath`` command: one sub-command per game, plus ``dice``, ``cache``, ``warmup``,
``analyse``, ``report`` and ``serve``.

The general sub-commands are modules of this package with ``register(subparsers)``, listed in
:data:`COMMAND_MODULES`; each game adds its own (:meth:`dicemath.core.game.Game.register_commands`,
every game of :mod:`dicemath.games.registry`). Errors of input (a
:class:`~dicemath.core.errors.DicemathError`) print a one-line message and exit 2.
"""

from __future__ import annotations

import argparse
import importlib
import os
import re
import sys

from dicemath._version import __version__
from dicemath.games.registry import GAMES
from dicemath.core.errors import DicemathError

COMMAND_MODULES = ("dicemath.cli.cache", "dicemath.cli.warmup")
"""Modules whose ``register(subparsers)`` adds a sub-command before the games', in help order."""
LATER_MODULES = ("dicemath.cli.analyse", "dicemath.cli.report", "dicemath.cli.serve")
"""The same, after the games'."""


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every sub-command registered."""
    parser = argparse.ArgumentParser(
        prog="dicemath",
        description="Exact probabilities and optimal strategies for "
                    f"{', '.join(g.title for g in GAMES[:-1])} and {GAMES[-1].title}.")
    parser.add_argument("--version", action="version", version=f"dicemath {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    for game in GAMES:
        game.register_commands(subparsers)
    for name in LATER_MODULES:
        importlib.import_module(name).register(subparsers)
    return parser


def _value_options(parser: argparse.ArgumentParser) -> set[str]:
    """The option strings of every (sub)command that take one value."""
    found: set[str] = set()
    for action in parser._actions:                       # argparse keeps no public list
        if action.option_strings and action.nargs is None and action.const is None and action.type is not bool:
            if not isinstance(action, (argparse._StoreTrueAction, argparse._StoreFalseAction, argparse._HelpAction,
                                       argparse._VersionAction, argparse._CountAction)):
                found.update(action.option_strings)
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                found |= _value_options(sub)
    return found


def _negative_values(parser: argparse.ArgumentParser, argv: list[str]) -> list[str]:
    """``--board -1,0,...`` as ``--board=-1,0,...``: argparse takes a value that starts with
    ``-`` for an option, so the bad value would never reach the check that names it."""
    options = _value_options(parser)
    out: list[str] = []
    skip = False
    for i, token in enumerate(argv):
        if skip:
            skip = False
            continue
        following = argv[i + 1] if i + 1 < len(argv) else None
        if token in options and following is not None and re.match(r"-\d", following):
            out.append(f"{token}={following}")
            skip = True
        else:
            out.append(token)
    return out


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(_negative_values(parser, sys.argv[1:] if argv is None else list(argv)))
    if not getattr(args, "func", None):
        parser.print_help()
        return 0 if args.command is None else 2
    try:
        return args.func(args) or 0
    except DicemathError as error:
        print(f"dicemath: error: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:             # before OSError, its base class
        # The reader (``| head``) closed the pipe: stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except OSError as error:            # an output the file system refuses (no folder, no permission)
        if error.filename is None:
            raise
        print(f"dicemath: error: cannot write {error.filename}: {error.strerror}", file=sys.stderr)
        return 2


def console() -> None:
    """The ``dicemath`` console script: :func:`main` with figures drawn by Agg (they go to
    files; the library itself never chooses a backend, so notebooks show theirs)."""
    os.environ.setdefault("MPLBACKEND", "Agg")
    sys.exit(main())


if __name__ == "__main__":
    console()
