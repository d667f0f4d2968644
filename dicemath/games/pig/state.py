"""Pig states: immutable, hashable, with a text form that round-trips.

Vocabulary (docs/rules.md section 6, :mod:`dicemath.core.game`):

- A *decision* state: the player to move chooses ``"roll"`` or ``"hold"`` (PIG-4, PIG-5);
  at turn total 0 only ``"roll"`` (PIG-2). ``legal_actions()`` is sorted: ``("hold",
  "roll")`` or ``("roll",)``.
- A *chance* state (``rolling``): the die is in the air; its outcomes are the faces
  ``1..6``, each with probability exactly ``1/6``. A 1 loses the turn total and passes the
  turn (PIG-3); any other face adds to the turn total (PIG-4).
- A *terminal* state: a hold reached the goal (PIG-6); the winner's score is at least the
  goal, and the winner is the player "to move" in it.

Text form (:meth:`State.__str__`, read back by :meth:`State.from_str`)::

    <to move>:<score of player 0>-<score of player 1> t<turn total> <phase>[ goal <goal>]

``<phase>`` is ``choose`` (a decision), ``rolling`` (a chance state) or ``won`` (the game
is over, won by ``<to move>``); `` goal <goal>`` is written only for a goal other than 100.
``"1:35-62 t12 choose"`` reads "player 1 to move, player 0 has 35 and player 1 has 62,
turn total 12, roll or hold?".

Scores and turn totals of 1 cannot happen (only faces 2..6 count, PIG-4) and are refused.

Example:
    >>> state = initial_state().apply("roll").apply(5)
    >>> str(state), state.legal_actions()
    ('0:0-0 t5 choose', ('hold', 'roll'))
    >>> str(state.apply("hold")), str(state.apply("roll").apply(1))
    ('1:5-0 t0 choose', '1:0-0 t0 choose')
"""

from __future__ import annotations

import re
from collections.abc import Hashable
from dataclasses import dataclass
from fractions import Fraction

from dicemath.core.errors import IllegalMoveError, InvalidRulesError, InvalidStateError
from dicemath.core.game import CHANCE, TERMINAL
from dicemath.games.pig.rules import FACES, STANDARD, Rules

ROLL, HOLD = "roll", "hold"
"""The two actions of a decision (PIG-4, PIG-5), as text."""

PHASES = ("choose", "rolling", "won")
"""The phases of the text form: a decision, a chance state, a finished game."""

PLAYER_NAMES = ("player 0", "player 1")
"""Player 0 starts (PIG-7)."""

FACE_PROBABILITY = Fraction(1, FACES)
"""The probability of each face of the die."""

_TEXT = re.compile(r"^\s*([01])\s*:\s*(\d+)\s*-\s*(\d+)\s+t(\d+)\s+(choose|rolling|won)(?:\s+goal\s+(\d+))?\s*$",
                   re.IGNORECASE)


