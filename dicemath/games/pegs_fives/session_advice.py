"""Session advice, Fives: every legal row valued by the mover's probability of winning the
session (FIVES-7: rest points add up over the rounds, the lowest total after the last round
wins, a tie for the lowest shared, each of ``k`` tied players counting ``1/k``; the start
player moves one seat on each round).

Two sources, tried in order (:func:`session_advice`):

* ``"exact session"`` (``exact: True``), two players: this round is the exact race on the
  boards reachable from the pair (:func:`.race_solver.solve_race_compiled` with the session as
  its terminal payoff, :func:`.session.round_payoffs`; the limits of race advice's exact race:
  the open rows of both boards together at most ``exact_max_rows``, at most
  :data:`~.race_solver.RACE_MAX_PAIRS` pairs), and the rounds after it are exact too: none
  left, or rounds started fresh on at most :data:`~.limits.RACE_MAX_ROWS` numbers
  (``session_rows``, :class:`.session.SessionSolver`) whose races fit
  :data:`~.session.ON_DEMAND_PAIR_ROUNDS`).
* ``"session model"`` (``exact: False``), any table of 2 to 6 players, the approximation:

  1. **This round** by race advice's turn-count model (:mod:`.race_advice`): every player's
     remaining turns follow the fitted discrete Weibull law of his board's expected turns
     (:func:`.race_advice.fitted_law`), the players independent and playing solo-optimally
     thereafter, a player's rest points after ``n`` more turns the law's expected rest
     points given that he has not finished. The round ends with the first player, in seat
     order, whose turns run out; that fixes every player's rest points (FIVES-6). Two
     players whose race is exact keep the exact race here and take the model for the
     rounds after.
  2. **The later rounds** as a sum of independent rounds: in each, every player's rest
     points have the mean ``m`` and variance ``v`` of the same turn-count model on a fresh
     board (``session_rows``), a player's seat averaged over the table; the ``r`` rounds
     after this one add a normal ``N(r m, r v)`` to each total, the players independent.
  3. **The session**: the chance that the mover's final total is the lowest, by Gauss-Hermite
     quadrature over the normal totals (with no round after this one: the totals compared,
     a tie shared), summed over how this round ends.

  The normal sum is chosen because a total over rounds is a sum of independent rounds, cheap
  and smooth in the lead at every table size; it ignores the start player's edge in later
  rounds and that exactly one player scores 0 in each.

Example:
    Two players, the last round, the mover trailing by 10 with the opponent one mark from the
    end (12 rest points): he wins only by completing first; the values are his chances.

    >>> from dicemath.games.pegs_fives.rules import FIVES
    >>> a = session_advice(FIVES, [5] * 10 + [3, 3], (6, 6, 6, 5, 5, 1), [[5] * 11 + [4]], [60, 50], 1)
    >>> a.extras["objective"], a.exact, a.best.action
    ('session', True, 12)
    >>> 0 < a.best.value < 1
    True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from pathlib import Path

import numpy as np
from scipy.special import ndtr

from dicemath.core.advice import Advice, Option
from dicemath.core.errors import DicemathError
from dicemath.games.pegs_fives.fullboard.advice import board_advisor
from dicemath.games.pegs_fives.limits import RACE_MAX_ROWS, TABLE_MAX_PLAYERS
from dicemath.games.pegs_fives.race_advice import (
    EXACT_ON_DEMAND_ROWS, Opponents, RacePosition, TurnLaw, fitted_law, race_position, solo_chain)
from dicemath.games.pegs_fives.race_box import RaceBox
from dicemath.games.pegs_fives.race_solver import (
    BOX_MAX_BOARDS, BOX_MAX_ROWS, RACE_MAX_PAIRS, RaceTables, _RaceTurn, solve_race_compiled)
from dicemath.games.pegs_fives.rules import Rules
from dicemath.games.pegs_fives.session import (
    ON_DEMAND_PAIR_ROUNDS, Later, SessionSolver, check_rounds, check_start, final_win, round_payoffs)
from dicemath.games.pegs_fives.state import BoardTuple, State, check_open_rows, rest_points
from dicemath.games.pegs_fives.turn import open_rows_of

QUADRATURE = np.polynomial.hermite.hermgauss(48)
"""Gauss-Hermite nodes and weights of the session model's normal totals."""

