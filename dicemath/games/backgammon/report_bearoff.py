"""The Backgammon bear-off report section: expected rolls, standard vs playtive, the
one-sided approximation's error, the two-sided databases built (docs/rules.md BG-4, BG-6, BG-7).

:func:`compute` gathers the numbers into a :class:`BearoffReport` (no prose);
:func:`render` writes the Markdown and the figure from it, every conclusion read off the
numbers. Both are registered in the game registry (:mod:`dicemath.games.registry`). With
``context.quick`` the approximation is measured on 3 and 4 checkers instead of 4, 6, 8.

The table of the complete databases reads their builds as recorded in :data:`BUILDS`, never
the databases on the machine that makes the report, so the report is the same everywhere;
:func:`record_databases` records the builds of this machine.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from dicemath.core.advice import Advice
from dicemath.core.svg import picture
from dicemath.core.game import Game
from dicemath.games.backgammon import bearoff as bo
from dicemath.games.backgammon.position import Position
from dicemath.games.backgammon.race import AVERAGE_PIPS_PER_ROLL, ApproximationError, approximation_error, pip_count
from dicemath.games.backgammon.rules import PLAYTIVE, STANDARD
from dicemath.games.backgammon.state import PLAY, State
from dicemath.core.markdown import markdown_table
from dicemath.reporting.context import ReportContext

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
"""The boards of the first table, by name."""

FIGURE_BOARDS = ("2 checkers on the 6-point", "6 checkers: one per point", "15: three per point 2..6",
                 "15 on the 6-point")
"""The boards whose roll distributions the figure draws."""

BUILDS = Path(__file__).resolve().parent / "data" / "bearoff_builds.json"
"""The complete databases' builds the report lists: ``{"about", "databases"}``, each database
as :func:`~dicemath.games.backgammon.bearoff_database.available_databases` describes it
(without its folder)."""

TWO_SIDED_CHECKERS = 6
"""Two-sided comparison of the presets: the limit needs 5 checkers on a point and one more to bind."""

PLAY_EXAMPLE = ((0, 2, 0, 0, 2, 0), (1, 1, 1, 1, 0, 0), (2, 1))
"""The section's picture: X's home board (points 1..6), O's, and X's roll, a roll where
bearing off the most checkers is not the only question (which gap to fill matters too)."""


@dataclass(frozen=True)
class BoardRow:
    """One board of the first table: expected rolls (standard, playtive), EPC, rolls to the first checker off."""

    name: str
    board: tuple[int, ...]
    pips: int
    rolls: float
    effective_pips: float
    rolls_playtive: float
    rolls_to_first_off: float


@dataclass(frozen=True)
class BearoffReport:
    """The numbers of the bear-off section.

    Attributes:
        boards: the rows of the first table (:data:`COMMON_BOARDS`).
        legal_boards: boards of up to 15 checkers legal under playtive (at most 5 a point).
        playtive_cost: mean, max and min extra expected rolls under playtive over those boards.
        costliest: ``(board, standard, playtive)`` of the five largest costs.
        two_sided: ``(max |gap|, mean |gap|, board on roll, versus, standard, playtive)``:
            how much the limit changes the exact two-sided chance, boards of at most
            :data:`TWO_SIDED_CHECKERS` legal under playtive.
        approximation: the one-sided approximation's error, one entry per checker count.
        distributions: the one-sided roll distributions of :data:`FIGURE_BOARDS`.
        pips, costs: pip count and playtive cost of every legal board (the scatter plot).
        databases: the builds recorded in :data:`BUILDS` (:func:`recorded_summary`).
        scaling: ``(scale, minutes, name)``: the 15-checker build's cost scaled from the
            largest complete database (None when none, or the largest is the 15-checker one).
        play, play_advice: the position of :data:`PLAY_EXAMPLE` (cubeless, X to play) and
            every play of its roll, best first (the picture).
    """

    boards: tuple[BoardRow, ...]
    legal_boards: int
    playtive_cost: tuple[float, float, float]
    costliest: tuple[tuple[tuple[int, ...], float, float], ...]
    two_sided: tuple
    approximation: tuple[ApproximationError, ...]
    distributions: dict
    pips: np.ndarray
    costs: np.ndarray
    databases: tuple[dict, ...]
    scaling: tuple[float, float, str] | None
    play: State
    play_advice: Advice


def compute(game: Game, context: ReportContext) -> BearoffReport:
    """The numbers of the section (one-sided tables of both presets, two-sided tables up to
    8 checkers; smaller when ``context.quick``)."""
    standard, playtive = bo.one_sided_table(STANDARD), bo.one_sided_table(PLAYTIVE)
    rows = []
    for name, board in COMMON_BOARDS.items():
        i = bo.position_index(board)
        rows.append(BoardRow(name, board, pip_count(board), float(standard.mean[i]),
                             float(standard.mean[i] * AVERAGE_PIPS_PER_ROLL), float(playtive.mean[i]),
                             float(standard.gammon_mean[i])))
    boards = bo.positions_up_to(15)
    legal = boards.max(axis=1) <= 5
    diff = playtive.mean - standard.mean
    order = np.argsort(-np.where(legal, diff, -1))[:5]
    costliest = tuple((tuple(int(c) for c in boards[i]), float(standard.mean[i]), float(playtive.mean[i]))
                      for i in order)
    count = bo.positions_count(TWO_SIDED_CHECKERS)
    exact_standard = bo.two_sided_table(STANDARD, TWO_SIDED_CHECKERS)
    exact_playtive = bo.two_sided_table(PLAYTIVE, TWO_SIDED_CHECKERS)
    ok = legal[:count]
    gap = (exact_playtive - exact_standard)[np.ix_(ok, ok)]
    gap[0, :] = gap[:, 0] = 0
    i, j = map(int, np.unravel_index(np.argmax(np.abs(gap)), gap.shape))
    small = np.nonzero(ok)[0]
    two_sided = (float(np.abs(gap).max()), float(np.abs(gap).mean()), tuple(int(c) for c in boards[small[i]]),
                 tuple(int(c) for c in boards[small[j]]), float(exact_standard[small[i], small[j]]),
                 float(exact_playtive[small[i], small[j]]))
    approximation = tuple(approximation_error(STANDARD, n) for n in ((3, 4) if context.quick else (4, 6, 8)))
    distributions = {name: standard.rolls_distribution(COMMON_BOARDS[name]) for name in FIGURE_BOARDS}
    databases, scaling = recorded_summary()
    mine, theirs, roll = PLAY_EXAMPLE
    play = State(Position.from_home_boards(mine, theirs), STANDARD, PLAY, roll, cube_value=None)
    return BearoffReport(tuple(rows), int(legal.sum()), (float(diff[legal].mean()), float(diff[legal].max()),
                                                         float(diff[legal].min())),
                         costliest, two_sided, approximation, distributions, bo.pip_counts()[legal], diff[legal],
                         databases, scaling, play, game.advise(play))


def database_summary(root=None) -> tuple[tuple[dict, ...], tuple[float, float, str] | None]:
    """The databases under ``root`` (default: where ``dicemath backgammon build-bearoff``
    writes them) and the 15-checker build's cost scaled from the largest complete one
    (:func:`scaled_cost`)."""
    from dicemath.games.backgammon.bearoff_database import available_databases

    found = tuple(available_databases(root))
    return found, scaled_cost(found)


def recorded_summary(path: Path = BUILDS) -> tuple[tuple[dict, ...], tuple[float, float, str] | None]:
    """The databases' builds recorded in ``path`` (:data:`BUILDS`) and the 15-checker build's
    cost scaled from the largest complete one (:func:`scaled_cost`): what the report lists,
    whatever is built on the machine that makes it.

    Raises:
        OSError, ValueError: ``path`` cannot be read as JSON.
    """
    found = tuple(json.loads(path.read_text(encoding="utf-8"))["databases"])
    return found, scaled_cost(found)


def record_databases(root=None, path: Path = BUILDS) -> Path:
    """Record the databases under ``root`` (:func:`database_summary`) in ``path`` (:data:`BUILDS`),
    for the report to list, and return ``path``: run it after building the databases the
    report should show (``dicemath backgammon build-bearoff --checkers N``)."""
    found, _ = database_summary(root)
    record = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    record["databases"] = [{key: value for key, value in entry.items() if key != "folder"} for entry in found]
    path.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    return path


def scaled_cost(found) -> tuple[float, float, str] | None:
    """``(scale, minutes, name)``: the 15-checker build's cost scaled from the largest complete
    database of ``found`` (an estimate, proportional to the kernel's work), None when none is
    complete or the largest is the 15-checker one."""
    from dicemath.games.backgammon.bearoff_database import build_work

    largest = max((e for e in found if e["complete"] and e["build_seconds"]), key=lambda e: e["checkers"], default=None)
    if largest is None or largest["checkers"] == 15:
        return None
    scale = build_work(15)["scans"] / build_work(largest["checkers"])["scans"]
    return scale, largest["build_seconds"] * scale / 60, largest["name"]


def board_text(board) -> str:
    """A home board as ``"`0,0,0,0,0,2`"`` (Markdown code)."""
    return f"`{','.join(map(str, board))}`"


def playtive_conclusion(report: BearoffReport) -> str:
    """What the one-sided tables say about the limit's cost."""
    mean, largest, smallest = report.playtive_cost
    helps = ("it never helps" if smallest >= 0 else
             f"on some boards it helps (by up to {-smallest:.4f} rolls)")
    return (f"On the {report.legal_boards:,} boards legal under playtive, the limit costs on average {mean:.4f} "
            f"rolls and at most {largest:.4f}; {helps} (minimum difference {smallest:.2e}). Largest costs:")


def two_sided_conclusion(report: BearoffReport) -> str:
    """How much the limit moves the exact two-sided chances."""
    largest, mean, board, versus, standard, playtive = report.two_sided
    return (f"Two-sided, boards of at most {TWO_SIDED_CHECKERS} checkers legal under playtive: the chance of the "
            f"player on roll changes by at most {largest:.4f} (mean {mean:.2e}); largest for {board_text(board)} on "
            f"roll against {board_text(versus)} ({standard:.4f} standard, {playtive:.4f} playtive).")


def play_sentence(report: BearoffReport) -> str:
    """The picture's position in words and what its best play gains, read off the advice."""
    best, *others = report.play_advice.options
    mine, theirs, roll = PLAY_EXAMPLE
    text = (f"X ({board_text(mine)}) to play {roll[0]}-{roll[1]} against O ({board_text(theirs)}), no cube: every "
            f"play with its exact cubeless equity for X from the two-sided table, the best, {best.text}, framed")
    if not others:
        return text + "."
    return text + f"; it is worth {best.value - others[0].value:.3f} more than the next best, {others[0].text}."


def _figure(report: BearoffReport):
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, 2, figsize=(11, 4))
    for name, dist in report.distributions.items():
        axes[0].plot(range(len(dist)), dist, marker="o", label=name)
    axes[0].set(xlabel="rolls to bear off", ylabel="probability", title="One-sided distributions")
    axes[0].legend()
    axes[1].scatter(report.pips, report.costs, s=2, alpha=0.3)
    axes[1].set(xlabel="pip count", ylabel="extra expected rolls", title="Cost of the playtive limit")
    return figure


