"""Race doubling rules and how often they agree with exact bear-off cube play (BG-6, BG-8).

Money play, no gammons (every board of the two-sided database has a checker off). The
player on roll is the would-be doubler; a board is six checker counts on points 1..6.

Pip-count rules (each takes both home boards and says: double? take?):

* **Keith count** (Tom Keith, bgonline.org/keith.html): pip count + 2 for each checker more
  than one on the 1-point + 1 for each checker more than one on the 2-point + 1 for each
  checker more than three on the 3-point + 1 for each empty 4, 5 or 6 point. The count of
  the player on roll is increased by one seventh (rounded down). He doubles if his count
  exceeds the opponent's by no more than 4 (redoubles: 3); the opponent takes if the
  doubler's count exceeds his by at least 2.
* **Thorp count** (Edward O. Thorp): pip count + 2 per checker left - 1 per occupied home
  point + 1 per checker on the 1-point; the player on roll adds 10% if his count is over 30.
  Double if his count exceeds the opponent's by no more than 2 (redouble: 1); the opponent
  takes if his count exceeds the doubler's by no more than 2.
* **8-9-12 rule** (Walter Trice's pip rule for long races): the doubler's lead in pips as a
  percentage of his own pip count: double at 8% or more, redouble at 9%, the opponent
  passes beyond 12%.

Model-based advice:

* **one-sided**: the cubeless winning chance from the two one-sided roll distributions
  (each side bears off independently, the player on roll wins if he needs no more rolls;
  :func:`~.race.one_sided_matrix`), then Janowski's model (:mod:`~.cube`) with a cube
  efficiency ``x``;
* **Janowski, exact p**: the same model with the exact cubeless winning chance (isolating
  the model's error from the one-sided approximation).

:func:`agreement_table` measures each against the exact decisions of
:mod:`~.cubeful_bearoff`. All arrays are float64 / bool numpy over every pair of boards.

Example:
    >>> keith_count((0, 0, 0, 0, 0, 2)), thorp_count((0, 0, 0, 0, 0, 2))
    (14, 15)
    >>> rule_decision("keith", (0, 0, 0, 0, 0, 2), (0, 0, 0, 0, 0, 3))["double"]
    True
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from dicemath.core.errors import InvalidStateError
from dicemath.games.backgammon.bearoff import check_board, positions_up_to
from dicemath.games.backgammon.cube import (
    ACTIONS,
    CUBE_STATES,
    DEFAULT_EFFICIENCY,
    DOUBLE_PASS,
    DOUBLE_TAKE,
    NO_DOUBLE,
    TOO_GOOD,
    CubelessProbabilities,
    CubeModel,
    cube_action,
    janowski_equity,
    takes,
)
from dicemath.games.backgammon.race import one_sided_matrix, pip_count
from dicemath.games.backgammon.rules import STANDARD

if TYPE_CHECKING:
    from dicemath.games.backgammon.cubeful_bearoff import CubefulBearoffTable

RULES = ("keith", "thorp", "8-9-12")
"""The pip-count doubling rules, in report order."""

BEAROFF_EFFICIENCY = 0.66
"""Janowski cube efficiency for bear-offs: the least-squares fit to the exact centred-cube
equities of the 6x6 database (0.659, :func:`~.cubeful_bearoff.fit_janowski`), rounded; a
test keeps the two within 0.01."""

_POINTS = np.arange(1, 7)


def _boards(boards: npt.ArrayLike) -> npt.NDArray[np.int64]:
    array = np.asarray(boards, dtype=np.int64)
    if array.ndim == 1:
        check_board(array)
    return array


def keith_count(boards: npt.ArrayLike) -> int | npt.NDArray[np.int64]:
    """Tom Keith's adjusted pip count (without the on-roll seventh), vectorised.

    >>> keith_count((3, 0, 0, 0, 0, 0))  # 3 pips + 2 * 2 extra on the 1-point + 3 gaps
    10
    """
    b = _boards(boards)
    count = (b @ _POINTS
             + 2 * np.maximum(b[..., 0] - 1, 0)
             + np.maximum(b[..., 1] - 1, 0)
             + np.maximum(b[..., 2] - 3, 0)
             + (b[..., 3:6] == 0).sum(axis=-1))
    return int(count) if np.ndim(count) == 0 else count


def thorp_count(boards: npt.ArrayLike) -> int | npt.NDArray[np.int64]:
    """Edward Thorp's adjusted count (without the on-roll 10%), vectorised.

    >>> thorp_count((3, 0, 0, 0, 0, 0))  # 3 pips + 2 * 3 checkers - 1 point + 3 on the 1-point
    11
    """
    b = _boards(boards)
    count = b @ _POINTS + 2 * b.sum(axis=-1) - (b > 0).sum(axis=-1) + b[..., 0]
    return int(count) if np.ndim(count) == 0 else count


def rule_arrays(rule: str, boards: npt.ArrayLike, versus: npt.ArrayLike) -> dict[str, np.ndarray]:
    """Decisions of a pip-count rule for every pair (broadcast ``boards[:, None]`` vs ``versus``).

    Args:
        rule: one of :data:`RULES`.
        boards: ``(k, 6)`` boards of the player on roll.
        versus: ``(m, 6)`` boards of the opponent.

    Returns:
        Boolean ``(k, m)`` arrays ``double`` (cube centred), ``redouble`` (cube owned) and
        ``take`` (the opponent takes a double).

    Raises:
        InvalidStateError: unknown rule.
    """
    a = np.asarray(boards, dtype=np.int64)
    b = np.asarray(versus, dtype=np.int64)
    if rule == "keith":
        mine = np.asarray(keith_count(a)).astype(np.int64)       # arrays of boards give arrays
        mine = mine + mine // 7
        diff = mine[:, None] - np.asarray(keith_count(b))[None, :]
        return {"double": diff <= 4, "redouble": diff <= 3, "take": diff >= 2}
    if rule == "thorp":
        mine = np.asarray(thorp_count(a)).astype(float)
        mine = np.where(mine > 30, mine * 1.1, mine)
        diff = mine[:, None] - np.asarray(thorp_count(b))[None, :]
        return {"double": diff <= 2, "redouble": diff <= 1, "take": diff >= -2}
    if rule == "8-9-12":
        mine = np.maximum(pip_count(a), 1).astype(float)
        lead = 100.0 * (np.asarray(pip_count(b))[None, :] - mine[:, None]) / mine[:, None]
        return {"double": lead >= 8, "redouble": lead >= 9, "take": lead <= 12}
    raise InvalidStateError(f"unknown race rule {rule!r}; known: {RULES}")


def rule_decision(rule: str, board: Sequence[int], versus: Sequence[int]) -> dict[str, bool | str]:
    """One position's advice by a pip-count rule.

    Args:
        rule: one of :data:`RULES`.
        board: home board of the player on roll; versus: his opponent's.

    Returns:
        ``{"double": bool, "redouble": bool, "take": bool, "action": str}`` (action for a
        centred cube: "no double", "double/take" or "double/pass").

    Raises:
        InvalidStateError: unknown rule or bad boards.
    """
    decisions = rule_arrays(rule, [check_board(board)], [check_board(versus)])
    result: dict[str, bool | str] = {key: bool(value[0, 0]) for key, value in decisions.items()}
    result["action"] = _action(bool(result["double"]), bool(result["take"]))
    return result


def race_cube_advice(board: Sequence[int], versus: Sequence[int],
                efficiency: float = BEAROFF_EFFICIENCY) -> dict[str, str | float]:
    """Every advice method's centred-cube action for one race (any boards of up to 15).

    Args:
        board: home board of the player on roll; versus: his opponent's.
        efficiency: Janowski x for the one-sided method.

    Returns:
        ``{"keith": action, "thorp": action, "8-9-12": action, "one-sided": action,
        "one_sided_win": p}``, actions from "no double", "double/take", "double/pass".

    Raises:
        InvalidStateError: bad boards or an empty one.

    >>> race_cube_advice((0, 0, 0, 0, 0, 1), (0, 0, 0, 0, 0, 1))["keith"]
    'double/pass'
    """
    from dicemath.games.backgammon.race import one_sided_win_probability

    board, versus = check_board(board), check_board(versus)
    if sum(board) == 0 or sum(versus) == 0:
        raise InvalidStateError("both home boards need at least one checker")
    result: dict[str, str | float] = {rule: rule_decision(rule, board, versus)["action"] for rule in RULES}
    p = one_sided_win_probability(STANDARD, board, versus)
    decisions = model_arrays(np.array([p]), efficiency)
    result["one-sided"] = _action(decisions["double"][0], decisions["take"][0])
    result["one_sided_win"] = p
    return result


def _action(double: bool, take: bool) -> str:
    """The centred-cube action (a name of :data:`~.cube.ACTIONS`) of a double decision and a take decision."""
    return ACTIONS[(DOUBLE_TAKE if take else DOUBLE_PASS) if double else NO_DOUBLE]


def model_arrays(p: np.ndarray, efficiency: float = DEFAULT_EFFICIENCY) -> dict[str, np.ndarray]:
    """Janowski-model decisions (no gammons) for cubeless winning chances ``p`` (vectorised).

    The decisions are :func:`~.cube.cube_decision`'s; "double" includes *too good*: beyond
    the cash point the model's no-double value is the cash itself (+1), so playing on and
    cashing are worth the same and a pip rule's "double" (the opponent passes) agrees.
    """
    take_value = 2.0 * janowski_equity(p, efficiency, "opponent_owned")
    centred = cube_action(janowski_equity(p, efficiency, "centred"), take_value)[0]
    owned = cube_action(janowski_equity(p, efficiency, "owned"), take_value)[0]
    return {"double": centred != 0, "redouble": owned != 0, "take": takes(take_value)}


def exact_arrays(table: CubefulBearoffTable) -> dict[str, np.ndarray]:
    """Exact decisions from a :class:`~.cubeful_bearoff.CubefulBearoffTable`.

    Returns:
        Boolean arrays ``double``, ``redouble``, ``take`` and ``sure`` (the player on roll
        cannot lose: doubling and not doubling are worth the same, +1).
    """
    centred, owned = table.action[0], table.action[1]
    return {
        "double": (centred == DOUBLE_TAKE) | (centred == DOUBLE_PASS),
        "redouble": (owned == DOUBLE_TAKE) | (owned == DOUBLE_PASS),
        "take": takes(2.0 * table.no_double[2]),
        "sure": centred == TOO_GOOD,
    }


def _cost(table: CubefulBearoffTable, double: np.ndarray, take: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Equity lost by the doubler following ``double`` (opponent optimal) and by the taker
    following ``take`` (after a double), per unit cube, with the cube centred."""
    nd = table.no_double[0]
    dt = 2.0 * table.no_double[2]
    best_response = np.where(takes(dt), dt, 1.0)
    doubler_value = np.where(double, best_response, nd)
    doubler_loss = table.optimal[0] - doubler_value
    taker_loss = np.where(take, dt, 1.0) - best_response     # the doubler's gain = taker's loss
    return doubler_loss, taker_loss


