"""Cubeless evaluation of any Backgammon position from the best source available (BG-1..BG-7).

:func:`evaluate` gives the five cubeless outcome probabilities of the player on roll (win,
win gammon, win backgammon, lose gammon, lose backgammon; gammons include backgammons) and
says where they come from:

* ``exact``: the game is over, or both sides are bearing off (every checker home, BG-6)
  with at most :data:`~.limits.EXACT_CHECKERS` checkers each: the exact two-sided bear-off table of
  :mod:`.bearoff` (both sides have borne off checkers, so there are no gammons).
* ``race``: both sides bearing off, more checkers: the one-sided approximation of
  :mod:`.race` (independent bear-offs), with the gammon chances of a side that has borne
  off nothing from the one-sided "first checker off" distributions. No backgammons are
  possible (the loser's checkers are all in his own home board).
* ``gnubg-Nply``: everything else, from GNU Backgammon's neural nets (optional package,
  see :mod:`.gnubg_engine`) with an N-ply look-ahead. Under the standard rules gnubg looks
  ahead itself. Under ``playtive`` (BG-4: at most 5 own checkers on a point), which gnubg
  does not know, dicemath looks ahead with the plays BG-4 allows: for each of the 21 rolls
  the play best at 0 ply, that position evaluated at N-1 ply, averaged (the method of
  gnubg's ``EvaluatePositionFull``); a 0-ply evaluation is the nets' static estimate,
  which assumes standard play afterwards.

Exact-table values are float64 sums of exact dynamic programs; race values float64; gnubg
values carry gnubg's float32 precision (about 1e-7). All are estimates except ``exact``.

Example:
    >>> from dicemath.games.backgammon.position import Position
    >>> from dicemath.games.backgammon.rules import STANDARD
    >>> result = evaluate(STANDARD, Position.from_home_boards((0, 0, 0, 1, 0, 0), (0, 1, 0, 0, 0, 0)))
    >>> result.source, round(result.win, 6)  # he misses only with 2-1 (2 rolls of 36)
    ('exact', 0.944444)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import chain
from typing import cast

import numpy as np

from dicemath.core.dice import two_dice_rolls
from dicemath.core.errors import InvalidStateError
from dicemath.games.backgammon import bearoff as bo
from dicemath.games.backgammon import gnubg_engine
from dicemath.games.backgammon.moves import roll_results
from dicemath.games.backgammon.position import CHECKERS, Position, game_result
from dicemath.games.backgammon.limits import EXACT_CHECKERS
from dicemath.games.backgammon.rules import Rules


KINDS = ("exact", "race", "gnubg")
"""The kinds of source; the label of a gnubg evaluation adds its ply (``gnubg-2ply``)."""

OUTPUTS = ("win", "win_gammon", "win_backgammon", "lose_gammon", "lose_backgammon")
"""The five probabilities, in gnubg's order (columns of :func:`evaluate_many`)."""


def source_label(kind: str, ply: int) -> str:
    """``"exact"``, ``"race"`` or ``"gnubg-{ply}ply"``."""
    return f"gnubg-{ply}ply" if kind == "gnubg" else kind


@dataclass(frozen=True)
class Evaluation:
    """Cubeless probabilities of the player on roll and where they come from.

    Attributes:
        win, win_gammon, win_backgammon, lose_gammon, lose_backgammon: probabilities
            (gammons include backgammons).
        source: ``exact``, ``race`` or ``gnubg-Nply``.
        ply: the look-ahead (0 for the tables).
    """

    win: float
    win_gammon: float
    win_backgammon: float
    lose_gammon: float
    lose_backgammon: float
    source: str
    ply: int = 0

    @property
    def equity(self) -> float:
        """Cubeless money equity (BG-7 points per unit stake) of the player on roll."""
        return cast(float, cubeless_equity(np.array(self.probabilities()))[()])   # a numpy float64

    def probabilities(self) -> tuple[float, float, float, float, float]:
        """The five probabilities in :data:`OUTPUTS` order."""
        return self.win, self.win_gammon, self.win_backgammon, self.lose_gammon, self.lose_backgammon

    def as_dict(self) -> dict[str, float | str]:
        """JSON-ready: the five probabilities, ``equity``, ``source``, ``ply``."""
        result: dict[str, float | str] = dict(zip(OUTPUTS, self.probabilities()))
        result.update(equity=self.equity, source=self.source, ply=self.ply)
        return result


def cubeless_equity(probabilities: np.ndarray) -> np.ndarray:
    """Money equity ``2 win - 1 + wg - lg + wbg - lbg`` of rows of :data:`OUTPUTS` columns."""
    p = np.asarray(probabilities, dtype=float)
    return 2 * p[..., 0] - 1 + p[..., 1] - p[..., 3] + p[..., 2] - p[..., 4]


