"""The analysis, written once for every game: replay a record, cost each decision, weigh the luck.

A game plugs in through a :class:`GameAnalysis` (one small subclass per game, in
``dicemath/games/<game>/analysis.py``): how a record's rules and entries become states and
actions of the game's engine (the :mod:`dicemath.core.game` vocabulary), and the
:class:`~dicemath.analysis.values.ValueSource` that values them. Everything else is here:

* a **decision** at a state where a player acts: the value of every legal action for
  that player, the best one, and the loss ``value(best) - value(choice)`` (in the
  player's favour, so >= 0, and 0 when the choice is optimal);
* a **chance event** (whole games): the luck of the outcome, ``value(after outcome) -
  expected value over all outcomes`` for every player (GNU Backgammon's definition);
* a **whole game**: the record replayed through the engine from the start, every token
  read with the game's own parser, so an impossible record fails at its first bad entry
  with an error naming it (and the error class of the underlying problem: an
  :class:`~dicemath.core.errors.IllegalMoveError`, an
  :class:`~dicemath.core.errors.InvalidDiceError`, ...).

Example:
    >>> from dicemath.analysis import analyse
    >>> result = analyse({"game": "bohnduell", "rules": {"stock": 6}, "moves": ["S2", "S1", "S4"]})
    >>> [(d.choice, d.best, d.loss) for d in result.decisions]
    [('S2', 'S1', 1.0), ('S1', 'S1', 0.0), ('S4', 'S1', 1.0)]
"""

from __future__ import annotations

import json
from collections.abc import Collection, Hashable, Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, ClassVar, Generic, Protocol, cast

from dicemath.analysis.records import InvalidRecordError, Record, build_rules, read_record
from dicemath.analysis.result import Analysis, ChanceLuck, DecisionCost
from dicemath.analysis.values import S, Valued, ValueSource
from dicemath.core.advice import Advice
from dicemath.core.errors import DicemathError, IllegalMoveError
from dicemath.core.game import CHANCE, TERMINAL, GameState

TIE = 1e-12
"""A choice whose value is within this (relative) of the best counts as optimal: values
computed along different paths may differ in the last bits of a float64."""


class _TextActions(Protocol):
    """A state that reads and writes its actions as text (the default :meth:`GameAnalysis.parse` and
    :meth:`GameAnalysis.text` use them)."""

    def parse_action(self, text: str) -> Hashable: ...

    def action_text(self, action: Hashable) -> str: ...


