"""Table states of Pegs and Fives: every player's board, the turn passing round the table, rounds,
totals and results, the text form, and the advice of the player to move."""

from __future__ import annotations

import json
import random

import pytest

from dicemath.core.errors import DicemathError, IllegalMoveError, InvalidStateError
from dicemath.core.game import CHANCE, TERMINAL, check_random_play, random_playout
from dicemath.games.pegs_fives.limits import SESSION_MAX_ROUNDS, TABLE_MAX_PLAYERS
from dicemath.games.pegs_fives.game import FIVES_GAME, PEGS_GAME, is_session, table_advice
from dicemath.games.pegs_fives.race_advice import race_advice
from dicemath.games.pegs_fives.rules import FIVES, PEGS
from dicemath.games.pegs_fives.state import State, initial_state, rest_points
from dicemath.games.pegs_fives.table_state import (
    TableState, check_table_state, table_decision, table_start)

SMALL_PEGS = PEGS.variant(rows=3)
SMALL_FIVES = FIVES.variant(rows=3)


def _round_trips(state) -> None:
    check_table_state(state)
    assert TableState.from_str(str(state)) == state
    assert FIVES_GAME.read_state(str(state)) == state


@pytest.mark.parametrize("rules, players, rounds", [(SMALL_PEGS, 3, 1), (SMALL_FIVES, 3, 3), (SMALL_FIVES, 6, 2),
                                                    (SMALL_PEGS, 2, 1)])
def test_random_games_keep_the_invariant_and_the_text_round_trips(rules, players, rounds):
    visited = check_random_play(table_start(rules, players, rounds=rounds), games=3, seed=3, invariant=_round_trips)
    assert visited > 30


def test_a_solitaire_state_and_its_text_are_todays():
    state = FIVES_GAME.read_state(str(initial_state(FIVES).apply((1, 2, 3, 4, 5, 6))))
    assert type(state) is State
    assert str(state) == ("fives | board 0,0,0,0,0,0,0,0,0,0,0,0 | turns 0 | dice 6 throws - | row - count 0 | "
                          "roll 6-5-4-3-2-1")


def _solitaire_turn(rules, board, rng):
    """A turn played on the solitaire engine with ``rng``'s dice, the lowest legal row named."""
    state = initial_state(rules, board, single_turn=True)
    while not state.over:
        state = state.apply(rng.choice([o for o, _ in state.chance_outcomes()]) if state.roll is None
                            else state.legal_actions()[0])
    return state.board


def test_each_seat_plays_the_solitaire_turn_in_turn():
    """The table, played with the same dice and rows as the solitaire engine turn by turn,
    moves the seats 0, 1, 2, 0, ... and leaves each board where the solitaire turn does."""
    rules = SMALL_PEGS
    state, table_rng, solo_rng = table_start(rules, 3), random.Random(11), random.Random(11)
    boards = [(0,) * rules.rows] * 3
    for turn in range(9):
        assert state.mover == turn % 3 and state.current_player() == CHANCE
        boards[turn % 3] = _solitaire_turn(rules, boards[turn % 3], solo_rng)
        mover = state.mover
        while state.mover == mover and not state.over:
            state = state.apply(table_rng.choice([o for o, _ in state.chance_outcomes()]) if state.roll is None
                                else state.legal_actions()[0])
        if state.over:
            assert state.boards[mover] == boards[mover] == (rules.goal,) * rules.rows
            break
        assert list(state.boards) == boards


def _finish_round(state: TableState, rng: random.Random) -> tuple[TableState, TableState]:
    """The state before the step that ends the round of ``state`` (random dice and rows), and after it."""
    rounds = state.rounds_left
    while True:
        after = state.apply(rng.choice([o for o, _ in state.chance_outcomes()]) if state.roll is None
                            else rng.choice(state.legal_actions()))
        if after.rounds_left != rounds:
            return state, after
        state = after


