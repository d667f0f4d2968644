"""Pictures of BohnDuell states (SVG), with the best move when advice is given.

The board is laid out as :meth:`.state.State.diagram`: B's row on top (pot left, stock
right), A's row below (stock left, pot right), so facing cups stand one above the other
(BOHN-2) and each player sows towards his pot (BOHN-3). Every cup, pot and stock shows
its bean count; a cup holding exactly its distance, which may be harvested (BOHN-5), is
shaded; the row of the player to move is framed. With advice (the game's, from :func:`.search.source_chain`)
the best move is ringed on the board (the cup to harvest, or the stock and the cups a sow
fills) and a caption lists the best moves with their values.

Example:
    >>> from dicemath.games.bohnduell.state import initial_state
    >>> from dicemath.games.bohnduell.rules import Rules
    >>> picture = draw(initial_state(Rules(stock=9)).apply("S4"))
    >>> picture.count('class="cup ready"'), picture.count('class="cup"')
    (1, 7)
"""

from __future__ import annotations

from typing import TypedDict, cast

from dicemath.core import svg
from dicemath.core.errors import IllegalMoveError, InvalidStateError
from dicemath.games.bohnduell import sides
from dicemath.core.advice import Advice, Option
from dicemath.games.bohnduell.state import HARVEST, PLAYER_NAMES, SOW, Move, State

END_WIDTH = 96
"""Width of the column at each end (a pot and a stock)."""
ROW_GAP = 96
"""Distance between the centres of the two rows."""
SHOWN = 4
"""Moves listed in the advice caption."""


