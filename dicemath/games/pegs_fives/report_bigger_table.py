"""Report section ``bigger_table``: Pegs and Fives at a table of three to six players, how
race advice changes with the number of opponents and how far its approximation is from the
exact answer.

With two or more opponents, race advice (:func:`.race_advice.race_advice`) answers from the
turn-count model wherever no exact race covers the position: each player's remaining turns
follow a law around his expected turns under solo-optimal play, the opponents independent
and solo-optimal. The section shows, each number labelled by where it comes from:

* **the advice at a bigger table**: full-board decisions valued against one to five
  opponents on the same board (the model's estimates, computed when the report is written:
  a second or two);
* **the approximation against the exact answer**: on reduced boards, the mover playing to
  win against solo-optimal opponents solved exactly, every position once; the model's value
  at the start of the turn against the exact one (largest and mean error), how often its
  row is not an exact best one and what that costs, for the fitted laws and for the exact
  laws of solo play (:func:`.race_advice.solo_laws`); committed data,
  ``python analyses/pegs_fives_tables.py GAME exact``;
* **simulated tables**: full-board games of 3, 4 and 6 players, one race player among
  solo-optimal ones and the whole table playing to win, the dice the same as in the all-solo
  game; estimates with 95% intervals; committed data,
  ``python analyses/pegs_fives_tables.py GAME simulate``.

Every sentence that states a conclusion is read off the numbers it describes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from dicemath.core.errors import DicemathError
from dicemath.core.markdown import markdown_table
from dicemath.games.pegs_fives.race_advice import race_advice
from dicemath.games.pegs_fives.rules import FIVES, PEGS, Rules
from dicemath.games.pegs_fives.state import board_text
from dicemath.reporting.context import ReportContext

RESULTS = Path(__file__).resolve().parent / "data" / "bigger_table.json"
"""The committed study (``analyses/pegs_fives_tables.py``)."""

GAMES = (PEGS, FIVES)
"""The games of the section, in order."""

OPPONENTS = (1, 2, 3, 5)
"""The numbers of opponents the positions are valued against (a table of 2 to 6)."""

POSITIONS = (
    ("pegs", (2, 3, 2, 1, 1, 3, 1, 2, 2, 1, 1, 3), (5, 5, 4, 4, 2, 2), (4, 2, 4, 3, 2, 2, 3, 3, 2, 2, 3, 3)),
    ("fives", (2, 1, 2, 2, 2, 1, 2, 3, 2, 1, 2, 1), (5, 4, 2, 2, 1, 1), (4, 2, 4, 3, 3, 4, 2, 2, 2, 3, 4, 2)),
)
"""Full-board decisions of the advice table: game, the mover's board, the choice throw, the
board every opponent has."""


ROUNDING = 1e-9
"""A difference or error below this is float64 rounding of an exact equality, written 0."""


def _rules(game: str) -> Rules:
    return PEGS if game == "pegs" else FIVES


def read_study(path: Path = RESULTS) -> dict:
    """The committed study by game (empty when not measured)."""
    return json.loads(path.read_text()) if path.exists() else {}


def value_text(rules: Rules, value: float, *, signed: bool = False) -> str:
    """A value as the section writes it: Pegs a win probability in percent (a difference in
    percentage points, small ones in two significant digits), Fives the objective in rest
    points; a difference below :data:`ROUNDING` is 0."""
    if signed and abs(value) < ROUNDING:
        return "0 pp" if rules.scoring == "first_out" else "0"
    if rules.scoring == "first_out":
        if signed and abs(100 * value) < 0.005:          # a small difference, in two significant digits
            return f"{100 * value:+.2g} pp"
        return f"{100 * value:+.2f} pp" if signed else f"{100 * value:.2f}%"
    if signed and abs(value) < 0.0005:
        return f"{value:+.2g}"
    return f"{value:+.3f}" if signed else f"{value:.3f}"


def interval_text(value: float, half: float, scale: float = 1.0, digits: int = 2, *, signed: bool = True) -> str:
    """``value ± half`` (scaled; the value signed, as a difference, or not)."""
    return f"{scale * value:{'+' if signed else ''}.{digits}f} ± {scale * half:.{digits}f}"


@dataclass(frozen=True)
class AdviceAtTable:
    """One full-board decision valued against ``opponents`` copies of one board.

    Attributes:
        game, board, throw, opponent: the decision.
        rows: per number of opponents (:data:`OPPONENTS`): ``(best row, its value, the
            value now, the solo row)``.
    """

    game: str
    board: tuple[int, ...]
    throw: tuple[int, ...]
    opponent: tuple[int, ...]
    rows: tuple[tuple[int, int, float, float, int], ...]


def advice_at_tables(game: str, board, throw, opponent) -> AdviceAtTable:
    """The race advice of one decision against 1, 2, 3 and 5 opponents on ``opponent``'s board
    (:func:`.race_advice.race_advice`; estimates of the turn-count model)."""
    rules = _rules(game)
    rows: list[tuple[int, int, float, float, int]] = []
    for k in OPPONENTS:
        advice = race_advice(rules, board, throw, [opponent] * k, exact_max_rows=0)
        best = advice.best
        if best is None:
            raise DicemathError(f"no legal row after the throw {throw} on {board}")
        rows.append((k, int(best.extras["row"]), float(best.value), float(advice.extras["race_value_now"]),
                     int(advice.extras["solo_best"])))
    return AdviceAtTable(game, tuple(board), tuple(throw), tuple(opponent), tuple(rows))


@dataclass(frozen=True)
class BiggerTableReport:
    """The section's numbers: ``study`` (the committed study by game) and ``positions``
    (:class:`AdviceAtTable`)."""

    study: dict
    positions: tuple[AdviceAtTable, ...]


def compute(context: ReportContext) -> BiggerTableReport:
    """The committed study and the advice table (one position per game in quick mode: the same)."""
    return BiggerTableReport(read_study(), tuple(advice_at_tables(*p) for p in POSITIONS))


# ---------------------------------------------------------------------------------------------
# Sentences read off the numbers
# ---------------------------------------------------------------------------------------------

def advice_sentence(p: AdviceAtTable) -> str:
    """How the advice of one decision changes with the number of opponents."""
    rules = _rules(p.game)
    best = [r[1] for r in p.rows]
    changes = [f"between {a[0]} and {b[0]} opponents, from row {a[1]} to row {b[1]}" for a, b in zip(p.rows, p.rows[1:])
               if a[1] != b[1]]
    start = (f"Against one opponent the mover's value now is {value_text(rules, p.rows[0][3])}, against "
             f"{p.rows[-1][0]} it is {value_text(rules, p.rows[-1][3])}. ")
    if not changes:
        return start + f"The advised row stays {best[0]} whatever the number of opponents."
    return start + "The advised row changes " + "; and ".join(changes) + "."


TABLES = ("best response", "whole table")
"""The exact tables of the ``exact`` record: seat 0 playing to win against solo-optimal
opponents (what the model assumes), and every seat playing to win."""


def model_rows(record: dict) -> list[dict]:
    """One row per board, exact table and model of an ``exact`` record."""
    return [{"players": b["players"], "open_rows": b["open_rows"], "table": table, **m} for b in record["boards"]
            for table in TABLES for m in b[table]["models"].values()]


def model_sentence(rules: Rules, record: dict, table: str = "best response") -> str:
    """Which model is closer to the exact ``table``, over every board of the record: the mean of
    the boards' mean errors, the largest error, and the chance-weighted value lost per choice
    on the boards with choices, beside the solo-optimal row's."""
    rows = [r for r in model_rows(record) if r["table"] == table]
    mean = {m: float(np.mean([r["mean_error"] for r in rows if r["model"] == m])) for m in {r["model"] for r in rows}}
    worst = {m: max(r["largest_error"] for r in rows if r["model"] == m) for m in mean}
    better, other = sorted(mean, key=lambda m: mean[m])
    text = (f"{rules.name.capitalize()}, against the {table}: the {better} model's value is off by "
            f"{value_text(rules, mean[better], signed=True).lstrip('+')} on average over the boards (largest "
            f"{value_text(rules, worst[better], signed=True).lstrip('+')}), the {other} model's by "
            f"{value_text(rules, mean[other], signed=True).lstrip('+')} (largest "
            f"{value_text(rules, worst[other], signed=True).lstrip('+')}).")
    chosen = [r for r in rows if r["choices"]]
    if chosen:
        loss = {m: float(np.mean([r["mean_loss"] for r in chosen if r["model"] == m])) for m in mean}
        solo = float(np.mean([r["solo_mean_loss"] for r in chosen if r["model"] == better]))
        ranked = sorted([*loss.items(), ("solo-optimal", solo)], key=lambda item: item[1])
        text += (" Per choice on the boards with choices, the value given up is "
                 + ", ".join(f"{value_text(rules, v, signed=True).lstrip('+')} for the {m} row"
                             if m == "solo-optimal" else
                             f"{value_text(rules, v, signed=True).lstrip('+')} for the {m} model's row"
                             for m, v in ranked)
                 + f": the {ranked[0][0]} {'row' if ranked[0][0] == 'solo-optimal' else 'model'} loses least.")
    return text


