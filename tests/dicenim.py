"""Dice Nim, a toy game defined in the tests: the seventh game that proves a game plugs in.

``tests/test_plugin_game.py`` registers :data:`DICENIM_GAME` for its own tests only and drives it
through every door (the command line, the page, ``analyse``, the report, the fuzz). Its rules
(NIM-1..NIM-3) are stated here, in :data:`RULES_TEXT` (the game's
:meth:`~DiceNimGame.rules_text`), not in ``docs/rules.md``: take one or two counters, or roll
the die for one to three; whoever takes the last counter wins.

A state's text is ``<to move>:<left>/<pile> choose|rolling|won`` (``"0:7/10 choose"``); once
the game is won, the winner is the player "to move". Every state is solved exactly (Fractions)
by the core's expectimax (:func:`dicemath.core.search.expectimax`), the one source of its chain.

The module has two parts: the game (rules, state, solution), then the glue the frame asks
for (the ``Game`` object and its chain, drawing, command, page fields, report section and
records' adapter).

Example:
    >>> state = DICENIM_GAME.read_state("0:4/10 choose")
    >>> advice = DICENIM_GAME.advise(state)
    >>> [(option.text, option.value) for option in advice.options]
    [('take 1', Fraction(2, 3)), ('roll', Fraction(2, 9)), ('take 2', Fraction(0, 1))]
    >>> str(state.apply("take 1").apply("roll")), str(state.apply("take 1").apply("roll").apply(5))
    ('1:3/10 rolling', '1:0/10 won')
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from dicemath.analysis.engine import GameAnalysis
from dicemath.analysis.records import InvalidRecordError, check_keys
from dicemath.core import svg
from dicemath.core.advice import Advice, Option
from dicemath.core.commands import add_game_command, add_json_flag, add_state_argument, add_svg_option, emit, write_svg
from dicemath.core.errors import IllegalMoveError, InvalidRulesError, InvalidStateError
from dicemath.core.game import CHANCE, TERMINAL, Game
from dicemath.core.markdown import markdown_table
from dicemath.core.numbers import number_text
from dicemath.core.requests import Field, advice_view
from dicemath.core.search import action_values, expectimax
from dicemath.core.sources import Source, SourceChain, Valued
from dicemath.reporting.section import Section

# -- the game: rules, state, solution ----------------------------------------------------------

NAME = "dicenim"
"""The game's name in commands, records and JSON."""

MAX_PILE = 30
"""The largest pile (NIM-1)."""

ROLL, TAKES = "roll", ("take 1", "take 2")
"""The actions of a decision (NIM-2), sorted as ``legal_actions`` lists them."""

FACE_TAKES = {1: 1, 2: 1, 3: 2, 4: 2, 5: 3, 6: 3}
"""The counters a face of the die takes (NIM-2)."""

SEATS = ("player 0", "player 1")
"""Player 0 moves first (NIM-1)."""

RULES_TEXT = """## Dice Nim

- NIM-1: a pile of counters (standard 10; 1 to 30); two players, player 0 moves first.
- NIM-2: the player to move takes one or two counters (no more than are left), or rolls the die,
  which takes one counter on a 1 or 2, two on a 3 or 4, three on a 5 or 6 (no more than are
  left); then the other player moves.
- NIM-3: whoever takes the last counter wins.
"""
"""The rules, as ``dicemath dicenim rules`` prints them."""

_TEXT = re.compile(r"^\s*([01])\s*:\s*(\d+)\s*/\s*(\d+)\s+(choose|rolling|won)\s*$", re.IGNORECASE)


@dataclass(frozen=True)
class Rules:
    """One variant: the pile (NIM-1). Raises InvalidRulesError for a pile out of 1..30."""

    pile: int = 10

    def __post_init__(self) -> None:
        if not isinstance(self.pile, int) or isinstance(self.pile, bool) or not 1 <= self.pile <= MAX_PILE:
            raise InvalidRulesError(f"pile must be a whole number 1..{MAX_PILE} (NIM-1), got {self.pile!r}")