def flip(probabilities: np.ndarray) -> np.ndarray:
    """The same probabilities seen by the other player (rows of :data:`OUTPUTS` columns)."""
    p = np.asarray(probabilities, dtype=float)
    return np.stack([1 - p[..., 0], p[..., 3], p[..., 4], p[..., 1], p[..., 2]], axis=-1)


def check_ply(ply) -> int:
    """Validate a look-ahead depth.

    Raises:
        InvalidStateError: not an integer 0..:data:`~.gnubg_engine.MAX_PLY`.
    """
    if isinstance(ply, bool) or not isinstance(ply, (int, np.integer)) or not 0 <= ply <= gnubg_engine.MAX_PLY:
        raise InvalidStateError(f"ply must be an integer 0..{gnubg_engine.MAX_PLY}, got {ply!r}")
    return int(ply)


def classify(on_roll: np.ndarray, opponent: np.ndarray) -> np.ndarray:
    """The source kind each row needs: 0 exact, 1 race, 2 gnubg (rows of 25 counts)."""
    on_roll = np.atleast_2d(on_roll)
    opponent = np.atleast_2d(opponent)
    home = (on_roll[:, 6:].sum(axis=1) == 0) & (opponent[:, 6:].sum(axis=1) == 0)
    mine, theirs = on_roll.sum(axis=1), opponent.sum(axis=1)
    over = (mine == 0) | (theirs == 0)
    small = np.maximum(mine, theirs) <= EXACT_CHECKERS
    return np.where(over | (home & small), 0, np.where(home, 1, 2))


@lru_cache(maxsize=4)
def _two_sided(rules: Rules) -> np.ndarray:
    return bo.two_sided_table(rules, EXACT_CHECKERS)


def _over(on_roll: np.ndarray, opponent: np.ndarray) -> np.ndarray:
    """BG-7 outcome of finished games (a side with no checkers) as probability rows."""
    out = np.zeros((len(on_roll), 5))
    for row, (mine, theirs) in enumerate(zip(on_roll.tolist(), opponent.tolist())):
        result = game_result(Position(mine, theirs))
        if result is None:
            raise InvalidStateError(f"{Position(mine, theirs).position_id()} is not a finished game")
        won = result.winner == 0
        out[row] = [won, won and result.points >= 2, won and result.points == 3,
                    not won and result.points >= 2, not won and result.points == 3]
    return out


def _exact(on_roll: np.ndarray, opponent: np.ndarray, rules: Rules) -> np.ndarray:
    out = np.zeros((len(on_roll), 5))
    over = (on_roll.sum(axis=1) == 0) | (opponent.sum(axis=1) == 0)
    if over.any():
        out[over] = _over(on_roll[over], opponent[over])
    rest = ~over
    if rest.any():
        table = _two_sided(rules)
        x = bo.indices_of(on_roll[rest, :6])
        y = bo.indices_of(opponent[rest, :6])
        out[rest, 0] = table[x, y]
    return out


def _race(on_roll: np.ndarray, opponent: np.ndarray, rules: Rules) -> np.ndarray:
    """One-sided approximation of bear-offs, with gammons (see the module docstring).

    The player on roll ("x") rolls first: he wins if his rolls to finish ``N_x <= N_y``; he
    wins a gammon if ``N_x <= G_y`` (``G_y``: the opponent's rolls to take a first checker
    off, when he has all 15 left), and loses one if ``N_y < G_x``.
    """
    table = bo.one_sided_table(rules)
    x = bo.indices_of(on_roll[:, :6])
    y = bo.indices_of(opponent[:, :6])
    dist_x, dist_y = table.distribution[x], table.distribution[y]
    survival_y = np.cumsum(dist_y[:, ::-1], axis=1)[:, ::-1]             # P(N_y >= n)
    out = np.zeros((len(on_roll), 5))
    out[:, 0] = np.einsum("ij,ij->i", dist_x, survival_y)
    gammon_y = np.cumsum(table.gammon_distribution[y][:, ::-1], axis=1)[:, ::-1]  # P(G_y >= n)
    gammon_x = np.cumsum(table.gammon_distribution[x][:, ::-1], axis=1)[:, ::-1]
    fifteen_y = opponent.sum(axis=1) == CHECKERS
    fifteen_x = on_roll.sum(axis=1) == CHECKERS
    out[:, 1] = np.where(fifteen_y, np.einsum("ij,ij->i", dist_x, gammon_y), 0.0)
    # P(G_x > n) = P(G_x >= n + 1)
    later_x = np.concatenate([gammon_x[:, 1:], np.zeros((len(x), 1))], axis=1)
    out[:, 3] = np.where(fifteen_x, np.einsum("ij,ij->i", dist_y, later_x), 0.0)
    return out


def _gnubg_rows(on_roll: np.ndarray, opponent: np.ndarray, rules: Rules, ply: int) -> np.ndarray:
    if ply > 0 and rules.max_per_point is not None:
        return np.array([_look_ahead(a, b, rules, ply) for a, b in zip(on_roll, opponent)])
    evaluate, cube, context = gnubg_engine.evaluator(ply)
    values = chain.from_iterable(evaluate((b, a), cube, context) for a, b in zip(on_roll.tolist(), opponent.tolist()))
    return np.fromiter(values, dtype=float, count=6 * len(on_roll)).reshape(-1, 6)[:, :5]


