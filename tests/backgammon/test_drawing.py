"""Pictures of Backgammon states: 24 points, checkers, bar, borne off, cube, pips, advice."""

import xml.etree.ElementTree as ET

import pytest

from dicemath.core.advice import Advice, Option
from dicemath.core.errors import IllegalMoveError, InvalidStateError
from dicemath.games.backgammon.drawing import draw
from dicemath.games.backgammon.hint import MoveValue
from dicemath.games.backgammon.position import Position
from dicemath.games.backgammon.state import State, initial_state

SVG = "{http://www.w3.org/2000/svg}"
NO_PROBABILITIES = (0.5, 0.1, 0.0, 0.1, 0.0)


def classed(root, name):
    """The elements of ``root`` whose class is ``name``."""
    return [e for e in root.iter() if e.get("class") == name]


def words(root):
    """Every text element's own words (a tooltip's text excluded)."""
    return ["".join([t.text or ""] + [child.tail or "" for child in t]) for t in root.iter(f"{SVG}text")]


def value(move, equity, source="gnubg-0ply"):
    return MoveValue(move, equity, NO_PROBABILITIES, 0, source, "-")


def ranked(state, *values):
    """Advice holding ``values`` (:class:`MoveValue`), in the order given."""
    return Advice(game="backgammon", state=str(state), unit="equity", higher_is_better=True, exact=False,
                  source="test", options=tuple(Option(v.move, v.move, v.equity, v.as_dict()) for v in values))


def test_the_starting_position_has_fifteen_checkers_a_side_on_24_points():
    root = ET.fromstring(draw(initial_state()))
    assert root.find(f"{SVG}title").text == "Backgammon"
    assert len(classed(root, "checker x")) == len(classed(root, "checker o")) == 15
    assert len(list(root.iter(f"{SVG}polygon"))) == 24
    assert {str(p) for p in range(1, 25)} <= set(words(root))
    assert "X: 167 pips, 0 off, on roll" in words(root) and "O: 167 pips, 0 off" in words(root)
    assert not classed(root, "off x") and not classed(root, "off o")
    (cube,) = classed(root, "cube")
    assert cube.find(f"{SVG}title").text == "Cube 1, in the middle" and "1" in words(cube)


def test_bar_tall_stacks_borne_off_and_an_owned_cube():
    x = [0] * 25
    x[5], x[0], x[24] = 10, 2, 2                 # ten on his 6-point, two on his 1-point, two on the bar
    o = [0] * 25
    o[22], o[12], o[24] = 3, 9, 1
    state = State(Position(tuple(x), tuple(o), 0).swap(), phase="roll", cube_value=4, cube_owner=0)
    root = ET.fromstring(draw(state))
    assert len(classed(root, "checker x")) == 14 and len(classed(root, "checker o")) == 13
    assert len(classed(root, "off x")) == 1 and len(classed(root, "off o")) == 2
    tips = [t.text for t in root.iter(f"{SVG}title")]
    assert "2 checkers of X on the bar" in tips and "1 checker of O on the bar" in tips
    assert "10 checkers of X on his 6-point" in tips and "10" in words(root)
    assert "9 checkers of O on his 13-point" in tips
    (cube,) = classed(root, "cube")
    assert cube.find(f"{SVG}title").text == "Cube 4, owned by X"
    assert "O to roll" in words(root) and "O: 211 pips, 2 off, on roll" in words(root)


def test_a_play_shows_its_dice_and_the_best_play_in_a_caption():
    state = initial_state().apply((3, 1))
    advice = ranked(state, value("8/5 6/5", 0.162), value("24/21 6/5", 0.01), value("13/10 6/5", -0.01),
                    value("24/20", -0.1))
    root = ET.fromstring(draw(state, advice))
    assert len(classed(root, "die")) == 2 and "X to play 3-1" in words(root)
    (best,) = classed(root, "advised")
    assert words(best) == ["Best play: 8/5 6/5, equity +0.162 (gnubg-0ply)"]
    assert [words(o) for o in classed(root, "option")] == [["24/21 6/5, equity +0.010 (-0.152)"],
                                                           ["13/10 6/5, equity -0.010 (-0.172)"]]


def test_the_best_cube_action():
    state = State.from_str("AgAAGAAAAAAAAA X may-double cube 1")
    root = ET.fromstring(draw(state, ranked(state, value("double", 0.889, "exact"), value("roll", 0.444, "exact"))))
    assert len(classed(root, "off x")) == 13 and len(classed(root, "off o")) == 14
    assert words(classed(root, "advised")[0]) == ["Best action: double, equity +0.889 per cube unit (exact)"]
    doubled = state.apply("double")
    taker = ET.fromstring(draw(doubled, ranked(doubled, value("take", -0.889, "exact"), value("pass", -1, "exact"))))
    assert "X doubles to 2: O takes or passes?" in words(taker)
    assert words(classed(taker, "advised")[0])[0].startswith("Best action: take")


def test_advice_must_be_legal_where_someone_decides():
    with pytest.raises(IllegalMoveError):
        draw(initial_state().apply((3, 1)), ranked(initial_state(), value("double", 0.3)))
    with pytest.raises(InvalidStateError, match="nobody decides"):
        draw(initial_state(), ranked(initial_state(), value("8/5 6/5", 0.1)))


def test_the_end_of_a_game():
    over = State.from_str("AgAAGAAAAAAAAA X may-double cube 1").apply("double").apply("pass")
    assert "O passed: X wins 1 point" in words(ET.fromstring(draw(over)))
    gammon = State(Position((0,) * 25, (0,) * 6 + (15,) + (0,) * 18, 0), phase="over", cube_value=2, cube_owner=1)
    assert "X wins a gammon (4 points)" in words(ET.fromstring(draw(gammon)))


def test_repr_svg_is_the_drawing():
    state = initial_state(cube=False)
    assert state._repr_svg_() == draw(state)
    assert not classed(ET.fromstring(draw(state)), "cube")
