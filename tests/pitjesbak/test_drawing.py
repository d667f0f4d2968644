"""Pictures of Pitjesbak states: stripes, dice, turn and limit, the stop-or-throw advice."""

import xml.etree.ElementTree as ET

import pytest

from dicemath.core.errors import InvalidStateError
from dicemath.games.pitjesbak.advice import StopOrThrow, decision_advice
from dicemath.games.pitjesbak.game import PITJESBAK_GAME
from dicemath.games.pitjesbak.drawing import draw
from dicemath.games.pitjesbak.game_solver import solve_game
from dicemath.games.pitjesbak.rules import Rules
from dicemath.games.pitjesbak.state import initial_state

SVG = "{http://www.w3.org/2000/svg}"


def classed(root, name):
    """The elements of ``root`` whose class is ``name``."""
    return [e for e in root.iter() if e.get("class") == name]


def words(root):
    """Every text element's own words (a tooltip's text excluded)."""
    return ["".join([t.text or ""] + [child.tail or "" for child in t]) for t in root.iter(f"{SVG}text")]


def seats(root):
    """Each seat's group, by seat."""
    found = {}
    for group in root.iter(f"{SVG}g"):
        title = group.find(f"{SVG}title")
        if title is not None and title.text.startswith("seat "):
            found[int(title.text.split()[1].rstrip(":"))] = group
    return found


def test_the_start_of_a_game_shows_nine_stripes_per_player():
    root = ET.fromstring(draw(initial_state()))
    assert root.find(f"{SVG}title").text == "Pitjesbak, round 1"
    groups = seats(root)
    assert sorted(groups) == [0, 1]
    assert [len(classed(groups[seat], "stripe")) for seat in (0, 1)] == [9, 9]
    assert "Seat 0 throws (throw 1 of 3)" in words(root)
    assert not classed(root, "die")


def test_the_current_throw_whose_turn_and_the_limit():
    state = initial_state(Rules(players=4), stripes=(9, 7, 12, 3), wiped=(False, True, True, False))
    state = state.apply((2, 3, 5)).apply("throw").apply((2, 2, 3)).apply("stop").apply((4, 4, 4))
    root = ET.fromstring(draw(state))
    groups = seats(root)
    assert [len(classed(groups[seat], "stripe")) for seat in range(4)] == [9, 7, 12, 3]
    assert "Seat 1: stop, or throw again? (throw 1 of 2)" in words(root)
    assert "Limit this round: 2 throws, the last throw counts" in words(root)
    assert len(classed(groups[0], "die")) == 3 and "2-2-3, +1 stripe" in words(groups[0])
    assert len(classed(groups[1], "die")) == 3 and "zand 4-4-4: stop or throw?" in words(groups[1])
    assert classed(groups[1], "to-throw") and not classed(groups[0], "to-throw")
    assert "won a round" in words(groups[2]) and "waits" in words(groups[3])


def test_a_player_out_and_the_winner():
    out = initial_state(Rules(players=3)).apply((1, 1, 1)).apply("stop")   # no round won yet: out (PIT-6)
    groups = seats(ET.fromstring(draw(out)))
    assert "out" in words(groups[0]) and "threw 1-1-1: out" in words(groups[0])
    won = initial_state(stripes=(1, 2)).apply((6, 5, 4)).apply("stop").apply((3, 3, 3))
    root = ET.fromstring(draw(won))
    assert "Seat 0 wins the game" in words(root)
    assert "winner" in words(seats(root)[0]) and not classed(root, "to-throw")


def test_advice_marks_the_recommended_action_with_both_chances():
    solution = solve_game(Rules(stripes=2), use_cache=False, compare=False)
    state = initial_state(solution.rules).apply((2, 3, 4))
    answer = PITJESBAK_GAME.advise(state, solution=solution)
    advice = answer.detail
    root = ET.fromstring(draw(state, answer))
    (chosen,) = classed(root, "advised")
    (other,) = classed(root, "option")
    name = {"stop": "Stop", "throw": "Throw again"}[advice.decision]
    assert chosen.find(f"{SVG}title").text.startswith(name)
    shown = " ".join(words(root))
    assert f"{advice.stop_probability:.1%}" in shown and f"{advice.throw_probability:.1%}" in shown
    assert "(advised)" in " ".join(words(chosen)) and "(advised)" not in " ".join(words(other))


def test_advice_with_no_throw_left_and_advice_where_nobody_decides():
    state = initial_state().apply((6, 5, 4))
    root = ET.fromstring(draw(state, decision_advice(state, StopOrThrow("stop", 0.7, None, {}))))
    assert "Throw again: no throw left" in words(root)
    with pytest.raises(InvalidStateError, match="nobody decides"):
        draw(initial_state(), decision_advice(state, StopOrThrow("stop", 0.7, None, {})))


def test_estimates_say_so():
    state = initial_state().apply((6, 5, 4))
    advice = decision_advice(state, StopOrThrow("stop", 0.61, 0.48, {}, exact=False))
    shown = " ".join(words(ET.fromstring(draw(state, advice))))
    assert "Estimated chance to win the game" in shown and "Stop: ~61.0%" in shown
    exact = " ".join(words(ET.fromstring(draw(state, decision_advice(state, StopOrThrow("stop", 0.61, 0.48, {}))))))
    assert "Estimated" not in exact and "Stop: 61.0%" in exact


def test_repr_svg_is_the_drawing():
    state = initial_state().apply((2, 3, 5))
    assert state._repr_svg_() == draw(state)
