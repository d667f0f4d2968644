"""Play seeded games between policies and write them down as whole-game records.

A *policy* here is ``policy(state, rng) -> action`` for a state of the game's engine where
its seat decides; chance is drawn with its exact probabilities
(:func:`dicemath.core.game.sample_chance`). The tokens are the game's own text forms
(:meth:`~dicemath.analysis.engine.GameAnalysis.text`), so the record replays exactly.

Example:
    >>> from dicemath.analysis import analyse, game_named
    >>> from dicemath.games.registry import GAMES
    >>> hold_at_6 = lambda state, rng: "hold" if state.turn_total >= 6 else "roll"
    >>> record = record_game(game_named("pig", GAMES), (hold_at_6, hold_at_6), seed=1, rules={"goal": 20})
    >>> record.moves[:4], analyse(record, GAMES).decisions[0].choice
    (('roll', '1', 'roll', '6'), 'hold')
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence

from dicemath.analysis.records import Record
from dicemath.core.game import CHANCE, TERMINAL, Game, GameState, sample_chance

Policy = Callable[[GameState, random.Random], Hashable]
"""``policy(state, rng) -> action`` at a state where the policy's seat decides."""


def play_tokens(game: Game, rules, policies: Sequence[Policy], rng: random.Random, *, start: str | None = None,
                max_steps: int = 100_000) -> list[str]:
    """Play one game from the start; return its record tokens.

    Args:
        game: the game.
        rules: the game's rules object.
        policies: one policy per seat.
        rng: the source of dice (and of the policies' randomness).
        start: the text of the state to start from (default: the game's start).
        max_steps: give up after this many tokens.

    Raises:
        RuntimeError: the game did not end within ``max_steps`` tokens.
    """
    adapter = game.analysis()
    state = adapter.initial_state(rules, start)
    tokens: list[str] = []
    for _ in range(max_steps):
        player = state.current_player()
        if player == TERMINAL:
            return tokens
        action = sample_chance(state, rng) if player == CHANCE else policies[player](state, rng)
        tokens.append(adapter.text(state, action))
        state = state.apply(action)
    raise RuntimeError(f"the game did not end within {max_steps} moves")


def record_game(game: Game, policies: Sequence[Policy], *, seed: int = 0, rules: Mapping | None = None,
                settings: Mapping | None = None, players: Sequence[str] | None = None,
                start: str | None = None) -> Record:
    """A whole-game :class:`~dicemath.analysis.records.Record` of one seeded game.

    Args:
        game: the game.
        policies: one per seat.
        seed: the seed of the dice.
        rules: the record's rules fields.
        settings: the record's settings (of the game's advice and chain).
        players: names of the seats (e.g. the policies' names).
        start: the text of the state to start from (default: the game's start).
    """
    fields = dict(rules or {})
    tokens = play_tokens(game, game.analysis().rules(fields), policies, random.Random(seed), start=start)
    return Record(game.name, fields, dict(settings or {}), moves=tuple(tokens),
                  players=tuple(players) if players else None, start=start)
