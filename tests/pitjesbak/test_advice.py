"""StopOrThrow and the policy card: consistency with the solver, symmetry, invalid input."""

import pytest

from dicemath.core.errors import InvalidDiceError, InvalidStateError
from dicemath.games.pitjesbak.advice import advise_situation, describe_stops, policy_card
from dicemath.games.pitjesbak.game import PITJESBAK_GAME
from dicemath.games.pitjesbak.game_solver import solve_game
from dicemath.games.pitjesbak.throws import class_space


@pytest.fixture(scope="module")
def game():
    return solve_game()


def test_start_advice_matches_the_solved_round(game):
    advice = advise_situation(9, False, 9, False, role="start", throw_number=1, current=(6, 5, 4), solution=game)
    assert advice.decision == "stop" and advice.stop_probability > advice.throw_probability
    weak = advise_situation(9, False, 9, False, role="start", throw_number=1, current=(2, 2, 3), solution=game)
    assert weak.decision == "throw"
    # averaging the best choice over the first throw gives the state's value
    solved_round = game.round_at(9, False, 9, False)
    assert float(solved_round.value) == pytest.approx(game.value(9, False, 9, False), abs=1e-12)


def test_follower_and_start_views_are_complementary(game):
    """The same round seen by both players: P(follower wins) = 1 - P(start wins)."""
    space = class_space()
    solved_round = game.round_at(4, True, 6, True)
    theirs = space.index_of_throw((1, 2, 3))
    mine = space.index_of_throw((1, 1, 6))
    advice = advise_situation(6, True, 4, True, role="follower", throw_number=1, current=(1, 1, 6),
                    best=(1, 2, 3), limit=2, solution=game)
    assert advice.stop_probability == pytest.approx(1 - solved_round.result[theirs, mine])
    assert advice.throw_probability == pytest.approx(1 - solved_round.follower[0, theirs])


def test_last_throw_counts(game):
    advice = advise_situation(9, False, 9, False, role="start", throw_number=3, current=(2, 3, 4), solution=game)
    assert advice.decision == "stop" and advice.throw_probability is None


def test_drie_apen_advice_depends_on_flag(game):
    flagged = advise_situation(5, True, 5, False, role="start", throw_number=1, current=(1, 1, 1), solution=game)
    assert flagged.decision == "stop" and flagged.stop_probability == pytest.approx(1.0)
    unflagged = advise_situation(9, False, 5, True, role="start", throw_number=1, current=(1, 1, 1), solution=game)
    assert unflagged.decision == "throw" and unflagged.stop_probability == pytest.approx(0.0)


def test_symmetric_tie_roll_off(game):
    """Equal counting throws and equal positions: the round result is the roll-off's average."""
    space = class_space()
    solved_round = game.round_at(3, True, 3, True)
    c = space.index_of_throw((1, 2, 3))
    # a 50/50 roll-off between identical players; the winner wipes 1 and the follower
    # starts the next round either way (PIT-8): at 3 v 2 or 2 v 3
    expected = 0.5 * (1 - game.value(3, True, 2, True)) + 0.5 * (1 - game.value(2, True, 3, True))
    assert solved_round.result[c, c] == pytest.approx(expected)


def test_policy_card(game):
    card = policy_card(game)
    assert "or better" in card.start_rules[0]
    assert card.as_dict()["start_win_probability"] == pytest.approx(game.start_player_win_probability)
    assert "Follower" in card.markdown() and "throw 1" in card.text()


def test_describe_stops():
    space = class_space()
    assert describe_stops([True] * space.size).startswith("always stop")
    assert describe_stops([False] * space.size).startswith("never stop")
    assert "1-1-1: stop" in describe_stops([True] * space.size)


@pytest.mark.parametrize("kwargs", [
    dict(role="middle", throw_number=1, current=(1, 2, 3)),
    dict(role="start", throw_number=4, current=(1, 2, 3)),
    dict(role="start", throw_number=0, current=(1, 2, 3)),
    dict(role="follower", throw_number=1, current=(1, 2, 3)),
    dict(role="follower", throw_number=1, current=(1, 2, 3), best=(1, 1, 1)),
    dict(role="follower", throw_number=3, current=(1, 2, 3), best=(1, 1, 2), limit=2),
    dict(role="start", throw_number=1, current=(1, 2, 3), best=(1, 1, 2)),
])
def test_invalid_advice(game, kwargs):
    with pytest.raises(InvalidStateError):
        advise_situation(9, False, 9, False, solution=game, **kwargs)


def test_invalid_dice_and_stripes(game):
    with pytest.raises(InvalidDiceError):
        advise_situation(9, False, 9, False, role="start", throw_number=1, current=(1, 2, 3, 4), solution=game)
    with pytest.raises(ValueError):
        advise_situation(-1, False, 9, False, role="start", throw_number=1, current=(1, 2, 3), solution=game)


