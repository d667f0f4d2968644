"""Backgammon's chain of sources (``dicemath.games.backgammon.advice.sources``): every door
gives the same values, ``exact`` flag and ``source``; the limits of ``limits`` hold."""

from __future__ import annotations

import random

import pytest

from dicemath.core.game import CHANCE, TERMINAL
from dicemath.core.sources import Valued
from dicemath.games.backgammon import advise, analyse
from dicemath.games.backgammon.game import BACKGAMMON_GAME
from dicemath.games.backgammon.gnubg_engine import available
from dicemath.games.backgammon.hint import hint
from dicemath.games.backgammon.limits import EXACT_CHECKERS, EXACT_CUBE_CHECKERS
from dicemath.games.backgammon.position import Position
from dicemath.games.backgammon.rules import PLAYTIVE, STANDARD
from dicemath.games.backgammon.state import DOUBLED, MAY_DOUBLE, PLAY, State


def _board(rng: random.Random, checkers: int) -> tuple[int, ...]:
    board = [0] * 6
    for _ in range(checkers):
        board[rng.randrange(6)] += 1
    return tuple(board)


def _bear_offs(seed: int, count: int) -> list[Position]:
    """Random bear-offs, half within the exact limit, half beyond it (up to 15 a side)."""
    rng = random.Random(seed)
    positions = []
    for i in range(count):
        top = EXACT_CHECKERS if i % 2 == 0 else 15
        low = 1 if i % 2 == 0 else EXACT_CHECKERS + 1
        positions.append(Position.from_home_boards(_board(rng, rng.randint(low, top)),
                                                   _board(rng, rng.randint(1, top))))
    return positions


def _play_entries(seed: int, count: int) -> list[tuple[dict, State]]:
    rng = random.Random(seed)
    entries = []
    for position in _bear_offs(seed, count):
        dice = tuple(sorted((rng.randint(1, 6), rng.randint(1, 6)), reverse=True))
        state = State(position, STANDARD, PLAY, dice, None)
        choice = state.action_text(rng.choice(list(state.legal_actions())))
        entries.append(({"position_id": position.position_id(), "dice": list(dice), "choice": choice}, state))
    return entries


def _same(decision, advice) -> None:
    assert decision.values == {o.text: pytest.approx(float(o.value), abs=0) for o in advice.options}
    assert (decision.exact, decision.source) == (advice.exact, advice.source)
    assert decision.loss == pytest.approx(float(advice.best.value) - decision.values[decision.choice], abs=1e-9)


def test_analyse_values_random_plays_as_advise_does():
    """Seeded random bear-off plays, within and beyond the exact limit: ``analyse`` of the
    decision gives ``advise``'s values, ``exact`` and ``source``."""
    entries = _play_entries(2024, 16)
    decisions = analyse({"game": "backgammon", "decisions": [entry for entry, _ in entries]}).decisions
    sources = set()
    for decision, (_, state) in zip(decisions, entries):
        advice = advise(state)
        _same(decision, advice)
        assert advice == BACKGAMMON_GAME.advise(state)
        within = max(sum(state.position.on_roll), sum(state.position.opponent)) <= EXACT_CHECKERS
        assert advice.exact == within
        assert advice.source == ("bear-off table" if within else "race model")
        sources.add(advice.source)
    assert sources == {"bear-off table", "race model"}


def test_analyse_values_random_cube_decisions_as_advise_does():
    """Seeded random cube decisions (double or take) in bear-offs around the cubeful limit."""
    rng = random.Random(7)
    entries, states = [], []
    for position in _bear_offs(7, 8):
        doubled = rng.random() < 0.5
        phase = DOUBLED if doubled else MAY_DOUBLE
        states.append(State(position, STANDARD, phase, None, 1, None))
        entries.append({"position_id": position.position_id(),
                        "choice": rng.choice(("take", "pass") if doubled else ("double", "roll"))})
    decisions = analyse({"game": "backgammon", "decisions": entries}).decisions
    for decision, state in zip(decisions, states):
        advice = advise(state)
        _same(decision, advice)
        small = max(sum(state.position.on_roll), sum(state.position.opponent)) <= EXACT_CUBE_CHECKERS
        assert advice.exact == small
        assert advice.source == ("cubeful bear-off table" if small else "cube estimate")


