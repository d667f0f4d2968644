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

A game at a table (:class:`~.table_state.TableState`) is drawn by :func:`draw_table`: the
mover's turn as above, then every player's board in small, in seat order, with the mover
marked, Fives' rest points now and running totals (FIVES-6/7), and the rounds left.

Example:
    >>> from dicemath.games.pegs_fives.state import initial_state
    >>> from dicemath.games.pegs_fives.rules import PEGS
    >>> picture = draw(initial_state(PEGS, [5] * 10 + [2, 0]))
    >>> picture.count('class="peg"'), picture.count('class="hole filled"')
    (12, 52)
"""

from __future__ import annotations

import textwrap

from dicemath.core import svg
from dicemath.core.advice import Advice, Option
from dicemath.core.errors import IllegalMoveError
from dicemath.core.numbers import number_text
from dicemath.games.pegs_fives.state import State, rest_points
from dicemath.games.pegs_fives.table_state import TableState
from dicemath.games.pegs_fives.view import count, is_pegs, status, title

ROW_HEIGHT = 30
"""Height of one row (Pegs) or number (Fives), in pixels."""
STEP_WIDTH = 34
"""Distance between two holes or boxes."""
LABEL_WIDTH = 56
"""Width of the row numbers' column."""
ADVICE_WIDTH = 250
"""Width of the column of advice beside the rows."""
LINE_HEIGHT = 18
"""Distance between two lines of text."""
TABLE_STATUS_CHARACTERS = 50
"""The most characters of a line of the status in the picture of a table (it wraps there)."""
TABLE_ADVICE_WIDTH = 140
"""Width of that column in the picture of a table (:func:`draw_table`: a value each, narrow
enough for a phone's width)."""
DIE_SIZE = 30
"""Side of a die."""
CELL = 7
"""Pitch of a step's square in a table's small boards (:func:`draw_table`)."""
SEAT_HEIGHT = 54
"""Height of one player's line in a table's small boards."""


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
    parts, width, bottom = _turn(state, advice, svg.HEADING_HEIGHT + 22)
    return svg.Drawing(width, bottom + 14, title(state)).add(*parts).to_svg()


def _turn(state: State, advice: Advice | None, top: int, *, table: bool = False) -> tuple[list[str], int, int]:
    """The parts of :func:`draw`'s picture below its title, from ``top`` down: the status line
    (at a ``table``, wrapped at :data:`TABLE_STATUS_CHARACTERS`), the choice throw, the rows with
    the advice (at a ``table``, each option's value in the advice's unit: :func:`_table_option`),
    the footer; with the picture's width and the footer's baseline."""
    rules = state.rules
    options = advice.options if advice is not None else ()
    legal = state.legal_actions()
    for option in options:
        if option.action not in legal:
            raise IllegalMoveError(f"advice for row {option.action}, but the rows that can be named in {state} "
                                   f"are {list(legal)}")
    pegs = is_pegs(state)
    lines = textwrap.wrap(status(state), TABLE_STATUS_CHARACTERS) if table else [status(state)]
    parts = [svg.text(12, top - 4 + k * LINE_HEIGHT, line) for k, line in enumerate(lines)]
    top += (len(lines) - 1) * LINE_HEIGHT
    if state.roll is not None:
        parts.append(svg.text(12, top + 26, "Choice throw:"))
        parts += [svg.die(120 + k * (DIE_SIZE + 6), top + 6, DIE_SIZE, face)
                  for k, face in enumerate(sorted(state.roll, reverse=True))]
        top += DIE_SIZE + 14
    top += 22
    holes_right = LABEL_WIDTH + STEP_WIDTH * (rules.goal + 1)
    width = holes_right + (TABLE_ADVICE_WIDTH if table else ADVICE_WIDTH)
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
            written = _table_option if table else _option
            parts.append(written(by_row[row], exact, y, holes_right, width, best=by_row[row] is options[0]))
    bottom = top + rules.rows * ROW_HEIGHT + 22
    footer = _footer(state, bool(options) and not table, exact)
    if table and advice is not None and options:
        footer = f"{advice.unit} ({'exact' if exact else 'estimates'})" + (f"; {footer}" if footer else "")
    if footer:
        parts.append(svg.text(12, bottom, footer, fill=svg.GREY))
    return parts, width, bottom


