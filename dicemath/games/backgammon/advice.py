"""Advice at any decision of a money game, and the value of any state: the chain of sources (BG-3..BG-8).

:func:`sources` is Backgammon's chain (:class:`~dicemath.core.sources.SourceChain`), the one
that :meth:`BackgammonGame.advise <dicemath.core.game.Game.advise>` asks for ``dicemath
backgammon advise``, ``hint`` and ``cube``, the page, ``dicemath analyse`` and the report.
Given a :class:`~dicemath.games.backgammon.state.State` where a player decides, the first
source that covers it ranks his legal actions, best first:

* ``bear-off table`` (exact, float64): a play in a bear-off (BG-6) with at most
  :data:`~.limits.EXACT_CHECKERS` checkers a side: every play by
  :func:`~dicemath.games.backgammon.hint.hint`, the cubeless money equity (BG-7) after it
  from the exact two-sided table;
* ``cubeful bear-off table`` (exact, float64): a cube decision (``may-double``: ``"double"``
  and ``"roll"``; ``doubled``: ``"take"`` and ``"pass"``, seen by the taker) in a bear-off
  with at most :data:`~.limits.EXACT_CUBE_CHECKERS` checkers a side, standard rules, by
  :func:`~dicemath.games.backgammon.cube_advice.cube_advice` (cubeful equity per unit of
  the current cube; doubling is worth the opponent's better answer for him);
* ``race model`` (estimate): a play in a bear-off beyond the table: the one-sided race
  model of :mod:`~dicemath.games.backgammon.evaluate` (exact where a play reaches the table);
* ``gnubg`` (estimate): any other play: GNU Backgammon's nets at ``ply`` (the optional
  ``gnubg`` package; :class:`~.gnubg_engine.GnubgUnavailableError` without it);
* ``cube estimate`` (estimate): any other cube decision: Janowski's model at 0 ply, a
  cubeful look-ahead above (gnubg's nets where there is contact).

The advice's ``exact`` and ``source`` are its source's; each option's extras keep the
evaluator's own source of its value (``exact``, ``race``, ``gnubg-Nply``); a cube
decision's advice keeps the whole cube verdict of
:func:`~dicemath.games.backgammon.cube_advice.cube_advice` as its ``detail``.

The same sources value every state, for both players (X's equity first), in the unit of
their advice (:attr:`~dicemath.core.sources.Source.value`): a decision is worth its best
option, a roll to come the cubeless money equity of the player on roll from the evaluator
(:func:`~dicemath.games.backgammon.evaluate.evaluate`, the three play sources each with
its own kind of evaluation: the exact table, the race model, gnubg's nets at ``ply``), the
opening throw the mean over the 30 throws, the end the points won (BG-7). The rolls and the
end belong to the play sources (a finished game to the ``bear-off table``): the
expectation before a roll (:meth:`~dicemath.core.sources.SourceChain.expected`) is the
mean over the 21 rolls of the best play's value, GNU Backgammon's measure of luck.

Example:
    >>> from dicemath.games.backgammon.rules import STANDARD
    >>> from dicemath.games.backgammon.state import State
    >>> state = State.from_str("AgAAGAAAAAAAAA X may-double cube 1")   # (0,2,0..) on roll vs (0,1,0..)
    >>> advice = sources(STANDARD).advise(state)
    >>> [(a.text, round(a.value, 6)) for a in advice.options], advice.exact, advice.source
    ([('double', 0.888889), ('roll', 0.444444)], True, 'cubeful bear-off table')
    >>> [(a.text, round(a.value, 6)) for a in sources(STANDARD).advise(state.apply("double")).options]
    [('take', -0.888889), ('pass', -1.0)]
    >>> roll = state.apply("roll")                                  # X to roll: 26 of the 36 rolls win
    >>> [round(v, 6) for v in sources(STANDARD).value(roll).values], sources(STANDARD).value(roll).exact
    ([0.444444, -0.444444], True)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

import numpy as np

from dicemath.core.advice import Advice, Option
from dicemath.core.errors import InvalidStateError
from dicemath.core.game import TERMINAL
from dicemath.core.sources import Source, SourceChain, Valued, combine
from dicemath.games.backgammon.cube import ACTIONS, DOUBLE_PASS, DOUBLE_TAKE, takes
from dicemath.games.backgammon.cube_advice import cube_advice
from dicemath.games.backgammon.evaluate import OUTPUTS, evaluate, flip
from dicemath.games.backgammon.hint import MoveValue, hint
from dicemath.games.backgammon.limits import (EXACT_CHECKERS, EXACT_CUBE_CHECKERS, exact_bear_off,
                                              exact_cube_bear_off, in_home_boards)
from dicemath.games.backgammon.position import Position
from dicemath.games.backgammon.rules import Rules
from dicemath.games.backgammon.state import DOUBLE, DOUBLED, MAY_DOUBLE, OPENING, PASS, ROLL, ROLL_ON, TAKE, State


PLAY_UNIT = "cubeless money equity after the play"
"""What the values of a play's advice measure (the mover's view; higher is better)."""

CUBE_UNIT = "cubeful money equity per cube unit"
"""What the values of a cube action's advice measure (the decider's view; higher is better)."""

CUBE_PHASES = (MAY_DOUBLE, DOUBLED)
"""The phases of a cube decision (the others where someone decides: ``play``)."""

POSITION_VALUES = 1 << 16
"""How many positions' evaluations (a roll to come) are kept, per rules, ply and kind."""