def gain(rules: Rules, summary: dict) -> tuple[float, float]:
    """The race player's paired gain and its 95% half-width: Pegs the win rate gained, Fives
    the rest points saved a round."""
    sign = 1 if rules.scoring == "first_out" else -1
    return sign * summary["difference"], summary["difference_ci95"]


def simulation_sentence(rules: Rules, record: dict) -> str:
    """How the gain of one race player changes with the number of players."""
    pegs = rules.scoring == "first_out"
    parts = []
    for t in record["tables"]:
        g, half = gain(rules, t["one_race"])
        verdict = "gains" if g - half > 0 else "loses" if g + half < 0 else "shows no difference the games can tell"
        parts.append(f"at {t['players']} players the race player {verdict} "
                     f"({interval_text(g, half, 100 if pegs else 1)}{' pp' if pegs else ' rest points saved'})")
    (small, small_half), (large, large_half) = (gain(rules, record["tables"][i]["one_race"]) for i in (0, -1))
    smallest, largest = record["tables"][0]["players"], record["tables"][-1]["players"]
    if large - large_half > small + small_half:
        trend = f"the gain at {largest} players is larger than at {smallest}, beyond both intervals"
    elif large + large_half < small - small_half:
        trend = f"the gain at {largest} players is smaller than at {smallest}, beyond both intervals"
    else:
        trend = (f"the intervals at {smallest} and {largest} players overlap: these games cannot tell how the gain "
                 "changes with the size of the table")
    return (f"{rules.name.capitalize()}, the race player against the same games played solo: " + "; ".join(parts)
            + f"; {trend}.")


