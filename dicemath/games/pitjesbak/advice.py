"""Stop or throw again? Game-optimal advice and a human policy card, at any table.

The game's advice (:meth:`PITJESBAK_GAME.advise <dicemath.core.game.Game.advise>`, the chain
of :mod:`.sources`) answers a state of the rules engine with the core's
:class:`~dicemath.core.advice.Advice` (options ``stop`` and ``throw``); behind it stands a
:class:`StopOrThrow` (:mod:`.advice_type`, :func:`.decision.decide`): the probability of
winning the whole game (PIT-1) if the player stops and if he throws again, every player
playing game-optimally from here on, and whether those numbers are exact (float64 solutions)
or estimates. Two players: the game solution of :mod:`dicemath.games.pitjesbak.game_solver`
(rigorous bounds); three and four players: :mod:`.table_solver`; five to eight: the labelled
estimates of :mod:`.table_estimate` (:func:`.table_game.table_advice` answers every table).

Here: the situation as a player describes it at the table, read into the state the game
advises on (:func:`read_situation`, the command line's and the page's reader);
:func:`advise_situation` answers a two-player situation without a state (a
:class:`StopOrThrow`; :func:`decision_advice` with :func:`situation_state` makes it an
Advice). :func:`decide`, :func:`decision_advice`, :data:`ROLES` and :data:`UNIT` live in
:mod:`.decision` (below the chain of :mod:`.sources`, which answers with them) and are
importable from here.
The policy cards: :func:`policy_card` (two players, :class:`PolicyCard`) and
:func:`table_policy_card` (any table, thresholds by turn position, :class:`TableCard`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from dicemath.core.errors import InvalidStateError
from dicemath.games.pitjesbak.advice_type import StopOrThrow
from dicemath.games.pitjesbak.game_solver import GameSolution, solve_game
from dicemath.games.pitjesbak.rules import MAX_THROWS, STANDARD, Rules
from dicemath.games.pitjesbak.state import STOP, THROW, State
from dicemath.games.pitjesbak.throws import check_throw, class_rows, class_space, classify
from dicemath.core.markdown import markdown_table
from dicemath.games.pitjesbak.decision import (
    ROLES, UNIT, check_throw_number, decide, decision_advice, table_state_advice, two_player_decision)
from dicemath.games.pitjesbak.sources import default_solution

if TYPE_CHECKING:
    from dicemath.games.pitjesbak.table_solver import TableValues

__all__ = ["ROLES", "UNIT", "advise_situation", "decide", "decision_advice", "describe_stops",
           "game_policy", "policy_card", "read_situation", "situation_state", "stop_threshold",
           "table_policy_card", "table_situation_state", "table_state_advice", "threshold_index",
           "wiped_flags"]


def advise_situation(my_stripes: int, my_wiped: bool, their_stripes: int, their_wiped: bool, *,
                     role: str, throw_number: int, current: Sequence[int], best: Sequence[int] | None = None,
                     limit: int | None = None, rules: Rules | None = None,
                     solution: GameSolution | None = None) -> StopOrThrow:
    """The two-player answer the game's advice gives, for a situation described at the table,
    without building a state.

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
        The :class:`StopOrThrow`; when no throw is left the decision is ``"stop"`` (it counts).

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
    dice, best, cap = _check_two_player(role, current, best, limit)
    return two_player_decision(my_stripes, my_wiped, their_stripes, their_wiped, role=role,
                               throw_number=throw_number, dice=dice, best=best, cap=cap, rules=rules or STANDARD,
                               solution=solution)


def _check_two_player(role: str, current: Sequence[int], best: Sequence[int] | None,
                      limit: int | None) -> tuple[tuple[int, int, int], tuple[int, int, int] | None, int]:
    """The checked throw, best throw and throws allowed of a two-player situation (PIT-4)."""
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
    return dice, best, cap


def table_situation_state(rules: Rules, stripes: Sequence[int], wiped: Sequence[bool], position: int,
                          before: Sequence[Sequence[int] | None], limit: int | None, dice: Sequence[int],
                          throws: int) -> State:
    """The engine state of a situation at a table (the arguments of
    :func:`.table_game.table_advice`), for its picture: the seats are the turn positions (seat
    0 starts this round), a player put out by 1-1-1 this round is out (PIT-6).

    Raises:
        InvalidStateError: a situation no game reaches (:func:`.state.check_state`).
        InvalidDiceError: a throw that is not three dice 1..6.
    """
    from dicemath.games.pitjesbak.state import check_state

    n = len(stripes)
    results = tuple(None if t is None else check_throw(t) for t in before)
    alive = tuple(not (pos < len(results) and results[pos] is None) for pos in range(n))
    state = State(rules.with_players(n), tuple(stripes), tuple(bool(w) for w in wiped), alive, 0, tuple(range(n)),
                  turn=position, limit=limit or 0, throws=throws, current=check_throw(dice), results=results)
    check_state(state)
    return state