def test_a_fives_session_adds_rest_points_moves_the_start_and_shares_a_tie():
    rules, rng = FIVES.variant(rows=2), random.Random(4)
    state = table_start(rules, 3, rounds=3)
    for round_number in range(3):
        assert (state.starter, state.mover, state.rounds_left) == (round_number, round_number, 3 - round_number)
        before, state = _finish_round(state, rng)
        # every board's rest points (FIVES-6) on the totals; the finisher's board complete: 0
        assert state.totals == tuple(total + (0 if seat == before.mover else rest_points(board, rules.goal))
                                     for seat, (total, board) in enumerate(zip(before.totals, before.boards)))
        assert state.over == (round_number == 2)
        if not state.over:
            assert state.boards == ((0, 0),) * 3
    assert state.current_player() == TERMINAL and state.boards[state.mover] == (5, 5)
    low = min(state.totals)
    winners = [seat for seat, total in enumerate(state.totals) if total == low]
    assert state.returns() == tuple(1 / len(winners) if seat in winners else 0.0 for seat in range(3))
    tied = TableState.from_str(str(state).replace(f"totals {','.join(map(str, state.totals))}", "totals 7,3,3"))
    assert tied.returns() == (0.0, 0.5, 0.5)


def test_the_round_ends_on_a_complete_board_with_every_board_s_rest_points():
    rules = FIVES.variant(rows=2)
    state = TableState.from_str("fives rows=2 | boards 5,3; 1,4; 5,0 | mover 1 | dice 6 throws - | row - count 0 | "
                                "roll - | totals 4,0,9 | rounds left 2 | starter 2")
    state = state.apply((1, 1, 1, 1, 1, 2)).apply(2)            # seat 1 completes number 2 (FIVES-5: fresh dice)
    assert state.boards[1] == (1, 5) and state.mover == 1
    after = state.apply((1, 1, 1, 1, 1, 1)).apply(1)            # six 1s: number 1 complete, the board too
    assert after.totals == (4 + rest_points((5, 3), 5), 0, 9 + rest_points((5, 0), 5)) == (8, 0, 19)
    assert (after.boards, after.mover, after.starter, after.rounds_left) == (((0, 0),) * 3, 0, 0, 1)
    assert after.rules == rules


def test_pegs_returns_one_for_the_first_to_finish():
    state = TableState.from_str("pegs rows=1 | boards 4; 3; 2 | mover 2 | dice 6 throws 3 | row - count 0 | roll - | "
                                "totals 0,0,0 | rounds left 1 | starter 0")
    end = state.apply((1, 1, 1, 6, 6, 6)).apply(1)             # three hits: 2 -> 5, in
    assert end.current_player() == TERMINAL and end.returns() == (0.0, 0.0, 1.0)
    with pytest.raises(IllegalMoveError, match="over"):
        end.apply((1, 1, 1, 1, 1, 1))


@pytest.mark.parametrize("text, problem", [
    ("pegs rows=1 | boards 4 | mover 0 | dice 6 throws 3 | row - count 0 | roll - | totals 0 | rounds left 1 | "
     "starter 0", "2..6 players"),
    ("pegs rows=1 | boards 4; 5 | mover 0 | dice 6 throws 3 | row - count 0 | roll - | totals 0,0 | rounds left 1 | "
     "starter 0", "complete"),
    ("pegs rows=1 | boards 4; 3 | mover 2 | dice 6 throws 3 | row - count 0 | roll - | totals 0,0 | rounds left 1 | "
     "starter 0", "mover"),
    ("pegs rows=1 | boards 4; 3 | mover 0 | dice 6 throws 3 | row - count 0 | roll - | totals 0,0 | rounds left 2 | "
     "starter 0", "one game"),
    ("fives rows=1 | boards 4; 3 | mover 0 | dice 6 throws - | row - count 0 | roll - | totals 0 | rounds left 2 | "
     "starter 0", "totals"),
    ("fives rows=1 | boards 4; 3 | mover 0 | dice 7 throws - | row - count 0 | roll - | totals 0,0 | rounds left 2 | "
     "starter 0", "dice"),
    ("fives rows=1 | boards 4; 3 | mover 0 | dice 6 throws - | row - count 0 | roll 6-6-6-6-6-6 | totals 0,0 | "
     "rounds left 2 | starter 0", "names no row"),
    ("fives rows=1 | boards 4; 3 | mover 0 | dice 6 throws - | row - count 0 | roll - | totals 0,0 | rounds left 0 | "
     "starter 0", "finished game"),
    ("fives rows=1 | boards 4; 3; x | mover 0 | dice 6 throws - | row - count 0 | roll - | totals 0,0,0 | "
     "rounds left 1 | starter 0", "cannot read"),
])
def test_texts_of_states_no_table_reaches_are_refused_by_name(text, problem):
    with pytest.raises(InvalidStateError, match=problem):
        TableState.from_str(text)


