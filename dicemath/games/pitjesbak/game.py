"""Pitjesbak as a :class:`~dicemath.core.game.Game` object (docs/rules.md section 3).

Example:
    >>> PITJESBAK_GAME.read_state(str(PITJESBAK_GAME.initial_state())) == PITJESBAK_GAME.initial_state()
    True
"""

from __future__ import annotations

from typing import Any

from dicemath.core.game import Game
from dicemath.core.requests import choice_field, flag_field, int_field, text_field
from dicemath.games.pitjesbak.rules import PIPS, STANDARD, Rules
from dicemath.games.pitjesbak.state import State, initial_state


class PitjesbakGame(Game):
    """Pitjesbak: three dice, stop or throw again, 2 to 8 players."""

    name = "pitjesbak"
    title = "Pitjesbak"
    rules_headings = ("3. Pitjesbak",)

    def presets(self) -> dict[str, Any]:
        return {"standard": STANDARD, "pips": PIPS}

    def initial_state(self, rules: Any = None) -> State:
        return initial_state(rules or STANDARD)

    def read_state(self, text: str, rules: Any = None) -> State:
        return State.from_str(text)

    def draw(self, state: Any, advice: Any = None) -> str:
        from dicemath.games.pitjesbak.drawing import draw

        return draw(state, advice)

    def advise(self, state: Any, **settings: Any) -> Any:
        from dicemath.games.pitjesbak.advice import advise

        return advise(state, **settings)

    def register_commands(self, subparsers: Any) -> None:
        from dicemath.games.pitjesbak import commands

        commands.register(subparsers)

    def report_sections(self) -> tuple[Any, ...]:
        from dicemath.reporting.section import Section
        from dicemath.games.pitjesbak import report

        return (Section("pitjesbak", "Pitjesbak: when to stop, and who wins", report.compute, report.render),)

    def analysis(self) -> Any:
        from dicemath.games.pitjesbak.analysis import ANALYSIS

        return ANALYSIS

    def page_advice(self, request: Any) -> dict[str, Any]:
        from dicemath.games.pitjesbak.advice import ROLES, advise_situation, decision_advice, situation_state
        from dicemath.games.pitjesbak.drawing import draw
        from dicemath.games.pitjesbak.rules import DIE_VALUE_VARIANTS
        from dicemath.games.pitjesbak.throws import parse_throw

        rules = Rules(players=2, stripes=int_field(request, "stripes", 9),
                      die_values=choice_field(request, "die_values", DIE_VALUE_VARIANTS, "traditional"))
        best = text_field(request, "best")
        advice = advise_situation(
            int_field(request, "my_stripes", required=True), flag_field(request, "my_wiped"),
            int_field(request, "their_stripes", required=True), flag_field(request, "their_wiped"),
            role=choice_field(request, "role", ROLES, required=True),
            throw_number=int_field(request, "throw_number", required=True),
            current=parse_throw(text_field(request, "current", required=True)),
            best=parse_throw(best) if best else None, limit=int_field(request, "limit"), rules=rules)
        state = situation_state(advice, rules)
        answer = decision_advice(state, advice)
        result = answer.as_dict()
        result["svg"] = draw(state, answer)
        return result


PITJESBAK_GAME = PitjesbakGame()
"""Pitjesbak."""
