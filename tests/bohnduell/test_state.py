"""The BohnDuell rules engine: hand-checked moves, invariants, round-trips, bad input."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dicemath.core.errors import DicemathError, IllegalMoveError, InvalidRulesError, InvalidStateError
from dicemath.core.game import TERMINAL, GameState, check_random_play
from dicemath.games.bohnduell import Move, Rules, State, initial_state
from dicemath.games.bohnduell.sides import potential as side_potential
from dicemath.games.bohnduell.state import PASS_MOVE


def test_protocol_and_random_play():
    for rules in (Rules(), Rules(cups=3, stock=7), Rules(cups=10, stock=25),
                  Rules(stock=13, capture="every")):
        start = initial_state(rules)
        assert isinstance(start, GameState)

        def conserved(state, stated=rules.stock):
            total = sum(state.stocks) + sum(state.pots) + sum(map(sum, state.cups))
            assert total == 2 * stated

        assert check_random_play(start, games=15, seed=3, invariant=conserved) > 15 * 2 * rules.stock // rules.cups


def test_sow_puts_beans_from_the_far_end():
    # BOHN-3: k beans go to distances n, n-1, ..., n-k+1.
    p = initial_state(Rules(stock=10)).apply("S3")
    assert p.cups[0] == (0, 1, 1, 1) and p.stocks[0] == 7 and p.to_move == 1


def test_capture_last_bean_only():
    # A's cups (by distance 1..4) = 0,0,1,1; B's cup at distance 3 faces A's distance 2.
    # A sows 3: beans at d=4 (had 1), d=3 (had 1), d=2 (empty, last) -> captures B's d=3.
    p = State.from_str("5:0,0,1,1:0/3:2,0,5,0:3/A")
    q = p.apply("S3")
    assert q.pots == (5, 3) and q.cups[1] == (2, 0, 0, 0) and q.cups[0] == (0, 1, 2, 2)
    # The seed's example: a bean into an empty cup next to the pot takes the facing two beans.
    p = State.from_str("1:0,1,1,1:0/0:0,0,0,2:4/A")
    assert p.apply("S1").pots == (0, 4)   # S1 goes to d=4, not empty: no capture
    p = State.from_str("4:0,0,0,0:0/0:0,0,0,2:2/A")
    assert p.apply("S4").pots == (2, 2)   # last bean in d=1 (empty) faces B's d=4


def test_capture_every_variant():
    # Sowing 4 into an empty row: in "every" each of d=4,3,2,1 captures B's d=1,2,3,4.
    text = "4:0,0,0,0:0/0:1,1,2,0:4"
    assert State.from_str(text + "/A/every").apply("S4").pots == (4, 4)
    assert State.from_str(text + "/A").apply("S4").pots == (0, 4)   # last bean faces B's empty d=4


def test_harvest_and_pass():
    # BOHN-5: a cup at distance d with exactly d beans empties one per cup towards the pot.
    p = State.from_str("0:0,0,3,0:0/0:3,2,0,0:2/A")
    assert [str(m) for m in p.legal_actions()] == ["H3"]
    q = p.apply("H3")
    assert q.cups[0] == (1, 1, 0, 0) and q.pots == (1, 2)
    # B: cup d=1 holds 3 (overfilled, never harvestable), d=2 holds 2: harvest H2
    assert [str(m) for m in q.legal_actions()] == ["H2"]
    r = q.apply("H2")
    assert r.cups[1] == (4, 0, 0, 0) and r.pots == (1, 3)
    assert r.legal_actions() == [Move("harvest", 1)]
    end = r.apply("H1")
    assert end.current_player() == TERMINAL and end.legal_actions() == []
    assert end.returns() == [-1, 1] and end.winner() == 1
    # BOHN-6: A has no stock and only an overfilled cup: A passes, B still moves.
    p = State.from_str("0:0,0,0,5:0/0:1,0,0,0:4/A")
    assert p.legal_actions() == [PASS_MOVE] and p.current_player() == 0
    q = p.apply("P")
    assert q.to_move == 1 and q.legal_actions() == [Move("harvest", 1)]
    end = q.apply("H1")
    assert end.is_over() and end.returns() == [-5, 5]


def test_illegal_moves():
    p = initial_state(Rules(stock=2))
    for bad in ("S3", "H1", "P"):
        with pytest.raises(IllegalMoveError):
            p.apply(bad)
    for text in ("X1", "S", "S0", "H-1", ""):
        with pytest.raises(IllegalMoveError):
            Move.from_str(text)


@pytest.mark.parametrize("text", [
    "5:0,0,0,0:0/5:0,0,0,0:0/A/x",          # unknown suffix
    "5:0,0,0:0/5:0,0,0,0:0/A",               # rows of different lengths
    "5:0,0,0,0:0/5:0,0,0,0:0/C",             # no such player
    "5:0,0,0,0:0/4:0,0,0,0:0/A",             # odd total
    "5:0,-1,0,1:0/5:0,0,0,0:0/A",            # negative count
    "2:0,0,0,0:0/2:0,0,0,0:0/A",             # fine for stock 2 ...
])
def test_bad_position_text(text):
    if text.startswith("2:"):
        with pytest.raises(InvalidStateError, match="not conserved"):
            State.from_str(text, Rules(stock=3))
        return
    with pytest.raises(InvalidStateError):
        State.from_str(text)


def test_invalid_positions_raise():
    rules = Rules(stock=3)
    with pytest.raises(InvalidStateError, match="whole number"):
        State(rules, (3, 4), ((0, 0, 0, 0), (0, 0, 0, -1)), (0, 0))
    with pytest.raises(InvalidStateError, match="more than the stated"):
        State(rules, (3, 0), ((0, 0, 0, 1), (0, 0, 0, 0)), (0, 2))
    with pytest.raises(InvalidStateError, match="cups"):
        State(rules, (3, 3), ((0, 0, 0), (0, 0, 0, 0)), (0, 0))
    with pytest.raises(InvalidStateError, match="to_move"):
        State(rules, (3, 3), ((0,) * 4, (0,) * 4), (0, 0), 2)
    with pytest.raises(DicemathError):
        State(rules, (3, 2), ((0,) * 4, (0,) * 4), (0, 0))
    for bad in (dict(cups=2), dict(cups=11), dict(stock=-1), dict(capture="all"), dict(cups=4.0)):
        with pytest.raises(InvalidRulesError):
            Rules(**bad)


def test_diagram_geometry():
    # A's cup at distance d sits in the same column as B's cup at distance n + 1 - d (BOHN-2).
    p = State.from_str("0:1,2,3,0:5/0:5,0,0,0:4/A")
    lines = p.diagram().splitlines()
    row_b = lines[1].split("|")[1].split()
    row_a = lines[2].split("|")[1].split()
    assert row_b == ["5", "0", "0", "0"] and row_a == ["0", "3", "2", "1"]
    assert "A to move" in lines[-1]


# --- properties ------------------------------------------------------------------------

rules_strategy = st.builds(Rules, cups=st.integers(3, 10), stock=st.integers(0, 30),
                           capture=st.sampled_from(["last", "every"]))


@settings(max_examples=60, deadline=None)
@given(rules=rules_strategy, choices=st.lists(st.integers(0, 10**6), max_size=400))
def test_conservation_and_termination(rules, choices):
    """Beans are conserved; Phi falls on every non-pass move; no two passes in a row;
    the game ends within 2 * Phi0 + 1 moves (the argument of the state module)."""
    position = initial_state(rules)
    phi0 = position.potential()
    assert phi0 == 2 * rules.stock * (rules.cups + 1)
    moves, previous_pass = 0, False
    for choice in choices + [0] * (2 * phi0 + 2):
        actions = position.legal_actions()
        if not actions:
            break
        move = actions[choice % len(actions)]
        after = position.apply(move)
        total = sum(after.stocks) + sum(after.pots) + sum(map(sum, after.cups))
        assert total == 2 * rules.stock
        assert after.pots[position.to_move] >= position.pots[position.to_move]
        if move == PASS_MOVE:
            assert not previous_pass and after.potential() == position.potential()
        else:
            assert after.potential() < position.potential()
        previous_pass = move == PASS_MOVE
        position, moves = after, moves + 1
    assert position.is_over() and moves <= 2 * phi0 + 1


@settings(max_examples=60, deadline=None)
@given(rules=rules_strategy, choices=st.lists(st.integers(0, 10**6), max_size=60))
def test_text_round_trip(rules, choices):
    position = initial_state(rules)
    for choice in choices:
        actions = position.legal_actions()
        if not actions:
            break
        move = actions[choice % len(actions)]
        assert Move.from_str(str(move)) == move
        position = position.apply(move)
        assert State.from_str(str(position), rules) == position
        if rules.stock > 0:
            assert State.from_str(str(position)) == position
        assert side_potential(position.side(0)) + side_potential(position.side(1)) == position.potential()
