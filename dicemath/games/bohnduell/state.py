"""BohnDuell states and moves: immutable, hashable, with text forms that round-trip.

Vocabulary (docs/rules.md section 5):

- A *side* is one player's ``(stock, c_1, ..., c_n)``: his stock and his cups indexed by
  the distance ``d`` from his pot (``d = 1`` next to the pot, BOHN-2). Sides are plain
  tuples, so the solvers can key on them cheaply; the rules that move beans between
  them are written once, in :mod:`~dicemath.games.bohnduell.sides`.
- A :class:`Move` is ``S<k>`` (sow ``k`` beans from the stock, BOHN-3), ``H<d>`` (harvest
  the cup at distance ``d``, BOHN-5) or ``P`` (pass, BOHN-6).
- A :class:`State` holds both sides, both pots, the player to move and the rules
  (:func:`initial_state` gives the start). Its text form is
  ``"<stock>:<c_1>,...,<c_n>:<pot>/<stock>:<cups>:<pot>/<mover>"`` for player A then
  player B, the mover ``A`` or ``B``, plus ``"/every"`` for that capture variant;
  :meth:`State.from_str` reads it back.

Passes are not part of the state: whether a player must pass depends only on his side
(BOHN-6: no stock and no cup holding exactly its distance), so two states with the
same beans and the same mover are the same state.

**Termination** (BOHN-6 always ends the game). Give every bean a *distance to its pot*:
``n + 1`` for a bean in its owner's stock (the stock lies beyond the far cup, BOHN-3),
``d`` for a bean in the cup at distance ``d``, and ``0`` for a bean in a pot. Let
``Phi`` be the sum over all beans (see :func:`potential`). Every move other than a pass
strictly decreases ``Phi``:

- sowing ``k >= 1`` beans moves each from distance ``n + 1`` to a cup at distance
  ``<= n`` (each bean gets closer by at least 1); a capture moves beans from cups into a
  pot (distance 0), which only decreases ``Phi`` further;
- harvesting the cup at distance ``d`` (holding ``d`` beans) moves each bean one step
  closer: ``d - 1`` beans to cups ``d - 1 .. 1`` and one to the pot.

A pass changes nothing, but it is only legal when the mover has no move while the
opponent has one (otherwise the game is over), so two passes never follow each other.
Hence ``Phi`` decreases by at least 1 in every two consecutive moves, ``Phi >= 0``, and a
game from a position with potential ``Phi`` lasts at most ``2 * Phi + 1`` moves. From the
start ``Phi = 2 * stock * (n + 1)``. The solvers use the same order: every successor of a
position has a smaller ``Phi``, or the same ``Phi`` after a pass.

Example:
    >>> p = initial_state(Rules(stock=5)).apply(Move.from_str("S4"))
    >>> str(p)
    '1:1,1,1,1:0/5:0,0,0,0:0/B'
    >>> [str(m) for m in p.legal_actions()]
    ['S1', 'S2', 'S3', 'S4']
    >>> p.apply(Move.from_str("S1")).pots   # B's last bean lands in an empty cup facing A's d=1
    (0, 1)
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass

from dicemath.core.errors import IllegalMoveError, InvalidRulesError, InvalidStateError
from dicemath.core.game import TERMINAL
from dicemath.games.bohnduell import sides
from dicemath.games.bohnduell.rules import STANDARD, Rules

Side = tuple[int, ...]
"""One player's ``(stock, c_1, ..., c_n)``; index ``d`` is the cup at distance ``d``."""

PLAYER_NAMES = ("A", "B")
"""Player 0 (A) sits "lower" and moves first (BOHN-7); player 1 is B."""

SOW, HARVEST, PASS = "sow", "harvest", "pass"


@dataclass(frozen=True, order=True)
class Move:
    """One move: ``Move("sow", k)``, ``Move("harvest", d)`` or ``Move("pass", 0)``.

    Moves sort harvests first (by distance), then the pass, then sows (by ``k``).

    Example:
        >>> Move.from_str("s3"), str(Move(HARVEST, 2)), Move.from_str("P")
        (Move(kind='sow', count=3), 'H2', Move(kind='pass', count=0))
    """

    kind: str
    count: int = 0

    def __post_init__(self) -> None:
        if self.kind not in (SOW, HARVEST, PASS):
            raise IllegalMoveError(f"move kind must be sow, harvest or pass, got {self.kind!r}")
        if self.kind == PASS and self.count != 0:
            raise IllegalMoveError(f"a pass has count 0, got {self.count}")
        if self.kind != PASS and (not isinstance(self.count, int) or self.count < 1):
            raise IllegalMoveError(f"a {self.kind} needs a count >= 1, got {self.count!r}")

    def __str__(self) -> str:
        return "P" if self.kind == PASS else f"{'S' if self.kind == SOW else 'H'}{self.count}"

    @classmethod
    def from_str(cls, text: str) -> Move:
        """Parse ``"S3"``, ``"H2"`` or ``"P"`` (case-insensitive).

        Raises:
            IllegalMoveError: text that is not a move.
        """
        word = text.strip().upper()
        if word in ("P", "PASS"):
            return cls(PASS, 0)
        if len(word) >= 2 and word[0] in "SH" and word[1:].isdigit():
            return cls(SOW if word[0] == "S" else HARVEST, int(word[1:]))
        raise IllegalMoveError(f"cannot read move {text!r}: expected S<k>, H<d> or P")


