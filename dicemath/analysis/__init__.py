"""Analyse a played game: the cost of every decision and the luck of every throw, for every game.

A record (:mod:`.records`: a decision list or a whole game, JSON) names its game; the
game's adapter (``dicemath/games/<game>/analysis.py``, registered in :data:`GAMES`)
maps it onto the game's engine and values it with the best source the library has
(:mod:`.values`); the analysis itself (:mod:`.engine`) is written once; the result
(:mod:`.result`) holds the loss of every decision, the luck of every chance event, the
totals and a rating; :mod:`.plot` draws the value over the game, :mod:`.pictures` the
costliest decisions (the position, the choice played against the best). The command line is
``dicemath analyse FILE`` (:mod:`dicemath.cli.analyse`); ``docs/analyse.md`` documents
the record formats with one example per game.

Example:
    >>> record = {"game": "pitjesbak", "rules": {"stripes": 3},
    ...           "decisions": [{"my_stripes": 3, "their_stripes": 3, "role": "start",
    ...                          "throw_number": 1, "current": "6-5-4", "choice": "throw"}]}
    >>> result = analyse(record)
    >>> result.decisions[0].best, result.decisions[0].loss > 0.05
    ('stop', True)
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from pathlib import Path

from dicemath.analysis.engine import GameAnalysis, analyse_record, final_state
from dicemath.analysis.records import InvalidRecordError, Record, read_record
from dicemath.analysis.result import Analysis, ChanceLuck, DecisionCost
from dicemath.analysis.values import Valued, ValueSource
from dicemath.games import registry

GAMES = {entry.name: entry.analysis for entry in registry.GAMES}
"""Record ``game`` name -> ``"module:adapter"`` (imported on first use)."""


def adapter(game: str) -> GameAnalysis:
    """The :class:`GameAnalysis` of a game named in a record.

    Raises:
        InvalidRecordError: an unknown game.
    """
    try:
        module, name = GAMES[game].split(":")
    except KeyError:
        raise InvalidRecordError(f"unknown game {game!r}; known: {sorted(GAMES)}") from None
    return getattr(importlib.import_module(module), name)


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


def replay(record: Record | Mapping | str | Path):
    """The state a whole game's record ends in, replayed through the game's engine.

    Raises:
        InvalidRecordError: a decision list, a record of the wrong form or an unknown game.
        DicemathError: the first bad entry, named.
    """
    checked = record if isinstance(record, Record) else read_record(record)
    return final_state(checked, adapter(checked.game))


__all__ = ["GAMES", "Analysis", "ChanceLuck", "DecisionCost", "GameAnalysis", "InvalidRecordError", "Record",
           "ValueSource", "Valued", "adapter", "analyse", "read_record", "replay"]
