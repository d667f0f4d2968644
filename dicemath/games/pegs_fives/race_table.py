"""The exact race at a table of players on reduced boards, Pegs and Fives: the plain-Python reference.

``n`` players (seats ``0 .. n - 1``, seat 0 first) race on the same reduced board (the rows
``open_rows`` open, every other row complete, PEGS-1 / FIVES-1), moving in turn. A position is
the boards of the players at the start of the mover's turn, written *mover first*:
``(x, y, z)`` is the mover's board, then the next seat's, then the one after (three players).
Its value is a vector, one entry per player in that same order:

* Pegs (``scoring="first_out"``): each player's probability of finishing first (PEGS-2);
* Fives (``scoring="rest_points"``): each player's expected rest points at the end of the round
  (FIVES-6). A player's *objective* is ``u_i = (sum of the others' rest points) / (n - 1) - R_i``,
  the opponents' mean rest points minus his own (docs/rules.md, FIVES-6 Decision): zero-sum over
  the table, and for two players the two-player race's ``R_opp - R_own``
  (:mod:`.race_solver`).

A turn is the single-player turn of the rules (PEGS-3..9, FIVES-2..5), the within-turn model of
the two-player race (:class:`.race_solver._RaceTurn` on vectors, :class:`ValueVector`). A turn
ending on a complete board ends the round (Pegs ``(1, 0, 0)``; Fives ``(0, R(y), R(z))``); ending
on an incomplete ``x'`` the position ``(y, z, x')`` follows, its vector rotated back to mover
first; a fresh start inside the turn (PEGS-8, FIVES-4/5) is the position ``(x'', y, z)``, the
same mover. A turn that ends on ``x`` itself (an overthrow, PEGS-6; no legal row on the first
choice throw, PEGS-4 / FIVES-2) leads to ``(y, z, x)``: the ``n`` rotations of a tuple of boards
form one cycle. With the choices of every mover of the cycle fixed, position ``i`` of the cycle
is ``V_i = s_i * rot(V_{i+1}) + r_i`` (``s_i`` the chance of ending on the mover's own board,
``r_i`` every other ending, final already), and going round the cycle
``V_0 = (r_0 + s_0 rot(r_1) + s_0 s_1 rot^2(r_2) + ...) / (1 - s_0 s_1 ... s_{n-1})``: one
linear step. The movers' choices are then improved (each maximises his own entry, Pegs his
chance, Fives his objective, the rest of the table's choices fixed) and the step repeated until
no choice changes: Newton's method, i.e. policy iteration, on each mover's own value. Tuples are
solved from the most progress down (decreasing total of all boards), so every value a turn
reaches outside its cycle is final.

Each seat plays a *policy* (:data:`.race_solver.POLICIES`): ``"race"`` maximises his own entry;
``"solo"`` is solo-optimal play (:class:`.race_solver.SoloOptimal`), whatever the others' boards.
Options that tie on the mover's own value (exactly with Fractions; within
:data:`.race_solver.TIE` relatively in float64) go to the **lowest row** (docs/rules.md, PEGS-2
Decision): :class:`TieDecisions` counts how often a tie arises and how often the rule decides
something that changes another player's value.

:func:`solve_race_table` is the reference (Fractions with ``exact=True``, else float64), for at
most :data:`TABLE_MAX_TUPLES` tuples of unfinished boards; :meth:`RaceTableSolution.value` the
vector of any position; :func:`race_table_result` the JSON object of ``dicemath pegs race
--players 3``.

Example:
    Three players on Pegs row 7 alone: the first mover has the best chance to finish first, and
    the chances add up to one, exactly.

    >>> from dicemath.games.pegs_fives.rules import PEGS
    >>> s = solve_race_table(PEGS, [7], exact=True)
    >>> p = s.start_values
    >>> p[0] > p[1] > p[2] and sum(p) == 1
    True
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import product

from dicemath.core.errors import DicemathError
from dicemath.games.pegs_fives.race_solver import (
    POLICIES, TIE, Legal, RaceTooLargeError, SoloOptimal, _RaceTurn)
from dicemath.games.pegs_fives.rules import Rules
from dicemath.games.pegs_fives.solver import reduced_boards, solve_reduced
from dicemath.games.pegs_fives.state import (
    BoardTuple, InvalidBoardError, check_board, check_open_rows, grouped_choice_throws, rest_points)
from dicemath.games.pegs_fives.turn import Amount, open_rows_of

TABLE_MAX_PLAYERS = 6
"""The most players at a table the reference solves (2..6: the players of the table states)."""

TABLE_MAX_TUPLES = 50_000
"""The most tuples of unfinished boards (``(boards of the open rows - 1) ** players``) the
reference solves: Pegs or Fives rows 11 and 12 at three players are ``35 ** 3 = 42,875``, seconds
in float64 (one policy for every seat; a mixed table solves each tuple once per mover's seat).
Three open rows at three players would be ``215 ** 3``, some ten million."""

MAX_NEWTON_STEPS = 100
"""The most Newton steps (policy improvements) on one cycle of rotations before the solver gives
up (:class:`RuntimeError`): in practice a cycle converges in two to four."""


class ValueVector(tuple):
    """One value per player, mover first: a tuple closed under ``+``, ``-`` and scaling by a
    number, the amount of a within-turn model whose value is a vector (:mod:`.turn`).

    Example:
        >>> from fractions import Fraction as F
        >>> v = ValueVector((F(1), F(0), F(0)))
        >>> F(1, 4) * v + 0 + ValueVector((0, F(1, 2), F(1, 4)))
        (Fraction(1, 4), Fraction(1, 2), Fraction(1, 4))
    """

    __slots__ = ()

    def __add__(self, other: object) -> ValueVector:       # type: ignore[override]  # a sum, not a concatenation
        if isinstance(other, ValueVector):
            return ValueVector(map(operator.add, self, other))
        if other == 0:
            return self
        return NotImplemented

    __radd__ = __add__

    def __mul__(self, scalar: object) -> ValueVector:      # type: ignore[override]  # scaling, not repetition
        return ValueVector([scalar * v for v in self])      # type: ignore[operator]

    __rmul__ = __mul__

    def __neg__(self) -> ValueVector:
        return ValueVector([-v for v in self])


@dataclass
class TieDecisions:
    """How often the lowest-row rule decides a race-playing mover's choice.

    Counted once at every choice the solver makes for a ``"race"`` mover: the turn's first
    choice throw at every position (one choice per group of throws with the same legal rows and
    hits), and every later choice throw inside a turn (PEGS-7), once per position of the others.

    Attributes:
        choices: choices with two or more legal rows.
        ties: of those, choices where two or more rows tie on the mover's own value.
        deciding: of those, ties whose rows differ in another player's value (Pegs his chance,
            Fives his objective): the choices the tie rule decides for someone else.
    """

    choices: int = 0
    ties: int = 0
    deciding: int = 0

    def add(self, own: Callable[[ValueVector], Amount], options: Sequence[tuple[int, ValueVector]],
            exact: bool) -> int:
        """Count one choice among ``options`` (``(row, vector)`` in increasing row order) and
        return the row chosen: the lowest row among those that tie the best on ``own``."""
        mine = [own(vector) for _, vector in options]
        best = max(mine)
        floor = best if exact else best - TIE * (1 + abs(best))
        tied = [i for i, value in enumerate(mine) if value >= floor]
        if len(options) >= 2:
            self.choices += 1
            if len(tied) >= 2:
                self.ties += 1
                others = [[own(_rotated(options[i][1], k)) for i in tied] for k in range(1, len(options[0][1]))]
                if any(not _equal(values, exact) for values in others):
                    self.deciding += 1
        return options[tied[0]][0]

    def as_json(self) -> dict[str, object]:
        """The ``tie_decisions`` object of ``race --players 3 --json``."""
        return {"choices": self.choices, "ties": self.ties, "deciding": self.deciding,
                "counted": "choices of race-playing movers with two or more legal rows (the turn's first choice "
                           "throw at every position, per group of throws; later choice throws once per position "
                           "of the others); ties: two or more rows equal on the mover's own value; deciding: the "
                           "tied rows differ in another player's value and the lowest row was taken"}


def _equal(values: Sequence[Amount], exact: bool) -> bool:
    """Whether ``values`` are all equal (exactly, or within :data:`.race_solver.TIE`)."""
    top, bottom = max(values), min(values)
    return top == bottom if exact else top - bottom <= TIE * (1 + abs(top))


def _rotated(vector: ValueVector, k: int) -> ValueVector:
    """``vector`` (mover first) in the order of the player ``k`` seats after the mover."""
    return ValueVector(vector[k:] + vector[:k])


def _next_to_mover(vector: Sequence[Amount]) -> ValueVector:
    """The vector of the position after the mover's turn (the next player first) in the mover's
    order: its last entry (the mover's) first."""
    return ValueVector((vector[-1], *vector[:-1]))


def check_policies(policies: Sequence[str], players: int) -> tuple[str, ...]:
    """Validate one policy per seat (:data:`.race_solver.POLICIES`), seat 0 first.

    Raises:
        DicemathError: another number of policies than players, or an unknown policy.

    Example:
        >>> check_policies(["race", "solo", "solo"], 3)
        ('race', 'solo', 'solo')
    """
    policies = tuple(policies)
    if len(policies) != players:
        raise DicemathError(f"give one policy per seat: {players} players, got {len(policies)} policies "
                            f"({','.join(policies)})")
    for policy in policies:
        if policy not in POLICIES:
            raise DicemathError(f"a race policy is one of {', '.join(POLICIES)}; got {policy!r}")
    return policies


def check_table(rules: Rules, open_rows: Sequence[int], players: int) -> tuple[int, ...]:
    """Validate the rows and the players of a race at a table; return the rows sorted.

    Raises:
        InvalidBoardError: bad rows. DicemathError: players outside 2..:data:`TABLE_MAX_PLAYERS`.
        RaceTooLargeError: more than :data:`TABLE_MAX_TUPLES` tuples of unfinished boards.

    Example:
        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> check_table(PEGS, [12, 11], 3)
        (11, 12)
    """
    rows = check_open_rows(open_rows, rules)
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= TABLE_MAX_PLAYERS:
        raise DicemathError(f"a race at a table has 2..{TABLE_MAX_PLAYERS} players, got {players!r}")
    tuples = ((rules.goal + 1) ** len(rows) - 1) ** players
    if tuples > TABLE_MAX_TUPLES:
        raise RaceTooLargeError(f"the exact race at a table is solved for at most {TABLE_MAX_TUPLES:,} tuples of "
                                f"unfinished boards; {players} players on rows {list(rows)} are {tuples:,}")
    return rows


def terminal_vector(rules: Rules, boards: Sequence[BoardTuple], finished: int) -> ValueVector:
    """The vector of a round that ends with player ``finished`` (an index of ``boards``) complete:
    Pegs 1 for him and 0 for the others (PEGS-2); Fives every player's rest points, his 0
    (FIVES-6)."""
    if rules.scoring == "first_out":
        return ValueVector(int(i == finished) for i in range(len(boards)))
    return ValueVector(0 if i == finished else rest_points(board, rules.goal) for i, board in enumerate(boards))


def own_value(rules: Rules, vector: Sequence[Amount]) -> Amount:
    """The first player's (the mover's) own value of a vector: Pegs his chance to finish first,
    Fives his objective ``(sum of the others' rest points) / (n - 1) - his rest points``."""
    if rules.scoring == "first_out":
        return vector[0]
    return (sum(vector[1:]) - vector[0] * (len(vector) - 1)) / (len(vector) - 1)


def objectives(rules: Rules, vector: Sequence[Amount]) -> tuple[Amount, ...]:
    """Every player's own value of a vector (:func:`own_value`), in its order.

    Example:
        >>> from fractions import Fraction as F
        >>> from dicemath.games.pegs_fives.rules import FIVES
        >>> objectives(FIVES, (F(0), F(6), F(12)))
        (Fraction(9, 1), Fraction(0, 1), Fraction(-9, 1))
    """
    return tuple(own_value(rules, _rotated(ValueVector(vector), k)) for k in range(len(vector)))


@dataclass
class RaceTableSolution:
    """Every position's vector of a race at a table (:func:`solve_race_table`).

    Attributes:
        rules, open_rows, players: the race.
        policies: each seat's policy, seat 0 first.
        exact: Fractions (True) or float64.
        values: ``values[s][boards]``: the vector (mover first) of the position ``boards``
            (mover first) with seat ``s`` to move; one dict shared by every seat when all play
            one policy.
        tie_decisions: :class:`TieDecisions`.
        cycles: cycles of rotations solved; newton_steps: Newton steps over all of them;
            most_newton_steps: the most on one cycle.
    """

    rules: Rules
    open_rows: tuple[int, ...]
    players: int
    policies: tuple[str, ...]
    exact: bool
    values: list[dict[tuple[BoardTuple, ...], ValueVector]] = field(repr=False)
    tie_decisions: TieDecisions
    cycles: int = 0
    newton_steps: int = 0
    most_newton_steps: int = 0

    @property
    def start(self) -> BoardTuple:
        """The board with every open row at 0."""
        return tuple(0 if r in self.open_rows else self.rules.goal for r in range(1, self.rules.rows + 1))

    @property
    def start_values(self) -> tuple[Amount, ...]:
        """The vector of the empty boards, seat 0 to move: by seat (Pegs each seat's chance to
        finish first, Fives each seat's expected rest points)."""
        return self.value((self.start,) * self.players)

    @property
    def start_objectives(self) -> tuple[Amount, ...]:
        """Each seat's objective from the empty boards, seat 0 to move (:func:`objectives`)."""
        return objectives(self.rules, self.start_values)

    def value(self, boards: Sequence[Sequence[int]], seat: int = 0) -> tuple[Amount, ...]:
        """The vector of a position: ``boards`` mover first (each 12 steps, rows outside the
        race's at the goal), seat ``seat`` to move; entries mover first. A position with one
        complete board is a finished round: that player finished first (:func:`terminal_vector`).

        Raises:
            InvalidBoardError: another number of boards than players, a bad board, a row open
                outside the race's, or two complete boards.
            DicemathError: a seat outside ``0 .. players - 1``.
        """
        checked = check_boards(self.rules, self.open_rows, boards, self.players)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.players:
            raise DicemathError(f"the seat to move is 0..{self.players - 1}, got {seat!r}")
        goal = self.rules.goal
        done = [i for i, board in enumerate(checked) if all(s >= goal for s in board)]
        if done:
            return tuple(terminal_vector(self.rules, checked, done[0]))
        return tuple(self.values[seat][checked])

    def objectives(self, boards: Sequence[Sequence[int]], seat: int = 0) -> tuple[Amount, ...]:
        """Every player's own value at a position (:func:`objectives` of :meth:`value`)."""
        return objectives(self.rules, self.value(boards, seat))


def check_boards(rules: Rules, open_rows: Sequence[int], boards: Sequence[Sequence[int]],
                 players: int) -> tuple[BoardTuple, ...]:
    """Validate the boards of a position at a table on ``open_rows`` (one complete board at most).

    Raises:
        InvalidBoardError: another number of boards than ``players``, a bad board, a row open
            outside ``open_rows``, or two or more complete boards.
    """
    if len(boards) != players:
        raise InvalidBoardError(f"a position of {players} players has {players} boards, got {len(boards)}")
    checked = []
    for seat, board in enumerate(boards):
        b = check_board(board, rules)
        outside = [r for r, s in enumerate(b, 1) if s < rules.goal and r not in open_rows]
        if outside:
            raise InvalidBoardError(f"board {seat} (mover first) has rows {outside} open, but the race has only "
                                    f"rows {list(open_rows)} open")
        checked.append(b)
    if sum(all(s >= rules.goal for s in b) for b in checked) > 1:
        raise InvalidBoardError("two boards are complete: the round ended when the first was")
    return tuple(checked)


_Option = tuple[int, Amount, ValueVector, Amount]
"""A row of a turn's first choice throw: the row, ``stay`` (the chance of ending on the mover's
own board), ``rest`` (every other ending's vector) and the mover's own value of ``rest``."""

_Group = tuple["Fraction | float", Legal, list[_Option]]
"""A group of first choice throws: their chance, the legal rows and hits, the options (empty:
no legal row)."""


class _TableSolver:
    """The state of one :func:`solve_race_table` run."""

    def __init__(self, rules: Rules, rows: tuple[int, ...], players: int, policies: tuple[str, ...],
                 exact: bool) -> None:
        self.rules, self.rows, self.n, self.policies, self.exact = rules, rows, players, policies, exact
        self.uniform = len(set(policies)) == 1
        shared: dict[tuple[BoardTuple, ...], ValueVector] = {}
        self.values = [shared] * players if self.uniform else [{} for _ in range(players)]
        self.ties = TieDecisions()
        self.solo = (SoloOptimal(rules, solve_reduced(rules, rows, exact=exact).values.__getitem__, exact=exact)
                     if "solo" in policies else None)
        self.models: dict[tuple[int, tuple[BoardTuple, ...]], _RaceTurn] = {}
        self.zero: Fraction | float = Fraction(0) if exact else 0.0
        self.cycles = self.steps = self.most_steps = 0

    def own(self, vector: ValueVector) -> Amount:
        return own_value(self.rules, vector)

    def policy(self, seat: int) -> str:
        return self.policies[seat]

    def vector(self, amount: Amount) -> ValueVector:
        """A model's amount as a vector (a sum of no endings is the scalar zero)."""
        return amount if isinstance(amount, ValueVector) else ValueVector([self.zero] * self.n)

    def model(self, seat: int, others: tuple[BoardTuple, ...]) -> _RaceTurn:
        """The turn of the mover in seat ``seat`` against the others' boards (in playing order)."""
        key = (0 if self.uniform else seat, others)
        model = self.models.get(key)
        if model is not None:
            return model
        rules, goal, n = self.rules, self.rules.goal, self.n
        following, here = self.values[(seat + 1) % n], self.values[seat]

        def end(board: BoardTuple) -> ValueVector:
            if all(s >= goal for s in board):
                return terminal_vector(rules, (board, *others), 0)
            return _next_to_mover(following[(*others, board)])

        def restart(board: BoardTuple) -> ValueVector:
            if all(s >= goal for s in board):
                return terminal_vector(rules, (board, *others), 0)
            return here[(board, *others)]

        model = self.models[key] = _RaceTurn(rules, end, restart, exact=self.exact)
        if self.policy(seat) == "solo":
            model.chooser = self.solo
        else:
            model.chooser = self._race_chooser(model, end)
        return model

    def _race_chooser(self, model: _RaceTurn, end: Callable[[BoardTuple], ValueVector]
                      ) -> Callable[[BoardTuple, Legal, int, int | None], int]:
        """A race mover's choice at a later choice throw of his turn (PEGS-7): every ending is
        final there, the best row on his own value, ties to the lowest row."""

        def choose(board: BoardTuple, legal: Legal, dice: int, throws: int | None) -> int:
            after = None if throws is None else throws - 1
            here = end(board)
            options = []
            for row, hits in legal:
                stay, rest = model.race_option(board, row, hits, dice, after)
                options.append((row, stay * here + self.vector(rest)))
            return self.ties.add(self.own, options, self.exact)

        return choose

    def groups(self, boards: tuple[BoardTuple, ...], seat: int) -> list[_Group]:
        """The first choice throws of the mover's turn at a position (``seat`` to move)."""
        rules = self.rules
        mover, others = boards[0], boards[1:]
        model = self.model(seat, others)
        after = None if rules.throws is None else rules.throws - 1
        total = 6 ** rules.dice
        result: list[_Group] = []
        for weight, legal in grouped_choice_throws(rules.dice, open_rows_of(mover, rules.goal)):
            p = Fraction(weight, total) if self.exact else weight / total
            options: list[_Option] = []
            for row, hits in legal:
                stay, rest = model.race_option(mover, row, hits, rules.dice, after)
                rest = self.vector(rest)
                options.append((row, stay, rest, self.own(rest)))
            if self.policy(seat) == "solo" and options and self.solo is not None:
                row = self.solo(mover, legal, rules.dice, rules.throws)
                options = [option for option in options if option[0] == row]
            result.append((p, legal, options))
        return result

    def choose(self, groups: list[_Group], X: Amount) -> list[int]:
        """The option index of every group for a mover whose ending on his own board is worth
        ``X`` to him: the best on his own value, ties to the lowest row (-1: no legal row)."""
        chosen = []
        for _, _, options in groups:
            if not options:
                chosen.append(-1)
                continue
            values = [stay * X + mine for _, stay, _, mine in options]
            best = max(values)
            floor = best if self.exact else best - TIE * (1 + abs(best))
            chosen.append(next(i for i, v in enumerate(values) if v >= floor))
        return chosen

    def solve_cycle(self, positions: list[tuple[tuple[BoardTuple, ...], int]]) -> None:
        """Solve the positions of one cycle of rotations (each the next one's predecessor)."""
        n = len(positions)
        sides = [self.groups(boards, seat) for boards, seat in positions]
        X = [self.zero] * n
        chosen = [self.choose(groups, x) for groups, x in zip(sides, X)]
        step = 0
        while True:
            step += 1
            if step > MAX_NEWTON_STEPS:
                raise RuntimeError(f"the race at {positions[0][0]} did not converge in {MAX_NEWTON_STEPS} Newton steps")
            V = self._linear_step(sides, chosen)
            X = [self.own(_next_to_mover(V[(i + 1) % n])) for i in range(n)]
            improved = [self.choose(groups, x) for groups, x in zip(sides, X)]
            if improved == chosen:
                break
            chosen = improved
        self.cycles += 1
        self.steps += step
        self.most_steps = max(self.most_steps, step)
        for i, (boards, seat) in enumerate(positions):
            self.values[seat].setdefault(boards, V[i])
        for i, (_, seat) in enumerate(positions):
            if self.policy(seat) == "race":
                self._count(sides[i], _next_to_mover(V[(i + 1) % n]))

    def _linear_step(self, sides: list[list[_Group]], chosen: list[list[int]]) -> list[ValueVector]:
        """Every position's vector of a cycle with the choices fixed (module docstring)."""
        n = len(sides)
        stays, rests = [], []
        for groups, choices in zip(sides, chosen):
            s, r = self.zero, ValueVector([self.zero] * self.n)
            for (p, _, options), i in zip(groups, choices):
                if i < 0:
                    s += p
                else:
                    _, stay, rest, _ = options[i]
                    s += p * stay
                    r = r + p * rest
            stays.append(s)
            rests.append(r)
        loop = self.zero + 1
        for s in stays:
            loop *= s
        if loop == 1:
            raise RuntimeError("no mover of a cycle ever leaves his board: the race never ends")
        V0 = rests[n - 1]
        for i in range(n - 2, -1, -1):                      # V_i = r_i + s_i rot(V_{i+1}), from V_n = 0
            V0 = rests[i] + stays[i] * _next_to_mover(V0)
        V0 = V0 * ((Fraction(1) if self.exact else 1.0) / (1 - loop))
        V = [V0] * n
        for i in range(n - 1, 0, -1):
            V[i] = rests[i] + stays[i] * _next_to_mover(V[(i + 1) % n])
        return V

    def _count(self, groups: list[_Group], W: ValueVector) -> None:
        """Count the first choice throws of a race mover's turn, his ending on his own board
        worth ``W`` (:class:`TieDecisions`)."""
        for _, _, options in groups:
            if options:
                self.ties.add(self.own, [(row, stay * W + rest) for row, stay, rest, _ in options], self.exact)


def _cycles(boards: Sequence[BoardTuple], players: int) -> Iterable[tuple[BoardTuple, ...]]:
    """One tuple of each cycle of rotations of ``players`` boards, from the most progress down."""
    seen = set()
    found = []
    for t in product(boards, repeat=players):
        if t in seen:
            continue
        for k in range(players):
            seen.add(t[k:] + t[:k])
        found.append(t)
    found.sort(key=lambda t: -sum(map(sum, t)))
    return found


def solve_race_table(rules: Rules, open_rows: Sequence[int], *, players: int = 3,
                     policies: Sequence[str] | None = None, exact: bool = False) -> RaceTableSolution:
    """Solve the race of ``players`` at a table on a reduced board, exactly, in plain Python.

    Args:
        rules: :data:`~.rules.PEGS` or :data:`~.rules.FIVES` (or a variant).
        open_rows: the rows open on every board (at most :data:`TABLE_MAX_TUPLES` tuples of
            unfinished boards).
        players: 2..:data:`TABLE_MAX_PLAYERS`.
        policies: each seat's policy, seat 0 first (:data:`.race_solver.POLICIES`); default
            every seat ``"race"``.
        exact: Fractions (True) or float64 (False).

    Returns:
        A :class:`RaceTableSolution`: every position's vector, for every seat to move.

    Raises:
        InvalidBoardError: bad rows. RaceTooLargeError: too many tuples of boards.
        DicemathError: bad players or policies.
        RuntimeError: a cycle that does not converge (not seen on the rules of the project).

    Example:
        Fives on the 1s alone: the objectives add up to zero, and the first seat's is the best.

        >>> from dicemath.games.pegs_fives.rules import FIVES
        >>> s = solve_race_table(FIVES, [1], exact=True)
        >>> u = s.start_objectives
        >>> sum(u) == 0 and u[0] == max(u)
        True
    """
    rows = check_table(rules, open_rows, players)
    policies = check_policies(("race",) * players if policies is None else policies, players)
    solver = _TableSolver(rules, rows, players, policies, exact)
    goal = rules.goal
    live = [b for b in reduced_boards(rules, rows) if not all(s >= goal for s in b)]
    seats = range(1 if solver.uniform else players)
    for t in _cycles(live, players):
        for seat in seats:
            if t in solver.values[seat]:
                continue                                    # a periodic tuple's cycle, solved from another seat
            solver.solve_cycle([(t[i:] + t[:i], (seat + i) % players) for i in range(players)])
    return RaceTableSolution(rules, rows, players, policies, exact, solver.values, solver.ties, solver.cycles,
                             solver.steps, solver.most_steps)

