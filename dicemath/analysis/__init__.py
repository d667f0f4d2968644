"""Analyse a played game: the cost of every decision and the luck of every throw, for every game.

A record (:mod:`.records`: a decision list or a whole game, JSON) names its game; the
game's adapter (``dicemath/games/<game>/analysis.py``, its :class:`~dicemath.core.game.Game`'s ``analysis()``)
maps it onto the game's engine and values it with the best source the library has
(:mod:`.values`); the analysis itself (:mod:`.engine`) is written once; the result
(:mod:`.result`) holds the loss of every decision, the luck of every chance event, the
totals and a rating; :mod:`.plot` draws the value over the game, :mod:`.pictures` the
costliest decisions (the position, the choice played against the best); :mod:`.play` plays
seeded games between policies and writes them as records, and :mod:`.registered` analyses
or replays a record of any registered game through its game's adapter. The command line is
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

from dicemath.analysis.engine import GameAnalysis
from dicemath.analysis.records import InvalidRecordError, Record, read_record
from dicemath.analysis.registered import adapter, analyse, replay
from dicemath.analysis.result import Analysis, ChanceLuck, DecisionCost
from dicemath.analysis.values import Valued, ValueSource

__all__ = ["Analysis", "ChanceLuck", "DecisionCost", "GameAnalysis", "InvalidRecordError", "Record",
           "ValueSource", "Valued", "adapter", "analyse", "read_record", "replay"]