def _whole(value: object, name: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < 0:
        raise InvalidStateError(f"{name} must be a whole number >= 0, got {value!r}")
    return value


@dataclass(frozen=True)
class State:
    """A Pig state (immutable, hashable). Implements :class:`dicemath.core.game.GameState`.

    Attributes:
        rules: the variant (the goal, PIG-1).
        scores: the banked scores ``(player 0, player 1)``.
        to_move: the player whose turn it is (the winner, once the game is over).
        turn_total: the points of this turn not yet banked (PIG-2..PIG-4).
        rolling: True at a chance state: the die is rolling.

    Raises:
        InvalidStateError: a state the rules cannot produce: a negative count, a score or
            turn total of 1, a score at the goal while the game goes on, two winners, a
            finished game with a turn total or a rolling die.
    """

    rules: Rules
    scores: tuple[int, int]
    to_move: int = 0
    turn_total: int = 0
    rolling: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "scores", tuple(self.scores))
        if len(self.scores) != 2:
            raise InvalidStateError(f"Pig has two scores, got {self.scores!r}")
        for player, score in enumerate(self.scores):
            if _whole(score, f"the score of player {player}") == 1:
                raise InvalidStateError("a score of 1 cannot happen: only faces 2..6 count (PIG-4)")
        if _whole(self.turn_total, "the turn total") == 1:
            raise InvalidStateError("a turn total of 1 cannot happen: a 1 loses the turn (PIG-3)")
        if self.to_move not in (0, 1) or isinstance(self.to_move, bool):
            raise InvalidStateError(f"to_move must be 0 or 1, got {self.to_move!r}")
        if not isinstance(self.rolling, bool):
            raise InvalidStateError(f"rolling must be True or False, got {self.rolling!r}")
        goal = self.rules.goal
        reached = [p for p in (0, 1) if self.scores[p] >= goal]
        if len(reached) == 2:
            raise InvalidStateError(f"both scores {self.scores} reach the goal {goal}: only one player can win")
        if reached:
            if reached[0] != self.to_move:
                raise InvalidStateError(f"player {reached[0]} has won (score {self.scores[reached[0]]}, goal "
                                        f"{goal}); a finished game names the winner as the player to move")
            if self.turn_total or self.rolling:
                raise InvalidStateError("a finished game has no turn total and no rolling die (PIG-6)")

    # game protocol -----------------------------------------------------------------------
    def is_over(self) -> bool:
        """True once a player's score has reached the goal (PIG-6)."""
        return max(self.scores) >= self.rules.goal

    def winner(self) -> int | None:
        """The winner, or None while the game goes on."""
        return self.to_move if self.is_over() else None

    def current_player(self) -> int:
        """The player to move, :data:`~dicemath.core.game.CHANCE` while the die rolls, or
        :data:`~dicemath.core.game.TERMINAL`."""
        if self.is_over():
            return TERMINAL
        return CHANCE if self.rolling else self.to_move

    def legal_actions(self) -> tuple[str, ...]:
        """``("hold", "roll")``, or ``("roll",)`` at turn total 0 (PIG-2); empty at chance
        and terminal states."""
        if self.is_over() or self.rolling:
            return ()
        return (ROLL,) if self.turn_total == 0 else (HOLD, ROLL)

    def chance_outcomes(self) -> tuple[tuple[int, Fraction], ...]:
        """The faces ``1..6``, each with probability ``1/6``, while the die rolls; else empty."""
        if self.is_over() or not self.rolling:
            return ()
        return tuple((face, FACE_PROBABILITY) for face in range(1, FACES + 1))

    def apply(self, action: Hashable) -> State:
        """The state after ``action``: ``"roll"``/``"hold"`` at a decision, a face ``1..6``
        at a chance state (the text of either is read with :meth:`parse_action`).

        Raises:
            IllegalMoveError: an action or face that is not legal here (a hold at turn
                total 0, a decision while the die rolls, anything once the game is over).
        """
        if isinstance(action, str):
            action = self.parse_action(action)
        if self.is_over():
            raise IllegalMoveError(f"the game {self} is over: player {self.to_move} has won")
        me, score = self.to_move, self.scores[self.to_move]
        if self.rolling:
            if not isinstance(action, int) or isinstance(action, bool) or not 1 <= action <= FACES:
                raise IllegalMoveError(f"the die is rolling in {self}: the outcome is a face 1..{FACES}, "
                                       f"got {action!r}")
            if action == 1:
                return State(self.rules, self.scores, 1 - me, 0, False)
            return State(self.rules, self.scores, me, self.turn_total + action, False)
        if action not in self.legal_actions():
            raise IllegalMoveError(f"{action!r} is not legal in {self}; legal: {list(self.legal_actions())}"
                                   + (" (a turn begins with a roll, PIG-2)" if action == HOLD else ""))
        if action == ROLL:
            return State(self.rules, self.scores, me, self.turn_total, True)
        banked = list(self.scores)
        banked[me] = score + self.turn_total
        won = banked[me] >= self.rules.goal
        return State(self.rules, (banked[0], banked[1]), me if won else 1 - me, 0, False)

    def returns(self) -> tuple[float, float]:
        """``(1, 0)`` or ``(0, 1)``: who won (PIG-6); ``(0, 0)`` while the game goes on."""
        if not self.is_over():
            return (0.0, 0.0)
        return (1.0, 0.0) if self.to_move == 0 else (0.0, 1.0)

    def action_text(self, action: Hashable) -> str:
        """The text of an action (``"roll"``, ``"hold"``) or a face (``"4"``)."""
        return str(action)

    def parse_action(self, text: str) -> Hashable:
        """Read ``"roll"``, ``"hold"`` (any case) or a face ``"1"`` to ``"6"``; legality is
        checked by :meth:`apply`.

        Raises:
            IllegalMoveError: text that is neither.

        Example:
            >>> start = initial_state()
            >>> start.parse_action(" Roll "), start.parse_action("4")
            ('roll', 4)
        """
        word = str(text).strip().lower()
        if word in (ROLL, HOLD):
            return word
        if word.isdigit() and 1 <= int(word) <= FACES:
            return int(word)
        raise IllegalMoveError(f"cannot read {text!r}: expected 'roll', 'hold' or a face 1..{FACES}")

    # text --------------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        """``"choose"``, ``"rolling"`` or ``"won"`` (the text form's last word)."""
        return "won" if self.is_over() else "rolling" if self.rolling else "choose"

    def __str__(self) -> str:
        goal = "" if self.rules.goal == STANDARD.goal else f" goal {self.rules.goal}"
        return f"{self.to_move}:{self.scores[0]}-{self.scores[1]} t{self.turn_total} {self.phase}{goal}"

    @classmethod
    def from_str(cls, text: str, rules: Rules | None = None) -> State:
        """Read the text form of :meth:`__str__`.

        Args:
            text: e.g. ``"1:35-62 t12 choose"`` or ``"0:10-20 t0 rolling goal 50"``.
            rules: the rules to read it with; by default the goal named in the text (100
                when it names none). A text that names another goal than ``rules`` is refused.

        Raises:
            InvalidStateError: unreadable text, a goal out of range or other than
                ``rules``', or a state the rules cannot produce.

        Example:
            >>> State.from_str("1:35-62 t12 choose").legal_actions()
            ('hold', 'roll')
            >>> State.from_str("0:35-62 t12 won")
            Traceback (most recent call last):
            ...
            dicemath.core.errors.InvalidStateError: text '0:35-62 t12 won' says 'won', but no score reaches the goal 100
        """
        match = _TEXT.match(text) if isinstance(text, str) else None
        if match is None:
            raise InvalidStateError(f"cannot read the Pig state {text!r}: expected "
                                    "'<to move>:<score 0>-<score 1> t<turn total> choose|rolling|won[ goal <goal>]', "
                                    "e.g. '1:35-62 t12 choose'")
        mover, first, second, turn, phase, goal = match.groups()
        if goal is not None:
            try:
                named = Rules(goal=int(goal))
            except InvalidRulesError as error:
                raise InvalidStateError(f"state {text!r}: {error}") from None
            if rules is not None and named != rules:
                raise InvalidStateError(f"state {text!r} names goal {named.goal}, the rules say {rules.goal}")
            rules = named
        rules = rules or STANDARD
        state = cls(rules, (int(first), int(second)), int(mover), int(turn), phase.lower() == "rolling")
        if (phase.lower() == "won") != state.is_over():
            said = phase.lower()
            raise InvalidStateError(f"text {text!r} says {said!r}, but " +
                                    ("no score reaches the goal" if said == "won" else "a score reaches the goal")
                                    + f" {rules.goal}")
        return state

    def diagram(self) -> str:
        """A text view: both scores, the turn total and who is to act.

        Example:
            >>> print(State.from_str("1:35-62 t12 choose").diagram())
            Pig to 100
              player 0:  35
            > player 1:  62 + 12 this turn (74 if held)
            player 1 to choose: roll or hold
        """
        lines = [f"Pig to {self.rules.goal}"]
        width = len(str(max(self.rules.goal, *self.scores)))
        for player in (0, 1):
            mark = "> " if player == self.to_move and not self.is_over() else "  "
            line = f"{mark}{PLAYER_NAMES[player]}: {self.scores[player]:>{width}}"
            if player == self.to_move and self.turn_total:
                line += f" + {self.turn_total} this turn ({self.scores[player] + self.turn_total} if held)"
            lines.append(line)
        name = PLAYER_NAMES[self.to_move]
        if self.is_over():
            lines.append(f"{name} has won")
        elif self.rolling:
            lines.append(f"{name}'s die is rolling")
        else:
            lines.append(f"{name} to choose: " + ("roll (a turn begins with a roll)" if self.turn_total == 0
                                                  else "roll or hold"))
        return "\n".join(lines)

    def _repr_markdown_(self) -> str:
        return f"`{self}`\n\n```\n{self.diagram()}\n```"

    def _repr_svg_(self) -> str:
        from dicemath.core.svg import picture

        return picture(self)


def initial_state(rules: Rules = STANDARD) -> State:
    """The start: both scores 0, player 0 to roll (PIG-1, PIG-2, PIG-7).

    Example:
        >>> print(initial_state(Rules(goal=50)))
        0:0-0 t0 choose goal 50
    """
    return State(rules, (0, 0), 0, 0, False)


def parse_state(text: str, goal: int | None = None) -> State:
    """``"start"`` (the start of a game to ``goal``, default 100) or the text form of a state
    (:meth:`State.from_str`, read with the goal ``goal`` when given).

    Raises:
        InvalidStateError: text that is neither, or a goal other than the text's.
        InvalidRulesError: a goal out of range.
    """
    rules = None if goal is None else Rules(goal=goal)
    if isinstance(text, str) and text.strip().lower() == "start":
        return initial_state(rules or STANDARD)
    return State.from_str(text, rules)
