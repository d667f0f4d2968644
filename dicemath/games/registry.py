"""The one list of the games (as OpenSpiel's game registry): one :class:`~dicemath.core.game.Game`
object per game. The command line, the page, the analysis of played games, the report, the
rules text and the conformance test iterate over it and import no game; adding a game is its
package and one line here.

Example:
    >>> [g.name for g in GAMES]
    ['pegs', 'fives', 'pitjesbak', 'backgammon', 'bohnduell', 'pig']
    >>> game("fives").rules_headings
    ('2. Fives', 'Dice and hits')
"""

from __future__ import annotations

from dicemath.core.errors import DicemathError
from dicemath.core.game import Game
from dicemath.games.backgammon.game import BACKGAMMON_GAME
from dicemath.games.bohnduell.game import BOHNDUELL_GAME
from dicemath.games.pegs_fives.game import FIVES_GAME, PEGS_GAME
from dicemath.games.pig.game import PIG_GAME
from dicemath.games.pitjesbak.game import PITJESBAK_GAME

GAMES: tuple[Game, ...] = (
    PEGS_GAME,
    FIVES_GAME,
    PITJESBAK_GAME,
    BACKGAMMON_GAME,
    BOHNDUELL_GAME,
    PIG_GAME,
)
"""Every game, in the order of docs/rules.md."""


class UnknownGameError(DicemathError):
    """A game name the registry does not hold."""


def game(name: str) -> Game:
    """The game called ``name``.

    Raises:
        UnknownGameError: no such game.
    """
    for entry in GAMES:
        if entry.name == name:
            return entry
    raise UnknownGameError(f"unknown game {name!r}; known: {', '.join(game_names())}")


def game_names() -> list[str]:
    """The names of every game, in registry order."""
    return [entry.name for entry in GAMES]


__all__ = ["GAMES", "Game", "UnknownGameError", "game", "game_names"]
