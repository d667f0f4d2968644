"""Pictures of Pegs and Fives states (SVG), with the row advice when it is given.

Pegs (PEGS-1) is drawn as the plank: one line per row 1..12 with its holes 1..goal; the peg
stands in the hole of its step (at the start mark for step 0), the holes it has passed are
filled, and a row that is in is shaded and says so. Fives (FIVES-1) is drawn as the score
pad: one line per number with ``goal`` boxes, the marks made crossed. Hits counted this
cycle but not yet on the board (PEGS-9) are dashed. A choice throw waiting for a row
(PEGS-4, FIVES-2) is drawn as dice. With advice (:func:`..game.advise`) each
option's expected turns still needed after this turn is written beside its row, the best
row is framed, and a note says whether the values are exact or estimates. The title and the
status line are the text view's (:mod:`.view`).

Example:
    >>> from dicemath.games.pegs_fives.state import initial_state
    >>> from dicemath.games.pegs_fives.rules import PEGS
    >>> picture = draw(initial_state(PEGS, [5] * 10 + [2, 0]))
    >>> picture.count('class="peg"'), picture.count('class="hole filled"')
    (12, 52)
"""

from __future__ import annotations

from dicemath.core import svg
from dicemath.core.advice import Advice, Option
from dicemath.core.errors import IllegalMoveError
from dicemath.games.pegs_fives.state import State, rest_points
from dicemath.games.pegs_fives.view import count, is_pegs, status, title

ROW_HEIGHT = 30
"""Height of one row (Pegs) or number (Fives), in pixels."""
STEP_WIDTH = 34
"""Distance between two holes or boxes."""
LABEL_WIDTH = 56
"""Width of the row numbers' column."""
ADVICE_WIDTH = 250
"""Width of the column of advice beside the rows."""
DIE_SIZE = 30
"""Side of a die."""


def draw(state: State, advice: Advice | None = None) -> str:
    """The picture of a Pegs or Fives state as SVG text (see the module docstring).

    Args:
        state: the state.
        advice: the advice for the choice throw of ``state``
            (:func:`dicemath.games.pegs_fives.game.advise`).

    Returns:
        A standalone SVG document.

    Raises:
        IllegalMoveError: an option for a row that cannot be named in ``state`` (every row,
            when no choice throw waits for a row).

    Example:
        >>> from dicemath.games.pegs_fives.state import initial_state
        >>> from dicemath.games.pegs_fives.rules import FIVES
        >>> state = initial_state(FIVES).apply((1, 2, 3, 4, 5, 6))
        >>> from dicemath.games.pegs_fives.game import advise
        >>> picture = draw(state, advise(state))
        >>> picture.count('class="die"'), picture.count('class="advised"')
        (6, 1)
    """
    rules = state.rules
    options = advice.options if advice is not None else ()
    legal = state.legal_actions()
    for option in options:
        if option.action not in legal:
            raise IllegalMoveError(f"advice for row {option.action}, but the rows that can be named in {state} "
                                   f"are {list(legal)}")
    pegs = is_pegs(state)
    top = svg.HEADING_HEIGHT + 22
    parts = [svg.text(12, top - 4, status(state))]
    if state.roll is not None:
        parts.append(svg.text(12, top + 26, "Choice throw:"))
        parts += [svg.die(120 + k * (DIE_SIZE + 6), top + 6, DIE_SIZE, face)
                  for k, face in enumerate(sorted(state.roll, reverse=True))]
        top += DIE_SIZE + 14
    top += 22
    holes_right = LABEL_WIDTH + STEP_WIDTH * (rules.goal + 1)
    width = holes_right + ADVICE_WIDTH
    parts.append(svg.text(8, top - 8, "row" if pegs else "number", size=12, fill=svg.GREY))
    parts += [svg.text(_x(step), top - 8, str(step), size=12, text_anchor="middle", fill=svg.GREY)
              for step in range(1, rules.goal + 1)]
    by_row = {option.action: option for option in options}
    exact = advice is not None and advice.exact
    for row, step in enumerate(state.board, 1):
        y = top + (row - 1) * ROW_HEIGHT
        pending = state.count if row == state.row else 0
        parts.append(_row(row, y, step, pending, rules.goal, pegs, holes_right, width))
        if row in by_row:
            parts.append(_option(by_row[row], exact, y, holes_right, width, best=by_row[row] is options[0]))
    bottom = top + rules.rows * ROW_HEIGHT + 22
    footer = _footer(state, bool(options), exact)
    if footer:
        parts.append(svg.text(12, bottom, footer, fill=svg.GREY))
    return svg.Drawing(width, bottom + 14, title(state)).add(*parts).to_svg()


