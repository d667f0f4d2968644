"""The ``analyse`` report section: where the policies of the committed records lose.

:func:`compute` analyses every record in ``dicemath/data/records/`` (seeded games between
policies, written by ``analyses/analyse_records.py``) and groups the decisions by game,
by the policy that made them (the record's seat names) and by each grouping of the
game's adapter (Pitjesbak: role and throw number, and the score; Pegs, Fives, BohnDuell
and Backgammon: the stage of the game), and draws for each game the costliest decision of
its best policy that lost anything (:mod:`dicemath.analysis.pictures`); :func:`render` writes the tables, a
figure, the pictures, and sentences read off the numbers. Losses are in each game's unit, so policies are compared
within a game only. Where a loss is an estimate (values of the Pegs/Fives board-value estimate,
the distilled model, or of the BohnDuell search) the table also gives the mean over the exact decisions
alone; a policy that *is* the estimate (the Pegs/Fives row advisor) loses nothing against
it by construction, so only its exact decisions judge it.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from dicemath.analysis import DecisionCost, analyse, read_record
from dicemath.analysis.pictures import decision_pictures
from dicemath.core.game import Game
from dicemath.core.numbers import number_text
from dicemath.core.markdown import markdown_table
from dicemath.reporting.context import ReportContext
from dicemath.reporting.section import Section

RECORDS = Path(__file__).resolve().parents[2] / "data" / "records"
"""The committed records the section analyses (shipped in the package, so that an installed
copy reports on them too)."""


@dataclass(frozen=True)
class PolicyRow:
    """The decisions of one policy in one game.

    Attributes:
        game, policy, unit: what was played, by whom, the unit of the losses.
        games: records the policy played in.
        decisions: its decisions; ``exact``: how many of them were valued exactly.
        total_loss: the sum of their losses; ``exact_loss``: of the exact ones.
        errors: decisions losing more than the game's threshold.
        threshold: that threshold.
    """

    game: str
    policy: str
    unit: str
    games: int
    decisions: int
    exact: int
    total_loss: float
    exact_loss: float
    errors: int
    threshold: float

    @property
    def mean_loss(self) -> float:
        return self.total_loss / self.decisions if self.decisions else 0.0

    @property
    def exact_mean_loss(self) -> float | None:
        return self.exact_loss / self.exact if self.exact else None


@dataclass(frozen=True)
class GroupRow:
    """One policy's decisions in one group (a stage of the game, a throw number...)."""

    game: str
    grouping: str
    label: str
    policy: str
    decisions: int
    total_loss: float

    @property
    def mean_loss(self) -> float:
        return self.total_loss / self.decisions if self.decisions else 0.0


@dataclass(frozen=True)
class CostliestDecision:
    """The costliest decision of one policy in one game, drawn.

    Attributes:
        game, policy, unit: the game, the policy that decided, the unit of the loss.
        record: the file name of the record it was made in.
        decision: the decision.
        picture: its SVG picture, the choice played against the best (:mod:`dicemath.analysis.pictures`).
    """

    game: str
    policy: str
    unit: str
    record: str
    decision: DecisionCost
    picture: str


@dataclass(frozen=True)
class AnalyseReport:
    """The numbers of the section.

    Attributes:
        records: how many records were analysed.
        games: the games analysed, in the order of the games the section was handed.
        groupings: each game's groupings of its decisions, each with its labels in order
            (its adapter's :attr:`~dicemath.analysis.GameAnalysis.groupings`).
        policies: one row per game and policy, by game, then by mean loss.
        groups: one row per game, grouping, label and policy.
        sources: the value source of each game, in words.
        costliest: per game, the costliest decision of the policy losing least per decision
            among those that lost anything.
    """

    records: int
    games: tuple[str, ...]
    groupings: dict[str, dict[str, tuple[str, ...]]]
    policies: tuple[PolicyRow, ...]
    groups: tuple[GroupRow, ...]
    sources: dict
    costliest: tuple[CostliestDecision, ...]


def section(games: Iterable[Game]) -> Section:
    """The section of the analysed games of ``games`` (a record of another game is refused:
    :class:`~dicemath.analysis.InvalidRecordError`)."""
    return Section("analyse", "Analysed games: where each policy loses", partial(compute, games=tuple(games)),
                   render)


