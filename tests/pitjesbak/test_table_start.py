"""A whole game at one table (:meth:`PitjesbakGame.table_start`, the page's table mode) and the
page's form at every table size (:meth:`PitjesbakGame.page_fields`)."""

from __future__ import annotations

import random

import pytest

from dicemath.core.errors import DicemathError, InvalidRulesError, InvalidStateError
from dicemath.core.game import CHANCE, TERMINAL, sample_chance
from dicemath.core.requests import RequestError, read_fields
from dicemath.games.pitjesbak.game import PITJESBAK_GAME
from dicemath.games.pitjesbak.rules import PIPS, Rules
from dicemath.games.pitjesbak.sources import game_value
from dicemath.games.pitjesbak.state import STOP, THROW

TABLES = pytest.mark.parametrize("players", range(2, 9))


@TABLES
def test_a_table_starts_a_whole_game(players):
    state = PITJESBAK_GAME.table_start(players)
    assert state.rules == Rules(players=players) and state.current_player() == CHANCE and state.player == 0
    assert state.stripes == (9,) * players and not any(state.wiped) and all(state.alive)
    assert len(state.returns()) == players
    assert PITJESBAK_GAME.read_state(str(state)) == state
    pips = PITJESBAK_GAME.table_start(players, PIPS)
    assert pips.rules == PIPS.with_players(players)


@pytest.mark.parametrize("players,error", [(1, InvalidRulesError), (9, InvalidRulesError), (True, InvalidRulesError),
                                           ("4", InvalidRulesError)])
def test_a_table_size_the_rules_refuse(players, error):
    with pytest.raises(error, match="players must be 2..8"):
        PITJESBAK_GAME.table_start(players)


def test_options_and_stripes_beyond_the_bound_are_refused():
    with pytest.raises(DicemathError, match="takes no options, got rounds"):
        PITJESBAK_GAME.table_start(3, rounds=2)
    with pytest.raises(InvalidStateError, match="MAX_STRIPES"):
        PITJESBAK_GAME.table_start(3, Rules(stripes=21))


def _play(players: int, seed: int, decisions: int):
    """Seeded steps of a game at a table of ``players``, each decision the advice's best:
    ``(state, advice)`` at each decision, through the page's words (action texts, state texts)."""
    rng = random.Random(seed)
    state = PITJESBAK_GAME.table_start(players)
    seen = []
    while len(seen) < decisions and state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            text = state.action_text(sample_chance(state, rng))
        else:
            advice = PITJESBAK_GAME.advise(PITJESBAK_GAME.read_state(str(state)))
            seen.append((state, advice))
            text = advice.best.text
        state = PITJESBAK_GAME.read_state(str(state.apply(state.parse_action(text))))
    return seen


@TABLES
def test_the_table_is_advised_at_each_decision(players):
    """The advice answers the player deciding with his chances to win the game, every player's
    chances summing to 1, exact while the table solver or the game solution covers the table."""
    for state, advice in _play(players, seed=players, decisions=6):
        assert state.current_player() == state.player
        assert {option.action for option in advice.options} == set(state.legal_actions()) == {STOP, THROW}
        mover = state.order.index(state.player)
        for option in advice.options:
            chances = option.extras["win_values"]
            assert len(chances) == len(state.order) and sum(chances) == pytest.approx(1, abs=1e-9)
            assert option.value == chances[mover]
        assert advice.exact is (len(state.order) <= 4)
        assert advice.options[0].value >= advice.options[-1].value


def test_two_players_are_advised_by_the_game_values_of_what_follows():
    """At two players each option's value is the game value of the state it leads to (the
    game solution's values of a state, a second path through its solved rounds)."""
    for state, advice in _play(2, seed=11, decisions=8):
        for option in advice.options:
            after = state.apply(option.action)
            assert option.value == pytest.approx(game_value(after).values[state.player], abs=1e-12)


@TABLES
def test_the_page_form_reads_every_table(players):
    """The form's table of 2 to 8 players: the last player's decision after the others' throws,
    the same answer as the state it describes."""
    request = {"form": "table", "stripes_left": ",".join(["9"] * players), "position": str(players - 1),
               "before": ",".join(["6-6-2"] * (players - 1)), "limit": "2", "throw_number": "1",
               "current": "5-5-1"}
    answer = PITJESBAK_GAME.page_advice(read_fields(request, PITJESBAK_GAME.page_fields()))
    assert answer["exact"] is (players <= 4)
    state = PITJESBAK_GAME.read_state(answer["state"])
    assert len(state.order) == players and state.player == state.order[-1]
    assert PITJESBAK_GAME.advise(state).as_dict() == {key: value for key, value in answer.items()
                                                      if key not in ("svg", "view")}


@pytest.mark.parametrize("request_,error,words", [
    ({"stripes_left": "9", "position": "0"}, InvalidRulesError, "players must be 2..8"),
    ({"stripes_left": ",".join(["9"] * 9), "position": "0"}, InvalidRulesError, "players must be 2..8"),
    ({"stripes_left": "9,9,9", "position": "3", "before": "6-6-2,6-6-2,6-6-2", "limit": "2"}, InvalidStateError,
     "position must be a turn position 0..2"),
    ({"stripes_left": "9,9,9", "position": "8"}, RequestError, 'field "position" must be 0..7'),
])
def test_the_page_form_refuses_tables_the_rules_do_not_have(request_, error, words):
    request = {"form": "table", "throw_number": "1", "current": "5-5-1", **request_}
    with pytest.raises(error, match=words):
        PITJESBAK_GAME.page_advice(read_fields(request, PITJESBAK_GAME.page_fields()))