def _is_cube(state: State) -> bool:
    return getattr(state, "phase", None) in CUBE_PHASES


def _is_over(state: State) -> bool:
    return state.current_player() == TERMINAL


def _boards(state: State) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return state.position.on_roll, state.position.opponent


def _seats(player: int, equity: float) -> tuple[float, float]:
    """The equity of ``player`` as ``(X's, O's)``."""
    return (equity, -equity) if player == 0 else (-equity, equity)


@lru_cache(maxsize=POSITION_VALUES)
def _position_value(position: Position, rules: Rules, ply: int, kind: str) -> Valued:
    """The cubeless value of ``position``, its player on roll to roll, by the evaluator's ``kind``."""
    evaluation = evaluate(rules, position, ply, kind)
    return Valued(_seats(position.player, float(evaluation.equity)), evaluation.source == "exact")


def _values(advise: Callable[..., Advice], kind: str | None) -> Callable[..., Valued]:
    """The ``value`` of a source whose advice is ``advise`` and whose rolls to come the
    evaluator values by ``kind`` (``"exact"``, ``"race"``, ``"gnubg"``; None: a cube source,
    which covers decisions only)."""
    def value(state: State, *, ply: int = 0, **settings: Any) -> Valued:
        player = state.current_player()
        if player == TERMINAL:
            return Valued(tuple(state.returns()), True)
        if state.phase == OPENING:
            return combine([(float(p), value(state.apply(throw), ply=ply)) for throw, p in state.chance_outcomes()])
        if state.phase == ROLL and kind is not None:
            return _position_value(state.position, state.rules, ply, kind)
        best = max(advise(state, ply=ply).options, key=lambda option: float(option.value))
        return Valued(_seats(player, float(best.value)), best.extras["source"] == "exact")
    return value


def _plays(name: str, exact: bool, kind: str) -> tuple[Callable[..., Advice], Callable[..., Valued]]:
    """The ``advise`` and ``value`` of a play source, its rolls valued by the evaluator's ``kind``."""
    def advise_play(state: State, *, ply: int = 0, **settings: Any) -> Advice:
        if state.dice is None:
            raise InvalidStateError(f"a play without dice: {state}")
        return play_advice(state, hint(state.rules, state.position, state.dice, ply), exact=exact, source=name)
    return advise_play, _values(advise_play, kind)


def _cube(name: str, exact: bool) -> tuple[Callable[..., Advice], Callable[..., Valued]]:
    """The ``advise`` and ``value`` of a cube source."""
    def advise_cube(state: State, *, ply: int = 0, **settings: Any) -> Advice:
        if state.cube_value is None:
            raise InvalidStateError(f"a cube decision in a cubeless game: {state}")
        cube = cube_advice(state.rules, state.position, state.cube_value, state.relative_owner, ply)
        return cube_options(state, cube, exact=exact, source=name)
    return advise_cube, _values(advise_cube, None)


def _source(name: str, exact: bool, limit: str, covers: Callable[[State], bool],
            functions: tuple[Callable[..., Advice], Callable[..., Valued]]) -> Source:
    advise, value = functions
    return Source(name, exact, limit, lambda state, **settings: covers(state), advise, value=value)