def agreement_table(checkers: int = 6, efficiency: float | None = None,
                    zone: tuple[float, float] = (0.5, 0.95)) -> list[dict]:
    """How often each advice method agrees with the exact cube decisions.

    Positions: every pair of non-empty boards of at most ``checkers`` checkers, without the
    sure wins (where doubling and playing on are worth the same), restricted to those whose
    exact cubeless winning chance of the player on roll lies in ``zone`` (the doubling zone;
    pass ``(0, 1)`` for all).

    Args:
        checkers: database size (1..8).
        efficiency: Janowski x for the model-based methods (default: the best fit to the
            exact centred-cube equities of this database, :func:`~.cubeful_bearoff.fit_janowski`).
        zone: range of cubeless winning chances included.

    Returns:
        One dict per method: ``method``, ``positions``, ``double`` / ``redouble`` / ``take``
        (fraction agreeing), ``action`` (fraction with the same centred-cube action among no
        double / double-take / double-pass), ``doubler_cost`` and ``taker_cost`` (mean equity
        per unit cube lost by following the method, the other side playing optimally).
    """
    from dicemath.games.backgammon.cubeful_bearoff import cubeful_table, fit_janowski

    table = cubeful_table(checkers)
    if efficiency is None:
        efficiency = fit_janowski(table, "centred")["x"]
    boards = positions_up_to(checkers)
    exact = exact_arrays(table)
    p = table.cubeless
    mask = np.zeros(p.shape, dtype=bool)
    mask[1:, 1:] = True
    mask &= ~exact["sure"] & (p >= zone[0]) & (p <= zone[1])

    def action(decisions: Mapping[str, np.ndarray]) -> npt.NDArray[np.int64]:
        return np.where(~decisions["double"], 0, np.where(decisions["take"], 1, 2))

    exact_action = action(exact)
    methods = {name: rule_arrays(name, boards, boards) for name in RULES}
    methods[f"one-sided p + Janowski x={efficiency:.2f}"] = model_arrays(
        one_sided_matrix(STANDARD, checkers), efficiency)
    methods[f"exact p + Janowski x={efficiency:.2f}"] = model_arrays(p, efficiency)
    rows = []
    for name, decisions in methods.items():
        doubler_loss, taker_loss = _cost(table, decisions["double"], decisions["take"])
        rows.append({
            "method": name,
            "positions": int(mask.sum()),
            "double": float(np.mean(decisions["double"][mask] == exact["double"][mask])),
            "redouble": float(np.mean(decisions["redouble"][mask] == exact["redouble"][mask])),
            "take": float(np.mean(decisions["take"][mask] == exact["take"][mask])),
            "action": float(np.mean(action(decisions)[mask] == exact_action[mask])),
            "doubler_cost": float(np.mean(doubler_loss[mask])),
            "taker_cost": float(np.mean(taker_loss[mask])),
        })
    return rows


