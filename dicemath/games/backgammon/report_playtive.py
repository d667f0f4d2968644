"""Report section ``backgammon_playtive``: BG-4's 5-checker limit measured by self-play, and
the evaluator behind it checked against GNU Backgammon.

:func:`compute` reads the committed findings of :mod:`dicemath.studies`
(``data/playtive_study.json`` from ``analyses/backgammon_playtive.py``;
``data/gnubg_agreement.json`` from ``analyses/backgammon_gnubg_agreement.py``) and works
out what the opening rolls' changes are due to, into a :class:`PlaytiveReport`; :func:`render` writes the
Markdown and the figure, every conclusion read off the numbers. It builds in a moment; ``context.quick``
changes nothing.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from dicemath.games.backgammon.moves import apply_notation
from dicemath.games.backgammon.position import Position
from dicemath.games.backgammon.rules import PLAYTIVE
from dicemath.core.markdown import markdown_table
from dicemath.reporting.context import ReportContext
from dicemath.reporting.context import study_file

AGREEMENT_FILE = study_file("gnubg_agreement.json")
FINDINGS_FILE = study_file("playtive_study.json")
"""The committed self-play study (written by :mod:`dicemath.studies.backgammon_playtive`)."""


@dataclass(frozen=True)
class OpeningChange:
    """An opening roll whose best play differs between the presets.

    Attributes:
        roll: ``"6-5"``; ``ply``: the look-ahead at which it differs.
        standard, playtive: the best play under each preset.
        crowded: the points (the mover's numbering) where the standard play puts more
            than 5 of his checkers (empty: the standard play is legal under BG-4).
    """

    roll: str
    ply: int
    standard: str
    playtive: str
    crowded: tuple[int, ...]


@dataclass(frozen=True)
class PlaytiveReport:
    """The numbers of the Playtive section.

    Attributes:
        findings: the committed study (:data:`FINDINGS_FILE`).
        openings: the opening rolls whose best play changes, at 0 ply and at the
            confirmation's ply.
        agreement: the committed comparison with GNU Backgammon (None when absent).
    """

    findings: dict
    openings: tuple[OpeningChange, ...]
    agreement: dict | None


def compute(context: ReportContext) -> PlaytiveReport:
    """Read the committed findings; find what each changed opening play is due to."""
    findings = json.loads(FINDINGS_FILE.read_text())
    limit = PLAYTIVE.max_per_point
    if limit is None:
        raise ValueError("the playtive preset has no per-point limit (BG-4)")
    openings = []
    confirmation = findings.get("confirmation")
    if confirmation:
        for ply in sorted({0, confirmation["ply"]}):
            for row in confirmation["openings"][str(ply)]:
                if row["changes"]:
                    after = apply_notation(Position.initial(), row["standard"])
                    crowded = tuple(p for p in range(1, 25) if after.on_roll[p - 1] > limit)
                    openings.append(OpeningChange(row["roll"], ply, row["standard"], row["playtive"], crowded))
    agreement = json.loads(AGREEMENT_FILE.read_text()) if AGREEMENT_FILE.exists() else None
    return PlaytiveReport(findings, tuple(openings), agreement)


def _ci(entry: dict, scale: float = 100.0, digits: int = 2, unit: str = "%") -> str:
    return (f"{entry['value'] * scale:.{digits}f}{unit} "
            f"[{entry['low'] * scale:.{digits}f}, {entry['high'] * scale:.{digits}f}]")


def _comparison_rows(findings: dict) -> list[list[str]]:
    rows = []
    for key, label, scale, unit in (("starter_wins", "first player wins", 100, "%"),
                                    ("starter_equity", "first player's points per game", 1, ""),
                                    ("gammons", "gammons (incl. backgammons) per game", 100, "%"),
                                    ("backgammons", "backgammons per game", 100, "%"),
                                    ("plays_per_game", "plays per game", 1, "")):
        entry = findings[key]
        digits = 3 if unit == "" else 2
        rows.append([label, _ci(entry["standard"], scale, digits, unit), _ci(entry["playtive"], scale, digits, unit),
                     _ci(entry["difference"], scale, digits, unit)])
    return rows


def _figure(findings: dict):
    import matplotlib.pyplot as plt
    import numpy as np

    figure, axes = plt.subplots(1, 2, figsize=(11, 4))
    histogram = findings["cost"]["histogram"]
    edges, counts = histogram["edges"], histogram["counts"]
    labels = ["< 0"] + [f"{a:g}-{b:g}" for a, b in zip(edges[1:-2], edges[2:-1])] + [f"> {edges[-2]:g}"]
    axes[0].bar(range(len(counts)), counts, color="tab:red")
    axes[0].set_xticks(range(len(counts)), labels, rotation=45)
    axes[0].set(xlabel="equity lost to the limit (points per game)", ylabel="binding turns",
                title=f"Cost when the limit binds ({findings['binds']:,} turns)")
    keys = [("starter_wins", "first player wins"), ("gammons", "gammon rate"), ("backgammons", "backgammon rate")]
    x = np.arange(len(keys))
    for offset, preset, color in ((-0.2, "standard", "tab:blue"), (0.2, "playtive", "tab:orange")):
        values = [findings[k][preset]["value"] for k, _ in keys]
        errors = [findings[k][preset]["value"] - findings[k][preset]["low"] for k, _ in keys]
        axes[1].bar(x + offset, values, 0.4, yerr=errors, capsize=4, label=preset, color=color)
    axes[1].set_xticks(x, [label for _, label in keys])
    axes[1].set(ylabel="fraction of games", title=f"{findings['games']:,} paired self-play games (95% CI)")
    axes[1].legend()
    return figure


def cost_conclusion(findings: dict) -> str:
    """What the limit costs when it binds, and whether it ever helps."""
    cost = findings["cost"]
    text = (f"When it binds, it costs the player to move on average **{cost['mean']['value']:.4f} points** "
            f"[{cost['mean']['low']:.4f}, {cost['mean']['high']:.4f}] of cubeless equity (best standard play minus "
            f"best playtive play); median {cost['median']:.4f}, 90% of costs below {cost['quantiles']['0.9']:.4f}, "
            f"largest {cost['max']:.3f}. Summed over both sides that is {cost['per_game']['value']:.4f} "
            "points per game.")
    if not cost["negative"]:
        return text + " It never helps the player to move."
    return text + (f" In {cost['negative']:,} of the binding turns ({cost['negative'] / findings['binds']:.1%}) the "
                   "limit *helps* the player to move (negative cost): it blocks a die, so fewer dice must be played, "
                   "and the resulting play (which the standard rules forbid, as they make him use both dice, or all "
                   "four of a double) is better than every standard play.")


def opening_conclusion(report: PlaytiveReport) -> str:
    """Why the best opening plays change, read off the plays themselves."""
    deep = report.findings["confirmation"]["ply"]
    shallow = [o for o in report.openings if o.ply == 0]
    text = ("The best opening play changes for no roll at 0 ply." if not shallow
            else "The best opening play changes for ")
    reasons = []
    for change in shallow:
        if change.crowded:
            points = " and ".join(f"the {p}-point" for p in change.crowded)
            reasons.append(f"{change.roll}: the standard play {change.standard} puts a sixth checker on {points}, "
                           "which BG-4 closes")
        else:
            reasons.append(f"{change.roll}: the standard play {change.standard} is legal under BG-4, but the "
                           "evaluator prefers another")
    if shallow:
        text += "; ".join(reasons) + "."
    later = [o for o in report.openings if o.ply == deep and o.roll not in {s.roll for s in shallow}]
    if later:
        legal = all(not o.crowded for o in later)
        text += (f" At {deep} ply it also changes for {', '.join(o.roll for o in later)}: "
                 + ("the standard play is legal, but the look-ahead under BG-4 values the positions differently."
                    if legal else "the standard play puts a sixth checker on a point."))
    return text


def _agreement_part(agreement: dict | None) -> list[str]:
    if agreement is None:
        return []
    rows = []
    for ply, cube in sorted(agreement["cube"].items()):
        moves = agreement["top_play"].get(ply)
        classes = ", ".join(f"{name} {count}" for name, count in cube["classes"].items() if count) or "none"
        rows.append([ply, f"{cube['agree']}/{cube['cases']} ({cube['agreement']:.1%})",
                     f"{cube['no_double']['mean_abs']:.4f} / {cube['no_double']['max_abs']:.3f}", classes,
                     "" if moves is None else
                     f"{moves['same'] + moves['same_cut_short']}/{moves['positions'] - moves['ties']} "
                     f"({moves['ties']} ties excepted; mixed plies: {len(moves.get('mixed_plies', []))})"])
    parts = ["", "## The evaluator against GNU Backgammon", "",
             "The same self-play positions, side by side with GNU Backgammon's own decisions at the same ply: "
             "its cube decision (recorded from the gnubg 1.07 program, money play, no Jacoby) and its "
             "`find_best_move` (the gnubg package, same move filter).", "",
             markdown_table(["ply", "cube action agrees", "no-double equity diff. mean / max",
                             "disagreements by class", "same top play"], rows, "lrrll"), ""]
    parts += ["Cube disagreement classes:", ""]
    parts += [f"* **{name}**: {text}." for name, text in agreement["classes"].items()]
    parts += ["", "Top play: where gnubg's move tuple is cut short at a checker borne off (a bug of the "
              "package), the play it describes is compared. *Mixed plies*: gnubg's own pick is a play its "
              "filter dropped after 0 ply, whose 0-ply score it sorts above the scores of the plays it "
              "evaluated at 2 ply; dicemath ranks the plays evaluated at the full ply first."]
    return parts


def render(report: PlaytiveReport, context: ReportContext) -> str:
    """Markdown of the Playtive section, its figure saved through ``context``."""
    findings = report.findings
    parts = [
        "The seed's own rule (BG-4 `playtive`): a point holding 5 of a player's own checkers is closed to him. "
        "No engine plays this variant, so dicemath measured it by self-play: "
        f"{findings['games']:,} games under each preset, paired (game *i* of both presets starts from the same "
        "dice seed), both sides always choosing the best legal play by the evaluator "
        "(GNU Backgammon's 0-ply nets; dicemath's exact and race tables in the bear-off; cubeless money "
        "equity, gammons counted). Every figure is an estimate with its 95% confidence interval.",
        "",
        "## How often the limit binds",
        "",
        f"The limit *binds* on a turn when the best standard play of the roll is illegal under BG-4. Over "
        f"{findings['turns']:,} playtive turns it bound {findings['binds']:,} times: "
        f"**{_ci(findings['binds_per_move'], digits=2)} of turns**. "
        f"It binds at least once in {_ci(findings['games_with_binds'], digits=1)} of games, "
        f"{findings['binds_per_game']['value']:.2f} times per game on average.",
        "",
        cost_conclusion(findings),
        "",
        "## What it changes",
        "",
        markdown_table(["per game", "standard", "playtive", "playtive - standard (paired)"],
                       _comparison_rows(findings), "lrrr"),
        "",
        context.save_figure(_figure(findings), "backgammon_playtive.png", "Playtive limit: cost and rates"),
    ]
    confirmation = findings.get("confirmation")
    if confirmation:
        deep = confirmation["ply"]
        shallow_rows, deep_rows = confirmation["openings"]["0"], confirmation["openings"][str(deep)]
        rows = [[o0["roll"], o0["standard"], o0["playtive"], "yes" if o0["changes"] else "",
                 o2["standard"], o2["playtive"], "yes" if o2["changes"] else ""]
                for o0, o2 in zip(shallow_rows, deep_rows)]
        parts += ["", "## Opening rolls", "", opening_conclusion(report), "",
                  markdown_table(["roll", "standard (0-ply)", "playtive (0-ply)", "changes",
                                  f"standard ({deep}-ply)", f"playtive ({deep}-ply)", "changes"], rows, "lllllll"),
                  "", f"## Confirmation at {deep} ply", "",
                  f"On {confirmation['positions']:,} positions sampled from the playtive games (one random turn "
                  f"of each of the first games), re-examined at {deep} ply with dicemath's look-ahead over "
                  f"BG-4-legal plays: in {confirmation['contested']} of them a standard play of the roll is illegal "
                  f"under BG-4; the limit binds in {confirmation['binds']} "
                  f"({confirmation['binds'] / confirmation['positions']:.1%}) at {deep} ply, against "
                  f"{confirmation['binds_0ply']} at 0 ply ({confirmation['both']} in both)."]
        if confirmation["costs"]:
            mean = sum(confirmation["costs"]) / len(confirmation["costs"])
            mean_0 = sum(confirmation["costs_0ply"]) / len(confirmation["costs_0ply"])
            parts[-1] += (f" Mean cost when it binds: {mean:.4f} at {deep} ply, {mean_0:.4f} at 0 ply on the same "
                          "positions.")
    parts += _agreement_part(report.agreement)
    parts += ["", f"Data: `{FINDINGS_FILE.name}`, method: {findings['method']}."]
    return "\n".join(parts) + "\n"
