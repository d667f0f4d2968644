"""BohnDuell (Sackson's *Cups*) as a :class:`~dicemath.core.game.Game` object (docs/rules.md section 5).

Its advice (:meth:`~dicemath.core.game.Game.advise`, the one door to BohnDuell advice) and the
values of its positions come from its chain of sources
(:func:`~dicemath.games.bohnduell.search.source_chain`), with the settings ``depth`` (the
search's plies, 1..12, default 6), ``table_stock`` (the exact table's beans a side,
default 12), ``proof_seconds`` (the time limit of a proof by search, default 20, 0 for none)
and ``proof_table_stock`` (the beans a side of the proof's table, default 26): every legal
move valued by the final pot difference from the mover's view after the move and best play
(BOHN-6, BOHN-7), best first.

Example:
    >>> BOHNDUELL_GAME.read_state(str(BOHNDUELL_GAME.initial_state())) == BOHNDUELL_GAME.initial_state()
    True
    >>> advice = BOHNDUELL_GAME.advise(BOHNDUELL_GAME.read_state("1:1,0,0,0:1/0:3,2,0,0:2/A"), table_stock=8)
    >>> [(str(o.action), o.value) for o in advice.options], advice.exact, advice.source
    ([('H1', 3), ('S1', 1)], True, 'table')
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from dicemath.core.errors import InvalidStateError
from dicemath.core.game import Game
from dicemath.core.numbers import number_text
from dicemath.core.requests import Field, RequestError, view
from dicemath.games.bohnduell.limits import (DEPTH, MAX_DEPTH, MAX_PROOF_SECONDS, MAX_TABLE_STOCK, PROOF_SECONDS,
                                             PROOF_TABLE_STOCK, TABLE_STOCK)
from dicemath.games.bohnduell.rules import CAPTURE_EVERY, CAPTURE_RULES, MAX_CUPS, MIN_CUPS, STANDARD, STANDARD_STOCK
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
        """The position of ``text`` within the command line's beans a player (the exact tables'
        bound, :data:`~.limits.MAX_TABLE_STOCK`).

        Raises:
            InvalidStateError: text that is no position, or more beans a player than the bound.
        """
        position = State.from_str(text, rules)
        if position.rules.stock > MAX_TABLE_STOCK:
            raise InvalidStateError(f"a position with {position.rules.stock} beans a player: at most {MAX_TABLE_STOCK}")
        return position

    def draw(self, state: Any, advice: Any = None) -> str:
        from dicemath.games.bohnduell.drawing import draw

        return draw(state, advice)

    def sources(self, rules: Any) -> Any:
        """The chain (:func:`~dicemath.games.bohnduell.search.source_chain`): the dense table,
        the strong tables, the solved starts, the exact solve of small positions, the proof on
        demand, the alpha-beta search (settings ``depth``, ``table_stock``, ``proof_seconds``,
        ``proof_table_stock``); each source advises and values positions."""
        from dicemath.games.bohnduell.search import source_chain

        return source_chain(rules)

    def register_commands(self, subparsers: Any) -> None:
        from dicemath.games.bohnduell.commands import register

        register(subparsers, self)

    def report_sections(self) -> tuple[Any, ...]:
        from dicemath.reporting.section import Section
        from dicemath.games.bohnduell import report

        return (Section("bohnduell", "BohnDuell: solved up to the standard 40-bean game, and the advisor",
                        partial(report.compute, self), report.render),)

    def analysis(self) -> Any:
        from dicemath.games.bohnduell.analysis import ANALYSIS

        return ANALYSIS

    def page_fields(self) -> tuple[Field, ...]:
        """The position of ``advise`` (``start`` with its variant), the search's depth, the exact table's limit,
        the proof's time limit and its table's."""
        return (Field("position", "text", "Position",
                      "start, or stock:cups:pot/stock:cups:pot/mover, e.g. 38:0,0,1,1:0/40:0,0,0,0:0/B. Moves: Sk sows "
                      "k beans from the stock (BOHN-3), Hd harvests the cup at distance d from the pot (BOHN-5), "
                      "P passes (BOHN-6)",
                      required=True, example="start", wide=True),
                Field("cups", "int", "Cups per row (for start)", "default 4 (BOHN-1)", low=MIN_CUPS, high=MAX_CUPS),
                Field("stock", "int", "Beans per player (for start)",
                      f"default {STANDARD_STOCK}, at most {MAX_TABLE_STOCK} (BOHN-1; the exact tables' bound)",
                      low=0, high=MAX_TABLE_STOCK),
                Field("capture", "choice", "Capture rule (BOHN-4)", default=CAPTURE_RULES[0], choices=CAPTURE_RULES,
                      choice_labels=("last bean", "every bean")),
                Field("depth", "int", "Search depth (plies)", f"default {DEPTH}", default=DEPTH, low=1, high=MAX_DEPTH),
                Field("table_stock", "int", "Exact table up to (beans a side)", f"default {TABLE_STOCK}; 0: none",
                      default=TABLE_STOCK, low=0, high=MAX_TABLE_STOCK),
                Field("proof_seconds", "int", "Proof time limit (seconds)",
                      f"default {PROOF_SECONDS}; 0: no proof, the search's estimate", default=PROOF_SECONDS, low=0,
                      high=MAX_PROOF_SECONDS),
                Field("proof_table_stock", "int", "Proof's table (beans a side)",
                      f"default {PROOF_TABLE_STOCK}; built once, on first use", default=PROOF_TABLE_STOCK, low=0,
                      high=MAX_TABLE_STOCK))

    def page_advice(self, values: Mapping[str, Any]) -> dict[str, Any]:
        from dicemath.games.bohnduell.drawing import draw
        from dicemath.games.bohnduell.state import parse_position

        text = values["position"]
        if text.strip().lower() != "start":
            for name in ("cups", "stock"):
                if values[name] is not None:
                    raise RequestError(f'field "{name}" applies only to the position "start"')
        cups, stock = values["cups"], values["stock"]
        position = parse_position(text, 4 if cups is None else cups, STANDARD_STOCK if stock is None else stock,
                                  values["capture"])
        if position.rules.stock > MAX_TABLE_STOCK:
            raise RequestError(f'field "position": {position.rules.stock} beans a player, at most {MAX_TABLE_STOCK}')
        advice = self.advise(position, depth=values["depth"], table_stock=values["table_stock"],
                             proof_seconds=values["proof_seconds"], proof_table_stock=values["proof_table_stock"])
        result = advice.as_dict()
        result["svg"] = draw(position, advice)
        methods = {o["method"] for o in result["options"]}
        mixed = "; some moves exact, others searched" if not advice.exact and "exact" in methods else ""
        result["view"] = view(f"{result['to_move']} plays {result['best']}" if advice.best else "No move",
                              advice.exact, f"value: {result['value_view']}{mixed}", ("move", "value", "how"),
                              [(o["action"], number_text(o["value"]), o["method"]) for o in result["options"]])
        return result


BOHNDUELL_GAME = BohnDuellGame()
"""BohnDuell."""
