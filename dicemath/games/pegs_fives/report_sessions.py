"""Report section ``sessions``: playing a Fives session (FIVES-7: rest points add up over the
rounds, the lowest total after the last round wins, a tie for it shared, the start player
moving one seat on each round) for the session instead of for the round's rest points.

The section reads committed data only, each number labelled by where it comes from:

* **when to gamble**: on the reduced board of the numbers 1 and 2, two players, the exact
  session row against the exact rest-point row (FIVES-6) by rounds left and lead: the leads
  at which they differ at the round's first choice, and how often and how much they differ
  over every pair of boards (``departure`` of ``analyses/data/fives_sessions.json``,
  ``python analyses/fives_sessions.py``);
* **the approximation against the exact values**: the session model of
  :mod:`.session_advice` (``exact: False``) against the exact two-player session on reduced
  boards, its win probability (largest and mean error) and its row (how often it is not the
  exact session row, what it costs), beside the rest-point row (``approximation`` and
  ``choices`` of the same file);
* **simulated sessions on the full board**: one session-aware player among round-aware or
  solo-optimal players, and a whole table playing for the session, paired on the same dice;
  estimates with 95% intervals (``analyses/data/fives_sessions_simulated.json``,
  ``python analyses/fives_sessions_simulated.py``).

Every sentence that states a conclusion is read off the numbers it describes.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dicemath.core.markdown import markdown_table
from dicemath.reporting.context import ReportContext

DATA = Path(__file__).resolve().parents[3] / "analyses" / "data"
"""The committed study data of the section's two scripts."""

EXACT_RESULTS = DATA / "fives_sessions.json"
"""The reduced-board study (``analyses/fives_sessions.py``)."""

SIMULATED_RESULTS = DATA / "fives_sessions_simulated.json"
"""The full-board simulation (``analyses/fives_sessions_simulated.py``)."""


def read_json(path: Path) -> dict:
    """A committed study (empty when not measured)."""
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


@dataclass(frozen=True)
class SessionsReport:
    """The section's numbers: ``exact`` (the reduced-board study) and ``simulated`` (the
    full-board simulation), each as committed (empty when not measured)."""

    exact: dict
    simulated: dict


def compute(context: ReportContext) -> SessionsReport:
    """The committed studies (nothing is solved when the report is written)."""
    return SessionsReport(read_json(EXACT_RESULTS), read_json(SIMULATED_RESULTS))


def pp(value: float, *, signed: bool = False, digits: int = 1) -> str:
    """A probability in percent, or a difference of two (``signed``) in percentage points.

    Example:
        >>> pp(0.2041), pp(-0.0123, signed=True), pp(0.00049, digits=3)
        ('20.4%', '-1.2 pp', '0.049%')
    """
    return f"{100 * value:+.{digits}f} pp" if signed else f"{100 * value:.{digits}f}%"


def interval(value: float, half: float, scale: float = 100.0, digits: int = 1) -> str:
    """``value ± half`` (scaled, signed)."""
    return f"{scale * value:+.{digits}f} ± {scale * half:.{digits}f}"


def verdict(value: float, half: float) -> str:
    """Whether a 95% interval lies above zero, below it, or holds it."""
    if value - half > 0:
        return "above zero"
    if value + half < 0:
        return "below zero"
    return "holding zero"


# ---------------------------------------------------------------------------------------------
# When to gamble
# ---------------------------------------------------------------------------------------------

def departing_leads(departure: dict) -> dict[int, list[int]]:
    """By rounds left, the leads at which the exact session row differs from the exact
    rest-point row at the round's first choice (the fresh pair)."""
    out: dict[int, list[int]] = {}
    for case in departure["cases"]:
        if "lead" in case:
            leads = out.setdefault(case["rounds"], [])
            if case["differs_at_the_fresh_pair"]:
                leads.append(case["lead"])
    return out


def departure_sentence(departure: dict) -> str:
    """When the session row departs from the rest-point row, by rounds left."""
    measured = departure["leads"]
    parts = []
    for rounds, leads in departing_leads(departure).items():
        if not leads:
            parts.append(f"with {rounds} round{'s' if rounds > 1 else ''} left at no lead from {min(measured):+d} to "
                         f"{max(measured):+d}")
            continue
        low, high = min(leads), max(leads)
        contiguous = len(leads) == high - low + 1
        span = f"from a lead of {low:+d} to {high:+d}" if contiguous else "at the leads " + ", ".join(
            f"{lead:+d}" for lead in leads)
        edge = " (the largest lead measured)" if high == max(measured) else ""
        parts.append(f"with {rounds} round{'s' if rounds > 1 else ''} left {span}{edge}")
    firsts = [min(leads, key=abs) for leads in departing_leads(departure).values() if leads]
    trend = ""
    if len(firsts) > 1:
        if all(a < b for a, b in zip(firsts, firsts[1:])):
            trend = " The more rounds are left, the larger the lead at which the session row departs."
        elif all(a > b for a, b in zip(firsts, firsts[1:])):
            trend = " The more rounds are left, the smaller the lead at which the session row departs."
    return ("At the round's first choice the session row differs from the rest-point row "
            + "; ".join(parts) + "." + trend)


