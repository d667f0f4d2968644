"""Seeded simulation of Pitjesbak rounds and games (PIT-1..PIT-8).

Simulations drive the rules engine :class:`~dicemath.games.pitjesbak.state.State`
with real dice from a seeded :class:`random.Random`: three dice per throw and, for a tie,
the one-die roll-off of PIT-5 (highest wins, repeat on ties). A *policy* is a callable
``policy(state) -> "stop" | "throw"`` called at every decision; a list of policies gives
each seat its own.

Example:
    >>> from dicemath.games.pitjesbak.rules import Rules
    >>> record = simulate_game(Rules(players=3), stop_on_rank(100), seed=1)
    >>> record.winner in (0, 1, 2), record.rounds >= 1
    (True, True)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from dicemath.core.errors import InvalidStateError
from dicemath.games.pitjesbak.rules import Rules
from dicemath.games.pitjesbak.state import STOP, THROW, State, initial_state
from dicemath.games.pitjesbak.throws import classify

Policy = Callable[[State], str]
"""A decision rule: the state at a decision to ``"stop"`` or ``"throw"``."""


def stop_on_rank(rank: int) -> Policy:
    """A simple policy: stop when the current throw ranks >= ``rank`` and beats the best so
    far; throw again on 1-1-1 without the has-wiped flag, stop on it with the flag.
    """
    def policy(state: State) -> str:
        cls = classify(state.current, state.rules)  # type: ignore[arg-type]
        if cls.is_apen:
            return STOP if state.wiped[state.player] else THROW
        best, _ = state.best_so_far()
        if best is not None and cls.rank <= best.rank:
            return THROW
        return STOP if cls.rank >= rank else THROW
    return policy


def _policy_for(policies: Policy | Sequence[Policy], seat: int) -> Policy:
    if callable(policies):
        return policies
    return policies[seat]


def _roll_off(tied: Sequence[int], rng: random.Random) -> int:
    """PIT-5: the tied players each throw one die; highest wins; repeat on ties."""
    contenders = list(tied)
    while True:
        faces = [rng.randint(1, 6) for _ in contenders]
        top = max(faces)
        contenders = [seat for seat, face in zip(contenders, faces) if face == top]
        if len(contenders) == 1:
            return contenders[0]


def step(state: State, policies: Policy | Sequence[Policy], rng: random.Random) -> State:
    """Advance ``state`` by one action: a throw, a roll-off or a player's decision."""
    if state.rolloff:
        return state.apply(_roll_off(state.rolloff, rng))
    if state.current is None:
        return state.apply(tuple(sorted(rng.randint(1, 6) for _ in range(3))))
    return state.apply(_policy_for(policies, state.player)(state))


@dataclass(frozen=True)
class RoundRecord:
    """What happened in one simulated round.

    Attributes:
        start_state: the state at the start of the round.
        end_state: the state after the round (start of the next round, or game over).
        limit: throws the start player used (PIT-4).
        results: counting throws by seat in turn order (None: eliminated by 1-1-1).
        round_winner: seat that won the round (or the game during it).
    """

    start_state: State
    end_state: State
    limit: int
    results: tuple
    round_winner: int


def play_round(state: State, policies: Policy | Sequence[Policy],
               rng: random.Random) -> RoundRecord:
    """Play the round beginning at ``state`` (which must be at the start of a round).

    Raises:
        InvalidStateError: ``state`` is not at the start of a round.
    """
    if state.winner >= 0 or state.turn or state.results or state.current or state.rolloff:
        raise InvalidStateError("play_round needs a state at the start of a round")
    start_state = state
    round_number = state.round_number
    while state.winner < 0 and state.round_number == round_number:
        state = step(state, policies, rng)
    if state.winner >= 0:
        return RoundRecord(start_state, state, state.limit, state.results, state.winner)
    return RoundRecord(start_state, state, state.last_limit, state.last_results,
                       state.last_round_winner)


def simulate_round(rules: Rules, policies: Policy | Sequence[Policy], *, seed: int = 0,
                   stripes: tuple[int, ...] | None = None, wiped: tuple[bool, ...] | None = None,
                   start: int = 0) -> RoundRecord:
    """Simulate one round from a fresh round state (seeded)."""
    state = initial_state(rules, start=start, stripes=stripes, wiped=wiped)
    return play_round(state, policies, random.Random(seed))


def round_win_frequencies(rules: Rules, policies: Policy | Sequence[Policy], rounds: int,
                          *, seed: int = 0, wiped: tuple[bool, ...] | None = None,
                          start: int = 0) -> list[float]:
    """Fraction of ``rounds`` simulated rounds won by each seat (a round won by winning the
    game during it, PIT-6/PIT-8, counts as a round win)."""
    rng = random.Random(seed)
    state = initial_state(rules, start=start, wiped=wiped)
    wins = [0] * rules.players
    for _ in range(rounds):
        wins[play_round(state, policies, rng).round_winner] += 1
    return [w / rounds for w in wins]


@dataclass(frozen=True)
class GameRecord:
    """A simulated game: its winner, number of rounds and final state."""

    winner: int
    rounds: int
    final_state: State


def simulate_game(rules: Rules, policies: Policy | Sequence[Policy], *, seed: int = 0,
                  start: int = 0, rng: random.Random | None = None,
                  max_rounds: int = 100_000) -> GameRecord:
    """Simulate a whole game (PIT-1..PIT-8) with seeded dice.

    Args:
        rules: the rules.
        policies: one policy for all seats or one per seat.
        seed: seed of the dice (ignored when ``rng`` is given).
        start: seat of the first start player.
        rng: a random generator to draw from (for many games in a row).
        max_rounds: safety bound.

    Raises:
        RuntimeError: the game did not end within ``max_rounds`` rounds.
    """
    rng = rng or random.Random(seed)
    state = initial_state(rules, start=start)
    while state.winner < 0:
        if state.round_number > max_rounds:
            raise RuntimeError(f"game did not end within {max_rounds} rounds")
        state = step(state, policies, rng)
    return GameRecord(state.winner, state.round_number + 1, state)


def game_win_frequencies(rules: Rules, policies: Policy | Sequence[Policy], games: int,
                         *, seed: int = 0, start: int = 0) -> list[float]:
    """Fraction of ``games`` simulated games won by each seat."""
    rng = random.Random(seed)
    wins = [0] * rules.players
    for _ in range(games):
        wins[simulate_game(rules, policies, rng=rng, start=start).winner] += 1
    return [w / games for w in wins]