def draw_table(state: TableState, advice: Advice | None = None) -> str:
    """The picture of a game of Pegs or a session of Fives at one table as SVG text: the mover's
    turn as :func:`draw` draws it (his rows, the choice throw, ``advice`` beside his rows; his
    rows titled ``row N: ...`` as there), then every player's board in small (a column of
    squares per row, filled up to its step), in seat order, the mover framed, each with Fives'
    rest points now and running total (FIVES-6/7) or Pegs' rows in; once the game is over, the
    result instead of the turn.

    Raises:
        IllegalMoveError: an option for a row that cannot be named (as :func:`draw`).

    Example:
        >>> from dicemath.games.pegs_fives.rules import FIVES
        >>> from dicemath.games.pegs_fives.table_state import table_start
        >>> picture = draw_table(table_start(FIVES, 3, rounds=2))
        >>> picture.count('class="seat"'), picture.count('class="seat mover"'), "2 rounds left" in picture
        (2, 1, True)
    """
    rules, fives = state.rules, state.rules.scoring == "rest_points"
    name = "Pegs" if is_pegs(state.turn) else "Fives"
    top = svg.HEADING_HEIGHT + 22
    if state.over:
        results = state.returns()
        winners = [seat for seat, result in enumerate(results) if result > 0]
        heading = f"{name}: the {'session' if fives else 'game'} is over"
        done = (f"Seat {winners[0]} wins" if len(winners) == 1 else
                "Seats " + ", ".join(map(str, winners)) + " share the win")
        parts = [svg.text(12, top - 4, done + (" with the lowest total" if fives else ", first to finish"),
                          font_weight="bold")]
        width = LABEL_WIDTH + STEP_WIDTH * (rules.goal + 1) + TABLE_ADVICE_WIDTH
        bottom = top
    else:
        left = f"{count(state.rounds_left, 'round')} left" if fives else "one game"
        heading = f"{name}: seat {state.mover} to move ({left})"
        parts, width, bottom = _turn(state.turn, advice, top, table=True)
    y = bottom + 34
    parts.append(svg.text(12, y, "The table" + (": rest points now and running totals" if fives else ""),
                          font_weight="bold"))
    for seat, board in enumerate(state.boards):
        parts.append(_seat(state, seat, board, y + 10 + seat * SEAT_HEIGHT, width))
    return svg.Drawing(width, y + 18 + state.players * SEAT_HEIGHT, heading).add(*parts).to_svg()


def _seat(state: TableState, seat: int, board: tuple[int, ...], y: float, width: float) -> str:
    """One player's line of :func:`draw_table`: his name, his board in small, his numbers."""
    rules, fives = state.rules, state.rules.scoring == "rest_points"
    mover = seat == state.mover and not state.over
    left = LABEL_WIDTH + 64
    parts = []
    if mover:
        parts.append(svg.rect(4, y, width - 8, SEAT_HEIGHT - 6, fill="none", stroke=svg.BLUE, stroke_width=3, rx=5))
    parts.append(svg.text(12, y + 22, f"Seat {seat}", size=16, font_weight="bold"))
    if mover:
        parts.append(svg.text(12, y + 40, "to move", size=12, fill=svg.GREY))
    base = y + 8 + rules.goal * CELL
    for row, step in enumerate(board):
        for level in range(1, rules.goal + 1):
            parts.append(svg.rect(left + row * (CELL + 5), base - level * CELL, CELL - 1, CELL - 1,
                                  fill=svg.BLUE if level <= step else svg.LIGHT,
                                  class_="cell filled" if level <= step else "cell"))
    numbers_at = left + rules.rows * (CELL + 5) + 12
    rest = rest_points(board, rules.goal)
    complete = sum(step >= rules.goal for step in board)
    if fives:
        numbers = [f"rest points {rest}", f"total {state.totals[seat]}"]
    else:
        numbers = [f"{complete} of {rules.rows} rows in"]
    parts += [svg.text(numbers_at, y + 20 + 18 * k, line, size=14) for k, line in enumerate(numbers)]
    what = (f"seat {seat}{' (to move)' if mover else ''}: board {','.join(map(str, board))}; "
            + (f"rest points {rest}, running total {state.totals[seat]}" if fives else f"{complete} rows in"))
    return svg.group(*parts, class_="seat mover" if mover else "seat", title=what)


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


def _table_option(option: Option, exact: bool, y: float, left: float, width: float, *, best: bool) -> str:
    """The value of naming the row of ``option`` at a table, in its advice's unit, written beside it."""
    parts = [svg.text(left + 8, y + ROW_HEIGHT / 2 + 5, f"{'best: ' if best else ''}{number_text(option.value)}",
                      font_weight="bold" if best else None)]
    if best:
        parts.insert(0, svg.rect(2, y, width - 4, ROW_HEIGHT, fill="none", stroke=svg.BLUE, stroke_width=3, rx=5))
    return svg.group(*parts, class_="advised" if best else "option",
                     title=f"naming {option.action}: {number_text(option.value)}{'' if exact else ' (estimate)'}")


def _footer(state: State, advised: bool, exact: bool) -> str:
    """The line under the rows: what the advice values are, and Fives' rest points."""
    notes = []
    if advised:
        kind = "exact, optimal play" if exact else "estimates"
        notes.append(f"Turns still needed after this turn ({kind})")
    if state.rules.scoring == "rest_points":
        notes.append(f"rest points now {rest_points(state.board, state.rules.goal)}")
    return "; ".join(notes)