@pytest.mark.parametrize("game, players, rounds, problem", [
    (PEGS_GAME, 1, 1, "2..6 players"), (FIVES_GAME, TABLE_MAX_PLAYERS + 1, 1, "2..6 players"),
    (FIVES_GAME, 3, 0, "rounds"), (FIVES_GAME, 3, SESSION_MAX_ROUNDS + 1, "rounds"), (PEGS_GAME, 3, 2, "one game")])
def test_a_table_start_refuses_what_the_rules_refuse(game, players, rounds, problem):
    with pytest.raises(InvalidStateError, match=problem):
        game.table_start(players, rounds=rounds)


def test_the_games_table_start_reads_back_and_plays():
    state = FIVES_GAME.table_start(4, SMALL_FIVES, rounds=2)
    assert FIVES_GAME.read_state(str(state)) == state and state.players == 4
    end = random_playout(state, random.Random(2))
    assert end.current_player() == TERMINAL and sum(end.returns()) == pytest.approx(1.0)
    assert PEGS_GAME.table_start(2).rules is PEGS


def test_the_table_advice_is_race_advice_against_the_others_in_the_order_they_move():
    """Seat 1 of three moves: his opponents are seat 2, then seat 0 (race advice's order)."""
    rules = PEGS.variant(rows=4)
    boards = ((3, 4, 0, 2), (4, 1, 2, 3), (1, 4, 4, 0))
    state = TableState(rules, boards, 1, 6, 2, None, 0, (1, 2, 3, 3, 4, 4), (0, 0, 0))
    check_table_state(state)
    advice = PEGS_GAME.advise(state)
    direct = race_advice(rules, boards[1], (1, 2, 3, 3, 4, 4), [boards[2], boards[0]], throws=3)
    assert advice == direct and advice.extras["opponents"] == [list(boards[2]), list(boards[0])]
    swapped = race_advice(rules, boards[1], (1, 2, 3, 3, 4, 4), [boards[0], boards[2]], throws=3)
    assert swapped.extras["opponents"] != advice.extras["opponents"]


def test_a_single_fives_round_is_race_advice_and_a_session_is_not():
    rules = FIVES
    one_round = table_decision(rules, [3] * 12, (6, 6, 6, 6, 2, 1), [[5] * 11 + [4], [4] * 12])
    assert not is_session(one_round)
    assert table_advice(one_round) == race_advice(rules, [3] * 12, (6, 6, 6, 6, 2, 1), [[5] * 11 + [4], [4] * 12])
    assert is_session(table_decision(rules, [3] * 12, (6, 6, 6, 6, 2, 1), [[4] * 12], rounds_left=2))
    assert is_session(table_decision(rules, [3] * 12, (6, 6, 6, 6, 2, 1), [[4] * 12], totals=(3, 0)))
    assert not is_session(table_decision(rules, [3] * 12, (6, 6, 6, 6, 2, 1), [[4] * 12], totals=(3, 3)))
    with pytest.raises(DicemathError, match="session"):
        table_advice(table_decision(rules, [3] * 12, (6, 6, 6, 6, 2, 1), [[4] * 12], rounds_left=2), objective="win")


def test_nobody_is_advised_at_a_throw_or_after_the_game():
    with pytest.raises(InvalidStateError, match="dice are next"):
        PEGS_GAME.advise(table_start(PEGS, 3))


