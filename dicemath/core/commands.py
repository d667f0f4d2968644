"""Small helpers shared by the ``dicemath`` sub-commands: argument parsing and output.

Every query command takes ``--json``; its output is one JSON object with stable keys,
exact probabilities written as ``"a/b"`` strings next to their float values. Every game has
``show STATE`` (:func:`add_show_command`, :func:`show_state`): a state's text view, its
picture with ``--svg FILE``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from dicemath.core.errors import InvalidDiceError, OutputPathError
from dicemath.core.game import CHANCE, TERMINAL


def fraction_text(value: Fraction | int) -> str:
    """An exact probability as ``"a/b"`` (``"1"`` and ``"0"`` for whole numbers)."""
    value = Fraction(value)
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


def int_list(text: str) -> list[int]:
    """Parse ``"0,0,3,1"`` into ``[0, 0, 3, 1]`` (an argparse type)."""
    try:
        return [int(part) for part in text.split(",") if part.strip() != ""]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated whole numbers, got {text!r}") from None


def throw_list(text: str) -> list[int]:
    """Parse a throw, ``"6-5-3"`` or ``"6,5,3"`` (also ``"6 5 3"``, ``"653"``), into its faces
    in the order written (an argparse type; every throw option takes it, boards take
    :func:`int_list`). The faces are checked by the game, not here.

    Raises:
        argparse.ArgumentTypeError: a part that is no whole number.

    Example:
        >>> throw_list("6-5-3-3-3-2"), throw_list("3,3,3,5,6,2")
        ([6, 5, 3, 3, 3, 2], [3, 3, 3, 5, 6, 2])
    """
    from dicemath.core.dice import throw_faces

    try:
        return throw_faces(text)
    except InvalidDiceError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_json_flag(parser: argparse.ArgumentParser) -> None:
    """Add the ``--json`` flag every query command has."""
    parser.add_argument("--json", action="store_true", help="print one JSON object with stable keys")


def _default(value: Any) -> Any:
    if isinstance(value, Fraction):
        return float(value)
    if hasattr(value, "tolist"):
        return value.tolist()
    if hasattr(value, "item"):
        return value.item()
    raise TypeError(f"cannot write {type(value).__name__} as JSON")


def emit(result: dict[str, Any], as_json: bool, render: Callable[[dict[str, Any]], str]) -> None:
    """Print ``result`` as JSON (``--json``) or as the human text ``render(result)``."""
    if as_json:
        json.dump(result, sys.stdout, default=_default, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(render(result).rstrip("\n") + "\n")


def text_table(headers: list[str], rows: list[list[Any]]) -> str:
    """A plain aligned text table for terminal output."""
    cells = [[str(h) for h in headers]] + [[str(c) for c in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]
    lines = ["  ".join(c.rjust(w) for c, w in zip(row, widths)) for row in cells]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return "\n".join(lines)


def add_state_argument(parser: argparse.ArgumentParser, example: str) -> None:
    """Add the optional positional ``STATE`` of ``dicemath GAME advise STATE``: the state's text
    form (``str(state)``, as ``show`` prints it), which the game's ``State.from_str`` reads."""
    parser.add_argument("state", nargs="?", default=None, metavar="STATE",
                        help=f"the state's text form, as 'show' prints it, e.g. {example!r}")


Subparsers = argparse._SubParsersAction  # the type argparse gives add_subparsers' result

DICE = "dice"
"""The general command of dice distributions (``dicemath dice QUERY``), to which games add queries."""

MAX_DICE = 24
"""The most dice a ``dicemath dice`` query takes: its exact distribution sums over every multiset
of faces (``C(n + 5, 5)``), a few seconds at this many, minutes at a few hundred."""


def dice_queries(subparsers: Subparsers[argparse.ArgumentParser]) -> Subparsers[argparse.ArgumentParser]:
    """The queries of ``dicemath dice`` (:data:`DICE`), the command added on the first call: the
    command line's own dice queries and those a game adds (from its
    :meth:`~dicemath.core.game.Game.register_commands`) are added to it."""
    if DICE not in subparsers.choices:
        command = subparsers.add_parser(DICE, help="dice distributions: the total of N dice, and the games' own")
        return command.add_subparsers(dest="dice_command", metavar="QUERY", required=True)
    command = subparsers.choices[DICE]
    return next(a for a in command._actions if isinstance(a, argparse._SubParsersAction))  # no public list