NEGLIGIBLE = 1e-14
"""The chance below which the session model stops following a round's turns."""

REST_SPREAD = 0.5
"""The session model's spread of a player's rest points when the round ends: their standard
deviation as a share of their expected value given the turns he has played (the turn-count
model gives only the expectation; ``analyses/fives_sessions.py`` measures the model with it)."""

UNIT = "session win probability"
"""The unit of session advice (higher is better)."""


def _check_totals(totals: Sequence[int], players: int) -> tuple[int, ...]:
    values = list(totals)
    if len(values) != players or not all(isinstance(t, (int, np.integer)) and not isinstance(t, bool)
                                         and t >= 0 for t in values):
        raise DicemathError(f"totals are {players} whole numbers >= 0, the mover's first, then the opponents' in "
                            f"their order; got {totals!r}")
    return tuple(int(t) for t in values)


def _check_starter(starter: int, players: int) -> int:
    if isinstance(starter, bool) or not isinstance(starter, (int, np.integer)) or not 0 <= starter < players:
        raise DicemathError(f"starter is the index 0..{players - 1} (the mover 0, then the opponents in their "
                            f"order) of the player who started this round, got {starter!r}")
    return int(starter)


@lru_cache(maxsize=8)
def _solver(rules: Rules, rows: tuple[int, ...], start: str) -> SessionSolver:
    """The exact session of fresh rounds on ``rows`` (kept: its rounds are solved once)."""
    return SessionSolver(rules, rows, start=start)


def _expected_turns(rules: Rules, board: BoardTuple, table: Path | str | None) -> float:
    if not open_rows_of(board, rules.goal):
        return 0.0
    advisor = board_advisor(solo_chain(rules), State(rules, board, rules.dice, rules.throws), table=table)
    return float(advisor.value(board))


def _conditional_rest(law: TurnLaw) -> np.ndarray:
    """``[n]``: the expected rest points after ``n`` more turns of a player not finished yet."""
    return np.divide(law.rest, law.survival, out=np.zeros_like(law.rest), where=law.survival > 1e-300)


@lru_cache(maxsize=16)
def round_law(rules: Rules, rows: tuple[int, ...], players: int, table: str | None = None) -> tuple[float, float]:
    """``(m, v)``: the mean and variance of one player's rest points in a fresh round on
    ``rows`` at a table of ``players`` under the turn-count model (module docstring, point 2),
    his seat averaged over the table.

    Example:
        >>> from dicemath.games.pegs_fives.rules import FIVES
        >>> m, v = round_law(FIVES, (1, 2, 3), 2)
        >>> 0 < m < 30 and v > 0
        True
    """
    goal = rules.goal
    fresh = tuple(0 if r in rows else goal for r in range(1, rules.rows + 1))
    law = fitted_law(rules, _expected_turns(rules, fresh, table), rest_points(fresh, goal))
    S, P, Q = law.survival, law.pmf, _conditional_rest(law)
    S_before = np.concatenate([[1.0], S[:-1]])
    Q_before = np.concatenate([Q[:1], Q[:-1]])
    first, second = np.zeros(players), np.zeros(players)
    for ender in range(players):
        p = P * S ** ender * S_before ** (players - 1 - ender)      # seat `ender` ends the round at his turn t
        for seat in range(players):
            rest = 0.0 if seat == ender else Q if seat < ender else Q_before
            first[seat] += float(np.sum(p * rest))
            second[seat] += float(np.sum(p * rest ** 2))
    m = float(first.mean())
    return m, float(second.mean() - m * m)


