"""Pictures of Backgammon states (SVG), with the best play or cube action when advice is given.

The board is drawn from X's side, as the text :func:`.position.diagram`: points 13..24 along
the top, 12..1 along the bottom, X's home board (points 1..6) bottom right, O's top right.
Every checker is drawn (stacks taller than five close up and show their count), X's orange
and O's blue; then the bar (BG-5), each side's borne-off checkers in the tray on the right
(BG-6), the cube with its value on its owner's side or in the middle (BG-8), both pip
counts, whose turn it is and the dice of a play. With advice (:func:`.game.advise`) a
caption names the best action and the next ones with their equities, and a cube decision
can be written under the cube's line (``verdict``). The status line and the cube's words are
the text view's (:mod:`.view`).

Example:
    >>> from dicemath.games.backgammon.state import initial_state
    >>> picture = draw(initial_state())
    >>> picture.count('class="checker x"'), picture.count('class="checker o"')
    (15, 15)
"""

from __future__ import annotations

from dicemath.core import svg
from dicemath.core.advice import Advice, Option
from dicemath.core.errors import InvalidStateError
from dicemath.games.backgammon.position import CHECKERS
from dicemath.games.backgammon.state import PLAY, PLAYER_NAMES, State
from dicemath.games.backgammon.view import cube_text, status

POINT_WIDTH = 36
"""Width of a point, in pixels."""
RADIUS = 16
"""Radius of a checker."""
HALF = 5 * 2 * RADIUS
"""Height of a half of the board: five checkers."""
GAP = 44
"""Height of the strip between the two halves (dice, cube in the middle)."""
BAR_WIDTH = 40
DIE_SIZE = 30
CUBE = 32
"""Side of the cube."""
LEFT = 12 + CUBE + 12
"""Left edge of the board (the cube's column before it)."""
TRAY = LEFT + 12 * POINT_WIDTH + BAR_WIDTH + 10
"""Left edge of the tray of borne-off checkers."""
WIDTH = TRAY + 44 + 12
FELT, DARK_POINT = "#F4EEDC", "#C9C0A8"
"""The board and every other point (the others are :data:`~dicemath.core.svg.LIGHT`)."""
COLOURS = {0: (svg.ORANGE, svg.INK), 1: (svg.BLUE, svg.PAPER)}
"""Fill of each side's checkers and of the text on them: X orange, O blue."""
SHOWN = 3
"""Actions listed in the advice caption."""