def test_a_fives_session_is_advised_for_the_session():
    state = table_decision(FIVES.variant(rows=3), [3, 4, 0], (3, 3, 2, 1, 1, 6), [[4, 4, 2], [1, 4, 4]],
                           totals=(10, 30, 25), rounds_left=2, starter=1)
    advice = FIVES_GAME.advise(state)
    assert advice.extras["objective"] == "session"
    assert sorted(o.action for o in advice.options) == list(state.legal_actions())
    assert all(0 <= float(o.value) <= 1 for o in advice.options)


BOARD, ROLL = "3,3,3,3,3,3,3,3,3,3,3,3", "6,6,6,6,2,1"
OPPONENTS = ("5,5,5,5,5,5,5,5,5,5,5,4", "4,4,4,4,4,4,4,4,4,4,4,4")


def _answer(argv, capsys) -> dict:
    from dicemath.cli import main

    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def _boards(*texts):
    return [[int(step) for step in text.split(",")] for text in texts]


def test_the_command_advises_the_table_state_of_its_options(capsys):
    """``fives advise`` with two opponents and a session's options answers what the game advises
    at the table state they name (the mover in seat 0), the session's options read as T2 says."""
    argv = ["fives", "advise", "--board", BOARD, "--roll", ROLL, "--opponent", OPPONENTS[0], "--opponent", OPPONENTS[1]]
    board, *opponents = _boards(BOARD, *OPPONENTS)
    plain = table_decision(FIVES, board, (6, 6, 6, 6, 2, 1), opponents)
    assert _answer(argv, capsys) == FIVES_GAME.advise(plain).as_dict() == \
        race_advice(FIVES, board, (6, 6, 6, 6, 2, 1), opponents).as_dict()
    session = table_decision(FIVES, board, (6, 6, 6, 6, 2, 1), opponents, totals=(10, 30, 25), rounds_left=2,
                             starter=1)
    assert session.starter == 1 and session.totals_from_mover == (10, 30, 25) and session.rounds_left == 2
    answer = _answer([*argv, "--totals", "10,30,25", "--rounds-left", "2", "--starter", "1"], capsys)
    assert answer == FIVES_GAME.advise(session).as_dict()
    by_text = _answer(["fives", "advise", str(session)], capsys)
    assert by_text == answer


@pytest.mark.parametrize("argv", [
    ["fives", "advise", "--board", BOARD, "--roll", ROLL, "--totals", "1,2"],
    ["fives", "advise", "--board", BOARD, "--roll", ROLL, "--rounds-left", "2"],
    ["fives", "advise", "--board", BOARD, "--roll", ROLL, "--opponent", OPPONENTS[0], "--totals", "1,2,3"],
    ["fives", "advise", "--board", BOARD, "--roll", ROLL, "--opponent", OPPONENTS[0], "--totals", "1,-2"],
    ["fives", "advise", "--board", BOARD, "--roll", ROLL, "--opponent", OPPONENTS[0], "--starter", "2"],
    ["fives", "advise", "--board", BOARD, "--roll", ROLL, "--opponent", OPPONENTS[0], "--rounds-left", "0"],
    ["fives", "advise", "--board", BOARD, "--roll", ROLL, "--opponent", "5," * 11 + "5"],
    ["fives", "advise", "--board", BOARD, "--roll", ROLL, "--opponent", OPPONENTS[0], "--rounds-left", "2",
     "--objective", "win"],
    ["pegs", "advise", "--board", BOARD, "--roll", ROLL, "--opponent", OPPONENTS[0], "--totals", "1,2"],
    ["fives", "advise", str(table_start(FIVES, 2).apply((6, 6, 6, 6, 2, 1))), "--opponent", OPPONENTS[0]],
    ["fives", "advise", str(table_start(FIVES, 2))],
], ids=["totals-alone", "rounds-alone", "totals-length", "negative-total", "starter-seat", "no-round",
        "complete-opponent", "objective-in-session", "pegs-totals", "table-and-opponent", "table-at-a-throw"])
