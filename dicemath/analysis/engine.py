"""The analysis, written once for every game: replay a record, cost each decision, weigh the luck.

A game plugs in through a :class:`GameAnalysis` (one small subclass per game, in
``dicemath/games/<game>/analysis.py``, its :meth:`~dicemath.core.game.Game.analysis`): how a
record's rules and entries become states and actions of the game's engine (the
:mod:`dicemath.core.game` vocabulary), and back to text. The values come from the game
itself, the one door every other caller uses too:

* a **decision** at a state where a player acts: the game's advice
  (:meth:`Game.advise(state, **settings) <dicemath.core.game.Game.advise>`) values every
  option for the mover, once; the best one, and the loss ``value(best) - value(choice)``
  (in the player's favour, so >= 0, and 0 when the choice is optimal), with the advice's
  ``exact`` flag and ``source``;
* a **chance event** (whole games): the luck of the outcome for every player,
  ``chain.value(after) - chain.expected(before)`` (GNU Backgammon's definition), from the
  game's chain of sources (:meth:`Game.sources(rules) <dicemath.core.game.Game.sources>`,
  :meth:`~dicemath.core.sources.SourceChain.value`,
  :meth:`~dicemath.core.sources.SourceChain.expected`);
* a **whole game**: the record replayed through the engine from the start, every token
  read with the game's own parser, so an impossible record fails at its first bad entry
  with an error naming it (and the error class of the underlying problem: an
  :class:`~dicemath.core.errors.IllegalMoveError`, an
  :class:`~dicemath.core.errors.InvalidDiceError`, ...); its trajectory is
  ``chain.value`` of every state it passes.

Settings (a search depth, a table to read, ...) are the adapter's :attr:`GameAnalysis.settings`
defaults, the record's ``settings`` over them, a decision entry's own on top; they are passed
as keywords to every call of the game's advice and chain.

Example:
    >>> from dicemath.analysis.records import read_record
    >>> from dicemath.games.registry import GAMES
    >>> pig = next(game for game in GAMES if game.name == "pig")
    >>> record = read_record({"game": "pig", "rules": {"goal": 20}, "moves": ["roll", "6", "hold"]})
    >>> [(d.choice, d.best, round(d.loss, 3)) for d in analyse_record(record, pig).decisions]
    [('hold', 'roll', 0.237)]
"""

from __future__ import annotations

import json
from collections.abc import Collection, Hashable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import Any, ClassVar, Generic, Protocol, TypeVar, cast

from dicemath.analysis.records import InvalidRecordError, Record, build_rules
from dicemath.analysis.result import Analysis, ChanceLuck, DecisionCost
from dicemath.core.advice import Advice
from dicemath.core.errors import DicemathError, IllegalMoveError
from dicemath.core.game import CHANCE, TERMINAL, Game, GameState
from dicemath.core.sources import SourceChain, Valued

S = TypeVar("S", bound=GameState)
"""The state type of one game (a game's analysis takes that game's states)."""

TIE = 1e-12
"""A choice whose value is within this (relative) of the best counts as optimal: values
computed along different paths may differ in the last bits of a float64."""


class _TextActions(Protocol):
    """A state that reads and writes its actions as text (the default :meth:`GameAnalysis.parse` and
    :meth:`GameAnalysis.text` use them)."""

    def parse_action(self, text: str) -> Hashable: ...

    def action_text(self, action: Hashable) -> str: ...