TABLE_INPUTS = ("stripes_left", "wiped", "position", "before")
"""The inputs of a situation at any table (turn order from this round's start player)."""

TWO_PLAYER_INPUTS = ("my_stripes", "my_wiped", "their_stripes", "their_wiped", "role", "best")
"""The inputs of the two-player form of a situation."""


def read_situation(rules: Rules, *, current: Sequence[int] | None, throw_number: int | None,
                   limit: int | None = None, stripes_left: Sequence[int] | None = None,
                   wiped: Sequence[int] | None = None, position: int | None = None,
                   before: Sequence[Sequence[int] | None] = (),
                   my_stripes: int | None = None, my_wiped: bool = False, their_stripes: int | None = None,
                   their_wiped: bool = False, role: str | None = None,
                   best: Sequence[int] | None = None) -> State:
    """The decision state of a situation described at the table, in either form: the one
    function the command line (``pitjesbak advise``) and the page read a situation with.

    Args:
        rules: the rules (starting stripes, die values; ``players`` is the table's).
        current: my current throw (three dice).
        throw_number: the throws I have used this turn, ``current`` included (1..3; PIT-4).
        limit: the throws the start player used this round (followers; PIT-4).
        stripes_left, wiped, position, before: any table: every player's stripes and has-wiped
            flags (0/1) in turn order from this round's start player, my turn position (0 = the
            start player) and the counting throws of the players before me (None for one put
            out by 1-1-1 this round); :func:`table_situation_state`.
        my_stripes, my_wiped, their_stripes, their_wiped, role, best: the two-player form
            (:func:`advise_situation`; ``role`` ``"start"`` or ``"follower"``, ``best`` the
            start player's counting throw); the asking player sits in seat 0.

    Raises:
        InvalidStateError: both forms mixed, inputs missing, a situation no game reaches.
        InvalidDiceError: a throw that is not three dice 1..6.

    Example:
        >>> state = read_situation(Rules(stripes=3), current=(6, 5, 4), throw_number=1, stripes_left=[3, 2, 3],
        ...                        wiped=[0, 1, 0], position=0)
        >>> len(state.order), state.turn, state.throws
        (3, 0, 1)
    """
    table = [f"--{n.replace('_', '-')}" for n, v in zip(TABLE_INPUTS, (stripes_left, wiped, position, before or None))
             if v is not None]
    two = [f"--{n.replace('_', '-')}" for n, v in zip(TWO_PLAYER_INPUTS, (my_stripes, my_wiped or None, their_stripes,
                                                                         their_wiped or None, role, best))
           if v is not None]
    if table and two:
        raise InvalidStateError(f"use either the table options ({', '.join(table)}) or the two-player ones "
                                f"({', '.join(two)}), not both")
    if current is None or throw_number is None:
        raise InvalidStateError("give your throw (--throw) and the throws you have used (--throws-used)")
    if table:
        if stripes_left is None or position is None:
            raise InvalidStateError("a table needs --stripes-left (every player's stripes in turn order) and your "
                                    "--position (0 = the start player)")
        from dicemath.games.pitjesbak.rules import check_stripes
        from dicemath.games.pitjesbak.table_round import check_situation, round_graph

        flags = wiped_flags(wiped, len(stripes_left))
        table_rules = rules.with_players(len(stripes_left))      # checks 2..8 players (PIT-1)
        for pos, count in enumerate(stripes_left):
            check_stripes(count, f"stripes of position {pos}")
        check_situation(round_graph(len(stripes_left), table_rules), position, list(before or ()), limit,
                        throw_number, flags)
        return table_situation_state(rules.with_players(len(stripes_left)), stripes_left, flags, position,
                                     list(before or ()), limit, current, throw_number)
    missing = [f"--{name.replace('_', '-')}" for name, value in
               (("my_stripes", my_stripes), ("their_stripes", their_stripes), ("role", role)) if value is None]
    if missing:
        raise InvalidStateError(f"the two-player form needs {', '.join(missing)} (or describe the table with "
                                "--stripes-left and --position)")
    if my_stripes is None or their_stripes is None or role is None:   # refused just above
        raise InvalidStateError("the two-player form needs --my-stripes, --their-stripes and --role")
    from dicemath.games.pitjesbak.state import check_state

    rules = rules.with_players(2)
    dice, best, cap = _check_two_player(role, current, best, limit)
    check_throw_number(throw_number, cap)
    stripes, has_wiped = (my_stripes, their_stripes), (bool(my_wiped), bool(their_wiped))
    if role == "start":
        state = State(rules, stripes, has_wiped, (True, True), 0, (0, 1), throws=throw_number, current=dice)
    else:
        if best is None:                          # _check_two_player refuses a follower without it
            raise InvalidStateError("a follower must give the start player's counting throw (best)")
        if classify(best, rules).is_apen:
            raise InvalidStateError("after a counting 1-1-1 of the start player the follower does not throw (PIT-6)")
        state = State(rules, stripes, has_wiped, (True, True), 1, (1, 0), turn=1, limit=cap, throws=throw_number,
                      current=dice, results=(best,))
    check_state(state)
    return state


