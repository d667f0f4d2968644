"""The exact two-player race on reduced boards, Pegs and Fives.

Two players race on the same reduced board (the rows ``open_rows`` open, every other row
complete, PEGS-1 / FIVES-1). A position is the pair ``(a, b)``: the mover's board ``a`` at
the start of his turn and the opponent's board ``b``. Its value ``V(a, b)`` is seen from
the mover:

* Pegs (``scoring="first_out"``): the mover's probability of winning (PEGS-2: whoever
  first has all pegs in wins, at once);
* Fives (``scoring="rest_points"``): the expected rest points at the end of the round of
  the opponent minus those of the mover (FIVES-6: the round ends the moment a player
  completes every number; the other scores missing marks x number). Zero-sum, which is
  what a two-player session rewards (FIVES-7).

A turn is the single-player turn of the rules (PEGS-3..9, FIVES-2..5). It ends on a board
``a'``; if ``a'`` is complete the mover has won (Pegs: 1; Fives: the opponent's rest points
``R(b)``), otherwise the opponent moves and the mover's value is ``1 - V(b, a')`` (Pegs) or
``-V(b, a')`` (Fives). A cycle that gives all dice back with a fresh budget (PEGS-8,
FIVES-4/5) is the start of a new turn of the same player without the opponent having
moved: it is worth ``V(a'', b)``, a pair with more progress. So with

    X = the mover's value of his turn ending on ``a`` itself (an overthrow, PEGS-6; no
        legal row on the first choice throw, PEGS-4 / FIVES-2), i.e. ``1 - V(b, a)`` or
        ``-V(b, a)``,

every option after the turn's first choice throw is ``stay * X + rest`` (``stay`` the chance
of ending on ``a``, ``rest`` the value of every other ending, from pairs solved before), and

    V(a, b) = sum_throws p * best_option(stay * X + rest)   (no legal row: X)  =: F_ab(X),

convex, piecewise linear and nondecreasing in ``X``, with slope at most 1 (the chance that the
chosen options end the turn on ``a``; below 1 unless they never leave it). The same holds for
the mirror ``V(b, a) = F_ba(Y)`` with ``Y`` from ``V(a, b)``: the two unknowns of a pair are
monotone piecewise-linear in each other, and ``u = V(a, b)`` is the one root of
``u = F_ab(m(F_ba(m(u))))`` (``m(v) = 1 - v`` or ``-v``), a map of slope below 1. Each pair is
solved exactly by Newton's method on the active pieces inside a bracket (bisection when a
step leaves it): with Fractions the last step lands on the root exactly. Pairs are solved
from the most progress down (decreasing total of both boards; a pair and its mirror
together), so every other value a turn reaches is final.

The mover's choices inside a turn follow his *policy*:

* ``"race"``: maximise his race value against the opponent he faces: a best response to a
  solo-optimal opponent, and with both playing to win the game's optimum (zero-sum: neither
  can gain by deviating);
* ``"solo"``: solo-optimal play, minimising his own expected number of turns
  (:class:`SoloOptimal`, from :func:`.solver.solve_reduced`), whatever the opponent's board.

:func:`solve_race` is the plain-Python reference (Fractions with ``exact=True``, else
float64; meant for 1..3 open rows); :func:`solve_race_compiled` the C kernel
(:mod:`._race_c`, ``_race_c.c``, float64) for up to :data:`RACE_MAX_ROWS` open rows, on
a box of the reduced board (:class:`.race_box.RaceBox`, up to :data:`RACE_MAX_BOARDS`
boards), or on each player's own boards (two boxes, the boards reachable from each one's
board: the exact race advice's, up to :data:`RACE_MAX_PAIRS` pairs on any rows);
:func:`exact_race_result` the JSON object of ``dicemath pegs race`` / ``dicemath fives race``
(``--open``).

Example:
    One open row (row 1) in Pegs: the first mover's chance to win with both playing to win,
    exact.

    >>> from dicemath.games.pegs_fives.rules import PEGS
    >>> s = solve_race(PEGS, [1], exact=True)
    >>> 0.5 < float(s.start_value) < 0.7
    True
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction

import numpy as np

from dicemath.core.errors import DicemathError, IllegalMoveError, InvalidRulesError
from dicemath.games.pegs_fives.limits import RACE_MAX_ROWS
from dicemath.games.pegs_fives.race_box import RaceBox
from dicemath.games.pegs_fives.rules import Rules
from dicemath.games.pegs_fives.solver import reduced_boards, solve_reduced
from dicemath.games.pegs_fives.state import (
    BoardTuple, InvalidBoardError, Policy, check_board, check_open_rows, cycle_terminals, grouped_choice_throws,
    rest_points)
from dicemath.games.pegs_fives.turn import Amount, TurnValue, open_rows_of

RACE_MAX_BOARDS = 6 ** RACE_MAX_ROWS
"""The most boards a side a race of one set of boards is solved for, the whole reduced board or
a box holding both players' boards (:class:`.race_box.RaceBox`): ``7,776``, the boards of five
open rows, two float64 tables of 0.48 GB. The time grows with the square of the boards and
depends on the rows (``benchmarks/bench_race_box.py --kernel`` measures it)."""

RACE_MAX_PAIRS = RACE_MAX_BOARDS ** 2 // 2
"""The most pairs a race of two sets of boards is solved for (each player's own box, the
boards reachable from his board): ``30,233,088``, four float64 tables of 0.24 GB, the memory of
:data:`RACE_MAX_BOARDS` boards a side in one set."""

BOX_MAX_BOARDS = 6 ** 7
"""The most boards of either player's own box in a race of two sets of boards (``279,936``:
the kernel keeps some 100 bytes of tables per board)."""

BOX_MAX_ROWS = 12
"""The most open rows of a box the kernel takes (``MAXK`` of ``_race_c.c``): every row."""

SOLO_MAX_ROWS = 8
"""The most open rows of a box on which a player may play ``"solo"``: his choices come from the
whole reduced board's expected turns (1.7 million boards on eight rows)."""

THREADED_BOARDS = 6 ** 4
"""Boards a side from which the compiled race runs a thread per CPU by default (fewer: one, the
solve being too short for a second thread to pay)."""

REFERENCE_MAX_ROWS = 3
"""The most open rows the plain-Python reference solver accepts (a solve at 3 rows takes
seconds in float64; exact Fractions are practical for 1 and 2 rows only)."""

POLICIES = ("race", "solo")
"""A player's policy: ``"race"`` maximises his race value, ``"solo"`` minimises his own
expected turns (solo-optimal play)."""

MATCHUPS = ("solo_vs_solo", "race_vs_solo", "solo_vs_race", "race_vs_race")
"""The four pairings of ``race`` figures, the first mover's policy first."""

TIE = 1e-12
"""Relative tolerance of float64 comparisons: options closer than this count as equal."""

RaceMaker = Callable[[BoardTuple], Policy]
"""A fixed policy maker of :func:`solve_race`: ``maker(opponent_board) -> Policy``."""

Payoff = Callable[[int, BoardTuple], Amount]
"""A terminal payoff of :func:`solve_race`: ``payoff(player, opponent_board)``, the value to
``player`` (1 the first mover, 2 the second) of completing his board against that board, a
probability (e.g. of winning a session, FIVES-7)."""

Legal = tuple[tuple[int, int], ...]
"""The legal rows of a choice throw with their hits (:func:`.state.grouped_choice_throws`)."""