class GameAnalysis(Generic[S]):
    """How one game's records map to its engine and values (subclass per game).

    Class attributes:
        game: the record's ``game`` name.
        rules_class: the game's frozen ``Rules`` dataclass (the record's ``rules`` are its fields).
        unit: the unit of values and losses.
        sense: +1 when a higher value is better for the player, -1 when lower is (turns).
        threshold: the default error threshold, in ``unit``.
        seats: the seats' names.
        required, optional: the keys of a decision entry (the ``advise`` inputs) besides
            ``choice`` and ``note``.
        settings: the value-source options a record's ``settings`` (or a decision entry)
            may give, with their defaults.
        groupings: ways to group decisions in the report: name -> labels in display order
            (:meth:`groups` gives a decision's label in each).
    """

    game = ""
    rules_class: type = object
    unit = ""
    sense = 1
    threshold = 0.0
    seats: tuple[str, ...] = ("seat 0", "seat 1")
    required: tuple[str, ...] = ()
    optional: tuple[str, ...] = ()
    settings: dict = {}
    groupings: ClassVar[dict[str, tuple[str, ...]]] = {}

    # -- hooks a game gives --------------------------------------------------------------
    def rules(self, fields: Mapping):
        """The rules object of a record's ``rules`` fields (default: ``rules_class(**fields)``)."""
        return build_rules(self.rules_class, fields)

    def initial_state(self, rules, start: str | None = None) -> S:
        """The state a whole game starts from: the game's start, or the state whose text is
        ``start`` (a record's ``start``)."""
        raise NotImplementedError

    def decision_state(self, entry: Mapping, rules) -> S:
        """The state of a decision entry (its ``advise`` inputs; ``choice`` is read later)."""
        raise NotImplementedError

    def value_source(self, rules, settings: Mapping) -> ValueSource[S]:
        """The value source for these rules and settings."""
        raise NotImplementedError

    def value_label(self, rules, seats: tuple[str, ...]) -> str:
        """What the plotted value is (the first seat's view for two-player games)."""
        return f"value for {seats[0]} ({self.unit})"

    def parse(self, state: S, token: object) -> Hashable:
        """A record token as an action or chance outcome of ``state`` (default: the state's
        ``parse_action`` of the token's text)."""
        if not isinstance(token, str):
            raise InvalidRecordError(f"a move is written as text, got {token!r}")
        return cast(_TextActions, state).parse_action(token)

    def text(self, state: S, action: Hashable) -> str:
        """The text of an action or outcome of ``state`` (default: ``state.action_text``)."""
        return cast(_TextActions, state).action_text(action)

    def advice(self, state: S, settings: Mapping) -> Advice | None:
        """The game's advice at a decision ``state`` (the chain of sources every door asks,
        :meth:`dicemath.core.game.Game.advise`), which values each decision; None: the value
        source values it (default)."""
        return None

    def decision_values(self, state: S, source: ValueSource[S],
                        settings: Mapping) -> tuple[dict[Hashable, float], bool, str]:
        """The mover's value after each legal action of a decision ``state``, whether they are
        exact, and their source: the game's :meth:`advice` (so that ``analyse`` values a
        decision exactly as ``advise`` does) or, without one, the value source's
        :meth:`~dicemath.analysis.values.ValueSource.action_values`."""
        advice = self.advice(state, settings)
        if advice is not None:
            return {o.action: float(o.value) for o in advice.options}, advice.exact, advice.source
        mover = state.current_player()
        values = source.action_values(state)
        return ({a: v.values[mover] for a, v in values.items()}, all(v.exact for v in values.values()),
                source.description)

    def context(self, state: S) -> dict[str, Any]:
        """Facts about a decision state to group losses by (default none)."""
        return {}

    def roller(self, state: S) -> int | None:
        """The seat a chance event belongs to (default: nobody's)."""
        return None

    def groups(self, context: Mapping) -> dict[str, str]:
        """The label of a decision in each of :attr:`groupings`, from its ``context``."""
        return {}

    # -- provided ------------------------------------------------------------------------
    def analyse(self, record: Record | Mapping | str | Path) -> Analysis:
        """Analyse a record of this game (a :class:`Record`, its JSON object or a file's path).

        Raises:
            InvalidRecordError: a record of the wrong form or of another game.
            DicemathError: the first bad entry, named.
        """
        checked = record if isinstance(record, Record) else read_record(record)
        if checked.game != self.game:
            raise InvalidRecordError(f"this is a record of {checked.game!r}, not of {self.game!r}")
        return analyse_record(checked, self)

    def source_for(self, rules, settings: Mapping) -> ValueSource[S]:
        """:meth:`value_source` with the defaults of :attr:`settings` filled in, cached."""
        unknown = sorted(set(settings) - set(self.settings))
        if unknown:
            raise InvalidRecordError(f"unknown setting(s) {unknown}; {self.game} has {sorted(self.settings)}")
        merged = {**self.settings, **settings}
        return _cached_source(self, rules, tuple(sorted(merged.items())))


@lru_cache(maxsize=32)
def _cached_source(adapter: GameAnalysis, rules, settings: tuple) -> ValueSource:
    return adapter.value_source(rules, dict(settings))


