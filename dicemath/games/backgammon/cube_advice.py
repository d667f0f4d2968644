"""Cube advice for any position, money play (BG-7, BG-8: no Jacoby rule, no beavers, cube
values 1, 2, 4, ..., 64).

Three methods, the best that applies:

* ``exact cubeful bear-off``: both sides bearing off with at most :data:`~.limits.EXACT_CUBE_CHECKERS`
  checkers, standard rules: the exact cubeful tables of :mod:`.cubeful_bearoff`, solved
  with the BG-8 cap (a cube of ``v`` owned is the table's cube of 2 with cap ``128 / v``).
* ``Janowski``: 0 ply, elsewhere: the cubeless probabilities of :mod:`.evaluate` turned
  into cubeful equities by Janowski's interpolation (:func:`~.cube.janowski_equity`) with
  GNU Backgammon's cube efficiency for the position's class (:func:`efficiency`). This is
  exactly GNU Backgammon's 0-ply cube evaluation (its ``Cl2CfMoney``).
* ``N-ply cubeful look-ahead``: GNU Backgammon's cubeful evaluation method, done by
  dicemath over its own move generator (so it also follows BG-4 under ``playtive``): for
  each of the 21 rolls the play best by the 0-ply cubeful equity of the mover's cube,
  then the resulting position evaluated at N-1 ply for every cube state needed; below
  the top, each side takes its optimal cube action (double when ``min(double/take,
  double/pass)`` beats no double). The leaves use the exact cubeful tables where they
  apply and Janowski elsewhere. A cube at 64 is dead (BG-8: it cannot be turned again).

Equities are per unit of the current cube value, for the player on roll; float64 (gnubg's
values float32). ``source`` names where the cubeless probabilities at the root come from
(:mod:`.evaluate`).

Example:
    >>> from dicemath.games.backgammon.position import Position
    >>> from dicemath.games.backgammon.rules import STANDARD
    >>> advice = cube_advice(STANDARD, Position.from_home_boards((0, 2, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0)))
    >>> advice["action"], advice["method"]
    ('double/take', 'exact cubeful bear-off')
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from dicemath.core.dice import two_dice_rolls
from dicemath.core.errors import InvalidStateError
from dicemath.games.backgammon.cube import ACTIONS, MAX_CUBE, check_cube, cube_action, janowski_equity, may_double
from dicemath.games.backgammon.cubeful_bearoff import position_equities
from dicemath.games.backgammon.limits import exact_cube_bear_off
from dicemath.games.backgammon.evaluate import (KINDS, OUTPUTS, check_ply, classify, cubeless_equity, evaluate_many,
                                                flip, source_label)
from dicemath.games.backgammon.moves import roll_results
from dicemath.games.backgammon.position import Position
from dicemath.games.backgammon.rules import Rules


CONTACT_EFFICIENCY = 0.68
BEAROFF_EFFICIENCY = 0.6
RACE_EFFICIENCY = (0.55, 0.00125, 0.6, 0.7)
"""GNU Backgammon's cube efficiencies: contact and crashed positions 0.68, one-sided
bear-offs 0.6, races ``0.55 + 0.00125 * pips of the player on roll`` within [0.6, 0.7]."""

_JANOWSKI_NAMES = {"centred": "centred", "on_roll": "owned", "opponent": "opponent_owned"}
_EPSILON = 1e-7


def _may_double(state) -> bool:
    return may_double(*state)


def _doubled(state):
    return 2 * state[0], "opponent"


def _swapped(state):
    return state[0], {"centred": "centred", "on_roll": "opponent", "opponent": "on_roll"}[state[1]]


def efficiency(on_roll: np.ndarray, opponent: np.ndarray) -> np.ndarray:
    """GNU Backgammon's cube efficiency of each position (rows of 25 counts; see
    :data:`RACE_EFFICIENCY`). Contact follows gnubg: the two rearmost checkers (bar = 25)
    of the sides add up to more than 23 of one side's points."""
    on_roll, opponent = np.atleast_2d(on_roll), np.atleast_2d(opponent)
    points = np.arange(25)
    back = np.where(on_roll > 0, points, -1).max(axis=1)
    opponent_back = np.where(opponent > 0, points, -1).max(axis=1)
    contact = back + opponent_back > 22
    home = (back < 6) & (opponent_back < 6)
    base, per_pip, low, high = RACE_EFFICIENCY
    race = np.clip(base + per_pip * (on_roll * (points + 1)).sum(axis=1), low, high)
    return np.where(contact, CONTACT_EFFICIENCY, np.where(home, BEAROFF_EFFICIENCY, race))


