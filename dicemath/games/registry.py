"""The one list of the games (as OpenSpiel's game registry): the command line, the analysis
of played games, the report sections, the rules text and the conformance test all read it,
so adding a game means adding one :class:`GameEntry` here.

Entries hold names of modules, not the modules: reading the registry imports no game.

Example:
    >>> [g.name for g in GAMES]
    ['pegs', 'fives', 'pitjesbak', 'backgammon', 'bohnduell']
    >>> game("fives").rules_headings
    ('2. Fives', 'Dice and hits')
"""

from __future__ import annotations

from dataclasses import dataclass

from dicemath.core.errors import DicemathError


@dataclass(frozen=True)
class ReportEntry:
    """One report section of a game: file name (without ``.md``), heading, and its code as
    ``"module:function"`` (``compute(context) -> data``, ``render(data, context) -> Markdown``)."""

    name: str
    title: str
    compute: str
    render: str


@dataclass(frozen=True)
class GameEntry:
    """One game.

    Attributes:
        name: the game's name in records, commands and JSON (``"pegs"``).
        package: its package (the vocabulary of :mod:`dicemath.games`).
        rules_headings: the headings of ``docs/rules.md`` that state its rules, in order.
        analysis: its analysis adapter, ``"module:attribute"`` (:mod:`dicemath.analysis`).
        command: the module whose ``register(subparsers)`` adds its sub-command (two games
            may share one).
        reports: its report sections, in report order.
    """

    name: str
    package: str
    rules_headings: tuple[str, ...]
    analysis: str
    command: str
    reports: tuple[ReportEntry, ...] = ()


_PEGS_FIVES = "dicemath.games.pegs_fives"
SECTIONS_PACKAGE = "dicemath.reporting.sections"
"""The package of the report sections (one module per game or section; a name, not an import)."""


def _report(name: str, title: str, module: str) -> ReportEntry:
    """A section whose ``compute`` and ``render`` are in ``module``."""
    return ReportEntry(name, title, f"{module}:compute", f"{module}:render")


GAMES: tuple[GameEntry, ...] = (
    GameEntry("pegs", _PEGS_FIVES, ("1. Pegs", "Dice and hits"), f"{_PEGS_FIVES}.analysis:PEGS_ANALYSIS",
              "dicemath.cli.pegs_fives",
              (ReportEntry("pegs", "Pegs: expected turns per row, optimal rows, the row advisor",
                           f"{SECTIONS_PACKAGE}.pegs_fives:compute_pegs", f"{SECTIONS_PACKAGE}.pegs_fives:render"),)),
    GameEntry("fives", _PEGS_FIVES, ("2. Fives", "Dice and hits"), f"{_PEGS_FIVES}.analysis:FIVES_ANALYSIS",
              "dicemath.cli.pegs_fives",
              (ReportEntry("fives", "Fives: expected turns per number, the advisor, races and rest points",
                           f"{SECTIONS_PACKAGE}.pegs_fives:compute_fives", f"{SECTIONS_PACKAGE}.pegs_fives:render"),
               _report("full_board", "Pegs and Fives on the full board: the exact optimum and every policy "
                       "measured", f"{SECTIONS_PACKAGE}.full_board"),
               _report("playing_to_win", "Playing to win: Pegs and Fives against the opponent on the table",
                       f"{SECTIONS_PACKAGE}.playing_to_win"))),
    GameEntry("pitjesbak", "dicemath.games.pitjesbak", ("3. Pitjesbak",),
              "dicemath.games.pitjesbak.analysis:ANALYSIS", "dicemath.cli.pitjesbak",
              (_report("pitjesbak", "Pitjesbak: when to stop, and who wins", f"{SECTIONS_PACKAGE}.pitjesbak"),)),
    GameEntry("backgammon", "dicemath.games.backgammon", ("4. Backgammon",),
              "dicemath.games.backgammon.analysis:ANALYSIS", "dicemath.cli.backgammon",
              (_report("backgammon_bearoff", "Backgammon: exact bear-off", f"{SECTIONS_PACKAGE}.backgammon_bearoff"),
               _report("backgammon_cube", "Backgammon: the doubling cube", f"{SECTIONS_PACKAGE}.backgammon_cube"),
               _report("backgammon_playtive", "Backgammon: the Playtive rule measured by self-play",
                       f"{SECTIONS_PACKAGE}.backgammon_playtive"))),
    GameEntry("bohnduell", "dicemath.games.bohnduell", ("5. BohnDuell",),
              "dicemath.games.bohnduell.analysis:ANALYSIS", "dicemath.cli.bohnduell",
              (_report("bohnduell", "BohnDuell: solved small games and a 40-bean advisor",
                       f"{SECTIONS_PACKAGE}.bohnduell"),)),
)
"""Every game, in the order of docs/rules.md."""


def game(name: str) -> GameEntry:
    """The entry of the game called ``name``.

    Raises:
        DicemathError: no such game.
    """
    for entry in GAMES:
        if entry.name == name:
            return entry
    raise DicemathError(f"unknown game {name!r}; known: {game_names()}")


def game_names() -> list[str]:
    """The names of every game, in registry order."""
    return [entry.name for entry in GAMES]
