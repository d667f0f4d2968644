"""Pictures of Pegs and Fives states: the plank and the score pad, the throw, the advice."""

import xml.etree.ElementTree as ET

import pytest

from dicemath.core.errors import IllegalMoveError
from dicemath.core.advice import Advice, Option
from dicemath.games.pegs_fives.drawing import draw
from dicemath.games.pegs_fives.game import advise
from dicemath.games.pegs_fives.rules import FIVES, PEGS
from dicemath.games.pegs_fives.state import initial_state

SVG = "{http://www.w3.org/2000/svg}"


def classed(root, name):
    """The elements of ``root`` whose class is ``name``."""
    return [e for e in root.iter() if e.get("class") == name]


def words(root):
    """Every text element's own words (a tooltip's text excluded)."""
    return ["".join([t.text or ""] + [child.tail or "" for child in t]) for t in root.iter(f"{SVG}text")]


def tooltips(root):
    return [t.text for t in root.iter(f"{SVG}title")]


BOARD = [5] * 9 + [3, 2, 0]


def test_the_pegs_plank_shows_twelve_rows_their_pegs_and_the_rows_that_are_in():
    root = ET.fromstring(draw(initial_state(PEGS, BOARD)))
    assert root.find(f"{SVG}title").text == "Pegs, turn 1"
    assert len(classed(root, "peg")) == 12
    assert len(classed(root, "hole filled")) == sum(BOARD) == 50
    assert len(classed(root, "hole")) == 12 * 5 - 50
    assert len(classed(root, "complete")) == 9
    assert words(root).count("in") == 9
    labels = [t.text for t in root.iter(f"{SVG}text") if t.get("font-size") == "16"]
    assert labels == [str(row) for row in range(1, 13)]
    assert "row 10: at step 3 of 5" in tooltips(root) and "row 1: in" in tooltips(root)


def test_the_fives_pad_shows_the_marks_made_and_the_rest_points():
    board = [5, 3, 2, 0, 5, 1, 0, 4, 5, 2, 0, 1]
    root = ET.fromstring(draw(initial_state(FIVES, board)))
    assert root.find(f"{SVG}title").text == "Fives, turn 1"
    assert len(classed(root, "box marked")) == sum(board)
    assert len(classed(root, "box")) == 60 - sum(board)
    assert len(classed(root, "complete")) == 3 and words(root).count("complete") == 3
    assert "rest points now 233" in words(root)
    assert "number 8: 4 of 5 marks" in tooltips(root)


def test_a_choice_throw_is_drawn_as_dice_and_hits_of_the_cycle_are_dashed():
    state = initial_state(PEGS, BOARD).apply((6, 6, 5, 5, 1, 2))
    root = ET.fromstring(draw(state))
    assert len(classed(root, "die")) == 6
    assert "Name a row for the choice throw 6-6-5-5-2-1 (2 throws left after it)" in words(root)
    thrown = state.apply(12)                     # one hit for row 12, four dice thrown on
    root = ET.fromstring(draw(thrown))
    assert not classed(root, "die") and len(classed(root, "pending")) == 1
    assert "row 12: at step 0 of 5, 1 hit this cycle" in tooltips(root)


def test_exact_advice_marks_the_best_row_and_writes_every_option():
    state = initial_state(PEGS, [5] * 9 + [4, 3, 0]).apply((6, 6, 5, 5, 5, 6))
    advice = advise(state)                       # three open rows: an exact solve
    root = ET.fromstring(draw(state, advice))
    (best,) = classed(root, "advised")
    assert best.find(f"{SVG}title").text.startswith(f"row {advice.best.action},")
    assert len(classed(root, "option")) == len(advice.options) - 1 == 2
    shown = " ".join(words(root))
    assert all(f"{a.value:.2f} turns" in shown for a in advice.options)
    assert "Turns still needed after this turn (exact, optimal play)" in words(root)


def rows_advice(state, *rows):
    """Estimated advice with the given ``(row, hits, turns)`` options, best first."""
    return Advice(game=state.rules.name, state=str(state), unit="turns", higher_is_better=False, exact=False,
                  source="estimate", options=tuple(Option(row, str(row), turns, {"hits": hits, "p_no_progress": 0.0})
                                                   for row, hits, turns in rows))


def test_estimated_advice_says_so():
    state = initial_state(FIVES).apply((1, 2, 3, 4, 5, 6))
    advice = rows_advice(state, (7, 3, 40.2), (1, 1, 41.0))
    root = ET.fromstring(draw(state, advice))
    (best,) = classed(root, "advised")
    assert "best: 40.20 turns (3 hits)" in words(best)
    assert any(w.startswith("Turns still needed after this turn (estimates)") for w in words(root))


def test_advice_for_a_row_that_cannot_be_named_is_an_error():
    state = initial_state(PEGS, BOARD).apply((6, 6, 5, 5, 1, 2))
    with pytest.raises(IllegalMoveError, match="advice for row 1"):
        draw(state, rows_advice(state, (1, 1, 3.0)))
    with pytest.raises(IllegalMoveError, match="advice for row 12"):
        draw(initial_state(PEGS, BOARD), rows_advice(initial_state(PEGS, BOARD), (12, 1, 3.0)))


def test_the_end_of_the_game_and_of_a_single_turn():
    done = initial_state(PEGS, [5] * 11 + [4]).apply((6, 6, 1, 1, 1, 1)).apply(12)
    assert "Every row is in after 1 turn" in words(ET.fromstring(draw(done)))
    turn = initial_state(PEGS, BOARD, single_turn=True).apply((2, 2, 3, 3, 4, 4))
    assert "The turn is over" in words(ET.fromstring(draw(turn)))


def test_repr_svg_is_the_drawing():
    state = initial_state(FIVES).apply((1, 2, 3, 4, 5, 6))
    assert state._repr_svg_() == draw(state)
