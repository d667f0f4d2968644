"""Backgammon with the doubling cube as a :class:`~dicemath.core.game.Game` object (docs/rules.md section 4).

Example:
    >>> BACKGAMMON_GAME.read_state(str(BACKGAMMON_GAME.initial_state())) == BACKGAMMON_GAME.initial_state()
    True
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import TYPE_CHECKING, Any

from dicemath.core.commands import int_list
from dicemath.core.game import Game
from dicemath.core.requests import Field, RequestError, view
from dicemath.games.backgammon.cube_rules import CUBE_OWNERS, MAX_CUBE
from dicemath.games.backgammon.rules import PLAYTIVE_LIMIT, PRESETS, STANDARD
from dicemath.games.backgammon.state import State, initial_state

if TYPE_CHECKING:
    from dicemath.core.advice import Advice
    from dicemath.core.sources import SourceChain

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
        """The chain of :func:`dicemath.games.backgammon.advice.sources`: the advice at every
        decision (plays and the cube) and the value of every state (setting ``ply``, 0..3)."""
        from dicemath.games.backgammon.advice import sources

        return sources(rules)

    def register_commands(self, subparsers: Any) -> None:
        from dicemath.games.backgammon.commands import register

        register(subparsers, self)

    def report_sections(self) -> tuple[Any, ...]:
        from dicemath.reporting.section import Section
        from dicemath.games.backgammon import report_bearoff, report_cube, report_playtive

        return (Section("backgammon_bearoff", "Backgammon: exact bear-off", partial(report_bearoff.compute, self),
                        report_bearoff.render),
                Section("backgammon_cube", "Backgammon: the doubling cube", partial(report_cube.compute, self),
                        report_cube.render),
                Section("backgammon_playtive", "Backgammon: the Playtive rule measured by self-play",
                        report_playtive.compute, report_playtive.render))

    def analysis(self) -> Any:
        from dicemath.games.backgammon.analysis import ANALYSIS

        return ANALYSIS

    def page_fields(self) -> tuple[Field, ...]:
        """The questions of ``hint`` (a play) and ``cube`` (the Position ID form, and the
        bear-off form of two home boards), each with its options."""
        from dicemath.games.backgammon.gnubg_engine import MAX_PLY

        hint, cube, bearoff = ("hint",), ("cube",), ("bearoff",)
        return (Field("query", "choice", "Question", default="hint", choices=("hint", "cube", "bearoff"),
                      choice_labels=("Which play? (a roll)", "Double, take or pass? (the cube)",
                                     "The cube in a bear-off (two home boards)"), wide=True),
                Field("position", "text", "Position",
                      "GNU Backgammon Position ID or XGID, the player on roll to move (positions with contact need "
                      "the gnubg package); for a bear-off, the home board of the player on roll: checkers on "
                      "points 1..6, e.g. 0,2,0,0,0,0", required=True, example="4HPwATDgc/ABMA", wide=True),
                Field("dice", "throw", "Dice", required=True, example="3-1", when=("query", hint), dice=2, wide=True),
                Field("versus", "ints", "Opponent's home board", "checkers on points 1..6", required=True,
                      example="0,1,0,0,0,0", when=("query", bearoff), wide=True),
                Field("unbounded_cube", "flag", "No cap on the cube (BG-8 caps it at 64)", default=False,
                      when=("query", bearoff)),
                Field("cube_value", "int", "Cube value", "default 1, or 2 when owned (BG-8)", low=1, high=MAX_CUBE,
                      when=("query", cube)),
                Field("cube_owner", "choice", "Cube owner", default="centred", choices=CUBE_OWNERS,
                      choice_labels=("centred", "the player on roll", "the opponent"), when=("query", cube)),
                Field("ply", "int", "Look-ahead (ply)", "default 0", default=0, low=0, high=MAX_PLY,
                      when=("query", hint + cube)),
                Field("rules", "choice", "Rules", default="standard", choices=tuple(PRESETS),
                      choice_labels=("standard", f"playtive (at most {PLAYTIVE_LIMIT} on a point)"),
                      when=("query", hint + cube)))

    def page_advice(self, values: Mapping[str, Any]) -> dict[str, Any]:
        from dicemath.games.backgammon import commands_cube, commands_hint

        query, text = values["query"], values["position"]
        if query == "bearoff":
            board = int_list(text) if commands_cube.is_board_text(text) else None
            if board is None:
                raise RequestError('field "position": a bear-off is asked with a home board, e.g. 0,2,0,0,0,0')
            result = commands_cube.position_result(board, values["versus"],
                                                   None if values["unbounded_cube"] else MAX_CUBE)
            result["svg"] = commands_cube.bearoff_picture(result)
        elif commands_cube.is_board_text(text):
            raise RequestError(f'field "position": a home board is asked with the question "bearoff", not "{query}"')
        elif query == "hint":
            result = commands_hint.hint_result(self, text, values["dice"], values["rules"], values["ply"])
            result["svg"] = commands_hint.hint_picture(text, values["dice"], values["rules"], result)
        else:
            owner = values["cube_owner"]
            value = values["cube_value"] or (1 if owner == "centred" else 2)
            result = commands_cube.advice_result(self, text, value, owner, values["ply"], values["rules"])
            result["svg"] = commands_cube.advice_picture(text, result)
        result["view"] = _page_view(result)
        return result


def _signed(x: float | None) -> str:
    return "-" if x is None else f"{x:+.4f}"


def _percent(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _page_view(r: Mapping[str, Any]) -> dict[str, Any]:
    """What the page shows of the JSON ``r`` of ``hint`` or ``cube`` (either form)."""
    if "moves" in r:
        moves = r["moves"]
        sources = ", ".join(dict.fromkeys(m["source"] for m in moves)) or "-"
        return view(f"Play {moves[0]['move'] or 'nothing'}" if moves else "No legal play",
                    bool(moves) and all(m["source"] == "exact" for m in moves),
                    f"cubeless money equity of the mover, {r['rules']} rules; values from {sources}",
                    ("play", "equity", "win", "source"),
                    [(m["move"] or "(no play)", _signed(m["equity"]), _percent(m["probabilities"]["win"]), m["source"])
                     for m in moves])
    if "position_id" in r:
        actions = ("no double", "double/take", "double/pass")
        return view(f"Cube: {r['action']}", r["method"] == "exact cubeful bear-off",
                    f"{r['method']}; cubeless chances from {r['source']}; win {_percent(r['probabilities']['win'])}; "
                    f"equity per unit cube ({r['cube_value']}, {r['cube_owner']})", ("action", "equity"),
                    [(a, _signed(r[a.replace(" ", "_").replace("/", "_")])) for a in actions],
                    actions.index(r["action"]) if r["action"] in actions else -1)
    names = {"centred": "centred", "owned": "owned by the player on roll", "opponent_owned": "owned by the opponent"}
    return view(f"Centred cube: {r['action']['centred']}", r.get("exact") is not False,
                f"{r.get('method', 'exact cubeful bear-off')}; cubeless win {_percent(r['win_probability'])}",
                ("cube", "no double", "optimal", "action"),
                [(name, _signed(r["no_double"][k]), _signed(r[k]), r["action"][k]) for k, name in names.items()])


BACKGAMMON_GAME: BackgammonGame = BackgammonGame()
"""Backgammon."""

advise = BACKGAMMON_GAME.advise
"""Every legal action of a decision, valued, best first (:meth:`dicemath.core.game.Game.advise`;
setting ``ply``, 0..3, the evaluator's look-ahead).

Example:
    >>> advise(State.from_str("AgAAGAAAAAAAAA X may-double cube 1")).best.text
    'double'
"""