def evaluate_many(rules: Rules, on_roll, opponent, ply: int = 0,
                  kinds: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Cubeless probabilities of many positions (float64), each from its best source.

    Args:
        rules: STANDARD or PLAYTIVE.
        on_roll: ``(k, 25)`` counts of the players on roll (points 1..24, bar).
        opponent: ``(k, 25)`` counts of their opponents, in their own numbering.
        ply: look-ahead of the gnubg positions (0..3).
        kinds: the source kind per row (0 exact, 1 race, 2 gnubg; default
            :func:`classify`); 2 forces gnubg's nets on any row that is not over.

    Returns:
        ``(probabilities (k, 5) in OUTPUTS order, kinds (k,))``.

    Raises:
        GnubgUnavailableError: a row needs gnubg and it is not installed.
    """
    on_roll = np.atleast_2d(np.asarray(on_roll, dtype=np.int64))
    opponent = np.atleast_2d(np.asarray(opponent, dtype=np.int64))
    kinds = classify(on_roll, opponent) if kinds is None else np.asarray(kinds)
    if (kinds == 2).all():
        return _gnubg_rows(on_roll, opponent, rules, ply), kinds
    out = np.empty((len(on_roll), 5))
    for kind, method in ((0, _exact), (1, _race)):
        rows = kinds == kind
        if rows.any():
            out[rows] = method(on_roll[rows], opponent[rows], rules)
    rows = kinds == 2
    if rows.any():
        out[rows] = _gnubg_rows(on_roll[rows], opponent[rows], rules, ply)
    return out, kinds


def _look_ahead(on_roll: np.ndarray, opponent: np.ndarray, rules: Rules, ply: int) -> np.ndarray:
    """``ply``-ply probabilities of one position, plays generated under ``rules`` (see the
    module docstring): per roll, the play best at 0 ply, then that position at ``ply - 1``."""
    total = np.zeros(5)
    for (first, second), weight in two_dice_rolls():
        mines, theirs = roll_results(rules, on_roll, opponent, first, second)
        seen, kinds = evaluate_many(rules, theirs, mines, 0)       # opponent on roll after each play
        best = int(np.argmax(-cubeless_equity(seen)))
        chosen = seen[best]
        if ply > 1 and kinds[best] == 2:
            chosen = evaluate_many(rules, theirs[best:best + 1], mines[best:best + 1], ply - 1)[0][0]
        total += weight * chosen
    return flip(total / 36.0)


def evaluate(rules: Rules, position: Position, ply: int = 0,
             source: str | None = None) -> Evaluation:
    """Cubeless outcome probabilities of the player on roll (see the module docstring).

    Args:
        rules: STANDARD or PLAYTIVE (BG-4).
        position: any position (player on roll to roll).
        ply: look-ahead of a gnubg evaluation, 0..3 (the tables ignore it).
        source: None for the best source, or ``"exact"``, ``"race"``, ``"gnubg"`` to insist
            on one (``"gnubg"`` evaluates a bear-off with the nets too).

    Returns:
        An :class:`Evaluation`.

    Raises:
        InvalidStateError: a bad ply or source, or a source that does not cover the position.
        GnubgUnavailableError: the position needs gnubg and it is not installed.
    """
    ply = check_ply(ply)
    kind = _kind(position)
    if source is not None:
        if source not in KINDS:
            raise InvalidStateError(f"source must be one of {KINDS} or None, got {source!r}")
        wanted = KINDS.index(source)
        if wanted != kind and not (wanted == 2 and not position.is_over()):
            raise InvalidStateError(f"source {source!r} does not cover {position.position_id()}: "
                                    f"its best source is {KINDS[kind]!r}")
        kind = wanted
    if kind == 2 and (ply == 0 or rules.max_per_point is None):     # straight to gnubg, no arrays
        evaluate_board, cube, context = gnubg_engine.evaluator(ply)
        values = evaluate_board((position.opponent, position.on_roll), cube, context)[:5]
    else:
        values = evaluate_many(rules, [position.on_roll], [position.opponent], ply, np.array([kind]))[0][0]
    win, win_gammon, win_backgammon, lose_gammon, lose_backgammon = (float(v) for v in values)
    return Evaluation(win, win_gammon, win_backgammon, lose_gammon, lose_backgammon,
                      source=source_label(KINDS[kind], ply), ply=ply if kind == 2 else 0)


def _kind(position: Position) -> int:
    """:func:`classify` of one position, without arrays."""
    mine, theirs = sum(position.on_roll), sum(position.opponent)
    if mine == 0 or theirs == 0:
        return 0
    if position.is_bear_off():
        return 0 if max(mine, theirs) <= EXACT_CHECKERS else 1
    return 2
