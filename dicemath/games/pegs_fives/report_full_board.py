"""Report section ``full_board``: Pegs and Fives solved on the full 12-row board.

Computes nothing heavy: it reads the committed results of
``analyses/pegs_fives_full_board.py`` (:mod:`dicemath.studies.full_board_results`), so it
renders in a second on a fresh clone without the 8.7 GB tables. A game whose results are not committed
yet shows "not yet built". Every conclusion is read off the numbers.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

from dicemath.reporting.context import study_file
from dicemath.core.markdown import markdown_table
from dicemath.reporting.context import ReportContext

GAMES = ("fives", "pegs")
"""The games of the section, in order."""

POLICIES = (("greedy", "greedy (most hits, ties to the higher row)"),
            ("safe_greedy", "safe greedy"),
            ("fitted", "the fitted advisor (one-turn lookahead on the fitted value)"),
            ("distilled", "the distilled model (one-turn lookahead on its values)"))
"""The evaluated policies: results key suffix and label."""


@dataclass(frozen=True)
class FullBoardReport:
    """The section's numbers: per game, the committed record (empty when not built)."""

    games: dict


def compute(context: ReportContext) -> FullBoardReport:
    """Read the committed results."""
    path = study_file("full_board_results.json")
    results = (json.loads(path.read_text()) if path.exists() else {}).get("games", {})
    return FullBoardReport({game: results.get(game, {}) for game in GAMES})


def policy_rows(record: dict) -> list[dict]:
    """Each evaluated policy with its exact expected turns from the empty board and its gap
    to the optimum (optimal first), in the order of :data:`POLICIES`."""
    best = record["optimal"]["expected_turns"]
    rows = [{"key": "optimal", "label": "optimal play", "expected_turns": best, "gap": 0.0,
             "mean_relative_gap": 0.0}]
    for key, label in POLICIES:
        found = record.get(f"policy_{key}")
        if found is not None:
            turns = found["expected_turns"]
            turns = float("inf") if turns is None else turns           # the policy never finishes
            rows.append({"key": key, "label": label, "expected_turns": turns, "gap": turns / best - 1.0,
                         "mean_relative_gap": found.get("mean_relative_gap"),      # None: no table to compare
                         "never_finishes_boards": found.get("never_finishes_boards", 0),
                         "trap_boards": found.get("trap_boards", []),
                         "escape_traps": found.get("escape_traps", True),
                         "plain_lookahead": found.get("plain_lookahead")})
    return rows


def first_throws_by_row(first_throws: list[dict]) -> list[tuple[int | None, list[dict]]]:
    """The first throws grouped by their optimal row (rows in increasing order, throws
    without a legal row last)."""
    groups: dict = {}
    for entry in first_throws:
        groups.setdefault(entry["best"], []).append(entry)
    return sorted(groups.items(), key=lambda item: (item[0] is None, item[0] or 0))


def turns_summary(turns: dict) -> dict:
    """Mean, standard error and quantiles of the simulated number of turns."""
    values = np.array([int(t) for t in turns["counts"]])
    counts = np.array(list(turns["counts"].values()))
    cumulative = np.cumsum(counts) / counts.sum()
    quantile = {q: int(values[np.searchsorted(cumulative, q)]) for q in (0.1, 0.5, 0.9)}
    return {"mean": turns["mean"], "standard_error": turns["standard_error"], "games": turns["games"],
            "quantiles": quantile, "values": values, "counts": counts}


def _turns_text(row: dict) -> str:
    return f"{row['expected_turns']:.4f}" if np.isfinite(row["expected_turns"]) else "infinite (never finishes)"


def _game_title(game: str) -> str:
    return game.capitalize()


