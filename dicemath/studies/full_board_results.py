"""The committed results of the full-board analyses (``data/full_board_results.json``).

``analyses/pegs_fives_full_board.py`` evaluates policies on the full tables and writes
what it finds here, one game at a time; the report section ``full_board`` and the notebook
``full_board.ipynb`` read it (they never build a full table). Per game (``"fives"``,
``"pegs"``) the file holds the records of the script's steps:

* ``board`` -- the open rows and the number of boards;
* ``optimal`` -- the optimal table: expected turns from the empty board, its build cost;
* ``first_throws`` -- every choice throw of the game's first turn with every legal row's
  exact expected turns (:func:`first_throw_table`);
* ``turns`` -- the distribution of the number of turns under optimal play (simulation: an
  estimate, with its standard error);
* ``policy_<name>`` -- a policy evaluated exactly over every board (``greedy``,
  ``safe_greedy``, and the lookaheads ``fitted`` and ``distilled``): expected turns from the
  empty board, mean and largest gap to the optimum over all boards, the sweep's cost;
* ``model_<name>`` -- a board-value estimate (the fitted value, the distilled model)
  against the optimal table over all boards: RMS and largest error.

Values are float64 read from float32 tables (at most about 1.5e-6 from float64 storage).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

from dicemath.core.dice import multiset_counts
from dicemath.games.pegs_fives.advisor import Advisor
from dicemath.games.pegs_fives.rules import Rules
from dicemath.studies import DATA

RESULTS = DATA / "full_board_results.json"


def read_results(path: Path = RESULTS) -> dict:
    """The results file (an empty record when it does not exist yet)."""
    return json.loads(path.read_text()) if path.exists() else {"games": {}}


def update_results(game: str, key: str, record, path: Path = RESULTS) -> dict:
    """Set ``results["games"][game][key] = record`` and rewrite the file atomically."""
    results = read_results(path)
    results.setdefault("games", {}).setdefault(game, {})[key] = record
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    with os.fdopen(handle, "w") as stream:
        json.dump(results, stream, indent=1)
        stream.write("\n")
    os.chmod(temporary, 0o644)
    os.replace(temporary, path)
    return results


def first_throw_table(rules: Rules, advisor: Advisor, board: Sequence[int] | None = None) -> list[dict]:
    """Every choice throw of all the dice on ``board`` (default: the empty board, the first
    throw of the game) with its probability and every legal row ranked by ``advisor``.

    With a table's values as the advisor's board value
    (:class:`dicemath.games.pegs_fives.fullboard.simulate.TableValue`) the ranking is optimal
    play and the numbers are exact expected turns still needed after this turn (float64).

    Returns:
        One dict per throw (increasing faces): ``throw`` (faces), ``probability``,
        ``options`` (``[row, hits, expected turns after this turn, P(no progress)]`` best
        first; empty when no row is legal), ``best`` and ``greedy`` (the row greedy names:
        most hits, ties to the higher row; None without a legal row).
    """
    board = tuple(board) if board is not None else (0,) * rules.rows
    table = []
    for counts, weight in multiset_counts(rules.dice):
        throw = tuple(face for face, count in enumerate(counts, 1) for _ in range(count))
        ranked = advisor.rank(board, throw)
        greedy = max(ranked, key=lambda a: (a.hits, a.row)).row if ranked else None
        table.append({"throw": list(throw), "probability": weight / 6 ** rules.dice,
                      "options": [[a.row, a.hits, a.expected_turns, a.p_no_progress] for a in ranked],
                      "best": ranked[0].row if ranked else None, "greedy": greedy})
    table.sort(key=lambda entry: entry["throw"])
    return table