Options = Sequence[tuple[Amount, Amount]]
"""The ``(stay, rest)`` of the options a mover considers on one choice throw."""

_Side = tuple["Fraction | float", list[tuple[Amount, Amount]], Legal, dict[int, tuple[Amount, Amount]]]
"""One choice throw of a turn (:func:`solve_race`): its chance, the options considered, the
legal rows, every option's ``(stay, rest)`` by row."""


class RaceTooLargeError(DicemathError):
    """More open rows than the race solvers take."""


def check_race_rows(rules: Rules, open_rows: Sequence[int], limit: int = RACE_MAX_ROWS) -> tuple[int, ...]:
    """Validate the open rows of a race: sorted and distinct, at most ``limit`` of them.

    Raises:
        InvalidBoardError: a row that does not exist, or no row.
        RaceTooLargeError: more than ``limit`` open rows.

    Example:
        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> check_race_rows(PEGS, [8, 3])
        (3, 8)
    """
    rows = check_open_rows(open_rows, rules)
    if len(rows) > limit:
        raise RaceTooLargeError(
            f"the exact race is solved for at most {limit} open rows ({(rules.goal + 1) ** limit:,} boards a "
            f"side, {(rules.goal + 1) ** (2 * limit):,} pairs); got {len(rows)}: {list(rows)}")
    return rows


def check_race_boxes(rules: Rules, open_rows: Sequence[int], floors: Sequence[int] = (),
                     second_floors: Sequence[int] | None = None) -> tuple[RaceBox, RaceBox | None]:
    """Validate the boards of a race: the first mover's, and the second's when he has boards of
    his own (``second_floors``; None: the same boards).

    One set: the whole reduced board of ``open_rows`` (:func:`check_race_rows`), or with
    ``floors`` the box of those floors, of at most :data:`BOX_MAX_ROWS` rows and
    :data:`RACE_MAX_BOARDS` boards. Two sets: two boxes on the same rows, of at most
    :data:`BOX_MAX_BOARDS` boards each and :data:`RACE_MAX_PAIRS` pairs together.

    Raises:
        InvalidBoardError: bad rows or floors.
        RaceTooLargeError: more rows, boards or pairs than that.

    Example:
        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> box, second = check_race_boxes(PEGS, range(1, 7), [0, 0, 0, 0, 3, 4], [5, 5, 0, 0, 0, 0])
        >>> box.size, second.size
        (7776, 1296)
    """
    if second_floors is None and not any(floors):
        return RaceBox(rules, check_race_rows(rules, open_rows)), None
    rows = check_open_rows(open_rows, rules)
    box = RaceBox(rules, rows, tuple(floors))
    second = None if second_floors is None else RaceBox(rules, rows, tuple(second_floors))
    if second is not None and second.floors == box.floors:
        second = None
    if box.k > BOX_MAX_ROWS:
        raise RaceTooLargeError(f"the exact race is solved for at most {BOX_MAX_ROWS} open rows; got {box.k}: "
                                f"{list(box.rows)}")
    if second is None and box.size > RACE_MAX_BOARDS:
        raise RaceTooLargeError(
            f"the exact race is solved for at most {RACE_MAX_BOARDS:,} boards a side; rows {list(box.rows)} from "
            f"{list(box.floors)} on are {box.size:,} boards")
    if second is not None and max(box.size, second.size) > BOX_MAX_BOARDS:
        raise RaceTooLargeError(
            f"the exact race is solved for at most {BOX_MAX_BOARDS:,} boards of one player; rows {list(box.rows)} "
            f"from {list(box.floors)} and from {list(second.floors)} on are {box.size:,} and {second.size:,}")
    if second is not None and box.size * second.size > RACE_MAX_PAIRS:
        raise RaceTooLargeError(
            f"the exact race is solved for at most {RACE_MAX_PAIRS:,} pairs of boards; rows {list(box.rows)} from "
            f"{list(box.floors)} and from {list(second.floors)} on are {box.size:,} x {second.size:,}")
    return box, second


def check_policy(policy: str | RaceMaker) -> str | RaceMaker:
    """Return ``policy`` if it is one of :data:`POLICIES`, or a fixed policy maker (a callable
    ``maker(opponent_board) -> Policy`` whose choices the plain-Python solver evaluates
    exactly, :func:`solve_race`).

    Raises:
        DicemathError: another name.
    """
    if callable(policy):
        return policy
    if policy not in POLICIES:
        raise DicemathError(f"a race policy is one of {POLICIES}, got {policy!r}")
    return policy


def win_value(rules: Rules, opponent: Sequence[int]) -> int:
    """The mover's value when his board completes: 1 (PEGS-2, he wins) or the opponent's rest
    points (FIVES-6, the mover scores 0)."""
    return 1 if rules.scoring == "first_out" else rest_points(opponent, rules.goal)


def mirror(rules: Rules, value: Amount) -> Amount:
    """The mover's value of a pair from the opponent's value of its mirror: ``1 - v``
    (probabilities of winning, PEGS-2) or ``-v`` (rest-point differences, FIVES-6)."""
    return 1 - value if rules.scoring == "first_out" else -value


def _complete(board: Sequence[int], goal: int) -> bool:
    return all(s >= goal for s in board)


class SoloOptimal:
    """Solo-optimal play as a policy (:data:`.state.Policy`): after a choice throw, the row
    that minimises the player's own expected number of turns, ``stay * E(board) + rest``
    (:meth:`.turn.TurnValue.option` on the expected turns ``E``), later choices optimal.
    Among equal options (exactly equal with Fractions, within :data:`TIE` relatively in
    float64) the most hits, then the highest row: the order of the compiled kernels.

    Args:
        rules: the game.
        values: ``E(board)``, expected turns to finish (0 for a complete board), exact for
            every board the policy is asked about and beyond.
        exact: Fraction arithmetic (True) or float64.

    Example:
        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> from dicemath.games.pegs_fives.solver import solve_reduced
        >>> s = solve_reduced(PEGS, [1, 2], exact=True)
        >>> solo = SoloOptimal(PEGS, s.values.__getitem__, exact=True)
        >>> board = s.start
        >>> solo(board, ((1, 1), (2, 3)), 6, 3) == s.best_row(board, (1, 2, 2, 2, 5, 6))
        True
    """

    def __init__(self, rules: Rules, values: Callable[[BoardTuple], Fraction | float], *, exact: bool):
        self.rules = rules
        self.values = values
        self.exact = exact
        self.model = TurnValue(rules, values, exact=exact)
        self._chosen: dict[tuple[BoardTuple, Legal, int, int | None], int] = {}

    def __call__(self, board: BoardTuple, legal: Legal, dice: int, throws: int | None) -> int:
        key = (board, legal, dice, throws)
        row = self._chosen.get(key)
        if row is None:
            row = self._chosen[key] = self._choose(board, legal, dice, throws)
        return row

    def _choose(self, board: BoardTuple, legal: Legal, dice: int, throws: int | None) -> int:
        after = None if throws is None else throws - 1
        here = self.values(board)
        best: int | None = None
        best_value: Amount = None
        for row, hits in sorted(legal, key=lambda rh: (-rh[1], -rh[0])):
            stay, rest = self.model.option(board, row, hits, dice, after)
            value = stay * here + rest
            if best is None or value < best_value - (0 if self.exact else TIE * (1 + abs(best_value))):
                best, best_value = row, value
        if best is None:
            raise IllegalMoveError(f"no legal row to choose on {board}: legal is {legal!r}")
        return best


