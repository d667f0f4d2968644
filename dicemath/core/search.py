"""Game-tree search written once against the game vocabulary of :mod:`dicemath.core.game`.

Two algorithms, for every game whose states speak that vocabulary:

- :func:`expectimax`: the value of a state for *every* player when each player picks the
  action that maximises their own value and chance averages its outcomes with their exact
  probabilities (``max^n`` with chance nodes; for two players whose returns sum to a
  constant it is the usual expectimax / minimax). Memoised by state, iterative (no
  recursion limit), exact when the returns and the leaf values are exact.
  :func:`action_values` gives the value of each legal action of one state.
- :func:`alpha_beta`: negamax with alpha-beta pruning and a transposition table for
  deterministic two-player zero-sum games, to a depth with an evaluation at the horizon;
  :func:`negamax` is the same search over any nodes a game chooses (a key smaller than its
  state, rewards on the moves, its own move order, exact values at leaves).

:func:`expectimax` and :func:`alpha_beta` are the *second method* every fast solver of a game is tested against on small
instances: they know nothing of a solver's tables, only ``current_player``,
``legal_actions``, ``chance_outcomes``, ``apply`` and ``returns``.

Example:
    A coin decides who scores; the first to 2 points wins (a toy game).

    >>> from dataclasses import dataclass
    >>> from fractions import Fraction
    >>> from dicemath.core.game import CHANCE, TERMINAL
    >>> @dataclass(frozen=True)
    ... class Race:
    ...     scores: tuple = (0, 0)
    ...     def current_player(self):
    ...         return TERMINAL if max(self.scores) == 2 else CHANCE
    ...     def legal_actions(self):
    ...         return ()
    ...     def chance_outcomes(self):
    ...         return ((0, Fraction(2, 3)), (1, Fraction(1, 3)))
    ...     def apply(self, seat):
    ...         return Race(tuple(s + (i == seat) for i, s in enumerate(self.scores)))
    ...     def returns(self):
    ...         return (Fraction(int(self.scores[0] == 2)), Fraction(int(self.scores[1] == 2)))
    >>> expectimax(Race())
    (Fraction(20, 27), Fraction(7, 27))
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import TypeVar

from dicemath.core.game import CHANCE, TERMINAL, GameState

Value = float | Fraction
"""A value for one player: exact (a Fraction) or a float."""

Values = tuple[Value, ...]
"""One value per player."""

Leaf = Callable[[GameState], Sequence[Value] | None]
"""``leaf(state)``: the values of a state where the search stops, or None to search on."""


def _children(state: GameState) -> tuple[tuple[Hashable, Fraction | None, GameState], ...]:
    """``(action or outcome, probability or None, next state)`` of a non-terminal state."""
    if state.current_player() == CHANCE:
        return tuple((outcome, p, state.apply(outcome)) for outcome, p in state.chance_outcomes())
    actions = state.legal_actions()
    if not actions:
        raise ValueError(f"player {state.current_player()} has no legal action in {state}")
    return tuple((action, None, state.apply(action)) for action in actions)


def _back_up(state: GameState, children: Sequence[tuple[Hashable, Fraction | None, GameState]],
             memo: dict[GameState, Values]) -> Values:
    """The value of ``state`` from the solved values of its children."""
    if state.current_player() == CHANCE:
        size = len(memo[children[0][2]])
        total: list[Value] = [0] * size
        for _, p, child in children:
            if p is None:
                raise ValueError(f"a chance outcome of {state} has no probability")
            for i, v in enumerate(memo[child]):
                total[i] += p * v
        return tuple(total)
    player = state.current_player()
    best: Values | None = None
    for _, _, child in children:
        values = memo[child]
        if best is None or values[player] > best[player]:
            best = values
    if best is None:
        raise ValueError(f"player {player} has no legal action in {state}")
    return best


def expectimax(state: GameState, *, leaf: Leaf | None = None, memo: dict[GameState, Values] | None = None) -> Values:
    """The value of ``state`` for every player under optimal play (``max^n`` with chance).

    A player's node takes the values of the legal action that is best for that player
    (the first in ``legal_actions`` order among equals); a chance node the
    probability-weighted sum of its outcomes' values; a terminal state its ``returns()``.

    Args:
        state: any state of the :mod:`dicemath.core.game` vocabulary.
        leaf: ``leaf(state)`` may return the values of a state to stop the search there
            (for example the end of a round, valued by a solver), or None.
        memo: a dict to reuse between calls (state -> values); states must be hashable.

    Returns:
        A tuple with one value per player: exact Fractions when the returns, the leaf
        values and the chance probabilities are exact.

    Raises:
        ValueError: the game graph below ``state`` has a cycle that ``leaf`` does not cut,
            or a player has no legal action.
    """
    memo = {} if memo is None else memo
    expanded: dict[GameState, tuple[tuple[Hashable, Fraction | None, GameState], ...]] = {}
    stack = [state]
    while stack:
        current = stack[-1]
        if current in memo:
            stack.pop()
            continue
        children = expanded.get(current)
        if children is None:
            stop = leaf(current) if leaf is not None else None
            if stop is not None:
                memo[current] = tuple(stop)
                stack.pop()
                continue
            if current.current_player() == TERMINAL:
                memo[current] = tuple(current.returns())
                stack.pop()
                continue
            children = expanded[current] = _children(current)
            missing = []
            for _, _, child in children:
                if child in memo:
                    continue
                if child in expanded:
                    raise ValueError(f"the game graph has a cycle through {child}; give a leaf "
                                     "function that stops the search before it")
                missing.append(child)
            if missing:
                stack.extend(missing)
                continue
        memo[current] = _back_up(current, children, memo)
        del expanded[current]
        stack.pop()
    return memo[state]


def action_values(state: GameState, *, leaf: Leaf | None = None,
                  memo: dict[GameState, Values] | None = None) -> dict[Hashable, Values]:
    """The values (one per player) after each legal action of a player's state.

    Raises:
        ValueError: ``state`` is not a player's decision (chance or terminal).

    Example:
        See :func:`expectimax`; a decision state gives ``{action: values}``.
    """
    if state.current_player() < 0:
        raise ValueError(f"{state} is not a player's decision")
    memo = {} if memo is None else memo
    return {action: expectimax(state.apply(action), leaf=leaf, memo=memo)
            for action in state.legal_actions()}


EXACT, LOWER, UPPER = 0, 1, 2
"""Kinds of transposition-table entries of :func:`negamax` and :func:`alpha_beta`."""

N = TypeVar("N")
"""A node of :func:`negamax` (any hashable the caller chooses)."""

Children = Callable[[N], Sequence[tuple[float, N | None, int]]]
"""``children(node)``: ``(reward, child, sign)`` per move, in the order to search them (move
ordering): the mover's immediate reward, the node after the move (None: the game ends there)
and ``-1`` when the other player moves at ``child`` (its value is subtracted) or ``+1`` when
the same player moves again (added)."""


def negamax(node: N, depth: int, *, children: Children[N],
            evaluate: Callable[[N], float] | None = None,
            leaf: Callable[[N], float | None] | None = None,
            table: dict[N, tuple[int, float, int]] | None = None,
            alpha: float = float("-inf"), beta: float = float("inf")) -> float:
    """Alpha-beta (fail-soft negamax with a transposition table) over any deterministic
    two-player zero-sum game given as nodes and moves.

    The value of a node, from the view of the player to move, is the best over its moves of
    ``reward + sign * value(child)`` (``reward`` alone when ``child`` is None). A node is any
    hashable the caller chooses (the transposition table's key): a whole state, or a smaller
    key whose value does not depend on what it leaves out (the rewards so far).

    Args:
        node: the node to value.
        depth: plies to search; every move is one ply. At 0 a node that ``leaf`` does not
            answer gets ``evaluate(node)`` (so ``leaf`` should answer the end of the game).
        children: the moves of a node (:data:`Children`); empty: the game is over, value 0.
        evaluate: the horizon's estimate from the view of the player to move (required when
            ``depth`` can run out before the game ends).
        leaf: ``leaf(node)``: a node's known value (an exact table, the end of the game),
            used before anything else, or None to search on.
        table: a transposition table to reuse between calls (node -> (depth, value, kind)).
        alpha, beta: the search window.

    Returns:
        The value: exact when every line below ``node`` ends within ``depth`` plies or at a
        ``leaf`` with an exact value.

    Raises:
        ValueError: the horizon reached without ``evaluate``.

    Example:
        Take 1 or 2 from a heap; whoever takes the last scores 1.

        >>> moves = lambda n: [(1.0, None, -1) if n == k else (0.0, n - k, -1) for k in (1, 2) if k <= n]
        >>> negamax(3, 10, children=moves), negamax(4, 10, children=moves)
        (-1.0, 1.0)
    """
    table = {} if table is None else table
    if leaf is not None:
        known = leaf(node)
        if known is not None:
            return known
    entry = table.get(node)
    if entry is not None and entry[0] >= depth:
        _, value, kind = entry
        if kind == EXACT or (kind == LOWER and value >= beta) or (kind == UPPER and value <= alpha):
            return value
    if depth <= 0:
        if evaluate is None:
            raise ValueError("the search (alpha_beta) reached its depth before the end of the game: give evaluate")
        return evaluate(node)
    moves = children(node)
    if not moves:
        return 0.0
    start_alpha, best = alpha, float("-inf")
    for reward, child, sign in moves:
        if child is None:
            value = reward
        elif sign < 0:
            value = reward - negamax(child, depth - 1, children=children, evaluate=evaluate, leaf=leaf,
                                     table=table, alpha=reward - beta, beta=reward - alpha)
        else:
            value = reward + negamax(child, depth - 1, children=children, evaluate=evaluate, leaf=leaf,
                                     table=table, alpha=alpha - reward, beta=beta - reward)
        if value > best:
            best = value
        if best > alpha:
            alpha = best
        if alpha >= beta:
            break
    kind = UPPER if best <= start_alpha else LOWER if best >= beta else EXACT
    table[node] = (depth, best, kind)
    return best


def _state_moves(state: GameState) -> list[tuple[float, GameState | None, int]]:
    """The moves of a player's state for :func:`negamax`: reward 0, or the mover's return at
    the end of the game."""
    player = state.current_player()
    moves: list[tuple[float, GameState | None, int]] = []
    for action in state.legal_actions():
        child = state.apply(action)
        following = child.current_player()
        if following == TERMINAL:
            moves.append((child.returns()[player], None, -1))
        elif following == CHANCE:
            raise ValueError(f"alpha_beta needs a game without chance; {child} is a chance state")
        else:
            moves.append((0.0, child, 1 if following == player else -1))
    return moves


def alpha_beta(state: GameState, depth: int, *, evaluate: Callable[[GameState], float] | None = None,
               table: dict[GameState, tuple[int, float, int]] | None = None,
               leaf: Callable[[GameState], float | None] | None = None,
               alpha: float = float("-inf"), beta: float = float("inf")) -> float:
    """Negamax with alpha-beta pruning for deterministic two-player zero-sum games
    (:func:`negamax` over the states of the :mod:`dicemath.core.game` vocabulary).

    Values are from the view of the player to move at ``state`` (``returns()[player]`` at
    the end; a pass that hands the move to the other player is an ordinary action).
    Every action is one ply; actions are searched in ``legal_actions`` order.

    Args:
        state: a player's state (no chance nodes below it).
        depth: plies to search; at 0 a non-terminal state gets ``evaluate(state)``.
        evaluate: the horizon's estimate from the view of the player to move (required
            when ``depth`` can run out before the game ends).
        table: a transposition table to reuse (state -> (depth, value, kind)).
        leaf: ``leaf(state)``: a state's known value from the view of the player to move (an
            exact table), or None to search on.
        alpha, beta: the search window.

    Returns:
        The negamax value: exact when the whole game below ``state`` fits in ``depth``.

    Raises:
        ValueError: a chance node below ``state``, or the horizon reached without ``evaluate``.
    """
    if state.current_player() < 0:
        raise ValueError(f"alpha_beta needs a player to move; {state} is a chance or terminal state")
    return negamax(state, depth, children=_state_moves, evaluate=evaluate, leaf=leaf, table=table,
                   alpha=alpha, beta=beta)
