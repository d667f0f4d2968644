"""dicemath's cube and move advice side by side with GNU Backgammon's own decisions.

* :func:`compare_cube`: :func:`~dicemath.games.backgammon.cube_advice.cube_advice` against GNU Backgammon's cube
  decisions of the same positions at the same ply (recorded from the gnubg 1.07 program,
  ``tests/backgammon/make_gnubg_cube_cases.py``: the ``gnubg`` package has no cube
  decision). Every disagreement gets a class (:data:`CLASSES`).
* :func:`compare_top_play`: the first play of :func:`~dicemath.games.backgammon.hint.hint` (standard rules, every
  position evaluated by gnubg's nets) against ``gnubg.find_best_move`` at the same ply with
  the same move filter.

Example:
    >>> GNUBG_ACTIONS[7], GNUBG_ACTIONS[4]
    ('double/take', 'too good')
"""

from __future__ import annotations

from typing import Any

import numpy as np

from dicemath.games.backgammon import gnubg_engine
from dicemath.games.backgammon.cube_advice import cube_advice
from dicemath.games.backgammon.hint import MoveValue, hint
from dicemath.games.backgammon.moves import apply_notation, single_steps
from dicemath.games.backgammon.position import Position
from dicemath.games.backgammon.rules import STANDARD

GNUBG_ACTIONS = {0: "double/take", 1: "double/pass", 2: "no double", 3: "no double", 4: "too good",
                 7: "double/take", 8: "double/pass", 9: "no double", 10: "no double", 11: "too good",
                 13: "no double", 14: "no double", 15: "no double", 16: "double/take", 17: "double/take",
                 19: "double/pass", 20: "double/pass"}
"""GNU Backgammon's ``cubedecision`` codes as dicemath's actions (redoubles as doubles;
"too good to double, take" is not doubling; the "optional" codes, where doubling and not
doubling are worth the same, as the double)."""

CLASSES = {
    "tie": "the two choices are worth the same (within 1e-6) in gnubg's numbers: e.g. a certain "
           "single win, where no double (cash later) and double/pass both give +1",
    "bear-off table": "dicemath's exact cubeful bear-off table (BG-8 cube cap at 64) against "
                      "gnubg's own bear-off evaluation",
    "near a threshold": "the choice (double or not, take or pass) turns on an equity gap at most "
                        "twice the difference between the two evaluations of the position (gnubg "
                        "1.07's nets against the gnubg package's, and at 2 ply dicemath's "
                        "look-ahead against gnubg's)",
    "other": "none of the above",
}
"""Disagreement classes of :func:`compare_cube`."""


def _gap(first: str, second: str, numbers: dict) -> float:
    """The equity gap behind the choice between two different actions, in gnubg's numbers:
    take or pass (``|double/take - double/pass|``) when both double or neither does, else
    double or not (``|no double - min(double/take, double/pass)|``)."""
    doubling = {"double/take", "double/pass"}
    no_double, double_take, double_pass = numbers["no_double"], numbers["double_take"], numbers["double_pass"]
    if (first in doubling) == (second in doubling):
        return abs(double_take - double_pass)
    return abs(no_double - min(double_take, double_pass))


def compare_cube(cases: list[dict], ply: int) -> dict:
    """Compare dicemath's cube actions with gnubg's on recorded cases.

    Args:
        cases: entries of ``tests/backgammon/data/gnubg_cube_decisions.json``.
        ply: 0 or 2 (the plies recorded).

    Returns:
        ``cases``, ``agree``, ``agreement`` (fraction), ``no_double`` and ``double_take``
        equity differences (dicemath minus gnubg: mean absolute, max absolute),
        ``classes`` (disagreements per class) and ``disagreements`` (one dict each).
    """
    agree, nd_diff, dt_diff, disagreements = 0, [], [], []
    for case in cases:
        theirs = case[f"ply{ply}"]
        mine = cube_advice(STANDARD, Position.from_position_id(case["position_id"]), case["cube_value"],
                           case["cube_owner"], ply)
        expected = GNUBG_ACTIONS.get(theirs["code"], theirs["decision"])
        nd_diff.append(mine["no_double"] - theirs["no_double"])
        if mine["double_take"] is not None:
            dt_diff.append(mine["double_take"] - theirs["double_take"])
        if mine["action"] == expected:
            agree += 1
            continue
        difference = max(abs(nd_diff[-1]), abs(dt_diff[-1]) if mine["double_take"] is not None else 0.0)
        gap = _gap(mine["action"], expected, theirs)
        if gap < 1e-6:
            kind = "tie"
        elif mine["method"].startswith("exact"):
            kind = "bear-off table"
        elif gap <= 2 * difference:
            kind = "near a threshold"
        else:
            kind = "other"
        disagreements.append({"position_id": case["position_id"], "cube": f"{case['cube_value']} {case['cube_owner']}",
                              "dicemath": mine["action"], "gnubg": theirs["decision"], "class": kind,
                              "gap": gap, "difference": difference, "method": mine["method"]})
    classes = {name: sum(d["class"] == name for d in disagreements) for name in CLASSES}
    nd, dt = np.abs(nd_diff), np.abs(dt_diff)
    return {"ply": ply, "cases": len(cases), "agree": agree, "agreement": agree / len(cases),
            "no_double": {"mean_abs": float(nd.mean()), "max_abs": float(nd.max())},
            "double_take": {"mean_abs": float(dt.mean()), "max_abs": float(dt.max())},
            "classes": classes, "disagreements": disagreements}


