"""The plain-text view of a Pegs or Fives state, and the words its picture shares.

:func:`view` is what ``dicemath pegs show`` and ``dicemath fives show`` print: a title with
the turn, what happens next (:func:`status`), and the board as two lines, the rows
(numbers) 1..12 and the progress of each (Pegs' steps, PEGS-1; Fives' marks, FIVES-1). Hits
counted this cycle but not yet on the board (PEGS-9) are written ``+n`` after the row's
progress; Fives adds its rest points (FIVES-6). The picture
(:func:`.drawing.draw`) draws the same state with the same title and status line.

Example:
    >>> from dicemath.games.pegs_fives.rules import PEGS
    >>> from dicemath.games.pegs_fives.state import initial_state
    >>> print(view(initial_state(PEGS, [5] * 9 + [3, 2, 0]).apply((6, 6, 5, 5, 1, 2)).apply(12)))
    Pegs, turn 1: Throwing for row 12: 1 hit so far (not yet on the board), 4 dice in hand, 2 throws left
       row    1    2    3    4    5    6    7    8    9   10   11   12
      step    5    5    5    5    5    5    5    5    5    3    2  0+1
    steps 0..5; a row at 5 is in
"""

from __future__ import annotations

from dicemath.core.dice import throw_text
from dicemath.games.pegs_fives.rules import variant_text
from dicemath.games.pegs_fives.state import State, rest_points


def view(state: State) -> str:
    """The text view of ``state`` (see the module docstring)."""
    rules = state.rules
    pegs = is_pegs(state)
    cells = [f"{step}+{state.count}" if row == state.row else str(step) for row, step in enumerate(state.board, 1)]
    width = max(3, 1 + max(len(cell) for cell in cells))
    lines = [f"{title(state)}: {status(state)}",
             f"{'row' if pegs else 'number':>6} " + " ".join(f"{row:>{width}}" for row in range(1, rules.rows + 1)),
             f"{'step' if pegs else 'marks':>6} " + " ".join(f"{cell:>{width}}" for cell in cells),
             (f"steps 0..{rules.goal}; a row at {rules.goal} is in" if pegs
              else f"marks 0..{rules.goal}; a number with {rules.goal} is complete")]
    if rules.scoring == "rest_points":
        lines[-1] += f"; rest points now {rest_points(state.board, rules.goal)}"
    if variant_text(rules) != rules.name:
        lines.append(f"rules: {variant_text(rules)}")
    return "\n".join(lines)


def is_pegs(state: State) -> bool:
    """Whether ``state`` is drawn as Pegs' plank (every variant not named Fives is)."""
    return state.rules.name != "fives"


def title(state: State) -> str:
    """``"Pegs, turn 3"``: the game and the turn being played (the last one once it is over)."""
    return f"{'Pegs' if is_pegs(state) else 'Fives'}, turn {state.turns + (0 if state.over else 1)}"


def status(state: State) -> str:
    """What happens next: the choice throw waiting for a row (PEGS-4, FIVES-2), the row thrown
    for with its hits this cycle, or the next choice throw; or how the game ended."""
    rules = state.rules
    noun = "row" if is_pegs(state) else "number"
    if state.over:
        if all(step >= rules.goal for step in state.board):
            return f"Every {noun} is {'in' if noun == 'row' else 'complete'} after {count(state.turns, 'turn')}"
        return "The turn is over"
    left = None if state.throws is None else f"{count(state.throws, 'throw')} left"
    if state.roll is not None:
        after = "" if left is None else f" ({left} after it)"
        return f"Name a {noun} for the choice throw {throw_text(state.roll)}{after}"
    throws = "" if left is None else f", {left}"
    if state.row is not None:
        return (f"Throwing for {noun} {state.row}: {count(state.count, 'hit')} so far (not yet on the board), "
                f"{state.dice} dice in hand{throws}")
    return f"A choice throw of {state.dice} dice is next{throws}"


def count(number: int, noun: str) -> str:
    """``"1 hit"``, ``"2 hits"``."""
    return f"{number} {noun}{'' if number == 1 else 's'}"
