"""The analysis of a record of any registered game: its game's :class:`GameAnalysis` from the registry."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from dicemath.analysis.engine import GameAnalysis, analyse_record, final_state
from dicemath.analysis.records import InvalidRecordError, Record, read_record
from dicemath.analysis.result import Analysis


def adapter(game: str) -> GameAnalysis:
    """The :class:`GameAnalysis` of a game named in a record.

    Raises:
        InvalidRecordError: an unknown game.
    """
    from dicemath.games.registry import GAMES

    for entry in GAMES:
        if entry.name == game:
            return entry.analysis()
    raise InvalidRecordError(f"unknown game {game!r}; known: {sorted(g.name for g in GAMES)}")


def analyse(record: Record | Mapping | str | Path) -> Analysis:
    """Analyse a record: a :class:`Record`, its JSON object, or the path of a JSON file.

    Returns:
        The :class:`Analysis`: every decision's loss, every chance event's luck, totals.

    Raises:
        InvalidRecordError: a record of the wrong form or an unknown game.
        DicemathError: the first bad entry (an illegal move, an impossible throw, ...),
            its message naming the entry.
    """
    checked = record if isinstance(record, Record) else read_record(record)
    return analyse_record(checked, adapter(checked.game))


def replay(record: Record | Mapping | str | Path) -> Any:
    """The state a whole game's record ends in, replayed through the game's engine.

    Raises:
        InvalidRecordError: a decision list, a record of the wrong form or an unknown game.
        DicemathError: the first bad entry, named.
    """
    checked = record if isinstance(record, Record) else read_record(record)
    return final_state(checked, adapter(checked.game))
