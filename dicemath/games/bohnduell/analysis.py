"""Analysis of played BohnDuell: every move's cost in beans of final pot difference.

The values come from the game (:data:`~dicemath.games.bohnduell.game.BOHNDUELL_GAME`): a
decision's values, ``exact`` flag and ``source`` are its advice, those ``dicemath bohnduell
advise`` gives; the value of a position is the final pot difference (BOHN-6) under best play
from there, from each player's view (``A - B`` for A), from its chain of sources
(:func:`~dicemath.games.bohnduell.search.source_chain`): exact from the dense table when both
sides lie in it, exact from a solve of a small position or a proof by search finished within
``proof_seconds``, else the alpha-beta search to ``depth`` plies (an estimate). BohnDuell has
no dice, so a whole game has no luck: its value changes only by the players' losses. This
module reads and writes the records.

Records (``docs/analyse.md``): a decision entry holds ``advise``'s inputs, ``position``
(the state's text form, or ``"start"`` with the record's rules) and optionally ``depth``,
``table_stock``, ``proof_seconds`` and ``proof_table_stock``, plus ``choice`` (``"S2"``,
``"H1"``, ``"P"``); a whole game lists the moves from the start, A first (BOHN-7), a forced
pass written ``"P"``. The record's
``rules`` are :class:`~dicemath.games.bohnduell.rules.Rules` fields (``cups``, ``stock``,
``capture``); its ``settings`` may give ``depth`` (default 6, as ``advise``),
``table_stock`` (default 12), ``proof_seconds`` (default 10) and ``proof_table_stock`` (default
20), each within the range ``advise`` takes (the chain's settings).

Example:
    >>> from dicemath.games.bohnduell import analyse
    >>> result = analyse({"game": "bohnduell", "rules": {"stock": 6}, "moves": ["S3"]})
    >>> result.decisions[0].best, result.decisions[0].loss, result.exact
    ('S1', 4.0, True)
"""

from __future__ import annotations

from collections.abc import Mapping

from dicemath.analysis.engine import GameAnalysis
from dicemath.analysis.records import InvalidRecordError, check_keys
from dicemath.core.game import GameState, state_of
from dicemath.games.bohnduell.limits import DEPTH, PROOF_SECONDS, PROOF_TABLE_STOCK, TABLE_STOCK
from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.state import PLAYER_NAMES, State, initial_state, parse_position


def _own(state: GameState) -> State:
    return state_of(state, State, "BohnDuell")


class BohnDuellAnalysis(GameAnalysis):
    """BohnDuell records (see the module docstring)."""

    game = "bohnduell"
    rules_class = Rules
    unit = "beans"
    threshold = 0.5
    seats = PLAYER_NAMES
    required = ("position",)
    settings = {"depth": DEPTH, "table_stock": TABLE_STOCK, "proof_seconds": PROOF_SECONDS,
                "proof_table_stock": PROOF_TABLE_STOCK}

    def initial_state(self, rules: Rules, start: str | None = None) -> State:
        """The start of a game (A moves first), or the position ``start``.

        Raises:
            InvalidStateError, InvalidRecordError: unreadable text, or another variant.
        """
        return initial_state(rules) if start is None else self._position(start, rules)

    def value_label(self, rules: Rules, seats: tuple[str, ...]) -> str:
        return f"final pot difference {seats[0]} - {seats[1]} under best play (beans)"

    def decision_state(self, entry: Mapping, rules: Rules) -> State:
        """The position of an ``advise`` entry, in the record's variant.

        Raises:
            InvalidRecordError: a missing or unknown key, or a position of another variant.
            InvalidStateError: a position text that cannot be read.
        """
        check_keys(entry, self.required, self.optional)
        text = entry["position"]
        if not isinstance(text, str):
            raise InvalidRecordError(f'"position" is the text of a position, got {text!r}')
        return self._position(text, rules)

    @staticmethod
    def _position(text: str, rules: Rules) -> State:
        """The position ``text`` (or ``"start"``) as ``advise`` reads it, in the record's variant."""
        position = parse_position(text, rules.cups, rules.stock, rules.capture)
        if (position.rules.cups, position.rules.capture) != (rules.cups, rules.capture):
            raise InvalidRecordError(f"position {text!r} has {position.rules.cups} cups and capture "
                                     f"{position.rules.capture!r}; the record's rules say {rules.cups} and "
                                     f"{rules.capture!r}")
        return position

    def context(self, state: GameState) -> dict:
        state = _own(state)
        return {"to_move": PLAYER_NAMES[state.to_move], "stock_left": sum(state.stocks),
                "pots": list(state.pots)}

    groupings = {"stage": ("opening", "middle game", "end game")}

    def groups(self, context: Mapping) -> dict[str, str]:
        """The stage by the beans left in both stocks: opening while more than half of the
        standard 80 remain, end game once fewer than 10 do."""
        left = context["stock_left"]
        return {"stage": "opening" if left > 40 else "middle game" if left >= 10 else "end game"}


ANALYSIS = BohnDuellAnalysis()
"""The adapter its game object lists (:meth:`dicemath.core.game.Game.analysis`)."""
