"""The ``dicemath`` command: one sub-command per game, plus ``dice``, ``cache``, ``warmup``,
``analyse``, ``report`` and ``serve``.

The general sub-commands are modules of this package with ``register(subparsers)``, listed in
:data:`COMMAND_MODULES` (before the games') and :data:`LATER_MODULES` (after); each game
adds its own (:meth:`dicemath.core.game.Game.register_commands`, every game of
:mod:`dicemath.games.registry`; a game may add queries to ``dice``,
:func:`dicemath.core.commands.dice_queries`).

Errors of input exit with status 2, before any work starts: a
:class:`~dicemath.core.errors.DicemathError` (input the rules or the limits refuse) and
argparse's own usage errors (an unknown option, a value of the wrong type, a missing
argument; these leave :func:`main` as ``SystemExit(2)``, as argparse does). The message
names the input, one line on stderr: ``dicemath: error: MESSAGE``. With ``--json``
anywhere on the command line the error is also JSON, one object ``{"error": MESSAGE}``
on **stdout**, where the answer's JSON would have gone, so a program reading stdout
always reads one JSON object and tells an error by its ``error`` key (and the status 2);
stderr keeps the one-line message for a person at the terminal. Anything else escaping
is a bug of dicemath (its traceback is printed).

Work is bounded: each sub-command states its limits in its help (dice counts, depths,
stripes, players, open rows, ...) and refuses input beyond them up front.
"""

from __future__ import annotations

import argparse
import contextvars
import importlib
import json
import os
import re
import sys

from dicemath._version import __version__
from dicemath.games import registry
from dicemath.core.errors import DicemathError

COMMAND_MODULES = ("dicemath.cli.dice", "dicemath.cli.cache", "dicemath.cli.warmup")
"""Modules whose ``register(subparsers)`` adds a sub-command before the games', in help order."""
LATER_MODULES = ("dicemath.cli.analyse", "dicemath.cli.report", "dicemath.cli.serve")
"""The same, after the games'."""


_JSON_ERRORS: contextvars.ContextVar[bool] = contextvars.ContextVar("dicemath_json_errors", default=False)
"""Whether :func:`main` runs a command line with ``--json`` (its errors then JSON too)."""


def _json_error(message: str) -> None:
    """Print ``{"error": message}`` on stdout (the ``--json`` form of an error)."""
    json.dump({"error": message}, sys.stdout)
    sys.stdout.write("\n")
    sys.stdout.flush()


class _Parser(argparse.ArgumentParser):
    """argparse's parser (and, by ``add_subparsers``, every sub-command's), whose usage
    errors are also printed as JSON under ``--json`` (see the module docstring)."""

    def error(self, message: str):  # type: ignore[override]
        if _JSON_ERRORS.get():
            _json_error(message)
        super().error(message)


def build_parser() -> argparse.ArgumentParser:
    """The full argument parser with every sub-command registered."""
    parser = _Parser(
        prog="dicemath",
        description="Exact probabilities and optimal strategies for "
                    f"{', '.join(g.title for g in registry.GAMES[:-1])} and {registry.GAMES[-1].title}.")
    parser.add_argument("--version", action="version", version=f"dicemath {__version__}")
    parser.set_defaults(main=main)      # the entry point, for a command that runs others (warmup)
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        importlib.import_module(name).register(subparsers)
    for game in registry.GAMES:
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
    """Entry point of the console script; returns the exit code (2 for an input error,
    see the module docstring; argparse's usage errors raise ``SystemExit(2)``)."""
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    as_json = "--json" in (argv[:argv.index("--")] if "--" in argv else argv)
    token = _JSON_ERRORS.set(as_json)
    try:
        return _run(parser, argv, as_json)
    finally:
        _JSON_ERRORS.reset(token)


def _error(message: str, as_json: bool) -> int:
    print(f"dicemath: error: {message}", file=sys.stderr)
    if as_json:
        _json_error(message)
    return 2


def _run(parser: argparse.ArgumentParser, argv: list[str], as_json: bool) -> int:
    args = parser.parse_args(_negative_values(parser, argv))
    if not getattr(args, "func", None):
        parser.print_help()
        return 0 if args.command is None else 2
    try:
        return args.func(args) or 0
    except DicemathError as error:
        return _error(str(error), as_json)
    except BrokenPipeError:             # before OSError, its base class
        # The reader (``| head``) closed the pipe: stop quietly, as Unix tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    except OSError as error:            # an output the file system refuses (no folder, no permission)
        if error.filename is None:
            raise
        return _error(f"cannot write {error.filename}: {error.strerror}", as_json)


def console() -> None:
    """The ``dicemath`` console script: :func:`main` with figures drawn by Agg (they go to
    files; the library itself never chooses a backend, so notebooks show theirs)."""
    os.environ.setdefault("MPLBACKEND", "Agg")
    sys.exit(main())


if __name__ == "__main__":
    console()
