"""The Pitjesbak game as immutable states in the shared vocabulary of :mod:`dicemath.core.game`.

A :class:`State` covers a whole game (PIT-1..PIT-8): whose throw it is, the
stripes, the per-player "has wiped" flags (PIT-6), who is still in the game, and the round
in progress (the limit set by the start player, the counting throws so far). Chance acts
for every throw of three dice (the 56 sorted throws with their exact probabilities, from
:func:`dicemath.core.dice.throw_outcomes`) and for a roll-off (PIT-5; the repeated one-die
roll-off is fair, so its outcome is the winner, each tied player with probability ``1/k``).
A player acts only when there is a choice: after a throw that is not the last allowed one,
with the actions ``"stop"`` and ``"throw"``.

The text form of a state (``str(state)``) holds every field and reads back with
:meth:`State.from_str`: the seats as ``seat:stripes`` (``*`` has wiped, ``x`` eliminated),
the round in progress, the previous round, and the rules, e.g.
``[0:9 1:9] round 0 start 0 order 0,1 turn 0 limit 0 throws 0 current - results - rolloff - winner - |
last winner - limit 0 results - | 2 players 9 stripes traditional`` (one line).

Example:
    >>> state = initial_state(Rules(players=3))
    >>> state.current_player() == CHANCE
    True
    >>> state = state.apply((4, 5, 6))
    >>> state.current_player(), state.legal_actions()
    (0, ('stop', 'throw'))
    >>> state = state.apply("stop")
    >>> state.limit, state.turn
    (1, 1)
"""

from __future__ import annotations

import re
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import cast

from dicemath.core.dice import throw_outcomes, throw_text
from dicemath.core.errors import DicemathError, IllegalMoveError, InvalidStateError
from dicemath.core.game import CHANCE, TERMINAL
from dicemath.games.pitjesbak.rules import DICE, MAX_THROWS, STANDARD, Rules, check_stripes
from dicemath.games.pitjesbak.throws import ThrowClass, check_throw, classify, parse_throw

STOP = "stop"
THROW = "throw"
ACTIONS = (STOP, THROW)
"""The decisions of a player after a throw, sorted."""



