"""The plain-text view of a Pitjesbak state, and the words its picture shares.

:func:`view` is what ``dicemath pitjesbak show`` prints: the round, who acts now
(:func:`status`), the limit of throws this round (:func:`limit_text`, PIT-4), then one line
per seat: its stripes as a tally (PIT-1), what is special about it (:func:`badges`: start
player, has won a round so that 1-1-1 wins the game (PIT-6), out, winner) and its dice
(:func:`dice_of`: the throw waiting for a decision, or the counting throw of a player who
has finished, with its class, PIT-2, PIT-3, PIT-7). The picture (:func:`.drawing.draw`)
draws the same state with the same words.

Example:
    >>> from dicemath.games.pitjesbak.state import initial_state
    >>> print(view(initial_state().apply((2, 3, 5))))
    Pitjesbak, round 1: Seat 0: stop, or throw again? (throw 1 of 3)
    The start player throws at most 3 times; his throws set everyone's limit
    Seat 0  ||||| ||||   9 stripes  starts  [5-3-2] score 10: stop or throw?
    Seat 1  ||||| ||||   9 stripes          waits
"""

from __future__ import annotations

from dicemath.core.dice import throw_text
from dicemath.games.pitjesbak.rules import MAX_THROWS
from dicemath.games.pitjesbak.state import State
from dicemath.games.pitjesbak.throws import classify


def view(state: State) -> str:
    """The text view of ``state`` (see the module docstring)."""
    seats = range(state.rules.players)
    tallies = [tally(state.stripes[seat]) for seat in seats]
    marks = [badges(state, seat) for seat in seats]
    tally_width, mark_width = max(map(len, tallies)), max(map(len, marks))
    lines = [f"{title(state)}: {status(state)}", limit_text(state)]
    for seat in seats:
        dice, words = dice_of(state, seat)
        columns = [f"Seat {seat}", tallies[seat].ljust(tally_width), stripes(state.stripes[seat]),
                   marks[seat].ljust(mark_width), (f"[{throw_text(dice)}] " if dice else "") + words]
        lines.append("  ".join(column for column in columns if column).rstrip())
    return "\n".join(lines)


def tally(count: int) -> str:
    """A count of stripes as strokes in groups of five: ``"||||| ||"``."""
    return " ".join("|" * min(5, count - start) for start in range(0, count, 5))


def stripes(count: int) -> str:
    """``" 1 stripe "``, ``"12 stripes"``: a count of stripes, aligned in a column."""
    return f"{count:>2} stripe{' ' if count == 1 else 's'}"


def title(state: State) -> str:
    """``"Pitjesbak, round 3"``: the round being played."""
    return f"Pitjesbak, round {state.round_number + 1}"


def status(state: State) -> str:
    """Who acts now: the winner, a roll-off (PIT-5), a decision or a throw (PIT-4)."""
    if state.winner >= 0:
        return f"Seat {state.winner} wins the game"
    if state.rolloff:
        return f"Roll-off between seats {', '.join(map(str, state.rolloff))}: one die each (PIT-5)"
    cap = state.throw_cap
    if state.current is not None:
        return f"Seat {state.player}: stop, or throw again? (throw {state.throws} of {cap})"
    return f"Seat {state.player} throws (throw {state.throws + 1} of {cap})"


def limit_text(state: State) -> str:
    """The limit of throws this round (PIT-4)."""
    if state.turn == 0 and not state.results:
        return f"The start player throws at most {MAX_THROWS} times; his throws set everyone's limit"
    return f"Limit this round: {state.limit} throw{'' if state.limit == 1 else 's'}, the last throw counts"


def badges(state: State, seat: int) -> str:
    """What is special about ``seat``: winner, out, start player, has won a round (PIT-6)."""
    words = []
    if seat == state.winner:
        words.append("winner")
    elif not state.alive[seat]:
        words.append("out")
    elif seat == state.start:
        words.append("starts")
    if state.wiped[seat] and state.alive[seat] and seat != state.winner:
        words.append("won a round")
    return ", ".join(words)


def dice_of(state: State, seat: int) -> tuple[tuple[int, ...] | None, str]:
    """The dice shown for ``seat`` (None: none) and the words beside them."""
    if seat == state.player and state.current is not None:
        return state.current, f"{classify(state.current, state.rules).label}: stop or throw?"
    results = dict(zip(state.order, state.results))
    if seat in results:
        dice = results[seat]
        if dice is None:
            return None, "threw 1-1-1: out"
        cls = classify(dice, state.rules)
        return dice, cls.label + (", +1 stripe" if cls.penalty else "")
    if seat == state.player:
        return None, "throws now"
    return None, "waits" if state.alive[seat] and state.winner < 0 else ""