def session_chance(differences: np.ndarray, rounds_after: int, law: tuple[float, float],
                   spread: np.ndarray | None = None) -> np.ndarray:
    """The mover's chance to win the session given ``differences[..., j]``, each opponent's
    expected total minus the mover's after this round, with ``rounds_after`` rounds still to
    play (module docstring, points 2 and 3): each player's total adds an independent normal,
    of variance ``rounds_after * v`` (the per-round ``law`` ``(m, v)``) plus ``spread[..., i]``
    squared (this round's rest points still uncertain, the mover first). With no variance left
    the totals are compared (a tie for the lowest shared).

    Example:
        >>> session_chance(np.array([[3.0], [0.0], [-1.0]]), 0, (10.0, 50.0)).tolist()
        [1.0, 0.5, 0.0]
        >>> round(float(session_chance(np.array([0.0]), 1, (10.0, 50.0))), 12)
        0.5
    """
    c = np.asarray(differences, dtype=np.float64)
    if rounds_after == 0 and (spread is None or not np.any(spread)):
        lower = (c < 0).any(axis=-1)
        ties = (c == 0).sum(axis=-1)
        return np.where(lower, 0.0, 1.0 / (1.0 + ties))
    variance = np.full(c.shape[:-1] + (c.shape[-1] + 1,), rounds_after * law[1])
    if spread is not None:
        variance = variance + np.asarray(spread, dtype=np.float64) ** 2
    sd = np.sqrt(np.maximum(variance, 1e-18))
    nodes, weights = QUADRATURE
    mover = sd[..., None, :1] * (np.sqrt(2.0) * nodes)[:, None]       # [..., node, 1]: the mover's normal
    beaten = ndtr((c[..., None, :] - mover) / sd[..., None, 1:])      # [..., node, j]: opponent j stays above
    return (np.prod(beaten, axis=-1) * weights).sum(axis=-1) / np.sqrt(np.pi)


class SessionLeaves:
    """The session model's value of the mover's boards at the end of his turn (module
    docstring): ``end(x)`` (the opponents move next), ``restart(x)`` (a fresh start: he moves
    on), a complete ``x`` ending the round. Opponents' boards and every total fixed.

    Args:
        rules: Fives.
        opponents: the opponents' boards in their order after the mover (incomplete).
        totals: the totals before this round, the mover's first.
        rounds_after: rounds after this one.
        law: the per-round ``(m, v)`` of :func:`round_law`.
        expected_turns: a board's expected turns (solo play).
    """

    def __init__(self, rules: Rules, opponents: Sequence[BoardTuple], totals: Sequence[int], rounds_after: int,
                 law: tuple[float, float], expected_turns: Callable[[BoardTuple], float]) -> None:
        self.rules, self.rounds_after, self.law, self.expected_turns = rules, rounds_after, law, expected_turns
        goal = rules.goal
        self.rest = [float(rest_points(o, goal)) for o in opponents]
        self.laws = [fitted_law(rules, expected_turns(o), r) for o, r in zip(opponents, self.rest)]
        self.gaps = np.array(totals[1:], dtype=np.float64) - totals[0]
        self.memo: dict[tuple[BoardTuple, int], float] = {}

    def _value(self, board: BoardTuple, fresh: int) -> float:
        key = (board, fresh)
        if key in self.memo:
            return self.memo[key]
        goal = self.rules.goal
        if not open_rows_of(board, goal):
            value = float(session_chance(self.gaps + np.array(self.rest), self.rounds_after, self.law))
        else:
            value = self._ongoing(fitted_law(self.rules, self.expected_turns(board), rest_points(board, goal)), fresh)
        self.memo[key] = value
        return value

    def _ongoing(self, mover: TurnLaw, fresh: int) -> float:
        players = [mover, *self.laws]
        alive = np.prod([law.survival for law in players], axis=0)
        horizon = max(2, int(np.argmax(alive < NEGLIGIBLE)) + 1 if (alive < NEGLIGIBLE).any() else len(alive))
        t = np.arange(1, horizon)
        S = np.array([law.survival[:horizon] for law in players])
        P = np.array([law.pmf[:horizon] for law in players])
        Q = np.array([_conditional_rest(law)[:horizon] for law in players])
        order = [0, *range(1, len(players))] if fresh else [*range(1, len(players)), 0]
        probability, rests = [], []
        for place, ender in enumerate(order):              # the player whose turns run out first, at his turn t
            p = P[ender, t].copy()
            rest = np.zeros((len(t), len(players)))
            for other_place, other in enumerate(order):
                if other == ender:
                    continue
                taken = t if other_place < place else t - 1   # turns the other has played by then
                p *= S[other, taken]
                rest[:, other] = Q[other, taken]
            probability.append(p)
            rests.append(rest)
        p_all = np.concatenate(probability)
        r_all = np.concatenate(rests)
        differences = self.gaps + r_all[:, 1:] - r_all[:, :1]
        return float(p_all @ session_chance(differences, self.rounds_after, self.law, REST_SPREAD * r_all))

    def end(self, board: BoardTuple) -> float:
        return self._value(board, 0)

    def restart(self, board: BoardTuple) -> float:
        return self._value(board, 1)