@dataclass(frozen=True)
class State:
    """An immutable, hashable Pitjesbak game state (PIT-1..PIT-8).

    Attributes:
        rules: the rules (players, stripes, die values).
        stripes: stripes left per seat.
        wiped: per seat, whether the player has won a round (PIT-6 flag, never cleared).
        alive: per seat, whether the player is still in the game (PIT-6 elimination).
        start: seat of this round's start player.
        order: seats playing this round, in turn order (start player first).
        turn: index into ``order`` of the player throwing now.
        limit: throws allowed to followers (0 until the start player has finished, PIT-4).
        throws: throws used so far by the player throwing now.
        current: the throw awaiting the player's decision, or None (chance throws next).
        results: counting throws of the players of ``order`` who have finished, None for
            an eliminated player.
        rolloff: seats tied for the round, waiting for the roll-off (PIT-5).
        winner: seat of the game winner, -1 while the game goes on.
        round_number: rounds finished so far.
        last_round_winner: seat that won the previous round (-1 before the first).
        last_results: counting throws of the previous round, in its turn order.
        last_limit: the limit of the previous round.
    """

    rules: Rules
    stripes: tuple[int, ...]
    wiped: tuple[bool, ...]
    alive: tuple[bool, ...]
    start: int
    order: tuple[int, ...]
    turn: int = 0
    limit: int = 0
    throws: int = 0
    current: tuple[int, int, int] | None = None
    results: tuple[tuple[int, int, int] | None, ...] = ()
    rolloff: tuple[int, ...] = ()
    winner: int = -1
    round_number: int = 0
    last_round_winner: int = -1
    last_results: tuple[tuple[int, int, int] | None, ...] = ()
    last_limit: int = 0

    # -- the shared vocabulary ---------------------------------------------------------
    def current_player(self) -> int:
        """The seat to decide, :data:`CHANCE` (a throw or roll-off) or :data:`TERMINAL`."""
        if self.winner >= 0:
            return TERMINAL
        if self.rolloff or self.current is None:
            return CHANCE
        return self.order[self.turn]

    def legal_actions(self) -> tuple[str, ...]:
        """``("stop", "throw")`` at a decision, else empty."""
        player = self.current_player()
        return ACTIONS if player >= 0 else ()

    def chance_outcomes(self) -> tuple[tuple[object, Fraction], ...]:
        """Throws (sorted dice, exact probability) or roll-off winners (seat, 1/k)."""
        if self.winner >= 0:
            return ()
        if self.rolloff:
            share = Fraction(1, len(self.rolloff))
            return tuple((seat, share) for seat in self.rolloff)
        if self.current is None:
            return throw_outcomes(DICE)
        return ()

    def returns(self) -> tuple[float, ...]:
        """1 for the game winner, 0 for everybody else (all zeros before the end)."""
        return tuple(1.0 if seat == self.winner else 0.0 for seat in range(self.rules.players))

    def apply(self, action: Hashable) -> State:
        """The state after a chance outcome or a decision.

        Args:
            action: a throw (three faces), ``"stop"``/``"throw"``, a roll-off seat, or any
                action's text, read first by :meth:`parse_action` (``"6-5-4"``, ``"seat 1"``).

        Raises:
            IllegalMoveError: the action is not legal here (a finished game, a seat not in
                the roll-off, a decision while chance is to act, an unknown decision).
            InvalidDiceError: a throw that is not three faces 1..6.

        Example:
            >>> state = initial_state()
            >>> state.apply("6-5-4") == state.apply((4, 5, 6))
            True
        """
        if isinstance(action, str):
            action = self.parse_action(action)
        player = self.current_player()
        if player == TERMINAL:
            raise IllegalMoveError("the game is over; no action is legal")
        if self.rolloff:
            if action not in self.rolloff:
                raise IllegalMoveError(f"roll-off winner must be one of {self.rolloff}, got {action!r}")
            return self._settle(cast(int, action), by_rolloff=True)  # a seat of the roll-off
        if player == CHANCE:
            dice = check_throw(cast("Sequence[int]", action))  # checked there: three faces 1..6
            throws = self.throws + 1
            if throws >= self.throw_cap:
                return _copy(self, throws=throws)._finish_turn(dice)
            return _copy(self, throws=throws, current=dice)
        if action == STOP:
            return self._finish_turn(self.current)  # type: ignore[arg-type]
        if action == THROW:
            return _copy(self, current=None)
        raise IllegalMoveError(f"a decision is 'stop' or 'throw', got {action!r}")

    def action_text(self, action: Hashable) -> str:
        """The text of an action of this state: a decision (``"stop"``, ``"throw"``), a
        throw (``"6-5-4"``) or a roll-off winner (``"seat 1"``); :meth:`parse_action`
        reads it back."""
        if self.rolloff:
            return f"seat {action}"
        if self.current_player() == CHANCE:
            return throw_text(cast("Sequence[int]", action))
        return str(action)

    def parse_action(self, text: str) -> Hashable:
        """Read an action of this state from its text (see :meth:`action_text`).

        Raises:
            IllegalMoveError: not a decision or seat of this state, or the game is over.
            InvalidDiceError: a throw that is not three faces 1..6.

        Example:
            >>> state = initial_state()
            >>> state.parse_action("6-5-4"), state.apply((4, 5, 6)).parse_action("stop")
            ((4, 5, 6), 'stop')
        """
        word = text.strip().lower()
        player = self.current_player()
        if player == TERMINAL:
            raise IllegalMoveError("the game is over; no action is legal")
        if self.rolloff:
            parts = word.split()
            if len(parts) != 2 or parts[0] != "seat" or not parts[1].isdigit() \
                    or int(parts[1]) not in self.rolloff:
                raise IllegalMoveError(f"a roll-off winner is 'seat N' with N in {self.rolloff}, got {text!r}")
            return int(parts[1])
        if player == CHANCE:
            return parse_throw(text)
        if word not in ACTIONS:
            raise IllegalMoveError(f"a decision is 'stop' or 'throw', got {text!r}")
        return word

    # -- helpers -----------------------------------------------------------------------
    @property
    def throw_cap(self) -> int:
        """Throws allowed to the player throwing now: 3 for the start player, else the limit."""
        return MAX_THROWS if self.turn == 0 else self.limit

    @property
    def player(self) -> int:
        """The seat throwing now (or -1 when the game is over)."""
        return -1 if self.winner >= 0 else self.order[self.turn]

    def best_so_far(self) -> tuple[ThrowClass | None, int]:
        """The best counting throw of this round so far and how many players share it."""
        best: ThrowClass | None = None
        tied = 0
        for dice in self.results:
            if dice is None:
                continue
            cls = classify(dice, self.rules)
            if best is None or cls.rank > best.rank:
                best, tied = cls, 1
            elif cls.rank == best.rank:
                tied += 1
        return best, tied

    def _finish_turn(self, dice: tuple[int, int, int]) -> State:
        seat = self.order[self.turn]
        limit = self.throws if self.turn == 0 else self.limit
        cls = classify(dice, self.rules)
        alive = self.alive
        result: tuple[int, int, int] | None = dice
        if cls.is_apen:                                  # PIT-6
            if self.wiped[seat]:
                return _copy(self, limit=limit, current=None, winner=seat, last_round_winner=seat)
            alive = tuple(a and s != seat for s, a in enumerate(alive))
            result = None
            if sum(alive) == 1:                          # PIT-8
                return _copy(self, alive=alive, limit=limit, current=None,
                               winner=alive.index(True), last_round_winner=alive.index(True))
        state = _copy(self, alive=alive, limit=limit, current=None,
                        results=self.results + (result,))
        if self.turn + 1 < len(self.order):
            return _copy(state, turn=self.turn + 1, throws=0)
        return state._resolve_round()

    def _resolve_round(self) -> State:
        best, _ = self.best_so_far()
        assert best is not None
        tied = tuple(sorted(seat for seat, dice in zip(self.order, self.results)
                            if dice is not None and classify(dice, self.rules).rank == best.rank))
        if len(tied) > 1:                                # PIT-5 roll-off
            return _copy(self, rolloff=tied)
        return self._settle(tied[0], by_rolloff=False)

    def _settle(self, round_winner: int, *, by_rolloff: bool) -> State:
        """Wipes and penalties of the round together (PIT-5, PIT-7), then the next round (PIT-8)."""
        position = self.order.index(round_winner)
        winning_class = classify(self.results[position], self.rules)  # type: ignore[arg-type]
        wipe = 1 if by_rolloff else winning_class.wipe
        stripes = list(self.stripes)
        stripes[round_winner] = max(0, stripes[round_winner] - wipe)
        for seat, dice in zip(self.order, self.results):
            if dice is not None and classify(dice, self.rules).penalty:
                stripes[seat] += 1
        wiped = tuple(w or s == round_winner for s, w in enumerate(self.wiped))
        if stripes[round_winner] == 0:
            return _copy(self, stripes=tuple(stripes), wiped=wiped, rolloff=(), winner=round_winner,
                           last_round_winner=round_winner)
        start = next_start(self.start, self.alive)
        return State(self.rules, tuple(stripes), wiped, self.alive, start,
                              round_order(start, self.alive), round_number=self.round_number + 1,
                              last_round_winner=round_winner, last_results=self.results,
                              last_limit=self.limit)

    def __str__(self) -> str:
        seats = " ".join(f"{s}:{n}{'*' if w else ''}{'' if a else 'x'}"
                         for s, (n, w, a) in enumerate(zip(self.stripes, self.wiped, self.alive)))
        current = "-" if self.current is None else "".join(map(str, self.current))
        return (f"[{seats}] round {self.round_number} start {self.start} order {_seats_text(self.order)} "
                f"turn {self.turn} limit {self.limit} throws {self.throws} current {current} "
                f"results {_results_text(self.results)} rolloff {_seats_text(self.rolloff)} "
                f"winner {_seat_or_dash(self.winner)} | last winner {_seat_or_dash(self.last_round_winner)} "
                f"limit {self.last_limit} results {_results_text(self.last_results)} | "
                f"{self.rules.players} players {self.rules.stripes} stripes {self.rules.die_values}")

    @classmethod
    def from_str(cls, text: str) -> State:
        """Read the text form written by ``str(state)``.

        Raises:
            InvalidStateError: text that is not a state's text form, or the text of a state
                no game reaches (:func:`check_state`).

        Example:
            >>> state = initial_state().apply((2, 3, 4)).apply("throw")
            >>> State.from_str(str(state)) == state
            True
        """
        match = _TEXT.fullmatch(text.strip())
        if match is None:
            raise InvalidStateError(f"cannot read a Pitjesbak state from {text!r}")
        fields = match.groupdict()
        try:
            rules = Rules(players=int(fields["players"]), stripes=int(fields["rules_stripes"]),
                          die_values=fields["values"])
            found = [_SEAT.fullmatch(seat) for seat in fields["seats"].split()]
            seats = [m for m in found if m is not None]
            if len(seats) != len(found) or [int(m["seat"]) for m in seats] != list(range(len(seats))):
                raise InvalidStateError(f"cannot read the seats {fields['seats']!r} (0:stripes 1:stripes ...)")
            current = None if fields["current"] == "-" else check_throw(tuple(map(int, fields["current"])))
            state = cls(rules, tuple(int(m["stripes"]) for m in seats),
                        tuple(bool(m["wiped"]) for m in seats), tuple(not m["out"] for m in seats),
                        int(fields["start"]), _read_seats(fields["order"]), int(fields["turn"]),
                        int(fields["limit"]), int(fields["throws"]), current,
                        _read_results(fields["results"]), _read_seats(fields["rolloff"]),
                        _read_seat(fields["winner"]), int(fields["round"]),
                        _read_seat(fields["last_winner"]), _read_results(fields["last_results"]),
                        int(fields["last_limit"]))
            check_state(state)
        except DicemathError as error:
            raise InvalidStateError(f"cannot read a Pitjesbak state from {text!r}: {error}") from None
        return state

    def _repr_svg_(self) -> str:
        from dicemath.core.svg import picture

        return picture(self)


