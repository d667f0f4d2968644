"""The exact two-player Fives session on reduced boards (FIVES-7).

A session is a number of rounds; each round's rest points (FIVES-6) add up, and after the
last round the lowest total wins, a tie for the lowest shared (each of ``k`` tied players
counting ``1/k``); the start player moves one seat on each round (the FIVES-7 decisions;
``start="fixed"`` keeps him). Every round starts from fresh boards on the session's open rows
(every other number complete, FIVES-1).

``W_R(D)`` is the probability that the player who moves first in this round wins the session,
with ``R`` rounds left including this one and a lead of ``D`` points (the opponent's total
minus his), both playing to win the session. With the opponent's ``W`` the same function
(zero-sum: a player's chance is one minus the other's), it is solved backward over the rounds:

* ``W_0(D) = 1, 1/2, 0`` for ``D > 0``, ``D = 0``, ``D < 0`` (the shared tie);
* a round is the two-player race on the reduced board (:mod:`.race_solver`) whose terminal
  payoff is the session: a player who completes his board against the opponent's board ``y``
  gains ``R(y)`` (the opponent's rest points) on his lead, and the rest of the session is
  worth ``W_{R-1}`` to whoever starts the next round (:func:`after_round`,
  :func:`round_payoffs`); ``W_R(D)`` is that race's value of the empty pair;
* ``W_R(D)`` is 1 when ``D > R * M`` and 0 when ``D < -R * M`` (``M`` the rest points of a
  fresh board: no round moves a lead by more), so only leads in between are solved.

Fractions with ``exact=True`` (:func:`.race_solver.solve_race`, a few open rows); otherwise
float64 on the compiled kernel (:func:`.race_solver.solve_race_compiled`, up to
:data:`~.limits.RACE_MAX_ROWS` open rows). A round is solved once per lead it is asked for.

Why ties are only shared: with ties lost by all, the two players' chances no longer add up
to one, the game is not zero-sum and a player's best reply is not the other's worst; the race
solvers assume the mirror ``1 - v``. A fixed start player is the cheap variant, exposed as
``start="fixed"``.

Example:
    Fives with marks 2 on the numbers 1 and 2, one round left, level: the first mover's
    chance, exact; a lead of more than a fresh board's rest points wins surely.

    >>> from dicemath.games.pegs_fives.rules import FIVES
    >>> session = SessionSolver(FIVES.variant(goal=2), [1, 2], exact=True)
    >>> 0.5 < session.win(1, 0) < 1
    True
    >>> session.win(1, 7)
    Fraction(1, 1)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction

import numpy as np

from dicemath.core.errors import DicemathError, InvalidRulesError
from dicemath.games.pegs_fives.limits import SESSION_MAX_ROUNDS, SESSION_STARTS
from dicemath.games.pegs_fives.race_solver import (
    REFERENCE_MAX_ROWS, RaceSolution, RaceTables, RaceTooLargeError, check_race_rows, kernel_tables, solve_race,
    solve_race_compiled)
from dicemath.games.pegs_fives.rules import Rules
from dicemath.games.pegs_fives.state import BoardTuple, rest_points
from dicemath.games.pegs_fives.turn import Amount

ON_DEMAND_PAIR_ROUNDS = {False: 2_000_000, True: 2_500}
"""The most work ``dicemath fives session`` (:func:`session_result`) and session advice's
exact later rounds take on: the races of a round to solve times the pairs of boards of each,
in float64 on the compiled kernel (False: 43 races on three open rows, thousands on two) and
in Fractions (True: two races on two open rows, a hundred on one). Larger sessions are
refused up front (:class:`SessionTooLargeError`), or advised by the session model;
:class:`SessionSolver` itself has no such limit."""

Later = Callable[[int], Amount]
"""The rest of a session after a round: ``later(lead)``, the mover's chance to win it with his
lead (the opponent's total minus his) after the round."""


class SessionTooLargeError(RaceTooLargeError):
    """A session needing more races than are solved on demand (:data:`ON_DEMAND_PAIR_ROUNDS`)."""


def check_start(start: str) -> str:
    """``start`` if it is one of :data:`~.limits.SESSION_STARTS`.

    Raises:
        DicemathError: another value.
    """
    if start not in SESSION_STARTS:
        raise DicemathError(f"the start player is one of {SESSION_STARTS}, got {start!r}")
    return start


def check_rounds(rounds: object, least: int = 1) -> int:
    """``rounds`` if it is an integer in ``least .. SESSION_MAX_ROUNDS``.

    Raises:
        DicemathError: anything else.
    """
    if isinstance(rounds, (int, np.integer)) and not isinstance(rounds, bool) and least <= rounds <= SESSION_MAX_ROUNDS:
        return int(rounds)
    raise DicemathError(f"rounds must be an integer {least}..{SESSION_MAX_ROUNDS}, got {rounds!r}")


def check_lead(lead: object) -> int:
    """``lead`` if it is an integer (rest points are whole numbers, FIVES-6).

    Raises:
        DicemathError: anything else.
    """
    if isinstance(lead, (int, np.integer)) and not isinstance(lead, bool):
        return int(lead)
    raise DicemathError(f"a lead is a whole number of rest points, got {lead!r}")


def final_win(lead: int) -> Fraction:
    """``W_0``: the chance to win a finished session with ``lead`` (FIVES-7, a tie shared).

    Example:
        >>> final_win(3), final_win(0), final_win(-1)
        (Fraction(1, 1), Fraction(1, 2), Fraction(0, 1))
    """
    return Fraction(1) if lead > 0 else Fraction(1, 2) if lead == 0 else Fraction(0)


def round_payoffs(later: Later, lead: int) -> tuple[Later, Later]:
    """The terminal payoffs of a round played with ``lead`` (the mover's): ``(first, second)``
    as functions of the rest points ``s`` of the board left behind (FIVES-6): the mover's
    chance when he completes against a board of ``s`` rest points (``later(lead + s)``), and
    the opponent's when he completes against the mover's (``1 - later(lead - s)``).

    Example:
        >>> first, second = round_payoffs(final_win, -3)
        >>> first(5), first(3), second(2)
        (Fraction(1, 1), Fraction(1, 2), Fraction(1, 1))
    """
    return (lambda s: later(lead + s)), (lambda s: 1 - later(lead - s))


class SessionSolver:
    """``W_R(D)`` of a two-player session on a reduced board (module docstring).

    Args:
        rules: Fives (rest points, FIVES-6) or a variant of it.
        open_rows: the numbers every round starts fresh on (the others complete).
        exact: Fractions by the plain-Python race (at most
            :data:`~.race_solver.REFERENCE_MAX_ROWS` open rows; practical for one or two, or
            for small variants), else float64 on the compiled kernel (at most
            :data:`~.limits.RACE_MAX_ROWS`).
        start: who starts the next round (:data:`~.limits.SESSION_STARTS`; default the FIVES-7 decision).

    Raises:
        InvalidRulesError: rules without rest points.
        InvalidBoardError, RaceTooLargeError: bad rows or more than the solver takes.
        DicemathError: a bad ``start``.

    Example:
        >>> from dicemath.games.pegs_fives.rules import FIVES
        >>> s = SessionSolver(FIVES, [1])
        >>> s.fresh_rest, 0.5 < s.win(3, 0) < 1
        (5, True)
    """

    def __init__(self, rules: Rules, open_rows: Sequence[int], *, exact: bool = False, start: str = "rotating"):
        if rules.scoring != "rest_points":
            raise InvalidRulesError(f"a session adds up rest points (FIVES-7); {rules.name} scores none")
        self.rules = rules
        self.exact = bool(exact)
        self.start = check_start(start)
        self.open_rows = check_race_rows(rules, open_rows, REFERENCE_MAX_ROWS) if self.exact else \
            check_race_rows(rules, open_rows)
        self.layout = kernel_tables(rules, self.open_rows)["layout"]
        self.rest = [rest_points(self.layout.board(i), rules.goal) for i in range(self.layout.size)]
        self.fresh_rest = max(self.rest)
        self._wins: dict[tuple[int, int], Amount] = {}

    @property
    def rounds_solved(self) -> int:
        """The races of a round solved so far (one per rounds left and lead asked)."""
        return len(self._wins)

    @property
    def fresh(self) -> BoardTuple:
        """The board every round starts from."""
        return self.layout.board(0)

    def win(self, rounds: int, lead: int) -> Amount:
        """``W_R(D)``: the round's first mover's chance to win the session with ``rounds`` left
        (this one included; 0: the session is over) and ``lead``, both playing to win.

        Raises:
            DicemathError: rounds outside ``0 ..`` :data:`~.limits.SESSION_MAX_ROUNDS`, or a lead that is no
                whole number.
        """
        rounds, lead = check_rounds(rounds, 0), check_lead(lead)
        if rounds == 0:
            return final_win(lead) if self.exact else float(final_win(lead))
        one = Fraction(1) if self.exact else 1.0
        if lead > rounds * self.fresh_rest:
            return one
        if lead < -rounds * self.fresh_rest:
            return one - one
        key = (rounds, lead)
        if key not in self._wins:
            self._wins[key] = self._round_value(rounds, lead)
        return self._wins[key]

    def races_needed(self, rounds: int, lead: int | Iterable[int]) -> int:
        """How many races of a round :meth:`win` solves for ``W_R(D)`` (those not solved yet;
        a set of leads per round, found without solving: each round moves the lead by the rest
        points of a live board); ``lead`` may be a set of leads, their races counted once."""
        rounds = check_rounds(rounds, 0)
        steps = sorted({r for r in self.rest if r > 0})
        fixed = self.start == "fixed"
        level = {check_lead(lead)} if isinstance(lead, (int, np.integer)) else {check_lead(d) for d in lead}
        needed = 0
        for r in range(rounds, 0, -1):
            level = {d for d in level if abs(d) <= r * self.fresh_rest and (r, d) not in self._wins}
            needed += len(level)
            level = {(d + sign * s) * (1 if fixed else -1) for d in level for s in steps for sign in (1, -1)}
        return needed

    def after_round(self, rounds: int, mover_starts_next: bool) -> Later:
        """The rest of the session after a round with ``rounds`` left (this one included), to a
        mover who starts the next round or not: ``later(L) = W_{R-1}(L)``, or
        ``1 - W_{R-1}(-L)`` (the opponent starts it with the opposite lead)."""
        rounds = check_rounds(rounds)
        if mover_starts_next:
            return lambda lead: self.win(rounds - 1, lead)
        return lambda lead: 1 - self.win(rounds - 1, -lead)

    def round_later(self, rounds: int) -> Later:
        """:meth:`after_round` for the first mover of a round (FIVES-7: he starts the next one
        only with ``start="fixed"``)."""
        return self.after_round(rounds, self.start == "fixed")

    def solve_round(self, rounds: int, lead: int) -> RaceSolution | RaceTables:
        """The race of a round with ``rounds`` left (this one included) and the first mover's
        ``lead``, both playing to win the session: every pair's value is the mover's chance to
        win the session (player 1 the round's first mover, player 2 the other)."""
        rounds, lead = check_rounds(rounds), check_lead(lead)
        first, second = round_payoffs(self.round_later(rounds), lead)
        if self.exact:
            layout = self.layout

            def payoff(player: int, opponent: BoardTuple) -> Amount:
                s = self.rest[layout.index(opponent)]
                return first(s) if player == 1 else second(s)

            return solve_race(self.rules, self.open_rows, exact=True, payoff=payoff)
        # the complete board (no rest points) is nobody's opponent in a live pair: its entry unused
        arrays = (np.array([float(first(s)) if s else 0.0 for s in self.rest]),
                  np.array([float(second(s)) if s else 0.0 for s in self.rest]))
        return solve_race_compiled(self.rules, self.open_rows, decisions=False, payoff=arrays)

    def _round_value(self, rounds: int, lead: int) -> Amount:
        race = self.solve_round(rounds, lead)
        value = race.start_value
        return value if self.exact else float(value)


def session_result(rules: Rules, open_rows: Sequence[int], rounds: int, lead: int, *, exact: bool = False,
                   start: str = "rotating") -> dict:
    """The JSON object of ``dicemath fives session``: ``win_probability`` (``W_R(D)``, the
    module docstring; a Fraction's text with ``exact_fraction`` when exact), ``rounds``,
    ``lead``, ``open_rows``, ``start``, ``exact`` (True: an exact solution), ``arithmetic``
    (``"fraction"`` or ``"float64"``), ``rounds_solved`` (the races solved: one per round and
    lead between the sure ones), ``value_text``.

    Raises:
        as :class:`SessionSolver` and :meth:`SessionSolver.win` (rounds 1 ..
        :data:`~.limits.SESSION_MAX_ROUNDS`); SessionTooLargeError: more work than
        :data:`ON_DEMAND_PAIR_ROUNDS`.

    Example:
        >>> from dicemath.games.pegs_fives.rules import FIVES
        >>> r = session_result(FIVES, [1], 1, 6)
        >>> r["win_probability"], r["exact"]
        (1.0, True)
    """
    rounds, lead = check_rounds(rounds), check_lead(lead)
    solver = SessionSolver(rules, open_rows, exact=exact, start=start)
    races, pairs = solver.races_needed(rounds, lead), (solver.layout.size - 1) ** 2
    if races * pairs > ON_DEMAND_PAIR_ROUNDS[solver.exact]:
        raise SessionTooLargeError(
            f"{rounds} round(s) on rows {list(solver.open_rows)} from a lead of {lead} need {races:,} races of "
            f"{pairs:,} pairs each ({'Fractions' if solver.exact else 'float64'}), more than the command solves "
            f"({ON_DEMAND_PAIR_ROUNDS[solver.exact]:,} race pairs): fewer rounds or open rows")
    value = solver.win(rounds, lead)
    result = {"game": rules.name, "open_rows": list(solver.open_rows), "rounds": rounds, "lead": lead,
              "start": solver.start, "win_probability": float(value), "exact": True,
              "arithmetic": "fraction" if exact else "float64", "rounds_solved": solver.rounds_solved,
              "fresh_rest_points": solver.fresh_rest,
              "value_text": "the probability that the player who moves first in this round wins the session "
                            "(FIVES-7: the lowest total after the last round wins, a tie shared), both playing "
                            "to win the session"}
    if exact:
        result["exact_fraction"] = str(value)
    return result