def janowski_states(probabilities: np.ndarray, x: np.ndarray, states) -> np.ndarray:
    """Janowski's cubeful no-double equity for each position (rows) and cube state
    (columns), per unit cube; a cube at 64 or a near-certain result is dead (x = 0).

    Args:
        probabilities: ``(k, 5)`` cubeless probabilities (OUTPUTS order) of the player on roll.
        x: ``(k,)`` cube efficiencies.
        states: ``(value, owner)`` cube states.
    """
    p = probabilities[:, 0]
    certain = (p <= _EPSILON) | (p >= 1 - _EPSILON)
    safe_p = np.clip(p, _EPSILON, 1 - _EPSILON)
    average_win = 1 + (probabilities[:, 1] + probabilities[:, 2]) / safe_p
    average_loss = 1 + (probabilities[:, 3] + probabilities[:, 4]) / (1 - safe_p)
    dead = cubeless_equity(probabilities)
    columns = []
    for value, owner in states:
        live_x = np.where(certain | (value >= MAX_CUBE), 0.0, x)
        columns.append(np.where(certain, dead, janowski_equity(safe_p, live_x, _JANOWSKI_NAMES[owner],
                                                                 average_win, average_loss)))
    return np.stack(columns, axis=1)


def _exact_fits(on_roll: np.ndarray, opponent: np.ndarray, rules: Rules) -> bool:
    return exact_cube_bear_off(rules, on_roll.tolist(), opponent.tolist())