def _exact_boxes(position: RacePosition, max_rows: int) -> tuple[RaceBox, RaceBox] | None:
    """The boards reachable from the mover's and the one opponent's board when their race is
    solved exactly (race advice's limits), else None."""
    rows = position.rows
    if len(position.opponents) != 1 or not 0 < len(rows) <= min(max_rows, BOX_MAX_ROWS):
        return None
    mine = RaceBox.of_board(position.rules, rows, position.board)
    theirs = RaceBox.of_board(position.rules, rows, position.opponents[0])
    fits = mine.size * theirs.size <= RACE_MAX_PAIRS and max(mine.size, theirs.size) <= BOX_MAX_BOARDS
    return (mine, theirs) if fits else None


Leaf = Callable[[BoardTuple], float]
"""The mover's session chance of a board at the end of his turn, or at a fresh start."""


def _later(rules: Rules, rounds_left: int, mover_starts_next: bool, later_rows: tuple[int, ...], start: str,
           law: tuple[float, float] | None) -> Later:
    """The rest of the session after this round to the mover, by his lead then: the tie rule
    (no round left), the exact session of fresh rounds on ``later_rows`` (``law`` None), or the
    session model's normal rounds of the per-round ``law``."""
    if rounds_left == 1:
        return final_win
    if law is None:
        return _solver(rules, later_rows, start).after_round(rounds_left, mover_starts_next)
    spread, rounds_after = law, rounds_left - 1
    return lambda after: float(session_chance(np.array([[float(after)]]), rounds_after, spread)[0])


def _later_fits(rules: Rules, boxes: tuple[RaceBox, RaceBox], lead: int, rounds_left: int, mover_starts_next: bool,
                later_rows: tuple[int, ...], start: str) -> bool:
    """Whether the rounds after this one are solved exactly: fresh on at most
    :data:`~.limits.RACE_MAX_ROWS` numbers, their races (from every lead this round can end
    with) times their pairs at most :data:`~.session.ON_DEMAND_PAIR_ROUNDS`."""
    if len(later_rows) > RACE_MAX_ROWS:
        return False
    solver = _solver(rules, later_rows, start)
    goal = rules.goal
    mine, theirs = boxes
    ends = {lead + rest_points(theirs.board(j), goal) for j in range(theirs.size)} | \
        {lead - rest_points(mine.board(i), goal) for i in range(mine.size)}
    leads = ends if mover_starts_next else {-d for d in ends}
    races = solver.races_needed(rounds_left - 1, leads)
    return races * (solver.layout.size - 1) ** 2 <= ON_DEMAND_PAIR_ROUNDS[False]


def _payoff(payoff: Later, rest: int) -> float:
    """A payoff against a board with ``rest`` points; a complete board (none) is nobody's
    opponent in a live pair, its entry unused."""
    return float(payoff(rest)) if rest else 0.0


@lru_cache(maxsize=8)
def _round_race(rules: Rules, boxes: tuple[RaceBox, RaceBox], lead: int, later: tuple) -> tuple[RaceTables, Later]:
    """The exact race of this round on ``boxes`` with the session as its terminal payoff
    (``later``: the arguments of :func:`_later`; kept for the next throws of the same turn),
    and the mover's payoff of completing his board by the rest points left to the opponent."""
    mine, theirs = boxes
    goal = rules.goal
    first, second = round_payoffs(_later(rules, *later), lead)
    payoff = (np.array([_payoff(first, rest_points(theirs.board(j), goal)) for j in range(theirs.size)]),
              np.array([_payoff(second, rest_points(mine.board(i), goal)) for i in range(mine.size)]))
    race = solve_race_compiled(rules, mine.rows, floors=mine.floors, second_floors=theirs.floors, decisions=False,
                               payoff=payoff)
    return race, first


