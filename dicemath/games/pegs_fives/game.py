"""Pegs and Fives as :class:`~dicemath.core.game.Game` objects (docs/rules.md sections 1 and 2).

Example:
    >>> PEGS_GAME.name, FIVES_GAME.read_state(str(FIVES_GAME.initial_state())) == FIVES_GAME.initial_state()
    ('pegs', True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from dicemath.core.game import Game
from dicemath.core.requests import Field, view
from dicemath.games.pegs_fives.rules import FIVES, PEGS, Rules
from dicemath.games.pegs_fives.state import State, initial_state

if TYPE_CHECKING:
    from dicemath.analysis.engine import GameAnalysis
    from dicemath.core.advice import Advice
    from dicemath.core.sources import SourceChain


class PegsFivesGame(Game):
    """One of the two games of the shared Pegs/Fives engine; :attr:`preset` says which."""

    preset: Rules = PEGS

    def presets(self) -> dict[str, Rules]:
        return {self.name: self.preset}

    def initial_state(self, rules: Rules | None = None) -> State:
        return initial_state(rules or self.preset)

    def read_state(self, text: str, rules: Rules | None = None) -> State:
        return State.from_str(text)

    def draw(self, state: State, advice: Advice | None = None) -> str:
        from dicemath.games.pegs_fives.drawing import draw

        return draw(state, advice)

    def sources(self, rules: Rules) -> SourceChain:
        """The chain of ``rules``
        (:func:`~dicemath.games.pegs_fives.fullboard.advice.source_chain`): a table, a compiled
        solve up to :data:`~dicemath.games.pegs_fives.fullboard.advice.SOLVE_MAX_ROWS` open rows,
        the distilled estimate, each giving the advice at a row decision and the value of any
        state (expected total turns); its one setting is ``table`` (a table directory)."""
        from dicemath.games.pegs_fives.fullboard.advice import source_chain

        return source_chain(rules)

    def advise_throw(self, board: Sequence[int], throw: Sequence[int], *, dice: int | None = None,
                     throws: int | None = None, **settings: Any) -> Advice:
        """:meth:`advise` at a choice throw as a player names it (the board, the throw, the
        dice in hand and throws left before it, checked once by
        :func:`~dicemath.games.pegs_fives.fullboard.advice.throw_states`); a throw that allows
        no row gets no options (the turn ends, PEGS-4 / FIVES-2), the board valued by
        :meth:`sources`.

        Raises:
            InvalidBoardError, InvalidRollError, IllegalMoveError, InvalidStateError: bad input.
        """
        from dicemath.games.pegs_fives.fullboard.advice import throw_states, turn_ends_advice

        start, state = throw_states(self.preset, board, throw, dice=dice, throws=throws)
        if state.current_player() == 0:
            return self.advise(state, **settings)
        return turn_ends_advice(self.sources(self.preset), start, throw, **settings)

    def analysis(self) -> GameAnalysis:
        from dicemath.games.pegs_fives import analysis

        return analysis.PEGS_ANALYSIS if self.preset is PEGS else analysis.FIVES_ANALYSIS

    def page_fields(self) -> tuple[Field, ...]:
        """The board and the choice throw of ``advise`` (with Pegs' throws left, 1..the rules' budget)."""
        rules = self.preset
        unit = "peg's step, 5 = in" if rules.throws is not None else "number's marks, 5 = complete"
        fields = (Field("board", "ints", "Board", f"12 numbers, rows 1..12: each {unit}. Tap the picture to set a row.",
                        required=True, example="5,5,5,5,5,5,5,5,5,4,2,0", wide=True, redraws=True),
                  Field("roll", "throw", "Throw", "The choice throw"
                        + (" (fewer than 6 dice: a choice throw with the dice left, PEGS-7)"
                           if rules.on_complete == "remaining" else ""),
                        required=True, example="6-6-5-5-2-1", dice=rules.dice, wide=True))
        if rules.throws is None:
            return fields
        return fields + (Field("throws", "int", "Throws left before this throw", f"default {rules.throws} (PEGS-3)",
                               low=1, high=rules.throws),)

    def page_advice(self, values: Mapping[str, Any]) -> dict[str, Any]:
        from dicemath.games.pegs_fives.commands import advice_picture
        from dicemath.games.pegs_fives.state import choice_throw_dice

        roll = values["roll"]
        advice = self.advise_throw(values["board"], roll, dice=choice_throw_dice(self.preset, roll),
                                   throws=values.get("throws"))
        result = advice.as_dict()
        result["svg"] = advice_picture(advice, self.preset)
        result["view"] = self._page_view(result)
        return result

    def _page_view(self, r: Mapping[str, Any]) -> dict[str, Any]:
        """What the page shows of ``advise``'s JSON ``r``: the row, each row's hits and values."""
        noun = "Row" if self.preset.throws is not None else "Number"
        sources = {"table": "optimal play, from the table", "solve": "optimal play, from a solve of this board",
                   "complete": "the board is complete"}
        source = sources.get(r["source"], f"estimates of the {r.get('estimator')} model: no exact table covers "
                                          "this board")
        greedy = f"; greedy would take {r['greedy_choice']}" if r["greedy_choice"] is not None else ""
        rows = [(o["row"], o["hits"], f"{o['expected_turns']:.3f}", f"{o['p_no_progress']:.3f}") for o in r["options"]]
        headline = (f"No legal {noun.lower()}: the turn ends" if r["recommendation"] is None
                    else f"{noun} {r['recommendation']}")
        return view(headline, r["exact"], f"{source}; board value {r['board_value']:.2f} turns{greedy}",
                    (noun.lower(), "hits", "turns after this", "P(no progress)"), rows)

    def page_picture_state(self, values: Mapping[str, Any]) -> State:
        return initial_state(self.preset, values["board"])


class PegsGame(PegsFivesGame):
    """Pegs (docs/rules.md section 1)."""

    name = "pegs"
    title = "Pegs"
    rules_headings = ("1. Pegs", "Dice and hits")
    preset = PEGS

    def register_commands(self, subparsers: Any) -> None:
        from dicemath.games.pegs_fives import commands, dice_commands

        dice_commands.register(subparsers)
        commands.register(subparsers, self)

    def report_sections(self) -> tuple[Any, ...]:
        from dicemath.reporting.section import Section
        from dicemath.games.pegs_fives import report, report_dice

        return (Section("dice", "Dice: hits for every number", report_dice.compute, report_dice.render),
                Section("pegs", "Pegs: expected turns per row, optimal rows, the row advisor",
                        partial(report.compute, self), report.render))


class FivesGame(PegsFivesGame):
    """Fives (docs/rules.md section 2)."""

    name = "fives"
    title = "Fives"
    rules_headings = ("2. Fives", "Dice and hits")
    preset = FIVES

    def register_commands(self, subparsers: Any) -> None:
        from dicemath.games.pegs_fives import commands

        commands.register(subparsers, self)

    def report_sections(self) -> tuple[Any, ...]:
        from dicemath.reporting.section import Section
        from dicemath.games.pegs_fives import report, report_full_board, report_playing_to_win

        return (Section("fives", "Fives: expected turns per number, the advisor, races and rest points",
                        partial(report.compute, self), report.render),
                Section("full_board", "Pegs and Fives on the full board: the exact optimum and every policy measured",
                        report_full_board.compute, report_full_board.render),
                Section("playing_to_win", "Playing to win: Pegs and Fives against the opponent on the table",
                        partial(report_playing_to_win.compute, self), report_playing_to_win.render))


PEGS_GAME = PegsGame()
"""Pegs."""
FIVES_GAME = FivesGame()
"""Fives."""

advise = PEGS_GAME.advise
"""The advice at a Pegs or a Fives decision state (:meth:`dicemath.core.game.Game.advise`: the
chain of the state's rules, :meth:`PegsFivesGame.sources`)."""