def draw(state: State, advice: Advice | None = None) -> str:
    """The picture of a BohnDuell state as SVG text (see the module docstring).

    Args:
        state: the state.
        advice: the advice for the mover (the game's, from :func:`.search.source_chain`).

    Returns:
        A standalone SVG document.

    Raises:
        InvalidStateError: advice for a finished game.
        IllegalMoveError: advice for a move that is not legal in ``state``.

    Example:
        >>> from dicemath.games.bohnduell.state import initial_state, Move
        >>> from dicemath.games.bohnduell.rules import Rules
        >>> from dicemath.games.bohnduell.game import BOHNDUELL_GAME
        >>> start = initial_state(Rules(stock=6))
        >>> picture = draw(start, BOHNDUELL_GAME.advise(start, table_stock=6))
        >>> picture.count('class="advised"')
        2
    """
    options = list(advice.options) if advice is not None else []
    if options and state.is_over():
        raise InvalidStateError(f"advice for {state}, where the game is over")
    for option in options:
        if option.action not in state.legal_actions():
            raise IllegalMoveError(f"advice for {option.action}, which is not legal in {state}")
    n = state.rules.cups
    cup = min(64, 480 // n)
    width = 2 * 12 + 2 * END_WIDTH + n * cup
    top = svg.HEADING_HEIGHT + 80
    rows = {1: top, 0: top + ROW_GAP}
    parts = [svg.text(12, svg.HEADING_HEIGHT + 18, _status(state))]
    if not state.is_over():
        parts.append(svg.rect(6, rows[state.to_move] - 38, width - 12, 76, rx=8, fill="none", stroke=svg.BLUE,
                              stroke_width=3, class_="to-move"))
    for player, y in rows.items():
        parts += _row(state, player, y, cup, width)
    if options:
        parts += _best_marks(state, cast(Move, options[0].action), rows[state.to_move], cup, width)  # legal: a Move
    y = rows[0] + 74
    parts.append(svg.text(12, y, "Each player sows from his stock towards his pot (arrows).", size=12,
                          fill=svg.GREY))
    y += 18
    parts.append(svg.text(12, y, "A shaded cup holds its distance: it may be harvested.", size=12, fill=svg.GREY))
    if options:
        parts.append(svg.text(12, y + 24, f"Final pot difference for {PLAYER_NAMES[state.to_move]} after each move "
                                          "and best play:", size=12, fill=svg.GREY))
    for k, option in enumerate(options[:SHOWN]):
        parts.append(_option(option, option is options[0], 12, y + 50 + 22 * k, width))
    height = y + 14 + (22 * min(len(options), SHOWN) + 36 if options else 0)
    return svg.Drawing(width, height, "BohnDuell").add(*parts).to_svg()


def _cup_x(player: int, d: int, cup: int, width: float) -> float:
    """The centre of ``player``'s cup at distance ``d``: A's pot is on the right, B's on the left."""
    if player == 0:
        return width - 12 - END_WIDTH - (d - 0.5) * cup
    return 12 + END_WIDTH + (d - 0.5) * cup


def _ends(player: int, width: float) -> tuple[float, float]:
    """The centres of ``player``'s pot and stock columns."""
    left, right = 12 + END_WIDTH / 2, width - 12 - END_WIDTH / 2
    return (right, left) if player == 0 else (left, right)


def _row(state: State, player: int, y: float, cup: int, width: float) -> list[str]:
    """``player``'s cups, pot and stock, centred on the line ``y``, with the cups' names."""
    name = PLAYER_NAMES[player]
    label_y = y + 50 if player == 0 else y - 42
    parts = []
    for d, beans in enumerate(state.cups[player], 1):
        x = _cup_x(player, d, cup, width)
        ready = sides.can_harvest(state.side(player), d)
        where = f"{name}'s cup {d} from his pot, {beans} bean{'' if beans == 1 else 's'}"
        parts.append(svg.group(
            svg.circle(x, y, cup / 2 - 6, fill=svg.SKY_BLUE if ready else svg.LIGHT, stroke=svg.INK),
            svg.text(x, y + 7, str(beans), size=20, font_weight="bold", text_anchor="middle"),
            class_="cup ready" if ready else "cup", title=where + (": may be harvested" if ready else "")))
        parts.append(svg.text(x, label_y, f"{name}{d}", size=12, text_anchor="middle", fill=svg.GREY))
    pot, stock = _ends(player, width)
    parts.append(_box(pot, y, name, "pot", state.pots[player]))
    parts.append(_box(stock, y, name, "stock", state.stocks[player]))
    direction = 1 if player == 0 else -1
    start, end = stock + direction * 30, pot - direction * 44
    arrow_y = y + (-34 if player == 0 else 34)
    parts.append(svg.line(start, arrow_y, end, arrow_y, stroke=svg.GREY, stroke_width=1.5))
    parts.append(svg.polygon([(end, arrow_y - 5), (end, arrow_y + 5), (end + direction * 9, arrow_y)],
                             fill=svg.GREY))
    return parts


def _box(x: float, y: float, name: str, what: str, beans: int) -> str:
    """``name``'s pot (solid border) or stock (dashed) with its bean count and what it is."""
    pot = what == "pot"
    return svg.group(
        svg.rect(x - 38, y - 24, 76, 48, rx=10, fill=svg.LIGHT if pot else svg.PAPER, stroke=svg.INK,
                 stroke_width=2 if pot else 1.5, stroke_dasharray=None if pot else "5 3"),
        svg.text(x, y + 2, str(beans), size=20, font_weight="bold", text_anchor="middle"),
        svg.text(x, y + 18, what, size=12, text_anchor="middle", fill=svg.GREY),
        class_=what, title=f"{name}'s {what}: {beans} bean{'' if beans == 1 else 's'}")


class _Ring(TypedDict):
    """The attributes of the rings of :func:`_best_marks`."""

    fill: str
    stroke: str
    stroke_width: int


def _best_marks(state: State, move: Move, y: float, cup: int, width: float) -> list[str]:
    """Rings on the board for the best move: the cup harvested, or the stock and the cups a sow fills."""
    me, n = state.to_move, state.rules.cups
    ring: _Ring = {"fill": "none", "stroke": svg.VERMILLION, "stroke_width": 3}
    if move.kind == HARVEST:
        return [svg.circle(_cup_x(me, move.count, cup, width), y, cup / 2 - 2, class_="advised", **ring,
                           title=f"best: harvest cup {move.count}")]
    if move.kind != SOW:
        return []
    _, stock = _ends(me, width)
    marks = [svg.rect(stock - 42, y - 28, 84, 56, rx=12, class_="advised", **ring,
                      title=f"best: sow {move.count} from the stock")]
    marks += [svg.circle(_cup_x(me, d, cup, width), y, cup / 2 - 2, stroke_dasharray="5 3", **ring)
              for d in range(n, n - move.count, -1)]
    return marks


def _status(state: State) -> str:
    """Who moves, or who won (BOHN-6)."""
    pots = f"pots: A {state.pots[0]}, B {state.pots[1]}"
    if not state.is_over():
        return f"{PLAYER_NAMES[state.to_move]} to move; {pots}"
    winner = state.winner()
    return f"Game over, {'a draw' if winner is None else f'{PLAYER_NAMES[winner]} wins'}; {pots}"


def _move_words(move: Move) -> str:
    """A move for a player: ``"sow 3 (S3)"``, ``"harvest cup 2 (H2)"``, ``"pass (P)"``."""
    if move.kind == SOW:
        return f"sow {move.count} ({move})"
    if move.kind == HARVEST:
        return f"harvest cup {move.count} ({move})"
    return f"pass ({move})"


def _option(option: Option, best: bool, x: float, y: float, width: float) -> str:
    """One line of the advice caption: a move and its value (final pot difference, mover's view)."""
    value = option.value
    shown = f"{int(value):+d}" if float(value).is_integer() else f"{value:+.2f}"
    exact = option.extras["method"] == "exact"
    words = f"{_move_words(cast(Move, option.action))}: {shown}{' (exact)' if exact else ' (estimate)'}"
    if best:
        mark = svg.rect(x - 6, y - 17, width - 2 * x + 12, 24, rx=4, fill="none", stroke=svg.BLUE, stroke_width=3)
        return svg.group(mark, svg.text(x, y, f"Best: {words}", font_weight="bold"), class_="advised",
                         title="final pot difference for the mover after this move and best play")
    return svg.group(svg.text(x, y, words), class_="option")