class GameAnalysis(Generic[S]):
    """How one game's records map to its engine (subclass per game): reading and writing records.

    Class attributes:
        game: the record's ``game`` name.
        rules_class: the game's frozen ``Rules`` dataclass (the record's ``rules`` are its fields).
        unit: the unit of values and losses (the unit of the game's advice and chain values).
        sense: +1 when a higher value is better for the player, -1 when lower is (turns).
        threshold: the default error threshold, in ``unit``.
        seats: the seats' names.
        required, optional: the keys of a decision entry (the ``advise`` inputs) besides
            ``choice`` and ``note``.
        settings: the settings of the game's advice and chain that a record's ``settings`` (or
            a decision entry) may give, with their defaults.
        groupings: ways to group decisions in the report: name -> labels in display order
            (:meth:`groups` gives a decision's label in each).

    The engine reads a record with the adapter :meth:`for_record` chooses.
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

    def for_record(self, record: Record) -> GameAnalysis:
        """The adapter that reads ``record`` (default: this one): a game whose records come in
        more than one form, valued in different units or with another number of seats, answers
        the form's (e.g. one player's game, or a table of several players).

        Raises:
            InvalidRecordError: a record of no form the game reads.
        """
        return self

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

    def context(self, state: S) -> dict[str, Any]:
        """Facts about a decision state to group losses by (default none)."""
        return {}

    def roller(self, state: S) -> int | None:
        """The seat a chance event belongs to (default: nobody's)."""
        return None

    def groups(self, context: Mapping) -> dict[str, str]:
        """The label of a decision in each of :attr:`groupings`, from its ``context``."""
        return {}


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


def record_settings(adapter: GameAnalysis, settings: Mapping) -> dict[str, Any]:
    """The adapter's default :attr:`~GameAnalysis.settings` with a record's ``settings`` over them.

    Raises:
        InvalidRecordError: a setting the game does not have, named.
    """
    unknown = sorted(set(settings) - set(adapter.settings))
    if unknown:
        raise InvalidRecordError(f"unknown setting(s) {unknown}; {adapter.game} has {sorted(adapter.settings)}")
    return {**adapter.settings, **settings}


def decision_cost(adapter: GameAnalysis, state: GameState, action: Hashable, index: int,
                  advice: Advice) -> DecisionCost:
    """The cost of choosing ``action`` at the decision ``state``, ``advice`` being the game's
    advice there (the mover's value of every option, its ``exact`` flag and ``source``).

    Raises:
        IllegalMoveError: ``action`` is not one of the advice's options (not legal at ``state``).
    """
    values = {option.action: float(option.value) for option in advice.options}
    if action not in values:
        legal = ", ".join(adapter.text(state, a) for a in values)
        raise IllegalMoveError(f"{adapter.text(state, action)} is not legal here; legal: {legal}")
    score = {a: adapter.sense * v for a, v in values.items()}
    top = max(score.values())
    loss = top - score[action]
    if loss <= TIE * max(1.0, abs(top)):
        loss, best = 0.0, action
    else:
        best = next(a for a, s in score.items() if s == top)
    return DecisionCost(index, state.current_player(), adapter.text(state, action), adapter.text(state, best),
                        float(loss), advice.exact, {adapter.text(state, a): v for a, v in values.items()},
                        adapter.context(state), advice.source)


def chance_luck(adapter: GameAnalysis, state: GameState, outcome: Hashable, after: Valued, expected: Valued,
                index: int) -> ChanceLuck:
    """The luck of ``outcome`` at the chance ``state``: ``after`` (the value it leads to) against
    ``expected`` (the expectation before it), for every player, in each player's favour."""
    luck = tuple(adapter.sense * (a - e) for a, e in zip(after.values, expected.values))
    return ChanceLuck(index, adapter.roller(state), adapter.text(state, outcome), luck,
                      after.exact and expected.exact)


def _entry_situation(adapter: GameAnalysis, rules, settings: Mapping, entry: Mapping) -> tuple[GameState, dict]:
    """The state of a decision entry (its ``advise`` inputs) and the record's ``settings`` with
    the entry's own on top."""
    own = {k: v for k, v in entry.items() if k in adapter.settings}
    inputs = {k: v for k, v in entry.items() if k not in adapter.settings}
    return adapter.decision_state(inputs, rules), {**settings, **own}


def _source_line(advice_sources: Iterable[str], chain: SourceChain | None) -> str:
    """Where an analysis's values come from, in one line: the ``source`` of every advice that
    valued a decision and, for a whole game, the sources of the chain that give state values."""
    parts = []
    named = ", ".join(dict.fromkeys(advice_sources))
    if named:
        parts.append(f"advice from {named}")
    if chain is not None:
        valuers = ", ".join(f"{s.name} ({s.label()})" for s in chain.sources if s.value is not None)
        parts.append(f"state values from {valuers}")
    return "; ".join(parts) or "no decision valued"


def _checked(record: Record, game: Game) -> tuple[GameAnalysis, Any, dict[str, Any]]:
    """The game's adapter, the record's rules and its settings (defaults filled in).

    Raises:
        InvalidRecordError: a record of another game, or an unknown setting.
        DicemathError: bad ``rules``, named.
    """
    if record.game != game.name:
        raise InvalidRecordError(f"this is a record of {record.game!r}, not of {game.name!r}")
    adapter = game.analysis().for_record(record)
    with at_entry("rules"):
        rules = adapter.rules(record.rules)
    with at_entry("settings"):
        settings = record_settings(adapter, record.settings)
    return adapter, rules, settings


def analyse_record(record: Record, game: Game) -> Analysis:
    """Analyse a checked record of ``game`` (see the module docstring).

    Args:
        record: the record (:func:`~dicemath.analysis.records.read_record`).
        game: the game it names (its :class:`~dicemath.core.game.Game`).

    Raises:
        InvalidRecordError: a record of another game, an unknown setting, or seats that do not fit.
        DicemathError: the first bad entry, named (see :func:`at_entry`).
    """
    adapter, rules, settings = _checked(record, game)
    seats = tuple(record.players) if record.players else adapter.seats
    if len(seats) != len(adapter.seats):
        raise InvalidRecordError(f'"players" names {len(seats)} players; {adapter.game} has {len(adapter.seats)}')
    common: dict[str, Any] = dict(game=adapter.game, unit=adapter.unit, value_label=adapter.value_label(rules, seats),
                                  seats=seats, threshold=adapter.threshold)
    if record.decisions is None:
        with at_entry("start"):
            start = adapter.initial_state(rules, record.start)
        return _whole_game(game, adapter, game.sources(rules), settings, start, record.moves or (), common)
    decisions = []
    for index, entry in enumerate(record.decisions):
        with at_entry(f"decisions entry {index}"):
            state, own = _entry_situation(adapter, rules, settings, entry)
            advice = game.advise(state, **own)
            decisions.append(decision_cost(adapter, state, adapter.parse(state, entry["choice"]), index, advice))
    return Analysis(kind="decisions", source=_source_line((d.source for d in decisions), None),
                    decisions=tuple(decisions), **common)


def _whole_game(game: Game, adapter: GameAnalysis, chain: SourceChain, settings: Mapping, start: GameState,
                moves, common: dict) -> Analysis:
    with at_entry("start"):
        trajectory = [(-1, chain.value(start, **settings))]
    decisions, chance = [], []
    end = start
    for index, state, action, after in replay(adapter, start, moves):
        with at_entry(f"moves entry {index} ({json.dumps(moves[index])})"):
            valued = chain.value(after, **settings)
            if state.current_player() == CHANCE:
                chance.append(chance_luck(adapter, state, action, valued, chain.expected(state, **settings), index))
            elif len(state.legal_actions()) > 1:
                decisions.append(decision_cost(adapter, state, action, index, game.advise(state, **settings)))
        trajectory.append((index, valued))
        end = after
    return Analysis(kind="game", source=_source_line((d.source for d in decisions), chain), decisions=tuple(decisions),
                    chance=tuple(chance), trajectory=tuple(trajectory), finished=end.current_player() == TERMINAL,
                    **common)


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


def decision_states(record: Record, game: Game, indices: Collection[int]) -> dict[int, tuple[GameState, dict]]:
    """The state of each decision at ``indices`` (entries of the record's ``decisions`` or
    ``moves``) and the settings its advice was asked with, to draw it (:mod:`.pictures`).

    Raises:
        DicemathError: a bad entry on the way, named (see :func:`at_entry`).
    """
    if not indices:
        return {}
    adapter, rules, settings = _checked(record, game)
    if record.decisions is None:
        if record.moves is None:
            raise InvalidRecordError("the record has neither decisions nor moves")
        with at_entry("start"):
            state = adapter.initial_state(rules, record.start)
        played = replay(adapter, state, record.moves[:max(indices) + 1])
        return {index: (before, settings) for index, before, _, _ in played if index in indices}
    situations = {}
    for index in indices:
        with at_entry(f"decisions entry {index}"):
            situations[index] = _entry_situation(adapter, rules, settings, record.decisions[index])
    return situations


def final_state(record: Record, game: Game) -> GameState:
    """The state a whole game's record of ``game`` ends in.

    Raises:
        InvalidRecordError: a decision list, not a whole game, or a record of another game.
        DicemathError: the first bad entry, named.
    """
    if record.moves is None:
        raise InvalidRecordError("a decision list has no game to replay")
    adapter, rules, _ = _checked(record, game)
    with at_entry("start"):
        state = adapter.initial_state(rules, record.start)
    for _, _, _, after in replay(adapter, state, record.moves):
        state = after
    return state
