"""Pictures of analysed decisions: the position with its advice, the choice played against the best.

:func:`costliest` picks the decisions that lost most; :func:`decision_pictures` draws them:
the game's own picture of the position (:meth:`~dicemath.core.game.Game.draw`) with the
game's advice there, the one that valued the decision (:meth:`~dicemath.core.game.Game.advise`
with the record's settings: the best option framed in blue, each option's value), under a
caption naming the choice
played (a vermillion mark), the best one (a blue mark), what the choice lost and whether
the values are exact; :func:`write_pictures` writes them as SVG files (``dicemath analyse
FILE --pictures DIR``).

Example:
    >>> from dicemath.analysis import analyse, game_named, read_record
    >>> from dicemath.games.registry import GAMES
    >>> record = read_record({"game": "pig", "rules": {"goal": 20}, "moves": ["roll", "6", "hold", "roll", "4"]})
    >>> analysis = analyse(record, GAMES)
    >>> [d.index for d in costliest(analysis.decisions)]
    [2]
    >>> drawn = decision_pictures(record, analysis, analysis.decisions[:1], game_named("pig", GAMES))
    >>> drawn[0].count('class="advised"')
    1
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from dicemath.analysis.engine import decision_states
from dicemath.analysis.records import Record
from dicemath.analysis.result import Analysis, DecisionCost
from dicemath.core import svg
from dicemath.core.errors import OutputPathError
from dicemath.core.game import Game
from dicemath.core.numbers import number_text

COUNT = 3
"""Decisions drawn by default: the three costliest."""
LINE_HEIGHT = 24
"""Height of a caption line, in pixels."""


def costliest(decisions: Sequence[DecisionCost], count: int = COUNT) -> list[DecisionCost]:
    """The ``count`` decisions that lost most, costliest first (equal losses in record order);
    decisions that lost nothing are left out."""
    return sorted((d for d in decisions if d.loss > 0), key=lambda d: -d.loss)[:count]


def decision_picture(position: str, cost: DecisionCost, analysis: Analysis) -> str:
    """The picture of one decision: ``position`` (the SVG of its state with its advice) under
    a caption naming the choice played and the best one.

    Args:
        position: the picture of the decision's state with the advice drawn on it.
        cost: the decision.
        analysis: the analysis it belongs to (its unit and seats).
    """
    mover = analysis.seats[cost.player]
    lines = ((svg.VERMILLION, f"Played by {mover}: {cost.choice}, {number_text(cost.loss)} {analysis.unit} "
                              "worse than the best"),
             (svg.BLUE, f"Best: {cost.best} (framed in blue in the picture)"))
    note = "The values are exact." if cost.exact else "Some values are estimates."
    top = svg.HEADING_HEIGHT + 10
    parts = []
    for k, (colour, words) in enumerate(lines):
        y = top + LINE_HEIGHT * k
        parts.append(svg.group(svg.rect(12, y, 16, 16, fill=colour, rx=3),
                               svg.text(36, y + 13, words, font_weight="bold"),
                               class_="played" if k == 0 else "best"))
    parts.append(svg.text(36, top + LINE_HEIGHT * len(lines) + 13, note, fill=svg.GREY))
    below = top + LINE_HEIGHT * (len(lines) + 1) + 8
    width, height = svg.document_size(position)
    title = f"Entry {cost.index} of the {analysis.game} record: {mover} lost {number_text(cost.loss)} {analysis.unit}"
    wide = max(width, 48 + 8.5 * max(len(words) for _, words in lines), 24 + 10.5 * len(title))
    drawing = svg.Drawing(int(wide), int(below + height), title)
    return drawing.add(*parts, svg.embed(position, 0, below)).to_svg()


def decision_pictures(record: Record, analysis: Analysis, decisions: Sequence[DecisionCost],
                      game: Game) -> list[str]:
    """The picture of each of ``decisions`` (:func:`decision_picture`), ``analysis`` being
    the analysis of ``record``, a record of ``game``: its drawing of the state with its advice.

    Raises:
        DicemathError: a bad entry on the way to a decision, named.
    """
    situations = decision_states(record, game, [d.index for d in decisions])
    pictures = []
    for cost in decisions:
        state, settings = situations[cost.index]
        pictures.append(decision_picture(game.draw(state, game.advise(state, **settings)), cost, analysis))
    return pictures


def check_folder(folder: str | Path) -> Path:
    """``folder`` if pictures can be written into it: a folder, or a new one in a folder that exists.

    Raises:
        OutputPathError: a file of that name, or no folder to make it in.
    """
    target = Path(folder)
    if target.exists() and not target.is_dir():
        raise OutputPathError(f"cannot draw pictures into {folder}: it is a file, not a folder")
    if not target.parent.is_dir():
        raise OutputPathError(f"cannot draw pictures into {folder}: the folder {target.parent} does not exist")
    return target


def write_pictures(record: Record, analysis: Analysis, folder: str | Path, game: Game,
                   count: int = COUNT) -> list[Path]:
    """Draw the ``count`` costliest decisions of ``analysis`` (of ``record``, a record of
    ``game``) into ``folder`` (made if missing, see :func:`check_folder`) as ``entry-<index>.svg``.

    Returns:
        The files written, costliest first (none when no decision lost anything).

    Raises:
        OutputPathError: ``folder`` cannot hold pictures.
    """
    chosen = costliest(analysis.decisions, count)
    target = check_folder(folder)
    target.mkdir(exist_ok=True)
    paths = []
    for cost, document in zip(chosen, decision_pictures(record, analysis, chosen, game)):
        path = target / f"entry-{cost.index}.svg"
        path.write_text(document, encoding="utf-8")
        paths.append(path)
    return paths