def render(report: BearoffReport, context: ReportContext) -> str:
    """Markdown of the bear-off section (the figure saved through ``context``)."""
    best, dice = report.play_advice.best, report.play.dice
    if best is None or dice is None:
        raise ValueError("the bear-off play example needs its roll and a legal play to frame")
    parts = [
        "Every home board of up to 15 checkers (54,264 boards), every roll played to minimise the "
        "expected number of rolls (BG-3, BG-6). Two-sided values are exact cubeless chances for the "
        "player on roll, by dynamic programming on the game itself. Float64; checked against exact "
        "Fractions on small boards and against GNU Backgammon's databases (see the tests).",
        "",
        "## Expected rolls to bear off",
        "",
        markdown_table(["board", "points 1..6", "pips", "rolls (standard)", "EPC", "rolls (playtive)",
                        "rolls to first off"],
                       [[r.name, board_text(r.board), r.pips, f"{r.rolls:.4f}", f"{r.effective_pips:.2f}",
                         f"{r.rolls_playtive:.4f}", f"{r.rolls_to_first_off:.4f}"] for r in report.boards], "llrrrrr"),
        "", "## Standard vs playtive (at most 5 own checkers per point, BG-4)", "",
        playtive_conclusion(report), "",
        markdown_table(["points 1..6", "standard", "playtive", "difference"],
                       [[board_text(b), f"{s:.4f}", f"{p:.4f}", f"{p - s:.4f}"] for b, s, p in report.costliest],
                       "lrrr"),
        "", two_sided_conclusion(report),
        "", "## A bear-off play", "",
        play_sentence(report), "",
        context.save_picture(picture(report.play, report.play_advice), "backgammon_bearoff_play.svg",
                             f"X to play {dice[0]}-{dice[1]}: best "
                             f"{best.text}"),
        "", "## The one-sided approximation", "",
        "P(on roll wins) ~= sum_n P(N_x = n) P(N_y >= n) with independent one-sided roll counts, "
        "against the exact two-sided table:", "",
        markdown_table(["checkers", "pairs", "mean error", "max error", "worst pair (on roll first)", "exact",
                        "approx."],
                       [[e.checkers, f"{e.pairs:,}", f"{e.mean_error:.2e}", f"{e.max_error:.4f}",
                         f"{board_text(e.worst[0])} vs {board_text(e.worst[1])}", f"{e.worst[2]:.4f}",
                         f"{e.worst[3]:.4f}"] for e in report.approximation], "rrrrlrr"),
        "", context.save_figure(_figure(report), "backgammon_bearoff.png", "bear-off distributions"), "",
    ]
    return "\n".join(parts + database_lines(report.databases, report.scaling))