def model_position_equities(position: Iterable[int], versus: Iterable[int], efficiency: float | None = None,
                            tables: str | Path | None = None) -> dict[str, Any]:
    """Cube advice beyond the cubeful tables: Janowski's model at the exact cubeless chances.

    The cubeless probabilities (win, and with the 15-checker database the gammon races,
    BG-7) are exact, from the largest two-sided database built
    (:func:`~.bearoff_database.exact_probabilities`); the cubeful equities and actions are
    Janowski's model (:mod:`~.cube`) at cube efficiency ``efficiency`` (default
    :data:`BEAROFF_EFFICIENCY`, fitted to the exact 6x6 cubeful table): an
    estimate, marked ``"exact": False``.

    Args:
        position: home board of the player on roll; versus: his opponent's.
        efficiency: Janowski x in [0, 1].
        tables: folder of the databases (default: :func:`~.bearoff_database.default_root`).

    Returns:
        The keys of :meth:`.cubeful_bearoff.CubefulBearoffTable.equities` (equities per unit cube,
        ``max_cube`` None: the model has no cap) plus ``win_gammon``, ``lose_gammon``,
        ``table`` (the exact table used), ``exact`` (False) and ``method``.

    Raises:
        InvalidStateError: bad or empty boards, or no exact table covering both boards.
    """
    from dicemath.games.backgammon.bearoff_database import exact_probabilities

    position, versus = check_board(position), check_board(versus)
    if sum(position) == 0 or sum(versus) == 0:
        raise InvalidStateError("both home boards need at least one checker")
    x = BEAROFF_EFFICIENCY if efficiency is None else efficiency
    exact = exact_probabilities(position, versus, tables)
    model = CubeModel(CubelessProbabilities(exact["win_probability"], exact["win_gammon"],
                                            lose_gammon=exact["lose_gammon"]))
    result: dict[str, Any] = {"position": list(position), "versus": list(versus)}
    actions = {name: model.action(name, x) for name in CUBE_STATES}
    result.update({name: actions[name][1] for name in CUBE_STATES})
    result["no_double"] = {name: model.equity(name, x) for name in CUBE_STATES}
    result["action"] = {name: actions[name][0] for name in CUBE_STATES}
    result.update({"win_probability": exact["win_probability"], "win_gammon": exact["win_gammon"],
                   "lose_gammon": exact["lose_gammon"], "max_cube": None, "table": exact["table"],
                   "exact": False, "method": f"Janowski model, cube efficiency {x:.2f}, at the exact cubeless chances"})
    return result
