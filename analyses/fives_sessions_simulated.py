"""Fives sessions simulated on the full board (issue 47): write
``analyses/data/fives_sessions_simulated.json`` (read by the report section ``sessions``,
:mod:`dicemath.games.pegs_fives.report_sessions`).

Sessions of 3 and 5 rounds at tables of 2, 3 and 4 players (FIVES-7: rest points add up over
the rounds, the lowest total after the last round wins, a tie for it shared, each of ``k``
tied players counting ``1/k``; the start player moves one seat on each round). Three kinds of
player, all on the distilled model's expected turns (:class:`.distilled.DistilledValue`):

* ``solo`` -- solo-optimal (the distilled model's one-turn lookahead, :class:`.advisor.Advisor`);
* ``round`` -- round-aware: race advice's turn-count model against the other boards, its
  objective the round's rest points (FIVES-6: the opponents' mean rest points minus his own),
  what ``fives advise --opponent`` maximises;
* ``session`` -- session-aware: the session model of
  :mod:`dicemath.games.pegs_fives.session_advice` (:class:`.session_advice.SessionLeaves`,
  its per-round law :func:`.session_advice.round_law`) against the other boards, the running
  totals and the rounds left: the mover's chance to win the session.

The simulated players use the models throughout (no exact race at the end of a round), the
round-aware and the session-aware alike. Each session is played several ways on the same dice
(every player's dice seeded by session, round and seat): one session-aware player among
round-aware players against the same table all round-aware, the same against solo-optimal
players, and the whole table session-aware against the whole table round-aware. The tested
seat turns with the session and the first start player with every ``players`` sessions, so
each seat meets each start order equally often and the seat's advantage cancels. Figures:
the tested seat's session win rate (paired difference), a leader's win rate before the last
round and the rest points a round (whole tables); 95% intervals by the normal approximation.
Estimates. The file is written after every table, so a run cut short keeps the tables played.

Usage::

    python analyses/fives_sessions_simulated.py --sessions 16 --table-sessions 8
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from dicemath.core.stats import Z95
from dicemath.games.pegs_fives.advisor import Advisor
from dicemath.games.pegs_fives.distilled import DistilledValue
from dicemath.games.pegs_fives.race_advice import race_turn_model
from dicemath.games.pegs_fives.race_solver import _RaceTurn
from dicemath.games.pegs_fives.rules import FIVES
from dicemath.games.pegs_fives.session_advice import SessionLeaves, round_law
from dicemath.games.pegs_fives.state import BoardTuple, play_turn, rest_points
from dicemath.games.pegs_fives.turn import open_rows_of

OUT = Path(__file__).resolve().parent / "data" / "fives_sessions_simulated.json"
"""Where the figures go."""

ROUNDS = (3, 5)
"""Rounds of a simulated session."""

PLAYERS = (2, 3, 4)
"""Players at a simulated table."""

TIE = 1e-12
"""A row worth the best within this (relative) counts as a best row."""

Choose = Callable[[BoardTuple, tuple, int, "int | None"], int]
"""A turn's policy: the row chosen given the board, the legal ``(row, hits)``, dice and throws."""


def first_best(order: Sequence[int], values: Sequence[float]) -> int:
    """The first index in ``order`` whose value no later one beats by more than :data:`TIE`.

    Example:
        >>> first_best([2, 0, 1], [0.5, 0.5, 0.2])
        0
    """
    best = order[0]
    for i in order[1:]:
        if values[i] > values[best] + TIE * (1 + abs(values[best])):
            best = i
    return best


def model_policy(model: _RaceTurn, end: Callable[[BoardTuple], float]) -> Choose:
    """The policy maximising a within-turn ``model``'s value (``end``: a turn ending on the
    board as it is), ties to the most hits, then the higher row (session advice's order)."""

    def choose(board: BoardTuple, legal: tuple, dice: int, throws: int | None) -> int:
        if len(legal) == 1:
            return legal[0][0]
        after = None if throws is None else throws - 1
        here = end(board)
        order = sorted(range(len(legal)), key=lambda i: (-legal[i][1], -legal[i][0]))
        values = []
        for row, hits in legal:
            stay, rest = model.race_option(board, row, hits, dice, after)
            values.append(float(stay * here + rest))
        return legal[first_best(order, values)][0]

    return choose


class SessionPlayers:
    """The policies of the simulated sessions (module docstring) at a table of ``players``."""

    def __init__(self, players: int) -> None:
        self.value = DistilledValue.load(FIVES)
        self.solo_policy = Advisor(FIVES).policy
        self.law = round_law(FIVES, tuple(range(1, FIVES.rows + 1)), players)

    def expected_turns(self, board: BoardTuple) -> float:
        return float(self.value(board)) if open_rows_of(board, FIVES.goal) else 0.0

    def policy(self, kind: str, others: Sequence[BoardTuple], totals: Sequence[int], rounds_after: int) -> Choose:
        """The policy of one turn of a ``kind`` player against ``others`` (their order after
        him), ``totals`` mover first in the same order, ``rounds_after`` rounds after this one."""
        if kind == "solo":
            return self.solo_policy
        if kind == "round":
            model = race_turn_model(FIVES, self.value, [(self.expected_turns(o), float(rest_points(o, FIVES.goal)))
                                                        for o in others])
            return model_policy(model, model.end)
        leaves = SessionLeaves(FIVES, others, totals, rounds_after, self.law, self.expected_turns)
        return model_policy(_RaceTurn(FIVES, leaves.end, leaves.restart, exact=False), leaves.end)