def draw(state: State, advice: Advice | None = None, *, verdict: str | None = None) -> str:
    """The picture of a Backgammon state as SVG text (see the module docstring).

    Args:
        state: the state.
        advice: the advice for the deciding player (:func:`.game.advise`).
        verdict: the cube decision in words, written in bold under the cube's line (the
            doubler's decision and the answer, as :data:`.cube.VERDICTS` says them).

    Returns:
        A standalone SVG document.

    Raises:
        InvalidStateError: advice for a state where nobody decides.
        IllegalMoveError: advice for an action that is not legal in ``state``.

    Example:
        >>> from dicemath.games.backgammon.state import State
        >>> state = State.from_str("4HPwATDgc/ABMA X play 3-1 cube 1")
        >>> from dicemath.games.backgammon.advice import play_advice
        >>> from dicemath.games.backgammon.hint import MoveValue
        >>> best = MoveValue("8/5 6/5", 0.16, (0.54, 0.15, 0.01, 0.12, 0.005), 0, "gnubg-0ply", "-")
        >>> 'class="advised"><title>best play' in draw(state, play_advice(state, [best]))
        True
        >>> '>Double, pass</text>' in draw(State.from_str("AgAAGAAAAAAAAA X may-double cube 1"), verdict="Double, pass")
        True
    """
    options = list(advice.options) if advice is not None else []
    if options and state.current_player() < 0:
        raise InvalidStateError(f"advice for {state}, where nobody decides")
    for option in options:
        state.parse_action(option.text)
    position = state.position
    sides = (position.on_roll, position.opponent) if position.player == 0 else (position.opponent, position.on_roll)
    top = svg.HEADING_HEIGHT + 66
    bottom = top + 2 * HALF + GAP
    parts = [svg.text(12, svg.HEADING_HEIGHT + 18, status(state)),
             _side_line(sides, 1, top - 26, position.player), _side_line(sides, 0, bottom + 40, position.player)]
    parts.append(_board(top, bottom))
    for point in range(1, 25):
        for player in (0, 1):
            count = sides[player][point - 1 if player == 0 else 24 - point]
            if count:
                parts.append(_stack(point, player, count, top, bottom))
    parts += _bar_and_off(sides, top, bottom)
    middle = top + HALF + GAP / 2
    if state.cube_value is not None:
        y = {None: middle - CUBE / 2, 1: top, 0: bottom - CUBE}[state.cube_owner]
        parts.append(_cube(state, y))
    if state.phase == PLAY:
        if state.dice is None:
            raise InvalidStateError(f"phase {state.phase!r} has no dice")
        x = LEFT + 6 * POINT_WIDTH + BAR_WIDTH + 3 * POINT_WIDTH - DIE_SIZE - 4
        parts += [svg.die(x + k * (DIE_SIZE + 8), middle - DIE_SIZE / 2, DIE_SIZE, die)
                  for k, die in enumerate(state.dice)]
    y = bottom + 64
    parts.append(svg.text(12, y, f"{cube_text(state)}. Points are numbered for X; O's point p is X's 25 - p.",
                          size=12, fill=svg.GREY))
    if verdict is not None:
        y += 24
        parts.append(svg.text(12, y, verdict, font_weight="bold", class_="verdict", title="the cube decision"))
    for k, option in enumerate(options[:SHOWN]):
        parts.append(_option(state, option, options[0], 12, y + 24 + 22 * k))
    height = y + 16 + 22 * min(len(options), SHOWN) + (8 if options else 0)
    title = "Backgammon" + (" (Playtive: at most 5 checkers a point)" if state.rules.playtive else "")
    return svg.Drawing(WIDTH, height, title).add(*parts).to_svg()


def _point_place(point: int) -> tuple[float, bool]:
    """The left edge of X's ``point`` and whether it is on the top half."""
    upper = point >= 13
    column = point - 13 if upper else 12 - point
    return LEFT + column * POINT_WIDTH + (BAR_WIDTH if column >= 6 else 0), upper


def _board(top: float, bottom: float) -> str:
    """The frame, the 24 points with their numbers, the bar."""
    parts = [svg.rect(LEFT, top, 12 * POINT_WIDTH + BAR_WIDTH, bottom - top, fill=FELT, stroke=svg.INK)]
    for point in range(1, 25):
        x, upper = _point_place(point)
        base, tip = (top, top + HALF - 8) if upper else (bottom, bottom - HALF + 8)
        shade = svg.LIGHT if point % 2 else DARK_POINT
        parts.append(svg.polygon([(x, base), (x + POINT_WIDTH, base), (x + POINT_WIDTH / 2, tip)], fill=shade,
                                 stroke=svg.GREY, stroke_width=0.5))
        parts.append(svg.text(x + POINT_WIDTH / 2, top - 6 if upper else bottom + 17, str(point), size=12,
                              text_anchor="middle", fill=svg.GREY))
    bar = LEFT + 6 * POINT_WIDTH
    parts.append(svg.rect(bar, top, BAR_WIDTH, bottom - top, fill=svg.GREY))
    parts.append(svg.rect(TRAY, top, 44, bottom - top, fill=svg.LIGHT, stroke=svg.INK))
    parts.append(svg.text(TRAY + 22, (top + bottom) / 2 + 5, "off", size=12, text_anchor="middle", fill=svg.GREY))
    return svg.group(*parts)


