"""Pictures of BohnDuell states: cups, pots and stocks with their beans, the mover, the best move."""

import xml.etree.ElementTree as ET

import pytest

from dicemath.core.errors import IllegalMoveError, InvalidStateError
from dicemath.games.bohnduell.drawing import draw
from dicemath.games.bohnduell.rules import Rules
from dicemath.core.advice import Advice, Option
from dicemath.games.bohnduell.game import BOHNDUELL_GAME
from dicemath.games.bohnduell.state import Move, State, initial_state

SVG = "{http://www.w3.org/2000/svg}"


def classed(root, name):
    """The elements of ``root`` whose class is ``name``."""
    return [e for e in root.iter() if e.get("class") == name]


def words(root):
    """Every text element's own words (a tooltip's text excluded)."""
    return ["".join([t.text or ""] + [child.tail or "" for child in t]) for t in root.iter(f"{SVG}text")]


def counts(root):
    """``{tooltip name: bean count shown}`` of every cup, pot and stock."""
    shown = {}
    for kind in ("cup", "cup ready", "pot", "stock"):
        for group in classed(root, kind):
            name = group.find(f"{SVG}title").text.split(":")[0].rsplit(",", 1)[0]
            shown[name] = int(words(group)[0])
    return shown


def test_every_cup_pot_and_stock_shows_its_beans():
    state = State.from_str("3:0,2,1,5:20/0:1,0,0,4:12/B")
    root = ET.fromstring(draw(state))
    assert root.find(f"{SVG}title").text == "BohnDuell"
    shown = counts(root)
    for player, name in enumerate("AB"):
        for d, beans in enumerate(state.cups[player], 1):
            assert shown[f"{name}'s cup {d} from his pot"] == beans
        assert shown[f"{name}'s pot"] == state.pots[player]
        assert shown[f"{name}'s stock"] == state.stocks[player]
    assert len(shown) == 2 * 4 + 4
    assert {f"{name}{d}" for name in "AB" for d in range(1, 5)} <= set(words(root))
    assert len(classed(root, "cup ready")) == 3        # A's cup 2, B's cups 1 and 4 (BOHN-5)
    assert "B to move; pots: A 20, B 12" in words(root) and len(classed(root, "to-move")) == 1


def test_ten_cups_fit_and_the_end_of_the_game():
    wide = initial_state(Rules(cups=10, stock=12))
    root = ET.fromstring(draw(wide))
    assert len(classed(root, "cup")) == 20 and int(root.get("width")) <= 700
    over = State.from_str("0:0,0,0,0:2/0:0,0,0,0:4/A")
    root = ET.fromstring(draw(over))
    assert "Game over, B wins; pots: A 2, B 4" in words(root) and not classed(root, "to-move")


def test_the_best_sow_is_marked_on_the_board_and_in_the_caption():
    state = initial_state(Rules(stock=6))
    advice = BOHNDUELL_GAME.advise(state, depth=3, table_stock=0)
    root = ET.fromstring(draw(state, advice))
    ring, caption = classed(root, "advised")
    best = advice.best.action
    assert ring.find(f"{SVG}title").text == f"best: sow {best.count} from the stock"
    assert words(caption)[0].startswith(f"Best: sow {best.count} (S{best.count}): ")
    assert len(classed(root, "option")) == min(len(advice.options), 4) - 1


def one_move(state, text, value):
    """Advice holding one exact move."""
    return Advice(game="bohnduell", state=str(state), unit="pots", higher_is_better=True, exact=True,
                  source="table", options=(Option(Move.from_str(text), text, value, {"method": "exact"}),))


def test_the_best_harvest_is_ringed():
    state = State.from_str("3:0,2,1,5:20/0:1,0,0,4:12/B")
    root = ET.fromstring(draw(state, one_move(state, "H4", -3)))
    ring, caption = classed(root, "advised")
    assert ring.find(f"{SVG}title").text == "best: harvest cup 4"
    assert words(caption) == ["Best: harvest cup 4 (H4): -3 (exact)"]


def test_advice_must_be_a_legal_move_of_a_game_in_progress():
    with pytest.raises(IllegalMoveError, match="H2"):
        draw(initial_state(Rules(stock=6)), one_move(initial_state(Rules(stock=6)), "H2", 1))
    with pytest.raises(InvalidStateError, match="game is over"):
        over = State.from_str("0:0,0,0,0:2/0:0,0,0,0:4/A")
        draw(over, one_move(over, "P", 0))


def test_repr_svg_is_the_drawing():
    state = initial_state(Rules(stock=6)).apply("S2")
    assert state._repr_svg_() == draw(state)
