"""The limits of Backgammon's exact sources, each written once (docs/rules.md BG-6..BG-8).

Every function that chooses between an exact table and an estimate reads its limit here:
the chain of sources (:func:`~dicemath.games.backgammon.advice.sources`), the evaluator
(:mod:`.evaluate`), the race tools (:mod:`.race`), the bear-off databases
(:mod:`.bearoff_database`), the cube advice (:mod:`.cube_advice`) and the cubeful tables
(:mod:`.cubeful_bearoff`). Nothing heavy is imported here.

Example:
    >>> EXACT_CHECKERS, EXACT_CUBE_CHECKERS, MAX_CUBEFUL_CHECKERS
    (8, 6, 8)
"""

from __future__ import annotations

EXACT_CHECKERS = 8
"""Bear-offs (every checker of both sides in its home board, BG-6) with at most this many
checkers a side are valued exactly, cubeless, from the float64 two-sided table of
:func:`~.bearoff.two_sided_table` (3,003 x 3,003 boards, 72 MB, built once and cached);
beyond, a built bear-off database (:mod:`.bearoff_database`) or an estimate."""

EXACT_CUBE_CHECKERS = 6
"""Cube decisions in bear-offs (standard rules) with at most this many checkers a side are
valued exactly from the cubeful tables of :mod:`.cubeful_bearoff` (924 boards a side, the
BG-8 cap); beyond, by Janowski's model or a cubeful look-ahead (estimates)."""

MAX_CUBEFUL_CHECKERS = 8
"""The largest cubeful bear-off table built on request (3,003 boards a side;
``dicemath backgammon cube BOARD --versus BOARD`` answers up to it). Memory is about
``127 n**2`` bytes for ``n`` boards a side with an unbounded cube and ``393 n**2`` with the
BG-8 cap (14 value layers), 1.4 GB and 3.5 GB at 8 checkers."""


def in_home_boards(on_roll, opponent) -> bool:
    """Whether both sides (25 counts each: points 1..24, bar) have every checker in their
    home boards (points 1..6), a bear-off (BG-6).

    >>> in_home_boards([1] + [0] * 24, [0, 2] + [0] * 23), in_home_boards([0] * 6 + [1] + [0] * 18, [1] + [0] * 24)
    (True, False)
    """
    return not any(on_roll[6:]) and not any(opponent[6:])


def exact_bear_off(on_roll, opponent, checkers: int = EXACT_CHECKERS) -> bool:
    """Whether a position (25 counts a side) is a bear-off with at most ``checkers`` a side,
    neither side finished: the cover of the exact cubeless table (:data:`EXACT_CHECKERS`)
    or, with ``checkers=EXACT_CUBE_CHECKERS``, of the exact cubeful tables.

    >>> exact_bear_off([2] + [0] * 24, [0, 1] + [0] * 24), exact_bear_off([9] + [0] * 24, [1] + [0] * 24)
    (True, False)
    """
    return in_home_boards(on_roll, opponent) and 0 < sum(on_roll) <= checkers and 0 < sum(opponent) <= checkers


def exact_cube_bear_off(rules, on_roll, opponent) -> bool:
    """Whether the cube decision of a position (25 counts a side) under ``rules`` is in the
    cover of the exact cubeful tables: standard rules (the tables follow BG-3 without BG-4's
    limit), a bear-off with at most :data:`EXACT_CUBE_CHECKERS` checkers a side.

    >>> from dicemath.games.backgammon.rules import PLAYTIVE, STANDARD
    >>> board, versus = [2] + [0] * 24, [0, 1] + [0] * 23
    >>> exact_cube_bear_off(STANDARD, board, versus), exact_cube_bear_off(PLAYTIVE, board, versus)
    (True, False)
    """
    from dicemath.games.backgammon.rules import STANDARD

    return rules == STANDARD and exact_bear_off(on_roll, opponent, EXACT_CUBE_CHECKERS)
