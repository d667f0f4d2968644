"""The answer to one stop-or-throw question at any Pitjesbak table (PIT-4..PIT-8): the
game's own detail behind the core :class:`~dicemath.core.advice.Advice` of ``advise``.

:class:`StopOrThrow` stands in a module of its own so that the solvers that answer with it
(:mod:`.table_game`) and the advice functions and policy cards (:mod:`.advice`, which
re-exports it) do not import each other.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class StopOrThrow:
    """The answer to one stop-or-throw decision (any table).

    Attributes:
        decision: ``"stop"`` or ``"throw"`` (ties: stop; ``"stop"`` when no throw is left).
        stop_probability: P(I win the game) if I stop now (this throw counts).
        throw_probability: P(I win the game) if I throw again (None when no throw is left).
        situation: the inputs, for display.
        exact: True for a full solve (float64 value iteration), False for an estimate
            (:mod:`.table_estimate`, five to eight players).
        stop_values, throw_values: every player's P(win the game) in turn order (the start
            player first) under each choice (``throw_values`` None when no throw is left).
    """

    decision: str
    stop_probability: float
    throw_probability: float | None
    situation: dict
    exact: bool = True
    stop_values: tuple[float, ...] | None = None
    throw_values: tuple[float, ...] | None = None

    def as_dict(self) -> dict:
        """JSON-ready form with stable keys: decision, stop_win_probability,
        throw_win_probability, exact, stop_values, throw_values and the situation's keys."""
        return {"decision": self.decision, "stop_win_probability": self.stop_probability,
                "throw_win_probability": self.throw_probability, "exact": self.exact,
                "stop_values": None if self.stop_values is None else list(self.stop_values),
                "throw_values": None if self.throw_values is None else list(self.throw_values), **self.situation}

    def __str__(self) -> str:
        again = "no throw left" if self.throw_probability is None else f"{self.throw_probability:.4f}"
        label = "" if self.exact else " (estimates)"
        return (f"{self.decision.upper()}: P(win game) if you stop {self.stop_probability:.4f}, "
                f"if you throw again {again}{label}")

    def _repr_markdown_(self) -> str:
        return f"**{self.decision}** — {self}"
