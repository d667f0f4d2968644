"""Backgammon analysis: exact bear-off values against the core's expectimax, best play loses
nothing, luck minus losses is the change of equity, cube actions by hand, contact positions
as ``hint`` ranks them (GNU Backgammon), replay, malformed records."""

from __future__ import annotations

import random

import pytest

from dicemath.analysis import InvalidRecordError, analyse, game_named, replay
from dicemath.games.registry import GAMES
from dicemath.analysis.play import record_game
from dicemath.core.errors import IllegalMoveError, InvalidDiceError, InvalidStateError
from dicemath.core.game import CHANCE, TERMINAL, sample_chance
from dicemath.core.search import action_values
from dicemath.games.backgammon import Position, gnubg_engine
from dicemath.games.backgammon.hint import hint
from dicemath.games.backgammon.analysis import ANALYSIS
from dicemath.games.backgammon.rules import STANDARD
from dicemath.games.backgammon.state import ROLL, State

SMALL = Position.from_home_boards((1, 0, 1, 0, 0, 1), (0, 1, 0, 1, 0, 0))
LARGER = Position.from_home_boards((2, 1, 0, 2, 1, 1), (1, 1, 2, 0, 1, 2))
BACKGAMMON = game_named("backgammon", GAMES)
CHAIN = BACKGAMMON.sources(STANDARD)


def test_play_values_equal_expectimax_to_the_end():
    """Second method: the core's search over the engine to the end of the game (BG-7
    points; no gammon is possible once both sides have borne off checkers)."""
    state = ANALYSIS.decision_state({"position_id": SMALL.position_id(), "dice": [5, 2]}, STANDARD)
    searched = action_values(state)
    mover = state.current_player()
    ours = {option.action: option.value for option in BACKGAMMON.advise(state).options}
    assert set(searched) == set(ours) and len(ours) > 1
    for action, values in searched.items():
        assert ours[action] == pytest.approx(float(values[mover]), abs=1e-9)
    worst = min(searched, key=lambda a: searched[a][0])
    best = max(searched, key=lambda a: searched[a][0])
    entry = {"position_id": SMALL.position_id(), "dice": [5, 2], "choice": ANALYSIS.text(state, worst)}
    cost = analyse({"game": "backgammon", "decisions": [entry]}, GAMES).decisions[0]
    assert cost.exact and cost.best == ANALYSIS.text(state, best)
    assert cost.loss == pytest.approx(float(searched[best][0] - searched[worst][0]), abs=1e-9) and cost.loss > 0


def test_chance_values_are_the_mean_over_the_21_rolls():
    rng = random.Random(1)
    state, checked = State(LARGER, STANDARD, ROLL, cube_value=None), 0
    while state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            expected = CHAIN.expected(state, ply=0)
            assert CHAIN.value(state, ply=0).values[0] == pytest.approx(expected.values[0], abs=1e-9)
            by_hand = sum(float(p) * CHAIN.value(state.apply(roll), ply=0).values[0]
                          for roll, p in state.chance_outcomes())
            assert expected.values[0] == pytest.approx(by_hand, abs=1e-12)
            state = state.apply(sample_chance(state, rng))
            checked += 1
        else:
            state = state.apply(rng.choice(state.legal_actions()))
    assert checked >= 3


def _best(state, rng):
    return BACKGAMMON.advise(state).best.action


def _random(state, rng):
    return rng.choice(state.legal_actions())


def test_best_play_loses_nothing():
    analysis = analyse(record_game(BACKGAMMON, (_best, _best), seed=3, start=LARGER.position_id()), GAMES)
    assert analysis.decisions and all(d.loss == 0 for d in analysis.decisions)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_luck_minus_losses_is_the_change_of_equity(seed):
    analysis = analyse(record_game(BACKGAMMON, (_random, _random), seed=seed, start=LARGER.position_id()), GAMES)
    start, end = analysis.trajectory[0][1].values, analysis.trajectory[-1][1].values
    assert analysis.exact and analysis.finished and abs(end[0]) == 1
    for seat in (0, 1):
        own = sum(d.loss for d in analysis.by_seat(seat))
        other = sum(d.loss for d in analysis.by_seat(1 - seat))
        assert end[seat] - start[seat] == pytest.approx(analysis.luck(seat) - own + other, abs=1e-9)