def wiped_flags(values: Sequence[int] | None, count: int, option: str = "--wiped") -> list[bool]:
    """Has-wiped flags from 0/1 numbers (default all 0)."""
    if values is None:
        return [False] * count
    if any(v not in (0, 1) for v in values):
        raise InvalidStateError(f"{option} takes 0 or 1 for each player, got {list(values)}")
    if len(values) != count:
        raise InvalidStateError(f"{option} needs one flag per player ({count}), got {len(values)}")
    return [bool(v) for v in values]


def situation_state(advice: StopOrThrow, rules: Rules) -> State:
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


def game_policy(solution: GameSolution) -> Callable[[State], str]:
    """The game-optimal decisions as a simulator policy for two-player states.

    Each stripes/flags situation's round (:meth:`.game_solver.GameSolution.round_at`) is solved once and kept.
    """
    rules = solution.rules
    space = class_space(rules)
    memo: dict = {}

    def decide(state: State) -> str:
        start, follower = state.order[0], state.order[1]
        key = (state.stripes[start], state.wiped[start], state.stripes[follower], state.wiped[follower])
        stops = memo.get(key)
        if stops is None:
            stops = memo[key] = (solution.round_at(*key).start_stops(), solution.round_at(*key).follower_stops())
        x = space.index(classify(state.current, rules))  # type: ignore[arg-type]
        if state.turn == 0:
            return STOP if stops[0][state.throws - 1, x] else THROW
        i = space.index(classify(state.results[0], rules))  # type: ignore[arg-type]
        left = state.limit - state.throws
        return STOP if stops[1][left - 1, i, x] else THROW
    return decide


# -- the policy card ----------------------------------------------------------------------

