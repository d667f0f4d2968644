"""The facts the shared checks of ``tests/test_games_conformance.py`` need about Backgammon: small
rules variants to play, an invariant, the JSON queries with their documented keys, and bad
input with the error it raises (the keys of :class:`GameFacts` in that test)."""

from __future__ import annotations

from dicemath.core.advice import ENVELOPE
from dicemath.core.errors import IllegalMoveError, InvalidDiceError

ADVICE_ENVELOPE = frozenset(ENVELOPE) | {"options[].action", "options[].value"}
"""The keys of every game's ``advise --json`` (:meth:`dicemath.core.advice.Advice.as_dict`)."""


def invariant(state):
    position = state.position
    assert not any(position.on_roll[p - 1] and position.opponent[24 - p] for p in range(1, 25)), state
    assert (state.cube_value == 1) == (state.cube_owner is None), state


FACTS = {
    "backgammon": dict(
    variants=(dict(), dict(playtive=True)),
    games=6,
    invariant=invariant,
    queries=(
            (("backgammon", "moves", "4HPwATDgc/ABMA", "3", "1"),
             frozenset({"position_id", "dice", "rules", "moves", "moves[].move", "moves[].position_id"})),
            (("backgammon", "show", "4HPwATDgc/ABMA"),
             frozenset({"game", "state", "diagram", "to_act", "legal_moves", "rules", "position_id", "xgid_position",
                        "pip_count", "opponent_pip_count", "phase", "dice", "cube_value", "cube_owner"})),
            (("backgammon", "bearoff", "0,0,0,0,0,2"),
             frozenset({"board", "rules", "pip_count", "mean_rolls", "distribution", "effective_pip_count",
                        "gammon_mean_rolls"})),
            (("backgammon", "cube", "--win", "0.72", "--gammon", "0.12", "--lose-gammon", "0.03"),
             frozenset({"win", "gammon", "backgammon", "lose_gammon", "lose_backgammon", "average_win",
                        "average_loss", "cubeless_equity", "efficiency", "take_point", "take_point_dead",
                        "take_point_live", "cash_point", "doubling_point", "redoubling_point", "cubeful_equity",
                        "no_double", "double_take", "action"})),
        ),
    bad_rules=(dict(playtive="yes"), dict(playtive=1), dict(playtive=None)),
    bad_texts=("", "4HPwATDgc/ABMA X nowhere cube 1", "4HPwATDgc/ABMA X roll cube 3",
                   "4HPwATDgc/ABMA X roll cube 2", "4HPwATDgc/ABMA Z roll cube 1", "notAnId X roll cube 1",
                   "4HPwATDgc/ABMA X play 7-1 cube 1", "4HPwATDgc/ABMA X over cube 1",
                   "4HPwATDgc/ABMA X may-double cube 2O"),
    bad_actions=(((), (3, 3), InvalidDiceError), ((), (7, 1), InvalidDiceError),
                     (("6-5",), "double", IllegalMoveError), (("6-5",), "24/14", IllegalMoveError),
                     (("6-5", "24/13"), "take", IllegalMoveError)),
    bad_action_texts=(((), "6-6", InvalidDiceError), ((), "six-five", IllegalMoveError),
                          (("6-5",), "24/20 13/7", IllegalMoveError), (("6-5",), "23/17 24/19", IllegalMoveError)),
    bad_query=("backgammon", "moves", "notAnId", "3", "1"),
    ),
}
