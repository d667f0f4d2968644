"""The exact race at a table of players on reduced boards, Pegs and Fives: the reference solver.

``n`` players (seats ``0 .. n - 1``, seat 0 first) race on the same reduced board (the rows
``open_rows`` open, every other row complete, PEGS-1 / FIVES-1), moving in turn. A position is
the boards of the players at the start of the mover's turn, written *mover first*:
``(x, y, z)`` is the mover's board, then the next seat's, then the one after (three players).
Its value is a vector, one entry per player in that same order:

* Pegs (``scoring="first_out"``): each player's probability of finishing first (PEGS-2);
* Fives (``scoring="rest_points"``): each player's expected rest points at the end of the round
  (FIVES-6). A player's *objective* is ``u_i = (sum of the others' rest points) / (n - 1) - R_i``,
  the opponents' mean rest points minus his own (docs/rules.md, FIVES-6 Decision): zero-sum over
  the table, and for two players the two-player race's ``R_opp - R_own`` (:mod:`.race_solver`).

A turn is the single-player turn of the rules (PEGS-3..9, FIVES-2..5). A turn ending on a
complete board ends the round (Pegs ``(1, 0, 0)``; Fives ``(0, R(y), R(z))``); ending on an
incomplete ``x'`` the position ``(y, z, x')`` follows, its vector rotated back to mover first; a
fresh start inside the turn (PEGS-8, FIVES-4/5) is the position ``(x'', y, z)``, the same mover.
Each option of a choice throw is a linear form over those endings and the later choice throws of
the turn (PEGS-7), the same for every board of the others (:class:`TurnForms`, the within-turn
recursion :class:`.turn.TurnValue`); the forms are evaluated for all the others' boards at once
(numpy, float64, or Fractions in object arrays).

A turn that ends on ``x`` itself (an overthrow, PEGS-6; no legal row on the first choice throw,
PEGS-4 / FIVES-2) leads to ``(y, z, x)``: the ``n`` rotations of a tuple of boards form one cycle.
With the choices of every mover of the cycle fixed, position ``i`` of the cycle is
``V_i = s_i * rot(V_{i+1}) + r_i`` (``s_i`` the chance of ending on the mover's own board, ``r_i``
every other ending, final already), and going round the cycle
``V_0 = (r_0 + s_0 rot(r_1) + s_0 s_1 rot^2(r_2) + ...) / (1 - s_0 s_1 ... s_{n-1})``: one
linear step. The movers' choices are then improved (each maximises his own entry, Pegs his
chance, Fives his objective, the rest of the cycle's choices fixed) and the step repeated until
no choice changes: Newton's method, i.e. policy iteration, on each mover's own value. Tuples are
solved from the most progress down (decreasing total of all boards), so every value a turn
reaches outside its cycle is final.

Each seat plays a *policy* (:data:`.race_solver.POLICIES`): ``"race"`` maximises his own entry;
``"solo"`` is solo-optimal play (:class:`.race_solver.SoloOptimal`), whatever the others' boards.
Options that tie on the mover's own value (exactly with Fractions; within
:data:`.race_solver.TIE` relatively in float64) go to the **lowest row** (docs/rules.md, PEGS-2
Decision): :class:`TieDecisions` counts how often a tie arises and how often the rule decides
something that changes another player's value.

:func:`solve_race_table` solves every position (at most :data:`TABLE_MAX_TUPLES` tuples of
unfinished boards); :meth:`RaceTableSolution.value` gives the vector of any position;
:func:`race_table_result` is the JSON object of ``dicemath pegs race --players 3``.

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

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from dicemath.core.errors import DicemathError
from dicemath.games.pegs_fives.limits import TABLE_MAX_PLAYERS
from dicemath.games.pegs_fives.race_solver import POLICIES, TIE, Legal, RaceTooLargeError, SoloOptimal
from dicemath.games.pegs_fives.rules import Rules
from dicemath.games.pegs_fives.solver import reduced_boards, solve_reduced
from dicemath.games.pegs_fives.state import (
    BoardTuple, InvalidBoardError, check_board, check_open_rows, grouped_choice_throws, rest_points)
from dicemath.games.pegs_fives.turn import Amount, BoardMass, TurnValue, open_rows_of

TABLE_MAX_TUPLES = 50_000
"""The most tuples of unfinished boards (``(boards of the open rows - 1) ** players``) the solver
takes: Pegs or Fives rows 11 and 12 at three players are ``35 ** 3 = 42,875``, seconds in float64
(a mixed table solves each tuple once per seat to move). Three open rows at three players would
be ``215 ** 3``, some ten million."""

EXACT_MAX_TUPLES = 1_000
"""The most tuples of unfinished boards the solver takes in Fractions (``exact=True``): their
denominators grow with every level of progress, so exact solves are for one open row at three
or four players (125 and 625 tuples, a second or so); float64 takes :data:`TABLE_MAX_TUPLES`."""

MAX_NEWTON_STEPS = 100
"""The most Newton steps (policy improvements) on the cycles of one level of progress before the
solver gives up (:class:`RuntimeError`): in practice two to four."""

END, FRESH, CHOICE = 0, 1, 2
"""The kinds of a turn's endings in a :class:`TurnForms` form: the turn ends on a board, a fresh
start (PEGS-8, FIVES-4/5) on a board, a later choice throw (PEGS-7)."""


def ending(kind: int, board: BoardTuple, dice: int = 0, throws: int | None = None) -> BoardTuple:
    """The key of an ending in a :class:`TurnForms` form: ``(kind, dice, throws, *board)`` (throws
    -1 without a limit)."""
    return (kind, dice, -1 if throws is None else throws, *board)


class TurnForms(TurnValue):
    """The within-turn recursion (:class:`.turn.TurnValue`) whose value is a linear form over the
    turn's endings (a :class:`.turn.BoardMass` keyed by :func:`ending`): the turn ending on a board
    (:data:`END`), a fresh start (:data:`FRESH`), a later choice throw with the dice and throws
    left (:data:`CHOICE`). The forms are exact and do not depend on the other players' boards.

    Example:
        Pegs, row 12 one step from the top: naming it for one hit (two 6s, four dice left, two
        throws) brings it in unless a further 6-6 overthrows; in, the dice left are a new choice
        throw (PEGS-7), on a complete board the end of the round.

        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> forms = TurnForms(PEGS)
        >>> stay, rest = forms.option((5,) * 11 + (4,), 12, 1, 6, 2)
        >>> stay, dict(rest)
        (Fraction(0, 1), {(0, 0, -1, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5): Fraction(1, 1)})
    """

    def __init__(self, rules: Rules) -> None:
        super().__init__(rules, lambda board: BoardMass({ending(END, board): Fraction(1)}), exact=True,
                         restart_identity=False)

    def choice(self, board: BoardTuple, dice: int, throws: int | None) -> Amount:
        fresh = dice == self.rules.dice and throws == self.rules.throws
        return BoardMass({ending(FRESH if fresh else CHOICE, board, dice, throws): Fraction(1)})


@dataclass
class TieDecisions:
    """How often the lowest-row rule decides a race-playing mover's choice.

    Counted at every choice the solver makes for a ``"race"`` mover: the turn's first choice
    throw at every position (one choice per group of throws with the same legal rows and hits),
    and every later choice throw inside the turn (PEGS-7) at every position whose turn reaches it.

    Attributes:
        choices: choices with two or more legal rows.
        ties: of those, choices where two or more rows tie on the mover's own value.
        deciding: of those, ties whose rows differ in another player's value (Pegs his chance,
            Fives his objective): the choices the tie rule decides for someone else.
    """

    choices: int = 0
    ties: int = 0
    deciding: int = 0

    def as_json(self) -> dict[str, object]:
        """The ``tie_decisions`` object of ``race --players 3 --json``."""
        return {"choices": self.choices, "ties": self.ties, "deciding": self.deciding,
                "counted": "choices of race-playing movers with two or more legal rows (the turn's first choice "
                           "throw at every position, per group of throws; later choice throws at every position "
                           "whose turn reaches them); ties: two or more rows equal on the mover's own value; "
                           "deciding: the tied rows differ in another player's value, and the lowest was taken"}


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
                            f"({','.join(map(str, policies))})")
    for policy in policies:
        if policy not in POLICIES:
            raise DicemathError(f"a race policy is one of {', '.join(POLICIES)}; got {policy!r}")
    return policies


def check_table(rules: Rules, open_rows: Sequence[int], players: int, exact: bool = False) -> tuple[int, ...]:
    """Validate the rows and the players of a race at a table; return the rows sorted.

    Raises:
        InvalidBoardError: bad rows. DicemathError: players outside 2..:data:`~.limits.TABLE_MAX_PLAYERS`.
        RaceTooLargeError: more than :data:`TABLE_MAX_TUPLES` tuples of unfinished boards, or
            with ``exact`` more than :data:`EXACT_MAX_TUPLES`.

    Example:
        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> check_table(PEGS, [12, 11], 3)
        (11, 12)
    """
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= TABLE_MAX_PLAYERS:
        raise DicemathError(f"a race at a table has 2..{TABLE_MAX_PLAYERS} players, got {players!r}")
    rows = check_open_rows(open_rows, rules)
    tuples = ((rules.goal + 1) ** len(rows) - 1) ** players
    if tuples > TABLE_MAX_TUPLES:
        raise RaceTooLargeError(f"the exact race at a table is solved for at most {TABLE_MAX_TUPLES:,} tuples of "
                                f"unfinished boards; {players} players on rows {list(rows)} are {tuples:,}")
    if exact and tuples > EXACT_MAX_TUPLES:
        raise RaceTooLargeError(f"the exact race at a table is solved in fractions for at most {EXACT_MAX_TUPLES:,} "
                                f"tuples of unfinished boards; {players} players on rows {list(rows)} are "
                                f"{tuples:,}: solve it in float64 (without exact fractions)")
    return rows


def terminal_vector(rules: Rules, boards: Sequence[BoardTuple], finished: int) -> tuple[int, ...]:
    """The vector of a round that ends with player ``finished`` (an index of ``boards``) complete:
    Pegs 1 for him and 0 for the others (PEGS-2); Fives every player's rest points, his 0
    (FIVES-6)."""
    if rules.scoring == "first_out":
        return tuple(int(i == finished) for i in range(len(boards)))
    return tuple(0 if i == finished else rest_points(board, rules.goal) for i, board in enumerate(boards))


def own_value(rules: Rules, vector: Sequence[Amount]) -> Amount:
    """The first player's (the mover's) own value of a vector: Pegs his chance to finish first,
    Fives his objective ``(sum of the others' rest points) / (n - 1) - his rest points``."""
    if rules.scoring == "first_out":
        return vector[0]
    n = len(vector)
    return (sum(vector[1:]) - vector[0] * (n - 1)) / (n - 1)


def objectives(rules: Rules, vector: Sequence[Amount]) -> tuple[Amount, ...]:
    """Every player's own value of a vector (:func:`own_value`), in its order.

    Example:
        >>> from fractions import Fraction as F
        >>> from dicemath.games.pegs_fives.rules import FIVES
        >>> objectives(FIVES, (F(0), F(6), F(12)))
        (Fraction(9, 1), Fraction(0, 1), Fraction(-9, 1))
    """
    vector = tuple(vector)
    return tuple(own_value(rules, vector[k:] + vector[:k]) for k in range(len(vector)))


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
    for i, board in enumerate(boards):
        b = check_board(board, rules)
        outside = [r for r, s in enumerate(b, 1) if s < rules.goal and r not in open_rows]
        if outside:
            raise InvalidBoardError(f"board {i} (mover first) has rows {outside} open, but the race has only "
                                    f"rows {list(open_rows)} open")
        checked.append(b)
    if sum(all(s >= rules.goal for s in b) for b in checked) > 1:
        raise InvalidBoardError("two boards are complete: the round ended when the first was")
    return tuple(checked)


@dataclass
class RaceTableSolution:
    """Every position's vector of a race at a table (:func:`solve_race_table`).

    Attributes:
        rules, open_rows, players: the race.
        policies: each seat's policy, seat 0 first.
        exact: Fractions (True) or float64.
        boards: the unfinished boards of the open rows, by index (``index``: board -> index).
        values: ``values[s][i]``: the vector (mover first) of the position of index ``i`` with
            seat ``s`` to move: ``i = sum_j index(board_j) * len(boards) ** (n - 1 - j)``, the boards
            mover first (float64, or Fractions in an object array); one array shared by every
            seat when all play one policy.
        tie_decisions: :class:`TieDecisions`.
        newton_steps: Newton steps summed over the levels of progress; most_newton_steps: the
            most on one level (every cycle of the level converged within them).
    """

    rules: Rules
    open_rows: tuple[int, ...]
    players: int
    policies: tuple[str, ...]
    exact: bool
    boards: list[BoardTuple] = field(repr=False)
    values: list[np.ndarray] = field(repr=False)
    tie_decisions: TieDecisions = field(default_factory=TieDecisions)
    newton_steps: int = 0
    most_newton_steps: int = 0
    index: dict[BoardTuple, int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.index = {board: i for i, board in enumerate(self.boards)}

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
        race's at the goal), seat ``seat`` to move; entries mover first (Fractions or floats). A
        position with one complete board is a finished round: that player finished first
        (:func:`terminal_vector`).

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
            return terminal_vector(self.rules, checked, done[0])
        flat = 0
        for board in checked:
            flat = flat * len(self.boards) + self.index[board]
        vector = self.values[seat][flat]
        return tuple(vector) if self.exact else tuple(float(v) for v in vector)

    def objectives(self, boards: Sequence[Sequence[int]], seat: int = 0) -> tuple[Amount, ...]:
        """Every player's own value at a position (:func:`objectives` of :meth:`value`)."""
        return objectives(self.rules, self.value(boards, seat))


@dataclass
class _Form:
    """A :class:`TurnForms` form compiled to board indices: coefficients of the turn's ends on
    unfinished boards (``ends``), of its end on a complete board (``done``), of its fresh
    starts (``fresh``), and its later choice throws (``nodes``: ``((board, dice, throws), c)``)."""

    ends: np.ndarray
    end_coef: np.ndarray
    done: Amount
    fresh: np.ndarray
    fresh_coef: np.ndarray
    nodes: list[tuple[tuple[BoardTuple, int, int | None], Amount]]


_Options = list[tuple[int, Amount, _Form]]
"""The options of a choice throw: row, ``stay`` (the chance of ending on the board the throw is
made on), the form of every other ending."""


@dataclass
class _Batch:
    """The positions of one level of progress with one mover's board and seat: the others'
    boards (``others``: indices, ``m x (n - 1)``), the flat indices of the positions that follow
    a turn ending on board 0 (``after``, plus the board's index) and that a fresh start on board
    0 gives (``again``, plus the board's index times ``B ** (n - 1)``), the round's end vector
    (``done``, ``m x n``) and the later choice throws' vectors worked out (``nodes``)."""

    seat: int
    mover: int
    flats: np.ndarray
    others: np.ndarray
    after: np.ndarray
    again: np.ndarray
    done: np.ndarray
    nodes: dict = field(default_factory=dict)


class _TableSolver:
    """The state of one :func:`solve_race_table` run."""

    def __init__(self, rules: Rules, rows: tuple[int, ...], players: int, policies: tuple[str, ...],
                 exact: bool) -> None:
        self.rules, self.rows, self.n, self.policies, self.exact = rules, rows, players, policies, exact
        self.uniform = len(set(policies)) == 1
        goal = rules.goal
        self.boards = [b for b in reduced_boards(rules, rows) if not all(s >= goal for s in b)]
        self.index = {board: i for i, board in enumerate(self.boards)}
        self.B = len(self.boards)
        self.dtype = object if exact else np.float64
        self.zero: Fraction | float = Fraction(0) if exact else 0.0
        size = self.B ** players
        blank = None if exact else np.nan
        seats = 1 if self.uniform else players
        tables = [np.full((size, players), blank, dtype=self.dtype) for _ in range(seats)]
        self.values = tables * players if self.uniform else tables
        self.ties = TieDecisions()
        self.solo = (SoloOptimal(rules, solve_reduced(rules, rows, exact=exact).values.__getitem__, exact=exact)
                     if "solo" in policies else None)
        self.forms = TurnForms(rules)
        self.compiled: dict[tuple[str, BoardTuple, int, int | None], list[tuple[Amount, Legal, _Options]]] = {}
        self.rest = np.array([rest_points(b, goal) for b in self.boards], dtype=np.int64)
        self.where = [np.full(size, -1, dtype=np.int64) for _ in range(seats)]
        self.steps = self.most_steps = 0

    # -- forms -----------------------------------------------------------------------------------

    def number(self, value: Fraction) -> Amount:
        return value if self.exact else float(value)

    def compile(self, form: Amount) -> _Form:
        ends, end_coef, fresh, fresh_coef, nodes = [], [], [], [], []
        done = self.zero
        goal = self.rules.goal
        for key, c in (form.items() if isinstance(form, BoardMass) else ()):
            kind, dice, throws, board = key[0], key[1], key[2], tuple(key[3:])
            coef = self.number(c)
            if kind == CHOICE:
                nodes.append(((board, dice, None if throws < 0 else throws), coef))
            elif all(s >= goal for s in board):
                done += coef
            elif kind == END:
                ends.append(self.index[board])
                end_coef.append(coef)
            else:
                fresh.append(self.index[board])
                fresh_coef.append(coef)
        return _Form(np.array(ends, dtype=np.int64), np.array(end_coef, dtype=self.dtype), done,
                     np.array(fresh, dtype=np.int64), np.array(fresh_coef, dtype=self.dtype), nodes)

    def choices(self, policy: str, board: BoardTuple, dice: int, throws: int | None
                ) -> list[tuple[Amount, Legal, _Options]]:
        """Every group of a choice throw of ``dice`` dice on ``board`` with ``throws`` left before
        it: its chance, the legal rows, the options a mover of ``policy`` considers."""
        key = (policy, board, dice, throws)
        found = self.compiled.get(key)
        if found is not None:
            return found
        rules = self.rules
        after = None if throws is None else throws - 1
        found = []
        for weight, legal in grouped_choice_throws(dice, open_rows_of(board, rules.goal)):
            rows = [row for row, _ in legal]
            if policy == "solo" and legal and self.solo is not None:
                rows = [self.solo(board, legal, dice, throws)]
            hits = dict(legal)
            options = []
            for row in rows:
                stay, rest = self.forms.option(board, row, hits[row], dice, after)
                options.append((row, self.number(stay), self.compile(rest)))
            found.append((self.number(Fraction(weight, 6 ** dice)), legal, options))
        self.compiled[key] = found
        return found

    # -- evaluation for a batch ------------------------------------------------------------------

    def own(self, vectors: np.ndarray) -> np.ndarray:
        """The mover's own value of vectors (last axis: the players, mover first)."""
        if self.rules.scoring == "first_out":
            return vectors[..., 0]
        n = self.n
        return (vectors[..., 1:].sum(axis=-1) - vectors[..., 0] * (n - 1)) / (n - 1)

    def everyone(self, entries: np.ndarray, totals: np.ndarray) -> np.ndarray:
        """The own values of the players whose ``entries`` (rest points or chances) are given, in
        vectors summing to ``totals`` (Fives: ``(total - n R_i) / (n - 1)``)."""
        if self.rules.scoring == "first_out":
            return entries
        n = self.n
        return (totals - entries * n) / (n - 1)

    def following(self, batch: _Batch) -> np.ndarray:
        return self.values[(batch.seat + 1) % self.n]

    def end_vectors(self, batch: _Batch, board: int) -> np.ndarray:
        """``m x n``: the turn ending on the unfinished board of index ``board``, mover first."""
        return np.roll(self.following(batch)[batch.after + board], 1, axis=1)

    def evaluate(self, form: _Form, batch: _Batch, policy: str) -> np.ndarray:
        """``m x n``: a form's value at every position of a batch."""
        m = len(batch.flats)
        total = np.full((m, self.n), self.zero, dtype=self.dtype)
        if len(form.ends):
            ends = self.following(batch)[batch.after[:, None] + form.ends[None, :]]
            total = total + np.roll((ends * form.end_coef[None, :, None]).sum(axis=1), 1, axis=1)
        if len(form.fresh):
            again = self.values[batch.seat][form.fresh[None, :] * self.B ** (self.n - 1) + batch.again[:, None]]
            total = total + (again * form.fresh_coef[None, :, None]).sum(axis=1)
        if form.done:
            total = total + form.done * batch.done
        for node, c in form.nodes:
            total = total + c * self.node(node, batch, policy)
        return total

    def node(self, key: tuple[BoardTuple, int, int | None], batch: _Batch, policy: str) -> np.ndarray:
        """``m x n``: a later choice throw of the turn (PEGS-7) on ``key = (board, dice, throws)``."""
        found = batch.nodes.get(key)
        if found is not None:
            return found
        board, dice, throws = key
        here = self.end_vectors(batch, self.index[board])
        total = here * self.zero
        for p, _, options in self.choices(policy, board, dice, throws):
            if not options:
                total = total + p * here
                continue
            vectors = np.stack([stay * here + self.evaluate(form, batch, policy) for _, stay, form in options])
            if len(options) == 1:
                total = total + p * vectors[0]
                continue
            mine = self.own(vectors)
            chosen = self.pick(mine, vectors, policy == "race")
            total = total + p * vectors[chosen, np.arange(len(chosen))]
        batch.nodes[key] = total
        return total

    def pick(self, mine: np.ndarray, vectors: np.ndarray | None, count: bool) -> np.ndarray:
        """The chosen option at every position (``mine``: options x positions, the mover's own
        values): the lowest row within the tie of the best; counted in :attr:`ties` with
        ``count`` (``vectors``: options x positions x players)."""
        best = mine.max(axis=0)
        floor = best if self.exact else best - TIE * (1 + np.abs(best))
        tied = mine >= floor
        chosen = np.argmax(tied, axis=0)
        if count and vectors is not None and len(mine) >= 2:
            several = tied.sum(axis=0) >= 2
            self.ties.choices += mine.shape[1]
            self.ties.ties += int(several.sum())
            if several.any():
                among = tied[:, several, None]
                theirs = self.everyone(vectors[:, several, 1:], vectors[:, several].sum(axis=-1)[..., None])
                top = np.where(among, theirs, -np.inf).max(axis=0)
                bottom = np.where(among, theirs, np.inf).min(axis=0)
                tolerance = 0 if self.exact else TIE * (1 + np.abs(top))
                self.ties.deciding += int((top - bottom > tolerance).any(axis=-1).sum())
        return chosen

    # -- one level of progress -------------------------------------------------------------------

    def batches(self, flats: np.ndarray, seat: int) -> list[_Batch]:
        n, B = self.n, self.B
        tail = B ** (n - 1)
        found = []
        movers = flats // tail
        for mover in np.unique(movers):
            chosen = flats[movers == mover]
            rest = chosen % tail
            others = np.stack([(rest // B ** (n - 2 - j)) % B for j in range(n - 1)], axis=1)
            if self.rules.scoring == "first_out":
                done = np.zeros((len(chosen), n), dtype=self.dtype)
                done[:, 0] = 1
            else:
                done = np.concatenate([np.zeros((len(chosen), 1), dtype=np.int64), self.rest[others]], axis=1)
                done = done.astype(self.dtype)
                if self.exact:
                    done = np.vectorize(Fraction, otypes=[object])(done)
            found.append(_Batch(seat, int(mover), chosen, others, rest * B, rest, done))
        return found

    def solve_level(self, flats: np.ndarray) -> None:
        """Solve every position whose boards have one total of progress (each seat to move)."""
        n = self.n
        rules = self.rules
        seats = [0] if self.uniform else list(range(n))
        batches = [batch for seat in seats for batch in self.batches(flats, seat)]
        starts: list[list[tuple[Amount, np.ndarray, np.ndarray, np.ndarray]]] = []
        for batch in batches:
            policy = self.policies[batch.seat]
            groups = []
            for p, _, options in self.choices(policy, self.boards[batch.mover], rules.dice, rules.throws):
                if not options:
                    groups.append((p, np.zeros(0, dtype=self.dtype), np.zeros(0), np.zeros(0)))
                    continue
                rests = np.stack([self.evaluate(form, batch, policy) for _, _, form in options])
                stays = np.array([stay for _, stay, _ in options], dtype=self.dtype)
                groups.append((p, stays, rests, self.own(rests)))
            starts.append(groups)
        offset = 0
        for batch in batches:                   # where each position is in the level
            self.where[batch.seat][batch.flats] = np.arange(offset, offset + len(batch.flats))
            offset += len(batch.flats)
        size = offset
        nxt = np.concatenate([self.where[0 if self.uniform else (batch.seat + 1) % n][batch.after + batch.mover]
                              for batch in batches])
        X = np.full(size, self.zero, dtype=self.dtype)
        chosen: list | None = None
        for step in range(1, MAX_NEWTON_STEPS + 2):
            if step > MAX_NEWTON_STEPS:
                raise RuntimeError(f"the race at a table did not converge in {MAX_NEWTON_STEPS} Newton steps on "
                                   f"rows {list(self.rows)}")
            s = np.full(size, self.zero, dtype=self.dtype)
            r = np.full((size, n), self.zero, dtype=self.dtype)
            improved = []
            offset = 0
            for batch, groups in zip(batches, starts):
                m = len(batch.flats)
                part = slice(offset, offset + m)
                picks: list[np.ndarray | None] = []
                for p, stays, rests, mine in groups:
                    if not len(stays):
                        s[part] = s[part] + p
                        picks.append(None)
                        continue
                    pick = self.pick(stays[:, None] * X[part][None, :] + mine, None, False)
                    picks.append(pick)
                    s[part] = s[part] + p * stays[pick]
                    r[part] = r[part] + p * rests[pick, np.arange(m)]
                improved.append(picks)
                offset += m
            if chosen is not None and all(_same(a, b) for a, b in zip(chosen, improved)):
                break
            chosen = improved
            V = self.cycle(s, r, nxt)
            X = self.own(np.roll(V[nxt], 1, axis=1))
        self.steps += step - 1
        self.most_steps = max(self.most_steps, step - 1)
        offset = 0
        after = np.roll(V[nxt], 1, axis=1)
        for batch, groups in zip(batches, starts):
            m = len(batch.flats)
            self.values[batch.seat][batch.flats] = V[offset:offset + m]
            if self.policies[batch.seat] == "race":
                W = after[offset:offset + m]
                for _, stays, rests, _ in groups:
                    if len(stays) >= 2:
                        vectors = stays[:, None, None] * W[None, :, :] + rests
                        self.pick(self.own(vectors), vectors, True)
            offset += m

    def cycle(self, s: np.ndarray, r: np.ndarray, nxt: np.ndarray) -> np.ndarray:
        """Every position's vector with the choices fixed: ``V = s rot(V[nxt]) + r`` solved round
        each cycle of rotations (module docstring)."""
        acc = r.copy()
        mult = s.copy()
        q = nxt
        for k in range(1, self.n):
            acc = acc + mult[:, None] * np.roll(r[q], k, axis=1)
            mult = mult * s[q]
            q = nxt[q]
        if (mult == 1).any():
            raise RuntimeError("no mover of a cycle ever leaves his board: the race never ends")
        return acc / (1 - mult)[:, None]


def _same(a: list, b: list) -> bool:
    """Whether two lists of choices (arrays, or None for no legal row) are equal."""
    return all((x is None and y is None) or (x is not None and y is not None and np.array_equal(x, y))
               for x, y in zip(a, b))


def solve_race_table(rules: Rules, open_rows: Sequence[int], *, players: int = 3,
                     policies: Sequence[str] | None = None, exact: bool = False) -> RaceTableSolution:
    """Solve the race of ``players`` at a table on a reduced board, exactly.

    Args:
        rules: :data:`~.rules.PEGS` or :data:`~.rules.FIVES` (or a variant).
        open_rows: the rows open on every board (at most :data:`TABLE_MAX_TUPLES` tuples of
            unfinished boards, :data:`EXACT_MAX_TUPLES` in Fractions).
        players: 2..:data:`~.limits.TABLE_MAX_PLAYERS`.
        policies: each seat's policy, seat 0 first (:data:`.race_solver.POLICIES`); default
            every seat ``"race"``.
        exact: Fractions (True) or float64 (False).

    Returns:
        A :class:`RaceTableSolution`: every position's vector, for every seat to move.

    Raises:
        InvalidBoardError: bad rows. RaceTooLargeError: too many tuples of boards.
        DicemathError: bad players or policies.
        RuntimeError: a level that does not converge (not seen on the rules of the project).

    Example:
        Fives on the 1s alone: the objectives add up to zero, and the first seat's is the best.

        >>> from dicemath.games.pegs_fives.rules import FIVES
        >>> s = solve_race_table(FIVES, [1], exact=True)
        >>> u = s.start_objectives
        >>> sum(u) == 0 and u[0] == max(u)
        True
    """
    rows = check_table(rules, open_rows, players, exact)
    policies = check_policies(("race",) * players if policies is None else policies, players)
    solver = _TableSolver(rules, rows, players, policies, exact)
    progress = np.array([sum(b) for b in solver.boards], dtype=np.int64)
    total = np.zeros(1, dtype=np.int64)
    for _ in range(players):
        total = (total[:, None] + progress[None, :]).ravel()
    for level in sorted(set(total.tolist()), reverse=True):
        solver.solve_level(np.nonzero(total == level)[0])
    return RaceTableSolution(rules, rows, players, policies, exact, solver.boards, solver.values, solver.ties,
                             solver.steps, solver.most_steps)


def race_table_result(rules: Rules, open_rows: Sequence[int], *, players: int = 3,
                      policies: Sequence[str] | None = None, exact: bool = False) -> dict:
    """The JSON object of ``dicemath pegs race --players 3`` / ``dicemath fives race --players 3``.

    Keys: ``game``, ``players``, ``policies`` (seat 0 first), ``open_rows``, ``value_text``,
    Pegs ``win_probabilities`` (each seat's chance to finish first from the empty boards, seat 0
    to move), Fives ``expected_rest_points`` and ``objectives`` (:func:`objectives`), each with
    ``..._exact`` fractions (``"a/b"``) when ``exact``; ``exact`` (True: an exact solution),
    ``arithmetic`` (``"fraction"`` or ``"float64"``), ``solver`` (``"reference"``), ``tuples``
    (tuples of unfinished boards), ``tie_decisions`` (:meth:`TieDecisions.as_json`),
    ``newton_steps`` (``total`` over the levels of progress, ``most_on_a_level``).

    Raises:
        As :func:`solve_race_table`.

    Example:
        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> r = race_table_result(PEGS, [12])
        >>> r["players"], r["policies"], round(sum(r["win_probabilities"]), 12)
        (3, ['race', 'race', 'race'], 1.0)
    """
    solution = solve_race_table(rules, open_rows, players=players, policies=policies, exact=exact)
    pegs = rules.scoring == "first_out"
    result: dict = {
        "game": rules.name, "players": players, "policies": list(solution.policies),
        "open_rows": list(solution.open_rows),
        "value_text": ("each seat's probability of finishing first (PEGS-2), from the empty boards, seat 0 to move"
                       if pegs else
                       "each seat's expected rest points at the end of the round (FIVES-6) and objective (the "
                       "others' mean rest points minus his own), from the empty boards, seat 0 to move")}
    values = solution.start_values
    named = {"win_probabilities": values} if pegs else {"expected_rest_points": values,
                                                        "objectives": solution.start_objectives}
    for key, numbers in named.items():
        result[key] = [float(v) for v in numbers]
        if exact:
            result[f"{key}_exact"] = [str(Fraction(v)) for v in numbers]
    result.update({"exact": True, "arithmetic": "fraction" if exact else "float64", "solver": "reference",
                   "tuples": len(solution.boards) ** players, "tie_decisions": solution.tie_decisions.as_json(),
                   "newton_steps": {"total": solution.newton_steps, "most_on_a_level": solution.most_newton_steps}})
    return result
