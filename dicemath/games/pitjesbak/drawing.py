"""Pictures of Pitjesbak states (SVG), with the stop-or-throw advice when it is given.

One line per seat: its stripes (PIT-1, a tally of strokes), whether it starts this round,
has won a round (PIT-6: then 1-1-1 wins the game) or is out, and its dice: the throw
waiting for the player's decision, or the counting throw of a player who has finished
(PIT-4) with its class (PIT-2, PIT-3; 2-2-3 adds a stripe, PIT-7). Above them: whose turn
it is, the throw number and the limit of throws this round (PIT-4). With advice
(:class:`.advice.StopOrThrow`, at any table: the game's advice, :func:`.table_game.table_advice`)
the two choices are drawn with their chances of winning the game and the recommended one is
framed; estimates (five to eight players) say so. The words are the text view's (:mod:`.view`).

Example:
    >>> from dicemath.games.pitjesbak.state import initial_state
    >>> picture = draw(initial_state().apply((2, 3, 5)))
    >>> picture.count('class="stripe"'), picture.count('class="die"')
    (18, 3)
"""

from __future__ import annotations

from dicemath.core import svg
from dicemath.core.advice import Advice
from dicemath.core.errors import InvalidStateError
from dicemath.games.pitjesbak.advice_type import StopOrThrow
from dicemath.games.pitjesbak.state import STOP, THROW, State
from dicemath.games.pitjesbak.view import badges, dice_of, limit_text, status, title

SEAT_HEIGHT = 60
"""Height of one seat's line, in pixels."""
STRIPE_GAP = 8
"""Distance between two stripes (a wider gap after every fifth)."""
NAME_WIDTH = 150
"""Width of the column of seat names."""
DIE_SIZE = 30
"""Side of a die."""


def draw(state: State, advice: Advice | None = None) -> str:
    """The picture of a Pitjesbak state as SVG text (see the module docstring).

    Args:
        state: the state.
        advice: the advice for the player deciding in ``state`` (the game's advice; its
            ``detail`` is drawn).

    Returns:
        A standalone SVG document.

    Raises:
        InvalidStateError: advice for a state where nobody decides.

    Example:
        >>> from dicemath.games.pitjesbak.state import initial_state
        >>> state = initial_state().apply((6, 5, 4))
        >>> from dicemath.games.pitjesbak.advice import decision_advice
        >>> picture = draw(state, decision_advice(state, StopOrThrow("stop", 0.61, 0.48, {})))
        >>> 'class="advised"><title>Stop' in picture
        True
    """
    if advice is not None and state.current_player() < 0:
        raise InvalidStateError(f"advice for {state}, where nobody decides")
    decision = None if advice is None else advice.detail
    top = svg.HEADING_HEIGHT + 18
    parts = [svg.text(12, top, status(state)), svg.text(12, top + 22, limit_text(state), fill=svg.GREY)]
    most = max(max(state.stripes), state.rules.stripes)
    dice_left = NAME_WIDTH + _stripe_x(most) + 24
    width = max(560, dice_left + 3 * (DIE_SIZE + 6) + 200)
    top += 40
    for seat in range(state.rules.players):
        parts.append(_seat(state, seat, top + seat * SEAT_HEIGHT, dice_left, width))
    bottom = top + state.rules.players * SEAT_HEIGHT
    if decision is not None:
        parts.append(_advice(decision, bottom + 8))
        bottom += 84
    return svg.Drawing(width, bottom + 12, title(state)).add(*parts).to_svg()


def _stripe_x(stripe: int) -> int:
    """The x offset of the stripe numbered ``stripe`` (0 first) from the start of the tally."""
    return stripe * STRIPE_GAP + (stripe // 5) * 6


def _seat(state: State, seat: int, y: float, dice_left: float, width: float) -> str:
    """One seat's line, ``y`` its top."""
    middle = y + SEAT_HEIGHT / 2
    deciding = seat == state.player and not state.rolloff
    parts = []
    if deciding:
        parts.append(svg.rect(4, y + 3, width - 8, SEAT_HEIGHT - 6, fill="none", stroke=svg.BLUE, stroke_width=3,
                              rx=6, class_="to-throw"))
    shade = svg.INK if state.alive[seat] else svg.GREY
    parts.append(svg.text(14, middle - 2, f"Seat {seat}", size=16, font_weight="bold", fill=shade))
    marks = badges(state, seat)
    if marks:
        parts.append(svg.text(14, middle + 16, marks, size=12, fill=svg.GREY))
    left = NAME_WIDTH
    for stripe in range(state.stripes[seat]):
        x = left + _stripe_x(stripe)
        parts.append(svg.line(x, middle - 17, x, middle + 5, stroke=shade, stroke_width=3, class_="stripe"))
    count = state.stripes[seat]
    parts.append(svg.text(left, middle + 21, f"{count} stripe{'' if count == 1 else 's'}", size=12,
                          fill=svg.GREY))
    dice, words = dice_of(state, seat)
    parts += [svg.die(dice_left + k * (DIE_SIZE + 6), middle - DIE_SIZE / 2, DIE_SIZE, face)
              for k, face in enumerate(sorted(dice or (), reverse=True))]
    if words:
        parts.append(svg.text(dice_left + (3 * (DIE_SIZE + 6) + 6 if dice else 0), middle + 5, words))
    return svg.group(*parts, title=f"seat {seat}: {count} stripes, {marks or 'in the game'}")


def _advice(advice: StopOrThrow, y: float) -> str:
    """The two choices with their chances of winning the game; the advised one framed."""
    choices = ((STOP, "Stop", advice.stop_probability), (THROW, "Throw again", advice.throw_probability))
    heading = ("Chance to win the game (game-optimal play from here):" if advice.exact else
               "Estimated chance to win the game (game-optimal play from here):")
    parts = [svg.text(12, y + 14, heading, fill=svg.GREY)]
    for k, (decision, name, probability) in enumerate(choices):
        x = 12 + k * 265
        chosen = decision == advice.decision
        value = "no throw left" if probability is None else f"{'~' if not advice.exact else ''}{probability:.1%}"
        box = [svg.rect(x, y + 24, 250, 44, rx=6, fill=svg.LIGHT, stroke=svg.BLUE if chosen else svg.GREY,
                        stroke_width=3 if chosen else 1),
               svg.text(x + 12, y + 51, f"{name}: {value}{'  (advised)' if chosen else ''}",
                        font_weight="bold" if chosen else None)]
        parts.append(svg.group(*box, class_="advised" if chosen else "option", title=f"{name}: {value}"))
    return svg.group(*parts)