def _checkers(x: float, start: float, step: float, count: int, player: int, what: str) -> str:
    """``count`` checkers of ``player`` centred on ``x``, the first at ``start``, the next ``step``
    further (closer together when more than five)."""
    if count > 5:
        step = step * 4 / (count - 1)
    fill, ink = COLOURS[player]
    parts = [svg.circle(x, start + k * step, RADIUS - 1, fill=fill, stroke=svg.INK, class_=f"checker {'xo'[player]}")
             for k in range(count)]
    if count > 5:
        parts.append(svg.text(x, start + (count - 1) * step + 5, str(count), text_anchor="middle", fill=ink,
                              font_weight="bold"))
    return svg.group(*parts, title=f"{count} {'checker' if count == 1 else 'checkers'} of {PLAYER_NAMES[player]} "
                                   f"{what}")


def _stack(point: int, player: int, count: int, top: float, bottom: float) -> str:
    """The checkers of ``player`` on X's ``point``."""
    x, upper = _point_place(point)
    own = point if player == 0 else 25 - point
    start, step = (top + RADIUS, 2 * RADIUS) if upper else (bottom - RADIUS, -2 * RADIUS)
    return _checkers(x + POINT_WIDTH / 2, start, step, count, player, f"on his {own}-point")


def _bar_and_off(sides, top: float, bottom: float) -> list[str]:
    """The checkers on the bar (X's above the middle, O's below) and the borne-off ones (X's
    bottom right, next to his home board; O's top right)."""
    centre = LEFT + 6 * POINT_WIDTH + BAR_WIDTH / 2
    middle = top + HALF + GAP / 2
    parts = []
    for player, direction in ((0, -1), (1, 1)):
        on_bar = sides[player][24]
        if on_bar:
            start = middle + direction * (GAP / 2 + RADIUS)
            parts.append(_checkers(centre, start, direction * 2 * RADIUS, on_bar, player, "on the bar"))
        off = CHECKERS - sum(sides[player])
        fill, _ = COLOURS[player]
        first, step = (bottom - 10, -10) if player == 0 else (top + 2, 10)
        slabs = [svg.rect(TRAY + 2, first + k * step, 40, 8, fill=fill, stroke=svg.INK,
                          class_=f"off {'xo'[player]}") for k in range(off)]
        if slabs:
            parts.append(svg.group(*slabs, title=f"{off} checkers of {PLAYER_NAMES[player]} borne off"))
    return parts


def _cube(state: State, y: float) -> str:
    """The doubling cube on its owner's side (centred: in the middle)."""
    value = state.cube_value
    return svg.group(svg.rect(12, y, CUBE, CUBE, rx=4, fill=svg.PAPER, stroke=svg.INK, stroke_width=2),
                     svg.text(12 + CUBE / 2, y + CUBE / 2 + 6, str(value), size=16, font_weight="bold",
                              text_anchor="middle"),
                     class_="cube", title=cube_text(state))


def _side_line(sides, player: int, y: float, on_roll: int) -> str:
    """A side's swatch, name, pip count, borne-off checkers and whether he is on roll."""
    counts = sides[player]
    pips = sum(count * point for point, count in enumerate(counts, 1))
    fill, _ = COLOURS[player]
    words = f"{PLAYER_NAMES[player]}: {pips} pips, {CHECKERS - sum(counts)} off"
    if player == on_roll:
        words += ", on roll"
    return svg.group(svg.circle(20, y - 5, 8, fill=fill, stroke=svg.INK), svg.text(34, y, words), class_="side")


def _option(state: State, option: Option, best: Option, x: float, y: float) -> str:
    """One line of the advice caption: the best action framed, the others with their loss."""
    kind = "play" if state.phase == PLAY else "action"
    unit = "" if state.phase == PLAY else " per cube unit"
    if option is best:
        words = f"Best {kind}: {option.text}, equity {option.value:+.3f}{unit} ({option.extras['source']})"
        mark = svg.rect(x - 6, y - 17, WIDTH - 2 * x + 12, 24, rx=4, fill="none", stroke=svg.BLUE, stroke_width=3)
        return svg.group(mark, svg.text(x, y, words, font_weight="bold"), class_="advised",
                         title=f"best {kind} for {PLAYER_NAMES[state.current_player()]}")
    words = f"{option.text}, equity {option.value:+.3f} ({option.value - best.value:+.3f})"
    return svg.group(svg.text(x, y, words), class_="option")
