"""Pegs and Fives as :class:`~dicemath.core.game.Game` objects (docs/rules.md sections 1 and 2).

Example:
    >>> PEGS_GAME.name, FIVES_GAME.read_state(str(FIVES_GAME.initial_state())) == FIVES_GAME.initial_state()
    ('pegs', True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from dicemath.core.game import Game
from dicemath.core.requests import RequestError, int_field, int_list_field, throw_list_field
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
        """The chain of a row decision of ``rules``
        (:func:`~dicemath.games.pegs_fives.fullboard.advice.source_chain`): a table, a compiled
        solve up to :data:`~dicemath.games.pegs_fives.fullboard.advice.SOLVE_MAX_ROWS` open rows,
        the distilled estimate; its one setting is ``table`` (a table directory)."""
        from dicemath.games.pegs_fives.fullboard.advice import source_chain

        return source_chain(rules)

    def analysis(self) -> GameAnalysis:
        from dicemath.games.pegs_fives import analysis

        return analysis.PEGS_ANALYSIS if self.preset is PEGS else analysis.FIVES_ANALYSIS

    def page_advice(self, request: Mapping[str, Any]) -> dict[str, Any]:
        from dicemath.games.pegs_fives.commands import advice_picture
        from dicemath.games.pegs_fives.fullboard.advice import advise_throw
        from dicemath.games.pegs_fives.state import choice_throw_dice

        board = int_list_field(request, "board", required=True)
        roll = throw_list_field(request, "roll", required=True)
        throws = int_field(request, "throws")
        if board is None or roll is None:       # not reached: required fields raise RequestError when absent
            raise RequestError("the following arguments are required: board, roll")
        advice = advise_throw(self.preset, board, roll, dice=choice_throw_dice(self.preset, roll), throws=throws)
        result = advice.as_dict()
        result["svg"] = advice_picture(advice, self.preset)
        return result

    def page_picture_state(self, request: Mapping[str, Any]) -> State:
        return initial_state(self.preset, int_list_field(request, "board", required=True))


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
                        report.compute_pegs, report.render))


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
                        report.compute_fives, report.render),
                Section("full_board", "Pegs and Fives on the full board: the exact optimum and every policy measured",
                        report_full_board.compute, report_full_board.render),
                Section("playing_to_win", "Playing to win: Pegs and Fives against the opponent on the table",
                        report_playing_to_win.compute, report_playing_to_win.render))


PEGS_GAME = PegsGame()
"""Pegs."""
FIVES_GAME = FivesGame()
"""Fives."""