def whole_table_sentence(rules: Rules, record: dict) -> str:
    """What a whole table playing to win changes, per table size: Pegs the first seat's win
    rate, Fives every player's rest points a round, against the same games played solo."""
    pegs = rules.scoring == "first_out"
    key = "whole_table_first_seat_wins" if pegs else "whole_table_rest_points"
    parts = []
    for t in record["tables"]:
        d = t[key]
        verdict = ("up" if d["difference"] - d["difference_ci95"] > 0 else
                   "down" if d["difference"] + d["difference_ci95"] < 0 else "not measurably changed")
        parts.append(f"{verdict} at {t['players']} players "
                     f"({interval_text(d['difference'], d['difference_ci95'], 100 if pegs else 1)}"
                     f"{' pp' if pegs else ''}, {d['games']} games)")
    what = "the first seat's win rate is" if pegs else "the rest points a round of every player are"
    return f"With the whole table playing to win, {what} " + "; ".join(parts) + "."


# ---------------------------------------------------------------------------------------------
# Rendering
# ---------------------------------------------------------------------------------------------

def _advice_part(report: BiggerTableReport) -> list[str]:
    parts = ["## The advice at a bigger table", "",
             "Full-board decisions valued by `race_advice` against one to five opponents who all have the same "
             "board (estimates of the turn-count model; Pegs: the mover's chance to finish first, Fives: his "
             "objective, the opponents' mean rest points minus his own, FIVES-6).", ""]
    for p in report.positions:
        rules = _rules(p.game)
        parts += [f"### {rules.name.capitalize()}", "",
                  f"Mover `{board_text(p.board)}`, throw {'-'.join(map(str, sorted(p.throw, reverse=True)))}, "
                  f"every opponent `{board_text(p.opponent)}`.", "",
                  markdown_table(["opponents", "advised row", "its value", "value now", "solo row"],
                                 [[k, row, value_text(rules, v), value_text(rules, now), solo]
                                  for k, row, v, now, solo in p.rows]), "",
                  advice_sentence(p), ""]
    return parts


def _exact_part(study: dict) -> list[str]:
    parts = ["## The approximation against the exact answer", "",
             "On reduced boards (only the named rows open) the race at the table is solved exactly (float64, "
             "`dicemath.games.pegs_fives.race_table`) for every position, each counted once: the mover (seat 0) "
             "playing to win against solo-optimal opponents (`best response`, what the model assumes) and every "
             "seat playing to win (`whole table`); the model values the same positions on the exact solo values. "
             "Errors are of the mover's value at the start of his turn (Pegs in percentage points of win "
             "probability, Fives in rest points of his objective); choices are the throws with two or more legal "
             "rows (chance-weighted), a row counting as differing when it is worth less than an exact best one; "
             "the value lost is the exact value given up per choice, beside what the solo-optimal row gives up. "
             "Models: `fitted` (Weibull laws around the expected turns) and `exact laws` (each board's law of "
             "remaining turns under solo play; the default where at most 36 boards are left to reach). Committed "
             "data, "
             "`python analyses/pegs_fives_tables.py GAME exact`.", ""]
    for rules in GAMES:
        record = study.get(rules.name, {}).get("exact")
        if record is None:
            parts += [f"{rules.name.capitalize()}: not yet measured.", ""]
            continue
        rows = [[r["players"], ",".join(map(str, r["open_rows"])), r["table"], r["model"], f"{r['positions']:,}",
                 value_text(rules, r["largest_error"], signed=True).lstrip("+"),
                 value_text(rules, r["mean_error"], signed=True).lstrip("+"),
                 f"{100 * r['differing_choices']:.2f}%" if r["choices"] else "no choices",
                 value_text(rules, r["mean_loss"], signed=True).lstrip("+") if r["choices"] else "",
                 value_text(rules, r["largest_loss"], signed=True).lstrip("+") if r["choices"] else "",
                 f"{100 * r['solo_differing_choices']:.2f}%" if r["choices"] else "",
                 value_text(rules, r["solo_mean_loss"], signed=True).lstrip("+") if r["choices"] else ""]
                for r in model_rows(record)]
        parts += [f"### {rules.name.capitalize()}", "",
                  markdown_table(["players", "open rows", "exact table", "model", "positions", "largest error",
                                  "mean error", "choices that differ", "value lost a choice", "largest loss",
                                  "solo row differs", "solo row loses"], rows), "",
                  *(line for table in TABLES for line in (model_sentence(rules, record, table), ""))]
    return parts


