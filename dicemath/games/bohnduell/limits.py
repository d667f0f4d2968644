"""The limits of BohnDuell's settings, as plain constants: the search depth and the exact
table's stock, and their one check.

They sit below the solvers so that the command line builds its parser (its defaults and help)
without importing the search or the tables, and the chain (:mod:`.search`), the dense solver
and the commands read the same numbers.

Example:
    >>> DEPTH, MAX_DEPTH, TABLE_STOCK, MAX_TABLE_STOCK
    (6, 12, 12, 63)
"""

from __future__ import annotations

from dicemath.core.errors import InvalidStateError

DEPTH = 6
"""The default search depth in plies (every door: the game's advice, the command, the page, the analysis)."""

MAX_DEPTH = 12
"""The deepest search any door runs (the depth is refused outside ``1..MAX_DEPTH``)."""

TABLE_STOCK = 12
"""The exact table's limit: positions whose two sides each hold at most this many beans (stock
and cups) are looked up exactly (the ``table_stock`` setting, 0 for none, at most
:data:`MAX_TABLE_STOCK`)."""

MAX_TABLE_STOCK = 63
"""Values lie in ``[-2S, 2S]``; ``int8`` holds them up to this stock."""


def check_settings(depth: int = DEPTH, table_stock: int = TABLE_STOCK) -> tuple[int, int]:
    """``(depth, table_stock)`` checked: the settings every source of
    :func:`~dicemath.games.bohnduell.search.source_chain` takes (the chain's first source checks
    them, so every answer is checked once).

    Raises:
        InvalidStateError: a depth outside ``1..MAX_DEPTH`` or a table stock outside
            ``0..MAX_TABLE_STOCK`` (or not whole numbers).

    Example:
        >>> check_settings(depth=-1)
        Traceback (most recent call last):
        ...
        dicemath.core.errors.InvalidStateError: the search depth must be a whole number 1..12, got -1
    """
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH:
        raise InvalidStateError(f"the search depth must be a whole number 1..{MAX_DEPTH}, got {depth!r}")
    if isinstance(table_stock, bool) or not isinstance(table_stock, int) or not 0 <= table_stock <= MAX_TABLE_STOCK:
        raise InvalidStateError(f"the table stock must be a whole number 0..{MAX_TABLE_STOCK}, got {table_stock!r}")
    return depth, table_stock
