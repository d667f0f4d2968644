"""Every door gives one answer: ``analyse`` values each decision of every registered game by the
game's own advice (:meth:`dicemath.core.game.Game.advise`, asked once per decision), and values
states by the game's chain (:meth:`dicemath.core.game.Game.sources`), which agrees with the
advice wherever the answer is exact: the value at a decision is the value after its best option,
and the values after the options are as far apart as the advice says.

Random games are played from each game's start with small rules (seeded); the record of the
whole game is analysed through a game that counts its advice, and every decision the analysis
valued is compared with that advice and with the chain's value of the state; and the record of
a whole game replays to the state the game ended in.
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

START = {"backgammon": "NQ0AAMsKAAAAAA"}
"""A record's ``start`` for games whose opening holds no exact decision within :data:`MOVES` (a
Backgammon bear-off, X's home board 2-1-0-2-1-1 against O's 1-1-2-0-1-2); the others start at the start."""

MOVES = 40
"""Tokens played per game (the record of an unfinished game is analysed as far as it goes)."""


def _random_game(game, rules, rng: random.Random, moves: int | None = MOVES):
    """The tokens of a random game from the start a record's game has (at most ``moves`` of
    them; None: to the end), the state before each token, and the state after the last."""
    state = game.analysis().initial_state(rules, START.get(game.name))
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


def _record(game, fields, tokens):
    """The whole-game record of ``tokens`` played from the start :func:`_random_game` played from."""
    start = {"start": START[game.name]} if game.name in START else {}
    return {"game": game.name, "rules": fields, "moves": tokens, **start}


def _check_the_chain_agrees(chain, state, advice, name):
    """At a decision whose advice is exact, the chain's value is the value after the best option,
    and the chain's values after the options differ for the mover exactly as the advice's do (a
    game may count its values from another origin than its advice: Pegs and Fives count the turns
    already taken too, the advice only those still needed)."""
    mover = state.current_player()
    after = {option.action: chain.value(state.apply(option.action)) for option in advice.options}
    best = advice.best
    valued = chain.value(state)
    assert valued.exact and all(v.exact for v in after.values()), (name, str(state))
    assert valued.values == pytest.approx(after[best.action].values, abs=1e-9), (name, str(state))
    for option in advice.options:
        assert after[option.action].values[mover] - after[best.action].values[mover] == \
            pytest.approx(float(option.value) - float(best.value), abs=1e-9), (name, str(state), option.text)


class _CountingAdvice:
    """``game`` whose every advice is kept, in order: what the analysis asked it."""

    def __init__(self, game):
        self.game = game
        self.asked = []

    def __getattr__(self, name):
        return getattr(self.game, name)

    def advise(self, state, **settings):
        advice = self.game.advise(state, **settings)
        self.asked.append((state, advice))
        return advice


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_analyse_values_every_decision_by_the_games_advice(game):
    rules, fields = _small(game)
    chain = game.sources(rules)
    rng = random.Random(7)
    decisions = exact = 0
    for _ in range(2):
        tokens, before, end = _random_game(game, rules, rng)
        counting = _CountingAdvice(game)
        result = analyse(_record(game, fields, tokens), [counting])
        # one advice per decision, at the decision's state, and nothing else asked
        assert [state for state, _ in counting.asked] == [before[d.index] for d in result.decisions], game.name
        for decision, (state, advice) in zip(result.decisions, counting.asked):
            assert decision.values == {o.text: float(o.value) for o in advice.options}, (game.name, str(state))
            assert (decision.exact, decision.source) == (advice.exact, advice.source), (game.name, str(state))
            if advice.exact:
                _check_the_chain_agrees(chain, state, advice, game.name)
                exact += 1
            decisions += 1
        # the trajectory is the chain's value of every state the game passed
        assert [valued for _, valued in result.trajectory] == [chain.value(state) for state in (*before, end)]
    assert decisions > 0 and exact > 0


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_replay_reproduces_the_end_state(game):
    """A whole random game's record, replayed through the game's engine, ends where the game did."""
    rules, fields = _small(game)
    tokens, _, end = _random_game(game, rules, random.Random(5), moves=None)
    assert end.current_player() == TERMINAL
    assert replay(_record(game, fields, tokens), GAMES) == end