def compute(context: ReportContext, games: Iterable[Game], folder: Path = RECORDS) -> AnalyseReport:
    """Analyse every record of ``folder``, each a game of ``games`` (with ``context.quick``:
    the first two of each game)."""
    games = tuple(games)
    paths = sorted(folder.glob("*.json"))
    if context.quick:
        first: dict = defaultdict(list)
        for path in paths:
            first[path.name.split("-")[0]].append(path)
        paths = [p for group in first.values() for p in group[:2]]
    played: dict = defaultdict(lambda: defaultdict(set))
    totals: dict = defaultdict(lambda: [0, 0, 0.0, 0.0, 0])
    grouped: dict = defaultdict(lambda: [0, 0.0])
    units, thresholds, sources, groupings = {}, {}, {}, {}
    worst: dict = {}
    by_name = {g.name: g for g in games}
    adapters = {name: g.analysis() for name, g in by_name.items()}
    for path in paths:
        record = read_record(path)
        analysis = analyse(record, games)
        game, rules = analysis.game, adapters[analysis.game]
        units[game], thresholds[game], sources[game] = analysis.unit, analysis.threshold, analysis.source
        groupings[game] = {name: tuple(labels) for name, labels in rules.groupings.items()}
        for decision in analysis.decisions:
            policy = analysis.seats[decision.player]
            played[game][policy].add(path.name)
            row = totals[game, policy]
            row[0] += 1
            row[1] += decision.exact
            row[2] += decision.loss
            row[3] += decision.loss if decision.exact else 0.0
            row[4] += decision.loss > analysis.threshold
            known = worst.get((game, policy))
            if decision.loss > (known[3].loss if known else 0.0):
                worst[game, policy] = (path, record, analysis, decision)
            for grouping, label in rules.groups(decision.context).items():
                cell = grouped[game, grouping, label, policy]
                cell[0] += 1
                cell[1] += decision.loss
    policies = tuple(PolicyRow(game, policy, units[game], len(played[game][policy]), n, exact, loss, exact_loss,
                               errors, thresholds[game])
                     for (game, policy), (n, exact, loss, exact_loss, errors) in totals.items())
    groups = tuple(GroupRow(game, grouping, label, policy, n, loss)
                   for (game, grouping, label, policy), (n, loss) in grouped.items())
    analysed = tuple(g.name for g in games if g.name in units)
    order = {game: i for i, game in enumerate(analysed)}
    ranked = tuple(sorted(policies, key=lambda r: (order[r.game], r.mean_loss)))
    costliest = []
    for game in analysed:
        row = next((r for r in ranked if r.game == game and (game, r.policy) in worst), None)
        if row is not None:
            path, record, analysis, decision = worst[game, row.policy]
            costliest.append(CostliestDecision(game, row.policy, row.unit, path.name, decision,
                                               decision_pictures(record, analysis, [decision], by_name[game])[0]))
    return AnalyseReport(len(paths), analysed, groupings, ranked, groups, sources, tuple(costliest))


def _policies_of(report: AnalyseReport, game: str) -> list[PolicyRow]:
    return [row for row in report.policies if row.game == game]


def ranking_sentence(rows: list[PolicyRow]) -> str:
    """Which policy loses least and most per decision in one game, read off its rows."""
    if len(rows) < 2:
        row = rows[0]
        return f"{row.policy} loses {number_text(row.mean_loss)} {row.unit} per decision."
    best, worst = min(rows, key=lambda r: r.mean_loss), max(rows, key=lambda r: r.mean_loss)
    if worst.mean_loss == 0:
        return "No policy lost anything."
    text = (f"{best.policy} loses least per decision ({number_text(best.mean_loss)} {best.unit}), "
            f"{worst.policy} most ({number_text(worst.mean_loss)}).")
    own = [r.policy for r in rows if r.decisions > r.exact and r.total_loss == r.exact_loss]
    if own:
        text += (f" {', '.join(own)} lost nothing on the estimated decisions: there the estimate is its own "
                 "value, so only its exact decisions judge it.")
    return text


def concentration_sentence(report: AnalyseReport, game: str, grouping: str, policy: str) -> str | None:
    """Where one policy's losses concentrate in a grouping: the group with the largest share
    of its total loss, against that group's share of its decisions."""
    cells = [g for g in report.groups if (g.game, g.grouping, g.policy) == (game, grouping, policy)]
    total = math.fsum(c.total_loss for c in cells)
    count = sum(c.decisions for c in cells)
    if total == 0 or not count:
        return None
    top = max(cells, key=lambda c: c.total_loss)
    return (f"{policy}'s losses concentrate in {top.label}: {top.total_loss / total:.0%} of its loss in "
            f"{top.decisions / count:.0%} of its decisions (mean {number_text(top.mean_loss)} there).")


def group_table(report: AnalyseReport, game: str, grouping: str) -> tuple[list, list[list]]:
    """Headers and rows: mean loss per decision (and decisions) by label, one column per policy."""
    labels = report.groupings[game][grouping]
    policies = [row.policy for row in _policies_of(report, game)]
    cells = {(g.label, g.policy): g for g in report.groups if (g.game, g.grouping) == (game, grouping)}
    rows = []
    for label in labels:
        row = [label]
        for policy in policies:
            cell = cells.get((label, policy))
            row.append(f"{cell.mean_loss:.4f} ({cell.decisions})" if cell else "")
        rows.append(row)
    return [grouping] + policies, rows


