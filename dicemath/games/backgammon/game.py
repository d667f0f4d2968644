"""Backgammon with the doubling cube as a :class:`~dicemath.core.game.Game` object (docs/rules.md section 4).

Example:
    >>> BACKGAMMON_GAME.read_state(str(BACKGAMMON_GAME.initial_state())) == BACKGAMMON_GAME.initial_state()
    True
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from dicemath.core.errors import InvalidStateError
from dicemath.core.game import Game
from dicemath.core.requests import (
    RequestError, choice_field, flag_field, int_field, int_list_field, text_field, throw_list_field)
from dicemath.games.backgammon.rules import PRESETS, STANDARD
from dicemath.games.backgammon.state import State, initial_state

if TYPE_CHECKING:
    from dicemath.core.advice import Advice
    from dicemath.core.sources import SourceChain

T = TypeVar("T")


def _given(value: T | None, name: str) -> T:
    """A page field that a required field or a default makes present.

    Raises:
        RequestError: the field is absent after all.
    """
    if value is None:
        raise RequestError(f"the following arguments are required: {name}")
    return value


class BackgammonGame(Game):
    """Backgammon with the doubling cube (the standard rules and the Playtive variant)."""

    name = "backgammon"
    title = "Backgammon"
    rules_headings = ("4. Backgammon",)
    warmup = (("backgammon-cube", "the backgammon bear-off move, one-sided and cubeful tables",
               ("backgammon", "cube", "2,2,0,0,0,0", "--versus", "0,0,1,1,1,0", "--json")),)

    def presets(self) -> dict[str, Any]:
        return dict(PRESETS)

    def initial_state(self, rules: Any = None) -> State:
        return initial_state(rules or STANDARD)

    def read_state(self, text: str, rules: Any = None) -> State:
        return State.from_str(text)

    def draw(self, state: State, advice: Advice | None = None) -> str:
        from dicemath.games.backgammon.drawing import draw

        return draw(state, advice)

    def sources(self, rules: Any) -> SourceChain:
        """The chain of :func:`dicemath.games.backgammon.advice.sources` (move and cube decisions)."""
        from dicemath.games.backgammon.advice import sources

        return sources(rules)

    def register_commands(self, subparsers: Any) -> None:
        from dicemath.games.backgammon.commands import register

        register(subparsers, self)

    def report_sections(self) -> tuple[Any, ...]:
        from dicemath.reporting.section import Section
        from dicemath.games.backgammon import report_bearoff, report_cube, report_playtive

        return (Section("backgammon_bearoff", "Backgammon: exact bear-off", report_bearoff.compute,
                        report_bearoff.render),
                Section("backgammon_cube", "Backgammon: the doubling cube", report_cube.compute,
                        report_cube.render),
                Section("backgammon_playtive", "Backgammon: the Playtive rule measured by self-play",
                        report_playtive.compute, report_playtive.render))

    def analysis(self) -> Any:
        from dicemath.games.backgammon.analysis import ANALYSIS

        return ANALYSIS

    def page_advice(self, request: Any) -> dict[str, Any]:
        query = choice_field(request, "query", ("hint", "cube"), required=True)
        return self._page_hint(request) if query == "hint" else self._page_cube(request)

    @staticmethod
    def _page_hint(request: Any) -> dict[str, Any]:
        from dicemath.games.backgammon.commands_hint import hint_picture, hint_result

        position = _given(text_field(request, "position", required=True, positional=True), "position")
        dice = _given(throw_list_field(request, "dice", required=True, positional=True), "dice")
        rules_name = _given(choice_field(request, "rules", sorted(PRESETS), "standard"), "--rules")
        result = hint_result(position, dice, rules_name, _given(int_field(request, "ply", 0), "--ply"))
        result["svg"] = hint_picture(position, dice, rules_name, result)
        return result

    @staticmethod
    def _page_cube(request: Any) -> dict[str, Any]:
        from dicemath.games.backgammon.commands_cube import (
            is_board_text, advice_picture, advice_result, bearoff_picture, position_result)
        from dicemath.games.backgammon.cube import CUBE_OWNERS, MAX_CUBE

        text = _given(text_field(request, "position", required=True, positional=True), "position")
        if not is_board_text(text):                                   # a Position ID or XGID
            owner = _given(choice_field(request, "cube_owner", CUBE_OWNERS, "centred"), "--cube-owner")
            value = _given(int_field(request, "cube_value", 1 if owner == "centred" else 2), "--cube-value")
            rules_name = _given(choice_field(request, "rules", sorted(PRESETS), "standard"), "--rules")
            result = advice_result(text, value, owner, _given(int_field(request, "ply", 0), "--ply"), rules_name)
            result["svg"] = advice_picture(text, result)
            return result
        board = int_list_field(request, "position", positional=True)  # the bear-off form: two home boards
        versus = int_list_field(request, "versus")
        if versus is None:
            raise InvalidStateError("a bear-off position needs --versus (the opponent's home board)")
        result = position_result(board, versus, None if flag_field(request, "unbounded_cube") else MAX_CUBE)
        result["svg"] = bearoff_picture(result)
        return result


BACKGAMMON_GAME = BackgammonGame()
"""Backgammon."""