def test_advice_on_engine_states_equals_the_situation(game):
    """The game's advice reads the situation off a rules-engine state: the same advice."""
    from dicemath.games.pitjesbak.state import initial_state
    start = initial_state(game.rules, stripes=(4, 6), wiped=(True, False)).apply((2, 3, 4))
    assert PITJESBAK_GAME.advise(start, solution=game).detail == advise_situation(
        4, True, 6, False, role="start", throw_number=1, current=(2, 3, 4), solution=game)
    follower = start.apply("throw").apply((1, 1, 2)).apply("stop").apply((1, 2, 3))
    assert follower.current_player() == 1 and follower.limit == 2
    assert PITJESBAK_GAME.advise(follower, solution=game).detail == advise_situation(
        6, False, 4, True, role="follower", throw_number=1, current=(1, 2, 3), best=(1, 1, 2), limit=2, solution=game)
    with pytest.raises(InvalidStateError):
        PITJESBAK_GAME.advise(initial_state(game.rules), solution=game)            # chance acts, nobody decides


def test_one_advice_type_for_every_table(game):
    """Two players: the vectors in turn order and ``exact``; at a table of three, the game's advice
    is :func:`table_advice` of the same situation."""
    from dicemath.games.pitjesbak.advice import StopOrThrow
    from dicemath.games.pitjesbak.rules import Rules
    from dicemath.games.pitjesbak.state import initial_state
    from dicemath.games.pitjesbak.table_game import solve_table, table_advice

    two = advise_situation(6, True, 4, True, role="follower", throw_number=1, current=(1, 1, 6), best=(1, 2, 3),
                           limit=2, solution=game)
    assert two.exact and two.stop_values == pytest.approx((1 - two.stop_probability, two.stop_probability))
    assert set(two.as_dict()) >= {"decision", "stop_win_probability", "throw_win_probability", "exact",
                                  "stop_values", "throw_values"}
    solution = solve_table(Rules(players=3, stripes=2), cap=4)
    state = initial_state(solution.rules, stripes=(2, 3, 2), wiped=(True, False, True)).apply((5, 5, 3))
    advice = PITJESBAK_GAME.advise(state, solution=solution).detail
    assert isinstance(advice, StopOrThrow) and advice.exact
    assert advice == table_advice((2, 3, 2), (True, False, True), 0, dice=(5, 5, 3), throws=1,
                                  rules=solution.rules, solution=solution)
    assert "(estimates)" not in str(advice)
    assert "(estimates)" in str(StopOrThrow("stop", 0.3, 0.2, {}, exact=False))


def test_analyse_values_each_decision_as_advise():
    """Random decisions (seeded) of random played games: ``analyse`` of the decision gives the
    values, ``exact`` flag and ``source`` of ``advise`` (the chain of sources)."""
    import random

    from dicemath.core.game import CHANCE, TERMINAL, sample_chance
    from dicemath.games.pitjesbak import analyse
    from dicemath.games.pitjesbak.analysis import ANALYSIS
    from dicemath.games.pitjesbak.rules import Rules
    from dicemath.games.pitjesbak.state import initial_state

    rules = Rules(stripes=3)
    rng = random.Random(11)
    checked = 0
    while checked < 12:
        state = initial_state(rules)
        while state.current_player() != TERMINAL and checked < 12:
            if state.current_player() == CHANCE:
                state = state.apply(sample_chance(state, rng))
                continue
            if rng.random() < 0.5:
                me, them = state.order[state.turn], state.order[1 - state.turn]
                entry = {"my_stripes": state.stripes[me], "my_wiped": state.wiped[me],
                         "their_stripes": state.stripes[them], "their_wiped": state.wiped[them],
                         "role": ("start", "follower")[state.turn], "throw_number": state.throws,
                         "current": "-".join(map(str, state.current)), "choice": "stop"}
                if state.turn:
                    entry.update(best="-".join(map(str, state.results[0])), limit=state.limit)
                record = {"game": "pitjesbak", "rules": {"stripes": 3}, "decisions": [entry]}
                cost = analyse(record).decisions[0]
                advice = PITJESBAK_GAME.advise(ANALYSIS.decision_state(entry, rules))
                played = PITJESBAK_GAME.advise(state)
                assert [(o.action, o.value) for o in played.options] == [(o.action, o.value) for o in advice.options]
                assert cost.values == {o.action: o.value for o in advice.options}
                assert (cost.exact, cost.source) == (advice.exact, advice.source) == (True, "two-player game solution")
                checked += 1
            state = state.apply(rng.choice(state.legal_actions()))
