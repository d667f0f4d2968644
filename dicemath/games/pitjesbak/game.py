"""Pitjesbak as a :class:`~dicemath.core.game.Game` object (docs/rules.md section 3), with its
chain of value sources.

Which solution answers a decision depends on the players still in the game (PIT-1: a player
put out in an earlier round has left the table) and on their stripes; the limits are written
once, here, and :meth:`PitjesbakGame.sources`, :func:`.table_game.default_solution`, the
command line, the page, the analysis and the report all follow them:

1. ``two-player game solution`` (exact, float64): :data:`GAME_SOLUTION_PLAYERS` players,
   :func:`.game_solver.solve_game` (value iteration with rigorous bounds), any stripes;
2. ``table solution`` (exact, float64): :data:`TABLE_SOLUTION_PLAYERS` players,
   :func:`.table_solver.solve_table` (value iteration), solved on demand and cached, when the
   table's work (:func:`.table_solver.table_work` at the cap :func:`table_cap`) is at most
   :data:`.table_solver.MAX_WORK`;
3. ``table estimate (fitted strengths)`` (estimate): any table of 2 to 8 players,
   :func:`.table_estimate.estimate_table`.

Example:
    >>> PITJESBAK_GAME.read_state(str(PITJESBAK_GAME.initial_state())) == PITJESBAK_GAME.initial_state()
    True
    >>> print(PITJESBAK_GAME.sources(STANDARD).describe())
    two-player game solution (exact, float64): 2 players still in the game, any stripes
    table solution (exact, float64): 3 or 4 players still in the game, their stripes within the table solver's MAX_WORK
    table estimate (fitted strengths) (estimate): any table of 2 to 8 players
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from dicemath.core.game import Game
from dicemath.core.requests import choice_field, flag_field, int_field, int_list_field, text_field
from dicemath.games.pitjesbak.rules import PIPS, STANDARD, Rules
from dicemath.games.pitjesbak.state import State, initial_state

GAME_SOLUTION_PLAYERS = 2
"""Players still in the game that the two-player game solution answers."""

TABLE_SOLUTION_PLAYERS = (3, 4)
"""Players still in the game that the table solver answers exactly (within its work limit)."""

ESTIMATE_PLAYERS = (2, 3, 4, 5, 6, 7, 8)
"""Players still in the game that the labelled estimate answers (every table of PIT-1)."""

def round_stripes(state: State) -> tuple[int, ...]:
    """The stripes of the players still in the game, in this round's turn order."""
    return tuple(state.stripes[seat] for seat in state.order)


def table_cap(rules: Rules, stripes: Sequence[int] = ()) -> int:
    """The cap of the table solved for ``stripes``: :data:`.table_solver.DEFAULT_CAP_EXTRA`
    above the starting stripes, or the most stripes held (PIT-7 penalties)."""
    from dicemath.games.pitjesbak.table_solver import DEFAULT_CAP_EXTRA

    return max((rules.stripes + DEFAULT_CAP_EXTRA, *stripes))


def table_solvable(rules: Rules, stripes: Sequence[int]) -> bool:
    """Whether the table solver answers a table holding ``stripes`` (one count a player, in
    turn order) exactly: :data:`TABLE_SOLUTION_PLAYERS` players and a work within
    :data:`.table_solver.MAX_WORK`."""
    if len(stripes) not in TABLE_SOLUTION_PLAYERS:
        return False
    from dicemath.games.pitjesbak.table_solver import MAX_WORK, table_work

    return table_work(rules.with_players(len(stripes)), table_cap(rules, stripes)) <= MAX_WORK


def _given_exact(solution: Any) -> bool | None:
    """None without a solution; else whether the given solution is exact."""
    if solution is None:
        return None
    from dicemath.games.pitjesbak.game_solver import GameSolution

    return True if isinstance(solution, GameSolution) else bool(solution.exact)


def _covers_game(state: State, solution: Any = None, **_: Any) -> bool:
    return len(state.order) == GAME_SOLUTION_PLAYERS and _given_exact(solution) in (None, True)


def _covers_table(state: State, solution: Any = None, **_: Any) -> bool:
    given = _given_exact(solution)
    if len(state.order) not in TABLE_SOLUTION_PLAYERS or given is False:
        return False
    return given is True or table_solvable(state.rules, round_stripes(state))


def _covers_estimate(state: State, solution: Any = None, **_: Any) -> bool:
    return len(state.order) in ESTIMATE_PLAYERS and _given_exact(solution) in (None, False)


def _answer(name: str):
    """The advise function of source ``name``: :func:`.advice.decide` on the state (with the
    given ``solution``, else the source's default), named ``name``."""

    def advise(state: State, solution: Any = None, **_: Any):
        from dicemath.games.pitjesbak.advice import decide, decision_advice

        if solution is None and name == ESTIMATE:
            from dicemath.games.pitjesbak.table_estimate import estimate_table

            solution = estimate_table(state.rules.with_players(len(state.order)))
        return decision_advice(state, decide(state, solution=solution), source=name)

    return advise


GAME_SOLUTION = "two-player game solution"
TABLE_SOLUTION = "table solution"
ESTIMATE = "table estimate (fitted strengths)"


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
        """The chain (see the module docstring); the settings its sources take: ``solution``, a
        solved game or table to answer with instead of the default one (it must be of the
        source's kind: exact, or an estimate)."""
        from dicemath.core.sources import Source, SourceChain

        return SourceChain(
            Source(GAME_SOLUTION, True, f"{GAME_SOLUTION_PLAYERS} players still in the game, any stripes",
                   _covers_game, _answer(GAME_SOLUTION)),
            Source(TABLE_SOLUTION, True, f"{' or '.join(map(str, TABLE_SOLUTION_PLAYERS))} players still in the "
                   "game, their stripes within the table solver's MAX_WORK", _covers_table, _answer(TABLE_SOLUTION)),
            Source(ESTIMATE, False, f"any table of {ESTIMATE_PLAYERS[0]} to {ESTIMATE_PLAYERS[-1]} players",
                   _covers_estimate, _answer(ESTIMATE)))

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

        rules = Rules(stripes=int_field(request, "stripes", 9),
                      die_values=choice_field(request, "die_values", DIE_VALUE_VARIANTS, "traditional"))
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
        result, advice = advise_result(state)
        result["svg"] = draw(state, advice)
        return result


PITJESBAK_GAME = PitjesbakGame()
"""Pitjesbak."""
