"""The Backgammon bear-off report: expected rolls, the one-sided approximation's error,
standard vs playtive, the two-sided databases built (RULES.md BG-4, BG-6, BG-7)."""

from __future__ import annotations

import numpy as np

from dicemath.games.backgammon import bearoff as bo
from dicemath.games.backgammon.race import AVERAGE_PIPS_PER_ROLL, approximation_error, pip_count
from dicemath.games.backgammon.rules import PLAYTIVE, STANDARD

COMMON_BOARDS = {
    "1 checker on the 6-point": (0, 0, 0, 0, 0, 1),
    "2 checkers on the 6-point": (0, 0, 0, 0, 0, 2),
    "2 on the 1-point": (2, 0, 0, 0, 0, 0),
    "4 checkers: 1-2-3-4 points": (1, 1, 1, 1, 0, 0),
    "6 checkers: one per point": (1, 1, 1, 1, 1, 1),
    "8 checkers, smooth (1,1,2,2,1,1)": (1, 1, 2, 2, 1, 1),
    "15: three per point 2..6": (0, 3, 3, 3, 3, 3),
    "15: 5 on 4, 5, 6": (0, 0, 0, 5, 5, 5),
    "15: 7 on 6, 8 on 5 (playtive illegal)": (0, 0, 0, 0, 8, 7),
    "15 on the 6-point": (0, 0, 0, 0, 0, 15),
}


