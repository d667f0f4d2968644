"""The proof search of :mod:`~dicemath.games.bohnduell.proof` in compiled code, with a bounded table.

:func:`search_compiled` runs ``_proof_c.c``: the same MTD(f) over proven bounds as
:func:`~dicemath.games.bohnduell.proof.prove`'s search, step for step (the same leaves: the
endgame table, the end of the game (BOHN-6) and
:func:`~dicemath.games.bohnduell.proof_format.static_bounds`; the same move order and
enhanced transposition cut-off), with its transposition table in
:data:`ENTRY_BYTES` bytes a position instead of Python objects. The table is bounded
(``memory`` bytes): once full, a new position replaces the entry of least work
(positions expanded under it) in its bucket of four; the entries of the start and its first
moves are never replaced. A bound the certificate needs whose entry was replaced is proven
again while the rows are gathered, so the certificate proves the same claims.

While nothing is replaced (``replaced == 0``) the search is the Python search's exactly: the
same nodes, positions, bounds and certificate, byte for byte. With replacements the value
and every bound proven exactly are the same (they are the game's), the nodes more, and the
certificate may hold other (equally valid) rows.

A :func:`transpositions` table kept between searches (``transpositions=``) carries the
bounds one search proved into the next: a proven bound is the game's, whatever position is
searched or whichever endgame table gives the leaves, so the proof of a game's next position
starts from what the last one proved. Its own ``memory`` bounds it; the pins of a search are
released when the search ends.

Sides are packed one byte a count into a 64-bit word, so the compiled search takes games of
at most :data:`MAX_CUPS` cups (the standard game has 4, BOHN-1); ``prove`` runs the Python
search beyond.

Example:
    >>> from dicemath.games.bohnduell.rules import Rules
    >>> outcome = search_compiled(Rules(stock=6), None, all_first_moves=True)
    >>> outcome.lower, outcome.upper, outcome.first_moves
    (-1, -1, [(1, -1, -1), (2, -2, -2), (3, -5, -5), (4, -8, -8)])
    >>> outcome.replaced, certificate(Rules(stock=6), outcome, 0).header.rows == len(outcome.rows)
    (0, True)
    >>> kept = transpositions(Rules(stock=6), 1 << 20)
    >>> again = [search_compiled(Rules(stock=6), None, all_first_moves=True, transpositions=kept) for _ in "ab"]
    >>> again[0].first_moves == again[1].first_moves == outcome.first_moves, again[1].nodes < again[0].nodes
    (True, True)
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from dicemath.core.errors import InvalidRulesError
from dicemath.games.bohnduell import _proof_c  # type: ignore[attr-defined]  # C extension, no stubs
from dicemath.games.bohnduell.proof_format import MAX_COUNT, Certificate, Header, decode_move, row_dtype
from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.solver_dense import DenseTable
from dicemath.games.bohnduell.state import Side, initial_state

MAX_CUPS = 7
"""The most cups the compiled search takes (a side's ``cups + 1`` counts fill one 64-bit word)."""

ENTRY_BYTES = 24
"""Bytes of one transposition-table entry: the position (16), both bounds, the move and its work."""

DEFAULT_MEMORY = 1 << 30
"""The default bound of the transposition table in bytes (1 GiB: about 44 million positions)."""


@dataclass(frozen=True)
class CompiledOutcome:
    """What :func:`search_compiled` proved about the start of a game.

    Attributes:
        lower, upper: the proven bounds on the start's ``V`` (A's final pot difference).
        first_moves: per first move, in the search's move order, ``(move code, lower,
            upper)`` of A's final pot difference after it
            (:func:`~dicemath.games.bohnduell.proof_format.encode_move`).
        nodes: positions expanded (a position searched again counts again, the rows' own
            searches included).
        positions: entries in the transposition table at the end.
        replaced: entries replaced by another position (0: the table never filled).
        exhausted: True when the node or time budget ran out.
        rows: the certificate's rows, a :func:`~dicemath.games.bohnduell.proof_format.row_dtype`
            array sorted as :meth:`Certificate.build` sorts them.
    """

    lower: int
    upper: int
    first_moves: list[tuple[int, int, int]]
    nodes: int
    positions: int
    replaced: int
    exhausted: bool
    rows: np.ndarray = field(repr=False)


def transpositions(rules: Rules, memory: int = DEFAULT_MEMORY) -> Any:
    """A transposition table of the variant of ``rules`` (cups, capture) for
    :func:`search_compiled`'s ``transpositions``, kept between searches (see the module
    docstring): at most ``memory`` bytes (it starts small and doubles up to them, holding the
    old half besides while it doubles). Its ``positions``, ``replaced`` (in all), ``capacity``
    (entries) and ``bytes`` (allocated now) say what it holds; one search at a time uses it.

    Raises:
        InvalidRulesError: more than :data:`MAX_CUPS` cups, or ``memory`` below four entries.
    """
    if rules.cups > MAX_CUPS or memory < 4 * ENTRY_BYTES:
        raise InvalidRulesError(f"a transposition table takes at most {MAX_CUPS} cups and at least "
                                f"{4 * ENTRY_BYTES} bytes, got cups={rules.cups}, memory={memory}")
    return _proof_c.Transpositions(rules.cups, rules.every, memory // ENTRY_BYTES)


def search_compiled(rules: Rules, table: DenseTable | None, *, node_budget: int | None = None,
                    seconds: float | None = None, all_first_moves: bool = False, guess: int = 0,
                    memory: int = DEFAULT_MEMORY, sides: tuple[Side, Side] | None = None,
                    rows: bool = True, transpositions: Any = None) -> CompiledOutcome:
    """The compiled proof search of the start of ``rules``, or of the position ``sides`` (see
    the module docstring).

    Args:
        rules: the game (at most :data:`MAX_CUPS` cups, stock at most
            :data:`~dicemath.games.bohnduell.proof_format.MAX_COUNT`).
        table: an endgame table of the same cups and capture rule, or None.
        node_budget, seconds: the most positions to expand, wall seconds to search (None: no limit).
        all_first_moves: prove the exact value of every first move too.
        guess: the first null window of MTD(f).
        memory: the most bytes of the transposition table (at least :data:`ENTRY_BYTES` * 4;
            the table starts small and doubles up to it, holding the old half besides while it
            doubles). The certificate's rows come on top (16 to 40 bytes a row).
        sides: the position searched, ``(mover's side, other's side)`` (stock, then cups at
            distance 1..n, BOHN-1), each count at most ``MAX_COUNT``; None: the start of ``rules``.
        rows: False skips the certificate (its rows are empty): the bounds, the first moves and
            the effort only, within the budget (gathering the rows has none).
        transpositions: None (a table of ``memory`` bytes for this search alone), or a table
            of :func:`transpositions` kept between searches (``memory`` then unused; the
            outcome's ``positions`` are its entries, ``replaced`` this search's).

    Raises:
        InvalidRulesError: more than :data:`MAX_CUPS` cups, a stock above ``MAX_COUNT``, a
            table of another variant, or ``memory`` below four entries.
        ValueError: ``transpositions`` of another variant, or in use by another search.
        MemoryError: the certificate's rows did not fit in memory.
    """
    me, opp = initial_state(rules).mover_sides if sides is None else sides
    if rules.cups > MAX_CUPS or max(rules.stock, *me, *opp) > MAX_COUNT or not len(me) == len(opp) == rules.cups + 1:
        raise InvalidRulesError(f"the compiled proof search takes at most {MAX_CUPS} cups and {MAX_COUNT} beans, "
                                f"got cups={rules.cups}, stock={rules.stock}, sides={me}, {opp}")
    if table is not None and (table.cups != rules.cups or table.capture != rules.capture):
        raise InvalidRulesError(f"the endgame table has cups={table.cups}, capture={table.capture!r}; "
                                f"the game has cups={rules.cups}, capture={rules.capture!r}")
    if memory < 4 * ENTRY_BYTES:
        raise InvalidRulesError(f"the transposition table needs at least {4 * ENTRY_BYTES} bytes, got {memory}")
    arrays = None if table is None else (*table.index.kernel_arrays(), np.asarray(table.values))
    lower, upper, first_moves, nodes, positions, replaced, exhausted, body = _proof_c.prove(
        rules.cups, rules.every, bytes(me), bytes(opp), arrays, table.stock if table is not None else 0,
        -1 if node_budget is None else node_budget, -1.0 if seconds is None else seconds, all_first_moves,
        guess, memory // ENTRY_BYTES, rows, transpositions)
    return CompiledOutcome(lower, upper, first_moves, nodes, positions, replaced, exhausted,
                           sorted_rows(np.frombuffer(body, dtype=row_dtype(rules.cups)), rules.cups))


def sorted_rows(rows: np.ndarray, cups: int) -> np.ndarray:
    """``rows`` in the certificate's order: by kind, then the mover's side, then the other's."""
    keys = [rows["opp"][:, j] for j in range(cups, -1, -1)] + [rows["me"][:, j] for j in range(cups, -1, -1)]
    return rows[np.lexsort([*keys, rows["kind"]])]


def certificate(rules: Rules, outcome: CompiledOutcome, table_stock: int) -> Certificate:
    """The certificate of ``outcome``'s claims (what :meth:`Certificate.build` makes of the same rows)."""
    moves = sorted((decode_move(code), low, high) for code, low, high in outcome.first_moves)
    body = np.ascontiguousarray(outcome.rows)
    header = Header(rules.cups, rules.stock, rules.capture, outcome.lower, outcome.upper, table_stock, len(body),
                    hashlib.sha256(body.tobytes()).hexdigest(), tuple((str(m), a, b) for m, a, b in moves))
    return Certificate(header, body)
