"""Exact within-turn model: what one turn of Pegs or Fives can lead to.

Two exact recursions over the within-turn states of :mod:`.state` (dice in hand, throws
left, the row played and its count):

* :class:`TurnOutcomes` -- the probability distribution of the end-of-turn board when the
  row choices are made by a given policy (item 2 of the issue). Exact
  :class:`fractions.Fraction` probabilities, memoised by the within-turn state.
* :class:`TurnValue` -- the expected value ``E[V(end-of-turn board)]`` for a value function
  ``V`` of boards, with the choices inside the turn made to minimise it (or by a policy).
  This is the inner step of the exact solver (:mod:`.solver`) and of the advisor
  (:mod:`.advisor`). Exact with ``Fraction`` values, float64 otherwise.

A cycle that gives all dice back (PEGS-8, FIVES-4/5) puts the player at the start of a new
turn without paying for it, so for a value ``V`` that satisfies its own Bellman equation the
value of that node is ``V(board) - 1`` exactly; :class:`TurnValue` uses this identity
(``restart_identity=True``), which is what keeps the recursion small.

Outcomes of a cycle that started on the turn's first board are returned as a pair
``(stay, rest)``: ``stay`` is the probability that the turn ends on that same board (an
overthrow, PEGS-6), ``rest`` the expected value of every other ending. That is the form
:func:`dicemath.core.mdp.solve_self_referential` needs, since a board's value refers to
itself.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

from dicemath.core.distribution import Distribution
from dicemath.core.errors import IllegalMoveError
from dicemath.games.pegs_fives.rules import Rules
from dicemath.games.pegs_fives.state import (
    BoardTuple, Cycle, Policy, after_hits, check_board, check_roll, greedy_policy, grouped_choice_throws,
    hit_weights, legal_rows, miss)


def open_rows_of(board: BoardTuple, goal: int) -> tuple[int, ...]:
    """Rows (1-based) of ``board`` below the goal."""
    return tuple(r for r, s in enumerate(board, 1) if s < goal)


def _step(board: BoardTuple, row: int, value: int) -> BoardTuple:
    return board[:row - 1] + (value,) + board[row:]


class TurnOutcomes:
    """Exact distributions of the end-of-turn board under a row-choice policy.

    Args:
        rules: the game.
        policy: ``policy(board, legal, dice, throws) -> row`` (see :data:`.state.Policy`);
            default greedy (most hits, ties to the higher row).

    The recursion is exhaustive: its size grows with the number of boards a turn can
    reach through cycles that give the dice back, so it is meant for reduced boards and
    single rows; on the full 12-row board use :class:`TurnValue` or simulation.

    Example:
        Only row 12 open, one step from the top: the choice throw must hold exactly one
        6+6 pair (two or three 6s; four or more overthrow, none ends the turn, PEGS-4):
        (15 * 5**4 + 20 * 5**3) / 6**6.

        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> t = TurnOutcomes(PEGS)
        >>> d = t.from_start((5,) * 11 + (4,))
        >>> d[(5,) * 12]
        Fraction(11875, 46656)
    """

    def __init__(self, rules: Rules, policy: Policy = greedy_policy):
        self.rules = rules
        self.policy = policy
        self._choice: dict = {}
        self._cycle: dict = {}

    def _after(self, cycle: Cycle) -> dict:
        if cycle.over:
            return {cycle.board: Fraction(1)}
        if cycle.row is None:
            return self.choice(cycle.board, cycle.dice, cycle.throws)
        return self.cycle(cycle.board, cycle.row, cycle.count, cycle.dice, cycle.throws)

    def choice(self, board: BoardTuple, dice: int, throws: int | None) -> dict:
        """End-board distribution from a choice throw still to be made."""
        key = (board, dice, throws)
        cached = self._choice.get(key)
        if cached is not None:
            return cached
        rules = self.rules
        result: dict = {}
        total = 6 ** dice
        after = None if throws is None else throws - 1
        for weight, legal in grouped_choice_throws(dice, open_rows_of(board, rules.goal)):
            p = Fraction(weight, total)
            if not legal:
                result[board] = result.get(board, 0) + p
                continue
            row = self.policy(board, legal, dice, throws)
            h = dict(legal)[row]
            sub = self._after(after_hits(rules, board, row, h, dice - h * rules.dice_per_hit[row - 1], after))
            for b, q in sub.items():
                result[b] = result.get(b, 0) + p * q
        self._choice[key] = result
        return result

    def cycle(self, board: BoardTuple, row: int, count: int, dice: int, throws: int | None) -> dict:
        """End-board distribution while throwing on for ``row`` with ``count`` hits so far."""
        key = (board, row, count, dice, throws)
        cached = self._cycle.get(key)
        if cached is not None:
            return cached
        rules = self.rules
        result: dict = {}
        weights = hit_weights(dice, row)
        total = 6 ** dice
        after = None if throws is None else throws - 1
        for k, w in enumerate(weights):
            if not w:
                continue
            p = Fraction(w, total)
            if k == 0:
                sub = self._after(miss(board, row, count, dice, after))
            else:
                sub = self._after(after_hits(rules, board, row, count + k,
                                             dice - k * rules.dice_per_hit[row - 1], after))
            for b, q in sub.items():
                result[b] = result.get(b, 0) + p * q
        self._cycle[key] = result
        return result

    def from_start(self, board: Sequence[int]) -> dict:
        """End-board distribution of a whole turn from ``board`` (exact Fractions)."""
        b = check_board(board, self.rules)
        if all(s >= self.rules.goal for s in b):
            return {b: Fraction(1)}
        return self.choice(b, self.rules.dice, self.rules.throws)

    def after_choice(self, board: Sequence[int], throw: Sequence[int], row: int, *,
                     dice: int | None = None, throws: int | None = None) -> dict:
        """End-board distribution after naming ``row`` on the choice throw ``throw``.

        Args:
            dice, throws: dice in hand and throws left before the throw (default: the start
                of a turn).

        Raises:
            IllegalMoveError: ``row`` has no hit in ``throw`` or is complete.
        """
        rules = self.rules
        b = check_board(board, rules)
        dice = rules.dice if dice is None else dice
        throws = rules.throws if throws is None else throws
        faces = check_roll(throw, dice)
        legal = dict(legal_rows(b, faces, rules.goal))
        if row not in legal:
            raise IllegalMoveError(f"row {row!r} is not legal after {faces}; legal: {sorted(legal)}")
        h = legal[row]
        after = None if throws is None else throws - 1
        return self._after(after_hits(rules, b, row, h, dice - h * rules.dice_per_hit[row - 1], after))


def turn_outcome(rules: Rules, board: Sequence[int], throw: Sequence[int],
                 policy: Policy = greedy_policy) -> dict[int, Distribution]:
    """For each legal row after a choice throw, the exact distribution of the end-of-turn board.

    The named row is played for this cycle (PEGS-5 / FIVES-3); every later choice throw of
    the turn is decided by ``policy``.

    Args:
        rules: :data:`~.rules.PEGS` or :data:`~.rules.FIVES` (or a variant).
        board: the board at the start of the turn.
        throw: the first choice throw (``rules.dice`` faces).
        policy: the row choice at later choice throws (default greedy).

    Returns:
        ``{row: Distribution over end-of-turn board tuples}`` (exact integer weights).

    Raises:
        InvalidBoardError, InvalidRollError: bad board or throw.

    Example:
        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> out = turn_outcome(PEGS, (5,) * 11 + (4,), (6, 6, 1, 1, 1, 1))
        >>> sorted(out), out[12].probability((5,) * 12)
        ([12], Fraction(1, 1))
    """
    engine = TurnOutcomes(rules, policy)
    b = check_board(board, rules)
    faces = check_roll(throw, rules.dice)
    return {row: Distribution.from_probabilities(engine.after_choice(b, faces, row))
            for row, _ in legal_rows(b, faces, rules.goal)}


Value = Callable[[BoardTuple], "Fraction | float"]


class TurnValue:
    """Expected value of the end-of-turn board, with the turn's choices made optimally.

    Args:
        rules: the game.
        value: ``V(board)``, the value of a board at the start of a turn (0 for a complete
            board). It is only asked about boards strictly beyond the cycle's start.
        exact: Fraction arithmetic (True) or float64 (False).
        chooser: if given, ``chooser(board, legal, dice, throws) -> row`` makes every choice
            inside the turn (policy evaluation); otherwise choices minimise ``V``.
        restart_identity: value a fresh start (all dice, full budget) as ``V(board) - 1``.

    Example:
        Only row 1 open at step 3, one 1 on the choice throw (5 dice left, 2 throws): the
        turn ends on step 4 unless the next throw has exactly one 1 (in) or two or more
        (overthrow); ``V`` is 0 when row 1 is in, 10 at step 4.

        >>> from fractions import Fraction as F
        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> V = {(5,) * 12: F(0), (4,) + (5,) * 11: F(10)}
        >>> tv = TurnValue(PEGS, V.__getitem__, exact=True)
        >>> stay, rest = tv.option((3,) + (5,) * 11, 1, 1, 6, 2)
        >>> stay == 1 - F(5**5 + 5 * 5**4, 6**5), rest == F(5**5, 6**5) * 10
        (True, True)
    """

    def __init__(self, rules: Rules, value: Value, *, exact: bool = False,
                 chooser: Policy | None = None, restart_identity: bool = True):
        self.rules = rules
        self.value = value
        self.exact = exact
        self.chooser = chooser
        self.restart_identity = restart_identity
        self.zero = Fraction(0) if exact else 0.0
        self._choice: dict = {}
        self._cycle: dict = {}
        self._values: dict = {}
        self._options: dict = {}

    def _value(self, board: BoardTuple):
        v = self._values.get(board)
        if v is None:
            v = self._values[board] = self.value(board)
        return v

    def _p(self, weight: int, dice: int):
        return Fraction(weight, 6 ** dice) if self.exact else weight / 6 ** dice

    def _after(self, cycle: Cycle, start: BoardTuple):
        """(stay, rest) of a cycle result, ``stay`` counting endings on ``start``."""
        zero = self.zero
        if cycle.over:
            if cycle.event == "overthrow":
                return (zero + 1, zero)
            return (zero, self._value(cycle.board))
        if cycle.row is None:
            return (zero, self.choice(cycle.board, cycle.dice, cycle.throws))
        return self.cycle(cycle.board, cycle.row, cycle.count, cycle.dice, cycle.throws)

    def choice(self, board: BoardTuple, dice: int, throws: int | None):
        """Expected end value from a choice throw to be made on ``board`` (not the turn's first)."""
        rules = self.rules
        if all(s >= rules.goal for s in board):
            return self.zero
        if self.restart_identity and dice == rules.dice and throws == rules.throws:
            return self._value(board) - 1
        return self.lookahead(board, dice, throws)

    def lookahead(self, board: BoardTuple, dice: int, throws: int | None):
        """Expected end value from a choice throw on ``board``, summed over the throw's
        outcomes (one step of the Bellman equation, never the restart identity).

        At the start of a turn this is ``V(board) - 1`` exactly when ``V`` satisfies its
        own equation (an exact table); for an estimate the two differ.
        """
        rules = self.rules
        key = (board, dice, throws)
        cached = self._choice.get(key)
        if cached is not None:
            return cached
        here = self._value(board)
        after = None if throws is None else throws - 1
        total = self.zero
        for weight, legal in grouped_choice_throws(dice, open_rows_of(board, rules.goal)):
            p = self._p(weight, dice)
            if not legal:
                total += p * here
                continue
            if self.chooser is not None:
                row = self.chooser(board, legal, dice, throws)
                stay, rest = self.option(board, row, dict(legal)[row], dice, after)
                total += p * (stay * here + rest)
            else:
                best = None
                for row, h in legal:
                    stay, rest = self.option(board, row, h, dice, after)
                    v = stay * here + rest
                    if best is None or v < best:
                        best = v
                total += p * best
        self._choice[key] = total
        return total

    def option(self, board: BoardTuple, row: int, hits: int, dice: int, throws_after: int | None):
        """(stay, rest) of naming ``row`` with ``hits`` hits on a choice throw of ``dice`` dice.

        Args:
            throws_after: throws left after the choice throw.
        """
        key = (board, row, hits, dice, throws_after)
        cached = self._options.get(key)
        if cached is None:
            rules = self.rules
            cached = self._options[key] = self._after(
                after_hits(rules, board, row, hits, dice - hits * rules.dice_per_hit[row - 1], throws_after), board)
        return cached

    def cycle(self, board: BoardTuple, row: int, count: int, dice: int, throws: int | None):
        """(stay, rest) while throwing on for ``row`` with ``count`` hits this cycle."""
        key = (board, row, count, dice, throws)
        cached = self._cycle.get(key)
        if cached is not None:
            return cached
        rules = self.rules
        stay = rest = self.zero
        after = None if throws is None else throws - 1
        for k, w in enumerate(hit_weights(dice, row)):
            if not w:
                continue
            p = self._p(w, dice)
            if k == 0:
                s, r = self._after(miss(board, row, count, dice, after), board)
            else:
                s, r = self._after(after_hits(rules, board, row, count + k,
                                              dice - k * rules.dice_per_hit[row - 1], after), board)
            stay += p * s
            rest += p * r
        self._cycle[key] = (stay, rest)
        return stay, rest
