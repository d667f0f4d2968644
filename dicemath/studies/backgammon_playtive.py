"""The Playtive rule measured: BG-4's 5-checker limit by paired self-play.

Game ``i`` of the study is played twice from the same dice seed, once under ``playtive``
and once under the standard rules (:mod:`.backgammon_selfplay`; both sides play the evaluator's best
legal play). The two games see the same dice until they part, so the differences between
the presets are measured on pairs, with smaller errors than two independent samples.

The study runs in chunks of games (:func:`run_chunk`), saved as ``.npz`` files so a run
can be interrupted and extended; :func:`summarize` reads every chunk and gives the
findings with 95% confidence intervals (normal approximation; for proportions and paired
differences of per-game values, ``mean +- 1.96 sd / sqrt(n)``).

Also here: :func:`opening_changes` (the opening rolls whose best play differs between the
presets) and :func:`confirm_positions` (the binding check of sampled positions at a
deeper ply).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from dicemath.games.backgammon.position import Position
from dicemath.games.backgammon.rules import PLAYTIVE, STANDARD
from dicemath.games.backgammon.moves import roll_results
from dicemath.studies import DATA
from dicemath.studies.backgammon_selfplay import self_play_game

SEED = 20_240_412
"""Base seed of the study: game ``i`` uses ``numpy.random.default_rng([SEED, i])``."""

SAMPLED_GAMES = 2_000
"""Games ``0 .. SAMPLED_GAMES - 1`` each record one position (a random turn 1..40) of both
presets, for the cube and move comparisons with gnubg and the deeper-ply confirmation."""

Z95 = 1.959963984540054
"""The two-sided 95% normal quantile."""


def sample_turn(game: int) -> int:
    """The turn recorded from game ``game`` (1..40; none if the game is shorter)."""
    return int(np.random.default_rng([SEED, game, 1]).integers(1, 41))


def run_chunk(first: int, count: int, ply: int = 0) -> dict[str, np.ndarray]:
    """Play games ``first .. first + count - 1`` under both presets.

    Returns:
        Arrays (``p_`` playtive, ``s_`` standard): ``game``, ``{p,s}_starter_won``,
        ``{p,s}_points``, ``{p,s}_turns``, ``p_binds``, ``cost_game`` / ``cost`` (one entry
        per binding turn), and the sampled positions ``{p,s}_sample`` (strings
        ``"ID player d1 d2"``, ``""`` when the game was shorter).
    """
    columns: dict[str, list] = {key: [] for key in (
        "game", "p_starter_won", "p_points", "p_turns", "p_binds", "s_starter_won", "s_points",
        "s_turns", "cost_game", "cost", "p_sample", "s_sample")}
    for game in range(first, first + count):
        wanted = frozenset({sample_turn(game)}) if game < SAMPLED_GAMES else frozenset()
        columns["game"].append(game)
        for prefix, rules in (("p", PLAYTIVE), ("s", STANDARD)):
            played = self_play_game(np.random.default_rng([SEED, game]), rules, ply, wanted)
            columns[f"{prefix}_starter_won"].append(played.starter_won)
            columns[f"{prefix}_points"].append(played.points)
            columns[f"{prefix}_turns"].append(played.turns)
            columns[f"{prefix}_sample"].append(" ".join(map(str, played.samples[0])) if played.samples else "")
            if prefix == "p":
                columns["p_binds"].append(played.binds)
                columns["cost_game"].extend([game] * len(played.costs))
                columns["cost"].extend(played.costs)
    return {key: np.array(values, dtype=str if key.endswith("sample") else None)
            for key, values in columns.items()}


def chunk_path(folder: Path, first: int, count: int, ply: int) -> Path:
    """File of one chunk: ``ply{ply}_{first:06d}_{count}.npz``."""
    return Path(folder) / f"ply{ply}_{first:06d}_{count}.npz"


def load_chunks(folder: Path, ply: int = 0) -> dict[str, np.ndarray]:
    """All chunks of ``ply`` in ``folder`` joined, in game order (duplicates of a game dropped)."""
    parts = [dict(np.load(path)) for path in sorted(Path(folder).glob(f"ply{ply}_*.npz"))]
    if not parts:
        return {}
    joined = {key: np.concatenate([part[key] for part in parts]) for key in parts[0]}
    games, first = np.unique(joined["game"], return_index=True)
    per_game = {key: value[first] for key, value in joined.items() if not key.startswith("cost")}
    keep = np.isin(joined["cost_game"], games)
    per_game["cost_game"], per_game["cost"] = joined["cost_game"][keep], joined["cost"][keep]
    return per_game


def _mean_ci(values) -> dict:
    values = np.asarray(values, dtype=float)
    mean = float(values.mean())
    half = Z95 * float(values.std(ddof=1)) / np.sqrt(len(values)) if len(values) > 1 else float("nan")
    return {"value": mean, "low": mean - half, "high": mean + half}


def summarize(data: dict[str, np.ndarray]) -> dict:
    """The findings of the study (every rate with its 95% confidence interval).

    Returns:
        JSON-ready dict: ``games``, ``turns`` (playtive turns played), ``binds_per_move``,
        ``games_with_binds`` (fraction of games in which the limit binds at least once),
        ``binds_per_game``, ``cost`` (mean, median, quantiles, max and a histogram of the
        equity the limit costs when it binds; ``negative``: how often the best playtive play,
        one that the standard rules forbid because it uses fewer dice, beats every standard
        play), and per preset and their paired difference:
        ``starter_wins``, ``gammons`` (gammons and backgammons per game), ``backgammons``,
        ``starter_equity`` (points per game for the starter), ``plays_per_game``.
    """
    games = len(data["game"])
    turns = int(data["p_turns"].sum())
    binds = data["p_binds"]
    cost = data["cost"]
    result = {
        "games": games,
        "turns": turns,
        "binds": int(binds.sum()),
        "binds_per_move": _proportion(int(binds.sum()), turns),
        "games_with_binds": _mean_ci(binds > 0),
        "binds_per_game": _mean_ci(binds),
    }
    if len(cost):
        edges = np.array([-3.0, 0, 0.005, 0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 3.0])
        counts, _ = np.histogram(cost, bins=edges)
        result["cost"] = {
            "mean": _mean_ci(cost), "median": float(np.median(cost)),
            "quantiles": {str(q): float(np.quantile(cost, q)) for q in (0.1, 0.25, 0.75, 0.9, 0.99)},
            "max": float(cost.max()), "negative": int((cost < 0).sum()),
            "histogram": {"edges": edges.tolist(), "counts": counts.tolist()},
            "per_game": _mean_ci(np.bincount(np.searchsorted(data["game"], data["cost_game"]),
                                             weights=cost, minlength=games)),
        }
    for name, per_game in (
            ("starter_wins", lambda p: data[f"{p}_starter_won"].astype(float)),
            ("gammons", lambda p: (data[f"{p}_points"] >= 2).astype(float)),
            ("backgammons", lambda p: (data[f"{p}_points"] == 3).astype(float)),
            ("starter_equity", lambda p: np.where(data[f"{p}_starter_won"], 1, -1) * data[f"{p}_points"]),
            ("plays_per_game", lambda p: data[f"{p}_turns"].astype(float))):
        playtive, standard = per_game("p"), per_game("s")
        result[name] = {"playtive": _mean_ci(playtive), "standard": _mean_ci(standard),
                        "difference": _mean_ci(playtive - standard)}
    return result


def _proportion(successes: int, trials: int) -> dict:
    p = successes / trials
    half = Z95 * np.sqrt(p * (1 - p) / trials)
    return {"value": p, "low": p - half, "high": p + half}


def opening_changes(ply: int = 0) -> list[dict]:
    """Best opening play of each non-double roll under both presets (BG-2: doubles cannot
    open), and whether it changes.

    Returns:
        One dict per roll: ``roll``, ``standard`` and ``playtive`` (best play in notation),
        their equities, ``changes``.
    """
    from dicemath.games.backgammon.hint import hint

    rows = []
    start = Position.initial()
    for high in range(2, 7):
        for low in range(1, high):
            best = {rules.name: hint(rules, start, (high, low), ply)[0] for rules in (STANDARD, PLAYTIVE)}
            rows.append({"roll": f"{high}-{low}", "standard": best["standard"].move,
                         "standard_equity": best["standard"].equity, "playtive": best["playtive"].move,
                         "playtive_equity": best["playtive"].equity,
                         "changes": best["standard"].move != best["playtive"].move})
    return rows


def confirm_positions(samples, ply: int) -> dict:
    """The binding check of sampled playtive positions at ``ply`` and at 0 ply.

    For each position and roll: the standard and the playtive plays are ranked together
    by :func:`~dicemath.games.backgammon.hint.rank_results` (gnubg's pruning; every position as one of the playtive
    game); the limit binds if the first standard play is not a playtive play. Positions in
    which every standard play is also a playtive play cannot bind and are only counted.

    Args:
        samples: strings ``"ID player d1 d2"`` (:func:`run_chunk`'s ``p_sample``).
        ply: the deeper look-ahead.

    Returns:
        ``positions``, ``contested`` (a standard play is illegal under BG-4), ``binds`` (at
        ``ply``), ``binds_0ply``, ``both``, ``costs`` and ``costs_0ply`` (where it binds).
    """
    from dicemath.games.backgammon.hint import rank_results

    found: dict[str, Any] = {"positions": 0, "contested": 0, "binds": 0, "binds_0ply": 0, "both": 0, "costs": [],
                             "costs_0ply": []}
    for text in samples:
        if not text:
            continue
        position_id, _, first, second = text.split()
        position = Position.from_position_id(position_id)
        found["positions"] += 1
        movers, opponents = roll_results(PLAYTIVE, position.on_roll, position.opponent, int(first), int(second))
        legal = {(m.tobytes(), o.tobytes()) for m, o in zip(movers, opponents)}
        std_movers, std_opponents = roll_results(STANDARD, position.on_roll, position.opponent, int(first), int(second))
        outside = [i for i, (m, o) in enumerate(zip(std_movers, std_opponents))
                   if (m.tobytes(), o.tobytes()) not in legal]
        if not outside:
            continue
        found["contested"] += 1
        union_movers = np.concatenate([movers, std_movers[outside]])
        union_opponents = np.concatenate([opponents, std_opponents[outside]])
        is_standard = np.array([(m.tobytes(), o.tobytes()) in
                                {(a.tobytes(), b.tobytes()) for a, b in zip(std_movers, std_opponents)}
                                for m, o in zip(union_movers, union_opponents)])
        binds: dict[int, float | None] = {}
        for depth in sorted({0, ply}):
            _, equities, reached, _ = rank_results(PLAYTIVE, union_movers, union_opponents, depth)
            order = sorted(range(len(equities)), key=lambda i: (-reached[i], -equities[i]))
            best_standard = next(i for i in order if is_standard[i])
            best_playtive = next(i for i in order if i < len(movers))
            binds[depth] = (float(equities[best_standard] - equities[best_playtive])
                            if best_standard >= len(movers) else None)
        for depth, key, costs in ((ply, "binds", "costs"), (0, "binds_0ply", "costs_0ply")):
            if binds[depth] is not None:
                found[key] += 1
                found[costs].append(binds[depth])
        found["both"] += binds[ply] is not None and binds[0] is not None
    return found


DATA_FILE = DATA / "playtive_study.json"
"""The committed findings that the report reads (written by ``analyses/backgammon_playtive.py``)."""


def load_findings(path: Path = DATA_FILE) -> dict:
    """The committed findings (see :data:`DATA_FILE`)."""
    return json.loads(Path(path).read_text())
