"""Pictures of Pig states (SVG), with the advice drawn when given.

Each player has a track from 0 to the goal (PIG-1): his banked score is the solid bar,
and the turn total of the player to move a hatched bar after it, ending where a hold
would put him (PIG-5); the goal is the line at the end (PIG-6). The row of the player to
move is framed, and every bar writes its number. With advice (:func:`.advice.advise`)
both choices are drawn as boxes with their win probabilities, the best one framed.

Example:
    >>> from dicemath.games.pig.state import State
    >>> picture = draw(State.from_str("1:35-62 t12 choose"))
    >>> picture.count('class="score"'), picture.count('class="turn"')
    (2, 1)
"""

from __future__ import annotations

from dicemath.core import svg
from dicemath.core.advice import Advice
from dicemath.core.errors import IllegalMoveError, InvalidStateError
from dicemath.games.pig.state import HOLD, PLAYER_NAMES, State

WIDTH = 640
"""The picture's width."""
TRACK_LEFT, TRACK_RIGHT = 120, WIDTH - 70
"""Where a track begins (score 0) and ends (the goal)."""
ROW_HEIGHT = 64
"""The height of one player's row."""
COLOURS = (svg.BLUE, svg.VERMILLION)
"""Each player's bar colour (the words say who is who as well)."""


def draw(state: State, advice: Advice | None = None) -> str:
    """The picture of a Pig state as SVG text (see the module docstring).

    Args:
        state: the state.
        advice: the advice at this decision (:func:`.advice.advise`), or None.

    Returns:
        A standalone SVG document.

    Raises:
        InvalidStateError: advice where nobody decides (a rolling die, a finished game), or
            advice of another state.
        IllegalMoveError: advice for an action that is not legal in ``state``.

    Example:
        >>> from dicemath.games.pig.advice import advise
        >>> from dicemath.games.pig.state import State
        >>> state = State.from_str("0:80-90 t12 choose")
        >>> draw(state, advise(state)).count('class="advised"')
        1
    """
    if advice is not None:
        if state.current_player() < 0:
            raise InvalidStateError(f"advice for {state}, where nobody decides")
        if advice.state != str(state):
            raise InvalidStateError(f"advice for {advice.state}, not for {state}")
        for option in advice.options:
            if option.action not in state.legal_actions():
                raise IllegalMoveError(f"advice for {option.text}, which is not legal in {state}")
    top = svg.HEADING_HEIGHT + 18
    parts = [svg.text(12, top, _status(state))]
    top += 16
    for player in (0, 1):
        parts.append(_row(state, player, top + player * ROW_HEIGHT))
    bottom = top + 2 * ROW_HEIGHT
    parts.append(svg.text(TRACK_LEFT, bottom + 4, "solid: banked score; hatched: this turn's total, lost on a 1 "
                                                  "(PIG-3)", size=12, fill=svg.GREY))
    bottom += 12
    if advice is not None and advice.options:
        parts.append(_advice(advice, bottom + 8))
        bottom += 84
    return svg.Drawing(WIDTH, bottom + 12, f"Pig to {state.rules.goal}").add(*parts).to_svg()


def _x(points: int, goal: int) -> float:
    """The x of ``points`` on a track (past the goal: at the goal)."""
    return TRACK_LEFT + (TRACK_RIGHT - TRACK_LEFT) * min(points, goal) / goal


def _row(state: State, player: int, y: float) -> str:
    """One player's row, ``y`` its top: name, track, score bar, turn bar, goal line."""
    goal, score = state.rules.goal, state.scores[player]
    middle = y + ROW_HEIGHT / 2
    moving = player == state.to_move and not state.is_over()
    parts = []
    if moving:
        parts.append(svg.rect(4, y + 4, WIDTH - 8, ROW_HEIGHT - 8, rx=6, fill="none", stroke=svg.BLUE,
                              stroke_width=3, class_="to-move"))
    parts.append(svg.text(14, middle + 5, PLAYER_NAMES[player], size=16, font_weight="bold"))
    parts.append(svg.rect(TRACK_LEFT, middle - 10, TRACK_RIGHT - TRACK_LEFT, 20, fill=svg.LIGHT, stroke=svg.GREY))
    end = _x(score, goal)
    parts.append(svg.rect(TRACK_LEFT, middle - 10, end - TRACK_LEFT, 20, fill=COLOURS[player], class_="score",
                          title=f"{PLAYER_NAMES[player]}'s score: {score}"))
    label = str(score)
    if moving and state.turn_total:
        held = score + state.turn_total
        turn_end = _x(held, goal)
        parts.append(svg.rect(end, middle - 10, turn_end - end, 20, fill=svg.SKY_BLUE, stroke=COLOURS[player],
                              stroke_dasharray="4 3", class_="turn",
                              title=f"turn total {state.turn_total}: {held} if held"))
        label = f"{score} + {state.turn_total} = {held}"
    parts.append(svg.text(TRACK_LEFT, middle - 14, label, size=12, fill=svg.INK))
    parts.append(svg.line(TRACK_RIGHT, middle - 16, TRACK_RIGHT, middle + 16, stroke=svg.INK, stroke_width=2))
    parts.append(svg.text(TRACK_RIGHT + 6, middle + 5, str(goal), size=12, fill=svg.GREY))
    return svg.group(*parts, title=f"{PLAYER_NAMES[player]}: {score} of {goal}")


def _status(state: State) -> str:
    """Who acts, or who has won (PIG-6)."""
    name = PLAYER_NAMES[state.to_move]
    if state.is_over():
        return f"{name} has won"
    if state.rolling:
        return f"{name}'s die is rolling (turn total {state.turn_total})"
    if state.turn_total == 0:
        return f"{name} begins a turn: roll (PIG-2)"
    return f"{name} to choose: roll or hold (turn total {state.turn_total})"


def _advice(advice: Advice, y: float) -> str:
    """The choices with the mover's win probability after each (optimal play from there);
    the best one framed."""
    parts = [svg.text(12, y + 14, f"{advice.extras.get('to_move', 'the mover')}'s chance to win (optimal play "
                                  "from here):", fill=svg.GREY)]
    for k, option in enumerate(advice.options):
        x = 12 + k * 265
        best = option is advice.best
        name = "Hold" if option.action == HOLD else "Roll"
        shown = f"{name}: {option.value:.2%}{'  (best)' if best else ''}"
        box = [svg.rect(x, y + 24, 250, 44, rx=6, fill=svg.LIGHT, stroke=svg.BLUE if best else svg.GREY,
                        stroke_width=3 if best else 1),
               svg.text(x + 12, y + 51, shown, font_weight="bold" if best else None)]
        parts.append(svg.group(*box, class_="advised" if best else "option", title=shown))
    return svg.group(*parts)
