"""Analysis of played Pitjesbak (two players): every decision's cost in P(win the game).

The values come from the game (:data:`~dicemath.games.pitjesbak.game.PITJESBAK_GAME`): a
decision's values are its advice (as ``dicemath pitjesbak advise`` gives it); the value of a
state is each player's probability of winning the game when both play game-optimally from
there (PIT-1..PIT-8), from its chain's two-player game solution
(:func:`~dicemath.games.pitjesbak.sources.game_value`: the exact game solution and, inside a
round, that state's solved round). The tests check these against the core's expectimax over
the rules engine (:mod:`dicemath.core.search`) with the solution's values at the end of the
round. This module reads and writes the records.

Records (``docs/analyse.md``): a decision entry holds the inputs of ``dicemath pitjesbak
advise`` (``my_stripes``, ``their_stripes``, ``role``, ``throw_number``, ``current``,
optional ``my_wiped``, ``their_wiped``, ``best``, ``limit``) and ``choice`` (``"stop"`` or
``"throw"``); a whole game lists the throws (``"6-5-4"``), the decisions and the roll-off
winners (``"seat 1"``) of :class:`~dicemath.games.pitjesbak.state.State` from the start
(seat 0 starts the first round). The rules' ``players`` must be 2.

Example:
    >>> from dicemath.games.pitjesbak import analyse
    >>> entry = {"my_stripes": 3, "their_stripes": 3, "role": "follower", "throw_number": 1,
    ...          "current": "2-2-3", "best": "6-5-4", "limit": 2, "choice": "stop"}
    >>> result = analyse({"game": "pitjesbak", "rules": {"stripes": 3}, "decisions": [entry]})
    >>> result.decisions[0].best, round(result.decisions[0].loss, 4)
    ('throw', 0.0142)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from dicemath.analysis.engine import GameAnalysis
from dicemath.analysis.records import InvalidRecordError, check_keys, flag, whole_number
from dicemath.core.errors import InvalidStateError
from dicemath.core.game import GameState, state_of
from dicemath.games.pitjesbak.decision import ROLES
from dicemath.games.pitjesbak.rules import MAX_THROWS, Rules, check_stripes
from dicemath.games.pitjesbak.state import State, initial_state
from dicemath.games.pitjesbak.throws import check_throw, classify, parse_throw


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