def _exact_round(rules: Rules, opponent: BoardTuple, boxes: tuple[RaceBox, RaceBox], lead: int,
                 later: tuple) -> tuple[Rules, Leaf, Leaf]:
    """The exact race of this round (:func:`_round_race`): its rules (scoring probabilities)
    and the mover's leaves, a turn's end and a fresh start."""
    race, first = _round_race(rules, boxes, lead, later)
    goal = rules.goal
    own, other = race.layouts
    o = other.index(opponent)
    win = float(first(rest_points(opponent, goal)))

    def end(x: BoardTuple) -> float:
        return win if not open_rows_of(x, goal) else 1.0 - float(race.V2[o, own.index(x)])

    def restart(x: BoardTuple) -> float:
        return win if not open_rows_of(x, goal) else float(race.V1[own.index(x), o])

    return race.rules, end, restart


def session_advice(rules: Rules, board: Sequence[int], throw: Sequence[int], opponents: Opponents,
                   totals: Sequence[int], rounds_left: int, *, starter: int = 0, dice: int | None = None,
                   throws: int | None = None, table: Path | str | None = None,
                   session_rows: Sequence[int] | None = None, start: str = "rotating",
                   exact_max_rows: int = EXACT_ON_DEMAND_ROWS) -> Advice:
    """Every legal row after a choice throw, valued by the mover's chance to win the session.

    Args:
        rules: Fives (or a variant scoring rest points).
        board: the mover's board (FIVES-1).
        throw: the choice throw.
        opponents: the other players' boards in the order they move after the mover (1 to 5).
        totals: the running totals before this round, the mover's first, then the opponents'
            in that order.
        rounds_left: rounds still to play, this one included (>= 1).
        starter: the index, in that mover-first order, of the player who started this round;
            the next round is started by the next seat (FIVES-7), or by him with
            ``start="fixed"``.
        dice: dice in hand before the throw (default all six, as every Fives choice throw is,
            FIVES-2/4/5).
        throws: throws left (Fives: None, no limit).
        table: a table directory for the solo values (race advice's :func:`.race_advice.solo_chain`).
        session_rows: the numbers every later round starts fresh on (default all twelve).
        start: ``"rotating"`` or ``"fixed"`` (:data:`~.limits.SESSION_STARTS`).
        exact_max_rows: as race advice's: the most open rows (both boards together) of an exact
            race solved now (0: never).

    Returns:
        The :class:`~dicemath.core.advice.Advice` (unit :data:`UNIT`; source ``"exact session"``
        or ``"session model"``): per option, best first, ``row``, ``hits``, ``session_value``.
        Extras: ``objective`` (``"session"``), ``value`` (in words), ``method``
        (``"exact_session"`` or ``"session_model"``), ``approximation`` (None when exact),
        ``session_value_now`` (at the start of this turn), ``session_value_turn_ends`` (if the
        turn ends on the board as it is: no legal row, or no hit later), ``board``, ``roll``, ``opponents``,
        ``totals``, ``rounds_left``, ``starter``, ``next_starter``, ``start``,
        ``session_rows``, ``round_law`` (the model's per-round mean and standard deviation of a
        player's rest points, None when not used), ``race_pairs`` (the exact race's pairs, or
        None), ``session_best``.

    Raises:
        InvalidBoardError, InvalidRollError, IllegalMoveError, OpponentError: a bad board,
            throw, budget or opponent (as race advice).
        DicemathError: rules without rest points, more than :data:`~.limits.TABLE_MAX_PLAYERS` players, bad
            totals, rounds, starter or start.
    """
    position = race_position(rules, board, throw, opponents, dice=dice, throws=throws, objective="rest_points")
    players = 1 + len(position.opponents)
    if players > TABLE_MAX_PLAYERS:
        raise DicemathError(f"session advice takes 2 to {TABLE_MAX_PLAYERS} players, got {players}")
    totals = _check_totals(totals, players)
    rounds_left = check_rounds(rounds_left)
    starter = _check_starter(starter, players)
    start = check_start(start)
    later_rows = check_open_rows(range(1, rules.rows + 1) if session_rows is None else session_rows, rules)
    next_starter = (starter + 1) % players if start == "rotating" else starter
    b = position.board
    boxes = _exact_boxes(position, exact_max_rows) if players == 2 else None
    later_exact = rounds_left == 1 or (boxes is not None and _later_fits(rules, boxes, totals[1] - totals[0],
                                                                         rounds_left, next_starter == 0,
                                                                         later_rows, start))
    law = None if rounds_left == 1 or (boxes is not None and later_exact) else \
        round_law(rules, later_rows, players, None if table is None else str(table))
    end: Leaf
    restart: Leaf
    turn_rules = rules
    if boxes is not None:
        later = (rounds_left, next_starter == 0, later_rows, start, law)
        turn_rules, end, restart = _exact_round(rules, position.opponents[0], boxes, totals[1] - totals[0], later)
    else:
        assert law is not None or rounds_left == 1
        leaves = SessionLeaves(rules, position.opponents, totals, rounds_left - 1, law or (0.0, 0.0),
                               lambda x: _expected_turns(rules, x, table))
        end, restart = leaves.end, leaves.restart
    exact = boxes is not None and later_exact
    model = _RaceTurn(turn_rules, end, restart, exact=False)
    return _answer(position, model, end(b), restart(b), exact, boxes, law, totals, rounds_left, starter,
                   next_starter, start, later_rows)


