"""The exact within-turn model: what one turn of Pegs or Fives leads to.

One recursion over the within-turn states of :mod:`.state` (dice in hand, throws left, the
row played and its count), :class:`TurnValue`: the expected value ``E[V(end-of-turn
board)]`` for a value ``V`` of boards, with the choices inside the turn made to minimise it
or by a policy. Every exact model of a turn is this recursion with another ``V``:

* the expected turns of the solver (:mod:`.solver`), the advisor (:mod:`.advisor`) and the
  analysis (:mod:`.analysis`): ``V`` a board value, exact with ``Fraction`` values,
  float64 otherwise;
* the rest points of a lost race (:mod:`.races`): ``V`` the FIVES-6 rest points;
* the probability distribution of the end-of-turn board under a policy
  (:func:`turn_distribution`, :func:`turn_outcome`, the single-row chains of :mod:`.rows`):
  ``V(board)`` the unit mass on ``board`` (:class:`BoardMass`), so that the expectation is
  the distribution itself, exact.

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
from typing import Any

from dicemath.core.distribution import Distribution
from dicemath.core.errors import IllegalMoveError
from dicemath.games.pegs_fives.rules import Rules
from dicemath.games.pegs_fives.state import (
    BoardTuple, Cycle, Policy, after_hits, check_board, check_roll, greedy_policy, grouped_choice_throws,
    hit_weights, legal_rows, miss)


def open_rows_of(board: BoardTuple, goal: int) -> tuple[int, ...]:
    """Rows (1-based) of ``board`` below the goal."""
    return tuple(r for r, s in enumerate(board, 1) if s < goal)


Value = Callable[[BoardTuple], "Fraction | float"]
"""``V(board)`` of a :class:`TurnValue`, a number (a :class:`BoardMass` for :func:`end_board_model`)."""

Amount = Any
"""What a :class:`TurnValue` returns: ``Fraction`` (exact) or ``float``, or a :class:`BoardMass`
when ``V`` is one: the type of ``V``'s values, which the recursion only adds and scales (Any:
mypy cannot follow a value type through that arithmetic without a generic ``TurnValue``)."""


class TurnValue:
    """Expected value of the end-of-turn board, with the turn's choices made optimally.

    Args:
        rules: the game.
        value: ``V(board)``, the value of a board at the start of a turn (0 for a complete
            board): a number, or any value closed under ``+`` and scaling (a
            :class:`BoardMass`) when ``chooser`` makes the choices. It is only asked about
            boards strictly beyond the cycle's start.
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

    def __init__(self, rules: Rules, value: Value | Callable[[BoardTuple], BoardMass], *, exact: bool = False,
                 chooser: Policy | None = None, restart_identity: bool = True) -> None:
        self.rules = rules
        self.value: Callable[[BoardTuple], Amount] = value
        self.exact = exact
        self.chooser = chooser
        self.restart_identity = restart_identity
        self.zero: Fraction | float = Fraction(0) if exact else 0.0
        self._choice: dict[tuple[BoardTuple, int, int | None], Amount] = {}
        self._cycle: dict[tuple[BoardTuple, int, int, int, int | None], tuple[Amount, Amount]] = {}
        self._values: dict[BoardTuple, Amount] = {}
        self._options: dict[tuple[BoardTuple, int, int, int, int | None], tuple[Amount, Amount]] = {}

    def _value(self, board: BoardTuple) -> Amount:
        v = self._values.get(board)
        if v is None:
            v = self._values[board] = self.value(board)
        return v

    def _p(self, weight: int, dice: int) -> Fraction | float:
        return Fraction(weight, 6 ** dice) if self.exact else weight / 6 ** dice

    def _after(self, cycle: Cycle, start: BoardTuple) -> tuple[Amount, Amount]:
        """(stay, rest) of a cycle result, ``stay`` counting endings on ``start``."""
        zero = self.zero
        if cycle.over:
            if cycle.event == "overthrow":
                return (zero + 1, zero)
            return (zero, self._value(cycle.board))
        if cycle.row is None:
            return (zero, self.choice(cycle.board, cycle.dice, cycle.throws))
        return self.cycle(cycle.board, cycle.row, cycle.count, cycle.dice, cycle.throws)

    def choice(self, board: BoardTuple, dice: int, throws: int | None) -> Amount:
        """Expected end value from a choice throw to be made on ``board`` (not the turn's first)."""
        rules = self.rules
        if all(s >= rules.goal for s in board):
            return self.zero
        if self.restart_identity and dice == rules.dice and throws == rules.throws:
            return self._value(board) - 1
        return self.lookahead(board, dice, throws)

    def lookahead(self, board: BoardTuple, dice: int, throws: int | None) -> Amount:
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
                if best is None:                # not reached: legal is not empty here
                    raise IllegalMoveError(f"no legal row among {legal!r} on {board}")
                total += p * best
        self._choice[key] = total
        return total

    def option(self, board: BoardTuple, row: int, hits: int, dice: int, throws_after: int | None
               ) -> tuple[Amount, Amount]:
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

    def cycle(self, board: BoardTuple, row: int, count: int, dice: int, throws: int | None
              ) -> tuple[Amount, Amount]:
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