PASS_MOVE = Move(PASS, 0)


# --- the rules on sides, as the engine and the Python solvers use them ---------------------

def side_moves(side: Side) -> list[Move]:
    """The sows and harvests open to the owner of ``side``, sorted (harvests by distance,
    then sows by size; no pass): :func:`~dicemath.games.bohnduell.sides.can_harvest`
    (BOHN-5) and :func:`~dicemath.games.bohnduell.sides.sow_limit` (BOHN-3)."""
    moves = [Move(HARVEST, d) for d in range(1, len(side)) if sides.can_harvest(side, d)]
    return moves + [Move(SOW, k) for k in range(1, sides.sow_limit(side) + 1)]


def play_side(me: Side, opp: Side, move: Move, every: bool = False) -> tuple[int, Side, Side]:
    """Apply a sow or harvest of the owner of ``me``: ``(pot gain, new me, new opp)``.

    The rules are :func:`~dicemath.games.bohnduell.sides.sow` (BOHN-3, BOHN-4) and
    :func:`~dicemath.games.bohnduell.sides.harvest` (BOHN-5); the move is assumed legal.
    """
    new_me = list(me)
    if move.kind == HARVEST:
        return sides.harvest(me, move.count, new_me), tuple(new_me), opp
    new_opp = list(opp)
    gain = sides.sow(me, opp, move.count, every, new_me, new_opp)
    return gain, tuple(new_me), tuple(new_opp)


# --- states ------------------------------------------------------------------------------