@contextmanager
def at_entry(where: str):
    """Prefix any input error raised inside with ``where`` (the record entry), keeping its class."""
    try:
        yield
    except DicemathError as error:
        try:
            renamed = type(error)(f"{where}: {error}")
        except TypeError:
            renamed = InvalidRecordError(f"{where}: {error}")
        raise renamed from None
    except (TypeError, KeyError) as error:
        raise InvalidRecordError(f"{where}: {error}") from None


def decision_cost(adapter: GameAnalysis, state: GameState, action: Hashable, index: int,
                  values: Mapping[Hashable, float], exact: bool, source: str) -> DecisionCost:
    """The cost of choosing ``action`` at the decision ``state``, given the mover's value after
    each legal action, whether they are exact and where they come from
    (:meth:`GameAnalysis.decision_values`).

    Raises:
        IllegalMoveError: ``action`` is not legal at ``state``.
    """
    if action not in values:
        legal = ", ".join(adapter.text(state, a) for a in values)
        raise IllegalMoveError(f"{adapter.text(state, action)} is not legal here; legal: {legal}")
    mover = state.current_player()
    score = {a: adapter.sense * v for a, v in values.items()}
    top = max(score.values())
    loss = top - score[action]
    if loss <= TIE * max(1.0, abs(top)):
        loss, best = 0.0, action
    else:
        best = next(a for a, s in score.items() if s == top)
    return DecisionCost(index, mover, adapter.text(state, action), adapter.text(state, best), float(loss), exact,
                        {adapter.text(state, a): float(v) for a, v in values.items()}, adapter.context(state),
                        source)


def chance_luck(adapter: GameAnalysis, source: ValueSource, state: GameState, outcome: Hashable,
                after: Valued, index: int) -> ChanceLuck:
    """The luck of ``outcome`` at the chance ``state``, ``after`` being the value it leads to."""
    expected = source.expected(state)
    luck = tuple(adapter.sense * (a - e) for a, e in zip(after.values, expected.values))
    return ChanceLuck(index, adapter.roller(state), adapter.text(state, outcome), luck,
                      after.exact and expected.exact)


def _entry_situation(adapter: GameAnalysis, rules, record: Record,
                     entry: Mapping) -> tuple[GameState, ValueSource, dict]:
    """The state of a decision entry (its ``advise`` inputs), the value source for the
    record's settings with the entry's own on top, and those settings."""
    settings = {**adapter.settings, **record.settings,
                **{k: v for k, v in entry.items() if k in adapter.settings}}
    inputs = {k: v for k, v in entry.items() if k not in adapter.settings}
    source = adapter.source_for(rules, settings)
    return adapter.decision_state(inputs, rules), source, settings


def analyse_record(record: Record, adapter: GameAnalysis) -> Analysis:
    """Analyse a checked record with a game's adapter (see the module docstring).

    Raises:
        DicemathError: the first bad entry, named (see :func:`at_entry`).
    """
    with at_entry("rules"):
        rules = adapter.rules(record.rules)
        source = adapter.source_for(rules, record.settings)
    seats = tuple(record.players) if record.players else adapter.seats
    if len(seats) != len(adapter.seats):
        raise InvalidRecordError(f'"players" names {len(seats)} players; {adapter.game} has {len(adapter.seats)}')
    common: dict[str, Any] = dict(game=adapter.game, unit=adapter.unit, value_label=adapter.value_label(rules, seats),
                                  seats=seats, threshold=adapter.threshold)
    if record.decisions is not None:
        decisions = []
        for index, entry in enumerate(record.decisions):
            with at_entry(f"decisions entry {index}"):
                state, entry_source, settings = _entry_situation(adapter, rules, record, entry)
                if state.current_player() < 0:
                    raise InvalidRecordError("nobody decides in this situation")
                decisions.append(decision_cost(adapter, state, adapter.parse(state, entry["choice"]), index,
                                               *adapter.decision_values(state, entry_source, settings)))
        return Analysis(kind="decisions", source=source.description, decisions=tuple(decisions), **common)
    _, start = start_state(record, adapter)
    return _whole_game(adapter, source, {**adapter.settings, **record.settings}, start, record.moves, common)


