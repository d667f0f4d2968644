"""Stop or throw again? Game-optimal advice and a human policy card (two players).

Advice uses the game solution of :mod:`dicemath.games.pitjesbak.game_solver`: the
probabilities are of winning the whole game (PIT-1), both players playing game-optimally
from here on. Float64.

:func:`advise` takes a state of the rules engine (the game vocabulary);
:func:`advise_situation` takes the situation as a player describes it at the table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from dicemath.core.dice import throw_text
from dicemath.core.errors import InvalidStateError
from dicemath.games.pitjesbak.game_solver import GameSolution, solve_game
from dicemath.games.pitjesbak.rules import MAX_THROWS, STANDARD, Rules
from dicemath.games.pitjesbak.state import STOP, THROW, State, initial_state
from dicemath.games.pitjesbak.throws import check_throw, class_space, classify
from dicemath.reporting.context import markdown_table

ROLES = ("start", "follower")


@dataclass(frozen=True)
class Advice:
    """The advice for one decision.

    Attributes:
        decision: ``"stop"`` or ``"throw"``.
        stop_probability: P(I win the game) if I stop now (this throw counts).
        throw_probability: P(I win the game) if I throw again (None when no throw is left).
        situation: the inputs, for display.
    """

    decision: str
    stop_probability: float
    throw_probability: float | None
    situation: dict

    def as_dict(self) -> dict:
        """JSON-ready form with stable keys."""
        return {"decision": self.decision, "stop_win_probability": self.stop_probability,
                "throw_win_probability": self.throw_probability, **self.situation}

    def __str__(self) -> str:
        again = "no throw left" if self.throw_probability is None else f"{self.throw_probability:.4f}"
        return (f"{self.decision.upper()}: P(win game) if you stop {self.stop_probability:.4f}, "
                f"if you throw again {again}")

    def _repr_markdown_(self) -> str:
        return f"**{self.decision}** — {self}"


def advise(state: State, *, solution: GameSolution | None = None) -> Advice:
    """Game-optimal advice at a two-player decision: stop, or throw again? (PIT-4..PIT-8)

    Args:
        state: a two-player state where a player decides (``state.current_player() >= 0``).
        solution: a solved game (default :func:`solve_game` of ``state.rules``, cached).

    Returns:
        The :class:`Advice` for the player to act.

    Raises:
        InvalidStateError: not a decision, or not a two-player game.

    Example:
        >>> small = solve_game(Rules(stripes=3), use_cache=False, compare=False)
        >>> state = initial_state(small.rules).apply((6, 5, 4))
        >>> advise(state, solution=small).decision
        'stop'
    """
    if state.current_player() < 0:
        raise InvalidStateError(f"no player decides in {state}: advice needs a decision")
    if len(state.order) != 2 or state.rules.players != 2:
        raise InvalidStateError(f"advice is for two-player games, not {state.rules.players} players")
    me, them = state.order[state.turn], state.order[1 - state.turn]
    best = None if state.turn == 0 else state.results[0]
    return _advice(state.stripes[me], state.wiped[me], state.stripes[them], state.wiped[them],
                   role=ROLES[state.turn], throw_number=state.throws, dice=state.current, best=best,
                   cap=state.throw_cap, rules=state.rules, solution=solution)


def advise_situation(my_stripes: int, my_wiped: bool, their_stripes: int, their_wiped: bool, *,
                     role: str, throw_number: int, current: Sequence[int], best: Sequence[int] | None = None,
                     limit: int | None = None, rules: Rules | None = None,
                     solution: GameSolution | None = None) -> Advice:
    """:func:`advise` for a situation described at the table, without building a state.

    Args:
        my_stripes, my_wiped: my stripes and has-wiped flag (PIT-6).
        their_stripes, their_wiped: the other player's.
        role: ``"start"`` (I set the limit) or ``"follower"``.
        throw_number: throws I have used, including ``current`` (1..3).
        current: my current throw (three dice).
        best: the start player's counting throw (follower only).
        limit: the limit the start player set (follower only; default the start's throws).
        rules: the rules (default traditional, 9 stripes).
        solution: a solved game (default :func:`solve_game` of ``rules``, cached).

    Returns:
        The :class:`Advice`; when no throw is left the decision is ``"stop"`` (it counts).

    Raises:
        InvalidStateError: a role other than start/follower, a throw number outside the
            allowed throws, a missing or 1-1-1 ``best`` for a follower, stripes out of range.
        InvalidDiceError: a throw that is not three dice 1..6.

    Example:
        >>> small = solve_game(Rules(stripes=3), use_cache=False, compare=False)
        >>> advice = advise_situation(3, False, 3, False, role="start", throw_number=1,
        ...                           current=(6, 5, 4), solution=small)
        >>> advice.decision
        'stop'
    """
    if role not in ROLES:
        raise InvalidStateError(f"role must be one of {ROLES}, got {role!r}")
    dice = check_throw(current)
    if role == "start":
        if best is not None:
            raise InvalidStateError("the start player has no best throw to beat; omit best")
        cap = MAX_THROWS
    else:
        if best is None:
            raise InvalidStateError("a follower must give the start player's counting throw (best)")
        best = check_throw(best)
        cap = limit if limit is not None else MAX_THROWS
        if not 1 <= cap <= MAX_THROWS:
            raise InvalidStateError(f"limit must be 1..{MAX_THROWS}, got {cap}")
    return _advice(my_stripes, my_wiped, their_stripes, their_wiped, role=role, throw_number=throw_number,
                   dice=dice, best=best, cap=cap, rules=rules or STANDARD, solution=solution)


def situation_state(advice: Advice, rules: Rules) -> State:
    """The two-player state an :func:`advise_situation` answer describes, for its picture:
    the asking player is seat 0, the other seat 1 (PIT-4: the start player throws first; a
    follower sees the start player's counting throw)."""
    from dicemath.games.pitjesbak.throws import parse_throw

    s = advice.situation
    stripes, wiped = (s["my_stripes"], s["their_stripes"]), (s["my_wiped"], s["their_wiped"])
    current = parse_throw(s["current"])
    if s["role"] == "start":
        return State(rules, stripes, wiped, (True, True), 0, (0, 1), throws=s["throw_number"], current=current)
    return State(rules, stripes, wiped, (True, True), 1, (1, 0), turn=1, limit=s["limit"],
                 throws=s["throw_number"], current=current, results=(parse_throw(s["best"]),))


def _advice(my_stripes: int, my_wiped: bool, their_stripes: int, their_wiped: bool, *, role: str,
            throw_number: int, dice: tuple[int, int, int], best: tuple[int, int, int] | None, cap: int,
            rules: Rules, solution: GameSolution | None) -> Advice:
    """The advice from the round tables of the game solution (both forms of :func:`advise`)."""
    solution = solution or solve_game(rules)
    space = class_space(rules)
    mine = space.index(classify(dice, rules))
    _check_throw_number(throw_number, cap)
    situation = {"my_stripes": my_stripes, "my_wiped": bool(my_wiped), "their_stripes": their_stripes,
                 "their_wiped": bool(their_wiped), "role": role, "throw_number": throw_number,
                 "current": throw_text(dice)}
    if role == "start":
        tables = solution.round_tables(my_stripes, my_wiped, their_stripes, their_wiped)
        stop = float(tables.follower[throw_number - 1, mine])
        again = float(tables.start_continue[throw_number - 1]) if throw_number < cap else None
    else:
        theirs = space.index(classify(best, rules))
        if theirs == space.apen:
            raise InvalidStateError("after a counting 1-1-1 of the start player the follower does not throw (PIT-6)")
        situation.update(best=throw_text(best), limit=cap)
        tables = solution.round_tables(their_stripes, their_wiped, my_stripes, my_wiped)
        stop = 1.0 - float(tables.result[theirs, mine])
        left = cap - throw_number
        again = 1.0 - float(tables.follower[left - 1, theirs]) if left else None
    decision = STOP if again is None or stop >= again else THROW
    return Advice(decision, stop, again, situation)


def _check_throw_number(throw_number: int, cap: int) -> None:
    if isinstance(throw_number, bool) or not isinstance(throw_number, int) or not 1 <= throw_number <= cap:
        raise InvalidStateError(f"throw_number must be 1..{cap} here, got {throw_number!r}")


def game_policy(solution: GameSolution):
    """The game-optimal decisions as a simulator policy for two-player states.

    Round tables are computed once per stripes/flags situation and kept.
    """
    rules = solution.rules
    space = class_space(rules)
    memo: dict = {}

    def decide(state: State) -> str:
        start, follower = state.order[0], state.order[1]
        key = (state.stripes[start], state.wiped[start], state.stripes[follower], state.wiped[follower])
        tables = memo.get(key)
        if tables is None:
            tables = memo[key] = (solution.round_tables(*key).start_stops(),
                                  solution.round_tables(*key).follower_stops())
        x = space.index(classify(state.current, rules))  # type: ignore[arg-type]
        if state.turn == 0:
            return STOP if tables[0][state.throws - 1, x] else THROW
        i = space.index(classify(state.results[0], rules))  # type: ignore[arg-type]
        left = state.limit - state.throws
        return STOP if tables[1][left - 1, i, x] else THROW
    return decide


# -- the policy card ----------------------------------------------------------------------

def describe_stops(stops: Sequence[bool], rules: Rules | None = None) -> str:
    """Words for a stop set over the classes: "score 105 or better", "always", ...

    Example:
        >>> space = class_space()
        >>> describe_stops([c.rank >= 105 for c in space.classes[:-1]] + [False])
        'score 105 or better; 1-1-1: throw again'
    """
    space = class_space(rules)
    ranked = [bool(s) for s in stops[:space.apen]]
    apen = "stop" if stops[space.apen] else "throw again"
    if all(ranked):
        text = "always stop"
    elif not any(ranked):
        text = "never stop (throw again)"
    else:
        first = ranked.index(True)
        if all(ranked[first:]):
            text = f"{space.classes[first].label} or better"
        else:
            runs = []
            c = 0
            while c < len(ranked):
                if ranked[c]:
                    end = c
                    while end + 1 < len(ranked) and ranked[end + 1]:
                        end += 1
                    lo, hi = space.classes[c].label, space.classes[end].label
                    runs.append(lo if c == end else f"{lo} .. {hi}")
                    c = end + 1
                else:
                    c += 1
            text = "stop on " + ", ".join(runs)
    return f"{text}; 1-1-1: {apen}"


@dataclass(frozen=True)
class PolicyCard:
    """A one-page summary of game-optimal play in one situation.

    Attributes:
        state: ``(start stripes, start flag, follower stripes, follower flag)``.
        start_win_probability: P(start player wins the game).
        start_rules: text per throw 1, 2 of when the start player stops.
        follower_rows: per range of the start player's counting class (strongest first):
            label, text with one throw left after this one, text with two throws left.
    """

    state: tuple
    start_win_probability: float
    start_rules: tuple[str, str]
    follower_rows: tuple[tuple[str, str, str], ...]

    def as_dict(self) -> dict:
        """JSON-ready form."""
        return {"state": list(self.state), "start_win_probability": self.start_win_probability,
                "start_after_throw": {"1": self.start_rules[0], "2": self.start_rules[1]},
                "follower": [{"start_throw": r[0], "one_throw_left": r[1], "two_throws_left": r[2]}
                             for r in self.follower_rows]}

    def text(self) -> str:
        """Plain-text card."""
        a, fa, b, fb = self.state
        lines = [f"Pitjesbak policy card (start player {a} stripes{' wiped' if fa else ''}, "
                 f"follower {b}{' wiped' if fb else ''}; P(start wins game) = {self.start_win_probability:.4f})",
                 f"As start player after throw 1: {self.start_rules[0]}",
                 f"As start player after throw 2: {self.start_rules[1]}",
                 "As follower (stop when your throw is in the set; the last allowed throw counts):"]
        for label, one, two in self.follower_rows:
            lines.append(f"  vs {label}: 1 throw left -> {one}; 2 throws left -> {two}")
        return "\n".join(lines)

    def markdown(self) -> str:
        """Markdown card."""
        a, fa, b, fb = self.state
        head = (f"Start player {a} stripes{' (has wiped)' if fa else ''}, follower {b} stripes"
                f"{' (has wiped)' if fb else ''}; P(start player wins the game) = "
                f"{self.start_win_probability:.4f}.\n\n"
                f"- **Start player, after throw 1:** {self.start_rules[0]}\n"
                f"- **Start player, after throw 2:** {self.start_rules[1]}\n\n"
                "**Follower** (stop when the current throw is in the set):\n\n")
        return head + markdown_table(["start player's throw", "1 throw left", "2 throws left"],
                                     [list(r) for r in self.follower_rows], align="lll")

    def _repr_markdown_(self) -> str:
        return self.markdown()

    def __str__(self) -> str:
        return self.text()


def _follower_text(stops: np.ndarray, i: int, rules: Rules) -> str:
    space = class_space(rules)
    ranked = stops[:space.apen]
    level = space.levels[i]
    beats = [space.levels[c] > level for c in range(space.apen)]
    ties = [space.levels[c] == level for c in range(space.apen)]
    apen = "stop" if stops[space.apen] else "throw again"
    if all(s == b for s, b in zip(ranked, beats)):
        text = "stop iff you beat it"
    elif all(s == (b or t) for s, b, t in zip(ranked, beats, ties)):
        text = "stop iff you beat or tie it"
    else:
        return describe_stops(stops, rules)
    return f"{text}; 1-1-1: {apen}"


def policy_card(solution: GameSolution | None = None, state: tuple | None = None) -> PolicyCard:
    """The game-optimal policy card at ``state`` (default: the opening 9 v 9, no flags).

    Example:
        >>> card = policy_card(solve_game(Rules(stripes=2), use_cache=False, compare=False))
        >>> card.start_rules[0].endswith("1-1-1: throw again")
        True
    """
    solution = solution or solve_game()
    state = tuple(state) if state is not None else solution.opening
    rules = solution.rules
    space = class_space(rules)
    tables = solution.round_tables(*state)
    start = tables.start_stops()
    follower = tables.follower_stops()
    rows: list[list[str]] = []
    for i in reversed(range(space.apen)):
        texts = [_follower_text(follower[0, i], i, rules), _follower_text(follower[1, i], i, rules)]
        label = space.classes[i].label
        if rows and rows[-1][1:] == texts:
            rows[-1][0] = rows[-1][0].split(" .. ")[0] + " .. " + label
        else:
            rows.append([label] + texts)
    rows_t = tuple(tuple(r) for r in rows)
    return PolicyCard(state, float(tables.value), (describe_stops(start[0], rules),
                                                   describe_stops(start[1], rules)), rows_t)