@lru_cache(maxsize=100_000)
def _exact_state(board: tuple, versus: tuple, value: int, owner: str) -> tuple[float, float, float | None, str]:
    """(no double, optimal, double/take or None, action) from the exact tables (BG-8 cap)."""
    name = _JANOWSKI_NAMES[owner]
    table = position_equities(board, versus, MAX_CUBE if owner == "centred" else 2 * MAX_CUBE // value)
    double_take = None
    if may_double(value, owner):
        cap = MAX_CUBE // value
        double_take = 2 * position_equities(board, versus, cap)["no_double"]["opponent_owned"]
    return table["no_double"][name], table[name], double_take, table["action"][name]


def _act(no_double: np.ndarray, double_take: np.ndarray) -> np.ndarray:
    """The value of the optimal cube action (:func:`~.cube.cube_decision`)."""
    return cube_action(no_double, double_take)[1]


def _leaf(on_roll, opponent, probabilities, states, rules: Rules, top: bool) -> np.ndarray:
    """Cube state values of positions (rows) at 0 ply, shape (k, len(states)): the
    no-double equities at the top, the values after the optimal cube action below it."""
    wanted = list(states) + [_doubled(s) for s in states if _may_double(s) and not top]
    table = dict(zip(wanted, janowski_states(probabilities, efficiency(on_roll, opponent), wanted).T))
    if top:
        values = np.stack([table[s] for s in states], axis=1)
    else:
        values = np.stack([_act(table[s], 2 * table[_doubled(s)]) if _may_double(s) else table[s]
                           for s in states], axis=1)
    for row in range(len(on_roll)):
        if _exact_fits(on_roll[row], opponent[row], rules):
            board, versus = tuple(int(c) for c in on_roll[row, :6]), tuple(int(c) for c in opponent[row, :6])
            values[row] = [_exact_state(board, versus, *state)[0 if top else 1] for state in states]
    return values


def _cubeful(on_roll, opponent, states, ply: int, rules: Rules, top: bool,
             probabilities=None) -> tuple[np.ndarray, np.ndarray]:
    """(cube state values, cubeless probabilities) of one position at ``ply``."""
    if probabilities is None:
        probabilities = evaluate_many(rules, on_roll[None, :], opponent[None, :], 0)[0][0]
    if ply == 0 or on_roll.sum() == 0 or opponent.sum() == 0 or _exact_fits(on_roll, opponent, rules):
        return _leaf(on_roll[None, :], opponent[None, :], probabilities[None, :], states, rules, top)[0], \
            probabilities
    following = [_swapped(s) for s in states]
    if not top:
        following += [_swapped(_doubled(s)) for s in states if _may_double(s)]
    following = list(dict.fromkeys(following))
    total = np.zeros(len(following))
    cubeless = np.zeros(5)
    for (first, second), weight in two_dice_rolls():
        movers, opponents = roll_results(rules, on_roll, opponent, first, second)
        seen, _ = evaluate_many(rules, opponents, movers, 0)
        # The mover picks the play whose 0-ply cubeful value for his opponent is lowest.
        best = int(np.argmin(_leaf(opponents, movers, seen, [_swapped(states[0])], rules, False)[:, 0]))
        values, child = _cubeful(opponents[best].astype(np.int64), movers[best].astype(np.int64), following,
                                 ply - 1, rules, False, seen[best])
        total += weight * values
        cubeless += weight * child
    after = dict(zip(following, -total / 36.0))
    cubeless = flip(cubeless / 36.0)
    no_double = np.array([after[_swapped(s)] for s in states])
    if top:
        return no_double, cubeless
    return np.array([_act(nd, 2 * after[_swapped(_doubled(s))]) if _may_double(s) else nd
                     for nd, s in zip(no_double, states)]), cubeless


def cube_advice(rules: Rules, position: Position, cube_value: int = 1, cube_owner: str = "centred",
                ply: int = 0) -> dict:
    """The money cube decision of the player on roll (see the module docstring).

    Args:
        rules: STANDARD or PLAYTIVE.
        position: any position that is not over, the player on roll before rolling.
        cube_value: 1 (centred) or 2, 4, ..., 64 (owned).
        cube_owner: ``"centred"``, ``"on_roll"`` or ``"opponent"``.
        ply: look-ahead 0..3 (ignored by the exact tables).

    Returns:
        JSON-ready dict: ``position_id``, ``rules``, ``cube_value``, ``cube_owner``,
        ``max_cube`` (64), ``may_double``, ``no_double``, ``double_take`` (None when he may
        not double), ``double_pass`` (1.0, or None), ``action`` (one of
        :data:`~.cube.ACTIONS`), ``equity`` (with the optimal action), ``method``,
        ``source``, ``ply``, ``efficiency`` (Janowski's x at the root, None for the exact
        tables), ``probabilities`` (cubeless, at ``ply``).

    Raises:
        InvalidStateError: the game is over, or a bad cube or ply.
        GnubgUnavailableError: the position needs gnubg and it is not installed.
    """
    value, owner = check_cube(cube_value, cube_owner)
    ply = check_ply(ply)
    if position.is_over():
        raise InvalidStateError(f"the game is over in {position.position_id()}: no cube decision")
    on_roll, opponent = np.array(position.on_roll), np.array(position.opponent)
    state = (value, owner)
    allowed = may_double(value, owner)
    result = {"position_id": position.position_id(), "rules": rules.name, "cube_value": value,
              "cube_owner": owner, "max_cube": MAX_CUBE, "may_double": allowed}
    kind = int(classify(on_roll, opponent)[0])
    if _exact_fits(on_roll, opponent, rules):
        no_double, equity, double_take, action = _exact_state(tuple(position.on_roll[:6]),
                                                              tuple(position.opponent[:6]), value, owner)
        win = position_equities(position.on_roll[:6], position.opponent[:6])["win_probability"]
        probabilities = np.array([win, 0, 0, 0, 0])
        result.update(method="exact cubeful bear-off", source="exact", ply=0, efficiency=None)
    else:
        states = [state, _doubled(state)] if allowed else [state]
        values, probabilities = _cubeful(on_roll, opponent, states, ply, rules, True)
        no_double = float(values[0])
        double_take = float(2 * values[1]) if allowed else None
        code, equity = cube_action(no_double, no_double if double_take is None else double_take, allowed)
        action = ACTIONS[code]
        used = ply if kind else 0
        result.update(method="Janowski" if used == 0 else f"{used}-ply cubeful look-ahead",
                      source=source_label(KINDS[kind], used), ply=used,
                      efficiency=float(efficiency(on_roll, opponent)[0]))
    result.update(no_double=float(no_double), double_take=None if double_take is None else float(double_take),
                  double_pass=1.0 if allowed else None, action=action, equity=float(equity),
                  probabilities=dict(zip(OUTPUTS, (float(v) for v in probabilities))))
    return result