def replay(adapter: GameAnalysis, state: GameState, moves) -> Iterator[tuple[int, GameState, Hashable, GameState]]:
    """Play a whole game's tokens through the engine from ``state``, checking each one.

    Yields:
        ``(index, state, action, state after)`` for every entry of ``moves``.

    Raises:
        DicemathError: the first bad entry (an unreadable token, an illegal action, an
            impossible throw, a move after the end), its message naming the entry.
    """
    for index, token in enumerate(moves):
        with at_entry(f"moves entry {index} ({json.dumps(token)})"):
            if state.current_player() == TERMINAL:
                raise InvalidRecordError("the game is already over")
            action = adapter.parse(state, token)
            after = state.apply(action)
        yield index, state, action, after
        state = after


def decision_states(record: Record, adapter: GameAnalysis,
                    indices: Collection[int]) -> dict[int, tuple[GameState, ValueSource]]:
    """The state of each decision at ``indices`` (entries of the record's ``decisions`` or
    ``moves``) and the value source that valued it, to draw it (:mod:`.pictures`).

    Raises:
        DicemathError: a bad entry on the way, named (see :func:`at_entry`).
    """
    if not indices:
        return {}
    if record.decisions is None:
        rules, state = start_state(record, adapter)
        with at_entry("rules"):
            source = adapter.source_for(rules, record.settings)
        if record.moves is None:
            raise InvalidRecordError("the record has neither decisions nor moves")
        played = replay(adapter, state, record.moves[:max(indices) + 1])
        return {index: (before, source) for index, before, _, _ in played if index in indices}
    with at_entry("rules"):
        rules = adapter.rules(record.rules)
    situations = {}
    for index in indices:
        with at_entry(f"decisions entry {index}"):
            state, source, _ = _entry_situation(adapter, rules, record, record.decisions[index])
            situations[index] = (state, source)
    return situations


def start_state(record: Record, adapter: GameAnalysis):
    """``(rules, the state the record's game starts from)``, errors named by their key.

    Raises:
        DicemathError: bad ``rules`` or ``start``.
    """
    with at_entry("rules"):
        rules = adapter.rules(record.rules)
    with at_entry("start"):
        return rules, adapter.initial_state(rules, record.start)


def final_state(record: Record, adapter: GameAnalysis) -> GameState:
    """The state a whole game's record ends in.

    Raises:
        InvalidRecordError: a decision list, not a whole game.
        DicemathError: the first bad entry, named.
    """
    if record.moves is None:
        raise InvalidRecordError("a decision list has no game to replay")
    _, state = start_state(record, adapter)
    for _, _, _, after in replay(adapter, state, record.moves):
        state = after
    return state


def _whole_game(adapter: GameAnalysis, source: ValueSource, settings: Mapping, start: GameState, moves,
                common: dict) -> Analysis:
    with at_entry("start"):
        trajectory = [(-1, source.value(start))]
    decisions, chance = [], []
    end = start
    for index, state, action, after in replay(adapter, start, moves):
        with at_entry(f"moves entry {index} ({json.dumps(moves[index])})"):
            if state.current_player() == CHANCE:
                valued = source.value(after)
                chance.append(chance_luck(adapter, source, state, action, valued, index))
            else:
                values = source.action_values(state)
                valued = values[action]
                if len(values) > 1:
                    decisions.append(decision_cost(adapter, state, action, index,
                                                   *adapter.decision_values(state, source, settings)))
        trajectory.append((index, valued))
        end = after
    return Analysis(kind="game", source=source.description, decisions=tuple(decisions), chance=tuple(chance),
                    trajectory=tuple(trajectory), finished=end.current_player() == TERMINAL, **common)