STANDARD, SHORT = Rules(), Rules(pile=5)
"""The presets: a pile of 10, a pile of 5."""


@dataclass(frozen=True)
class State:
    """A state (immutable, hashable; :class:`dicemath.core.game.GameState`): ``left`` counters of
    the pile, the player ``to_move`` (the winner once none are left), the die ``rolling``.

    Raises:
        InvalidStateError: a count out of 0..pile, a seat other than 0 and 1, a rolling die at the end.
    """

    rules: Rules
    left: int
    to_move: int = 0
    rolling: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.left, int) or isinstance(self.left, bool) or not 0 <= self.left <= self.rules.pile:
            raise InvalidStateError(f"the counters left must be 0..{self.rules.pile} (the pile), got {self.left!r}")
        if self.to_move not in (0, 1) or isinstance(self.to_move, bool):
            raise InvalidStateError(f"the player to move is 0 or 1, got {self.to_move!r}")
        if self.rolling and not self.left:
            raise InvalidStateError("a finished game has no rolling die (NIM-3)")

    def current_player(self) -> int:
        return TERMINAL if not self.left else CHANCE if self.rolling else self.to_move

    def legal_actions(self) -> tuple[str, ...]:
        return () if self.rolling or not self.left else (ROLL, *TAKES[:self.left])

    def chance_outcomes(self) -> tuple[tuple[int, Fraction], ...]:
        return tuple((face, Fraction(1, 6)) for face in FACE_TAKES) if self.rolling else ()

    def apply(self, action: Hashable) -> State:
        """The state after an action or a face (either as its text). Raises IllegalMoveError."""
        action = self.parse_action(action) if isinstance(action, str) else action
        if self.rolling and action in FACE_TAKES:
            return self._take(FACE_TAKES[action])
        if action not in self.legal_actions():
            raise IllegalMoveError(f"{action!r} is not legal in {self}; legal: {list(self.legal_actions())}")
        if action == ROLL:
            return State(self.rules, self.left, self.to_move, True)
        return self._take(TAKES.index(action) + 1)

    def _take(self, count: int) -> State:
        left = max(0, self.left - count)
        return State(self.rules, left, self.to_move if not left else 1 - self.to_move)

    def returns(self) -> tuple[Fraction, Fraction]:
        if self.left:
            return (Fraction(0), Fraction(0))
        return (Fraction(1 - self.to_move), Fraction(self.to_move))

    def parse_action(self, text: str) -> Hashable:
        """A face ``"1"``..``"6"`` while the die rolls, else ``"roll"``, ``"take 1"`` or ``"take 2"``.

        Raises:
            IllegalMoveError: text that is none of these.
        """
        word = " ".join(str(text).lower().split())
        if self.rolling and word.isdigit() and int(word) in FACE_TAKES:
            return int(word)
        if not self.rolling and word in (ROLL, *TAKES):
            return word
        raise IllegalMoveError(f"cannot read {text!r}: expected " +
                               ("a face 1..6" if self.rolling else "'roll', 'take 1' or 'take 2'"))

    def action_text(self, action: Hashable) -> str:
        return str(action)

    def __str__(self) -> str:
        phase = "rolling" if self.rolling else "choose" if self.left else "won"
        return f"{self.to_move}:{self.left}/{self.rules.pile} {phase}"

    @classmethod
    def from_str(cls, text: str, rules: Rules | None = None) -> State:
        """Read :meth:`__str__`'s text (with ``rules``: refuse another pile). Raises InvalidStateError."""
        match = _TEXT.match(text) if isinstance(text, str) else None
        if match is None:
            raise InvalidStateError(f"cannot read the Dice Nim state {text!r}: expected "
                                    "'<to move>:<left>/<pile> choose|rolling|won', e.g. '0:7/10 choose'")
        mover, left, pile, phase = match.groups()
        try:
            named = Rules(int(pile))
        except InvalidRulesError as error:
            raise InvalidStateError(f"state {text!r}: {error}") from None
        if rules is not None and rules != named:
            raise InvalidStateError(f"state {text!r} has a pile of {named.pile}; the rules say {rules.pile}")
        state = cls(named, int(left), int(mover), phase.lower() == "rolling")
        if (phase.lower() == "won") != (state.left == 0):
            raise InvalidStateError(f"state {text!r}: a game is won when, and only when, no counter is left")
        return state


