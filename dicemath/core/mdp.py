"""Markov decision processes whose states are ordered by progress.

A *progress MDP* is one where every transition from a state leads to the state itself
(no progress: a turn that ends where it began) or to a state solved before it. One
*step* from state ``s`` is: pay ``cost``; chance draws an outcome ``o`` with probability
``p_o``; the player picks a decision ``a`` among those available after ``o``; the decision
leads to a distribution over next states. The value satisfies

    V(s) = cost + sum_o p_o * opt_a [ stay(o, a) * V(s) + rest(o, a) ]

where ``stay`` is the probability of returning to ``s`` and ``rest`` the expected value of
the other next states. ``opt`` is ``min`` (expected turns, costs) or ``max``
(probabilities of winning, with ``cost = 0``). Because the right side is piecewise linear
and monotone in ``V(s)`` with slope below 1, the equation has one root, found exactly by
policy iteration on the single unknown (Newton's method on a piecewise linear function:
finitely many steps). With :class:`fractions.Fraction` inputs the result is exact; with
floats it is float64.

Games supply their states in an order where every successor comes first, and a
``step(state, value)`` function that lists chance outcomes with their decisions; they
write no loops of their own.

:func:`optimal_stopping` is the fast form of the special case "stop or go on, at most N
steps" (no self-loops, one backward pass).

For values whose states are *not* ordered by progress (a penalty that sends a player
back), :func:`bounded_value_iteration` sweeps a lower and an upper bound together so that
the result carries rigorous error bars, and :func:`layered_value_iteration` sweeps layers of
states that depend only on themselves and the layers already solved until each converges;
both run on :func:`sweep_to_convergence`.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Generic, TypeVar

import numpy as np
from numpy.typing import NDArray

from dicemath.core.errors import InvalidProbabilityError
from dicemath.core.progress import progress

Number = TypeVar("Number", Fraction, float)
State = TypeVar("State", bound=Hashable)
Block = TypeVar("Block")


@dataclass(frozen=True)
class DecisionOutcome(Generic[Number]):
    """What one decision leads to, summarised for the state being solved.

    Attributes:
        stay: probability of ending the step in the same state.
        rest: expected value of every other next state, ``sum p(s') V(s')``.
    """

    stay: Number
    rest: Number


def _objective_sign(objective: str) -> int:
    if objective not in ("min", "max"):
        raise ValueError(f"objective must be 'min' or 'max', got {objective!r}")
    return 1 if objective == "min" else -1


def solve_self_referential(cost: Number,
                           outcomes: Sequence[tuple[Number, Sequence[DecisionOutcome[Number]]]],
                           objective: str = "min") -> tuple[Number, list[int]]:
    """Solve ``V = cost + sum_o p_o * opt_a (stay_a V + rest_a)`` for ``V``.

    Args:
        cost: paid once per step (1 for "expected turns", 0 for probabilities).
        outcomes: for each chance outcome, its probability and the decisions available.
            An outcome with no decisions ends the step where it began (stay 1, rest 0).
        objective: ``"min"`` or ``"max"``.

    Returns:
        The value and, for each outcome, the index of an optimal decision (the first one
        among equals; -1 where there is none).

    Raises:
        InvalidProbabilityError: probabilities do not sum to 1, or the optimal play can
            never leave the state (the value would be infinite).

    Example:
        A step that succeeds with probability 1/6 and otherwise stays: 6 steps.

        >>> from fractions import Fraction as F
        >>> solve_self_referential(F(1), [(F(1, 6), [DecisionOutcome(F(0), F(0))]),
        ...                               (F(5, 6), [])])
        (Fraction(6, 1), [0, -1])
    """
    sign = _objective_sign(objective)
    zero = cost - cost
    one = zero + 1
    total = sum((p for p, _ in outcomes), zero)
    if abs(total - 1) > (0 if isinstance(total, Fraction) else 1e-9):
        raise InvalidProbabilityError(f"chance outcomes sum to {total}, not 1")
    # Start from the policy that leaves the state most surely, then improve.
    policy = []
    for _, decisions in outcomes:
        if not decisions:
            policy.append(-1)
        else:
            policy.append(min(range(len(decisions)), key=lambda i: decisions[i].stay))
    for _ in range(10_000):
        stay = zero
        rest = zero
        for (p, decisions), choice in zip(outcomes, policy):
            if choice < 0:
                stay += p
            else:
                stay += p * decisions[choice].stay
                rest += p * decisions[choice].rest
        if stay >= one - (0 if isinstance(stay, Fraction) else 1e-15):
            raise InvalidProbabilityError("this policy never leaves the state: the value is infinite")
        value = (cost + rest) / (one - stay)
        improved = []
        for (_, decisions), choice in zip(outcomes, policy):
            if choice < 0:
                improved.append(-1)
                continue
            scores = [sign * (d.stay * value + d.rest) for d in decisions]
            best = min(scores)
            current = scores[choice]
            tolerance = 0 if isinstance(best, Fraction) else 1e-12 * (1 + abs(best))
            improved.append(choice if current <= best + tolerance else scores.index(best))
        if improved == policy:
            return value, policy
        policy = improved
    raise RuntimeError("policy iteration did not converge")


Step = Callable[[State, Callable[[State], Number]],
                Sequence[tuple[Number, Sequence[Mapping[State, Number]]]]]


@dataclass
class ProgressSolution(Generic[State, Number]):
    """Values and optimal decisions of a solved progress MDP.

    Attributes:
        values: ``state -> value``.
        policy: ``state -> list`` giving, for each chance outcome of its step, the index
            of an optimal decision (-1 where there was no decision).
    """

    values: dict[State, Number]
    policy: dict[State, list[int]]


def solve_progress_mdp(states: Iterable[State], step: Step[State, Number], *, cost: Number,
                       terminal_value: Callable[[State], Number | None],
                       objective: str = "min") -> ProgressSolution[State, Number]:
    """Solve every state of a progress MDP, successors first.

    Args:
        states: every state, each listed after all the states it can move to.
        step: ``step(state, value)`` returns the chance outcomes of one step as
            ``(probability, decisions)``, each decision a mapping ``next_state ->
            probability``; ``value(s)`` gives the solved value of any earlier state
            (use it to evaluate sub-decisions inside a step).
        cost: paid per step.
        terminal_value: the fixed value of a terminal state, or None for a live state.
        objective: ``"min"`` or ``"max"``.

    Raises:
        InvalidProbabilityError: a decision's probabilities do not sum to 1.
        KeyError: a decision leads to a state that was not solved before (bad order).

    Example:
        Geometric waiting: each step finishes with probability 1/3.

        >>> from fractions import Fraction as F
        >>> def step(s, value):
        ...     return [(F(1), [{"done": F(1, 3), "start": F(2, 3)}])]
        >>> solution = solve_progress_mdp(["done", "start"], step, cost=F(1),
        ...     terminal_value=lambda s: F(0) if s == "done" else None)
        >>> solution.values["start"]
        Fraction(3, 1)
    """
    values: dict[State, Number] = {}
    policy: dict[State, list[int]] = {}
    exact = isinstance(cost, Fraction)
    for state in states:
        fixed = terminal_value(state)
        if fixed is not None:
            values[state] = fixed
            continue
        outcomes = []
        for probability, decisions in step(state, values.__getitem__):
            summaries = []
            for distribution in decisions:
                stay = cost - cost
                rest = cost - cost
                mass = cost - cost
                for next_state, p in distribution.items():
                    mass += p
                    if next_state == state:
                        stay += p
                    else:
                        rest += p * values[next_state]
                if (mass != 1) if exact else abs(mass - 1) > 1e-9:
                    raise InvalidProbabilityError(
                        f"a decision from {state!r} has next-state probabilities summing to {mass}")
                summaries.append(DecisionOutcome(stay, rest))
            outcomes.append((probability, summaries))
        values[state], policy[state] = solve_self_referential(cost, outcomes, objective)
    return ProgressSolution(values, policy)


@dataclass(frozen=True)
class Stopping(Generic[Number]):
    """The solution of a finite stop-or-go-on problem (see :func:`optimal_stopping`).

    Attributes:
        stops: ``stops[t][o]``: stop after step ``t + 1`` when it showed outcome ``o`` (at
            the last step always).
        continue_values: ``continue_values[t]``: value of going on after step ``t + 1``
            (``None`` after the last step).
        value: the value before the first step.
        counting: ``counting[t][o]``: probability of stopping after step ``t + 1`` on ``o``.
    """

    stops: tuple[tuple[bool, ...], ...]
    continue_values: tuple[Number | None, ...]
    value: Number
    counting: tuple[tuple[Number, ...], ...]

    @property
    def outcome(self) -> tuple[Number, ...]:
        """Probability of stopping on outcome ``o``, whichever step it is."""
        return tuple(sum(column[1:], column[0]) for column in zip(*self.counting))


def optimal_stopping(stop_values: Sequence[Sequence[Number]],
                     probabilities: Sequence[Number]) -> Stopping[Number]:
    """Stop or go on, at most ``len(stop_values)`` steps: maximise the value of stopping.

    Each step draws outcome ``o`` with ``probabilities[o]``; after step ``t + 1`` the player
    stops with the value ``stop_values[t][o]`` or takes the next step; the last step
    always stops. This is the progress MDP of this module with no self-loops and a fixed
    horizon (its states are the steps taken, each leading only to the next), so it is
    solved by one backward pass; :func:`solve_progress_mdp` gives the same values and
    decisions (the tests check it), this is the fast form for solvers that call it
    thousands of times. Ties between stopping and going on are broken towards stopping.

    Args:
        stop_values: per step, the value of stopping on each outcome.
        probabilities: the outcomes' probabilities (Fractions: exact; floats: float64).

    Returns:
        The :class:`Stopping` solution.

    Example:
        Throw a die up to twice and keep the last face: stop on 4, 5, 6 (3.5 < 4).

        >>> from fractions import Fraction as F
        >>> faces = [F(f) for f in range(1, 7)]
        >>> plan = optimal_stopping([faces, faces], [F(1, 6)] * 6)
        >>> plan.stops[0], plan.value
        ((False, False, False, True, True, True), Fraction(17, 4))
    """
    limit = len(stop_values)
    if limit < 1:
        raise ValueError("optimal_stopping needs at least one step")
    zero = probabilities[0] - probabilities[0]
    stops: list[tuple[bool, ...]] = [()] * limit          # every entry is set below
    conts: list[Number | None] = [None] * limit
    stops[-1] = (True,) * len(probabilities)
    after = list(stop_values[-1])
    for t in range(limit - 2, -1, -1):
        cont = sum((p * v for p, v in zip(probabilities, after)), zero)
        conts[t] = cont
        stops[t] = tuple(s >= cont for s in stop_values[t])
        after = [s if s >= cont else cont for s in stop_values[t]]
    value = sum((p * v for p, v in zip(probabilities, after)), zero)
    counting = []
    mass = zero + 1
    for t in range(limit):
        counting.append(tuple(mass * p if stop else zero for p, stop in zip(probabilities, stops[t])))
        mass *= sum((p for p, stop in zip(probabilities, stops[t]) if not stop), zero)
    return Stopping(tuple(stops), tuple(conts), value, tuple(counting))


def sweep_to_convergence(blocks: Iterable[Block], update: Callable[[Block], float], *,
                         tolerance: float, max_sweeps: int, desc: str | None = None) -> tuple[int, float]:
    """Gauss-Seidel sweeps: ``update(block)`` for every block in order, until a sweep changes
    nothing by ``tolerance`` or more.

    The loop every value iteration here shares. ``update`` recomputes the values of one
    block (a state, or an array of state indices) in place, using the newest values of
    the blocks before it, and returns the largest change it made.

    Args:
        blocks: the blocks in sweep order (list them so that most successors come first).
        update: ``update(block) -> largest absolute change``.
        tolerance: stop after a sweep whose largest change is below this.
        max_sweeps: stop after this many sweeps whatever the change.
        desc: show a progress bar with this label (:mod:`dicemath.core.progress`).

    Returns:
        ``(sweeps, change)``: sweeps made and the largest change of the last one (the
        caller decides whether stopping at ``max_sweeps`` is an error).
    """
    blocks = list(blocks)
    sweeps, change = 0, float("inf")
    counter = range(1, max_sweeps + 1)
    for sweeps in (progress(counter, desc=desc, total=max_sweeps) if desc else counter):  # noqa: B007 (returned)
        change = 0.0
        for block in blocks:
            change = max(change, update(block))
        if change < tolerance:
            break
    return sweeps, change


Indices = NDArray[np.integer[Any]]
Bounds = NDArray[np.float64]
BoundsOperator = Callable[[Indices, Bounds, Bounds], tuple[Bounds, Bounds]]


def bounded_value_iteration(blocks: Sequence[Indices], operator: BoundsOperator,
                            low: Bounds, high: Bounds, *, tolerance: float,
                            max_sweeps: int, desc: str | None = None) -> int:
    """Value iteration from a lower and an upper bound at once: rigorous error bars.

    If the Bellman operator ``T`` is monotone (larger next values never give a smaller
    value) and the true values ``V = T V`` satisfy ``low <= V <= high`` at the start,
    then every iterate keeps ``T^k low <= V <= T^k high`` by induction. So whenever the
    iteration stops, each true value lies between the two arrays: the width ``high - low``
    bounds the error of the unfinished iteration and of anything the bounds stood in for
    (for example states beyond a truncation, valued only as "between 0 and 1").

    Args:
        blocks: arrays of state indices (the last axis of ``low`` and ``high``), in sweep
            order (Gauss-Seidel: a block sees the newest bounds of the blocks before it).
        operator: ``operator(block, low, high) -> (new_low, new_high)`` for the states of
            ``block``; it must be monotone, the lower bound built from lower bounds of
            the values it increases with (and from upper bounds of those it decreases
            with, as in a zero-sum game seen from the other player), and vice versa.
        low, high: start bounds, float64 arrays ``[..., states]``; updated in place.
        tolerance: stop when a sweep changes no bound by this much.
        max_sweeps: stop after this many sweeps (the bounds stay valid, only wider).
        desc: progress bar label.

    Returns:
        The number of sweeps made.

    Example:
        ``V = 1/2 + V/2`` (fixed point 1), started from the bounds 0 and 2:

        >>> low, high = np.zeros(1), np.full(1, 2.0)
        >>> def halfway(block, low, high):
        ...     return 0.5 + 0.5 * low[..., block], 0.5 + 0.5 * high[..., block]
        >>> sweeps = bounded_value_iteration([np.arange(1)], halfway, low, high,
        ...                                  tolerance=1e-12, max_sweeps=100)
        >>> bool(low[0] <= 1 <= high[0]), bool(high[0] - low[0] < 1e-11)
        (True, True)
    """
    def update(block: Indices) -> float:
        new_low, new_high = operator(block, low, high)
        change = max(float(np.max(np.abs(new_low - low[..., block]), initial=0.0)),
                     float(np.max(np.abs(new_high - high[..., block]), initial=0.0)))
        low[..., block] = new_low
        high[..., block] = new_high
        return change

    sweeps, _ = sweep_to_convergence(blocks, update, tolerance=tolerance, max_sweeps=max_sweeps,
                                     desc=desc)
    return sweeps


def layered_value_iteration(layers: Iterable[Block], update: Callable[[Block], float], *,
                            tolerance: float, max_sweeps: int, desc: str | None = None) -> list[int]:
    """Value iteration one layer at a time: :func:`sweep_to_convergence` on each layer until
    it converges, in order.

    For MDPs whose states fall into layers where a state's value depends only on states
    of its own layer and of layers listed before it (no progress back to a later layer):
    a layer is swept only once every layer it depends on has converged, so the sweeps go
    where the unknowns couple and nowhere else. ``update(layer)`` recomputes the values of
    one layer in place (Gauss-Seidel inside it, as the caller orders it) and returns the
    largest absolute change it made.

    Args:
        layers: the layers, each after every layer its values depend on.
        update: ``update(layer) -> largest absolute change``.
        tolerance: a layer is done after a sweep whose largest change is below this.
        max_sweeps: the most sweeps of any one layer.
        desc: show a progress bar over the layers with this label.

    Returns:
        The number of sweeps each layer took, in order.

    Raises:
        RuntimeError: a layer still changed by ``tolerance`` or more after ``max_sweeps``.

    Example:
        Layer 1 is ``V = 1/2 + V/2`` (fixed point 1), layer 0 is ``V = V(layer 1) / 2``:

        >>> values = {0: 0.0, 1: 0.0}
        >>> def update(layer):
        ...     new = 0.5 + 0.5 * values[1] if layer == 1 else 0.5 * values[1]
        ...     change, values[layer] = abs(new - values[layer]), new
        ...     return change
        >>> sweeps = layered_value_iteration([1, 0], update, tolerance=1e-12, max_sweeps=100)
        >>> len(sweeps), sweeps[1], round(values[0], 9)   # layer 0: one sweep, one to see no change
        (2, 2, 0.5)
    """
    layers = list(layers)
    counts = []
    for layer in (progress(layers, desc=desc, total=len(layers)) if desc else layers):
        sweeps, change = sweep_to_convergence([layer], update, tolerance=tolerance, max_sweeps=max_sweeps)
        if change >= tolerance:
            raise RuntimeError(f"value iteration did not converge in {max_sweeps} sweeps of layer {layer!r} "
                               f"(last change {change:.3g})")
        counts.append(sweeps)
    return counts
