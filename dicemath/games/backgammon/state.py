"""A money game of Backgammon with the doubling cube as immutable states (BG-1..BG-8).

:class:`State` speaks the shared vocabulary of :mod:`dicemath.core.game`. A game goes
through these *phases*:

* ``opening`` (chance, BG-2): each player throws one die until they differ; the 30
  ordered pairs of different dice ``(X's die, O's die)`` are equally likely, and the owner
  of the higher die plays both numbers at once (``play``);
* ``may-double`` (the player on roll decides, BG-8): ``"double"`` or ``"roll"``. This
  phase exists only when he may double: the cube is centred or his, and below 64;
* ``doubled`` (his opponent decides): ``"take"`` (the cube doubles and the taker owns it;
  the doubler rolls) or ``"pass"`` (the game ends, the doubler wins the current stake);
* ``roll`` (chance): the 21 rolls of two dice with weights out of 36;
* ``play`` (the player on roll decides): a :class:`~dicemath.games.backgammon.moves.Move`
  of the dice (BG-3..BG-6); then the opponent is on roll (``may-double`` or ``roll``);
* ``over`` and ``passed``: the game has ended, by bearing off the last checker (BG-7:
  single, gammon or backgammon, times the cube) or by a passed double.

A *cubeless* game (``initial_state(rules, cube=False)``, cube value None) has no cube
phases: every game is worth its BG-7 points, as the evaluator's cubeless equities, self-play
and the analysis of whole games count it.

Players are 0 (X) and 1 (O); returns are points won, ``+p`` for the winner and ``-p`` for
the loser. The text form is ``"<Position ID> <X|O> <phase> cube <cube>"``: the Position ID
of GNU Backgammon, the player on roll, the phase (``play 6-5`` with the dice), the cube
(``1`` centred, ``2X`` = 2 owned by X, ``none`` in a cubeless game), and ``playtive`` for
that rule set; :meth:`State.from_str` reads it back.

Example:
    >>> start = initial_state()
    >>> str(start)
    '4HPwATDgc/ABMA X opening cube 1'
    >>> state = start.apply((5, 6))            # O's die is higher: O plays 6-5
    >>> str(state), state.current_player()
    ('4HPwATDgc/ABMA O play 6-5 cube 1', 1)
    >>> state = state.apply(state.parse_action("24/13"))
    >>> str(state), state.legal_actions()
    ('4HPwAyDgc/ABMA X may-double cube 1', ['double', 'roll'])
    >>> str(state.apply("double").apply("take"))
    '4HPwAyDgc/ABMA X roll cube 2O'
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any
from dataclasses import dataclass, field, replace
from fractions import Fraction

from dicemath.core.dice import ordered_outcomes, two_dice_rolls
from dicemath.core.errors import DicemathError, IllegalMoveError, InvalidDiceError, InvalidStateError
from dicemath.core.game import CHANCE, TERMINAL
from dicemath.games.backgammon.cube_rules import check_cube, may_double
from dicemath.games.backgammon.moves import Move, apply_notation, check_roll, legal_moves
from dicemath.games.backgammon.position import Position, game_result
from dicemath.games.backgammon.rules import PRESETS, STANDARD, Rules

PLAYER_NAMES = ("X", "O")
"""Player 0 is X, player 1 is O (X moves from his 24-point down, as in the diagrams)."""

OPENING, MAY_DOUBLE, DOUBLED, ROLL, PLAY, OVER, PASSED = \
    "opening", "may-double", "doubled", "roll", "play", "over", "passed"
PHASES = (OPENING, MAY_DOUBLE, DOUBLED, ROLL, PLAY, OVER, PASSED)
"""The phases of a game (see the module docstring)."""

DOUBLE, ROLL_ON, TAKE, PASS = "double", "roll", "take", "pass"
"""The cube actions: before rolling ``"double"`` or ``"roll"``; after a double ``"take"`` or ``"pass"``."""

NO_CUBE = "none"
"""The cube in the text form of a cubeless game."""

OPENING_THROWS = tuple((x, o) for x, o in ordered_outcomes(2) if x != o)
"""The 30 opening throws ``(X's die, O's die)`` (BG-2: equal dice are thrown again)."""


@dataclass(frozen=True)
class State:
    """A state of a money game (immutable, hashable); implements :class:`dicemath.core.game.GameState`.

    Attributes:
        position: the checkers, with the player on roll (``position.player``).
        rules: STANDARD or PLAYTIVE.
        phase: one of :data:`PHASES`.
        dice: ``(high, low)`` in the ``play`` phase, else None.
        cube_value: 1, 2, 4, ..., 64 (BG-8), or None in a cubeless game.
        cube_owner: None (centred, or no cube), 0 (X) or 1 (O).

    Raises:
        InvalidStateError: a phase the position, dice or cube do not allow (a centred cube
            above 1, ``may-double`` or ``doubled`` when he may not double, ``over`` while
            both sides have checkers, an opening away from the starting position).
        InvalidDiceError: bad dice.
    """

    position: Position
    rules: Rules = STANDARD
    phase: str = OPENING
    dice: tuple[int, int] | None = None
    cube_value: int | None = 1
    cube_owner: int | None = None
    _moves: tuple[Move, ...] | None = field(default=None, init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if self.phase not in PHASES:
            raise InvalidStateError(f"phase must be one of {PHASES}, got {self.phase!r}")
        if self.cube_owner not in (None, 0, 1):
            raise InvalidStateError(f"cube owner must be None (centred), 0 or 1, got {self.cube_owner!r}")
        if self.cube_value is not None:
            check_cube(self.cube_value, self.relative_owner)
        elif self.cube_owner is not None:
            raise InvalidStateError(f"a cubeless game has no cube owner, got {self.cube_owner!r}")
        if (self.phase == PLAY) != (self.dice is not None):
            raise InvalidStateError(f"dice belong to the play phase, got {self.dice!r} in phase {self.phase!r}")
        if self.dice is not None:
            object.__setattr__(self, "dice", check_roll(self.dice))
        if (self.phase == OVER) != self.position.is_over():
            raise InvalidStateError(f"phase {self.phase!r} does not fit {self.position.position_id()}: the game is "
                                    f"{'over' if self.position.is_over() else 'not over'}")
        if self.phase in (MAY_DOUBLE, DOUBLED) and not self._may_double(self.position.player):
            raise InvalidStateError(f"phase {self.phase!r}, but the player on roll may not double a cube of "
                                    f"{self.cube_value} owned by {self.relative_owner} (BG-8)")
        if self.phase == OPENING and (self.position != Position.initial(0) or self.cube_value not in (1, None)):
            raise InvalidStateError("the opening throw comes at the starting position, player X, cube centred")

    # the cube -------------------------------------------------------------------------
    @property
    def relative_owner(self) -> str:
        """The cube's owner seen by the player on roll: ``"centred"``, ``"on_roll"`` or ``"opponent"``."""
        return _relative_owner(self.cube_owner, self.position.player)

    def _may_double(self, player: int) -> bool:
        """Whether ``player``, on roll, may double (BG-8; never in a cubeless game)."""
        return self.cube_value is not None and may_double(self.cube_value, _relative_owner(self.cube_owner, player))

    def _stake(self) -> int:
        """The cube's value in a phase that needs a cube (a double, a pass).

        Raises:
            InvalidStateError: a cubeless game (it has no cube action).
        """
        if self.cube_value is None:
            raise InvalidStateError(f"phase {self.phase!r} needs a cube; the game is cubeless")
        return self.cube_value

    def _roll(self) -> tuple[int, int]:
        """The dice of the play phase.

        Raises:
            InvalidStateError: no dice (a state outside the play phase).
        """
        if self.dice is None:
            raise InvalidStateError(f"phase {self.phase!r} has no dice")
        return self.dice

    def _turn(self, position: Position) -> State:
        """The state where ``position.player`` is about to roll (or the game is over)."""
        if position.is_over():
            phase = OVER
        elif self._may_double(position.player):
            phase = MAY_DOUBLE
        else:
            phase = ROLL
        return State(position, self.rules, phase, None, self.cube_value, self.cube_owner)

    # game protocol --------------------------------------------------------------------
    def current_player(self) -> int:
        """The deciding player (0 or 1), :data:`~dicemath.core.game.CHANCE` or :data:`~dicemath.core.game.TERMINAL`."""
        if self.phase in (OVER, PASSED):
            return TERMINAL
        if self.phase in (OPENING, ROLL):
            return CHANCE
        if self.phase == DOUBLED:
            return 1 - self.position.player
        return self.position.player

    def moves(self) -> tuple[Move, ...]:
        """The legal plays of the dice, sorted (``play`` phase; empty in the others). Cached."""
        found = self._moves
        if found is None:
            found = tuple(sorted(legal_moves(self.rules, self.position, self._roll()))) if self.phase == PLAY else ()
            object.__setattr__(self, "_moves", found)
        return found

    def legal_actions(self) -> list:
        """Sorted actions: ``["double", "roll"]``, ``["pass", "take"]``, or the plays
        (:class:`~dicemath.games.backgammon.moves.Move`, sorted); empty at chance and terminal states."""
        if self.phase == MAY_DOUBLE:
            return [DOUBLE, ROLL_ON]
        if self.phase == DOUBLED:
            return [PASS, TAKE]
        return list(self.moves())

    def chance_outcomes(self) -> list[tuple[tuple[int, int], Fraction]]:
        """The opening throws (1/30 each, BG-2) or the 21 rolls ``(high, low)`` (weights / 36)."""
        if self.phase == OPENING:
            return [(throw, Fraction(1, len(OPENING_THROWS))) for throw in OPENING_THROWS]
        if self.phase == ROLL:
            return [(roll, Fraction(weight, 36)) for roll, weight in two_dice_rolls()]
        return []

    def apply(self, action: Hashable) -> State:
        """The state after ``action`` (an action, a chance outcome, or their text).

        Raises:
            IllegalMoveError: the game is over, or the action is not legal here.
            InvalidDiceError: a chance outcome that cannot be (an equal opening throw, a die of 7).
        """
        player = self.current_player()
        if player == TERMINAL:
            raise IllegalMoveError(f"the game is over in {self}")
        if isinstance(action, str):
            action = self.parse_action(action)
        if self.phase == OPENING:
            x, o = _opening_throw(action)
            starter = 0 if x > o else 1
            return State(Position.initial(starter), self.rules, PLAY, (max(x, o), min(x, o)), self.cube_value)
        if self.phase == ROLL:
            return replace(self, phase=PLAY, dice=check_roll(action))
        if action not in (self.moves() if self.phase == PLAY else self.legal_actions()):
            shown = [self.action_text(a) for a in self.legal_actions()]
            raise IllegalMoveError(f"{action!r} is not legal in {self}; legal: {shown}")
        if action == DOUBLE:
            return replace(self, phase=DOUBLED)
        if action == ROLL_ON:
            return replace(self, phase=ROLL)
        if action == PASS:
            return replace(self, phase=PASSED)
        if action == TAKE:
            return State(self.position, self.rules, ROLL, None, 2 * self._stake(), 1 - self.position.player)
        if not isinstance(action, Move):
            raise IllegalMoveError(f"{action!r} is not a play")
        return self._turn(action.after.swap())

    def returns(self) -> list[int]:
        """Points won by each player at the end (BG-7 times the cube, if any; a passed
        double wins the current stake for the doubler); 0 while the game goes on."""
        values = [0, 0]
        if self.phase == PASSED:
            winner, points = self.position.player, self._stake()
        elif self.phase == OVER:
            result = game_result(self.position, self.cube_value or 1)
            if result is None:
                raise InvalidStateError(f"phase {self.phase!r}, but the game at {self.position.position_id()} "
                                        "is not over")
            winner, points = result.winner, result.points
        else:
            return values
        values[winner], values[1 - winner] = points, -points
        return values

    # text -----------------------------------------------------------------------------
    def action_text(self, action: Hashable) -> str:
        """An action or chance outcome as text: a play in the usual notation (``"24/18 13/11"``,
        ``"(no move)"``), a cube action, a roll ``"6-5"`` or an opening throw ``"5-6"``
        (X's die first)."""
        if isinstance(action, Move):
            return str(action)
        if isinstance(action, tuple):
            return f"{action[0]}-{action[1]}"
        return str(action)

    def parse_action(self, text: str) -> Hashable:
        """Read an action or chance outcome of this state from its text (see :meth:`action_text`).

        A play may be written in any form that reaches the same position (``"24/13"`` or
        ``"24/18 18/13"``, steps applied from left to right); its legality is checked here.

        Raises:
            IllegalMoveError: text that is not an action of this state.
            InvalidDiceError: dice text with a die outside 1..6.
        """
        word = text.strip().lower()
        if self.phase in (OPENING, ROLL):
            first, _, second = word.partition("-")
            if not (first.isdigit() and second.isdigit()):
                raise IllegalMoveError(f"cannot read dice {text!r}: expected two dice like '6-5'")
            dice = (int(first), int(second))
            return _opening_throw(dice) if self.phase == OPENING else check_roll(dice)
        if self.phase in (MAY_DOUBLE, DOUBLED):
            if word not in self.legal_actions():
                raise IllegalMoveError(f"{text!r} is not a cube action here; legal: {self.legal_actions()}")
            return word
        if self.phase != PLAY:
            raise IllegalMoveError(f"the game is over in {self}: no action")
        after = self.position if word in ("", "(no move)") else apply_notation(self.position, word)
        for move in self.moves():
            if move.after == after:
                return move
        shown = ", ".join(str(move) for move in self.moves()[:8]) + (", ..." if len(self.moves()) > 8 else "")
        raise IllegalMoveError(f"{text!r} is not a legal play of {self._roll()[0]}-{self._roll()[1]} in {self}; "
                               f"legal: {shown}")

    def __str__(self) -> str:
        what = f"{PLAY} {self._roll()[0]}-{self._roll()[1]}" if self.phase == PLAY else self.phase
        if self.cube_value is None:
            cube = NO_CUBE
        else:
            cube = f"{self.cube_value}{'' if self.cube_owner is None else PLAYER_NAMES[self.cube_owner]}"
        text = f"{self.position.position_id()} {PLAYER_NAMES[self.position.player]} {what} cube {cube}"
        return text + " playtive" if self.rules.playtive else text

    @classmethod
    def from_str(cls, text: str) -> State:
        """Read the text form of :meth:`__str__`.

        Raises:
            InvalidStateError: unreadable text or a state that cannot be.

        Example:
            >>> state = State.from_str("4HPwATDgc/ABMA O play 6-5 cube 1 playtive")
            >>> plays = [state.action_text(m) for m in state.legal_actions()]
            >>> len(plays), "24/18 18/13" in plays        # 24/13 would be a sixth checker (BG-4)
            (6, False)
        """
        words = text.split()
        rules = STANDARD
        if words and words[-1] in PRESETS:
            rules = PRESETS[words.pop()]
        if len(words) == 6 and words[2] == PLAY:
            dice_text = words.pop(3)
        else:
            dice_text = None
        if len(words) != 5 or words[1] not in PLAYER_NAMES or words[3] != "cube":
            raise InvalidStateError(f"cannot read state {text!r}: expected '<Position ID> <X|O> <phase> cube <cube>'")
        position_id, player, phase, _, cube = words
        try:
            position = Position.from_position_id(position_id, PLAYER_NAMES.index(player))
            dice = None
            if dice_text is not None:
                first, _, second = dice_text.partition("-")
                dice = check_roll((int(first), int(second)))
            if cube == NO_CUBE:
                return cls(position, rules, phase, dice, None)
            value = cube.rstrip("XO")
            owner = PLAYER_NAMES.index(cube[-1]) if cube[-1] in PLAYER_NAMES else None
            return cls(position, rules, phase, dice, int(value), owner)
        except (ValueError, DicemathError) as error:
            raise InvalidStateError(f"cannot read state {text!r}: {error}") from None

    def _repr_markdown_(self) -> str:
        from dicemath.games.backgammon.position import diagram

        return f"`{self}`\n\n```\n{diagram(self.position)}\n```"

    def _repr_svg_(self) -> str:
        from dicemath.core.svg import picture

        return picture(self)