SOLVED: dict[Any, tuple[Any, ...]] = {}
"""Every state solved so far (:func:`~dicemath.core.search.expectimax`'s memo)."""


def solved_advice(state: State, **settings: Any) -> Advice:
    """The mover's exact win probability after each legal action, best first (equals in legal order)."""
    mover = state.current_player()
    values = {action: values[mover] for action, values in action_values(state, memo=SOLVED).items()}
    return Advice(game=NAME, state=str(state), unit="P(win)", higher_is_better=True, exact=True,
                  source="expectimax", options=tuple(Option(action, action, values[action])
                                                     for action in sorted(values, key=lambda a: -values[a])))


def win_probabilities(state: State, **settings: Any) -> Valued:
    """Each player's exact win probability at any state (as floats)."""
    return Valued(tuple(float(p) for p in expectimax(state, memo=SOLVED)), True)


# -- the glue the frame asks for ---------------------------------------------------------------

SOLUTION = Source("expectimax", True, "every state (the whole game is solved)",
                  lambda state, **settings: isinstance(state, State), solved_advice, arithmetic="fraction",
                  value=win_probabilities)
"""The one source of the chain: the exact solution."""


def draw(state: State, advice: Advice | None = None) -> str:
    """The SVG picture: the counters left (orange) and taken, and each option's value, the best marked."""
    who = SEATS[state.to_move] + (" has won" if not state.left else " rolls" if state.rolling else " to move")
    title = f"Dice Nim: {state.left} of {state.rules.pile} left, {who}"
    counters = [svg.circle(24 + 22 * k, 58, 9, fill=svg.ORANGE if k < state.left else svg.LIGHT, stroke=svg.INK)
                for k in range(state.rules.pile)]
    options = advice.options if advice else ()
    rows = [svg.text(12, 100 + 24 * k, f"{option.text}: P(win) {number_text(option.value)}",
                     class_="advised" if k == 0 else None, font_weight="bold" if k == 0 else None)
            for k, option in enumerate(options)]
    width = max(24 + 22 * state.rules.pile, 24 + 10 * len(title))
    return svg.Drawing(width, 90 + 24 * len(options), title).add(*counters, *rows).to_svg()


def position(left: int, pile: int | None) -> State:
    """Player 0 to move with ``left`` counters of a pile of ``pile`` (default 10).

    Raises:
        InvalidStateError, InvalidRulesError: more left than the pile, a pile out of range.
    """
    rules = STANDARD if pile is None else Rules(pile)
    if left > rules.pile:
        raise InvalidStateError(f"--left {left} is more than --pile {rules.pile}")
    return State(rules, left)


def run_advise(args: Any) -> int:
    """``dicemath dicenim advise [STATE] [--left N [--pile P]] [--svg FILE] [--json]``."""
    if (args.state is None) == (args.left is None) or (args.state is not None and args.pile is not None):
        raise InvalidStateError("give a STATE, or --left (with --pile if not 10), not both")
    state = DICENIM_GAME.read_state(args.state) if args.state else position(args.left, args.pile)
    advice = DICENIM_GAME.advise(state)
    result = advice.as_dict()
    write_svg(args.svg, lambda: draw(state, advice), result)
    emit(result, args.json, lambda _: str(advice))
    return 0


@dataclass(frozen=True)
class NimReport:
    """The report's numbers: for each count left, the best action and the mover's win probability."""

    pile: int
    rows: tuple[tuple[int, str, Fraction], ...]


def compute(context: Any) -> NimReport:
    best = [(left, DICENIM_GAME.advise(State(STANDARD, left)).options[0]) for left in range(1, STANDARD.pile + 1)]
    return NimReport(STANDARD.pile, tuple((left, option.text, Fraction(option.value)) for left, option in best))


