"""BohnDuell (Sackson's *Cups*) as a :class:`~dicemath.core.game.Game` object (docs/rules.md section 5).

Example:
    >>> BOHNDUELL_GAME.read_state(str(BOHNDUELL_GAME.initial_state())) == BOHNDUELL_GAME.initial_state()
    True
"""

from __future__ import annotations

from typing import Any

from dicemath.core.game import Game
from dicemath.core.requests import RequestError, choice_field, int_field, text_field
from dicemath.games.bohnduell.rules import CAPTURE_EVERY, STANDARD
from dicemath.games.bohnduell.state import State, initial_state


class BohnDuellGame(Game):
    """BohnDuell: a mancala without dice."""

    name = "bohnduell"
    title = "BohnDuell"
    rules_headings = ("5. BohnDuell",)

    def presets(self) -> dict[str, Any]:
        return {"standard": STANDARD, "capture-every": CAPTURE_EVERY}

    def initial_state(self, rules: Any = None) -> State:
        return initial_state(rules or STANDARD)

    def read_state(self, text: str, rules: Any = None) -> State:
        return State.from_str(text, rules)

    def draw(self, state: Any, advice: Any = None) -> str:
        from dicemath.games.bohnduell.drawing import draw

        return draw(state, advice)

    def sources(self, rules: Any) -> Any:
        """The chain (:func:`~dicemath.games.bohnduell.search.source_chain`): the dense table,
        the exact solve of small positions, the alpha-beta search (settings ``depth``,
        ``table_stock``)."""
        from dicemath.games.bohnduell.search import source_chain

        return source_chain(rules)

    def register_commands(self, subparsers: Any) -> None:
        from dicemath.games.bohnduell.commands import register

        register(subparsers, self)

    def report_sections(self) -> tuple[Any, ...]:
        from dicemath.reporting.section import Section
        from dicemath.games.bohnduell import report

        return (Section("bohnduell", "BohnDuell: solved up to the standard 40-bean game, and the advisor",
                        report.compute, report.render),)

    def analysis(self) -> Any:
        from dicemath.games.bohnduell.analysis import ANALYSIS

        return ANALYSIS

    def page_advice(self, request: Any) -> dict[str, Any]:
        from dicemath.games.bohnduell.commands import parse_position, position_advice
        from dicemath.games.bohnduell.drawing import draw
        from dicemath.games.bohnduell.search import DEPTH, TABLE_STOCK

        text = text_field(request, "position", required=True, positional=True)
        cups, stock = int_field(request, "cups", 4), int_field(request, "stock", 40)
        capture = choice_field(request, "capture", ("last", "every"), "last")
        if text is None or cups is None or stock is None or capture is None:    # required, or a default
            raise RequestError("the page's request has no position, cups, stock or capture")
        position = parse_position(text, cups, stock, capture)
        depth, table_stock = int_field(request, "depth", DEPTH), int_field(request, "table_stock", TABLE_STOCK)
        if depth is None or table_stock is None:                                 # both have a default
            raise RequestError("the page's request has no depth or table_stock")
        advice = position_advice(position, depth, table_stock)
        result = advice.as_dict()
        result["svg"] = draw(position, advice)
        return result


BOHNDUELL_GAME = BohnDuellGame()
"""BohnDuell."""