def _departure_part(exact: dict) -> list[str]:
    departure = exact.get("departure")
    parts = ["## When to gamble", ""]
    if departure is None:
        return parts + ["Not yet measured.", ""]
    rows_text = ", ".join(map(str, departure["open_rows"]))
    parts += [f"Two players on the reduced board of the numbers {rows_text} (every other number complete), both "
              "playing for the session, solved exactly (float64): the row that maximises the chance to win the "
              "session against the row that maximises the round's rest-point objective (FIVES-6), which is what "
              "advice without a session gives. The lead is the opponent's total minus the mover's (positive: the "
              "mover leads). Committed data, `python analyses/fives_sessions.py --only departure`.", "",
              departure_sentence(departure), ""]
    by_rounds = departing_leads(departure)
    shown = [c for c in departure["cases"] if "lead" in c and c["lead"] % 5 == 0]
    parts += [markdown_table(
        ["rounds left", "lead", "choices that differ", "session chance lost a choice", "differs at the first choice"],
        [[c["rounds"], f"{c['lead']:+d}", pp(c["differs"]), pp(c["mean_loss"], digits=3),
          "yes" if c["differs_at_the_fresh_pair"] else "no"] for c in shown]), "",
        "Choices are every pair of boards' turn-start choice throws with two or more legal rows, each pair once, "
        "weighted by the throw's chance; the loss is the exact session chance the rest-point row gives up.", ""]
    worst = max((c for c in departure["cases"] if "lead" in c), key=lambda c: c["mean_loss"])
    parts += [f"The rest-point row costs most at {worst['rounds']} round{'s' if worst['rounds'] > 1 else ''} left and "
              f"a lead of {worst['lead']:+d}: it differs at {pp(worst['differs'])} of the choices and gives up "
              f"{pp(worst['mean_loss'], signed=True, digits=3).lstrip('+')} of session chance a choice on average"
              + (" (at the first choice too)." if worst["lead"] in by_rounds.get(worst["rounds"], []) else "."), ""]
    return parts


# ---------------------------------------------------------------------------------------------
# The approximation against the exact values
# ---------------------------------------------------------------------------------------------

def choices_sentence(choices: dict) -> str:
    """Whether the session model's row or the rest-point row loses less exact session chance,
    over the measured rounds and leads."""
    cases = choices["cases"]
    model = sum(c["model_mean_loss"] for c in cases) / len(cases)
    rest = sum(c["rest_points_mean_loss"] for c in cases) / len(cases)
    fewer = sum(c["model_mean_loss"] < c["rest_points_mean_loss"] for c in cases)
    better = "the session model's row" if model < rest else "the rest-point row"
    return (f"Averaged over the {len(cases)} cases (rounds left and leads), the session model's row gives up "
            f"{pp(model, signed=True, digits=3).lstrip('+')} of session chance a choice and the rest-point row "
            f"{pp(rest, signed=True, digits=3).lstrip('+')}: {better} loses less; the model's row loses less in "
            f"{fewer} of the {len(cases)} cases.")


