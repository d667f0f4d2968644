"""Analyse a played game: the cost of every decision and the luck of every throw, for every game.

A record (:mod:`.records`: a decision list or a whole game, JSON) names its game, one of the
games the caller hands in (:func:`analyse`, :func:`replay`: the command line hands the
registry's); the game's adapter (``dicemath/games/<game>/analysis.py``, its
:class:`~dicemath.core.game.Game`'s ``analysis()``) reads the record onto the game's engine;
the analysis itself (:mod:`.engine`) is written once and values every decision by the game's
advice (``Game.advise``) and every state by the game's chain of sources (``Game.sources``);
the result (:mod:`.result`) holds the loss of every decision, the luck of every chance
event, the totals and a rating; :mod:`.plot` draws the value over the game, :mod:`.pictures`
the costliest decisions (the position, the choice played against the best); :mod:`.play`
plays seeded games between policies and writes them as records. The command line is
``dicemath analyse FILE`` (:mod:`dicemath.cli.analyse`); ``docs/analyse.md`` documents the
record formats with one example per game.

Example:
    >>> from dicemath.games.registry import GAMES
    >>> record = {"game": "pig", "rules": {"goal": 20},
    ...           "moves": ["roll", "6", "hold", "roll", "1", "roll", "5", "roll", "4"]}
    >>> result = analyse(record, GAMES)
    >>> [(d.choice, d.best, round(d.loss, 3)) for d in result.decisions]
    [('hold', 'roll', 0.237), ('roll', 'roll', 0.0)]
"""

from dicemath.analysis.engine import GameAnalysis
from dicemath.analysis.records import InvalidRecordError, Record, read_record
from dicemath.analysis.registered import adapter, analyse, game_named, replay
from dicemath.analysis.result import Analysis, ChanceLuck, DecisionCost

__all__ = ["Analysis", "ChanceLuck", "DecisionCost", "GameAnalysis", "InvalidRecordError", "Record", "adapter",
           "analyse", "game_named", "read_record", "replay"]