def gnubg_top_play(position: Position, dice, ply: int) -> tuple[tuple, float]:
    """``gnubg.find_best_moves``' first play ``(move tuple, score)`` with BG-8's money cube
    and :data:`~dicemath.games.backgammon.gnubg_engine.NORMAL_FILTER`; ``((), nan)`` when the roll cannot be played."""
    gnubg = gnubg_engine.engine("the comparison with gnubg.find_best_move")
    found = gnubg.find_best_moves(gnubg_engine.board(position), gnubg_engine.money_cube_info(),
                                  gnubg_engine.eval_context(ply), tuple(dice), gnubg_engine.move_filters(ply))
    if not found:
        return (), float("nan")
    return tuple(found[0]["move"]), float(found[0]["score"])


def _reaches(position: Position, steps: tuple, dice, move: MoveValue) -> bool:
    """Whether ``move`` can be what gnubg's cut-short tuple describes: its complete
    ``(from, to)`` pairs, a checker borne off from the last ``from``, then (unknown) the
    rest of the play, which must lead to the same position as ``move``."""
    known = [f"{a}/{b}" for a, b in zip(steps[:-1:2], steps[1:-1:2])] + [f"{steps[-1]}/off"]
    states = {apply_notation(position, " ".join(known))}
    left = len(move.move.split()) - len(known)
    faces = sorted(set(dice))
    for _ in range(max(left, 0)):
        states = {after for state in states for face in faces
                  for _, after in single_steps(STANDARD, state, face)}
    target = Position.from_position_id(move.position_id).swap()
    return any(state.on_roll == target.on_roll and state.opponent == target.opponent for state in states)


def compare_top_play(positions: list[dict], ply: int) -> dict:
    """Compare the top play of :func:`~dicemath.games.backgammon.hint.hint` with ``gnubg.find_best_move``.

    Args:
        positions: ``{"position_id", "dice"}`` entries (the player on roll to move).
        ply: look-ahead of both.

    Returns:
        ``positions``, ``same`` (same resulting position), ``same_cut_short`` (gnubg's move
        tuple was cut short at a checker borne off, a known bug of the package, and
        dicemath's top play reaches the same position from what the tuple says), ``ties``
        (dicemath's two best plays within 1e-9: excepted), ``mixed_plies`` (a list: gnubg's
        play is one its own filter dropped, ranked by its lower-ply score above the plays it
        evaluated at ``ply``, as the package sorts scores of different plies together, while
        dicemath ranks the plays evaluated at ``ply`` first), ``different`` (a list),
        ``max_equity_difference`` (|dicemath's top equity - gnubg's score| over all positions).
    """
    counts: dict[str, Any] = {"positions": 0, "same": 0, "same_cut_short": 0, "ties": 0, "mixed_plies": [],
                              "different": []}
    worst = 0.0
    for entry in positions:
        position = Position.from_position_id(entry["position_id"])
        moves = hint(STANDARD, position, entry["dice"], ply, source="gnubg")
        counts["positions"] += 1
        steps, score = gnubg_top_play(position, entry["dice"], ply)
        if score == score:  # not nan
            worst = max(worst, abs(moves[0].equity - score))
        if len(moves) > 1 and moves[1].ply == moves[0].ply and moves[0].equity - moves[1].equity < 1e-9:
            counts["ties"] += 1
            continue
        if len(steps) % 2 == 0:
            notation = " ".join(f"{a}/{b}" for a, b in zip(steps[::2], steps[1::2]))
            theirs = apply_notation(position, notation).swap().position_id() if steps else \
                position.swap().position_id()
            if theirs == moves[0].position_id:
                counts["same"] += 1
                continue
            pruned = [m for m in moves if m.position_id == theirs and m.ply < ply and abs(m.equity - score) < 5e-6]
            if pruned:
                counts["mixed_plies"].append({"position_id": entry["position_id"], "dice": list(entry["dice"]),
                                              "dicemath": moves[0].move, "gnubg": pruned[0].move,
                                              "equity": moves[0].equity, "score": score})
                continue
        else:
            if _reaches(position, steps, entry["dice"], moves[0]):
                counts["same_cut_short"] += 1
                continue
        counts["different"].append({"position_id": entry["position_id"], "dice": list(entry["dice"]),
                                    "dicemath": moves[0].move, "gnubg": list(steps), "equity": moves[0].equity,
                                    "score": score})
    counts["max_equity_difference"] = worst
    return counts
