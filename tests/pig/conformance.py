"""The facts the shared checks of ``tests/test_games_conformance.py`` need about Pig: small
rules variants to play, an invariant, the JSON queries with their documented keys, and bad
input with the error it raises (the keys of :class:`GameFacts` in that test)."""

from __future__ import annotations

from dicemath.core.advice import ENVELOPE
from dicemath.core.errors import IllegalMoveError

ADVICE_ENVELOPE = frozenset(ENVELOPE) | {"options[].action", "options[].value"}
"""The keys of every game's ``advise --json`` (:meth:`dicemath.core.advice.Advice.as_dict`)."""


FACTS = {
    "pig": dict(
    variants=(dict(goal=10), dict(goal=25)),
    games=6,
    invariant=None,
    queries=(
            (("pig", "game"), frozenset({"game", "rules", "win_probabilities", "hold_at_start",
                                         "published", "states", "layers", "sweeps", "tolerance", "solve_seconds"})),
            (("pig", "show", "start"),
             frozenset({"game", "state", "diagram", "to_act", "legal_moves", "phase", "rules", "scores",
                        "turn_total"})),
        ),
    bad_rules=(dict(goal=0), dict(goal="100"), dict(goal=True)),
    bad_texts=("", "x", "0:0-0 t1 choose", "3:0-0 t0 choose"),
    bad_actions=(((), "hold", IllegalMoveError), ((), 4, IllegalMoveError), (("roll",), "roll", IllegalMoveError)),
    bad_action_texts=(((), "pass", IllegalMoveError),),
    bad_query=("pig", "game", "--goal", "0"),
    ),
}
