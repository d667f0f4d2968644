"""The doubling cube's rules in money play (docs/rules.md BG-7, BG-8): cube values and owners,
who may double, the take, and the cube decision.

:func:`cube_decision` is the statement of the cube decision for numbers and exact
Fractions: the models of :mod:`.cube`, the Fraction recursion of the cubeful bear-off tables
and the cube advice call it. Arrays and the float64 cubeful bear-off tables use its C
statement (``_cube_c.c``, through :mod:`._cube_kernels`), which the tests compare with it on
ties and near-ties. It imports no other Backgammon module, so that the models can build on it.
"""

from __future__ import annotations

import numpy as np

from dicemath.core.errors import InvalidStateError

CUBE_OWNERS = ("centred", "on_roll", "opponent")
"""Who owns the cube of a game, seen by the player on roll."""

MAX_CUBE = 64
"""BG-8: cube values 1, 2, 4, ..., 64; a cube at 64 is not turned again."""

ACTIONS = ("no double", "double/take", "double/pass", "too good")
"""Optimal cube actions of the player on roll, in this fixed order (used as codes 0..3)."""
NO_DOUBLE, DOUBLE_TAKE, DOUBLE_PASS, TOO_GOOD = range(len(ACTIONS))

VERDICTS = dict(zip(ACTIONS, ("No double, take", "Double, take", "Double, pass", "Too good to double, pass")))
"""Each action as players say it: the doubler's decision, then the opponent's answer to a
double (take or pass; BG-7)."""

TIE_TOLERANCE = 1e-12
"""Equity differences below this count as ties: ties go to not doubling and to taking; a
no-double equity within it of the cash (+1) with the opponent passing is "too good"."""


def check_cube(value, owner: str) -> tuple[int, str]:
    """Validate a BG-8 money cube: its value and its owner seen by the player on roll.

    Raises:
        InvalidStateError: a value that is not 1, 2, 4, ..., 64, an owner not in
            :data:`CUBE_OWNERS`, a centred cube above 1 (BG-8 has no automatic doubles or
            beavers) or an owned cube at 1.

    >>> check_cube(4, "opponent")
    (4, 'opponent')
    """
    if owner not in CUBE_OWNERS:
        raise InvalidStateError(f"cube owner must be one of {CUBE_OWNERS}, got {owner!r}")
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1 \
            or value > MAX_CUBE or value & (value - 1):
        raise InvalidStateError(f"cube value must be 1, 2, 4, ..., {MAX_CUBE} (BG-8), got {value!r}")
    if owner == "centred" and value != 1:
        raise InvalidStateError(f"a centred cube is at 1 (BG-8: no automatic doubles), got {value}")
    if owner != "centred" and value == 1:
        raise InvalidStateError("an owned cube is at least 2 (it is owned after a double)")
    return int(value), owner


def may_double(value: int, owner: str) -> bool:
    """Whether the player on roll may double a cube of ``value`` owned by ``owner`` (BG-8:
    centred or his, and below :data:`MAX_CUBE`)."""
    return owner != "opponent" and value < MAX_CUBE


def takes(double_take, double_pass=1.0, tie=TIE_TOLERANCE):
    """BG-8: whether the opponent takes a double: taking costs him no more than passing,
    that is the doubler's double/take equity is at most his double/pass equity (ties:
    take). Works on numbers, Fractions and (elementwise) arrays.

    >>> takes(0.9), takes(1.2)
    (True, False)
    """
    return double_take <= double_pass + tie


def cube_decision(no_double, double_take, double_pass, may_double, tie):
    """BG-8: the optimal cube action of the player on roll and its equity.

    The Janowski models, the Fraction recursion of the cubeful bear-off tables and the
    cube advice call it; arrays and the float64 tables use its C statement (``_cube_c.c``).
    The opponent answers a double by :func:`takes`; the player doubles when that answer is
    worth more to him than not doubling; he is *too good* to double when the opponent
    would pass and playing on is worth at least the cash. Ties (within ``tie``) go to not
    doubling.

    Args:
        no_double: his equity if he does not double now.
        double_take: his equity if he doubles and the opponent takes, per unit of the
            current cube (twice his equity with the doubled cube owned by the opponent).
        double_pass: his equity if the opponent passes (the current stake: 1).
        may_double: False when the opponent owns the cube (or it is at 64).
        tie: equity differences counted as ties (0 for exact Fractions).

    Returns:
        ``(code, equity)``: the code indexes :data:`ACTIONS`.

    >>> cube_decision(0.4, 0.6, 1.0, True, TIE_TOLERANCE)
    (1, 0.6)
    """
    if not may_double:
        return NO_DOUBLE, no_double
    if takes(double_take, double_pass, tie):
        code, after = DOUBLE_TAKE, double_take
    else:
        code, after = DOUBLE_PASS, double_pass
    if after > no_double + tie:
        return code, after
    if code == DOUBLE_PASS and no_double >= double_pass - tie:
        return TOO_GOOD, no_double
    return NO_DOUBLE, no_double