class _RaceTurn(TurnValue):
    """The within-turn model of a mover against a fixed opponent board: :class:`.turn.TurnValue`
    on the negated race value (it minimises), a fresh start (PEGS-8, FIVES-4/5) worth the
    pair it starts (``restart``) instead of the solo identity ``V - 1``."""

    end: Callable[[BoardTuple], Amount]
    """The race value of a turn ending on a board (set by :mod:`.race_advice`, which reads it)."""
    _chosen: dict[tuple[BoardTuple, Legal, int, int | None], int]
    """The memo of :class:`.race_advice.RacePolicy`'s choices (set by it)."""

    def __init__(self, rules: Rules, end: Callable[[BoardTuple], Amount], restart: Callable[[BoardTuple], Amount], *,
                 exact: bool, chooser: Policy | None = None) -> None:
        super().__init__(rules, lambda board: -end(board), exact=exact, chooser=chooser)
        self._restart = restart

    def choice(self, board: BoardTuple, dice: int, throws: int | None) -> Amount:
        if dice == self.rules.dice and throws == self.rules.throws:
            return -self._restart(board)
        return self.lookahead(board, dice, throws)

    def race_option(self, board: BoardTuple, row: int, hits: int, dice: int, throws_after: int | None
                    ) -> tuple[Amount, Amount]:
        """``(stay, rest)`` of an option in race value (``stay``: the turn ends on ``board``)."""
        stay, rest = self.option(board, row, hits, dice, throws_after)
        return stay, -rest


@dataclass
class Decision:
    """A turn-start choice where playing to win differs from solo-optimal play.

    Attributes:
        mover, opponent: the pair (boards at the start of the mover's turn).
        legal: the choice throw's legal rows with their hits (a representative throw in
            ``throw``).
        race_row, solo_row: the row that maximises the race value; the solo-optimal row.
        race_value, solo_value: the mover's race value after each (the rest of the turn and
            the game played to win).
        probability: the chance of such a choice throw.
    """

    mover: BoardTuple
    opponent: BoardTuple
    legal: Legal
    throw: tuple[int, ...]
    race_row: int
    solo_row: int
    race_value: float
    solo_value: float
    probability: float

    @property
    def loss(self) -> float:
        """What the solo-optimal row gives up (race value)."""
        return float(self.race_value) - float(self.solo_value)


@dataclass
class DecisionStats:
    """How often the race choice differs from the solo-optimal one: every live pair's
    turn-start choice throw (all six dice), both playing to win.

    Attributes:
        choice: the chance of a throw with two or more legal rows (a real choice), summed
            over pairs.
        differing: the chance of a throw where the solo-optimal row is worth less than the
            race row (race value), summed over pairs.
        pairs, pairs_differing: live pairs, and those with at least one such throw.
        examples: the largest differences (:class:`Decision`): the largest of each kind of
            choice (legal rows, race row, solo row) first, largest first.

    Chances rather than counts of throws: they do not depend on how throws are grouped.
    """

    choice: float = 0.0
    differing: float = 0.0
    pairs: int = 0
    pairs_differing: int = 0
    examples: list[Decision] = field(default_factory=list)

    def as_json(self, rules: Rules) -> dict[str, object]:
        """The ``differing_decisions`` object of ``race --json``."""
        from dicemath.core.dice import throw_text

        pairs = self.pairs or 1
        return {
            "share_of_choices": self.differing / self.choice if self.choice else 0.0,
            "chance_per_turn_start": self.differing / pairs,
            "choice_chance_per_turn_start": self.choice / pairs,
            "pairs": self.pairs, "pairs_with_a_difference": self.pairs_differing,
            "examples": [{"mover": list(d.mover), "opponent": list(d.opponent), "throw": throw_text(d.throw),
                          "legal": [list(x) for x in d.legal], "race_row": d.race_row, "solo_row": d.solo_row,
                          "race_value": float(d.race_value), "solo_value": float(d.solo_value),
                          "loss": d.loss, "probability": float(d.probability)} for d in self.examples],
            "counted": "the turn's first choice throw (six dice) at every live pair, both playing to win: "
                       "share_of_choices = P(the solo-optimal row is worth less) / P(two or more legal rows), "
                       "chances averaged over pairs (each pair once, not weighted by how often play reaches it)",
        }


@dataclass
class RaceSolution:
    """Every pair's value of a solved race (plain-Python reference, :func:`solve_race`).

    Attributes:
        rules: the game.
        open_rows: the open rows.
        first, second: the policies of the first and the second mover (:data:`POLICIES`).
        exact: Fractions (True) or float64.
        values: ``{1: {(a, b): value}, 2: {...}}``: player 1 (resp. 2) to move on ``a``
            against ``b`` (one shared dict when both play the same policy).
        decisions: :class:`DecisionStats` when both play ``"race"``, else None.
    """

    rules: Rules
    open_rows: tuple[int, ...]
    first: str | RaceMaker
    second: str | RaceMaker
    exact: bool
    values: dict[int, dict[tuple[BoardTuple, BoardTuple], Amount]]
    decisions: DecisionStats | None = None
    turns: dict[tuple[int, BoardTuple], _RaceTurn] = field(default_factory=dict, repr=False)

    @property
    def start(self) -> BoardTuple:
        """The board with every open row at 0."""
        return tuple(0 if r in self.open_rows else self.rules.goal for r in range(1, self.rules.rows + 1))

    @property
    def start_value(self) -> Amount:
        """The first mover's value from the empty pair."""
        return self.values[1][(self.start, self.start)]

    def value(self, mover: Sequence[int], opponent: Sequence[int], player: int = 1) -> Amount:
        """The value of ``player`` (1: first, 2: second) to move on ``mover`` against ``opponent``.

        Raises:
            InvalidBoardError: a bad board, a board with rows open outside the race's, or a
                complete board (the race is over).
        """
        return self.values[player][check_pair(self.rules, self.open_rows, mover, opponent)]


class RacePlay:
    """A solved race's policy for one player, as a policy maker of :mod:`.races`
    (``maker(own_board, opponent_board) -> Policy``): after every choice throw of his turn the
    row that maximises his race value (``"race"``), or :class:`SoloOptimal`'s row (``"solo"``).
    Either way the turn ending on the board the cycle starts from is worth the mirror of the
    opponent's value there (module docstring); a fresh start (PEGS-8) is a turn start.

    Args:
        solution: a :class:`RaceSolution` (plain Python; small boards).
        player: 1 (the first mover's policy) or 2.

    Example:
        >>> import random
        >>> from dicemath.games.pegs_fives.rules import FIVES
        >>> from dicemath.games.pegs_fives.races import play_race
        >>> s = solve_race(FIVES, [12], exact=False)
        >>> winner, rest, turns = play_race(FIVES, [RacePlay(s, 1), RacePlay(s, 2)], random.Random(1),
        ...                                 start=[s.start, s.start])
        >>> winner in (0, 1) and min(rest) == 0
        True
    """

    def __init__(self, solution: RaceSolution, player: int = 1) -> None:
        if player not in (1, 2):
            raise DicemathError(f"player is 1 or 2, got {player!r}")
        self.solution = solution
        self.player = player
        self.policy = solution.first if player == 1 else solution.second

    def __call__(self, own: BoardTuple, opponent: BoardTuple) -> Policy:
        solution = self.solution
        rules = solution.rules
        model = solution.turns[(self.player, tuple(opponent))]
        other = solution.values[3 - self.player]
        if self.policy == "solo":
            if model.chooser is None:           # solve_race gives every solo player's model its chooser
                raise DicemathError(f"the solo player's turn model against {opponent} has no chooser")
            return model.chooser

        def choose(board: BoardTuple, legal: Legal, dice: int, throws: int | None) -> int:
            after = None if throws is None else throws - 1
            here = mirror(rules, other[(tuple(opponent), tuple(board))])
            scored = []
            for row, hits in legal:
                stay, rest = model.race_option(tuple(board), row, hits, dice, after)
                scored.append((stay * here + rest, row))
            return max(scored)[1]

        return choose