def _approximation_part(exact: dict) -> list[str]:
    parts = ["## The approximation against the exact values", ""]
    approximation, choices = exact.get("approximation"), exact.get("choices")
    if approximation is None and choices is None:
        return parts + ["Not yet measured.", ""]
    parts += ["Wherever the two-player race or the later rounds are too big to solve now, and at every table of "
              "three or more, session advice is the session model (labelled an approximation, `exact: False`): "
              "this round by the turn-count model of race advice (each player's remaining turns a fitted law "
              "around his expected turns under solo play), each later round an independent normal added to every "
              "total (the mean and variance of a player's rest points in a fresh round under the same model), the "
              "chance of the lowest total by quadrature. The sum of independent rounds is cheap and smooth in the "
              "lead at every table size; it ignores the start player's edge in later rounds and that exactly one "
              "player scores 0 in each. Measured here against the exact two-player session on reduced boards "
              "(every round fresh on the same numbers). Committed data, `python analyses/fives_sessions.py`.", ""]
    if approximation is not None:
        records = [r for r in approximation.values() if isinstance(r, dict) and "cases" in r]
        parts += [markdown_table(
            ["open numbers", "rounds left", "lead step", "cases", "largest error", "mean error"],
            [[",".join(map(str, r["open_rows"])), f"1 to {r['rounds']}", r["lead_step"], len(r["cases"]),
              pp(r["max_error"], signed=True).lstrip("+"), pp(r["mean_error"], signed=True).lstrip("+")]
             for r in records]), "",
            "Errors are of the first mover's session win probability at the round's start (the model against the "
            "exact value), over every lead a round can leave at the step shown.", ""]
        worst = max(records, key=lambda r: r["max_error"])
        parts += [f"The model's win probability is off by up to {pp(worst['max_error'], signed=True).lstrip('+')} "
                  f"(numbers {','.join(map(str, worst['open_rows']))}); its values are estimates, and its rows are "
                  "what the next table measures.", ""]
    if choices is not None:
        parts += [markdown_table(
            ["rounds left", "lead", "model row differs", "model loses a choice", "model's largest loss",
             "rest-point row differs", "rest-point row loses a choice", "its largest loss"],
            [[c["rounds"], f"{c['lead']:+d}", pp(c["model_differs"]), pp(c["model_mean_loss"], digits=3),
              pp(c["model_max_loss"], digits=2), pp(c["rest_points_differs"]),
              pp(c["rest_points_mean_loss"], digits=3), pp(c["rest_points_max_loss"], digits=2)]
             for c in choices["cases"]]), "",
            f"Numbers {','.join(map(str, choices['open_rows']))}, {choices['pairs']} sampled pairs of boards (seed "
            f"{choices['seed']}), the first mover's turn-start choices with two or more legal rows, chance-weighted; "
            "losses in exact session win probability.", "", choices_sentence(choices), ""]
    return parts


# ---------------------------------------------------------------------------------------------
# Simulated sessions
# ---------------------------------------------------------------------------------------------

COMPARISONS = (("one_session_vs_round", "against round-aware players"),
               ("one_session_vs_solo", "against solo-optimal players"))
"""The one-player comparisons of the simulation: its key, in words."""


VERDICTS = (("above zero", "{up}"), ("below zero", "{down}"),
            ("holding zero", "shows no difference these sessions can tell (the 95% interval holds zero)"))
"""The verdicts of an interval, in the order the sentences give them, with their words."""


def grouped(simulated: dict, key: str, up: str, down: str) -> str:
    """The tables grouped by the verdict of ``key``'s paired difference: ``up`` where its
    interval lies above zero, ``down`` below it, else that these sessions cannot tell."""
    groups: dict[str, list[str]] = {}
    for t in simulated["tables"]:
        d = t[key]
        groups.setdefault(verdict(d["difference"], d["difference_ci95"]), []).append(
            f"{t['rounds']} rounds and {t['players']} players")
    return ", and ".join(f"{words.format(up=up, down=down)} at " + "; ".join(groups[name])
                         for name, words in VERDICTS if name in groups)


def gain_sentence(simulated: dict, key: str, words: str) -> str:
    """Where the one session-aware player's paired gain is measurably positive, negative or not."""
    return f"One session-aware player {words} " + grouped(simulated, key, "gains session wins",
                                                           "loses session wins") + "."


def whole_table_sentence(simulated: dict) -> str:
    """What a whole table playing for the session changes against one playing for rest points."""
    return ("With the whole table playing for the session instead of the round's rest points, the leader before "
            "the last round " + grouped(simulated, "whole_table_leader_wins", "wins more often", "wins less often")
            + "; the rest points a player scores a round "
            + grouped(simulated, "whole_table_rest_points", "go up", "go down").replace("shows", "show") + ".")


def chance_sentence(simulated: dict) -> str:
    """How many of the one-player gains' 95% intervals exclude zero, and the chance that at
    least that many would if the session player gained nothing (each interval excluding zero
    with chance 1 in 20, the intervals taken as independent)."""
    verdicts = [verdict(t[key]["difference"], t[key]["difference_ci95"]) for t in simulated["tables"]
                for key, _ in COMPARISONS]
    n, k = len(verdicts), sum(v != "holding zero" for v in verdicts)
    chance = 1.0 - sum(math.comb(n, i) * 0.05 ** i * 0.95 ** (n - i) for i in range(k))
    reading = ("as many as chance alone gives often: these sessions do not show that the session player gains "
               "anywhere" if chance >= 0.05 else "more than chance alone gives: these sessions show a gain")
    return (f"Of the {n} intervals of one session-aware player's gain, {k} exclude zero; with no gain at all, at least "
            f"{k} would with probability {pp(chance)}, {reading}.")