@pytest.mark.parametrize("record, error, words", [
    ({"game": "backgammon", "start": SMALL.position_id(), "moves": ["5-2", "6/1"]}, IllegalMoveError,
     "moves entry 1.*not a legal play"),
    ({"game": "backgammon", "start": SMALL.position_id(), "moves": ["7-2"]}, InvalidDiceError, "moves entry 0"),
    ({"game": "backgammon", "rules": {"name": "tavla"}, "moves": ["3-1"]}, Exception, "unknown backgammon rules"),
    ({"game": "backgammon", "decisions": [{"position_id": SMALL.position_id(), "dice": [5, 2]}]},
     InvalidRecordError, "missing \"choice\""),
    ({"game": "backgammon", "decisions": [{"position_id": "nonsense", "dice": [5, 2], "choice": "6/1"}]},
     InvalidStateError, "decisions entry 0"),
])
def test_malformed_records_name_the_first_bad_entry(record, error, words):
    with pytest.raises(error, match=words):
        analyse(record, GAMES)


def test_replay_checks_a_game_from_the_opening():
    """Replaying needs no values: a whole game from the opening roll is checked move by move."""
    opening = ["3-1", "8/5 6/5", "6-4", "24/18 13/9", "2-2"]
    assert replay({"game": "backgammon", "moves": opening}, GAMES).dice == (2, 2)
    with pytest.raises(InvalidDiceError, match="moves entry 0.*two different dice"):
        replay({"game": "backgammon", "moves": ["3-3"]}, GAMES)
    with pytest.raises(IllegalMoveError, match="moves entry 1"):
        replay({"game": "backgammon", "moves": ["1-3", "13/7"]}, GAMES)


def test_cube_actions_of_a_last_roll_by_hand():
    """X (two checkers on his 2-point) bears both off unless he rolls a 1 with another
    number (10 rolls of 36); O then bears his last checker off. Cubeless X wins 26/36; after
    double/take X is worth twice 2 * 26/36 - 1; double/pass 1."""
    position = Position.from_home_boards((0, 2, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0)).position_id()
    win = 26 / 36
    result = analyse({"game": "backgammon", "decisions": [
        {"position_id": position, "choice": "roll"},
        {"position_id": position, "choice": "pass"},
        {"position_id": position, "choice": "double"}]}, GAMES)
    no_double, passed, doubled = result.decisions
    assert no_double.best == "double" and passed.best == "take" and doubled.loss == 0
    assert no_double.loss == pytest.approx(2 * (2 * win - 1) - (2 * win - 1), abs=1e-12)
    assert passed.loss == pytest.approx(-2 * (2 * win - 1) + 1, abs=1e-12)
    assert passed.player == 1 and no_double.exact
    with pytest.raises(InvalidStateError, match="may not double"):
        analyse({"game": "backgammon", "decisions": [{"position_id": position, "cube_value": 2,
                                                      "cube_owner": "opponent", "choice": "double"}]}, GAMES)


needs_gnubg = pytest.mark.skipif(not gnubg_engine.available(), reason="the gnubg package is not installed")


@needs_gnubg
def test_contact_plays_are_valued_as_hint_ranks_them():
    entry = {"position_id": "4HPwATDgc/ABMA", "dice": [6, 4], "choice": "24/18 13/9"}
    cost = analyse({"game": "backgammon", "decisions": [entry]}, GAMES).decisions[0]
    ranked = hint(STANDARD, Position.initial(), (6, 4))
    assert not cost.exact and cost.best == ranked[0].move
    assert cost.values == pytest.approx({m.move: m.equity for m in ranked}, abs=1e-12)
    assert cost.loss == pytest.approx(ranked[0].equity - cost.values[cost.choice], abs=1e-12) and cost.loss > 0


@pytest.mark.slow
@needs_gnubg
def test_a_game_from_the_opening_roll():
    record = record_game(BACKGAMMON, (_best, _random), seed=4, players=("gnubg", "random"))
    analysis = analyse(record, GAMES)
    assert analysis.finished and all(d.loss == 0 for d in analysis.by_seat(0))
    assert analysis.trajectory[0][1].values[0] == pytest.approx(0.0, abs=1e-9)   # the opening is fair
    assert sum(d.loss for d in analysis.by_seat(1)) > 0.1
    assert len(analysis.chance) > 10 and analysis.chance[0].player is None
