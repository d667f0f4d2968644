"""Every door gives one answer: ``analyse`` values each decision of every registered game
exactly as ``advise`` does (the same values, ``exact`` flag and ``source``), because both ask
the game's one chain of sources (:meth:`dicemath.core.game.Game.sources`).

Random games are played from each game's start with small rules (seeded); the record of the
whole game is analysed, and every decision the analysis valued is compared with the game's
advice at that state.
"""

from __future__ import annotations

import dataclasses
import random

import pytest

from dicemath.analysis import analyse
from dicemath.core.game import CHANCE, TERMINAL
from dicemath.games.registry import GAMES

SMALL = {"pegs": dict(rows=3), "fives": dict(rows=3), "pitjesbak": dict(stripes=3), "bohnduell": dict(stock=8),
         "pig": dict(goal=20)}
"""Rules fields of a quick game per game (the standard rules for the others)."""

MOVES = 40
"""Tokens played per game (the record of an unfinished game is analysed as far as it goes)."""


def _random_game(game, rules, rng: random.Random):
    """The tokens of a random game from the start a record's game has, and the state before each token."""
    state = game.analysis().initial_state(rules)
    tokens, before = [], []
    while len(tokens) < MOVES and state.current_player() != TERMINAL:
        if state.current_player() == CHANCE:
            outcomes, weights = zip(*state.chance_outcomes())
            action = rng.choices(outcomes, weights=[float(w) for w in weights])[0]
        else:
            action = rng.choice(list(state.legal_actions()))
        tokens.append(state.action_text(action))
        before.append(state)
        state = state.apply(action)
    return tokens, before


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_analyse_values_every_decision_as_advise_does(game):
    rules = dataclasses.replace(game.standard, **SMALL.get(game.name, {}))
    fields = {f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)
              if getattr(rules, f.name) != getattr(game.standard, f.name)}
    rng = random.Random(7)
    checked = 0
    for _ in range(2):
        tokens, before = _random_game(game, rules, rng)
        result = analyse({"game": game.name, "rules": fields, "moves": tokens})
        for decision in result.decisions:
            state = before[decision.index]
            advice = game.advise(state)
            assert decision.values == {o.text: float(o.value) for o in advice.options}, (game.name, str(state))
            assert (decision.exact, decision.source) == (advice.exact, advice.source), (game.name, str(state))
            checked += 1
    assert checked > 0
