"""The analysis of a record of any of the games handed in: the game the record names, found among them.

The games are handed down by the caller (the command line and ``dicemath.analyse`` hand the
registry's :data:`~dicemath.games.registry.GAMES`); nothing here looks a game up elsewhere.

Example:
    >>> from dicemath.games.registry import GAMES
    >>> result = analyse({"game": "pig", "rules": {"goal": 20}, "decisions": [{"state": "0:0-0 t4 choose",
    ...                                                                         "choice": "hold"}]}, GAMES)
    >>> result.decisions[0].best, result.decisions[0].loss > 0.05
    ('roll', True)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from dicemath.analysis.engine import GameAnalysis, analyse_record, final_state
from dicemath.analysis.records import InvalidRecordError, Record, read_record
from dicemath.analysis.result import Analysis
from dicemath.core.game import Game


def game_named(name: str, games: Iterable[Game]) -> Game:
    """The game called ``name`` among ``games``.

    Raises:
        InvalidRecordError: none of them is.
    """
    choices = tuple(games)
    for game in choices:
        if game.name == name:
            return game
    raise InvalidRecordError(f"unknown game {name!r}; known: {sorted(g.name for g in choices)}")


def adapter(name: str, games: Iterable[Game]) -> GameAnalysis:
    """The :class:`GameAnalysis` of the game called ``name`` among ``games`` (its records' form).

    Raises:
        InvalidRecordError: an unknown game.
    """
    return game_named(name, games).analysis()


def analyse(record: Record | Mapping | str | Path, games: Iterable[Game]) -> Analysis:
    """Analyse a record (a :class:`Record`, its JSON object, or the path of a JSON file) of one of ``games``.

    Returns:
        The :class:`Analysis`: every decision's loss, every chance event's luck, totals.

    Raises:
        InvalidRecordError: a record of the wrong form or of a game not among ``games``.
        DicemathError: the first bad entry (an illegal move, an impossible throw, ...),
            its message naming the entry.
    """
    checked = read_record(record)
    return analyse_record(checked, game_named(checked.game, games))


def replay(record: Record | Mapping | str | Path, games: Iterable[Game]) -> Any:
    """The state a whole game's record ends in, replayed through the engine of its game (one of ``games``).

    Raises:
        InvalidRecordError: a decision list, a record of the wrong form or of a game not among ``games``.
        DicemathError: the first bad entry, named.
    """
    checked = read_record(record)
    return final_state(checked, game_named(checked.game, games))