@dataclass(frozen=True)
class State:
    """A BohnDuell state (immutable, hashable). Implements :class:`dicemath.core.game.GameState`.

    Attributes:
        rules: the variant (number of cups, stated stock, capture rule).
        stocks: beans left in each player's stock, ``(A, B)``.
        cups: each player's cups, indexed by distance - 1 (nearest the pot first).
        pots: beans in each player's pot.
        to_move: 0 (A, moves first, BOHN-7) or 1 (B).

    Raises:
        InvalidStateError: negative or non-integer counts, a row of the wrong length, a side
            holding more beans than the stated stock, or a bean total other than
            ``2 * rules.stock`` (beans are conserved, BOHN-1).
    """

    rules: Rules
    stocks: tuple[int, int]
    cups: tuple[tuple[int, ...], tuple[int, ...]]
    pots: tuple[int, int]
    to_move: int = 0

    def __post_init__(self) -> None:
        n, stated = self.rules.cups, self.rules.stock
        object.__setattr__(self, "stocks", tuple(self.stocks))
        object.__setattr__(self, "pots", tuple(self.pots))
        object.__setattr__(self, "cups", tuple(tuple(row) for row in self.cups))
        if len(self.stocks) != 2 or len(self.pots) != 2 or len(self.cups) != 2:
            raise InvalidStateError("a position has exactly two stocks, two rows and two pots")
        for name, values in (("stock", self.stocks), ("pot", self.pots),
                             ("cup", self.cups[0] + self.cups[1])):
            for value in values:
                if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                    raise InvalidStateError(f"every {name} count must be a whole number >= 0, got {value!r}")
        for player in (0, 1):
            if len(self.cups[player]) != n:
                raise InvalidStateError(
                    f"player {PLAYER_NAMES[player]} has {len(self.cups[player])} cups, the rules say {n}")
            own = self.stocks[player] + sum(self.cups[player])
            if own > stated:
                raise InvalidStateError(
                    f"player {PLAYER_NAMES[player]} has {own} beans in stock and cups, more than "
                    f"the stated stock {stated}")
        total = sum(self.stocks) + sum(self.pots) + sum(self.cups[0]) + sum(self.cups[1])
        if total != 2 * stated:
            raise InvalidStateError(
                f"beans are not conserved: the position holds {total} beans, the stated stock "
                f"{stated} per player makes {2 * stated}")
        if self.to_move not in (0, 1):
            raise InvalidStateError(f"to_move must be 0 (A) or 1 (B), got {self.to_move!r}")

    # sides -------------------------------------------------------------------------------
    def side(self, player: int) -> Side:
        """``(stock, c_1, ..., c_n)`` of ``player``."""
        return (self.stocks[player],) + self.cups[player]

    @classmethod
    def from_sides(cls, rules: Rules, pair: tuple[Side, Side], pots: tuple[int, int],
                   to_move: int = 0) -> State:
        """Build a state from two sides ``(stock, c_1, ..., c_n)``."""
        return cls(rules, (pair[0][0], pair[1][0]), (tuple(pair[0][1:]), tuple(pair[1][1:])),
                   pots, to_move)

    @property
    def mover_sides(self) -> tuple[Side, Side]:
        """``(side of the mover, side of the other)``: the key the solvers use."""
        return self.side(self.to_move), self.side(1 - self.to_move)

    def potential(self) -> int:
        """``Phi``: the sum of every bean's distance to its pot (see the module docstring)."""
        return sides.potential(self.side(0)) + sides.potential(self.side(1))

    # game protocol -----------------------------------------------------------------------
    def is_over(self) -> bool:
        """True when neither player can move (BOHN-6)."""
        return not sides.can_move(self.side(0)) and not sides.can_move(self.side(1))

    def current_player(self) -> int:
        """0 or 1, or :data:`~dicemath.core.game.TERMINAL` when the game is over."""
        return TERMINAL if self.is_over() else self.to_move

    def legal_actions(self) -> list[Move]:
        """Sorted legal moves: harvests, sows, or just the pass (BOHN-3, -5, -6)."""
        if self.is_over():
            return []
        moves = side_moves(self.side(self.to_move))
        return moves if moves else [PASS_MOVE]

    def chance_outcomes(self) -> list:
        """BohnDuell has no chance: always empty."""
        return []

    def apply(self, move: Hashable) -> State:
        """The position after ``move`` (a :class:`Move` or its text).

        Raises:
            IllegalMoveError: the move is not legal here.
        """
        if isinstance(move, str):
            move = Move.from_str(move)
        if not isinstance(move, Move) or move not in self.legal_actions():
            raise IllegalMoveError(
                f"{move} is not legal in {self}; legal: {[str(m) for m in self.legal_actions()]}")
        return self._play(move)[1]

    def action_text(self, move: Move) -> str:
        """The text of a move: ``"S3"``, ``"H2"`` or ``"P"``."""
        return str(move)

    def parse_action(self, text: str) -> Move:
        """Read a move from its text (see :meth:`Move.from_str`); legality is checked by
        :meth:`apply`.

        Raises:
            IllegalMoveError: text that is not a move.
        """
        return Move.from_str(text)

    def _play(self, move: Move) -> tuple[int, State]:
        """``(gain of the mover, next position)`` without the legality check."""
        me, other = self.to_move, 1 - self.to_move
        if move.kind == PASS:
            return 0, State(self.rules, self.stocks, self.cups, self.pots, other)
        gain, mine, theirs = play_side(self.side(me), self.side(other), move, self.rules.every)
        pair = (mine, theirs) if me == 0 else (theirs, mine)
        pots = list(self.pots)
        pots[me] += gain
        return gain, State.from_sides(self.rules, pair, (pots[0], pots[1]), other)

    def gain(self, move: Move) -> int:
        """Beans ``move`` puts into the mover's pot at once (captures, or 1 for a harvest)."""
        return self._play(move)[0]

    def returns(self) -> list[int]:
        """Final pot difference for each player, ``[A - B, B - A]`` (BOHN-6)."""
        difference = self.pots[0] - self.pots[1]
        return [difference, -difference]

    def winner(self) -> int | None:
        """0 or 1 for the player with more beans in his pot, None for a draw."""
        if self.pots[0] == self.pots[1]:
            return None
        return 0 if self.pots[0] > self.pots[1] else 1

    # text --------------------------------------------------------------------------------
    def __str__(self) -> str:
        sides = [f"{self.stocks[p]}:{','.join(map(str, self.cups[p]))}:{self.pots[p]}" for p in (0, 1)]
        text = f"{sides[0]}/{sides[1]}/{PLAYER_NAMES[self.to_move]}"
        return text + "/every" if self.rules.every else text

    @classmethod
    def from_str(cls, text: str, rules: Rules | None = None) -> State:
        """Read the text form of :meth:`__str__`.

        Args:
            text: e.g. ``"38:0,0,1,1:0/40:0,0,0,0:0/B"``; a trailing ``"/every"`` selects
                that capture variant.
            rules: the rules to check against; by default the number of cups comes from
                the text and the stated stock is half the bean total.

        Raises:
            InvalidStateError: unreadable text, or a position the rules cannot hold.

        Example:
            >>> p = State.from_str("0:0,0,0,0:2/0:1,0,0,0:3/B")
            >>> p.rules.stock, p.legal_actions()
            (3, [Move(kind='harvest', count=1)])
            >>> str(p.apply("H1")), p.apply("H1").is_over()
            ('0:0,0,0,0:2/0:0,0,0,0:4/A', True)
        """
        parts = text.strip().split("/")
        capture = "last"
        if len(parts) == 4 and parts[3].strip().lower() in ("every", "last"):
            capture = parts.pop().strip().lower()
        if len(parts) != 3 or parts[2].strip().upper() not in PLAYER_NAMES:
            raise InvalidStateError(
                f"cannot read position {text!r}: expected 'stock:c1,...,cn:pot/stock:c1,...,cn:pot/A|B'")
        values = []
        for chunk in parts[:2]:
            fields = chunk.strip().split(":")
            try:
                stock, cups, pot = int(fields[0]), tuple(int(c) for c in fields[1].split(",")), int(fields[2])
            except (ValueError, IndexError):
                raise InvalidStateError(f"cannot read side {chunk!r} of position {text!r}") from None
            if len(fields) != 3:
                raise InvalidStateError(f"cannot read side {chunk!r} of position {text!r}")
            values.append((stock, cups, pot))
        to_move = PLAYER_NAMES.index(parts[2].strip().upper())
        if rules is None:
            total = sum(s + sum(c) + p for s, c, p in values)
            if total % 2:
                raise InvalidStateError(f"position {text!r} holds an odd number of beans ({total})")
            if len(values[0][1]) != len(values[1][1]):
                raise InvalidStateError(f"the rows of {text!r} have different lengths")
            try:
                rules = Rules(cups=len(values[0][1]), stock=total // 2, capture=capture)
            except InvalidRulesError as error:
                raise InvalidStateError(f"position {text!r}: {error}") from None
        elif capture != rules.capture and len(text.strip().split("/")) == 4:
            raise InvalidStateError(f"position {text!r} says capture={capture!r}, rules say {rules.capture!r}")
        return cls(rules, (values[0][0], values[1][0]), (values[0][1], values[1][1]),
                   (values[0][2], values[1][2]), to_move)

    def diagram(self) -> str:
        """A board diagram: B's row on top (pot left), A's row below (pot right).

        The columns line up facing cups: A's cup at distance ``d`` sits under B's cup at
        distance ``n + 1 - d`` (BOHN-2).

        Example:
            >>> print(initial_state(Rules(stock=9)).apply("S3").diagram())
                     B pot |  B1  B2  B3  B4 | B stock
                B:       0 |   0   0   0   0 |       9
                A:       6 |   1   1   1   0 |       0
                   A stock |  A4  A3  A2  A1 | A pot
                A 0 - 0 B, B to move
        """
        n = self.rules.cups
        top = " ".join(f"{'B' + str(d):>3}" for d in range(1, n + 1))
        bottom = " ".join(f"{'A' + str(d):>3}" for d in range(n, 0, -1))
        row_b = " ".join(f"{c:>3}" for c in self.cups[1])
        row_a = " ".join(f"{c:>3}" for c in reversed(self.cups[0]))
        status = ("game over" if self.is_over()
                  else f"{PLAYER_NAMES[self.to_move]} to move")
        lines = [f"         B pot | {top} | B stock",
                 f"    B: {self.pots[1]:>7} | {row_b} | {self.stocks[1]:>7}",
                 f"    A: {self.stocks[0]:>7} | {row_a} | {self.pots[0]:>7}",
                 f"       A stock | {bottom} | A pot",
                 f"    A {self.pots[0]} - {self.pots[1]} B, {status}"]
        return "\n".join(lines)

    def _repr_markdown_(self) -> str:
        return f"`{self}`\n\n```\n{self.diagram()}\n```"

    def _repr_svg_(self) -> str:
        from dicemath.core.svg import picture

        return picture(self)


def initial_state(rules: Rules = STANDARD) -> State:
    """The start: empty cups and pots, full stocks, player A (0) to move.

    BOHN-1: each player starts with ``rules.stock`` beans in his stock; BOHN-7: player A
    (index 0) is the one who sits "lower" and moves first.

    Example:
        >>> print(initial_state(Rules(stock=3)))
        3:0,0,0,0:0/3:0,0,0,0:0/A
    """
    empty = (0,) * rules.cups
    return State(rules, (rules.stock, rules.stock), (empty, empty), (0, 0), 0)


def parse_position(text: str, cups: int = 4, stock: int = 40, capture: str = "last") -> State:
    """``"start"`` (the start of the variant ``cups``, ``stock``, ``capture``, BOHN-1..7) or
    the text form of a state (:meth:`State.from_str`), read with ``capture`` when the text
    does not name it.

    Raises:
        InvalidStateError: text that is neither.
    """
    if text.strip().lower() == "start":
        return initial_state(Rules(cups=cups, stock=stock, capture=capture))
    position = State.from_str(text)
    if capture == "every" and not position.rules.every:
        position = State.from_str(text + "/every")
    return position