def describe_stops(stops: Sequence[bool] | NDArray[np.bool_], rules: Rules | None = None) -> str:
    """Words for a stop set over the classes, each named by its dice: "3-2-1 (105) or better",
    "always", ...

    Example:
        >>> space = class_space()
        >>> describe_stops([c.rank >= 105 for c in space.classes[:-1]] + [False])
        '3-2-1 (105) or better; 1-1-1: throw again'
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
            text = f"{space.classes[first].name} or better"
        else:
            runs = []
            c = 0
            while c < len(ranked):
                if ranked[c]:
                    end = c
                    while end + 1 < len(ranked) and ranked[end + 1]:
                        end += 1
                    lo, hi = space.classes[c].name, space.classes[end].name
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
                 f"follower {b}{' wiped' if fb else ''}; P(start wins game) = {self.start_win_probability:.4f}, exact)",
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
    solved_round = solution.round_at(*state)
    start = solved_round.start_stops()
    follower = solved_round.follower_stops()
    rows: list[list[str]] = []
    for i in reversed(range(space.apen)):
        texts = [_follower_text(follower[0, i], i, rules), _follower_text(follower[1, i], i, rules)]
        label = space.classes[i].name
        if rows and rows[-1][1:] == texts:
            rows[-1][0] = rows[-1][0].split(" .. ")[0] + " .. " + label
        else:
            rows.append([label] + texts)
    rows_t = tuple((r[0], r[1], r[2]) for r in rows)
    return PolicyCard(state, float(solved_round.value), (describe_stops(start[0], rules),
                                                   describe_stops(start[1], rules)), rows_t)


# -- the policy card at any table ---------------------------------------------------------

WEAK_BEST = (6, 2, 2)
"""The best throw so far that :func:`table_policy_card`'s thresholds face: 6-2-2 (score 64
with the traditional values), below every throw a player stops on for its own sake, so the
threshold is his own, not "beat it"."""

FOLLOWER_SITUATIONS = ((3, 1), (3, 2), (2, 1))
"""(limit, throws used) of a follower's decisions on the card: the first throw of three, the
second of three, the first of two."""


def _situation_key(limit: int, used: int) -> str:
    return f"limit_{limit}_after_throw_{used}"


def stop_threshold(stops: Sequence[bool] | NDArray[np.bool_], rules: Rules | None = None) -> str | None:
    """The weakest ranked class from which on a player stops on every stronger class too (his
    threshold: ``"score 108"`` for "score 108 or better"), None when he throws the strongest
    again.

    Example:
        >>> space = class_space()
        >>> stop_threshold([c.rank >= 105 for c in space.classes[:-1]] + [False])
        'score 105'
    """
    space = class_space(rules)                          # ranked classes weakest first, then 1-1-1
    bottom = None
    for c in range(space.apen - 1, -1, -1):
        if not stops[c]:
            break
        bottom = c
    return None if bottom is None else space.classes[bottom].label


def threshold_index(label: str | None, rules: Rules | None = None) -> int | None:
    """The strength of a threshold for plotting: how many ranked classes are weaker (0 = the
    weakest), None for no threshold."""
    if label is None:
        return None
    space = class_space(rules)
    return [c.label for c in space.classes[:space.apen]].index(label)


def _representatives(rules: Rules) -> dict[int, tuple[int, int, int]]:
    """One throw of each class (class-space index)."""
    space = class_space(rules)
    return {space.index(row.throw_class): row.throws[0] for row in class_rows(rules)}


@dataclass(frozen=True)
class TableCard:
    """A policy card at a table of n players: when to stop, by turn position.

    Attributes:
        players, stripes, wiped: the state (turn order from the start player).
        exact: True for a full solve, False for estimates (five to eight players).
        win_probabilities: P(each position wins the game) at this state.
        start_rules: when the start player stops after throw 1 and after throw 2.
        followers: for each position 1..n-1, rows ``(best, texts)``: a range of the best
            throw so far (held by one player before him, those between below it, no 2-2-3),
            and the stop set in each of :data:`FOLLOWER_SITUATIONS`.
        thresholds: for each position, the weakest throw he stops on (:func:`stop_threshold`)
            facing :data:`WEAK_BEST` (the start player: no best yet) after his first throw of
            three and with one throw of three left: ``(first, last)``.
    """

    players: int
    stripes: tuple[int, ...]
    wiped: tuple[bool, ...]
    exact: bool
    win_probabilities: tuple[float, ...]
    start_rules: tuple[str, str]
    followers: tuple[tuple[tuple[str, tuple[str, ...]], ...], ...]
    thresholds: tuple[tuple[str | None, str | None], ...]

    def as_dict(self) -> dict:
        """JSON-ready form with stable keys."""
        return {"players": self.players, "stripes": list(self.stripes), "wiped": list(self.wiped),
                "exact": self.exact, "win_probabilities": list(self.win_probabilities),
                "start_after_throw": {"1": self.start_rules[0], "2": self.start_rules[1]},
                "followers": [{"position": position,
                               "rows": [{"best": best, **{_situation_key(*k): t
                                                          for k, t in zip(FOLLOWER_SITUATIONS, texts)}}
                                        for best, texts in rows]}
                              for position, rows in enumerate(self.followers, start=1)],
                "thresholds": [{"position": position, "first_throw": first, "one_throw_left": last}
                               for position, (first, last) in enumerate(self.thresholds)]}

    def _head(self) -> str:
        flags = ", ".join(f"{a}{' (has wiped)' if f else ''}" for a, f in zip(self.stripes, self.wiped))
        values = " ".join(f"{p:.4f}" for p in self.win_probabilities)
        return (f"Pitjesbak policy card, {self.players} players (stripes in turn order: {flags}); "
                f"P(win the game) by turn position: {values}"
                + (" (exact)" if self.exact else " (estimates: see dicemath.games.pitjesbak.table_estimate)"))

    def text(self) -> str:
        """Plain-text card."""
        lines = [self._head(),
                 f"Position 0, the start player, after throw 1: {self.start_rules[0]}",
                 f"Position 0, the start player, after throw 2: {self.start_rules[1]}",
                 "Followers: stop when your throw is in the set, facing the best throw so far (held by one player "
                 "before you, everybody between you and him below it):"]
        for position, rows in enumerate(self.followers, start=1):
            after = self.players - 1 - position
            lines.append(f"Position {position} ({after} player{'' if after == 1 else 's'} after you):")
            for best, texts in rows:
                parts = "; ".join(f"limit {limit}, throw {used}: {t}" for (limit, used), t
                                  in zip(FOLLOWER_SITUATIONS, texts))
                lines.append(f"  vs {best}: {parts}")
        return "\n".join(lines)

    def markdown(self) -> str:
        """Markdown card."""
        parts = [self._head() + ".", "",
                 f"- **Start player, after throw 1:** {self.start_rules[0]}",
                 f"- **Start player, after throw 2:** {self.start_rules[1]}", ""]
        for position, rows in enumerate(self.followers, start=1):
            parts += [f"**Position {position}** (stop when the current throw is in the set):", "",
                      markdown_table(["best throw so far"] + [f"limit {limit}, after throw {used}"
                                                              for limit, used in FOLLOWER_SITUATIONS],
                                     [[best, *texts] for best, texts in rows], align="llll"), ""]
        return "\n".join(parts)

    def _repr_markdown_(self) -> str:
        return self.markdown()

    def __str__(self) -> str:
        return self.text()


def table_policy_card(stripes: Sequence[int] | None = None, wiped: Sequence[bool] | None = None, *,
                      rules: Rules | None = None, solution: TableValues | None = None) -> TableCard:
    """The game-optimal policy card at a table (default: the opening of ``rules.players``).

    Args:
        stripes, wiped: the players' stripes and has-wiped flags in turn order from the start
            player (default: the opening, PIT-1).
        rules: the rules without a ``solution`` (players, starting stripes, die values;
            ``players`` is taken from ``stripes`` when given).
        solution: a table solution (default the chain's, :func:`.sources.default_solution`: two
            players from :func:`.game_solver.solve_game`, three and four solved within the
            table solver's limit, else estimated).

    Raises:
        InvalidRulesError: fewer than 2 or more than 8 players.
        InvalidStateError: a state the rules cannot produce (see
            :meth:`.table_solver.TableValues.check`).

    Example:
        >>> from dicemath.games.pitjesbak.table_game import solve_table
        >>> card = table_policy_card(solution=solve_table(Rules(players=3, stripes=1), cap=2, use_cache=False))
        >>> card.start_rules[0].endswith("1-1-1: throw again"), len(card.followers)
        (True, 2)
    """
    base = solution.rules if solution is not None else (rules or STANDARD)
    n = len(stripes) if stripes is not None else base.players
    base = base.with_players(n)
    stripes = tuple(stripes) if stripes is not None else (base.stripes,) * n
    wiped = tuple(bool(w) for w in wiped) if wiped is not None else (False,) * n
    solution = solution or default_solution(base, stripes)
    answering = solution.solution_for(n)
    checked_stripes, checked_wiped = answering.check(stripes, wiped)
    solved = answering.round_at(checked_stripes, checked_wiped)
    rules = answering.rules
    space = class_space(rules)
    throw = _representatives(rules)
    start = [solved.stops(0, throws=t) for t in (1, 2)]
    weak = space.levels[space.index_of_throw(WEAK_BEST)]
    followers, thresholds = [], [(stop_threshold(start[0], rules), stop_threshold(start[1], rules))]
    for position in range(1, n):
        rows: list[list] = []
        for i in reversed(range(space.apen)):                # the strongest best first
            level = space.levels[i]
            below = [c for c in range(space.apen) if space.levels[c] < level and not space.classes[c].penalty]
            if position > 1 and not below:
                continue                                # nobody between can be below it
            before = [throw[i]] + [throw[below[-1]] if below else None] * (position - 1)
            texts = tuple(_follower_text(solved.stops(position, before=before, limit=limit, throws=used), i, rules)
                          for limit, used in FOLLOWER_SITUATIONS)
            label = space.classes[i].name
            if rows and rows[-1][1] == texts:
                rows[-1][0] = rows[-1][0].split(" .. ")[0] + " .. " + label
            else:
                rows.append([label, texts])
        followers.append(tuple((best, texts) for best, texts in rows))
        weak_below = [c for c in range(space.apen) if space.levels[c] < weak and not space.classes[c].penalty]
        weak_before = [WEAK_BEST] + [throw[weak_below[-1]]] * (position - 1)
        pair = [stop_threshold(solved.stops(position, before=weak_before, limit=3, throws=used), rules)
                for used in (1, 2)]
        thresholds.append((pair[0], pair[1]))
    return TableCard(n, checked_stripes, checked_wiped, answering.exact, tuple(float(v) for v in solved.values),
                     (describe_stops(start[0], rules), describe_stops(start[1], rules)), tuple(followers),
                     tuple(thresholds))