def _policy_section(game: str, record: dict, context: ReportContext) -> list[str]:
    rows = policy_rows(record)
    lines = [f"### {_game_title(game)}: policies evaluated exactly", "",
             "Each policy's expected turns from the empty board come from one more sweep over every "
             "board with the policy fixed (the kernel's policy evaluation), not from simulation (a policy "
             "that can lose a game forever is infinite, proved below); "
             "`mean gap` is the policy's value over the optimum's, minus 1, averaged over every board.", ""]
    lines.append(markdown_table(["policy", "expected turns", "gap from the empty board", "mean gap over all boards"],
                                [[r["label"], _turns_text(r), f"{100 * r['gap']:+.2f}%" if np.isfinite(r["gap"]) else
                                  "infinite", "not measured" if r["mean_relative_gap"] is None else
                                  f"{100 * r['mean_relative_gap']:+.2f}%"] for r in rows]))
    for r in rows:
        if r.get("never_finishes_boards"):
            over = "" if r["mean_relative_gap"] is None else " and the mean gap is over the other boards"
            lines += ["", f"{r['label'].capitalize()} never finishes from {r['never_finishes_boards']:,} boards "
                      f"(it names a row that overshoots on every throw, PEGS-6, or reaches such a board); their "
                      f"value is infinite{over}."]
            if r["trap_boards"]:
                lines[-1] += (" It stays forever on boards such as " +
                              ", ".join(f"`{','.join(map(str, b))}`" for b in r["trap_boards"]) +
                              ", proved by enumerating the throws.")
                if not r["escape_traps"]:
                    lines[-1] += (" This is its plain lookahead: the advisor itself finds such a board exactly "
                                  "and values it there by its own equation instead (`Advisor.start_value`), "
                                  "so that its play leaves it.")
        plain = r.get("plain_lookahead")
        if plain and plain.get("never_finishes_boards") and np.isfinite(r["expected_turns"]):
            lines += ["", f"{r['label'].capitalize()} finishes from every board because it escapes the traps of "
                      "its value: its plain lookahead, the same ranking without that escape, never finishes from "
                      f"{plain['never_finishes_boards']:,} boards (it names a row that overshoots on every throw, "
                      "PEGS-6, on boards such as " +
                      ", ".join(f"`{','.join(map(str, b))}`" for b in plain.get("trap_boards", [])) +
                      ", proved by enumerating the throws). The advisor finds such a board exactly and values it "
                      "there by its own equation (`Advisor.start_value`), so that its play leaves it."]
    for r in rows:
        traps = record.get(f"traps_{r['key']}")
        if traps and traps["trapped_games"] and not np.isfinite(r["expected_turns"]):
            low, high = traps["trapped_share_95"]
            lines += ["", f"{r['label'].capitalize()} can lose a game forever: {traps['trapped_games']:,} of "
                      f"{traps['games']:,} seeded games from the empty board ({100 * traps['trapped_share']:.2f}%, "
                      f"95% interval {100 * low:.2f}-{100 * high:.2f}%, an estimate) reached one of "
                      f"{traps['trap_board_count']} boards such as `{','.join(map(str, traps['trap_boards'][0]))}`, "
                      "where every throw makes it name a row that overshoots (PEGS-6), proved by enumerating "
                      "the throws. Reaching such a board has positive probability, so its expected turns are "
                      f"infinite (exact). The games that finished took {traps['finished_mean_turns']:.1f} turns "
                      "on average (an estimate)."]
    rows = [r for r in rows if np.isfinite(r["expected_turns"])]
    others = [r for r in rows if r["key"] != "optimal"]
    if others:
        closest = min(others, key=lambda r: r["gap"])
        furthest = max(others, key=lambda r: r["gap"])
        lines += ["", f"Closest to optimal play: {closest['label']}, {100 * closest['gap']:.2f}% more turns; "
                  f"furthest: {furthest['label']}, {100 * furthest['gap']:.2f}% more." if len(others) > 1 else
                  f"{closest['label'].capitalize()} takes {100 * closest['gap']:.2f}% more turns than optimal play."]
        distilled = record.get("policy_distilled")
        if distilled is not None:
            gap = distilled["expected_turns"] / record["optimal"]["expected_turns"] - 1
            verdict = "meets" if gap <= 0.005 else "misses"
            lines.append(f"The distilled model's play {verdict} the 0.5% target ({100 * gap:.2f}%).")
        import matplotlib.pyplot as plt

        figure, axes = plt.subplots(figsize=(7, 2.8))
        axes.barh([r["key"] for r in rows][::-1], [r["expected_turns"] for r in rows][::-1], color="#4c72b0")
        axes.set_xlabel("expected turns from the empty board (exact)")
        axes.set_xlim(0, 1.05 * max(r["expected_turns"] for r in rows))          # bars from 0: honest lengths
        axes.set_title(f"{_game_title(game)}: each policy's expected turns, evaluated exactly")
        figure.tight_layout()
        lines += ["", context.save_figure(figure, f"full_board_{game}_policies.png",
                                          f"{_game_title(game)}: exact expected turns of each policy")]
    for key, label in (("model_distilled", "distilled model"), ("model_fitted", "fitted value")):
        model = record.get(key)
        if model is not None:
            lines += ["", f"Board-value error of the {label} over all {model['boards']:,} boards: RMS "
                      f"{model['rms']:.4f} turns, largest {model['max_abs']:.3f} turns (board "
                      f"{','.join(map(str, model['max_abs_board']))}); from the empty board it estimates "
                      f"{model['empty_board']:.3f} turns."]
    return lines