def _simulation_part(simulated: dict, context: ReportContext) -> list[str]:
    parts = ["## Simulated sessions on the full board", ""]
    if not simulated.get("tables"):
        return parts + ["Not yet simulated.", ""]
    parts += ["Full-board Fives sessions (estimates): one session-aware player (the session model) among round-aware "
              "players (race advice's rest-point objective, FIVES-6) or solo-optimal players (the distilled model's "
              "lookahead), against the same session with that seat playing like the others, on the same dice; and "
              "the whole table playing for the session against the whole table playing for rest points. The tested "
              "seat turns with the session and the first start player every few sessions, so each seat meets each "
              "start order alike; the start player moves one seat each round (FIVES-7). Win rates count a shared "
              "win 1/k; differences are paired; 95% intervals by the normal approximation. Committed data, "
              f"`python analyses/fives_sessions_simulated.py` ({simulated.get('cpu', 'CPU not recorded')}, "
              f"{simulated.get('cpu_seconds', 0):.0f} s of CPU).", ""]
    rows = []
    for t in simulated["tables"]:
        vs_round, vs_solo = t["one_session_vs_round"], t["one_session_vs_solo"]
        leader, rest = t["whole_table_leader_wins"], t["whole_table_rest_points"]
        rows.append([t["rounds"], t["players"], t["sessions"], pp(vs_round["test"]), pp(vs_round["base"]),
                     interval(vs_round["difference"], vs_round["difference_ci95"]),
                     pp(vs_solo["test"]), pp(vs_solo["base"]),
                     interval(vs_solo["difference"], vs_solo["difference_ci95"]),
                     t["table_sessions"], interval(leader["difference"], leader["difference_ci95"]),
                     interval(rest["difference"], rest["difference_ci95"], 1.0, 2)])
    parts += [markdown_table(
        ["rounds", "players", "sessions", "session player among round-aware", "that seat round-aware", "gain (pp)",
         "session player among solo", "that seat solo", "gain (pp)", "whole-table sessions",
         "whole table: leader's win rate (pp)", "whole table: rest points a round"], rows), "",
        *(line for key, words in COMPARISONS for line in (gain_sentence(simulated, key, words), "")),
        chance_sentence(simulated), "", whole_table_sentence(simulated), "",
        context.save_figure(gain_figure(simulated), "sessions_gain.png",
                            "the session-aware player's gain in session wins, simulated, with 95% intervals"), ""]
    return parts


def gain_figure(simulated: dict) -> Any:
    """The one session-aware player's gain in session wins (percentage points, 95% intervals)
    against the number of players, one panel per comparison, a line per session length."""
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(1, len(COMPARISONS), figsize=(5 * len(COMPARISONS), 3.4), squeeze=False)
    lengths = sorted({t["rounds"] for t in simulated["tables"]})
    for ax, (key, words) in zip(axes[0], COMPARISONS):
        for k, rounds in enumerate(lengths):
            tables = [t for t in simulated["tables"] if t["rounds"] == rounds]
            xs = [t["players"] + 0.08 * (k - (len(lengths) - 1) / 2) for t in tables]
            ax.errorbar(xs, [100 * t[key]["difference"] for t in tables],
                        yerr=[100 * t[key]["difference_ci95"] for t in tables], fmt="o-", capsize=4,
                        label=f"{rounds} rounds")
        ax.axhline(0, color="grey", lw=0.8)
        ax.set_xticks(sorted({t["players"] for t in simulated["tables"]}))
        ax.set_xlabel("players at the table")
        ax.set_ylabel("session wins gained (pp)")
        ax.set_title(words)
        ax.legend()
    figure.tight_layout()
    return figure


def render(report: SessionsReport, context: ReportContext) -> str:
    """Markdown of the section (the gain figure saved through ``context``)."""
    parts = ["A Fives session adds each round's rest points to a running total; the lowest total after the last "
             "round wins (FIVES-7). Session advice (`dicemath fives advise` with the opponents' boards, `--totals` "
             "and `--rounds-left`) values every row by the mover's chance to win the session: exactly for two "
             "players wherever their race and the later rounds can be solved, else by the session model, labelled "
             "an approximation.", ""]
    parts += _departure_part(report.exact)
    parts += _approximation_part(report.exact)
    parts += _simulation_part(report.simulated, context)
    return "\n".join(parts)
