"""Every door gives one answer: ``analyse`` values each decision of every registered game
exactly as ``advise`` does (the same values, ``exact`` flag and ``source``), because both ask
the game's one chain of sources (:meth:`dicemath.core.game.Game.sources`).

Random games are played from each game's start with small rules (seeded); the record of the
whole game is analysed, and every decision the analysis valued is compared with the game's
advice at that state; and the record of a whole game replays to the state the game ended in.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from dicemath.analysis import analyse, replay
from dicemath.core.game import CHANCE, TERMINAL
from dicemath.games.registry import GAMES

SMALL = {"pegs": dict(rows=3), "fives": dict(rows=3), "pitjesbak": dict(stripes=3), "bohnduell": dict(stock=8),
         "pig": dict(goal=20)}
"""Rules fields of a quick game per game (the standard rules for the others)."""

MOVES = 40
"""Tokens played per game (the record of an unfinished game is analysed as far as it goes)."""


def _random_game(game, rules, rng: random.Random, moves: int | None = MOVES):
    """The tokens of a random game from the start a record's game has (at most ``moves`` of
    them; None: to the end), the state before each token, and the state after the last."""
    state = game.analysis().initial_state(rules)
    tokens, before = [], []
    while (moves is None or len(tokens) < moves) and state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            outcomes, weights = zip(*state.chance_outcomes())
            action = rng.choices(outcomes, weights=[float(w) for w in weights])[0]
        else:
            action = rng.choice(list(state.legal_actions()))
        tokens.append(state.action_text(action))
        before.append(state)
        state = state.apply(action)
    return tokens, before, state


def _small(game):
    """The small rules of ``game`` and their fields as a record gives them."""
    rules = dataclasses.replace(game.standard, **SMALL.get(game.name, {}))
    fields = {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)
              if getattr(rules, f.name) != getattr(game.standard, f.name)}
    return rules, fields


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_analyse_values_every_decision_as_advise_does(game):
    rules, fields = _small(game)
    rng = random.Random(7)
    checked = 0
    for _ in range(2):
        tokens, before, _ = _random_game(game, rules, rng)
        result = analyse({"game": game.name, "rules": fields, "moves": tokens})
        for decision in result.decisions:
            state = before[decision.index]
            advice = game.advise(state)
            assert decision.values == {o.text: float(o.value) for o in advice.options}, (game.name, str(state))
            assert (decision.exact, decision.source) == (advice.exact, advice.source), (game.name, str(state))
            checked += 1
    assert checked > 0


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_replay_reproduces_the_end_state(game):
    """A whole random game's record, replayed through the game's engine, ends where the game did."""
    rules, fields = _small(game)
    tokens, _, end = _random_game(game, rules, random.Random(5), moves=None)
    assert end.current_player() == TERMINAL
    assert replay({"game": game.name, "rules": fields, "moves": tokens}) == end