def _turns_section(game: str, record: dict, context: ReportContext) -> list[str]:
    turns = record.get("turns")
    if turns is None:
        return []
    summary = turns_summary(turns)
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 3))
    axes.bar(summary["values"], summary["counts"] / summary["counts"].sum(), color="#55a868")
    axes.set_xlabel("turns to finish the game alone")
    axes.set_ylabel("share of games")
    axes.set_title(f"{_game_title(game)}: turns under optimal play ({summary['games']:,} simulated games)")
    figure.tight_layout()
    q = summary["quantiles"]
    exact = record["optimal"]["expected_turns"]
    agree = abs(summary["mean"] - exact) <= 3 * summary["standard_error"]
    return [f"### {_game_title(game)}: the number of turns under optimal play", "",
            f"Estimated by simulating {summary['games']:,} games with the table's optimal policy: mean "
            f"{summary['mean']:.3f} ± {summary['standard_error']:.3f} (standard error) turns, which "
            f"{'agrees' if agree else 'does not agree'} with the exact {exact:.4f} within three standard errors. "
            f"A game takes at most {q[0.1]} turns one time in ten, {q[0.5]} turns or fewer half the time, "
            f"and more than {q[0.9]} turns one time in ten (estimates).", "",
            context.save_figure(figure, f"full_board_{game}_turns.png",
                                f"{_game_title(game)}: distribution of the number of turns, optimal play")]


def _first_throw_section(game: str, record: dict) -> list[str]:
    first = record.get("first_throws")
    if not first:
        return []
    groups = first_throws_by_row(first)
    ways = round(1 / min(e["probability"] for e in first))              # 6**dice ordered throws
    lines = [f"### {_game_title(game)}: the optimal row for every first throw", "",
             f"All {len(first)} throws of the dice, grouped by the row optimal play names; `ways` counts the "
             f"ordered throws (of {ways:,}) that show it, `hits` the row's hits in the throw, `E` the exact "
             "expected number of turns still needed after this first turn, `2nd` the next best row and how "
             "many turns more it costs.", ""]
    differs = sum(e["probability"] for e in first if e["best"] is not None and e["best"] != e["greedy"])
    lines.append(f"Optimal play differs from greedy on the first throw with probability {differs:.3f}.")
    for row, entries in groups:
        title = f"Row {row}" if row is not None else "No legal row"
        share = sum(e["probability"] for e in entries)
        table = []
        for e in entries:
            best = e["options"][0] if e["options"] else None
            second = e["options"][1] if len(e["options"]) > 1 else None
            table.append(["".join(map(str, e["throw"])), round(e["probability"] * ways),
                          best[1] if best else "", f"{best[2]:.3f}" if best else "",
                          f"{second[0]} ({second[2] - best[2]:+.3f})" if best and second else ""])
        lines += ["", f"**{title}** ({len(entries)} throws, probability {share:.3f})", "",
                  markdown_table(["throw", "ways", "hits", "E", "2nd"], table)]
    return lines


def render(report: FullBoardReport, context: ReportContext) -> str:
    """Markdown of the section (figures saved through ``context``)."""
    parts = ["Every board of the 12-row game (6^12 = 2,176,782,336 boards) is valued by the compiled "
             "kernels of `dicemath.games.pegs_fives.fullboard`. The tables (8.7 GB each) are not part of the "
             "repository: `analyses/pegs_fives_full_board.py` builds and evaluates them and commits the numbers "
             "this section reads. Values are read from float32 tables (within about 2e-6 of float64).", ""]
    rows = []
    for game in GAMES:
        record = report.games[game]
        optimal = record.get("optimal")
        rows.append([_game_title(game), f"{optimal['expected_turns']:.5f}" if optimal else "not yet built"])
    parts += ["## The exact optimum from the empty board", "",
              markdown_table(["game", "expected turns (optimal play)"], rows), ""]
    for game in GAMES:
        record = report.games[game]
        parts.append(f"## {_game_title(game)}")
        parts.append("")
        if "optimal" not in record:
            parts += ["not yet built: the full table and its analyses are not committed yet.", ""]
            continue
        board = record.get("board", {})
        if board.get("rows") and len(board["rows"]) < 12:
            parts += [f"A reduced board: rows {', '.join(map(str, board['rows']))} open.", ""]
        parts += _policy_section(game, record, context) + [""]
        parts += _turns_section(game, record, context) + [""]
        parts += _first_throw_section(game, record) + [""]
    return "\n".join(parts)