def session_shares(totals: Sequence[int]) -> list[float]:
    """Each seat's share of the session win: ``1/k`` to each of ``k`` seats tied for the lowest.

    Example:
        >>> session_shares([30, 12, 12])
        [0.0, 0.5, 0.5]
    """
    low = min(totals)
    k = sum(t == low for t in totals)
    return [1.0 / k if t == low else 0.0 for t in totals]


def play_session(players: SessionPlayers, kinds: Sequence[str], rounds: int, first_starter: int,
                 seed: str) -> tuple[list[int], list[int]]:
    """One session, seat ``i`` playing ``kinds[i]``; round ``r`` (from 0) started by seat
    ``(first_starter + r) % n`` (FIVES-7), each seat's dice ``random.Random(f"{seed}-{r}-{i}")``.

    Returns:
        ``(final totals by seat, totals before the last round by seat)``.
    """
    n, goal = len(kinds), FIVES.goal
    totals, before_last = [0] * n, [0] * n
    for r in range(rounds):
        before_last = list(totals)
        boards: list[BoardTuple] = [(0,) * FIVES.rows] * n
        dice = [random.Random(f"{seed}-{r}-{seat}") for seat in range(n)]
        starter = (first_starter + r) % n
        done = False
        for turn in range(10_000 * n):
            seat = (starter + turn) % n
            order = [(seat + k) % n for k in range(n)]
            policy = players.policy(kinds[seat], [boards[s] for s in order[1:]], [totals[s] for s in order],
                                    rounds - r - 1)
            boards[seat] = play_turn(FIVES, boards[seat], policy, dice[seat])
            if not open_rows_of(boards[seat], goal):
                done = True
                break
        if not done:
            raise RuntimeError("a round did not end")
        totals = [t + rest_points(b, goal) for t, b in zip(totals, boards)]
    return totals, before_last


def leader_share(final: Sequence[int], before_last: Sequence[int]) -> float:
    """A leader's win rate: the mean session share of the seats with the lowest total before
    the last round.

    Example:
        >>> leader_share([20, 25, 30], [10, 10, 15])
        0.5
    """
    shares = session_shares(final)
    low = min(before_last)
    leaders = [i for i, t in enumerate(before_last) if t == low]
    return float(np.mean([shares[i] for i in leaders]))


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """The mean and its 95% half-width (normal approximation; nan for one value)."""
    a = np.asarray(values, dtype=np.float64)
    return float(a.mean()), float(Z95 * a.std(ddof=1) / math.sqrt(len(a))) if len(a) > 1 else float("nan")


def paired(test: Sequence[float], base: Sequence[float]) -> dict:
    """Mean and 95% half-width of ``test``, of ``base`` and of their paired difference."""
    t, b = mean_ci(test), mean_ci(base)
    d = mean_ci([x - y for x, y in zip(test, base)])
    return {"test": t[0], "test_ci95": t[1], "base": b[0], "base_ci95": b[1], "difference": d[0],
            "difference_ci95": d[1], "sessions": len(test)}


def run_table(players: int, rounds: int, sessions: int, table_sessions: int, seed: int) -> dict:
    """Every measure of one table size and session length (module docstring)."""
    start = time.process_time()
    table = SessionPlayers(players)
    one: dict[str, tuple[list[float], list[float]]] = {"round": ([], []), "solo": ([], [])}
    whole: dict[str, tuple[list[float], list[float]]] = {"leader": ([], []), "rest_points": ([], [])}
    for g in range(sessions):
        seat, first = g % players, (g // players) % players
        key = f"{seed}-{players}-{rounds}-{g}"
        for others in ("round", "solo"):
            base, base_before = play_session(table, [others] * players, rounds, first, key)
            kinds = [others] * players
            kinds[seat] = "session"
            test = play_session(table, kinds, rounds, first, key)[0]
            one[others][0].append(session_shares(test)[seat])
            one[others][1].append(session_shares(base)[seat])
            if others == "round" and g < table_sessions:
                final, before = play_session(table, ["session"] * players, rounds, first, key)
                whole["leader"][0].append(leader_share(final, before))
                whole["leader"][1].append(leader_share(base, base_before))
                whole["rest_points"][0].append(sum(final) / (players * rounds))
                whole["rest_points"][1].append(sum(base) / (players * rounds))
    entry = {"players": players, "rounds": rounds, "sessions": sessions,
             "table_sessions": min(sessions, table_sessions),
             "one_session_vs_round": paired(*one["round"]), "one_session_vs_solo": paired(*one["solo"]),
             "whole_table_leader_wins": paired(*whole["leader"]),
             "whole_table_rest_points": paired(*whole["rest_points"]),
             "cpu_seconds": time.process_time() - start}
    print(json.dumps(entry), flush=True)
    return entry


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=16, help="sessions with one session-aware player per table")
    parser.add_argument("--table-sessions", type=int, default=8,
                        help="of those, sessions also played by a whole table playing for the session")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    start = time.process_time()
    result = {"kind": "simulated (estimates, 95% intervals, normal approximation, paired on the same dice)",
              "seed": args.seed, "score": "the tested seat's session win (a tie for the lowest total shared)",
              "session": "the session model (SessionLeaves) on the distilled model's expected turns",
              "round": "race advice's turn-count model, the round's rest points (FIVES-6)",
              "solo": "the distilled model's one-turn lookahead",
              "leader": "the mean session win of the seats with the lowest total before the last round",
              "cpu": "AMD EPYC, 2 vCPUs shared (loaded)", "tables": []}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    for rounds in ROUNDS:
        for players in PLAYERS:
            result["tables"].append(run_table(players, rounds, args.sessions, args.table_sessions, args.seed))
            result["cpu_seconds"] = time.process_time() - start
            args.out.write_text(json.dumps(result, indent=1) + "\n")


if __name__ == "__main__":
    main()
