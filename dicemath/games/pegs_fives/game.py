"""Pegs and Fives as :class:`~dicemath.core.game.Game` objects (docs/rules.md sections 1 and 2).

Example:
    >>> PEGS_GAME.name, FIVES_GAME.read_state(str(FIVES_GAME.initial_state())) == FIVES_GAME.initial_state()
    ('pegs', True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from dicemath.core.errors import DicemathError, InvalidStateError
from dicemath.core.game import Game, state_of
from dicemath.core.requests import Field, view
from dicemath.games.pegs_fives.rules import FIVES, PEGS, Rules
from dicemath.games.pegs_fives.limits import SESSION_MAX_ROUNDS, TABLE_MAX_PLAYERS
from dicemath.games.pegs_fives.state import State, initial_state

if TYPE_CHECKING:
    from dicemath.analysis.engine import GameAnalysis
    from dicemath.core.advice import Advice
    from dicemath.core.sources import SourceChain
    from dicemath.games.pegs_fives.table_state import TableState


class PegsFivesGame(Game):
    """One of the two games of the shared Pegs/Fives engine; :attr:`preset` says which."""

    preset: Rules = PEGS

    def presets(self) -> dict[str, Rules]:
        return {self.name: self.preset}

    def initial_state(self, rules: Rules | None = None) -> State:
        return initial_state(rules or self.preset)

    def table_start(self, players: int, rules: Rules | None = None, **options: Any) -> TableState:
        """The start of a game of ``players`` (2..6) at one table
        (:func:`~dicemath.games.pegs_fives.table_state.table_start`); the one option ``rounds``:
        Fives, the rounds of a session (FIVES-7; default 1).

        Raises:
            InvalidStateError: players outside 2..6, rounds below 1, or Pegs with more than one round.
            DicemathError: another option.
        """
        from dicemath.games.pegs_fives.table_state import table_start

        unknown = sorted(set(options) - {"rounds"})
        if unknown:
            raise DicemathError(f"a table of {self.title} takes the option rounds, got {', '.join(unknown)}")
        return table_start(rules or self.preset, players, **options)

    def read_state(self, text: str, rules: Rules | None = None) -> State | TableState:
        """A solitaire state, or a table state (its text names every player's ``boards``)."""
        from dicemath.games.pegs_fives.table_state import TableState, is_table_text

        return TableState.from_str(text) if is_table_text(text) else State.from_str(text)

    def draw(self, state: State | TableState, advice: Advice | None = None) -> str:
        """The picture of a solitaire state; of a table state, the mover's turn and every player's
        board (:func:`~dicemath.games.pegs_fives.drawing.draw_table`)."""
        from dicemath.games.pegs_fives.drawing import draw, draw_table

        return draw(state, advice) if isinstance(state, State) else draw_table(state, advice)

    def advise(self, state: Any, **settings: Any) -> Advice:
        """The advice at a decision: of a solitaire state, from :meth:`sources` (the chain of its
        rules); of a table state, the mover's playing to win against the others' boards
        (:func:`table_advice`).

        Raises:
            InvalidStateError: nobody decides at ``state``, or no source covers it.
            DicemathError: bad settings (``objective`` with a session).
        """
        if isinstance(state, State):
            return super().advise(state, **settings)
        from dicemath.games.pegs_fives.table_state import TableState

        return table_advice(state_of(state, TableState, "Pegs/Fives"), **settings)

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
        """The board and the choice throw of ``advise`` (with Pegs' throws left, 1..the rules' budget),
        the other players' boards (``--opponent``) and, in Fives, a session's totals, rounds left
        and start player (FIVES-7)."""
        rules = self.preset
        unit = "peg's step, 5 = in" if rules.throws is not None else "number's marks, 5 = complete"
        fields: tuple[Field, ...] = (
            Field("board", "ints", "Board", f"12 numbers, rows 1..12: each {unit}. Tap the picture to set a row.",
                  required=True, example="5,5,5,5,5,5,5,5,5,4,2,0", wide=True, redraws=True),
            Field("roll", "throw", "Throw", "The choice throw"
                  + (" (fewer than 6 dice: a choice throw with the dice left, PEGS-7)"
                     if rules.on_complete == "remaining" else ""),
                  required=True, example="6-6-5-5-2-1", dice=rules.dice, wide=True))
        if rules.throws is not None:
            fields += (Field("throws", "int", "Throws left before this throw", f"default {rules.throws} (PEGS-3)",
                             low=1, high=rules.throws),)
        fields += (Field("opponents", "text", "The other players' boards",
                         "Their boards (12 numbers each) separated by ';', in the order they move after you: "
                         "advice playing to win against them. Empty: your own turns alone.",
                         wide=True, options=("--opponent",)),)
        if rules.scoring != "rest_points":
            return fields
        return fields + (Field("totals", "ints", "Session totals",
                               "The running totals before this round, yours first, then the others' in the order "
                               "above (FIVES-7). Empty: one round."),
                         Field("rounds_left", "int", "Rounds left", "The rounds still to play, this one included",
                               default=1, low=1, high=SESSION_MAX_ROUNDS),
                         Field("starter", "int", "Started this round",
                               "Who started this round: 0 you, 1 the first player above, ... (FIVES-7)",
                               default=0, low=0, high=TABLE_MAX_PLAYERS - 1))

    def page_advice(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The advice of the form: solo advice at the board and throw; with the other players'
        boards (and a Fives session's totals, rounds left and start player), the advice at the
        table state they name (:func:`~dicemath.games.pegs_fives.table_state.table_decision`).

        Raises:
            DicemathError: input the rules refuse, or a session's fields without the other boards.
        """
        from dicemath.games.pegs_fives.commands import advice_picture
        from dicemath.games.pegs_fives.state import choice_throw_dice, read_board
        from dicemath.games.pegs_fives.table_state import table_decision

        rules, roll = self.preset, values["roll"]
        opponents = [read_board(rules, part.strip()) for part in (values.get("opponents") or "").split(";")
                     if part.strip()]
        totals, rounds_left, starter = values.get("totals"), values.get("rounds_left") or 1, values.get("starter") or 0
        if opponents:
            table = table_decision(rules, values["board"], roll, opponents, throws=values.get("throws"),
                                   totals=totals or None, rounds_left=rounds_left, starter=starter)
            advice = self.advise(table)
            return {**advice.as_dict(), "svg": self.draw(table, advice),
                    "view": self._table_view(advice, len(opponents))}
        if totals or rounds_left != 1 or starter:
            raise DicemathError("a session's totals, rounds left and start player need the other players' boards")
        advice = self.advise_throw(values["board"], roll, dice=choice_throw_dice(rules, roll),
                                   throws=values.get("throws"))
        result = advice.as_dict()
        result["svg"] = advice_picture(advice, rules)
        result["view"] = self._page_view(result)
        return result

    def _table_view(self, advice: Advice, opponents: int) -> dict[str, Any]:
        """What the page shows of advice at a table: the row, each row's value in the advice's unit."""
        noun = "Row" if self.preset.throws is not None else "Number"
        headline = "Nothing to choose" if advice.best is None else f"{noun} {advice.best.text}"
        kind = "exact" if advice.exact else "estimates"
        return view(headline, advice.exact, f"playing to win against {opponents} other player"
                    f"{'s' if opponents > 1 else ''}: {advice.unit} ({kind}, {advice.source})",
                    (noun.lower(), advice.unit), [(o.text, f"{float(o.value):.4f}") for o in advice.options])

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
        from dicemath.games.pegs_fives import (
            report, report_bigger_table, report_full_board, report_playing_to_win, report_sessions)

        return (Section("fives", "Fives: expected turns per number, the advisor, races and rest points",
                        partial(report.compute, self), report.render),
                Section("full_board", "Pegs and Fives on the full board: the exact optimum and every policy measured",
                        report_full_board.compute, report_full_board.render),
                Section("playing_to_win", "Playing to win: Pegs and Fives against the opponent on the table",
                        partial(report_playing_to_win.compute, self), report_playing_to_win.render),
                Section("bigger_table", "Playing at a bigger table: Pegs and Fives with two to five opponents",
                        report_bigger_table.compute, report_bigger_table.render),
                Section("sessions", "Playing a session: Fives for the lowest total over the rounds",
                        report_sessions.compute, report_sessions.render))


def is_session(state: TableState) -> bool:
    """Whether the advice at ``state`` plays for a Fives session (FIVES-7): rounds left after
    this one, or running totals not all equal; a single round with equal totals is today's race."""
    return state.rules.scoring == "rest_points" and (state.rounds_left > 1 or len(set(state.totals)) > 1)


def table_advice(state: TableState, *, objective: str | None = None, **settings: Any) -> Advice:
    """The advice of the player to move at a table, playing to win against the others' boards
    (in the order they move after him): in a Fives session (:func:`is_session`) the session
    advice (:func:`~dicemath.games.pegs_fives.session_advice.session_advice`, his probability of
    winning the session); otherwise race advice
    (:func:`~dicemath.games.pegs_fives.race_advice.race_advice`: Pegs his probability of
    finishing first, PEGS-2; Fives the opponents' mean rest points minus his own, FIVES-6).

    Args:
        state: a table state where the mover names a row.
        objective: race advice's objective (``"win"`` or ``"rest_points"``; default the game's
            own); refused in a session, whose objective is the session.
        settings: the race's or the session's settings (``table``, ``exact_max_rows``).

    Raises:
        InvalidStateError: nobody decides at ``state``.
        DicemathError: an objective in a session, or one the game does not know.

    Example:
        >>> from dicemath.games.pegs_fives.rules import PEGS
        >>> from dicemath.games.pegs_fives.table_state import table_decision
        >>> state = table_decision(PEGS.variant(rows=2), [0, 4], (2, 2, 1, 1, 1, 1), [[4, 4], [0, 0]])
        >>> advice = table_advice(state)          # row 2's two hits would overthrow (PEGS-6)
        >>> advice.extras["objective"], [option.action for option in advice.options], advice.source
        ('win', [1, 2], 'exact three-player race')
    """
    roll = state.roll
    if roll is None or state.over:
        raise InvalidStateError(f"nobody decides at {state}: "
                                f"{'the game is over' if state.over else 'the dice are next'}")
    board, throws = state.boards[state.mover], None if state.throws is None else state.throws + 1
    if is_session(state):
        if objective is not None:
            raise DicemathError("a session is played to win the session (FIVES-7): no other objective with "
                                "totals or rounds left")
        from dicemath.games.pegs_fives.session_advice import session_advice

        return session_advice(state.rules, board, roll, list(state.opponents), state.totals_from_mover,
                              state.rounds_left, starter=state.starter_from_mover, dice=state.dice, throws=throws,
                              **settings)
    from dicemath.games.pegs_fives.race_advice import race_advice

    return race_advice(state.rules, board, roll, list(state.opponents), dice=state.dice, throws=throws,
                       objective=objective, **settings)


PEGS_GAME = PegsGame()
"""Pegs."""
FIVES_GAME = FivesGame()
"""Fives."""

advise = PEGS_GAME.advise
"""The advice at a Pegs or a Fives decision state (:meth:`dicemath.core.game.Game.advise`: the
chain of the state's rules, :meth:`PegsFivesGame.sources`)."""