def _answer(position: RacePosition, model: _RaceTurn, here: float, now: float, exact: bool,
            boxes: tuple[RaceBox, RaceBox] | None, law: tuple[float, float] | None, totals: tuple[int, ...],
            rounds_left: int, starter: int, next_starter: int, start: str, later_rows: tuple[int, ...]) -> Advice:
    """The advice from a within-turn ``model`` whose leaves are session win probabilities
    (``here``: a turn ending on the board itself; ``now``: the value at the turn's start)."""
    b, dice, throws = position.board, position.dice, position.throws
    after = None if throws is None else throws - 1
    options = []
    for row, hits in position.legal:
        stay, rest = model.race_option(b, row, hits, dice, after)
        options.append((float(stay * here + rest), row, hits))
    ranking = sorted(options, key=lambda o: (-o[0], -o[2], -o[1]))
    return Advice(
        game=position.rules.name, state=position.text, unit=UNIT, higher_is_better=True, exact=exact,
        source="exact session" if exact else "session model",
        options=tuple(Option(row, str(row), value, {"row": row, "hits": hits, "session_value": value})
                      for value, row, hits in ranking),
        extras={
            "objective": "session",
            "value": "the mover's probability of winning the session (FIVES-7: the lowest total after the last "
                     "round wins, a tie shared), every player playing on as the method says",
            "method": "exact_session" if exact else "session_model",
            "approximation": None if exact else (
                ("this round the exact race against the opponent's board; " if boxes is not None else
                 "this round the turn-count model (fitted Weibull laws of each player's remaining turns, players "
                 "independent and solo-optimal, rest points expected given unfinished); ")
                + ("no later round" if law is None else
                   "each later round adds an independent normal to every total, the mean and variance of a "
                   "player's rest points in a fresh round under the same model")),
            "session_value_now": float(now), "session_value_turn_ends": float(here),
            "board": list(b), "roll": sorted(position.roll), "opponents": [list(o) for o in position.opponents],
            "totals": list(totals), "rounds_left": rounds_left, "starter": starter, "next_starter": next_starter,
            "start": start, "session_rows": list(later_rows),
            "round_law": None if law is None else {"mean": law[0], "sd": float(np.sqrt(law[1]))},
            "race_pairs": None if boxes is None else boxes[0].size * boxes[1].size,
            "session_best": ranking[0][1] if ranking else None,
        })
