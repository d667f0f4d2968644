"""The facts the shared checks of ``tests/test_games_conformance.py`` need about Pitjesbak: small
rules variants to play, an invariant, the JSON queries with their documented keys, and bad
input with the error it raises (the keys of :class:`GameFacts` in that test)."""

from __future__ import annotations

from dicemath.core.advice import ENVELOPE
from dicemath.core.errors import IllegalMoveError, InvalidDiceError

ADVICE_ENVELOPE = frozenset(ENVELOPE) | {"options[].action", "options[].value"}
"""The keys of every game's ``advise --json`` (:meth:`dicemath.core.advice.Advice.as_dict`)."""


def invariant(state):
    from dicemath.games.pitjesbak.state import check_invariants
    check_invariants(state)


FACTS = {
    "pitjesbak": dict(
    variants=(dict(), dict(players=3, stripes=3), dict(players=5, stripes=2, die_values="pips")),
    games=4,
    invariant=invariant,
    queries=(
            (("pitjesbak", "classes"), frozenset({"die_values", "denominator", "classes", "total_weight",
                                                 "classes[].label", "classes[].kind", "classes[].rank",
                                                 "classes[].wipe", "classes[].penalty", "classes[].weight",
                                                 "classes[].probability", "classes[].exact",
                                                 "classes[].of_216", "classes[].throws"})),
            (("pitjesbak", "round", "--players", "3"),
             frozenset({"players", "wiped", "exact", "win_probabilities", "win_probabilities_exact",
                        "start_after_throw_1", "start_after_throw_2"})),
            (("pitjesbak", "advise", "--my-stripes", "9", "--their-stripes", "9", "--role", "start",
              "--throw-number", "1", "--current", "2-3-4"),
             ADVICE_ENVELOPE | {"options[].win_values", "decision", "stop_win_probability",
                                "throw_win_probability", "stop_values", "throw_values", "my_stripes", "my_wiped",
                                "their_stripes", "their_wiped", "role", "throw_number", "current"}),
            (("pitjesbak", "advise", "--stripes-left", "4,9,1,3,6", "--wiped", "1,0,1,1,1", "--position", "2",
              "--before", "5-5-5,6-6-2", "--limit", "2", "--throw", "6-6-2", "--throws-used", "1"),
             ADVICE_ENVELOPE | {"options[].win_values", "decision", "stop_win_probability",
                                "throw_win_probability", "stop_values", "throw_values", "stripes", "wiped", "position",
                                "before", "limit", "dice", "throws"}),
            (("pitjesbak", "show", "start"),
             frozenset({"game", "state", "diagram", "to_act", "legal_moves", "players", "die_values", "round",
                        "stripes", "wiped", "alive", "start", "order", "limit", "throws", "current", "results",
                        "rolloff", "winner"})),
        ),
    bad_rules=(dict(players=1), dict(players=9), dict(stripes=0), dict(die_values="metric"),
                   dict(players=True)),
    bad_texts=("", "[0:9 1:9] round 0", "[0:9 1:9] round x start 0 order 0,1 turn 0 limit 0 throws 0 "
                   "current - results - rolloff - winner - | last winner - limit 0 results - | "
                   "2 players 9 stripes traditional",
                   "[0:9 1:9] round 0 start 0 order 0,1 turn 0 limit 0 throws 0 current 7 results - "
                   "rolloff - winner - | last winner - limit 0 results - | 2 players 9 stripes traditional",
                   "[0:9 1:9] round 0 start 0 order 0,1 turn 5 limit 0 throws 0 current - results - "
                   "rolloff - winner - | last winner - limit 0 results - | 2 players 9 stripes traditional",
                   "[0:9] round 0 start 0 order 0,1 turn 0 limit 0 throws 0 current - results - "
                   "rolloff - winner - | last winner - limit 0 results - | 2 players 9 stripes traditional"),
    bad_actions=(((), (1, 2, 7), InvalidDiceError), ((), (1, 2), InvalidDiceError),
                     (("6-5-4",), "pass", IllegalMoveError), ((), "stop", InvalidDiceError)),
    bad_action_texts=(((), "6-5", InvalidDiceError), (("6-5-4",), "pass", IllegalMoveError),
                          (("2-2-3", "stop", "2-2-3"), "seat 2", IllegalMoveError)),
    bad_query=("pitjesbak", "classes", "--stripes", "-1"),
    ),
}