def test_bad_table_input_exits_2_with_a_message(argv, capsys):
    from dicemath.cli import main

    try:
        code = main(argv)
    except SystemExit as stop:                     # argparse's own refusal (an option Pegs lacks)
        code = stop.code
    err = capsys.readouterr().err
    assert code == 2 and "error" in err and "Traceback" not in err


def test_the_page_form_advises_the_table_its_fields_name():
    """The page's fields (the other boards, a session's totals, rounds left and start player)
    give the advice the command line gives for the same table; without other boards, solo advice."""
    from dicemath.core.requests import read_fields

    fields = FIVES_GAME.page_fields()
    assert [f.name for f in fields][-4:] == ["opponents", "totals", "rounds_left", "starter"]
    assert [f.name for f in PEGS_GAME.page_fields()][-1] == "opponents"
    values = read_fields({"board": BOARD, "roll": ROLL, "opponents": "; ".join(OPPONENTS), "totals": "10,30,25",
                          "rounds_left": 2, "starter": 1}, fields)
    answer = FIVES_GAME.page_advice(values)
    board, *opponents = _boards(BOARD, *OPPONENTS)
    expected = FIVES_GAME.advise(table_decision(FIVES, board, (6, 6, 6, 6, 2, 1), opponents, totals=(10, 30, 25),
                                                rounds_left=2, starter=1))
    assert answer["svg"].startswith("<svg") and answer["view"]["headline"] == f"Number {expected.best.text}"
    assert {k: v for k, v in answer.items() if k not in ("svg", "view")} == json.loads(json.dumps(expected.as_dict()))
    solo = FIVES_GAME.page_advice(read_fields({"board": BOARD, "roll": ROLL}, fields))
    assert solo["source"] != expected.source and "race_value" not in solo["options"][0]
    with pytest.raises(DicemathError, match="other players"):
        FIVES_GAME.page_advice(read_fields({"board": BOARD, "roll": ROLL, "rounds_left": 2}, fields))
    with pytest.raises(DicemathError, match="board"):
        FIVES_GAME.page_advice(read_fields({"board": BOARD, "roll": ROLL, "opponents": "1,2;x"}, fields))


QUICK = {"exact_max_rows": 0}
"""Advice settings of the analysis tests: no exact race solved on demand (seconds a position), the
turn-count and session models answer."""


def _played_table(game, rules, players, rounds, seed, *, advised=0.7):
    """The decisions of a game at a table played with seeded dice: at each decision the game's
    advice (:data:`QUICK`) is taken with probability ``advised``, else a random legal row;
    ``[(state, row)]``."""
    rng = random.Random(seed)
    state, decisions = game.table_start(players, rules, rounds=rounds), []
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            outcomes, weights = zip(*state.chance_outcomes())
            state = state.apply(rng.choices(outcomes, weights=[float(w) for w in weights])[0])
            continue
        row = game.advise(state, **QUICK).best.action if rng.random() < advised else rng.choice(state.legal_actions())
        decisions.append((state, row))
        state = state.apply(row)
    return decisions


@pytest.mark.parametrize("game, rules, rounds, unit", [
    (PEGS_GAME, SMALL_PEGS, 1, "win probability"), (FIVES_GAME, SMALL_FIVES, 1, "expected rest-point difference"),
    (FIVES_GAME, SMALL_FIVES, 2, "session win probability")])
