"""The vocabulary every game speaks, and checks written once against it.

A game state (after OpenSpiel's split of games and algorithms) says whose turn it is: a
player index ``0, 1, ...``, :data:`CHANCE` or :data:`TERMINAL`. A player state lists its
legal actions (sorted, hashable); a chance state lists its outcomes with exact
probabilities; :meth:`GameState.apply` returns the next state (states are immutable);
a terminal state has returns, one number per player.

Generic algorithms take any object with these methods: random play and the shared
consistency check of every game's tests here, expectimax and alpha-beta in
:mod:`dicemath.core.search`. The per-game names built on this vocabulary (``Rules``,
``initial_state``, ``State``, ``advise``) are listed in :mod:`dicemath.games`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import Protocol, runtime_checkable

from dicemath.core.errors import InvalidProbabilityError

CHANCE = -1
"""``current_player()`` of a state where chance (the dice) acts next."""
TERMINAL = -2
"""``current_player()`` of a finished game."""


@runtime_checkable
class GameState(Protocol):
    """An immutable, hashable game state."""

    def current_player(self) -> int:
        """A player index, :data:`CHANCE` or :data:`TERMINAL`."""

    def legal_actions(self) -> Sequence[Hashable]:
        """The actions of the player to act, sorted; empty at chance and terminal states."""

    def chance_outcomes(self) -> Sequence[tuple[Hashable, Fraction]]:
        """``(outcome, probability)`` pairs at a chance state; probabilities sum to 1."""

    def apply(self, action: Hashable) -> GameState:
        """The state after ``action`` (or chance outcome); raises on an illegal one."""

    def returns(self) -> Sequence[float]:
        """The result for each player at a terminal state."""


def sample_chance(state: GameState, rng: random.Random) -> Hashable:
    """Draw a chance outcome of ``state`` with its exact probabilities."""
    outcomes = state.chance_outcomes()
    point = Fraction(rng.random())
    cumulative = Fraction(0)
    for outcome, probability in outcomes:
        cumulative += probability
        if point < cumulative:
            return outcome
    return outcomes[-1][0]


def random_playout(state: GameState, rng: random.Random, *, max_steps: int = 100_000,
                   policy: Callable[[GameState, random.Random], Hashable] | None = None,
                   on_state: Callable[[GameState], None] | None = None) -> GameState:
    """Play ``state`` to the end with uniformly random actions (or ``policy``).

    ``on_state`` is called on every state visited (to check invariants).

    Raises:
        RuntimeError: the game did not end within ``max_steps`` actions.
    """
    for _ in range(max_steps):
        if on_state is not None:
            on_state(state)
        player = state.current_player()
        if player == TERMINAL:
            return state
        if player == CHANCE:
            action = sample_chance(state, rng)
        else:
            actions = state.legal_actions()
            if not actions:
                raise InvalidProbabilityError(f"player {player} has no legal action in {state}")
            action = policy(state, rng) if policy else rng.choice(list(actions))
        state = state.apply(action)
    raise RuntimeError(f"game did not end within {max_steps} steps")


def check_state_consistency(state: GameState) -> None:
    """Raise if ``state`` breaks the vocabulary's contract.

    Checks: chance probabilities are positive and sum to exactly 1; legal actions are
    sorted and distinct; a terminal state has returns and no actions.
    """
    player = state.current_player()
    if player == CHANCE:
        outcomes = state.chance_outcomes()
        total = sum((Fraction(p) for _, p in outcomes), Fraction(0))
        if total != 1 or any(p <= 0 for _, p in outcomes):
            raise InvalidProbabilityError(f"chance outcomes of {state} sum to {total}")
    elif player == TERMINAL:
        if state.legal_actions():
            raise InvalidProbabilityError(f"terminal state {state} has legal actions")
        state.returns()
    else:
        actions = list(state.legal_actions())
        if len(set(actions)) != len(actions):
            raise InvalidProbabilityError(f"duplicate legal actions in {state}")
        if actions != sorted(actions):
            raise InvalidProbabilityError(f"legal actions of {state} are not sorted")


def check_random_play(initial: GameState, *, games: int = 20, seed: int = 0,
                      invariant: Callable[[GameState], None] | None = None,
                      max_steps: int = 100_000) -> int:
    """The shared check of every game: random games end and keep every invariant.

    Each visited state passes :func:`check_state_consistency` and ``invariant``.

    Returns:
        The number of states visited (so a test can see the check did something).
    """
    rng = random.Random(seed)
    visited = 0

    def check(state: GameState) -> None:
        nonlocal visited
        visited += 1
        check_state_consistency(state)
        if invariant is not None:
            invariant(state)

    for _ in range(games):
        random_playout(initial, rng, max_steps=max_steps, on_state=check)
    return visited