_TEXT = re.compile(
    r"\[(?P<seats>[^]]*)\] round (?P<round>\d+) start (?P<start>\d+) order (?P<order>\S+) "
    r"turn (?P<turn>\d+) limit (?P<limit>\d+) throws (?P<throws>\d+) current (?P<current>\S+) "
    r"results (?P<results>\S+) rolloff (?P<rolloff>\S+) winner (?P<winner>\S+) \| "
    r"last winner (?P<last_winner>\S+) limit (?P<last_limit>\d+) results (?P<last_results>\S+) \| "
    r"(?P<players>\d+) players (?P<rules_stripes>\d+) stripes (?P<values>\S+)")
_SEAT = re.compile(r"(?P<seat>\d+):(?P<stripes>\d+)(?P<wiped>\*?)(?P<out>x?)")


def _seats_text(seats: tuple[int, ...]) -> str:
    return ",".join(map(str, seats)) or "-"


def _read_seats(text: str) -> tuple[int, ...]:
    return () if text == "-" else tuple(int(seat) for seat in text.split(","))


def _seat_or_dash(seat: int) -> str:
    return "-" if seat < 0 else str(seat)


def _read_seat(text: str) -> int:
    return -1 if text == "-" else int(text)


def _results_text(results: tuple) -> str:
    return ",".join("out" if d is None else "".join(map(str, d)) for d in results) or "-"