def figure(report: AnalyseReport):
    """Mean loss per decision by stage, one panel per game, one bar per policy. A stage where a
    policy made no decision is not measured: its bar is hatched over the panel's height and
    the legend says so; a measured loss of 0 is written as 0."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    games = [g for g in report.games if _policies_of(report, g)]
    columns = min(3, len(games))
    rows_of_panels = -(-len(games) // columns)
    fig, axes = plt.subplots(rows_of_panels, columns, figsize=(4.6 * columns, 5 * rows_of_panels),
                             squeeze=False)
    for axis in axes.flat[len(games):]:
        axis.set_visible(False)
    for axis, game in zip(axes.flat, games):
        grouping = next(iter(report.groupings[game]))
        labels = report.groupings[game][grouping]
        rows = _policies_of(report, game)
        width = 0.8 / len(rows)
        cells = {(g.policy, g.label): g for g in report.groups if (g.game, g.grouping) == (game, grouping)}
        top = max((c.mean_loss for c in cells.values()), default=0.0) * 1.15 or 1.0
        missing = False
        for k, row in enumerate(rows):
            colour = f"C{k}"
            for i, label in enumerate(labels):
                x = i + k * width
                cell = cells.get((row.policy, label))
                if cell is None:
                    missing = True
                    axis.bar(x, top, width, facecolor="none", edgecolor=colour, hatch="///", alpha=0.5)
                elif cell.mean_loss == 0:
                    axis.text(x, 0, "0", ha="center", va="bottom", color=colour)
            axis.bar([i + k * width for i in range(len(labels))],
                     [cells[row.policy, label].mean_loss if (row.policy, label) in cells else 0.0
                      for label in labels], width, color=colour, label=row.policy)
        handles = axis.get_legend_handles_labels()[0]
        if missing:
            handles.append(Patch(facecolor="none", edgecolor="grey", hatch="///", label="not measured (no decisions)"))
        axis.set_ylim(0, top)
        axis.set_xticks([i + 0.4 - width / 2 for i in range(len(labels))], labels, rotation=20, ha="right")
        axis.set_title(game)
        axis.set_ylabel(f"mean loss per decision ({rows[0].unit})")
        axis.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.3), ncol=2, frameon=False)
    return fig


def render(report: AnalyseReport, context: ReportContext) -> str:
    """Markdown of the section; the figure and the pictures saved through ``context``."""
    if not report.records:
        return (f"No records to analyse in `{RECORDS.relative_to(RECORDS.parent.parent.parent)}`: run "
                "`python analyses/analyse_records.py` to write them.")
    parts = [
        f"Every decision of {report.records} seeded games (the records in `dicemath/data/records/`, written by "
        "`analyses/analyse_records.py`) analysed by `dicemath analyse`: the loss of a decision is the value "
        "of the best action minus the value of the one chosen, for the player who chose (see "
        "`docs/analyse.md`). Losses are in each game's unit, so policies compare within a game only.",
        "",
        "## Loss per decision, by policy",
        "",
    ]
    rows = []
    for row in report.policies:
        exact = f"{row.exact_mean_loss:.4f} ({row.exact})" if row.exact_mean_loss is not None else "none exact"
        rows.append([row.game, row.policy, row.games, row.decisions, f"{row.mean_loss:.4f}", exact,
                     f"{row.errors / row.games:.1f}", row.unit])
    parts += [markdown_table(["game", "policy", "games", "decisions", "mean loss", "mean loss, exact decisions",
                              "errors per game", "unit"], rows, align="llrrrrrl"), ""]
    for game in report.games:
        game_rows = _policies_of(report, game)
        if game_rows:
            parts.append(f"- **{game}** ({report.sources[game]}): {ranking_sentence(game_rows)}")
    parts += ["", "## Where the losses concentrate", ""]
    for game in report.games:
        game_rows = _policies_of(report, game)
        if not game_rows:
            continue
        parts += [f"### {game}", ""]
        for grouping in report.groupings[game]:
            headers, rows = group_table(report, game, grouping)
            parts += [f"Mean loss per decision ({game_rows[0].unit}; decisions in brackets) by {grouping}:", "",
                      markdown_table(headers, rows, align="l" + "r" * (len(headers) - 1)), ""]
            sentences = [concentration_sentence(report, game, grouping, row.policy) for row in game_rows]
            parts += [" ".join(s for s in sentences if s) or "No policy lost anything.", ""]
    parts += [context.save_figure(figure(report), "analyse_losses.png", "mean loss per decision by stage"), "",
              "A hatched bar is a stage where the policy made no decision (not measured); a 0 is a measured "
              "loss of nothing.", ""]
    if report.costliest:
        parts += ["## The costliest decisions, drawn", "",
                  "For each game, the costliest decision of the policy that loses least per decision among those "
                  "that lose anything: the position with every option's value, the best framed in blue, the "
                  "choice played named above it (`dicemath analyse FILE --pictures DIR` draws a record's three "
                  "costliest decisions).", ""]
        for drawn in report.costliest:
            cost = drawn.decision
            parts += [f"**{drawn.game}**, {drawn.policy} in `{drawn.record}`, entry {cost.index}: played "
                      f"{cost.choice}, best {cost.best}, {number_text(cost.loss)} {drawn.unit} lost"
                      f"{'' if cost.exact else ' (some values are estimates)'}.", "",
                      context.save_picture(drawn.picture, f"analyse_{drawn.game}_costliest.svg",
                                           f"{drawn.game}: {drawn.policy} played {cost.choice}, best {cost.best}"),
                      ""]
    return "\n".join(parts)