def render(report: NimReport, context: Any) -> str:
    rolls = [left for left, action, _ in report.rows if action == ROLL]
    start = State(STANDARD, report.pile)
    return "\n".join([
        markdown_table(["left", "best", "P(mover wins)"], [[n, a, number_text(p)] for n, a, p in report.rows]), "",
        f"Roll with {', '.join(map(str, rolls))} left." if rolls else "Never roll.", "",
        context.save_picture(draw(start, DICENIM_GAME.advise(start)), "dicenim_start.svg", "the start, advised")])


class DiceNimAnalysis(GameAnalysis[State]):
    """Records of Dice Nim: a decision entry gives ``state`` (its text) and ``choice``."""

    game = NAME
    rules_class = Rules
    unit = "P(win)"
    threshold = 0.01
    seats = SEATS
    required = ("state",)
    groupings: ClassVar[dict[str, tuple[str, ...]]] = {"counters left": ("1-3", "4 or more")}

    def initial_state(self, rules: Rules, start: str | None = None) -> State:
        return State(rules, rules.pile) if start is None else State.from_str(start, rules)

    def decision_state(self, entry: Mapping, rules: Rules) -> State:
        check_keys(entry, self.required, self.optional)
        if not isinstance(entry["state"], str):
            raise InvalidRecordError(f'"state" is the text of a Dice Nim state, got {entry["state"]!r}')
        return State.from_str(entry["state"], rules)

    def roller(self, state: State) -> int | None:
        return state.to_move

    def context(self, state: State) -> dict[str, Any]:
        return {"left": state.left}

    def groups(self, context: Mapping) -> dict[str, str]:
        return {"counters left": "1-3" if context["left"] <= 3 else "4 or more"}


class DiceNimGame(Game):
    """Dice Nim: take one or two counters, or roll for one to three; the last counter wins."""

    name, title = NAME, "Dice Nim"

    def rules_text(self) -> str:
        return RULES_TEXT

    def presets(self) -> dict[str, Any]:
        return {"standard": STANDARD, "short": SHORT}

    def initial_state(self, rules: Any = None) -> State:
        return State(rules or STANDARD, (rules or STANDARD).pile)

    def read_state(self, text: str, rules: Any = None) -> State:
        return State.from_str(text, rules)

    def draw(self, state: Any, advice: Any = None) -> str:
        return draw(state, advice)

    def sources(self, rules: Any) -> SourceChain:
        return SourceChain(SOLUTION)

    def register_commands(self, subparsers: Any) -> None:
        _, commands = add_game_command(subparsers, self, "Dice Nim (a toy game of the tests): take or roll")
        parser = commands.add_parser("advise", help="take 1, take 2 or roll? the win probability of each")
        add_state_argument(parser, "0:7/10 choose")
        parser.add_argument("--left", type=int, help="counters left, player 0 to move (instead of STATE)")
        parser.add_argument("--pile", type=int, help=f"the pile with --left, 1..{MAX_PILE} (default 10)")
        add_svg_option(parser)
        add_json_flag(parser)
        parser.set_defaults(func=run_advise)

    def report_sections(self) -> tuple[Section, ...]:
        return (Section(NAME, "Dice Nim: when to roll", compute, render),)

    def analysis(self) -> DiceNimAnalysis:
        return DiceNimAnalysis()

    def page_fields(self) -> tuple[Field, ...]:
        return (Field("left", "int", "Counters left", "player 0 to move", required=True, low=1, high=MAX_PILE,
                      example="7"),
                Field("pile", "int", "Pile", "default 10 (NIM-1)", low=1, high=MAX_PILE))

    def page_advice(self, values: Mapping[str, Any]) -> dict[str, Any]:
        state = position(values["left"], values["pile"])
        advice = self.advise(state)
        return {**advice.as_dict(), "svg": draw(state, advice), "view": advice_view(advice)}


DICENIM_GAME = DiceNimGame()
"""Dice Nim."""
