"""Compiled full-board race games (C built at install: ``_race_simulation_c.c``): the
approximate race policy of :mod:`.race_advice` against solo-optimal play by the distilled
model's lookahead (the advisor ``pegs advise`` / ``fives advise`` use without a table), seeded,
for the head-to-head figures of ``analyses/pegs_fives_race.py``.

The game is played by the C statement of the turn (``_turn_c.h``, PEGS-3..9, FIVES-2..5;
the Python engine's :func:`.state.after_hits` / :func:`.state.miss` state the same rules for
the exact solvers) with thrown dice; board values ``E`` are the distilled model's
(``_distilled_c.h``, the one compiled statement of :class:`.distilled.DistilledValue`). The
policies' tables come from the engine here: the within-turn cycle coefficients
(:func:`.race_solver.cycle_coefficients`), the throws of a choice throw grouped
(:func:`.fullboard.pegs_kernel.throw_groups`) and the turn-count laws of
:class:`.race_advice.TurnLaws`. A row choice scores each legal row by the within-turn model on
leaf values, the chosen row the highest (the solo leaves are ``-E``, ``-(E - 1)`` for a fresh
start; the race leaves those of :class:`.race_advice.RaceLeaves`). Among equal values the
first of the throw-group order wins (most hits, then the higher row), as in the Python
advisors. The C file's comment is the reference of the arithmetic.

The dice are the draws of numpy's legacy generator, ``np.random.seed(seed)`` and then
``np.random.randint(1, 7)`` per die (the Mersenne Twister numba's ``np.random`` runs too).
"""

from __future__ import annotations

import time

import numpy as np

from dicemath.games.pegs_fives import _race_simulation_c  # type: ignore[attr-defined]  # C extension, no stubs
from dicemath.games.pegs_fives.rules import Rules

_TABLES: dict[Rules, tuple[np.ndarray, ...]] = {}


def rule_points(rules: Rules) -> np.ndarray:
    """The rule points as the compiled games read them (int32; ``_turn_c.h``'s and the
    scoring): rows, goal, dice, throws
    (0: no limit), overthrow, all_dice_first, fresh_budget_on_all_dice, fresh dice on
    completion, first out wins (else rest points), then the dice per hit of each row."""
    return np.array([rules.rows, rules.goal, rules.dice, rules.throws or 0, rules.overthrow, rules.all_dice_first,
                     rules.fresh_budget_on_all_dice, rules.on_complete == "fresh", rules.scoring == "first_out",
                     *rules.dice_per_hit], np.int32)


def simulation_tables(rules: Rules) -> tuple[np.ndarray, ...]:
    """The constant tables of the compiled games for ``rules``, in the order the C file reads
    them (cached per process)."""
    if rules in _TABLES:
        return _TABLES[rules]
    from dicemath.games.pegs_fives.distilled import DistilledValue
    from dicemath.games.pegs_fives.fullboard.pegs_kernel import throw_groups
    from dicemath.games.pegs_fives.race_advice import GRID_MAX, GRID_STEP, turn_laws
    from dicemath.games.pegs_fives.race_solver import cycle_coefficients

    rows = tuple(range(1, rules.rows + 1))
    coef = np.ascontiguousarray(cycle_coefficients(rules, rows), dtype=np.float64)
    groups = throw_groups(rules, rows)
    laws = turn_laws(rules)
    support = laws.pmf > 1e-15
    lo = np.argmax(support, axis=1)
    hi = laws.pmf.shape[1] - np.argmax(support[:, ::-1], axis=1)
    tables = (rule_points(rules), np.array(coef.shape, np.int64), coef,
              *(groups[name] for name in ("group_start", "group_p", "entry_start", "entry_row", "entry_hits")),
              *DistilledValue.load(rules).compiled, laws.pmf, laws.rest, lo, hi, laws.survival, laws.rest,
              np.array([GRID_STEP, GRID_MAX]))
    dtypes = (np.int32, np.int64, np.float64, np.int64, np.float64, np.int64, np.int64, np.int64, None, None, None,
              None, None, None, None, None, None, np.float64, np.float64, np.int64, np.int64, np.float64,
              np.float64, np.float64)
    tables = tuple(t if d is None else np.ascontiguousarray(t, dtype=d) for t, d in zip(tables, dtypes))
    _TABLES[rules] = tables
    return tables


def simulate(rules: Rules, kinds: tuple[int, int], games: int, seed: int) -> tuple[np.ndarray, dict]:
    """Play ``games`` seeded races of ``kinds[0]`` (player A) against ``kinds[1]`` (B; 1 race, 0
    solo), A moving first in even games: ``out[g] = (winner, rest A, rest B, turns of A, turns
    of B)`` (int64) and timing (``choices``: choice throws with two or more legal rows)."""
    tables = simulation_tables(rules)
    out = np.zeros((games, 5), np.int64)
    stats = np.zeros(1, np.int64)
    cpu, wall = time.process_time(), time.perf_counter()
    _race_simulation_c.play_games(games, seed, kinds[0], kinds[1], *tables, out, stats)
    return out, {"wall_seconds": time.perf_counter() - wall, "cpu_seconds": time.process_time() - cpu,
                 "choices": int(stats[0])}