class BoardMass(dict[BoardTuple, Fraction]):
    """Exact probability mass over boards, closed under ``+`` and scaling by a number: the
    value with which :class:`TurnValue` yields the distribution of the end-of-turn board.

    Example:
        >>> m = BoardMass({(5,): Fraction(1)})
        >>> Fraction(1, 3) * m + Fraction(0) + Fraction(2, 3) * BoardMass({(4,): Fraction(1)})
        {(5,): Fraction(1, 3), (4,): Fraction(2, 3)}
    """

    def __add__(self, other: object) -> BoardMass:
        if not isinstance(other, BoardMass):
            if other != 0:
                return NotImplemented
            return self
        total = BoardMass(self)
        for board, p in other.items():
            total[board] = total.get(board, 0) + p
        return total

    __radd__ = __add__

    def __rmul__(self, scalar: Fraction | int) -> BoardMass:
        return BoardMass({board: scalar * p for board, p in self.items()}) if scalar else BoardMass()


def end_board_model(rules: Rules, policy: Policy = greedy_policy) -> TurnValue:
    """The within-turn model whose value is the exact distribution of the end-of-turn board
    (a :class:`BoardMass`) when ``policy`` makes every choice of the turn.

    Every restart within the turn is followed to its end (no restart identity), so the
    model's size grows with the boards a turn can reach: it is meant for boards with few
    open rows and single rows; on the full board use :class:`TurnValue` with a board value.
    """
    return TurnValue(rules, lambda board: BoardMass({board: Fraction(1)}), exact=True, chooser=policy,
                     restart_identity=False)


def turn_distribution(rules: Rules, board: Sequence[int], policy: Policy = greedy_policy, *,
                      model: TurnValue | None = None) -> dict[BoardTuple, Fraction]:
    """The exact distribution of the end-of-turn board of a whole turn from ``board``.

    Args:
        rules: the game.
        board: the board at the start of the turn.
        policy: makes every row choice (default greedy: most hits, ties to the higher row).
        model: an :func:`end_board_model` to reuse (its memo) across boards.

    Raises:
        InvalidBoardError: a bad board.

    Example:
        Only row 12 open, one step from the top: the choice throw must hold exactly one
        6+6 pair (two or three 6s; four or more overthrow, none ends the turn, PEGS-4):
        (15 * 5**4 + 20 * 5**3) / 6**6.

        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> turn_distribution(PEGS, (5,) * 11 + (4,))[(5,) * 12]
        Fraction(11875, 46656)
    """
    b = check_board(board, rules)
    if all(s >= rules.goal for s in b):
        return {b: Fraction(1)}
    model = model or end_board_model(rules, policy)
    return dict(model.lookahead(b, rules.dice, rules.throws))


def stays_forever(rules: Rules, board: Sequence[int], policy: Policy = greedy_policy) -> bool:
    """Whether every turn of ``policy`` from ``board`` ends on ``board`` itself, exactly:
    the policy never finishes from there, so its expected number of turns is infinite from
    every board that reaches ``board`` with positive probability.

    Decided on the turn's first choice throw alone, by enumerating its throws: a turn stays
    on the board for sure exactly when every throw either hits no open row (PEGS-4) or makes
    the policy name a row whose hits overthrow (PEGS-6 ends the turn at once). A named row
    that fits moves its peg with positive probability: in at once when it reaches the top
    (PEGS-7), when the dice or the budget run out (PEGS-8, PEGS-9), or after a throw on
    that misses (PEGS-5 ends the turn and PEGS-9 moves the peg), which any number of dice
    can throw.

    Example:
        Rows 1..9 and 11 one step from the top, row 12 empty: every throw of six dice gives
        one of rows 1..9 or 11 two or more hits (a die value twice, or three pairs making 7),
        greedy names the row with the most hits and overthrows.

        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> stays_forever(PEGS, (4,) * 9 + (5, 4, 0)), stays_forever(PEGS, (0,) * 12)
        (True, False)
    """
    b = check_board(board, rules)
    open_rows = tuple(r for r in range(1, rules.rows + 1) if b[r - 1] < rules.goal)
    if not open_rows:
        return False
    for _, legal in grouped_choice_throws(rules.dice, open_rows):
        if legal:
            row = policy(b, legal, rules.dice, rules.throws)
            if not rules.overthrow or b[row - 1] + dict(legal)[row] <= rules.goal:
                return False                # a mark is never lost in Fives (FIVES-2)
    return True


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
    model = end_board_model(rules, policy)
    b = check_board(board, rules)
    faces = check_roll(throw, rules.dice)
    after = None if rules.throws is None else rules.throws - 1
    here = BoardMass({b: Fraction(1)})
    outcomes = {}
    for row, hits in legal_rows(b, faces, rules.goal):
        stay, rest = model.option(b, row, hits, rules.dice, after)
        outcomes[row] = Distribution.from_probabilities(stay * here + rest)
    return outcomes