def test_every_answer_carries_its_sources_exact_flag():
    """The chain refuses a source whose answer disagrees with its own ``exact``; an exact
    cubeless table does not make a Janowski cube exact (7 and 8 checkers a side)."""
    seven = Position.from_home_boards((2, 2, 1, 1, 1, 0), (1, 2, 2, 1, 1, 0))
    cube = advise(State(seven, STANDARD, MAY_DOUBLE, None, 1, None))
    assert (cube.exact, cube.source) == (False, "cube estimate")
    assert {o.extras["source"] for o in cube.options} == {"exact"}
    playtive = advise(State(Position.from_home_boards((0, 2, 0, 0, 0, 0), (0, 1, 0, 0, 0, 0)), PLAYTIVE,
                            MAY_DOUBLE, None, 1, None))
    assert playtive.source == "cube estimate"


@pytest.mark.skipif(not available(), reason="the optional gnubg package is not installed")
def test_a_contact_play_is_a_gnubg_estimate_through_every_door():
    state = State(Position.initial(), STANDARD, PLAY, (3, 1), None)
    entry = {"position_id": Position.initial().position_id(), "dice": [3, 1], "choice": "8/5 6/5"}
    decision = analyse({"game": "backgammon", "decisions": [entry]}).decisions[0]
    advice = advise(state)
    _same(decision, advice)
    assert (advice.exact, advice.source) == (False, "gnubg")


def test_the_chain_values_every_state_of_a_cube_game():
    """Seeded random money games from bear-offs (cube decisions, rolls, plays, the end):
    every state has a source that values it; at a decision the value is the best option of
    the advice for the decider (too good to double: rolling on, within rounding of doubling),
    at a roll the evaluator's exact equity within the table, at the end the points won (BG-7,
    times the cube)."""
    rng = random.Random(11)
    chain = BACKGAMMON_GAME.sources(STANDARD)
    seen = set()
    for position in _bear_offs(11, 6):
        state = State(position, STANDARD, MAY_DOUBLE, None, 1, None)
        while True:
            valued = chain.value(state, ply=0)
            source = chain.source_for(state, ply=0)
            seen.add(source.name)
            player = state.current_player()
            if player == TERMINAL:
                assert valued == Valued(tuple(state.returns()), True) and source.name == "bear-off table"
                assert abs(valued.values[0]) == state.cube_value
                break
            if player == CHANCE:
                within = max(sum(state.position.on_roll), sum(state.position.opponent)) <= EXACT_CHECKERS
                assert valued.exact == within and valued.values[0] == -valued.values[1]
                state = state.apply(rng.choice([roll for roll, _ in state.chance_outcomes()]))
                continue
            advice = BACKGAMMON_GAME.advise(state, ply=0)
            assert advice.source == source.name
            assert valued.values[player] == pytest.approx(float(advice.best.value), abs=1e-12)  # too good: roll
            assert valued.values[player] == -valued.values[1 - player]
            state = state.apply(rng.choice(state.legal_actions()))
    assert {"bear-off table", "race model", "cubeful bear-off table", "cube estimate"} <= seen


@pytest.mark.skipif(not available(), reason="the optional gnubg package is not installed")
def test_plays_the_filter_dropped_come_after_the_evaluated_ones():
    """At 1 ply the opening 2-1's filter drops plays whose 0-ply equity beats the last play
    evaluated at 1 ply: the advice keeps hint's order and its equities in the extras, every
    value at most the one before, and the plays evaluated at 1 ply at their own equity."""
    state = State(Position.initial(), STANDARD, PLAY, (2, 1), None)
    moves = hint(STANDARD, state.position, (2, 1), 1)
    advice = BACKGAMMON_GAME.advise(state, ply=1)
    assert [o.text for o in advice.options] == [m.move for m in moves]
    assert [o.extras["equity"] for o in advice.options] == [m.equity for m in moves]
    values = [float(o.value) for o in advice.options]
    assert values == sorted(values, reverse=True)
    assert all(o.value == m.equity for o, m in zip(advice.options, moves) if m.ply == 1)
    assert any(m.equity > v for m, v in zip(moves, values))               # the case that needs the bound
