"""The picture of a game at a table (:func:`dicemath.games.pegs_fives.drawing.draw_table`): the
mover's turn as the solitaire picture draws it, every player's board in small, the totals.

Each count in the picture is checked against the state it draws, read a second way: the filled
squares against the sum of the boards' steps, the seats' numbers against ``rest_points`` and the
totals, the result against ``returns()``.
"""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

from dicemath.core.game import CHANCE, TERMINAL, sample_chance
from dicemath.core.numbers import number_text
from dicemath.games.pegs_fives.drawing import TABLE_STATUS_CHARACTERS, draw, draw_table
from dicemath.games.pegs_fives.game import FIVES_GAME, PEGS_GAME
from dicemath.games.pegs_fives.rules import FIVES, PEGS
from dicemath.games.pegs_fives.state import rest_points
from dicemath.games.pegs_fives.table_state import table_decision, table_start
from dicemath.games.pegs_fives.view import status


def titles(picture: str, start: str) -> list[str]:
    return [t for t in re.findall(r"<title>([^<]*)</title>", picture) if t.startswith(start)]


def test_every_board_and_total_of_a_fives_session_is_drawn():
    state = table_decision(FIVES, [5] * 11 + [3], (6, 6, 6, 3, 1, 2), [[4] * 12, [5] * 11 + [0]],
                           totals=(10, 30, 25), rounds_left=2)
    picture = draw_table(state)
    assert ET.fromstring(picture).tag.endswith("svg")
    assert picture.count('class="cell filled"') == sum(map(sum, state.boards))
    assert picture.count('class="cell') == len(state.boards) * FIVES.rows * FIVES.goal
    seats = titles(picture, "seat ")
    assert len(seats) == 3 and "(to move)" in seats[0] and "(to move)" not in seats[1] + seats[2]
    for seat, text in enumerate(seats):
        board = state.boards[seat]
        assert f"board {','.join(map(str, board))}" in text
        assert f"rest points {rest_points(board, FIVES.goal)}, running total {state.totals[seat]}" in text
    assert len(titles(picture, "number ")) == FIVES.rows                  # the mover's rows, tappable
    assert "seat 0 to move (2 rounds left)" in picture


def test_the_advice_is_drawn_beside_the_movers_rows_in_its_unit():
    rules = PEGS.variant(rows=4)
    state = table_decision(rules, [5, 5, 3, 4], (4, 4, 3, 3, 1, 2), [[4, 4, 2, 2]])
    advice = PEGS_GAME.advise(state)
    picture = draw_table(state, advice)
    assert picture.count('class="advised"') == 1 and advice.unit in picture
    label = "" if advice.exact else " (estimate)"
    assert titles(picture, "naming ") == [f"naming {o.action}: {number_text(o.value)}{label}"
                                          for o in sorted(advice.options, key=lambda o: o.action)]
    assert titles(picture, "row ") == titles(draw(state.turn), "row ") and len(titles(picture, "row ")) == 4


def test_a_finished_game_names_its_winners():
    rng = random.Random(3)
    state = table_start(FIVES.variant(rows=2), 3)
    while state.current_player() != TERMINAL:
        state = state.apply(sample_chance(state, rng) if state.current_player() == CHANCE
                            else state.legal_actions()[0])
    picture = draw_table(state)
    winners = [seat for seat, result in enumerate(state.returns()) if result > 0]
    assert ("Seat %d wins" % winners[0] if len(winners) == 1 else "share the win") in picture
    assert 'class="seat mover"' not in picture and not titles(picture, "number ")
    assert FIVES_GAME.read_state(str(state)) == state


def test_a_long_status_wraps_to_the_pictures_width():
    state = table_decision(PEGS, [0] * 12, (6, 6, 5, 3, 2, 1), [[0] * 12], throws=3)
    lines = re.findall(r"<text[^>]*>([^<]*)</text>", draw_table(state))
    start = lines.index(next(line for line in lines if line.startswith("Name a row")))
    wrapped = lines[start:start + 2]
    assert len(wrapped) == 2 and all(len(line) <= TABLE_STATUS_CHARACTERS for line in wrapped)
    assert " ".join(wrapped) == status(state.turn)