@lru_cache(maxsize=8)
def sources(rules: Rules) -> SourceChain:
    """Backgammon's chain of sources under ``rules`` (the module docstring), best first;
    each limit is a constant of :mod:`~dicemath.games.backgammon.limits`. Every state has
    its source: the cube decisions the two cube sources, every other state (a play, a roll
    to come, the opening, the end) the play sources.

    >>> from dicemath.games.backgammon.rules import STANDARD
    >>> print(sources(STANDARD).describe())  # doctest: +NORMALIZE_WHITESPACE
    bear-off table (exact, float64): a play or roll in a bear-off, at most 8 checkers a side, or the end of a game
    cubeful bear-off table (exact, float64): a cube decision in a bear-off, at most 6 checkers a side, standard rules
    race model (estimate): any other play or roll in a bear-off
    gnubg (estimate): any other play or roll (GNU Backgammon's nets, the optional gnubg package)
    cube estimate (estimate): any other cube decision (Janowski's model, or a cubeful look-ahead above 0 ply)
    """
    return SourceChain(
        _source("bear-off table", True,
                f"a play or roll in a bear-off, at most {EXACT_CHECKERS} checkers a side, or the end of a game",
                lambda state: not _is_cube(state) and (_is_over(state) or exact_bear_off(*_boards(state))),
                _plays("bear-off table", True, "exact")),
        _source("cubeful bear-off table", True,
                f"a cube decision in a bear-off, at most {EXACT_CUBE_CHECKERS} checkers a side, standard rules",
                lambda state: _is_cube(state) and exact_cube_bear_off(state.rules, *_boards(state)),
                _cube("cubeful bear-off table", True)),
        _source("race model", False, "any other play or roll in a bear-off",
                lambda state: not _is_cube(state) and in_home_boards(*_boards(state)),
                _plays("race model", False, "race")),
        _source("gnubg", False, "any other play or roll (GNU Backgammon's nets, the optional gnubg package)",
                lambda state: not _is_cube(state), _plays("gnubg", False, "gnubg")),
        _source("cube estimate", False,
                "any other cube decision (Janowski's model, or a cubeful look-ahead above 0 ply)",
                _is_cube, _cube("cube estimate", False)))


def play_advice(state: State, moves: Sequence[MoveValue], *, exact: bool | None = None,
                source: str | None = None) -> Advice:
    """The :class:`~dicemath.core.advice.Advice` of the plays of ``state`` ranked by
    :func:`~dicemath.games.backgammon.hint.hint` (``moves``, best first).

    Above 0 ply the plays GNU Backgammon's filter dropped keep the equity of a lower ply and
    come after those evaluated at ``ply``, so one of them may show more than the last play
    evaluated at ``ply``: an option's value is then at most the value of the option before it
    (the play's own equity and ply stay in its extras). ``exact`` and ``source`` are the
    answering source's (default: from the options' own sources, exact when all are ``"exact"``)."""
    actions = {state.action_text(action): action for action in state.legal_actions()}
    values, bound = [], math.inf
    for m in moves:
        bound = min(bound, m.equity)
        values.append(bound)
    return _advice(state, PLAY_UNIT, [(actions[m.move], m) for m in moves], exact, source, values=values)


def cube_options(state: State, cube: dict, *, exact: bool | None = None, source: str | None = None) -> Advice:
    """The cube actions of ``state`` valued by ``cube``, the
    :func:`~dicemath.games.backgammon.cube_advice.cube_advice` of its position and cube,
    best first: ``"double"`` (worth the opponent's better answer) and ``"roll"`` in the
    ``may-double`` phase, ``"take"`` and ``"pass"`` seen by the taker in the ``doubled`` phase.
    ``exact`` and ``source`` as in :func:`play_advice` (default: exact when the cube came
    from the exact cubeful tables); ``cube`` is the advice's ``detail``."""
    probabilities = np.array([cube["probabilities"][name] for name in OUTPUTS])
    double_take, double_pass = cube["double_take"], cube["double_pass"]
    answered = double_take if takes(double_take, double_pass) else double_pass
    if state.phase == MAY_DOUBLE:
        doubles = cube["action"] in (ACTIONS[DOUBLE_TAKE], ACTIONS[DOUBLE_PASS])
        values = {DOUBLE: answered, ROLL_ON: cube["no_double"]}
        order = (DOUBLE, ROLL_ON) if doubles else (ROLL_ON, DOUBLE)
    else:
        values = {TAKE: -double_take, PASS: -double_pass}
        order = (TAKE, PASS) if takes(double_take, double_pass) else (PASS, TAKE)
        probabilities = flip(probabilities)
    return _advice(state, CUBE_UNIT,
                   [(action, MoveValue(action, float(values[action]), tuple(float(p) for p in probabilities),
                                       cube["ply"], cube["source"], cube["position_id"])) for action in order],
                   cube["method"] == "exact cubeful bear-off" if exact is None else exact, source, cube)


def _advice(state: State, unit: str, ranked: Sequence[tuple[object, MoveValue]], exact: bool | None,
            source: str | None, detail: dict | None = None, values: Sequence[float] | None = None) -> Advice:
    kinds = sorted({m.source for _, m in ranked})
    shown = [m.equity for _, m in ranked] if values is None else values
    return Advice(game="backgammon", state=str(state), unit=unit, higher_is_better=True,
                  exact=bool(ranked) and kinds == ["exact"] if exact is None else exact,
                  source=source or ", ".join(kinds) or "none",
                  options=tuple(Option(action, m.move, value, m.as_dict())
                                for (action, m), value in zip(ranked, shown)), detail=detail)