def check_pair(rules: Rules, open_rows: Sequence[int], mover: Sequence[int],
               opponent: Sequence[int]) -> tuple[BoardTuple, BoardTuple]:
    """Validate a pair of boards of a race on ``open_rows``.

    Raises:
        InvalidBoardError: a bad board, a row open outside ``open_rows``, or a complete board.
    """
    boards = []
    for name, board in (("mover's", mover), ("opponent's", opponent)):
        b = check_board(board, rules)
        outside = [r for r, s in enumerate(b, 1) if s < rules.goal and r not in open_rows]
        if outside:
            raise InvalidBoardError(f"the {name} board has rows {outside} open, but the race has only rows "
                                    f"{list(open_rows)} open")
        if _complete(b, rules.goal):
            raise InvalidBoardError(f"the {name} board is complete: the race is over")
        boards.append(b)
    return boards[0], boards[1]


def _bounds(rules: Rules, a: BoardTuple, b: BoardTuple) -> tuple[int, int]:
    """A bracket strictly around ``V(a, b)``."""
    if rules.scoring == "first_out":
        return -1, 2
    return -rest_points(a, rules.goal) - 1, rest_points(b, rules.goal) + 1


def _evaluate(groups: Sequence[tuple[Fraction | float, Options]], X: Amount) -> tuple[Amount, Amount]:
    """``F(X)`` and its slope: ``groups`` of ``(p, [(stay, rest), ...])`` (empty: no legal row)."""
    total = slope = X - X
    for p, options in groups:
        if not options:
            total += p * X
            slope += p
            continue
        best, best_stay = None, None
        for stay, rest in options:
            v = stay * X + rest
            if best is None or v > best or (v == best and stay > best_stay):
                best, best_stay = v, stay
        if best is None or best_stay is None:   # not reached: options is not empty here
            raise IllegalMoveError("a choice throw with options but no best one")
        total += p * best
        slope += p * best_stay
    return total, slope


def solve_pair(rules: Rules, groups_a: Sequence[tuple[Fraction | float, Options]],
               groups_b: Sequence[tuple[Fraction | float, Options]], bounds: tuple[Amount, Amount], exact: bool,
               guess: Amount = None) -> tuple[Amount, Amount]:
    """Solve one pair and its mirror: ``u = F_a(m(w))``, ``w = F_b(m(u))`` (module docstring).

    Args:
        groups_a, groups_b: each side's choice throws as ``(p, [(stay, rest), ...])``, the
            options the mover considers (one for a fixed policy, none for no legal row).
        bounds: ``(lo, hi)`` with ``lo < u < hi`` strictly.
        exact: Fractions (the last Newton step lands on the root) or float64.
        guess: a starting value inside ``bounds``.

    Returns:
        ``(u, w)``.

    Raises:
        RuntimeError: no convergence (a policy that never leaves the pair on both sides).
    """
    lo, hi = bounds
    u = guess if guess is not None and lo < guess < hi else (lo + hi) / (Fraction(2) if exact else 2.0)
    if exact:
        u = Fraction(u)
    for _ in range(500):
        w, sb = _evaluate(groups_b, mirror(rules, u))
        h, sa = _evaluate(groups_a, mirror(rules, w))
        phi = u - h
        if phi == 0:
            return u, w
        if phi < 0:
            lo = u
        else:
            hi = u
        slope = sa * sb
        new = (h - slope * u) / (1 - slope) if slope < 1 else None
        if new is None or not lo <= new <= hi:
            new = (lo + hi) / 2
        if not exact and abs(new - u) <= 1e-15 * (1 + abs(u)):
            return new, _evaluate(groups_b, mirror(rules, new))[0]
        u = new
    raise RuntimeError("the race equations of a pair did not converge")


def solve_race(rules: Rules, open_rows: Sequence[int], *, first: str | RaceMaker = "race",
               second: str | RaceMaker = "race",
               exact: bool | None = None, examples: int = 10, payoff: Payoff | None = None) -> RaceSolution:
    """Solve the two-player race on a reduced board exactly, in plain Python (the reference).

    Args:
        rules: :data:`~.rules.PEGS` or :data:`~.rules.FIVES` (or a variant).
        open_rows: the rows open on both boards (at most :data:`REFERENCE_MAX_ROWS`).
        first, second: the first and the second mover's policy (:data:`POLICIES`), or a fixed
            policy maker ``maker(opponent_board) -> Policy`` (every choice of the player's
            turns against that opponent board; evaluated exactly).
        exact: Fractions (True) or float64 (False); default exact up to 2 open rows.
        examples: differing decisions kept as examples (race vs race).
        payoff: a general terminal payoff (:data:`Payoff`) instead of the game's
            (:func:`win_value`): the values are then probabilities whatever the scoring, the
            opponent's value of the mirror pair ``1 - v`` (two players, zero-sum), and the
            solution's rules score ``"first_out"``; each player has a table of his own.

    Returns:
        A :class:`RaceSolution` with the value of every live pair for both players.

    Raises:
        InvalidBoardError: bad rows. RaceTooLargeError: more than :data:`REFERENCE_MAX_ROWS`.
        DicemathError: an unknown policy.

    Example:
        Fives with only the 1s open: whoever moves first finishes first more often, so the
        first mover gains rest points on average.

        >>> from dicemath.games.pegs_fives.rules import FIVES
        >>> s = solve_race(FIVES, [1], exact=True)
        >>> s.start_value > 0
        True
    """
    rows = check_race_rows(rules, open_rows, REFERENCE_MAX_ROWS)
    policies = (check_policy(first), check_policy(second))
    if payoff is not None:
        rules = replace(rules, scoring="first_out")     # probabilities: the mirror 1 - v
    if exact is None:
        exact = len(rows) <= 2
    goal = rules.goal
    boards = [b for b in reduced_boards(rules, rows) if not _complete(b, goal)]
    solo_values = solve_reduced(rules, rows, exact=exact).values
    solo = SoloOptimal(rules, solo_values.__getitem__, exact=exact)
    symmetric = policies[0] == policies[1] and payoff is None
    table1: dict[tuple[BoardTuple, BoardTuple], Amount] = {}
    values = {1: table1, 2: table1 if symmetric else {}}
    turns: dict[tuple[int, BoardTuple], _RaceTurn] = {}

    def turn(player: int, opponent: BoardTuple) -> _RaceTurn:
        model = turns.get((player, opponent))
        if model is None:
            own, other = values[player], values[3 - player]
            win = win_value(rules, opponent) if payoff is None else payoff(player, opponent)

            def end(board: BoardTuple) -> Amount:
                return win if _complete(board, goal) else mirror(rules, other[(opponent, board)])

            def restart(board: BoardTuple) -> Amount:
                return win if _complete(board, goal) else own[(board, opponent)]

            policy = policies[player - 1]
            chooser = solo if policy == "solo" else policy(opponent) if callable(policy) else None
            model = turns[(player, opponent)] = _RaceTurn(rules, end, restart, exact=exact, chooser=chooser)
        return model

    after = None if rules.throws is None else rules.throws - 1
    total = 6 ** rules.dice

    def side(player: int, a: BoardTuple, b: BoardTuple) -> list[_Side]:
        """Each choice throw of a turn from ``a``: (p, options considered, legal, all options)."""
        model = turn(player, b)
        result: list[_Side] = []
        for weight, legal in grouped_choice_throws(rules.dice, open_rows_of(a, goal)):
            p = Fraction(weight, total) if exact else weight / total
            options = {row: model.race_option(a, row, h, rules.dice, after) for row, h in legal}
            if model.chooser is not None and legal:
                considered = [options[model.chooser(a, legal, rules.dice, rules.throws)]]
            else:
                considered = list(options.values())
            result.append((p, considered, legal, options))
        return result

    stats = DecisionStats() if policies == ("race", "race") else None
    found: list[Decision] = []
    by_total: dict[int, list[tuple[BoardTuple, BoardTuple]]] = {}
    for i, a in enumerate(boards):
        for b in boards[i:]:
            by_total.setdefault(sum(a) + sum(b), []).append((a, b))
    for level in sorted(by_total, reverse=True):
        for a, b in by_total[level]:
            systems = [(a, b)] if symmetric or a == b else [(a, b), (b, a)]
            for x, y in systems:
                sides = (side(1, x, y), side(2, y, x))
                u, w = solve_pair(rules, [s[:2] for s in sides[0]], [s[:2] for s in sides[1]],
                                  _bounds(rules, x, y), exact)
                values[1][(x, y)] = u
                values[2][(y, x)] = w
                if stats is not None:
                    movers = [(x, y, sides[0], mirror(rules, w))]
                    if x != y:
                        movers.append((y, x, sides[1], mirror(rules, u)))
                    for mover, opponent, groups, X in movers:
                        _count(rules, stats, found, solo, mover, opponent, groups, X, exact)
    if stats is not None:
        found.sort(key=lambda d: -d.loss)
        stats.examples = _varied(found, examples)
    return RaceSolution(rules, rows, policies[0], policies[1], exact, values, stats, turns)