def test_a_three_player_game_played_with_the_advisor_is_analysed_by_its_advice(game, rules, rounds, unit):
    """Every decision of a seeded three-player game (a Fives session of two rounds too), recorded as
    its table state, is valued by race advice against the other boards in the order they move
    (asked directly, the second method; a session by the game's advice): the loss is the best
    row's value minus the chosen row's, 0 where the advice was followed."""
    from dicemath.analysis import analyse
    from dicemath.games.registry import GAMES

    played = _played_table(game, rules, 3, rounds, seed=5)
    record = {"game": rules.name, "rules": {"rows": 3}, "settings": QUICK,
              "decisions": [{"state": str(state), "choice": row} for state, row in played]}
    result = analyse(record, GAMES)
    assert result.unit == unit and result.seats == ("seat 0", "seat 1", "seat 2")
    assert len(result.decisions) == len(played) > 5
    assert {decision.player for decision in result.decisions} == {0, 1, 2}
    for (state, row), decision in zip(played, result.decisions):
        if is_session(state):
            values = {o.action: float(o.value) for o in game.advise(state, **QUICK).options}
        else:
            direct = race_advice(rules, state.boards[state.mover], state.roll,
                                 [state.boards[(state.mover + k) % 3] for k in (1, 2)], dice=state.dice,
                                 throws=None if state.throws is None else state.throws + 1, **QUICK)
            values = {o.action: float(o.value) for o in direct.options}
        assert decision.player == state.mover and decision.choice == str(row)
        assert decision.loss == pytest.approx(max(values.values()) - values[row], abs=1e-12)
    assert any(d.loss > 0 for d in result.decisions)


def test_a_decision_at_a_table_reads_as_advise_inputs_or_its_state():
    from dicemath.analysis import analyse
    from dicemath.games.registry import GAMES

    board, *opponents = _boards(BOARD, *OPPONENTS)
    state = table_decision(FIVES, board, (6, 6, 6, 6, 2, 1), opponents, totals=(10, 30, 25), rounds_left=2, starter=1)
    by_state = analyse({"game": "fives", "decisions": [{"state": str(state), "choice": 6}]}, GAMES)
    by_inputs = analyse({"game": "fives", "decisions": [{"board": board, "roll": [6, 6, 6, 6, 2, 1],
                                                         "opponent": opponents, "totals": [10, 30, 25],
                                                         "rounds_left": 2, "starter": 1, "choice": 6}]}, GAMES)
    assert by_state.decisions == by_inputs.decisions and by_state.unit == "session win probability"


@pytest.mark.parametrize("record, problem", [
    ({"game": "pegs", "start": str(table_start(PEGS, 3)), "moves": ["6-6-5-5-2-1"]}, "from its decisions"),
    ({"game": "pegs", "decisions": [
        {"state": str(table_decision(PEGS, [0] * 12, (6, 6, 5, 5, 2, 1), [[0] * 12])), "choice": 6},
        {"state": str(table_decision(PEGS, [0] * 12, (6, 6, 5, 5, 2, 1), [[0] * 12] * 2)), "choice": 6}]},
     "one table"),
    ({"game": "pegs", "rules": {"rows": 3}, "decisions": [
        {"state": str(table_decision(PEGS, [0] * 12, (6, 6, 5, 5, 2, 1), [[0] * 12])), "choice": 6}]}, "rules"),
    ({"game": "pegs", "decisions": [{"state": str(table_start(PEGS, 3)), "choice": 6}]}, "no row"),
    ({"game": "pegs", "decisions": [{"board": [0] * 12, "roll": [6, 6, 5, 5, 2, 1], "opponent": [[0] * 12],
                                     "totals": [1, 2], "choice": 6}]}, "unknown key"),
    ({"game": "fives", "decisions": [{"board": [0] * 12, "roll": [6, 6, 5, 5, 2, 1], "opponent": "0,0",
                                      "choice": 6}]}, "list of boards"),
], ids=["whole-game", "two-tables", "other-rules", "at-a-throw", "pegs-totals", "opponent-text"])
def test_a_bad_table_record_is_refused_by_name(record, problem):
    from dicemath.analysis import analyse
    from dicemath.games.registry import GAMES

    with pytest.raises(DicemathError, match=problem):
        analyse(record, GAMES)


def test_the_command_prints_a_session_s_rows_with_their_session_values(capsys):
    from dicemath.cli import main

    argv = ["fives", "advise", "--board", BOARD, "--roll", ROLL, "--opponent", OPPONENTS[0], "--opponent",
            OPPONENTS[1], "--totals", "10,30,25", "--rounds-left", "2"]
    answer = _answer(argv, capsys)
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "totals 10,30,25 (yours first), 2 round(s) left: session win probability" in text
    for option in answer["options"]:
        assert f"{option['value']:.4f}" in text
    assert f"best: row {answer['best']}" in text
