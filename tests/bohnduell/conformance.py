"""The facts the shared checks of ``tests/test_games_conformance.py`` need about Bohnduell: small
rules variants to play, an invariant, the JSON queries with their documented keys, and bad
input with the error it raises (the keys of :class:`GameFacts` in that test)."""

from __future__ import annotations

from dicemath.core.advice import ENVELOPE
from dicemath.core.errors import IllegalMoveError

ADVICE_ENVELOPE = frozenset(ENVELOPE) | {"options[].action", "options[].value"}
"""The keys of every game's ``advise --json`` (:meth:`dicemath.core.advice.Advice.as_dict`)."""


def invariant(state):
    total = sum(state.stocks) + sum(state.pots) + sum(map(sum, state.cups))
    assert total == 2 * state.rules.stock, state


FACTS = {
    "bohnduell": dict(
    variants=(dict(stock=8), dict(cups=3, stock=6, capture="every"), dict(cups=6, stock=10)),
    games=6,
    invariant=invariant,
    queries=(
            (("bohnduell", "solve", "--stock", "5"),
             frozenset({"cups", "stock", "capture", "value", "value_view", "first_moves", "optimal_first_moves",
                        "principal_variation", "final_pots", "positions", "source", "seconds"})),
            (("bohnduell", "advise", "start", "--stock", "5", "--table-stock", "5", "--depth", "2"),
             ADVICE_ENVELOPE | {"to_move", "value_view", "game_over", "pots", "table_stock", "depth",
                                "options[].move", "options[].method"}),
            (("bohnduell", "show", "start", "--stock", "3"),
             frozenset({"game", "state", "diagram", "to_act", "legal_moves", "position", "capture", "stocks", "cups",
                        "pots"})),
        ),
    bad_rules=(dict(cups=2), dict(cups=11), dict(stock=-1), dict(capture="all"), dict(cups=4.0)),
    bad_texts=("", "5:0,0,0,0:0/5:0,0,0,0:0/C", "5:0,0,0,0:0/4:0,0,0,0:0/A", "5:0,-1,0,1:0/5:0,0,0,0:0/A"),
    bad_actions=(((), "H1", IllegalMoveError), ((), "S9", IllegalMoveError), (("S4",), "P", IllegalMoveError)),
    bad_action_texts=(((), "X1", IllegalMoveError), ((), "S0", IllegalMoveError)),
    bad_query=("bohnduell", "solve", "--cups", "2"),
    ),
}