def add_dice_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--dice N`` (required), the number of dice of a ``dicemath dice`` query (1..:data:`MAX_DICE`)."""
    parser.add_argument("--dice", type=int, required=True, help=f"number of dice, 1..{MAX_DICE}")


def check_dice_option(dice: int) -> int:
    """``dice`` if it is a number of dice a ``dicemath dice`` query takes.

    Raises:
        InvalidDiceError: not a whole number 1..:data:`MAX_DICE` (checked before any work).
    """
    if isinstance(dice, bool) or not isinstance(dice, int) or not 1 <= dice <= MAX_DICE:
        raise InvalidDiceError(f"--dice must be 1..{MAX_DICE} (the exact distribution grows with every die), "
                               f"got {dice!r}")
    return dice


def add_game_command(subparsers: Subparsers[argparse.ArgumentParser], game: Any,
                     help_text: str) -> tuple[argparse.ArgumentParser, Subparsers[argparse.ArgumentParser]]:
    """Add ``dicemath GAME`` for ``game`` (a :class:`~dicemath.core.game.Game`) with its
    ``rules`` query (:func:`add_rules_command`); returns its parser and the sub-parsers its
    other queries are added to."""
    parser = subparsers.add_parser(game.name, help=help_text)
    commands = parser.add_subparsers(dest=f"{game.name}_command", metavar="QUERY", required=True)
    add_rules_command(commands, game)
    return parser, commands


def add_rules_command(commands: argparse._SubParsersAction[argparse.ArgumentParser], game: Any) -> None:
    """Add ``dicemath GAME rules``: print the game's rules, its
    :meth:`~dicemath.core.game.Game.rules_text` (by default its sections of the shipped
    ``docs/rules.md``, :attr:`~dicemath.core.game.Game.rules_headings`)."""
    rules = commands.add_parser("rules", help="print the rules of the game (numbered as the code cites them)")
    rules.set_defaults(func=lambda args: _print_rules(game))


def _print_rules(game: Any) -> int:
    sys.stdout.write(game.rules_text())
    return 0


FIGURE_TYPES = ("png", "svg", "pdf", "jpg", "jpeg")
"""File types a figure can be written as (by the file name's suffix)."""


def check_figure_path(path: str) -> Path:
    """Return ``path`` if a figure can be written there.

    Raises:
        OutputPathError: an unknown file type, or a folder that does not exist.
    """
    target = Path(path)
    if target.suffix.lower().lstrip(".") not in FIGURE_TYPES:
        raise OutputPathError(f"cannot draw a figure into {path}: name a file ending in "
                              + ", ".join("." + t for t in FIGURE_TYPES))
    if not target.parent.is_dir():
        raise OutputPathError(f"cannot write {path}: the folder {target.parent} does not exist")
    return target


def add_svg_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--svg FILE``: the position (with the advice) drawn into an SVG file."""
    parser.add_argument("--svg", metavar="FILE.svg", default=None, help="draw the position into this SVG file")


def write_svg(path: str | None, draw: Callable[[], str], result: dict[str, Any]) -> None:
    """Write ``draw()`` to ``path`` (if given) and name the file in ``result`` (key ``svg``).

    Raises:
        OutputPathError: not an ``.svg`` file name, or a folder that does not exist.
    """
    if path is None:
        return
    target = Path(path)
    if target.suffix.lower() != ".svg":
        raise OutputPathError(f"cannot draw into {path}: name a file ending in .svg")
    if not target.parent.is_dir():
        raise OutputPathError(f"cannot write {path}: the folder {target.parent} does not exist")
    target.write_text(draw(), encoding="utf-8")
    result["svg"] = str(path)


START = "start"
"""The ``STATE`` of ``show`` that names the start of a game."""


def is_start(text: str) -> bool:
    """Whether a ``STATE`` argument is :data:`START` (in any case)."""
    return text.strip().lower() == START


def add_show_command(commands: argparse._SubParsersAction[argparse.ArgumentParser],
                     forms: str) -> argparse.ArgumentParser:
    """Add ``show STATE [--svg FILE] [--json]`` to a game's sub-commands; returns its parser
    (for the game's own options).

    Args:
        commands: the argparse sub-parsers object of ``dicemath GAME``.
        forms: what ``STATE`` may be, for the help (the text form of the game's ``State``,
            ``str(state)``, is always one).
    """
    show = commands.add_parser("show", help="a state's text view, and its picture with --svg")
    show.add_argument("state", metavar="STATE", help=forms)
    add_svg_option(show)
    add_json_flag(show)
    return show


def show_state(args: argparse.Namespace, game: str, state: Any, diagram: str, names: Sequence[str],
               **details: Any) -> int:
    """Print the answer of ``dicemath GAME show``: the text view of ``state``, or with
    ``--json`` one object with the keys ``game``, ``state`` (its text form, which
    ``State.from_str`` reads back), ``diagram`` (the text view), ``to_act`` (the name of the
    player to decide, ``"dice"`` when a throw comes next, None once the game is over),
    ``legal_moves`` (the text of each action of the player to decide) and ``details`` (what
    the game's state holds); ``--svg FILE`` draws the state (its registered picture,
    :func:`dicemath.core.svg.picture`) and adds ``svg``.

    Args:
        args: the parsed ``show`` arguments (``svg``, ``json``).
        game: the game's command name.
        state: the state to show.
        diagram: its text view.
        names: the name of each player, by index.

    Returns:
        The exit code, 0.
    """
    from dicemath.core.svg import picture

    player = state.current_player()
    result = {"game": game, "state": str(state), "diagram": diagram,
              "to_act": "dice" if player == CHANCE else None if player == TERMINAL else names[player],
              "legal_moves": [state.action_text(action) for action in state.legal_actions()], **details}
    write_svg(args.svg, lambda: picture(state), result)
    emit(result, args.json, _render_show)
    return 0


def _render_show(result: dict[str, Any]) -> str:
    moves = result["legal_moves"]
    diagram: str = result["diagram"]
    return diagram + (f"\nlegal moves: {', '.join(moves)}" if moves else "")
