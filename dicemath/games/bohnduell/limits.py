"""The limits of BohnDuell's settings, as plain constants: the search depth, the exact
table's stock, the proof's time limit and its table's stock, and their one check.

They sit below the solvers so that the command line builds its parser (its defaults and help)
without importing the search or the tables, and the chain (:mod:`.search`), the dense solver
and the commands read the same numbers.

Example:
    >>> DEPTH, MAX_DEPTH, TABLE_STOCK, MAX_TABLE_STOCK
    (6, 12, 12, 63)
    >>> PROOF_SECONDS, MAX_PROOF_SECONDS, PROOF_TABLE_STOCK
    (20, 600, 26)
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


PROOF_SECONDS = 20
"""The proof's default time limit in seconds (the ``proof_seconds`` setting, 0 for no proof, at most
:data:`MAX_PROOF_SECONDS`): a position the exact tables do not cover is proven by search within it, else
estimated (:mod:`~dicemath.games.bohnduell.proof_source`)."""

MAX_PROOF_SECONDS = 600
"""The longest proof any door runs, in seconds."""

PROOF_TABLE_STOCK = 26
"""The stock of the table the proof searches over by default (the ``proof_table_stock`` setting,
0 to :data:`MAX_TABLE_STOCK`; 0: the proof's leaves are the end of the game and the static bounds
only): a strong table, built once on first use (26 beans: 8.7 GB on disk, 580 s of CPU)."""

REPRODUCE_MEMORY = 8 << 30
"""The bound of the proof's transposition table in bytes when a committed proof is reproduced
(:func:`~dicemath.games.bohnduell.proof_record.reproduce`; 8 GiB, about 350 million positions;
it grows only as far as the proof needs). While no entry is replaced the certificate is the
one the Python search writes, byte for byte, whatever the machine."""


def check_settings(depth: int = DEPTH, table_stock: int = TABLE_STOCK, proof_seconds: int = PROOF_SECONDS,
                   proof_table_stock: int = PROOF_TABLE_STOCK) -> tuple[int, int, int, int]:
    """``(depth, table_stock, proof_seconds, proof_table_stock)`` checked: the settings every
    source of :func:`~dicemath.games.bohnduell.search.source_chain` takes (the chain's first
    source checks them, so every answer is checked once).

    Raises:
        InvalidStateError: a depth outside ``1..MAX_DEPTH``, a table stock or a proof table
            stock outside ``0..MAX_TABLE_STOCK``, or proof seconds outside
            ``0..MAX_PROOF_SECONDS`` (or not whole numbers).

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
    if not _whole(proof_seconds, MAX_PROOF_SECONDS):
        raise InvalidStateError(f"the proof seconds must be a whole number 0..{MAX_PROOF_SECONDS}, got "
                                f"{proof_seconds!r}")
    if not _whole(proof_table_stock, MAX_TABLE_STOCK):
        raise InvalidStateError(f"the proof table stock must be a whole number 0..{MAX_TABLE_STOCK}, got "
                                f"{proof_table_stock!r}")
    return depth, table_stock, proof_seconds, proof_table_stock


def _whole(number: object, high: int) -> bool:
    """Whether ``number`` is a whole number (not a bool) in ``0..high``."""
    return isinstance(number, int) and not isinstance(number, bool) and 0 <= number <= high