def _simulation_part(study: dict, context: ReportContext) -> list[str]:
    parts = ["## Simulated tables on the full board", "",
             "Full-board games of 3, 4 and 6 players, seat 0 first, every player's dice seeded: each game is "
             "played all solo-optimal (the distilled model's lookahead), with one race player (the seat turning "
             "with the game), and with the whole table playing to win (the turn-count model, fitted laws), on the "
             "same dice. Estimates with 95% intervals; the difference is paired (the same game played solo). "
             "Committed data, `python analyses/pegs_fives_tables.py GAME simulate`.", ""]
    measured = []
    for rules in GAMES:
        record = study.get(rules.name, {}).get("simulate")
        if record is None:
            parts += [f"{rules.name.capitalize()}: not yet simulated.", ""]
            continue
        measured.append((rules, record))
        scale = 100 if rules.scoring == "first_out" else 1
        unit = "win rate, %" if scale == 100 else "rest points a round"
        whole = "whole_table_first_seat_wins" if scale == 100 else "whole_table_rest_points"
        rows = []
        for t in record["tables"]:
            one, table = t["one_race"], t[whole]
            rows.append([t["players"], t["games"], interval_text(one["race"], one["race_ci95"], scale, signed=False),
                         interval_text(one["solo"], one["solo_ci95"], scale, signed=False),
                         interval_text(one["difference"], one["difference_ci95"], scale),
                         t["table_games"], interval_text(table["difference"], table["difference_ci95"], scale)])
        parts += [f"### {rules.name.capitalize()}", "",
                  markdown_table(["players", "games", f"race player ({unit})", f"same seat solo ({unit})",
                                  "difference", "whole-table games",
                                  "whole table: seat 0's win rate, difference (%)" if scale == 100 else
                                  "whole table: rest points a round, difference"], rows), "",
                  simulation_sentence(rules, record), "", whole_table_sentence(rules, record), ""]
    if measured:
        parts += [context.save_figure(gain_figure(measured), "bigger_table_gain.png",
                                      "the race player's gain against the number of players, simulated"), ""]
    return parts


def gain_figure(measured: list[tuple[Rules, dict]]) -> Any:
    """The race player's paired gain against the number of players, one panel per game, with
    95% intervals (Pegs: win rate; Fives: rest points saved a round)."""
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, len(measured), figsize=(5 * len(measured), 3.4), squeeze=False)
    for ax, (rules, record) in zip(axes[0], measured):
        pegs = rules.scoring == "first_out"
        scale = 100 if pegs else 1
        xs = [t["players"] for t in record["tables"]]
        ys = [scale * gain(rules, t["one_race"])[0] for t in record["tables"]]
        es = [scale * t["one_race"]["difference_ci95"] for t in record["tables"]]
        ax.errorbar(xs, ys, yerr=es, fmt="o-", capsize=4)
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_xticks(xs)
        ax.set_xlabel("players at the table")
        ax.set_ylabel("win rate gained (pp)" if pegs else "rest points saved a round")
        ax.set_title(rules.name.capitalize())
    figure.tight_layout()
    return figure


def render(report: BiggerTableReport, context: ReportContext) -> str:
    """Markdown of the section (the gain figure saved through ``context``)."""
    parts = ["Pegs is played by everyone at the table and Fives by two or more. With two or more opponents race "
             "advice answers from the turn-count model wherever no exact race covers the position: each player's "
             "remaining turns follow a law around his expected turns under solo-optimal play, the opponents "
             "independent and solo-optimal, and the mover's choices this turn are optimised on it.", ""]
    parts += _advice_part(report)
    parts += _exact_part(report.study)
    parts += _simulation_part(report.study, context)
    return "\n".join(parts)
