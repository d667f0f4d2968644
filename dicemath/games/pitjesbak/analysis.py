"""Analysis of played Pitjesbak (two players): every decision's cost in P(win the game).

The value of a state is each player's probability of winning the game when both play
game-optimally from there (PIT-1..PIT-8), read from the exact two-player game solution
(:func:`~dicemath.games.pitjesbak.game_solver.solve_game`, value iteration with rigorous
bounds, width about 1e-14: exact to float64) and, inside a round, from that state's round
tables (:meth:`~dicemath.games.pitjesbak.game_solver.GameSolution.round_tables`, the
round's backward induction over the 42 throw classes): the value before a throw, after it
with the choice still to make, after stopping or throwing again, before a roll-off. The
tests check these against the core's expectimax over the rules engine
(:mod:`dicemath.core.search`) with the solution's values at the end of the round.

Records (``docs/analyse.md``): a decision entry holds the inputs of ``dicemath pitjesbak
advise`` (``my_stripes``, ``their_stripes``, ``role``, ``throw_number``, ``current``,
optional ``my_wiped``, ``their_wiped``, ``best``, ``limit``) and ``choice`` (``"stop"`` or
``"throw"``); a whole game lists the throws (``"6-5-4"``), the decisions and the roll-off
winners (``"seat 1"``) of :class:`~dicemath.games.pitjesbak.state.State` from the start
(seat 0 starts the first round). The rules' ``players`` must be 2.

Example:
    >>> entry = {"my_stripes": 3, "their_stripes": 3, "role": "follower", "throw_number": 1,
    ...          "current": "2-2-3", "best": "6-5-4", "limit": 2, "choice": "stop"}
    >>> result = analyse({"game": "pitjesbak", "rules": {"stripes": 3}, "decisions": [entry]})
    >>> result.decisions[0].best, round(result.decisions[0].loss, 4)
    ('throw', 0.0142)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

from dicemath.analysis.engine import GameAnalysis
from dicemath.analysis.records import InvalidRecordError, check_keys, flag, whole_number
from dicemath.analysis.values import Valued, ValueSource
from dicemath.core.advice import Advice
from dicemath.core.errors import InvalidStateError
from dicemath.core.game import GameState, state_of
from dicemath.games.pitjesbak.advice import ROLES, advise
from dicemath.games.pitjesbak.game_solver import RoundTables, solve_game
from dicemath.games.pitjesbak.rules import MAX_THROWS, Rules, check_stripes
from dicemath.games.pitjesbak.state import State, initial_state
from dicemath.games.pitjesbak.throws import check_throw, class_space, classify, parse_throw


class GameValues(ValueSource):
    """P(each seat wins the game) of any two-player state, from the game solution.

    Args:
        rules: two-player rules (the solution is solved once and cached on disk).
    """

    def __init__(self, rules: Rules):
        self.rules = rules
        self.solution = solve_game(rules)
        self.space = class_space(rules)
        self.description = (f"exact game values (two players, {rules.stripes} stripes: value iteration "
                            f"with rigorous bounds {self.solution.bound:.1g} apart; round tables inside a round)")
        self.tables = lru_cache(maxsize=None)(self.solution.round_tables)

    def _class(self, dice: Sequence[int] | None) -> int:
        if dice is None:                          # a two-player round with a player out is over
            raise InvalidStateError("a player out by 1-1-1 has no throw class to value")
        return self.space.index(classify(dice, self.rules))

    def start_value(self, state: State) -> float:
        """P(this round's start player wins the game) at a state of a game still going on."""
        start, follower = state.order
        tables: RoundTables = self.tables(state.stripes[start], state.wiped[start], state.stripes[follower],
                                          state.wiped[follower])
        if state.rolloff:
            return float(tables.result[self._class(state.results[0]), self._class(state.results[1])])
        if state.turn == 0:
            done = state.throws
            if state.current is None:
                return float(tables.value if done == 0 else tables.start_continue[done - 1])
            stop = tables.follower[done - 1, self._class(state.current)]
            return float(max(stop, tables.start_continue[done - 1]))
        theirs = self._class(state.results[0])
        left = state.limit - state.throws
        if state.current is None:
            return float(tables.follower[left - 1, theirs])
        return float(min(tables.result[theirs, self._class(state.current)], tables.follower[left - 1, theirs]))

    def advice(self, state: GameState) -> Advice:
        """Stop or throw again, with the chance to win the game after each: the game's chain
        (:func:`.advice.advise`, whose two-player source is this solution)."""
        return advise(_own(state))

    def value(self, state: GameState) -> Valued:
        """P(seat 0 wins), P(seat 1 wins): the returns at the end, the solution before."""
        state = _own(state)
        if state.winner >= 0:
            return Valued(tuple(state.returns()), True)
        start = self.start_value(state)
        return Valued((start, 1.0 - start) if state.start == 0 else (1.0 - start, start), True)


class PitjesbakAnalysis(GameAnalysis):
    """Pitjesbak records (see the module docstring)."""

    game = "pitjesbak"
    rules_class = Rules
    unit = "P(win game)"
    threshold = 0.01
    required = ("my_stripes", "their_stripes", "role", "throw_number", "current")
    optional = ("my_wiped", "their_wiped", "best", "limit")

    def rules(self, fields: Mapping) -> Rules:
        rules = super().rules(fields)
        if rules.players != 2:
            raise InvalidRecordError(f"Pitjesbak games are analysed for two players (the game solver), "
                                     f"got players={rules.players}")
        return rules

    def initial_state(self, rules: Rules, start: str | None = None) -> State:
        """The start of a game (seat 0 starts), or the state of ``start``'s text form.

        Raises:
            InvalidStateError: unreadable text, or a state of other rules.
        """
        if start is None:
            return initial_state(rules)
        state = State.from_str(start)
        if state.rules != rules:
            raise InvalidStateError(f"the start state's rules {state.rules} are not the record's {rules}")
        return state

    def value_source(self, rules: Rules, settings: Mapping) -> GameValues:
        return GameValues(rules)

    def advice(self, state: GameState, settings: Mapping) -> Advice:
        """The chain's advice at a decision (:func:`.advice.advise`, as ``pitjesbak advise``
        gives it): the record's settings take none of its settings, the record's rules are the
        state's."""
        return advise(_own(state))

    def value_label(self, rules: Rules, seats: tuple[str, ...]) -> str:
        return f"P({seats[0]} wins the game)"

    def decision_state(self, entry: Mapping, rules: Rules) -> State:
        """The state of an ``advise`` situation: the start player sits in seat 0.

        Raises:
            InvalidRecordError, InvalidStateError, InvalidDiceError: bad inputs; a throw
                number with no decision left (the last allowed throw counts, PIT-4).
        """
        check_keys(entry, self.required, self.optional)
        role = entry["role"]
        if role not in ROLES:
            raise InvalidRecordError(f'"role" must be one of {ROLES}, got {role!r}')
        mine = check_stripes(whole_number(entry, "my_stripes"), "my_stripes")
        theirs = check_stripes(whole_number(entry, "their_stripes"), "their_stripes")
        if not mine or not theirs:
            raise InvalidStateError("a player with 0 stripes has won: the game is over (PIT-1)")
        wiped = (flag(entry, "my_wiped"), flag(entry, "their_wiped"))
        current = _throw(entry["current"])
        number = whole_number(entry, "throw_number")
        results: tuple[tuple[int, int, int], ...]
        if role == "start":
            if "best" in entry or "limit" in entry:
                raise InvalidRecordError('the start player has no "best" throw to beat and no "limit"')
            stripes, turn, limit, results, cap = (mine, theirs), 0, 0, (), MAX_THROWS
        else:
            if "best" not in entry:
                raise InvalidRecordError("a follower needs \"best\": the start player's counting throw")
            best = _throw(entry["best"])
            if classify(best, rules).is_apen:
                raise InvalidStateError("after a counting 1-1-1 of the start player nobody throws (PIT-6)")
            limit = cap = whole_number(entry, "limit", MAX_THROWS)
            if not 1 <= limit <= MAX_THROWS:
                raise InvalidStateError(f"limit must be 1..{MAX_THROWS}, got {limit}")
            stripes, turn, results, wiped = (theirs, mine), 1, (best,), wiped[::-1]
        if not 1 <= number < cap:
            raise InvalidStateError(f"throw_number must be 1..{cap - 1} for a decision: throw {cap} of {cap} "
                                    f"counts, there is nothing to decide (PIT-4); got {number}")
        return State(rules, stripes, wiped, (True, True), 0, (0, 1), turn, limit, number, current, results)

    def context(self, state: GameState) -> dict:
        state = _own(state)
        if state.current is None:
            raise InvalidStateError(f"a decision needs a throw to decide on: {state}")
        me = state.order[state.turn]
        return {"role": ROLES[state.turn], "throw_number": state.throws, "my_stripes": state.stripes[me],
                "their_stripes": state.stripes[1 - me], "current": classify(state.current, state.rules).label}

    def roller(self, state: GameState) -> int | None:
        state = _own(state)
        return None if state.rolloff else state.order[state.turn]

    groupings = {"throw": ("start, throw 1", "start, throw 2", "follower, throw 1", "follower, throw 2"),
                 "score": ("ahead", "level", "behind")}

    def groups(self, context: Mapping) -> dict[str, str]:
        """The decision's role and throw number, and whether the decider has fewer stripes."""
        mine, theirs = context["my_stripes"], context["their_stripes"]
        score = "ahead" if mine < theirs else "level" if mine == theirs else "behind"
        return {"throw": f"{context['role']}, throw {context['throw_number']}", "score": score}


def _own(state: GameState) -> State:
    return state_of(state, State, "Pitjesbak")


def _throw(value: str | Sequence[int]) -> tuple[int, int, int]:
    """A throw given as text (``"6-5-4"``) or a list of three dice."""
    return parse_throw(value) if isinstance(value, str) else check_throw(value)


ANALYSIS = PitjesbakAnalysis()
"""The adapter its game object lists (:meth:`dicemath.core.game.Game.analysis`)."""

analyse = ANALYSIS.analyse
