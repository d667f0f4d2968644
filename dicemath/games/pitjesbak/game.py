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

A whole game at one table of 2 to 8 players starts at :meth:`PitjesbakGame.table_start` (the
page's table mode): its states hold every player's stripes, the round and whose throw it is.

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
from functools import partial
from typing import Any

from dicemath.core.errors import DicemathError
from dicemath.core.game import Game
from dicemath.core.requests import Field, advice_view
from dicemath.games.pitjesbak.limits import ESTIMATE_PLAYERS
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

    def table_start(self, players: int, rules: Any = None, **options: Any) -> State:
        """The start of a game of ``players`` at one table (PIT-1): every player with the
        starting stripes of ``rules`` (default :data:`STANDARD`; its ``players`` is replaced),
        seat 0 the first start player, the dice next. A whole game: each round, each player's
        throws and decisions (:meth:`advise` answers the player deciding, playing to win the
        game against the others' stripes), the roll-offs, up to its winner.

        Raises:
            InvalidRulesError: players outside 2..8 (PIT-1).
            InvalidStateError: more starting stripes than the command line's bound
                (:data:`.commands.MAX_STRIPES`).
            DicemathError: an option (a Pitjesbak table takes none).

        Example:
            >>> state = PITJESBAK_GAME.table_start(4)
            >>> state.rules.players, state.player, PITJESBAK_GAME.read_state(str(state)) == state
            (4, 0, True)
        """
        from dicemath.games.pitjesbak.commands import check_stripes_bound

        if options:
            raise DicemathError(f"a Pitjesbak table takes no options, got {', '.join(sorted(options))}")
        table_rules = (rules or STANDARD).with_players(players)
        check_stripes_bound([table_rules.stripes], "the starting stripes")
        return initial_state(table_rules)

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

        return (Section("pitjesbak", "Pitjesbak: when to stop, and who wins", partial(report.compute, self),
                        report.render),)

    def analysis(self) -> Any:
        from dicemath.games.pitjesbak.analysis import ANALYSIS

        return ANALYSIS

    def page_fields(self) -> tuple[Field, ...]:
        """The situation of ``pitjesbak advise`` in its two forms, two players or any table of 2
        to 8 players (PIT-1: one stripe count a player in ``stripes_left``; a state's text form:
        the state form), the stripes within the command line's bound (:data:`.commands.MAX_STRIPES`)."""
        from dicemath.games.pitjesbak.commands import MAX_STRIPES

        two, table, follower = ("form", ("two",)), ("form", ("table",)), ("role", ("follower",))
        return (Field("form", "choice", "Players", default="two", choices=("two", "table"),
                      choice_labels=("two players", "a table of 2 to 8 players"), wide=True),
                Field("my_stripes", "int", "My stripes", required=True, low=0, high=MAX_STRIPES, example="9",
                      when=two),
                Field("my_wiped", "flag", "I have wiped a stripe before", default=False, when=two),
                Field("their_stripes", "int", "Their stripes", required=True, low=0, high=MAX_STRIPES, example="9",
                      when=two),
                Field("their_wiped", "flag", "They have wiped before", default=False, when=two),
                Field("role", "choice", "I am", default="start", choices=("start", "follower"),
                      choice_labels=("the start player", "the follower"), when=two),
                Field("best", "throw", "Start player's counting throw", required=True, example="1-1-2", dice=DICE,
                      when=follower),
                Field("stripes_left", "ints", "Stripes left",
                      "every player's, in turn order from this round's start player, e.g. 4,9,1,3,6",
                      required=True, example="4,9,1,3,6", when=table, wide=True),
                Field("wiped", "ints", "Wiped before", "1 for each player who has wiped a stripe, 0 for the others, "
                      "in the same order (default: none)", example="1,0,1,1,1", when=table, wide=True),
                Field("position", "int", "My turn position", "0 for the start player", required=True, low=0,
                      high=ESTIMATE_PLAYERS[-1] - 1, example="0", when=table),
                Field("before", "text", "Counting throws before mine",
                      "the players before me, in turn order, e.g. 5-5-5,6-6-2 (out: put out by 1-1-1)", when=table,
                      wide=True),
                Field("throw_number", "int", "Throws used, this one included", f"1..{MAX_THROWS} (PIT-4)",
                      required=True, low=1, high=MAX_THROWS, example="1", options=("--throws-used", "--throw-number")),
                Field("current", "throw", "My throw", required=True, example="6-5-4", dice=DICE, wide=True,
                      options=("--throw", "--current")),
                Field("limit", "int", "Limit (throws allowed)", "followers: default as many as the start player "
                      "used (PIT-4)", low=1, high=MAX_THROWS),
                Field("stripes", "int", "Stripes at the start of the game",
                      f"default {STANDARD.stripes}, at most {MAX_STRIPES} (PIT-1)", default=STANDARD.stripes, low=1,
                      high=MAX_STRIPES),
                Field("die_values", "choice", "Die values", default=STANDARD.die_values, choices=DIE_VALUE_VARIANTS,
                      choice_labels=("traditional (1 = 100, 6 = 60)", "pips"), wide=True))

    def page_advice(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The page's answer in either form of :meth:`page_fields`: the situation read by the
        command line's own function (:func:`.commands.advise_state`) and answered by the chain,
        plus ``svg`` and ``view``.

        Raises:
            DicemathError: input the rules refuse.
        """
        from dicemath.games.pitjesbak.commands import advise_state
        from dicemath.games.pitjesbak.drawing import draw

        rules = Rules(stripes=values["stripes"], die_values=values["die_values"])
        throws = {name: None if values.get(name) is None else "-".join(map(str, values[name]))
                  for name in ("current", "best")}
        state = advise_state(rules, current=throws["current"], throw_number=values["throw_number"],
                             limit=values["limit"], stripes_left=values.get("stripes_left"),
                             wiped=values.get("wiped"), position=values.get("position"), before=values.get("before"),
                             my_stripes=values.get("my_stripes"), my_wiped=values.get("my_wiped", False),
                             their_stripes=values.get("their_stripes"), their_wiped=values.get("their_wiped", False),
                             role=values.get("role"), best=throws["best"])
        advice = self.advise(state)
        result = advice.as_dict()
        result["svg"] = draw(state, advice)
        result["view"] = advice_view(advice)
        return result


PITJESBAK_GAME = PitjesbakGame()
"""Pitjesbak."""