def database_lines(databases, scaling) -> list[str]:
    """Markdown lines on the two-sided databases of :func:`recorded_summary` (or
    :func:`database_summary`): size, state, build time as recorded by the build, chunks per
    second, peak memory per worker, and the complete table's cost scaled from the largest one
    built (an estimate)."""
    from dicemath.games.backgammon.bearoff_database import ERROR_BOUND, build_work

    lines = ["## The complete two-sided database", "",
             "`dicemath backgammon build-bearoff --checkers N` stores P(on roll wins) for every pair of home "
             "boards of at most N checkers (N = 15: 54,264 x 54,264 pairs, with the gammon races of BG-7), "
             f"32-bit fixed point within {ERROR_BOUND:.1e} of the exact values, memory-mapped for queries. "
             "Built in chunks of pairs of equal pip total on Dask, resumable."]
    if not databases:
        return lines + ["", "No database build is recorded (`record_databases` in `report_bearoff.py` records "
                            "those built with `dicemath backgammon build-bearoff`)."]
    rows = []
    for entry in databases:
        seconds = entry["build_seconds"]
        peaks = [max(run["peak_memory"]) for run in entry["runs"] if run.get("peak_memory")]
        rows.append([f"`{entry['name']}`", f"{build_work(entry['checkers'])['pairs']:,}",
                     "complete" if entry["complete"] else f"{entry['chunks_done']} of {entry['chunks']} chunks",
                     f"{seconds:.0f} s", f"{entry['chunks_done'] / seconds:.1f}" if seconds else "-",
                     f"{max(peaks) / 2**30:.2f} GiB" if peaks else "-", f"{entry['bytes'] / 1e9:.2f} GB"])
    lines += ["", markdown_table(["table", "pairs", "state", "build time (recorded)", "chunks / s",
                                  "peak memory per worker", "on disk"], rows, "lrlrrrr")]
    if scaling is not None:
        scale, minutes, name = scaling
        lines += ["", f"Scaling (estimate): the complete 15-checker build reads {scale:.0f} times the successor "
                      f"values of `{name}`; at the same speed it would take about {minutes:.0f} minutes."]
    return lines
