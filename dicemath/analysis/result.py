"""What an analysis finds: the cost of each decision, the luck of each chance event, totals.

Signs: a *loss* is how much worse the choice is than the best action for the player who
chose (>= 0; 0 for an optimal choice); *luck* is, for each player, how much better the
value after a chance outcome is for that player than the expected value over all
outcomes (GNU Backgammon's definition; positive is good luck). Values keep the game's
natural unit and direction: for Pegs and Fives fewer expected turns is better, so a
loss there is extra expected turns.

Over a whole game the two add up: for every player, the change of its value from the
start to the end (counted in its favour) equals its luck minus its own losses plus its
opponents' losses (two-player games are constant-sum). This holds exactly where the
values are exact; the tests check it for every game.

The **rating** grades the mean loss per decision against the error threshold ``t``:
*perfect* (every decision optimal), *expert* (below ``t / 10``), *strong* (below
``t / 3``), *fair* (below ``t``), *weak* (``t`` or more).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, overload

from dicemath.core.sources import Valued
from dicemath.core.errors import DicemathError
from dicemath.core.numbers import number_text

RATING_BANDS = ((0.1, "expert"), (1 / 3, "strong"), (1.0, "fair"))
"""``(fraction of the threshold, word)``: the mean loss per decision below that fraction
earns the word (see the module docstring); above all of them: *weak*."""


@overload
def check_threshold(threshold: float) -> float: ...
@overload
def check_threshold(threshold: None) -> None: ...
def check_threshold(threshold: float | None) -> float | None:
    """Return an error threshold if it is a finite number >= 0 (None: the game's own).

    Raises:
        DicemathError: a negative, infinite or NaN threshold, or one that is no number.
    """
    if threshold is None:
        return None
    if isinstance(threshold, bool) or not isinstance(threshold, (int, float)) or not math.isfinite(threshold) \
            or threshold < 0:
        raise DicemathError(f"--threshold must be a finite number >= 0 (a loss in the game's unit), "
                            f"got {threshold!r}")
    return threshold


@dataclass(frozen=True)
class DecisionCost:
    """One decision and what it cost.

    Attributes:
        index: the decision's position in the record (its ``decisions`` or ``moves`` entry).
        player: the seat that decided.
        choice: the action chosen, as the game writes it.
        best: the best action (the choice itself when it is optimal).
        loss: value of the best action minus value of the choice for the player (>= 0).
        exact: whether every action's value is exact.
        values: the player's value after each legal action, by action text.
        context: game facts about the decision for grouping (throw number, board stage...).
        source: where the values come from (the ``source`` of the game's advice at that state).
    """

    index: int
    player: int
    choice: str
    best: str
    loss: float
    exact: bool
    values: dict[str, float]
    context: dict = field(default_factory=dict)
    source: str = ""


@dataclass(frozen=True)
class ChanceLuck:
    """One chance event (a throw, a roll) and its luck.

    Attributes:
        index: its position in the record's ``moves``.
        player: the seat that threw, or None (a roll-off, the opening roll).
        outcome: the outcome, as the game writes it.
        luck: per player, value after the outcome minus the expected value, in that
            player's favour.
        exact: whether the values compared are exact.
    """

    index: int
    player: int | None
    outcome: str
    luck: tuple[float, ...]
    exact: bool


def rating_word(mean_loss: float, threshold: float, decisions: int) -> str:
    """The grade of :data:`RATING_BANDS` for a mean loss per decision.

    Example:
        >>> rating_word(0.0, 0.01, 5), rating_word(0.0004, 0.01, 5), rating_word(0.02, 0.01, 5)
        ('perfect', 'expert', 'weak')
    """
    if decisions == 0:
        return "no decisions"
    if mean_loss == 0:
        return "perfect"
    ratio = mean_loss / threshold if threshold > 0 else math.inf
    for limit, word in RATING_BANDS:
        if ratio < limit:
            return word
    return "weak"


@dataclass(frozen=True)
class Analysis:
    """The analysis of one record (see :func:`dicemath.analysis.analyse`).

    Attributes:
        game: the game's name.
        kind: ``"decisions"`` (a decision list) or ``"game"`` (a whole game).
        unit: the unit of values and losses (``"P(win game)"``, ``"turns"``, ...).
        value_label: what a value is, for plots (``"P(seat 0 wins the game)"``).
        source: where the values come from, in words.
        seats: the names of the seats (``("A", "B")``); one for a solitaire game.
        threshold: the game's default error threshold, in ``unit``.
        decisions: every decision with its cost, in record order.
        chance: every chance event with its luck (whole games).
        trajectory: ``(index, value)`` after each entry of a whole game, the start first
            with index -1 (values for every seat).
        finished: whether a whole game's record reaches the end of the game.
    """

    game: str
    kind: str
    unit: str
    value_label: str
    source: str
    seats: tuple[str, ...]
    threshold: float
    decisions: tuple[DecisionCost, ...]
    chance: tuple[ChanceLuck, ...] = ()
    trajectory: tuple[tuple[int, Valued], ...] = ()
    finished: bool | None = None

    @property
    def total_loss(self) -> float:
        """The sum of the losses."""
        return math.fsum(d.loss for d in self.decisions)

    @property
    def mean_loss(self) -> float:
        """The mean loss per decision (0 without decisions)."""
        return self.total_loss / len(self.decisions) if self.decisions else 0.0

    @property
    def exact(self) -> bool:
        """Whether every loss and luck is exact."""
        return all(d.exact for d in self.decisions) and all(c.exact for c in self.chance)

    def errors(self, threshold: float | None = None) -> int:
        """The number of decisions that lost more than ``threshold`` (default the game's)."""
        limit = self.threshold if threshold is None else threshold
        return sum(d.loss > limit for d in self.decisions)

    def by_seat(self, seat: int) -> list[DecisionCost]:
        """The decisions of one seat."""
        return [d for d in self.decisions if d.player == seat]

    def luck(self, seat: int) -> float:
        """The total luck of one seat over the game."""
        return math.fsum(c.luck[seat] for c in self.chance)

    def rating(self, threshold: float | None = None) -> str:
        """One line grading the play, computed from the losses (see :data:`RATING_BANDS`)."""
        limit = self.threshold if threshold is None else threshold
        groups = [(self.seats[s], self.by_seat(s)) for s in range(len(self.seats))] \
            if self.kind == "game" and len(self.seats) > 1 else [(None, list(self.decisions))]
        parts = []
        for name, decisions in groups:
            total = math.fsum(d.loss for d in decisions)
            mean = total / len(decisions) if decisions else 0.0
            word = rating_word(mean, limit, len(decisions))
            if word == "perfect":
                text = f"perfect: all {len(decisions)} decisions optimal"
            elif not decisions:
                text = word
            else:
                errors = sum(d.loss > limit for d in decisions)
                worst = max(decisions, key=lambda d: d.loss)
                text = (f"{word}: mean loss {number_text(mean)} {self.unit} per decision over "
                        f"{len(decisions)}, {errors} above the threshold {limit:g}, the costliest entry "
                        f"{worst.index} ({worst.choice}) lost {number_text(worst.loss)}")
            parts.append(f"{name} {text}" if name else text)
        estimate = "" if self.exact else " (some values are estimates)"
        return "; ".join(parts) + estimate

    def as_dict(self, threshold: float | None = None) -> dict:
        """The JSON form with stable keys (documented in ``docs/analyse.md``).

        Raises:
            DicemathError: a threshold that is not a finite number >= 0.
        """
        limit: float = self.threshold if threshold is None else check_threshold(threshold)
        result: dict[str, Any] = {
            "game": self.game, "kind": self.kind, "unit": self.unit, "source": self.source,
            "value_label": self.value_label, "seats": list(self.seats), "threshold": limit,
            "decisions": [{"index": d.index, "player": d.player, "choice": d.choice, "best": d.best,
                           "loss": d.loss, "unit": self.unit, "exact": d.exact, "values": d.values,
                           "context": d.context, "source": d.source} for d in self.decisions],
            "total_loss": self.total_loss, "mean_loss": self.mean_loss, "errors": self.errors(limit),
            "exact": self.exact, "rating": self.rating(limit),
        }
        if self.kind == "game":
            seats = range(len(self.seats))
            result.update({
                "chance": [{"index": c.index, "player": c.player, "outcome": c.outcome, "luck": list(c.luck),
                            "exact": c.exact} for c in self.chance],
                "loss_by_player": [math.fsum(d.loss for d in self.by_seat(s)) for s in seats],
                "decisions_by_player": [len(self.by_seat(s)) for s in seats],
                "errors_by_player": [sum(d.loss > limit for d in self.by_seat(s)) for s in seats],
                "luck_by_player": [self.luck(s) for s in seats],
                "start_value": list(self.trajectory[0][1].values),
                "end_value": list(self.trajectory[-1][1].values),
                "finished": self.finished,
                "trajectory": [{"index": i, "value": list(v.values), "exact": v.exact}
                               for i, v in self.trajectory],
            })
        return result

    def _repr_markdown_(self) -> str:
        from dicemath.core.markdown import markdown_table

        rows = [[d.index, d.choice, d.best, number_text(d.loss), "exact" if d.exact else "estimate"]
                for d in self.decisions]
        return (f"**{self.game}** ({self.kind}, losses in {self.unit}, {self.source})\n\n"
                + markdown_table(["entry", "choice", "best", "loss", "value"], rows, align="rllrl")
                + f"\n\nTotal loss {number_text(self.total_loss)}, mean {number_text(self.mean_loss)}, "
                  f"{self.errors()} errors above {self.threshold:g}. Rating: {self.rating()}")
