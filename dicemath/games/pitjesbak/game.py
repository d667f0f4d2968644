"""Pitjesbak as a :class:`~dicemath.core.game.Game` object (docs/rules.md section 3).

Its chain of value sources (:meth:`PitjesbakGame.sources`) is
:func:`.sources.source_chain`: the two-player game solution, the table solution for three
and four players within the table solver's work limit, the labelled estimate beyond (the
limits: :mod:`.limits`).

Its advice (:meth:`~dicemath.core.game.Game.advise`, the one door to Pitjesbak advice) at a
state where a player decides: stop, or throw again? (PIT-4..PIT-8): ``stop`` and, when a
throw is left, ``throw``, each valued by the chance to win the game
(:func:`.decision.decision_advice` of :func:`.decision.decide`), ``source`` the name of the
chain's source, the :class:`~.advice_type.StopOrThrow` as its ``detail``. Its setting:
``solution``, a solved game or table to answer with (of the kind of the source that covers
the state). The chain's first source values every state of a two-player game too
(:func:`.sources.game_value`).

Example:
    >>> PITJESBAK_GAME.read_state(str(PITJESBAK_GAME.initial_state())) == PITJESBAK_GAME.initial_state()
    True
    >>> from dicemath.games.pitjesbak.game_solver import solve_game
    >>> small = solve_game(Rules(stripes=3), use_cache=False, compare=False)
    >>> answer = PITJESBAK_GAME.advise(initial_state(small.rules).apply((6, 5, 4)), solution=small)
    >>> answer.best.action, answer.exact, answer.source
    ('stop', True, 'two-player game solution')
    >>> print(PITJESBAK_GAME.sources(STANDARD).describe())
    two-player game solution (exact, float64): 2 players still in the game, any stripes; a finished game
    table solution (exact, float64): 3 or 4 players still in the game, their stripes within the table solver's MAX_WORK
    table estimate (fitted strengths) (estimate): any table of 2 to 8 players
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dicemath.core.game import Game
from dicemath.core.requests import Field, advice_view
from dicemath.games.pitjesbak.rules import DICE, DIE_VALUE_VARIANTS, MAX_THROWS, PIPS, STANDARD, Rules
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
        """The state of ``text`` within the command line's stripes (:data:`.commands.MAX_STRIPES`).

        Raises:
            InvalidStateError: text that is no state, or more stripes than the bound.
        """
        from dicemath.games.pitjesbak.commands import check_stripes_bound

        state = State.from_str(text)
        check_stripes_bound([state.rules.stripes], "the state's starting stripes")
        check_stripes_bound(state.stripes, "the state's stripes")
        return state

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

    def page_fields(self) -> tuple[Field, ...]:
        """The two-player form of ``pitjesbak advise`` (a table of more players: its state's text
        form), its stripes within the command line's bound (:data:`.commands.MAX_STRIPES`)."""
        from dicemath.games.pitjesbak.commands import MAX_STRIPES

        follower = ("role", ("follower",))
        return (Field("my_stripes", "int", "My stripes", required=True, low=0, high=MAX_STRIPES, example="9"),
                Field("my_wiped", "flag", "I have wiped a stripe before", default=False),
                Field("their_stripes", "int", "Their stripes", required=True, low=0, high=MAX_STRIPES, example="9"),
                Field("their_wiped", "flag", "They have wiped before", default=False),
                Field("role", "choice", "I am", default="start", choices=("start", "follower"),
                      choice_labels=("the start player", "the follower")),
                Field("throw_number", "int", "Throws used, this one included", f"1..{MAX_THROWS} (PIT-4)",
                      required=True, low=1, high=MAX_THROWS, example="1"),
                Field("current", "throw", "My throw", required=True, example="6-5-4", dice=DICE, wide=True),
                Field("best", "throw", "Start player's counting throw", required=True, example="1-1-2", dice=DICE,
                      when=follower),
                Field("limit", "int", "Limit (throws allowed)", "default: as many as the start player used (PIT-4)",
                      low=1, high=MAX_THROWS, when=follower),
                Field("stripes", "int", "Stripes at the start of the game",
                      f"default {STANDARD.stripes}, at most {MAX_STRIPES} (PIT-1)", default=STANDARD.stripes, low=1,
                      high=MAX_STRIPES),
                Field("die_values", "choice", "Die values", default=STANDARD.die_values, choices=DIE_VALUE_VARIANTS,
                      choice_labels=("traditional (1 = 100, 6 = 60)", "pips"), wide=True))

    def page_advice(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The page's answer in the two-player form (:meth:`page_fields`): the situation read
        by :func:`.advice.read_situation` (as the command line reads it) and answered by the
        chain, plus ``svg`` and ``view``.

        Raises:
            DicemathError: input the rules refuse.
        """
        from dicemath.games.pitjesbak.advice import read_situation
        from dicemath.games.pitjesbak.drawing import draw

        rules = Rules(stripes=values["stripes"], die_values=values["die_values"])
        state = read_situation(rules, current=values["current"], throw_number=values["throw_number"],
                               limit=values.get("limit"), my_stripes=values["my_stripes"], my_wiped=values["my_wiped"],
                               their_stripes=values["their_stripes"], their_wiped=values["their_wiped"],
                               role=values["role"], best=values.get("best"))
        advice = self.advise(state)
        result = advice.as_dict()
        result["svg"] = draw(state, advice)
        result["view"] = advice_view(advice)
        return result


PITJESBAK_GAME = PitjesbakGame()
"""Pitjesbak."""