def _x(step: int) -> float:
    """The centre of the hole (or box) of ``step``; step 0 is the Pegs start mark."""
    return LABEL_WIDTH + STEP_WIDTH * step + STEP_WIDTH / 2 - 8


def _row(row: int, y: float, step: int, pending: int, goal: int, pegs: bool, right: float, width: float) -> str:
    """One row of the plank (``pegs``) or one number of the score pad, ``y`` its top, ``right``
    the end of its holes."""
    middle = y + ROW_HEIGHT / 2
    complete = step >= goal
    what = ("in" if complete else f"at step {step} of {goal}") if pegs else f"{step} of {goal} marks"
    parts = []
    if complete:
        parts.append(svg.rect(4, y + 1, width - 8, ROW_HEIGHT - 2, fill=svg.GREEN, fill_opacity=0.18, rx=4,
                              class_="complete"))
        parts.append(svg.text(right + 8, middle + 5, "in" if pegs else "complete", font_weight="bold"))
    parts.append(svg.text(LABEL_WIDTH - 12, middle + 5, str(row), size=16, font_weight="bold", text_anchor="end"))
    if pegs:
        parts.append(svg.line(_x(0), middle, _x(goal), middle, stroke=svg.GREY))
        parts.append(svg.circle(_x(0), middle, 3, fill=svg.GREY))
        for hole in range(1, goal + 1):
            filled = hole <= step
            parts.append(svg.circle(_x(hole), middle, 6, fill=svg.SKY_BLUE if filled else svg.PAPER,
                                    stroke=svg.GREY, class_="hole filled" if filled else "hole"))
        parts.append(svg.circle(_x(step), middle, 9, fill=svg.BLUE, stroke=svg.INK, class_="peg"))
    else:
        for box in range(1, goal + 1):
            left, boxtop = _x(box) - 11, middle - 11
            parts.append(svg.rect(left, boxtop, 22, 22, fill=svg.PAPER, stroke=svg.GREY,
                                  class_="box marked" if box <= step else "box"))
            if box <= step:
                parts.append(svg.line(left + 4, boxtop + 4, left + 18, boxtop + 18, stroke_width=2.5))
                parts.append(svg.line(left + 18, boxtop + 4, left + 4, boxtop + 18, stroke_width=2.5))
    for extra in range(step + 1, min(step + pending, goal) + 1):
        parts.append(svg.circle(_x(extra), middle, 10, fill="none", stroke=svg.VERMILLION, stroke_width=2,
                                stroke_dasharray="4 3", class_="pending"))
    if pending:
        what += f", {count(pending, 'hit')} this cycle"
    return svg.group(*parts, title=f"{'row' if pegs else 'number'} {row}: {what}")


def _option(option: Option, exact: bool, y: float, left: float, width: float, *, best: bool) -> str:
    """The value of naming the row of ``option`` written beside it; the best one framed."""
    hits = count(option.extras["hits"], "hit")
    words = f"{'best: ' if best else ''}{option.value:.2f} turns ({hits})"
    tip = (f"row {option.action}, {hits}: {option.value:.3f} turns still needed after this turn"
           f"{'' if exact else ' (estimate)'}, chance of no progress {option.extras['p_no_progress']:.1%}")
    parts = [svg.text(left + 8, y + ROW_HEIGHT / 2 + 5, words, font_weight="bold" if best else None)]
    if best:
        parts.insert(0, svg.rect(2, y, width - 4, ROW_HEIGHT, fill="none", stroke=svg.BLUE, stroke_width=3, rx=5))
    return svg.group(*parts, class_="advised" if best else "option", title=tip)


def _footer(state: State, advised: bool, exact: bool) -> str:
    """The line under the rows: what the advice values are, and Fives' rest points."""
    notes = []
    if advised:
        kind = "exact, optimal play" if exact else "estimates"
        notes.append(f"Turns still needed after this turn ({kind})")
    if state.rules.scoring == "rest_points":
        notes.append(f"rest points now {rest_points(state.board, state.rules.goal)}")
    return "; ".join(notes)