def _count(rules: Rules, stats: DecisionStats, found: list[Decision], solo: SoloOptimal, mover: BoardTuple,
           opponent: BoardTuple, groups: Sequence[_Side], X: Amount, exact: bool) -> None:
    """Add one mover's turn-start choices to ``stats`` (race play: ``X`` solved)."""
    stats.pairs += 1
    differs = False
    for p, _, legal, options in groups:
        if len(legal) < 2:
            continue
        stats.choice += float(p)
        ordered = sorted(legal, key=lambda rh: (-rh[1], -rh[0]))
        scored = [(options[row][0] * X + options[row][1], row) for row, _ in ordered]
        best_value, race_row = scored[0]
        for v, row in scored[1:]:
            if v > best_value:
                best_value, race_row = v, row
        solo_row = solo(mover, legal, rules.dice, rules.throws)
        solo_value = options[solo_row][0] * X + options[solo_row][1]
        if solo_value < best_value - (0 if exact else TIE * (1 + abs(best_value))):
            differs = True
            stats.differing += float(p)
            found.append(Decision(mover, opponent, legal, _throw_of(legal, open_rows_of(mover, rules.goal)), race_row,
                                  solo_row, best_value, solo_value, float(p)))
    stats.pairs_differing += differs


def _throw_of(legal: Legal, open_rows: Sequence[int], dice: int = 6) -> tuple[int, ...]:
    """A throw (sorted) whose hits on ``open_rows`` are exactly ``legal`` (the first found)."""
    from dicemath.core.dice import multiset_counts
    from dicemath.games.pegs_fives.hits import hits_from_counts

    rows = dict(legal)
    for counts, _ in multiset_counts(dice):
        if all(hits_from_counts(r, counts) == rows.get(r, 0) for r in open_rows):
            return tuple(face for face in range(1, 7) for _ in range(counts[face - 1]))
    return ()


# ---------------------------------------------------------------------------------------------
# The compiled solver (C, float64)
# ---------------------------------------------------------------------------------------------