def _read_results(text: str) -> tuple:
    if text == "-":
        return ()
    return tuple(None if part == "out" else check_throw(tuple(map(int, part))) for part in text.split(","))


def next_start(start: int, alive: tuple[bool, ...]) -> int:
    """The next alive seat clockwise (left) of ``start`` (PIT-8)."""
    n = len(alive)
    for step in range(1, n + 1):
        seat = (start + step) % n
        if alive[seat]:
            return seat
    raise InvalidStateError("no player left in the game")


def round_order(start: int, alive: tuple[bool, ...]) -> tuple[int, ...]:
    """The alive seats in turn order from ``start`` (PIT-4: clockwise)."""
    n = len(alive)
    return tuple((start + step) % n for step in range(n) if alive[(start + step) % n])


def initial_state(rules: Rules | None = None, *, start: int = 0,
                  stripes: tuple[int, ...] | None = None,
                  wiped: tuple[bool, ...] | None = None) -> State:
    """The state at the start of a round: by default the start of a new game (PIT-1).

    Args:
        rules: the rules (default 2 players, 9 stripes).
        start: seat of the start player (the one-die roll-off that picks it is not modelled).
        stripes: stripes per seat (default ``rules.stripes`` each); every one >= 1.
        wiped: has-wiped flags per seat (default all False).

    Raises:
        InvalidStateError: wrong lengths, stripes < 1, or ``start`` not a seat.
    """
    rules = rules or STANDARD
    n = rules.players
    stripes = tuple(stripes) if stripes is not None else (rules.stripes,) * n
    wiped = tuple(bool(w) for w in wiped) if wiped is not None else (False,) * n
    if len(stripes) != n or len(wiped) != n:
        raise InvalidStateError(f"need stripes and flags for {n} players, got {len(stripes)} and {len(wiped)}")
    for seat, count in enumerate(stripes):
        check_stripes(count, f"stripes of seat {seat}")
        if count == 0:
            raise InvalidStateError(f"seat {seat} has 0 stripes: the game is already over (PIT-1)")
    if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start < n:
        raise InvalidStateError(f"start must be a seat 0..{n - 1}, got {start!r}")
    alive = (True,) * n
    return State(rules, stripes, wiped, alive, start, round_order(start, alive))


