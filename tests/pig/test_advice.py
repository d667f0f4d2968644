"""Pig advice, the policy card, the picture, and the analysis of played games."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

import pytest

from dicemath.analysis.records import InvalidRecordError
from dicemath.core.advice import ENVELOPE
from dicemath.core.errors import IllegalMoveError, InvalidStateError
from dicemath.core.game import CHANCE, TERMINAL
from dicemath.core.svg import picture
from dicemath.games.pig import State, advise, initial_state, policy_card, solve
from dicemath.games.pig.advice import advise as solution_advice
from dicemath.games.pig import analyse
from dicemath.games.pig.drawing import draw
from dicemath.games.pig.game import PIG_GAME


def test_advice_envelope_and_values():
    state = State.from_str("1:35-62 t12 choose")
    advice = advise(state)
    data = advice.as_dict()
    assert list(data)[:len(ENVELOPE)] == list(ENVELOPE)
    assert data["game"] == "pig" and data["unit"] == "win probability" and data["exact"] is True
    assert {o["action"] for o in data["options"]} == {"roll", "hold"}
    solution = solve()
    assert advice.option("hold").value == solution.hold_value(62, 35, 12)
    assert advice.option("roll").value == solution.roll_value(62, 35, 12)
    assert data["best"] == ("hold" if solution.holds(62, 35, 12) else "roll")
    assert data["hold_at"] == solution.hold_threshold(62, 35)
    assert [o.text for o in advise(initial_state()).options] == ["roll"]


def test_advice_follows_the_threshold():
    solution = solve()
    at = solution.hold_threshold(20, 30)
    assert advise(State.from_str(f"0:20-30 t{at} choose")).best.text == "hold"
    assert advise(State.from_str(f"0:20-30 t{at - 1} choose")).best.text == "roll"


def test_no_advice_where_nobody_decides():
    for text in ("0:35-62 t12 rolling", "0:100-62 t0 won"):
        with pytest.raises(InvalidStateError):
            advise(State.from_str(text))


def test_policy_card():
    card = policy_card()
    data = card.as_dict()
    assert data["hold_at"][0][0] == 21 and len(data["hold_at"]) == 10 and len(data["hold_at_every_score"]) == 100
    assert data["hold_at_every_score"][90][0] == 10             # at 90: roll until the hold wins
    assert "hold when the turn total reaches" in str(card)
    assert 0 < data["rolls_on"] < data["decisions"] == 505_000
    with pytest.raises(InvalidStateError):
        policy_card(step=0)


def test_picture_with_advice():
    state = State.from_str("0:80-90 t12 choose")
    document = draw(state, advise(state))
    assert ET.fromstring(document).tag == "{http://www.w3.org/2000/svg}svg"
    assert document.count('class="advised"') == 1 and document.count('class="option"') == 1
    assert picture(state) == draw(state)
    with pytest.raises(InvalidStateError):
        draw(State.from_str("0:80-90 t12 rolling"), advise(state))
    other = State.from_str("0:80-90 t0 choose")
    with pytest.raises(InvalidStateError):
        draw(other, advise(state))


def test_the_package_advice_is_the_games():
    state = State.from_str("1:35-62 t12 choose")
    assert advise == PIG_GAME.advise
    assert advise(state) == solution_advice(state) == PIG_GAME.sources(state.rules).advise(state)


def test_decision_values_equal_advice():
    rng = random.Random(3)
    chain = PIG_GAME.sources(solve().rules)
    checked = 0
    for _ in range(200):
        i, j, k = rng.choice([0, *range(2, 100)]), rng.choice([0, *range(2, 100)]), rng.choice([0, *range(2, 60)])
        state = State((solve().rules), (i, j), rng.randrange(2), k)
        record = {"game": "pig", "decisions": [{"state": str(state), "choice": "roll"}]}
        decision = analyse(record).decisions[0]
        advice = advise(state)
        assert decision.values == {o.text: o.value for o in advice.options}
        assert decision.best == advice.best.text or decision.loss == 0
        # the chain's value of the decision is the best option's, for the mover (and 1 minus it for the other)
        valued = chain.value(state)
        assert valued.exact and valued.values[state.to_move] == pytest.approx(advice.best.value, abs=1e-12)
        assert sum(valued.values) == pytest.approx(1.0, abs=1e-15)
        checked += 1
    assert checked == 200


def test_chain_values_at_chance_and_end_states():
    chain = PIG_GAME.sources(solve().rules)
    state = State.from_str("1:35-62 t12 rolling")
    expected = chain.expected(state)
    assert chain.value(state).values == pytest.approx(expected.values, abs=1e-11) and expected.exact
    # the mean over the faces, by hand: a 1 passes the turn with the turn total lost (PIG-3)
    by_hand = sum(chain.value(state.apply(face)).values[1] for face in range(1, 7)) / 6
    assert expected.values[1] == pytest.approx(by_hand, abs=1e-15)
    assert chain.value(State.from_str("0:100-62 t0 won")).values == (1.0, 0.0)
    with pytest.raises(InvalidStateError):
        chain.expected(State.from_str("1:35-62 t12 choose"))


def test_whole_game_record():
    # a game played by "hold at 20" to the end, with random faces: every decision costs >= 0
    rng = random.Random(11)
    state, tokens = initial_state(), []
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            action = rng.randrange(1, 7)
        else:
            action = "hold" if state.turn_total >= 20 else "roll"
        tokens.append(state.action_text(action))
        state = state.apply(action)
    result = analyse({"game": "pig", "moves": tokens})
    assert result.finished and len(result.chance) == tokens.count("roll")
    assert all(d.loss >= 0 for d in result.decisions) and any(d.loss > 0 for d in result.decisions)
    assert result.trajectory[0][1].values[0] == pytest.approx(0.5306, abs=5e-5)


def test_bad_records():
    with pytest.raises(InvalidStateError):
        analyse({"game": "pig", "decisions": [{"state": "0:35-62 t12 rolling", "choice": "roll"}]})
    with pytest.raises(InvalidRecordError):
        analyse({"game": "pig", "decisions": [{"position": "start", "choice": "roll"}]})
    with pytest.raises(IllegalMoveError):
        analyse({"game": "pig", "moves": ["hold"]})
    with pytest.raises(InvalidStateError):
        analyse({"game": "pig", "rules": {"goal": 50}, "decisions": [{"state": "0:10-0 t5 choose goal 60",
                                                                   "choice": "hold"}]})