def cycle_coefficients(rules: Rules, rows: tuple[int, ...]) -> np.ndarray:
    """The cycle terminals of every open row as one array (:mod:`._race_c` and the
    simulator): ``coef[j, need, dice, throws - 1, hits, column]`` is the chance that a cycle of
    row ``rows[j]`` with ``need`` steps to go, begun by naming it for ``hits`` hits with ``dice``
    in hand and ``throws`` left, ends in ``column``: 0 an overthrow (PEGS-6), ``c`` the turn's
    end ``c`` steps on, ``goal + c`` a fresh start ``c`` steps on (PEGS-8, FIVES-4/5),
    ``2 goal + t`` a PEGS-7 choice throw with ``t`` throws left."""
    goal, dice, k = rules.goal, rules.dice, len(rows)
    T = rules.throws or 1
    coef = np.zeros((k, goal + 1, dice + 1, T, dice + 1, 2 * goal + T))
    for j, row in enumerate(rows):
        per_hit = rules.dice_per_hit[row - 1]
        for need in range(1, goal + 1):
            for d in range(1, dice + 1):
                for t in range(1, T + 1):
                    after = t - 1 if rules.throws is not None else None
                    for h in range(1, d // per_hit + 1):
                        left = d - h * per_hit
                        for terminal, p in cycle_terminals(rules, row, goal - need, h, left, after).items():
                            if terminal[0] == "over":
                                column = 0
                            elif terminal[0] == "end":
                                column = terminal[1]
                            elif terminal[0] == "fresh":
                                column = goal + terminal[1]
                            else:
                                assert terminal[1] == d - per_hit * need and 1 <= terminal[2] < T
                                column = 2 * goal + terminal[2]
                            coef[j, need, d, t - 1, h, column] += float(p)
    return coef


_KERNEL_TABLES: dict = {}


def kernel_tables(rules: Rules, rows: tuple[int, ...], floors: tuple[int, ...] = ()) -> dict:
    """The constant arrays of :mod:`._race_c` for ``rules`` and open ``rows`` (cached), on the
    boards of the :class:`.race_box.RaceBox` of ``floors`` (default: the whole reduced board).

    Keys: ``layout`` (the :class:`.race_box.RaceBox`), ``digits`` (``[board, j]``: the steps of
    row ``rows[j]``), ``complete``, ``RP`` (FIVES-6 rest points of every board), ``strides``,
    ``per_hit``, ``coef`` and ``reach`` (the cycle terminals, :mod:`._race_c`), ``T`` (throw
    budgets: ``rules.throws``, 1 without a limit), the choice-throw groups of 1..6 dice
    (:func:`.fullboard.pegs_kernel.throw_groups`), ``position`` (each board's row and column
    in the kernel's tables: the open boards by level of progress, the sum of their steps, then
    index, the complete boards after them).
    """
    layout = RaceBox(rules, rows, floors)
    rows, key = layout.rows, (rules, layout.rows, layout.floors)
    if key in _KERNEL_TABLES:
        return _KERNEL_TABLES[key]
    from dicemath.games.pegs_fives.fullboard.pegs_kernel import throw_groups

    goal, dice, k, N = rules.goal, rules.dice, layout.k, layout.size
    T = rules.throws or 1
    index = np.arange(N)
    digits = layout.steps()
    complete = (digits >= goal).all(axis=1)
    position = np.empty(N, np.int64)
    position[np.lexsort((index, np.where(complete, k * goal + 1, digits.sum(axis=1))))] = index
    RP = ((goal - digits) * np.array(rows)).sum(axis=1).astype(np.float64)
    coef = cycle_coefficients(rules, rows)
    reach = np.zeros((k, goal + 1, dice + 1, T, T), dtype=np.bool_)
    for t2 in range(1, T):
        reach[..., t2] = (coef[..., 2 * goal + t2] != 0).any(axis=-1)
    for ta in range(T):                          # a PEGS-7 throw has at most the throws left after the choice throw
        if reach[..., ta, ta + 1:].any() or (T > 3 and reach.any()):
            raise InvalidRulesError(f"the race kernel compiles PEGS-7 choice throws for at most 3 throws (PEGS-3), "
                                    f"got throws={rules.throws}")
    groups = throw_groups(rules, rows)
    tables = {"layout": layout, "digits": digits, "complete": complete, "RP": RP,
              "strides": np.array(layout.strides, np.int64),
              "per_hit": np.array([rules.dice_per_hit[r - 1] for r in rows], np.int64), "coef": coef,
              "reach": reach, "goal": goal, "dice": dice, "T": T, "group_start": groups["group_start"],
              "group_p": groups["group_p"], "entry_start": groups["entry_start"], "entry_j": groups["entry_row"],
              "entry_h": groups["entry_hits"],
              "entry_idx": (groups["entry_row"] * (dice + 1) + groups["entry_hits"]).astype(np.int64),
              "position": position}
    if not any(layout.floors):                  # the whole board's, used again and again; a box's once
        _KERNEL_TABLES[key] = tables
    return tables


_SOLO_TABLES: dict = {}

C_FIELDS = ("digits", "complete", "strides", "per_hit", "coef", "reach", "group_start", "group_p", "entry_start",
            "entry_idx", "solo", "RP", "position")
"""The tables of :mod:`._race_c` in its order (:func:`kernel_tables`; ``solo`` the solo choices)."""

_C_TYPES = {"digits": np.int64, "complete": np.bool_, "strides": np.int64, "per_hit": np.int64, "coef": np.float64,
            "reach": np.bool_, "group_start": np.int64, "group_p": np.float64, "entry_start": np.int64,
            "entry_idx": np.int64, "solo": np.int32, "RP": np.float64, "position": np.int64}


def _c_tables(t: dict, solo: np.ndarray) -> tuple[tuple[np.ndarray, ...], tuple[int, int, int, int, int]]:
    """The tables and the shape ``(N, k, goal, dice, T)`` that :mod:`._race_c` takes, from
    :func:`kernel_tables` (C-contiguous, the dtypes it reads; ``solo`` itself, written by
    :func:`solo_choice_table`)."""
    values = dict(t, solo=solo)
    for name, dtype in _C_TYPES.items():
        if values[name].dtype != dtype or not values[name].flags.c_contiguous:
            if name == "solo":
                raise DicemathError("the solo choice table is a C-contiguous int32 array")
            values[name] = np.ascontiguousarray(values[name], dtype=dtype)
    shape = (t["layout"].size, len(t["strides"]), t["goal"], t["dice"], t["T"])
    return tuple(values[name] for name in C_FIELDS), shape


def solo_choice_table(rules: Rules, rows: tuple[int, ...], floors: tuple[int, ...] = ()) -> np.ndarray:
    """``solo[x, t - 1, g]``: the solo-optimal entry on throw group ``g`` at every choice throw
    of board ``x`` of the :class:`.race_box.RaceBox` of ``floors`` (:class:`SoloOptimal`'s
    rule), from the compiled expected-turns table of the whole reduced board
    (:func:`.fullboard.driver.solve_table`, float64). The whole board's is cached."""
    key = (rules, rows)
    if key not in _SOLO_TABLES:
        from dicemath.games.pegs_fives import _race_c  # type: ignore[attr-defined]  # C extension, no stubs
        from dicemath.games.pegs_fives.fullboard.driver import solve_table

        t = kernel_tables(rules, rows)
        E = np.ascontiguousarray(solve_table(rules, rows), dtype=np.float64)
        N = E.shape[0]
        solo = np.full((N, t["T"], len(t["group_p"])), -1, dtype=np.int32)
        CE = np.zeros((N, t["dice"] + 1, t["T"] + 1))
        tables, shape = _c_tables(t, solo)
        _race_c.solo_tables(tables, shape, E, CE)
        _SOLO_TABLES[key] = solo
    box = RaceBox(rules, rows, floors)
    if not any(box.floors):
        return _SOLO_TABLES[key]
    return np.ascontiguousarray(_SOLO_TABLES[key][box.steps() @ np.array(RaceBox(rules, rows).strides)])


def _varied(found: list[Decision], count: int) -> list[Decision]:
    """Up to ``count`` of the decisions ``found`` (largest loss first): first the largest of
    each kind of choice (legal rows, race row, solo row), then the rest in order."""
    kinds: set[tuple[Legal, int, int]] = set()
    first: list[Decision] = []
    rest: list[Decision] = []
    for decision in found:
        kind = (decision.legal, decision.race_row, decision.solo_row)
        (rest if kind in kinds else first).append(decision)
        kinds.add(kind)
    return (first + rest)[:count]


@dataclass
class RaceTables:
    """Every pair's value of a race solved by the compiled kernel (float64).

    Attributes:
        rules, open_rows, first, second: as :class:`RaceSolution`.
        layout: board index <-> board (:class:`.race_box.RaceBox`: the whole reduced board,
            or the boards reachable from one pair), the first mover's boards.
        V1, V2: ``N x N`` float64: ``V1[a, b]`` the first mover's policy to move on board
            index ``a`` against ``b``; ``V2`` the second's (the same array when both play one
            policy). Pairs with a complete board are NaN. With ``second_layout``, ``V1`` is
            ``NA x NB`` (the first mover's boards against the second's) and ``V2`` ``NB x NA``.
        decisions: :class:`DecisionStats` when both play ``"race"`` on one set of boards.
        seconds: the kernel's wall time; newton_steps: Newton steps over all pairs.
        second_layout: the second mover's boards when he has his own (a race of two sets of
            boards), else None.
    """

    rules: Rules
    open_rows: tuple[int, ...]
    first: str
    second: str
    layout: RaceBox
    V1: np.ndarray = field(repr=False)
    V2: np.ndarray = field(repr=False)
    decisions: DecisionStats | None
    seconds: float
    newton_steps: int
    second_layout: RaceBox | None = None

    @property
    def layouts(self) -> tuple[RaceBox, RaceBox]:
        """The first mover's boards and the second's."""
        return self.layout, self.second_layout or self.layout

    @property
    def pairs(self) -> int:
        """Live ordered pairs solved for each player (both boards incomplete)."""
        first, second = (layout.size - 1 for layout in self.layouts)    # a box's one complete board: its top
        return first * second * (1 if self.V1 is self.V2 else 2)

    @property
    def start_value(self) -> float:
        """The first mover's value from the empty pair."""
        return float(self.V1[0, 0])

    def value(self, mover: Sequence[int], opponent: Sequence[int], player: int = 1) -> float:
        """As :meth:`RaceSolution.value` (float64)."""
        a, b = check_pair(self.rules, self.open_rows, mover, opponent)
        own, other = self.layouts if player == 1 else self.layouts[::-1]
        table = self.V1 if player == 1 else self.V2
        return float(table[own.index(a), other.index(b)])

    def as_dict(self) -> dict[int, dict[tuple[BoardTuple, BoardTuple], float]]:
        """``{1: {(a, b): value}, 2: ...}`` over live pairs (for comparisons; small boards)."""
        boards = [[layout.board(i) for i in range(layout.size)] for layout in self.layouts]
        live = [[i for i, board in enumerate(side) if not _complete(board, self.rules.goal)] for side in boards]
        out: dict[int, dict[tuple[BoardTuple, BoardTuple], float]] = {}
        for player, table in ((1, self.V1), (2, self.V2)):
            own, other = (0, 1) if player == 1 else (1, 0)
            out[player] = {(boards[own][a], boards[other][b]): float(table[a, b])
                           for a in live[own] for b in live[other]}
        return out


def _payoff_tables(t: dict, u: dict, payoff: tuple[np.ndarray, np.ndarray]) -> tuple[dict, dict]:
    """The kernel tables of the first and the second mover with a terminal payoff
    (:func:`solve_race_compiled`): each side's rest points replaced by the payoff of completing
    against its boards, as ``(p - 1/2) / 2``, copies of their own (two sets of boards).

    Raises:
        DicemathError: arrays of the wrong length, or values outside [0, 1].
    """
    first, second = (np.asarray(p, dtype=np.float64) for p in payoff)
    if first.shape != (u["layout"].size,) or second.shape != (t["layout"].size,):
        raise DicemathError(f"a payoff gives a value per opponent board: {u['layout'].size} and "
                            f"{t['layout'].size}, got shapes {first.shape} and {second.shape}")
    if not (np.all((first >= 0) & (first <= 1)) and np.all((second >= 0) & (second <= 1))):
        raise DicemathError("a payoff is a probability: values in [0, 1]")
    return dict(t, RP=(second - 0.5) / 2.0), dict(u, RP=(first - 0.5) / 2.0)


def _default_threads(boards: int) -> int:
    """A thread per CPU from :data:`THREADED_BOARDS` boards a side, else one."""
    return (os.cpu_count() or 1) if boards >= THREADED_BOARDS else 1


def solve_race_compiled(rules: Rules, open_rows: Sequence[int], *, first: str = "race", second: str = "race",
                        examples: int = 10, decisions: bool = True, threads: int | None = None,
                        floors: Sequence[int] = (), second_floors: Sequence[int] | None = None,
                        payoff: tuple[np.ndarray, np.ndarray] | None = None) -> RaceTables:
    """Solve the two-player race on a reduced board with the compiled kernel (float64).

    Args:
        rules: :data:`~.rules.PEGS` or :data:`~.rules.FIVES` (the structures the compiled
            expected-turns kernels implement, :func:`.fullboard.driver.kernel_for`).
        open_rows: at most :data:`RACE_MAX_ROWS` open rows; with ``floors``, at most
            :data:`BOX_MAX_ROWS`.
        floors: solve only the pairs of the :class:`.race_box.RaceBox` of these floors (the
            pairs reachable from one pair, :meth:`.race_box.RaceBox.around`; at most
            :data:`RACE_MAX_BOARDS` boards); their values are those of the whole board's solve.
            Default: the whole reduced board.
        second_floors: the second mover's own boards, the box of these floors on the same rows
            (the boards reachable from his board, :meth:`.race_box.RaceBox.of_board`; the first
            mover's then those of ``floors``): the pairs of the first's boards against the
            second's and their mirrors, at most :data:`RACE_MAX_PAIRS`, the values those of the
            whole board's solve. ``V1`` is then first x second boards, ``V2`` second x first,
            and no decisions are counted. Default: one set of boards.
        first, second: the policies (:data:`POLICIES`).
        examples: differing decisions kept (race vs race).
        decisions: count the differing decisions (race vs race; False: the values alone).
        threads: threads of the kernel (default: one per CPU from :data:`THREADED_BOARDS`
            boards a side, else one); the values and counts are the same whatever the threads.
            The threads take chunks of opponents' boards level of progress by level, waiting for
            each other between levels: two halve the wall time on two idle CPUs.
        payoff: a general terminal payoff instead of the game's (:func:`win_value`), as
            :func:`solve_race`'s (:data:`Payoff`) in two float64 arrays ``(first, second)``:
            ``first[j]`` the first mover's value of completing his board against the second's
            board of index ``j`` (of his layout), ``second[i]`` the second's against the first's
            board ``i``; probabilities in [0, 1]. The values are then probabilities (the mirror
            ``1 - v``), each player has a table of his own and no decisions are counted; the
            kernel solves them in its rest-point arithmetic on ``v' = (v - 1/2) / 2`` (mirror
            ``-v'``; the arrays in place of the rest points, a bracket holding every probability).

    Raises:
        InvalidBoardError, RaceTooLargeError, DicemathError: as :func:`solve_race`, or
            boxes too large (:func:`check_race_boxes`).
        InvalidRulesError: rules no compiled kernel implements.

    Example:
        >>> from dicemath.games.pegs_fives.rules import FIVES
        >>> tables = solve_race_compiled(FIVES, [1])
        >>> abs(tables.start_value - float(solve_race(FIVES, [1]).start_value)) < 1e-12
        True
    """
    from dicemath.games.pegs_fives import _race_c  # type: ignore[attr-defined]  # C extension, no stubs
    from dicemath.games.pegs_fives.fullboard.driver import kernel_for

    box, second_box = check_race_boxes(rules, open_rows, floors, second_floors)
    rows = box.rows
    if payoff is not None:
        rules = replace(rules, scoring="first_out")     # probabilities: the mirror 1 - v
    first_policy, second_policy = check_policy(first), check_policy(second)
    if not isinstance(first_policy, str) or not isinstance(second_policy, str):
        raise DicemathError(f"the compiled race plays the policies {POLICIES}, not a policy maker")
    policies = (first_policy, second_policy)
    kernel_for(rules, rows)                                  # InvalidRulesError for rules no kernel implements
    t = kernel_tables(rules, rows, box.floors)
    u = t if second_box is None else kernel_tables(rules, rows, second_box.floors)
    if payoff is not None:
        t, u = _payoff_tables(t, u, payoff)
    NA, NB = t["layout"].size, u["layout"].size
    symmetric = policies[0] == policies[1] and u is t
    count = decisions and symmetric and policies[0] == "race"
    if "solo" in policies and len(rows) > SOLO_MAX_ROWS:
        raise RaceTooLargeError(f"a solo player's choices come from the whole board's expected turns: at most "
                                f"{SOLO_MAX_ROWS} open rows, got {len(rows)}")

    def c_tables(tables: dict) -> tuple[tuple[np.ndarray, ...], tuple[int, int, int, int, int]]:
        if count or "solo" in policies:
            solo = solo_choice_table(rules, rows, tables["layout"].floors)
        else:                                                # read by no choice of the race: empty
            solo = np.zeros((0, tables["T"], len(tables["group_p"])), dtype=np.int32)
        return _c_tables(tables, solo)

    V1 = np.full((NA, NB), np.nan)
    V2 = V1 if symmetric else np.full((NB, NA), np.nan)
    V1T = np.full((NB, NA), np.nan)
    V2T = V1T if symmetric else np.full((NA, NB), np.nan)
    kept = max(64, 16 * examples) if count else 1                          # thinned out below
    stats = np.zeros(4)
    ex_loss = np.full(kept, -1.0)
    ex_info = np.zeros((kept, 6), dtype=np.int64)
    ex_value = np.zeros((kept, 2))
    tables_a, shape_a = c_tables(t)
    tables_b, shape_b = (tables_a, shape_a) if u is t else c_tables(u)
    start = time.perf_counter()
    newton_steps, _ = _race_c.solve_pairs(
        tables_a, shape_a, tables_b, shape_b, (V1, V2, V1T, V2T),
        (policies[0] == "race", policies[1] == "race", symmetric, rules.scoring == "first_out" and payoff is None,
         count),
        stats, ex_loss, ex_info, ex_value, threads or _default_threads(max(NA, NB)))
    seconds = time.perf_counter() - start
    del V1T, V2T
    V1 = V1[np.ix_(t["position"], u["position"])]            # the kernel's rows and columns are positions
    V2 = V1 if symmetric else V2[np.ix_(u["position"], t["position"])]
    if payoff is not None:
        V1, V2 = 2.0 * V1 + 0.5, 2.0 * V2 + 0.5
    found_stats = None
    if count:
        found_stats = DecisionStats(float(stats[0]), float(stats[1]), int(stats[2]), int(stats[3]))
        layout = t["layout"]
        found, seen = [], set()
        for i in sorted(range(kept), key=lambda i: (-ex_loss[i], *ex_info[i, :3])):   # the kernel's order
            if ex_loss[i] <= 0:
                continue
            x, y, g, race_e, solo_e = (int(v) for v in ex_info[i, :5])
            mover = layout.board(x)
            legal = tuple(sorted((rows[int(t["entry_j"][e])], int(t["entry_h"][e]))
                                 for e in range(t["entry_start"][g], t["entry_start"][g + 1])
                                 if mover[rows[int(t["entry_j"][e])] - 1] < rules.goal))
            if (x, y, legal) in seen:                 # the same choice, the throws split by a complete row's hits
                continue
            seen.add((x, y, legal))
            open_rows = open_rows_of(mover, rules.goal)
            chance = sum(w for w, group in grouped_choice_throws(rules.dice, open_rows) if group == legal)
            found.append(Decision(mover, layout.board(y), legal, _throw_of(legal, open_rows),
                                  rows[int(t["entry_j"][race_e])], rows[int(t["entry_j"][solo_e])],
                                  float(ex_value[i, 0]), float(ex_value[i, 1]), chance / 6 ** rules.dice))
        found_stats.examples = _varied(found, examples)
    return RaceTables(rules, rows, policies[0], policies[1], t["layout"], V1, V2, found_stats, seconds, newton_steps,
                      None if u is t else u["layout"])


# ---------------------------------------------------------------------------------------------
# The figures (``dicemath pegs race`` / ``dicemath fives race``)
# ---------------------------------------------------------------------------------------------

def value_text(rules: Rules) -> str:
    """What a race value is, in words (PEGS-2 / FIVES-6)."""
    if rules.scoring == "first_out":
        return "the mover's probability of winning (PEGS-2: the first with all pegs in wins)"
    return ("the expected rest points of the opponent minus the mover's at the end of the round "
            "(FIVES-6: the round ends when one player completes every number)")


def _figures(rules: Rules, rows: tuple[int, ...], examples: int) -> dict:
    """The four matchups from the empty pair (three kernel runs) and the differing decisions."""
    result: dict = {}
    seconds: dict = {}
    newton: dict = {}
    pairs = 0
    for first, second in (("solo", "solo"), ("race", "solo"), ("race", "race")):
        tables = solve_race_compiled(rules, rows, first=first, second=second, examples=examples)
        name = f"{first}_vs_{second}"
        result[name] = tables.start_value
        if first != second:
            result["solo_vs_race"] = float(tables.V2[0, 0])
        seconds[name] = tables.seconds
        newton[name] = tables.newton_steps
        pairs += tables.pairs
        if tables.decisions is not None:
            result["differing_decisions"] = tables.decisions.as_json(rules)
        del tables
    result["kernel_seconds"] = seconds
    result["pairs_solved"] = pairs
    result["pairs_per_second"] = pairs / sum(seconds.values()) if sum(seconds.values()) else None
    result["newton_steps"] = newton
    return result


RACE_FIGURES_FORMAT = 1
"""The format version of the cached table ``pegs-fives-race-figures``: change it when its computation
or layout changes."""


RACE_TABLE_FORMAT = 1
"""The format version of the cached table ``pegs-fives-race-table``: change it when its computation
or layout changes."""


def exact_race_result(rules: Rules, open_rows: Sequence[int], *, boards: tuple | None = None, examples: int = 10,
                use_cache: bool = True) -> dict:
    """The JSON object of ``dicemath pegs race`` / ``dicemath fives race --open ROWS``.

    Keys: ``solo_vs_solo``, ``race_vs_solo``, ``solo_vs_race``, ``race_vs_race`` (the first
    mover's value from the empty pair; the first named is the first mover's policy),
    ``differing_decisions`` (:meth:`DecisionStats.as_json`), ``value`` (the mover's value
    under race play by both at ``boards = (mine, theirs)``, given as ``boards``, else at the
    empty pair: ``race_vs_race``), ``value_text`` (what the numbers are), ``exact`` (True:
    an exact solution), ``arithmetic`` (``"float64"``), ``solver`` (``"compiled"``),
    ``boards_per_side``, ``kernel_seconds`` / ``pairs_solved`` / ``pairs_per_second`` (when
    the figures were computed; they are cached, :func:`dicemath.core.cache.cached_object`).

    Raises:
        InvalidBoardError: bad rows or boards. RaceTooLargeError: more than
        :data:`RACE_MAX_ROWS` open rows. InvalidRulesError: rules no kernel implements.
    """
    from dicemath.core.cache import cached_arrays, cached_object

    rows = check_race_rows(rules, open_rows)
    pair = check_pair(rules, rows, *boards) if boards is not None else None
    figures = cached_object("pegs-fives-race-figures", (rules, rows, examples),
                            lambda: _figures(rules, rows, examples),
                            format_version=RACE_FIGURES_FORMAT, use_cache=use_cache)
    result = {"game": rules.name, "open_rows": list(rows), "boards_per_side": (rules.goal + 1) ** len(rows),
              "value_text": value_text(rules), "exact": True, "arithmetic": "float64", "solver": "compiled",
              **figures}
    result["value"] = result["race_vs_race"]
    if pair is not None:
        def build() -> dict:
            tables = solve_race_compiled(rules, rows, decisions=False)
            return {"V": tables.V1}

        table = cached_arrays("pegs-fives-race-table", (rules, rows), build,
                              format_version=RACE_TABLE_FORMAT, use_cache=use_cache)["V"]
        layout = kernel_tables(rules, rows)["layout"]
        result["boards"] = {"mover": list(pair[0]), "opponent": list(pair[1])}
        result["value"] = float(table[layout.index(pair[0]), layout.index(pair[1])])
    return result
