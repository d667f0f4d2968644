"""The facts the shared checks of ``tests/test_games_conformance.py`` need about Pegs and Fives: small
rules variants to play, an invariant, the JSON queries with their documented keys, and bad
input with the error it raises (the keys of :class:`GameFacts` in that test)."""

from __future__ import annotations

from dicemath.core.advice import ENVELOPE
from dicemath.core.errors import IllegalMoveError, InvalidDiceError

ADVICE_ENVELOPE = frozenset(ENVELOPE) | {"options[].action", "options[].value"}
"""The keys of every game's ``advise --json`` (:meth:`dicemath.core.advice.Advice.as_dict`)."""


def invariant(state):
    from dicemath.games.pegs_fives.state import check_state
    check_state(state)


_PEGS_FIVES_QUERIES = (
    frozenset({"game", "goal", "rows", "rows[].row", "rows[].expected_turns", "rows[].expected_turns_exact",
               "rows[].expected_turns_from", "rows[].median_turns", "rows[].p_within_one_turn",
               "rows[].p_within_one_turn_exact", "rows[].p_within_one_turn_from", "rows[].turn_distribution"}),
    ADVICE_ENVELOPE | {"board", "roll", "board_value", "greedy_choice", "ranking", "recommendation", "estimator",
                       "options[].row", "options[].hits", "options[].expected_turns",
                       "options[].expected_turns_including_this", "options[].p_no_progress"},
    frozenset({"game", "open_rows", "boards", "exact", "arithmetic", "solver", "expected_turns", "expected_turns_exact",
               "greedy_expected_turns", "greedy_expected_turns_exact"}),
    frozenset({"game", "board", "roll", "rows", "rows[].row", "rows[].outcomes"}),
    frozenset({"game", "state", "diagram", "to_act", "legal_moves", "rules", "board", "turns", "dice", "throws",
               "row", "count", "roll", "over"}),
)


def _facts(name: str, variants: tuple[dict, ...]) -> dict:
    """Pegs or Fives: one package, two presets, the same commands."""
    board = "0,0,3,0,0,0,1,0,0,0,0,0"
    argv = ((name, "rows"), (name, "advise", "--board", board, "--roll", "3,3,3,5,6,2"),
            (name, "solve", "--open", "7", "--exact"),
            (name, "turn", "--board", "5,5,5,5,5,5,5,5,5,5,5,3", "--roll", "1,1,4,5,6,6"), (name, "show", board))
    state = "pegs | board 0,0,0,0,0,0,0,0,0,0,0,0 | turns 0 | dice 6 throws 3 | row - count 0 | roll -"
    return dict(
        variants=variants,
        games=4,
        invariant=invariant,
        queries=tuple(zip(argv, _PEGS_FIVES_QUERIES)),
        bad_rules=(dict(rows=0), dict(rows=13), dict(goal=0), dict(dice=7), dict(throws=0),
                   dict(on_complete="never"), dict(scoring="most")),
        bad_texts=("", state.replace("pegs |", "pegs rows=x |"), state.replace("board 0,", "board 6,"),
                   state.replace("dice 6", "dice 7"), state.replace("throws 3", "throws 4"),
                   state.replace("row -", "row 3"),
                   state.replace("roll -", "roll 1-1-1-1-1-1").replace("0,0,0,0,0,0,0,0,0,0,0,", "5," * 11),
                   state.replace("roll -", "roll 6-6-6"), state + " | over",
                   state.replace("pegs |", "pegs goal=0 |"), state.replace("pegs |", "pegs colour=red |")),
        bad_actions=(((), (1, 2, 3, 4, 5, 7), InvalidDiceError), ((), (1, 2, 3), InvalidDiceError),
                     (("6-5-3-3-3-2",), 4, IllegalMoveError), (("6-5-3-3-3-2",), (1, 2), IllegalMoveError)),
        bad_action_texts=(((), "6-5-4", InvalidDiceError), ((), "6-5-x-3-3-2", InvalidDiceError),
                          (("6-5-3-3-3-2",), "row", IllegalMoveError), (("6-5-3-3-3-2",), "13", IllegalMoveError)),
        bad_query=(name, "advise", "--board", "0,0,3", "--roll", "3,3,3,5,6,2"),
    )


FACTS = {
    "pegs": _facts("pegs", (dict(rows=3), dict(rows=4, goal=3), dict(rows=3, throws=2, all_dice_first=False))),
    "fives": _facts("fives", (dict(rows=3), dict(rows=4, goal=3, dice=4), dict(rows=2, on_complete="remaining"))),
}
