"""Players for BohnDuell and matches between them, with confidence intervals.

A *player* is a callable ``(position, rng) -> Move``. Baselines: :func:`random_player`
(uniform over legal moves) and :func:`greedy_player` (largest immediate pot gain, BOHN-4/5;
ties broken at random). :class:`SearchPlayer` wraps the alpha-beta
:class:`~dicemath.games.bohnduell.search.SearchAdvisor`; :class:`ExactPlayer` plays
perfectly from a dense table. :func:`play_match_game` plays one game between two players
through the core's :func:`~dicemath.core.game.random_playout` (a player is its policy).

Example:
    >>> import random
    >>> from dicemath.games.bohnduell.rules import Rules
    >>> result = match(Rules(stock=10), greedy_player, random_player, games=20, seed=1)
    >>> result.games, result.wins + result.draws + result.losses
    (20, 20)
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable
from dataclasses import dataclass

from dicemath.core.game import GameState, random_playout, state_of
from dicemath.core.stats import Z95, wilson_interval
from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.state import Move, State, initial_state

Player = Callable[[State, random.Random], Move]


def random_player(position: State, rng: random.Random) -> Move:
    """A uniformly random legal move."""
    return rng.choice(position.legal_actions())


def greedy_player(position: State, rng: random.Random) -> Move:
    """The move with the largest immediate gain (captures, harvest +1); random among ties."""
    moves = position.legal_actions()
    gains = [position.gain(m) for m in moves]
    top = max(gains)
    return rng.choice([m for m, g in zip(moves, gains) if g == top])


class SearchPlayer:
    """Plays the best move of a :class:`~dicemath.games.bohnduell.search.SearchAdvisor`."""

    def __init__(self, advisor):
        self.advisor = advisor

    def __call__(self, position: State, rng: random.Random) -> Move:
        moves = position.legal_actions()
        return moves[0] if len(moves) == 1 else self.advisor.best_move(position)


class ExactPlayer:
    """Plays a best move of a :class:`~dicemath.games.bohnduell.solver_dense.DenseTable`."""

    def __init__(self, table):
        self.table = table

    def __call__(self, position: State, rng: random.Random) -> Move:
        values = self.table.move_values(position)
        best = max(values.values())
        return rng.choice([m for m, v in values.items() if v == best])


def play_match_game(rules: Rules, first: Player, second: Player, rng: random.Random) -> State:
    """Play one game, ``first`` as A (moves first, BOHN-7); return the final state."""
    players = (first, second)

    def policy(state: GameState, r: random.Random) -> Hashable:
        own = _own(state)
        return players[own.to_move](own, r)

    return _own(random_playout(initial_state(rules), rng, policy=policy))


def _own(state: GameState) -> State:
    return state_of(state, State, "BohnDuell")


@dataclass(frozen=True)
class MatchResult:
    """Result of ``games`` games of a player against a baseline, seats alternating.

    Attributes:
        games, wins, draws, losses: counted for the player.
        margin: mean final pot difference (player minus baseline).
        margin_sd: standard deviation of that difference over games.
    """

    games: int
    wins: int
    draws: int
    losses: int
    margin: float
    margin_sd: float

    @property
    def score(self) -> float:
        """(wins + draws / 2) / games."""
        return (self.wins + 0.5 * self.draws) / self.games

    def score_interval(self, z: float = Z95) -> tuple[float, float]:
        """Wilson 95% interval of the score (draws counted as half a win)."""
        return wilson_interval(self.wins + 0.5 * self.draws, self.games, z)

    def margin_interval(self, z: float = Z95) -> tuple[float, float]:
        """Normal 95% interval of the mean pot margin."""
        half = z * self.margin_sd / math.sqrt(self.games)
        return self.margin - half, self.margin + half

    def as_dict(self) -> dict:
        low, high = self.score_interval()
        mlow, mhigh = self.margin_interval()
        return {"games": self.games, "wins": self.wins, "draws": self.draws, "losses": self.losses,
                "score": self.score, "score_ci95": [low, high], "margin": self.margin,
                "margin_ci95": [mlow, mhigh]}


def match(rules: Rules, player: Player, baseline: Player, games: int = 100, seed: int = 0) -> MatchResult:
    """Play ``games`` games, ``player`` moving first in the even-numbered ones."""
    rng = random.Random(seed)
    wins = draws = losses = 0
    margins = []
    for game in range(games):
        seat = game % 2
        final = play_match_game(rules, *((player, baseline) if seat == 0 else (baseline, player)), rng)
        margin = final.pots[seat] - final.pots[1 - seat]
        margins.append(margin)
        wins += margin > 0
        draws += margin == 0
        losses += margin < 0
    mean = sum(margins) / games
    sd = math.sqrt(sum((m - mean) ** 2 for m in margins) / (games - 1)) if games > 1 else 0.0
    return MatchResult(games, wins, draws, losses, mean, sd)
