"""The Pitjesbak solutions shipped with the package, solved afresh and written to
``dicemath/games/pitjesbak/data/solutions.npz`` (read by :mod:`dicemath.games.pitjesbak.shipped`).

For the presets (:data:`~dicemath.games.pitjesbak.rules.STANDARD`,
:data:`~dicemath.games.pitjesbak.rules.PIPS`: 9 stripes, either die values), with the
parameters the game's chain of sources solves with (the solvers' defaults):

* the two-player game solution (:func:`~dicemath.games.pitjesbak.game_solver.solve_game`, cap
  17) with its comparison of policies (the two-player advice and the report), and without it at
  the cap of a larger table's subgame after eliminations
  (:func:`~dicemath.games.pitjesbak.table_solver.two_player_cap`, 17 too);
* the table solutions of three and four players
  (:func:`~dicemath.games.pitjesbak.table_solver.solve_table`, cap 11).

Each is solved with ``use_cache=False`` (a fresh solve: not the shipped file, not the user's
cache) and written under its cache entry's name and parameters with its solver's format version.
Run it again whenever one of those versions changes. About a minute and a half of CPU (the
four-player solves; ``--players 3`` leaves them out, for a quick check).

Usage::

    python analyses/pitjesbak_shipped_solutions.py [--players 3 4]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from dicemath.games.pitjesbak.game_solver import DEFAULT_EXTRA, GAME_SOLUTION_FORMAT, solve_game
from dicemath.games.pitjesbak.rules import PIPS, STANDARD, Rules
from dicemath.games.pitjesbak.shipped import SHIPPED, Entry, write_shipped
from dicemath.games.pitjesbak.table_solver import SOLUTION_FORMAT, solve_table, table_cap, two_player_cap

GAME_TOLERANCE, GAME_SWEEPS = 1e-14, 200
"""The game solver's defaults (:func:`~dicemath.games.pitjesbak.game_solver.solve_game`)."""

TABLE_TOLERANCE, TABLE_SWEEPS = 1e-12, 100
"""The table solver's defaults (:func:`~dicemath.games.pitjesbak.table_solver.solve_table`)."""


def game_entries(rules: Rules) -> list[Entry]:
    """The two-player game solutions of ``rules``, with and without the comparison."""
    entries: list[Entry] = []
    for compare, cap in ((True, rules.stripes + DEFAULT_EXTRA), (False, two_player_cap(rules, table_cap(rules)))):
        solution = solve_game(rules, cap=cap, tol=GAME_TOLERANCE, max_sweeps=GAME_SWEEPS, use_cache=False,
                              compare=compare)
        arrays = {"low": solution.low, "high": solution.high, "sweeps": np.array(solution.sweeps)}
        if compare:
            rvo, rso, rvr = (solution.comparison[key] for key in
                             ("round_vs_optimal", "round_second_vs_optimal", "round_vs_round"))
            arrays.update(round_vs_optimal=np.array([*rvo, *rso]), round_vs_round=np.array(rvr))
        entries.append(("pitjesbak-game", (rules.with_players(2), cap, GAME_TOLERANCE, GAME_SWEEPS, compare),
                        GAME_SOLUTION_FORMAT, arrays))
    return entries


def table_entry(rules: Rules) -> Entry:
    """The table solution of ``rules`` (its players, the default cap)."""
    cap = table_cap(rules)
    solution = solve_table(rules, cap=cap, tol=TABLE_TOLERANCE, max_sweeps=TABLE_SWEEPS, use_cache=False)
    return ("pitjesbak-table-solution", (rules, cap, TABLE_TOLERANCE, TABLE_SWEEPS), SOLUTION_FORMAT,
            {"values": solution.values, "sweeps": np.array(solution.sweeps),
             "residual": np.array(solution.residual), "seconds": np.array(solution.seconds)})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, nargs="+", default=[3, 4], choices=(3, 4),
                        help="the table sizes to ship (default 3 4)")
    args = parser.parse_args()
    entries: list[Entry] = []
    for preset in (STANDARD, PIPS):
        start = time.perf_counter()
        entries += game_entries(preset)
        print(f"{preset.die_values}: two-player game solutions, {time.perf_counter() - start:.1f} s")
        for players in args.players:
            start = time.perf_counter()
            entries.append(table_entry(preset.with_players(players)))
            print(f"{preset.die_values}: table of {players}, {time.perf_counter() - start:.1f} s")
    size = write_shipped(entries)
    print(f"wrote {SHIPPED} ({size / 1e6:.2f} MB, {len(entries)} solutions)")


if __name__ == "__main__":
    main()