def _relative_owner(owner: int | None, player: int) -> str:
    return "centred" if owner is None else "on_roll" if owner == player else "opponent"


def absolute_owner(relative: str, player: int) -> int | None:
    """The cube's owner as a player (None: centred) from his name seen by ``player`` on roll
    (``"centred"``, ``"on_roll"`` or ``"opponent"``, as :func:`~.cube.check_cube` checks it).

    >>> absolute_owner("opponent", 0), absolute_owner("centred", 1)
    (1, None)
    """
    return {"centred": None, "on_roll": player, "opponent": 1 - player}[relative]


def _opening_throw(throw: Any) -> tuple[int, int]:   # any input: checked here
    """An opening throw ``(X's die, O's die)``, checked (BG-2: two different dice).

    Raises:
        InvalidDiceError: not two different dice 1..6.
    """
    try:
        x, o = (int(d) for d in throw)
    except (TypeError, ValueError):
        raise InvalidDiceError(f"an opening throw is one die for X and one for O, got {throw!r}") from None
    if x == o or not (1 <= x <= 6 and 1 <= o <= 6):
        raise InvalidDiceError(f"an opening throw needs two different dice 1..6 (BG-2), got {throw!r}")
    return x, o


def initial_state(rules: Rules = STANDARD, *, cube: bool = True) -> State:
    """The start of a game: the opening throw comes next (BG-1, BG-2).

    Args:
        rules: STANDARD or PLAYTIVE.
        cube: True for a money game, the cube centred at 1 (BG-8); False for a cubeless game.

    >>> initial_state().current_player() == CHANCE
    True
    >>> str(initial_state(cube=False))
    '4HPwATDgc/ABMA X opening cube none'
    """
    return State(Position.initial(0), rules, cube_value=1 if cube else None)

