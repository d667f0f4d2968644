"""GNU Backgammon's neural nets through the optional ``gnubg`` package (PyPI, GPL-3.0).

``pip install 'dicemath[gnubg]'`` installs it; without it, :func:`engine` raises
:class:`GnubgUnavailableError` (a :class:`~dicemath.core.errors.DicemathError`) that says
so. Nothing here is imported by ``import dicemath``.

Facts about ``gnubg`` 1.1.0a16 that this module handles (checked in the tests):

* A board is ``(side not on roll, side on roll)``, each 25 counts in its own numbering
  (points 1..24, then the bar): dicemath's ``(position.opponent, position.on_roll)``.
* ``gnubg.cube_info()`` has the Jacoby rule on (BG-8: no Jacoby, no beavers); its
  cubeless equities ignore the cube, but its cubeful move scores do not, so
  :func:`money_cube_info` switches Jacoby off.
* ``gnubg.evaluate`` returns float32 values (about 7 significant digits) and, even with a
  cubeful context, the cubeless equity: the cubeful one is not exposed.
* ``gnubg.find_best_move`` cuts its ``(from, to, ...)`` tuple short at the first checker
  borne off; dicemath generates plays itself (:mod:`.moves`) and only asks gnubg for
  evaluations.

Example:
    >>> from dicemath.games.backgammon.position import Position
    >>> board(Position.initial())[1][23]  # two checkers on the 24-point of the player on roll
    2
"""

from __future__ import annotations

from functools import lru_cache

from dicemath.core.errors import DicemathError
from dicemath.games.backgammon.position import Position

INSTALL_HINT = "pip install 'dicemath[gnubg]'"
"""How to install the optional GNU Backgammon evaluator."""

MAX_PLY = 3
"""Deepest look-ahead offered (GNU Backgammon's 3-ply already takes about a second)."""

NORMAL_FILTER = {1: ((0, 8, 0.16),), 2: ((0, 8, 0.16), (-1, 0, 0.0)),
                 3: ((0, 8, 0.16), (-1, 0, 0.0), (0, 2, 0.04))}
"""GNU Backgammon's "normal" move filter per ply: for each lower ply ``(accept, extra,
threshold)``: keep ``accept`` plays, then up to ``extra`` more within ``threshold`` of the
best (``accept = -1``: skip that ply). Used both by :mod:`.hint` and when asking
``gnubg.find_best_move`` for its play, so both prune the same way."""


class GnubgUnavailableError(DicemathError):
    """GNU Backgammon's evaluator (the optional ``gnubg`` package) is not installed."""


@lru_cache(maxsize=1)
def _import():
    try:
        import gnubg
    except ImportError:
        return None
    return gnubg


def engine(purpose: str = "this position"):
    """The ``gnubg`` module.

    Args:
        purpose: what needs it, for the error message.

    Raises:
        GnubgUnavailableError: the package is not installed.
    """
    module = _import()
    if module is None:
        raise GnubgUnavailableError(
            f"{purpose} needs GNU Backgammon's neural-net evaluator, the optional 'gnubg' package; "
            f"install it with: {INSTALL_HINT}")
    return module


def available() -> bool:
    """Whether the ``gnubg`` package can be imported."""
    return _import() is not None


def board(position: Position) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The gnubg board of ``position``: ``(opponent, on_roll)``."""
    return position.opponent, position.on_roll


OWNER_CODES = {"centred": -1, "on_roll": 0, "opponent": 1}
"""gnubg's ``cubeowner`` for dicemath's cube owners (the player on roll is gnubg's player 0)."""


@lru_cache(maxsize=64)
def _cube_info(value: int, owner: str) -> tuple:
    info = engine("a cubeful evaluation").cube_info(value, OWNER_CODES[owner], 0)
    info.update(jacoby=0, beavers=0, gammonprice=((1.0, 1.0), (1.0, 1.0)))
    return tuple(info.items())


def money_cube_info(value: int = 1, owner: str = "centred") -> dict:
    """A gnubg money-play cube for BG-8: no Jacoby rule, no beavers, player on roll is 0.

    Args:
        value: the cube value.
        owner: ``"centred"``, ``"on_roll"`` or ``"opponent"``.
    """
    return dict(_cube_info(value, owner))


@lru_cache(maxsize=16)
def _eval_context(ply: int, cubeful: bool) -> tuple:
    return tuple(engine().eval_context(int(cubeful), ply, 1, 0, 0.0).items())


def eval_context(ply: int = 0, cubeful: bool = False) -> dict:
    """A deterministic gnubg evaluation context (no noise, no pruning nets) at ``ply``."""
    return dict(_eval_context(ply, cubeful))


def move_filters(ply: int) -> list[dict]:
    """:data:`NORMAL_FILTER` for ``ply`` in gnubg's format (for ``find_best_move``)."""
    return [{"ply": ply, "level": level, "acceptmoves": accept, "extramoves": extra, "threshold": threshold}
            for level, (accept, extra, threshold) in enumerate(NORMAL_FILTER.get(ply, ()))]


def evaluator(ply: int = 0) -> tuple:
    """``(gnubg.evaluate, cube, context)`` for a cubeless evaluation at ``ply`` with BG-8's
    money cube: ``evaluate(board, cube, context)`` returns (win, win gammon, win backgammon,
    lose gammon, lose backgammon, cubeless equity) of the player on roll."""
    return engine().evaluate, money_cube_info(), eval_context(ply)