def build(context) -> str:
    """Markdown of the bear-off section (cheap when ``context.quick``)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    standard = bo.one_sided_table(STANDARD)
    playtive = bo.one_sided_table(PLAYTIVE)
    from dicemath.reporting.context import markdown_table

    parts = [
        "Every home board of up to 15 checkers (54,264 boards), every roll played to minimise the "
        "expected number of rolls (BG-3, BG-6). Two-sided values are exact cubeless chances for the "
        "player on roll, by dynamic programming on the game itself. Float64; checked against exact "
        "Fractions on small boards and against GNU Backgammon's databases (see the tests).",
        "",
        "## Expected rolls to bear off",
        "",
    ]
    rows = []
    for name, board in COMMON_BOARDS.items():
        i = bo.position_index(board)
        rows.append([name, f"`{','.join(map(str, board))}`", pip_count(board), f"{standard.mean[i]:.4f}",
                     f"{standard.mean[i] * AVERAGE_PIPS_PER_ROLL:.2f}", f"{playtive.mean[i]:.4f}",
                     f"{standard.gammon_mean[i]:.4f}"])
    parts.append(markdown_table(["board", "points 1..6", "pips", "rolls (standard)", "EPC",
                                 "rolls (playtive)", "rolls to first off"], rows, "llrrrrr"))

    parts += ["", "## Standard vs playtive (at most 5 own checkers per point, BG-4)", ""]
    boards = bo.positions_up_to(15)
    legal = boards.max(axis=1) <= 5
    diff = playtive.mean - standard.mean
    order = np.argsort(-np.where(legal, diff, -1))[:5]
    parts.append(f"On the {int(legal.sum()):,} boards legal under playtive, the limit costs on average "
                 f"{diff[legal].mean():.4f} rolls and at most {diff[legal].max():.4f}; it never helps "
                 f"(minimum difference {diff[legal].min():.2e}). Largest costs:")
    parts.append("")
    parts.append(markdown_table(["points 1..6", "standard", "playtive", "difference"],
                                [[f"`{','.join(map(str, boards[i]))}`", f"{standard.mean[i]:.4f}",
                                  f"{playtive.mean[i]:.4f}", f"{diff[i]:.4f}"] for i in order], "lrrr"))

    n = 6  # the limit needs 5 checkers on a point and one more to bind
    count = bo.positions_count(n)
    exact_standard, exact_playtive = bo.two_sided_table(n, STANDARD), bo.two_sided_table(n, PLAYTIVE)
    ok = legal[:count]
    gap = (exact_playtive - exact_standard)[np.ix_(ok, ok)]
    gap[0, :] = gap[:, 0] = 0
    i, j = np.unravel_index(np.argmax(np.abs(gap)), gap.shape)
    small = np.nonzero(ok)[0]
    parts += ["", f"Two-sided, boards of at most {n} checkers legal under playtive: the chance of the player on "
                  f"roll changes by at most {np.abs(gap).max():.4f} (mean {np.abs(gap).mean():.2e}); largest for "
                  f"`{','.join(map(str, boards[small[i]]))}` on roll against `{','.join(map(str, boards[small[j]]))}` "
                  f"({exact_standard[small[i], small[j]]:.4f} standard, {exact_playtive[small[i], small[j]]:.4f} "
                  "playtive)."]

    checkers = (3, 4) if context.quick else (4, 6, 8)
    parts += ["", "## The one-sided approximation", "",
              "P(on roll wins) ~= sum_n P(N_x = n) P(N_y >= n) with independent one-sided roll counts, "
              "against the exact two-sided table:", ""]
    rows = []
    for n in checkers:
        error = approximation_error(n)
        board, versus, exact, approx = error.worst
        rows.append([n, f"{error.pairs:,}", f"{error.mean_error:.2e}", f"{error.max_error:.4f}",
                     f"`{','.join(map(str, board))}` vs `{','.join(map(str, versus))}`",
                     f"{exact:.4f}", f"{approx:.4f}"])
    parts.append(markdown_table(["checkers", "pairs", "mean error", "max error", "worst pair (on roll first)",
                                 "exact", "approx."], rows, "rrrrlrr"))

    figure, axes = plt.subplots(1, 2, figsize=(11, 4))
    for name in ["2 checkers on the 6-point", "6 checkers: one per point", "15: three per point 2..6",
                 "15 on the 6-point"]:
        dist = standard.rolls_distribution(COMMON_BOARDS[name])
        axes[0].plot(range(len(dist)), dist, marker="o", label=name)
    axes[0].set(xlabel="rolls to bear off", ylabel="probability", title="One-sided distributions")
    axes[0].legend(fontsize=8)
    pips = bo.pip_counts()
    axes[1].scatter(pips[legal], diff[legal], s=2, alpha=0.3)
    axes[1].set(xlabel="pip count", ylabel="extra expected rolls", title="Cost of the playtive limit")
    parts += ["", context.save_figure(figure, "backgammon_bearoff.png", "bear-off distributions"), ""]
    parts += database_section()
    return "\n".join(parts)


def database_section(root=None) -> list[str]:
    """Markdown lines on the two-sided databases present under ``root`` (default: where
    ``dicemath backgammon build-bearoff`` writes them): size, state, build time as recorded
    by the build, chunks per second, peak memory per worker, and the complete table's cost
    scaled from the largest one built (an estimate, proportional to the kernel's work)."""
    from dicemath.games.backgammon.bearoff_database import ERROR_BOUND, available_databases, build_work
    from dicemath.reporting.context import markdown_table

    found = available_databases(root)
    lines = ["## The complete two-sided database", "",
             "`dicemath backgammon build-bearoff --checkers N` stores P(on roll wins) for every pair of home "
             "boards of at most N checkers (N = 15: 54,264 x 54,264 pairs, with the gammon races of BG-7), "
             f"32-bit fixed point within {ERROR_BOUND:.1e} of the exact values, memory-mapped for queries. "
             "Built in chunks of pairs of equal pip total on Dask, resumable."]
    if not found:
        return lines + ["", "No database has been built where this report was made (tables go to "
                            "`$DICEMATH_BEAROFF_DIR`, else the `bearoff` folder of the dicemath cache)."]
    rows = []
    for entry in found:
        seconds = entry["build_seconds"]
        peaks = [max(run["peak_memory"]) for run in entry["runs"] if run.get("peak_memory")]
        rows.append([f"`{entry['name']}`", f"{build_work(entry['checkers'])['pairs']:,}",
                     "complete" if entry["complete"] else f"{entry['chunks_done']} of {entry['chunks']} chunks",
                     f"{seconds:.0f} s", f"{entry['chunks_done'] / seconds:.1f}" if seconds else "-",
                     f"{max(peaks) / 2**30:.2f} GiB" if peaks else "-", f"{entry['bytes'] / 1e9:.2f} GB"])
    lines += ["", markdown_table(["table", "pairs", "state", "build time (recorded)", "chunks / s",
                                  "peak memory per worker", "on disk"], rows, "lrlrrrr")]
    largest = max((e for e in found if e["complete"] and e["build_seconds"]), key=lambda e: e["checkers"], default=None)
    if largest is not None and largest["checkers"] < 15:
        scale = build_work(15)["scans"] / build_work(largest["checkers"])["scans"]
        lines += ["", f"Scaling (estimate): the complete 15-checker build reads {scale:.0f} times the successor "
                      f"values of `{largest['name']}`; at the same speed it would take about "
                      f"{largest['build_seconds'] * scale / 60:.0f} minutes."]
    return lines
