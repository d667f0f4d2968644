"""Pitjesbak as a :class:`~dicemath.core.game.Game` object (docs/rules.md section 3).

Its chain of value sources (:meth:`PitjesbakGame.sources`) is
:func:`.sources.source_chain`: the two-player game solution, the table solution for three
and four players within the table solver's work limit, the labelled estimate beyond (the
limits: :mod:`.limits`).

Example:
    >>> PITJESBAK_GAME.read_state(str(PITJESBAK_GAME.initial_state())) == PITJESBAK_GAME.initial_state()
    True
    >>> print(PITJESBAK_GAME.sources(STANDARD).describe())
    two-player game solution (exact, float64): 2 players still in the game, any stripes
    table solution (exact, float64): 3 or 4 players still in the game, their stripes within the table solver's MAX_WORK
    table estimate (fitted strengths) (estimate): any table of 2 to 8 players
"""

from __future__ import annotations

from typing import Any

from dicemath.core.game import Game
from dicemath.core.requests import RequestError, choice_field, flag_field, int_field, int_list_field, text_field
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

    def sources(self, rules: Any = None) -> Any:
        """The chain of :func:`.sources.source_chain` (see :mod:`.sources`); the settings its
        sources take: ``solution``, a solved game or table to answer with instead of the
        default one (it must be of the source's kind: exact, or an estimate)."""
        from dicemath.games.pitjesbak.sources import source_chain

        return source_chain(rules)

    def register_commands(self, subparsers: Any) -> None:
        from dicemath.games.pitjesbak import commands

        commands.register(subparsers, self)

    def report_sections(self) -> tuple[Any, ...]:
        from dicemath.reporting.section import Section
        from dicemath.games.pitjesbak import report

        return (Section("pitjesbak", "Pitjesbak: when to stop, and who wins", report.compute, report.render),)

    def analysis(self) -> Any:
        from dicemath.games.pitjesbak.analysis import ANALYSIS

        return ANALYSIS

    def page_advice(self, request: Any) -> dict[str, Any]:
        """The page's answer in the fields of ``pitjesbak advise`` (``_`` for ``-``): a table
        (``stripes_left``, ``wiped``, ``position``, ``before``) or the two-player form
        (``my_stripes`` ... ``role``, ``best``), with ``current``, ``throw_number``, ``limit``,
        ``stripes``, ``die_values``; read by the command line's own function
        (:func:`.commands.advise_state`) and answered by the chain, plus ``svg``.

        Raises:
            DicemathError: input the rules refuse (the command line's message).
        """
        from dicemath.games.pitjesbak.commands import advise_result, advise_state
        from dicemath.games.pitjesbak.drawing import draw
        from dicemath.games.pitjesbak.rules import DIE_VALUE_VARIANTS

        stripes = int_field(request, "stripes", 9)
        die_values = choice_field(request, "die_values", DIE_VALUE_VARIANTS, "traditional")
        if stripes is None or die_values is None:           # both have a default
            raise RequestError("the page's request has no stripes or die_values")
        rules = Rules(stripes=stripes, die_values=die_values)
        state = advise_state(rules, current=text_field(request, "current"),
                             throw_number=int_field(request, "throw_number"), limit=int_field(request, "limit"),
                             stripes_left=int_list_field(request, "stripes_left"),
                             wiped=int_list_field(request, "wiped"), position=int_field(request, "position"),
                             before=text_field(request, "before"), my_stripes=int_field(request, "my_stripes"),
                             my_wiped=flag_field(request, "my_wiped"),
                             their_stripes=int_field(request, "their_stripes"),
                             their_wiped=flag_field(request, "their_wiped"),
                             role=choice_field(request, "role", ("start", "follower")),
                             best=text_field(request, "best"))
        result, advice = advise_result(state, self)
        result["svg"] = draw(state, advice)
        return result


PITJESBAK_GAME = PitjesbakGame()
"""Pitjesbak."""