def check_state(state: State) -> None:
    """Raise if ``state`` is not one a game can reach (the invariant of every state).

    One stripe count, wiped flag and alive flag per seat; the seats named (start, round
    order, roll-off, winners) exist; stripes are >= 0 and only the winner may have 0; at
    least one player is alive; the round order starts at the start player (PIT-4) and holds
    every alive seat (PIT-6); a seat that never wiped has at least the starting stripes
    (PIT-1, PIT-6: only a round's winner wipes one); the limit is 1..3 once set (PIT-4); a
    decision is offered only below the throw cap; one result per finished turn, all of them before a roll-off (PIT-5).

    Raises:
        InvalidStateError: the first rule the state breaks.
    """
    n = state.rules.players

    def need(holds: bool, what: str) -> None:
        if not holds:
            raise InvalidStateError(f"not a Pitjesbak state: {what}")

    need(len(state.stripes) == len(state.wiped) == len(state.alive) == n,
         f"{n} players need {n} seats, got {len(state.stripes)}")
    need(0 <= state.start < n and 0 < len(state.order) == len(set(state.order)) and
         all(0 <= seat < n for seat in state.order + state.rolloff), f"seats are 0..{n - 1}, each once a round")
    need(-1 <= state.winner < n and -1 <= state.last_round_winner < n, f"a winner is a seat 0..{n - 1}")
    need(0 <= state.turn < len(state.order), f"turn {state.turn} is no place in the round order {state.order}")
    need(all(s >= 0 for s in state.stripes) and sum(state.alive) >= 1, "stripes are >= 0, a player is alive")
    if state.winner >= 0:
        need(state.alive[state.winner], f"the winner, seat {state.winner}, is out")
        return
    need(all(s >= 1 for s in state.stripes), "a seat with 0 stripes has won the game (PIT-1)")
    start = state.rules.stripes
    for seat, (count, wiped) in enumerate(zip(state.stripes, state.wiped)):
        need(wiped or count >= start, f"seat {seat} has never wiped a stripe, so has at least the starting {start} "
                                      f"stripes (PIT-1, PIT-6), got {count}")
    need(state.order[0] == state.start, f"the round order {state.order} starts at the start player {state.start}")
    need({s for s, a in enumerate(state.alive) if a} <= set(state.order), "every player in the game plays a round")
    need(0 <= state.limit <= MAX_THROWS and (state.limit == 0) == (state.turn == 0 and not state.results),
         f"the limit is 1..{MAX_THROWS} once the start player has finished, 0 before (PIT-4)")
    need(state.current is None or 1 <= state.throws < state.throw_cap,
         f"a decision after throw {state.throws} of {state.throw_cap}: only before the last throw (PIT-4)")
    if state.rolloff:
        need(len(state.results) == len(state.order) and len(state.rolloff) >= 2 and
             set(state.rolloff) <= set(state.order), "a roll-off follows the whole round, between 2 or more seats")
    else:
        need(len(state.results) == state.turn, f"{len(state.results)} results before turn {state.turn}")


def check_invariants(state: State) -> None:
    """Raise AssertionError if ``state`` breaks a rule invariant (:func:`check_state`; used by
    the tests)."""
    try:
        check_state(state)
    except InvalidStateError as error:
        raise AssertionError(f"{error}: {state}") from None


def _copy(state: State, **changes: object) -> State:
    """``dataclasses.replace(state, **changes)``, cheaper: the field values copied with
    ``changes`` applied (:class:`State` has no ``__post_init__``, so ``replace`` would run
    nothing more). Simulations copy a state at every throw and decision."""
    copy = object.__new__(type(state))
    copy.__dict__.update(state.__dict__, **changes)
    return copy
