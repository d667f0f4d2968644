"""Report sections ``pegs`` and ``fives`` (listed by the Pegs and Fives game objects, :mod:`.game`).

:func:`compute` computes what a section shows and returns it as
a :class:`PegsFivesReport` (numbers, no prose); :func:`render` writes the Markdown and the
figure from it, every conclusion read off the numbers. Every number is computed by the
library: exact per-row tables (:mod:`dicemath.games.pegs_fives.rows`), exact reduced
solves (:mod:`dicemath.games.pegs_fives.solver`), simulated whole games and races (seeded,
with 95% confidence intervals).
``context.quick`` shrinks the simulations and solves.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from dicemath.core.stats import mean_confidence_interval
from dicemath.core.dice import throw_text
from dicemath.core.svg import picture
from dicemath.core.advice import Advice
from dicemath.core.game import Game
from dicemath.games.pegs_fives.advisor import FEATURES, Advisor, board_value
from dicemath.games.pegs_fives.races import last_turn_rest, race_result
from dicemath.games.pegs_fives.rows import RowTable, row_tables
from dicemath.games.pegs_fives.rules import Rules
from dicemath.games.pegs_fives.solver import solve_greedy, solve_reduced
from dicemath.games.pegs_fives.state import (
    SafeGreedy, State, board_text, choice_state, greedy_policy, initial_state, play_game, rest_points)
from dicemath.core.markdown import markdown_table
from dicemath.reporting.context import ReportContext

EXAMPLES = (
    ((0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 0, 0), (3, 3, 3, 5, 6, 2)),
    ((5, 5, 3, 5, 5, 4, 2, 0, 5, 5, 5, 3), (3, 3, 3, 5, 6, 2)),
    ((4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0), (1, 1, 4, 5, 6, 6)),
)
"""Boards and choice throws of the example decisions."""

FIRST_THROW = (6, 6, 4, 4, 3, 1)
"""A first throw on the empty board where the advisor and greedy name different rows (the
section's picture)."""

LATE_RACE = ((5, 3, 5, 5, 5, 5, 5, 2, 5, 5, 3, 0), (2, 2, 6, 6, 5, 3))
"""A Fives board late in a lost race and a choice throw, for the rest-points example."""

MAX_TURNS = 2000
"""Simulated games longer than this are counted at this many turns."""


def simulate(rules: Rules, policy, games: int, seed: int, *, max_turns: int = MAX_TURNS) -> tuple[float, float, int]:
    """Mean turns from the empty board with a 95% half-width; games over ``max_turns`` are
    counted at ``max_turns`` (the third value says how many)."""
    rng = random.Random(seed)
    samples, capped = [], 0
    for _ in range(games):
        try:
            samples.append(play_game(rules, policy, rng, max_turns=max_turns))
        except RuntimeError:
            samples.append(max_turns)
            capped += 1
    mean, half_width = mean_confidence_interval(samples)
    return mean, half_width, capped


@dataclass(frozen=True)
class PolicyRow:
    """Exact expected turns (float64) of each policy from the start of a reduced board."""

    open_rows: tuple[int, ...]
    optimal: float
    advisor: float
    safe_greedy: float
    greedy: float

    @property
    def advisor_gap(self) -> float:
        """The advisor's expected turns above the optimum, as a fraction of it."""
        return self.advisor / self.optimal - 1

    @property
    def safe_greedy_gap(self) -> float:
        """Safe greedy's expected turns above the optimum, as a fraction of it."""
        return self.safe_greedy / self.optimal - 1


@dataclass(frozen=True)
class Simulation:
    """Whole games from the empty board by one policy: mean turns, 95% half-width, games capped."""

    policy: str
    mean: float
    half_width: float
    capped: int


@dataclass(frozen=True)
class LateRace:
    """The rest-points example (FIVES-6): per legal row, expected rest points and turns after this turn."""

    board: tuple[int, ...]
    throw: tuple[int, ...]
    rest: dict[int, float]
    turns: dict[int, float]
    advisor_row: int


@dataclass(frozen=True)
class PegsFivesReport:
    """The numbers of the Pegs or the Fives section.

    Attributes:
        rules: the game.
        tables: the exact single-row tables.
        policies: exact expected turns on reduced boards, one row per board.
        games: simulated games per policy; simulations: their results.
        estimator: the board value the advisor looks ahead to (``"distilled"`` or ``"fitted"``).
        weights: the fitted board value's weights, by :data:`dicemath.games.pegs_fives.advisor.FEATURES`
            (the advisor's value for rules without a shipped model).
        examples: the JSON of ``advise`` for every :data:`EXAMPLES` decision (the best source:
            exact where a table or a solve covers the board, else the shipped model).
        opening, opening_advice: the empty board after :data:`FIRST_THROW` and the
            advice for it (the picture).
        races: :func:`dicemath.games.pegs_fives.races.race_result` (Fives only, else None) and its race count.
        late: the rest-points example (Fives only, else None).
    """

    rules: Rules
    tables: tuple[RowTable, ...]
    policies: tuple[PolicyRow, ...]
    games: int
    simulations: tuple[Simulation, ...]
    estimator: str
    weights: tuple[float, ...]
    examples: tuple[dict, ...]
    opening: State
    opening_advice: Advice
    races: dict | None
    late: LateRace | None


def policy_rows(rules: Rules, subsets, advisor: Advisor) -> tuple[PolicyRow, ...]:
    """Each policy valued exactly (float64) from the start of each reduced board."""
    return tuple(PolicyRow(tuple(rows), float(solve_reduced(rules, rows, exact=False).expected_turns),
                           float(solve_reduced(rules, rows, exact=False, policy=advisor.policy).expected_turns),
                           float(solve_reduced(rules, rows, exact=False,
                                               policy=SafeGreedy(rules.goal)).expected_turns),
                           float(solve_greedy(rules, rows, exact=False).expected_turns))
                 for rows in subsets)


def compute(game: Game, context: ReportContext) -> PegsFivesReport:
    """The numbers of the section of ``game`` (Pegs or Fives, its standard rules), its advice
    asked of the game object (:meth:`~dicemath.core.game.Game.advise`)."""
    rules = game.standard
    quick = context.quick
    advisor = Advisor(rules)
    subsets = [(6, 7), (3, 11), (1, 12)] + ([] if quick else [(6, 7, 8), (1, 7, 12), (2, 8, 10), (4, 9, 11)])
    games = 20 if quick else 150
    simulations = tuple(Simulation(label, *simulate(rules, policy, games, seed=2026))
                        for label, policy in (("advisor", advisor.policy), ("safe greedy", SafeGreedy(rules.goal)),
                                              ("greedy", greedy_policy)))
    examples = tuple(game.advise(choice_state(rules, board, throw)).as_dict() for board, throw in EXAMPLES)
    races = late = None
    if rules.scoring == "rest_points":
        races = race_result(rules, games=20 if quick else 300, seed=7)
        board, throw = LATE_RACE
        advice = game.advise(choice_state(rules, board, throw)).as_dict()
        late = LateRace(board, throw, last_turn_rest(rules, board, throw),
                        {o["row"]: o["expected_turns"] for o in advice["options"]}, advice["recommendation"])
    opening = initial_state(rules).apply(FIRST_THROW)
    return PegsFivesReport(rules, tuple(row_tables(rules)), policy_rows(rules, subsets, advisor), games,
                           simulations, advisor.estimator, board_value(rules).weights, examples, opening,
                           game.advise(opening), races, late)


def _kind(result: dict) -> str:
    """What an advice's values are: exact, or the named model's estimates."""
    return "exact" if result["exact"] else f"estimates from the {result['estimator']} model"


def _value_text(report: PegsFivesReport) -> str:
    """Which board value the advisor uses, and the fitted one's place."""
    fitted = ("V(board) = w . features, fitted by least squares to exact optimal values of reduced boards and "
              "to simulated remaining turns (`dicemath.games.pegs_fives.advisor`), with these weights:")
    if report.estimator == "distilled":
        return ("Here V is the distilled model shipped in the package (`dicemath.games.pegs_fives.distilled`): the "
                "exact values of every board with at most four open rows, a small network distilled from the full "
                "table for the rest (its errors and its exact policy value are in the full-board section). Rule "
                "variants without a model use the fitted value " + fitted)
    return "Here V is the fitted value, " + fitted


def explain(result: dict) -> str:
    """One sentence on why the advisor's row beats greedy's (from the advice numbers)."""
    options = {o["row"]: o for o in result["options"]}
    best, greedy = options[result["recommendation"]], options[result["greedy_choice"]]
    if best["row"] == greedy["row"]:
        return "Both agree: the most hits is also the best use of this throw."
    saved = greedy["expected_turns"] - best["expected_turns"]
    text = f"The advised row saves {saved:.2f} expected turns over greedy's"
    if greedy["p_no_progress"] > 0.5:
        return text + (f": greedy's {greedy['hits']} hits would overthrow row {greedy['row']} "
                       f"(no progress with probability {greedy['p_no_progress']:.2f}, PEGS-6).")
    lost = greedy["hits"] - (5 - result["board"][greedy["row"] - 1])
    if lost > 0:
        return text + (f": {lost} of greedy's {greedy['hits']} hits on row {greedy['row']} would be "
                       "lost (FIVES-5).")
    if best["row"] >= 9 and best["hits"] < greedy["hits"]:
        return text + (f": a hit on the hard row {best['row']} is worth more than "
                       f"{greedy['hits']} hits on row {greedy['row']}, which is cheap to fill later.")
    return text + "."



def rules_sentence(rules: Rules) -> str:
    """The rule points of ``rules`` that the numbers depend on, from its fields."""
    budget = f"{rules.throws} throws per cycle" if rules.throws is not None else "no throw limit (FIVES-3)"
    beyond = ("an overthrow cancels the cycle (PEGS-6)" if rules.overthrow
              else "hits beyond the goal are lost (FIVES-5)")
    complete = ("a completed row passes the remaining dice to a choice throw (PEGS-7)"
                if rules.on_complete == "remaining" else "completing a number gives all dice back (FIVES-5)")
    scoring = ("the first to finish wins (PEGS-2)" if rules.scoring == "first_out"
               else "losers score rest points (FIVES-6)")
    return (f"Rules: {rules.rows} rows of {rules.goal} steps, {rules.dice} dice, {budget}; {beyond}; "
            f"{complete}; using every die gives all dice back; {scoring}.")


def rows_sentence(tables: tuple[RowTable, ...]) -> str:
    """Which row is slowest and which fastest to finish alone, read off the tables."""
    slow = max(tables, key=lambda t: t.expected_turns)
    fast = min(tables, key=lambda t: t.expected_turns)
    return (f"Alone, row {slow.row} takes longest ({float(slow.expected_turns):.2f} expected turns) and row "
            f"{fast.row} is quickest ({float(fast.expected_turns):.2f}).")


def policies_sentence(rows: tuple[PolicyRow, ...]) -> str:
    """How far the advisor and safe greedy are from the optimum on the boards shown."""
    advisor = [r.advisor_gap for r in rows]
    safe = [r.safe_greedy_gap for r in rows]
    beaten = sum(r.advisor <= r.safe_greedy + 1e-12 for r in rows)
    return (f"On these {len(rows)} boards the advisor needs {100 * sum(advisor) / len(rows):.2f}% more expected "
            f"turns than optimal play on average (at most {100 * max(advisor):.2f}%), safe greedy "
            f"{100 * sum(safe) / len(safe):.2f}% (at most {100 * max(safe):.2f}%); the advisor is at least as "
            f"good as safe greedy on {beaten} of them.")


def simulation_sentence(simulations: tuple[Simulation, ...]) -> str:
    """The best policy of the simulations, and whether the confidence intervals separate it."""
    ranked = sorted(simulations, key=lambda s: s.mean)
    best, second = ranked[0], ranked[1]
    apart = best.mean + best.half_width < second.mean - second.half_width
    text = (f"The {best.policy} finishes fastest ({best.mean:.2f} turns), "
            + (f"clear of the {second.policy} ({second.mean:.2f}) beyond the 95% intervals."
               if apart else f"but within the 95% intervals of the {second.policy} ({second.mean:.2f})."))
    capped = [s for s in simulations if s.capped]
    if capped:
        text += " " + "; ".join(f"{s.capped} {s.policy} games did not end within {MAX_TURNS} turns"
                                for s in capped) + "."
    return text


def late_race_sentence(late: LateRace) -> str:
    """Whether minimising rest points changes the row, read off the late-race numbers."""
    fewest = min(late.rest, key=late.rest.__getitem__)
    if fewest == late.advisor_row:
        return f"Both minimising turns and minimising rest points name row {fewest}."
    return (f"The turn-minimising advisor names row {late.advisor_row} "
            f"({late.rest[late.advisor_row]:.2f} expected rest points left); minimising rest points names row "
            f"{fewest} ({late.rest[fewest]:.2f}), at {late.turns[fewest] - late.turns[late.advisor_row]:.2f} more "
            "expected turns.")


def switch_sentence(races: dict) -> str:
    """Whether the rest-aware switch lowers the rest points when losing, beyond the intervals."""
    plain, aware = races["advisor_vs_greedy"], races["rest_aware_vs_greedy"]
    a, a_ci = plain["a_rest_when_losing"], plain["a_rest_when_losing_ci"]
    b, b_ci = aware["a_rest_when_losing"], aware["a_rest_when_losing_ci"]
    if abs(a - b) <= a_ci + b_ci:
        return (f"Its rest when losing ({b:.1f} ± {b_ci:.1f}) is within the intervals of the plain advisor's "
                f"({a:.1f} ± {a_ci:.1f}): the switch does not measurably pay in {races['games']} races.")
    return (f"Its rest when losing is {b:.1f} ± {b_ci:.1f} against the plain advisor's {a:.1f} ± {a_ci:.1f}: "
            f"the switch {'lowers' if b < a else 'raises'} it beyond the intervals.")


def _turn_figure(report: PegsFivesReport):
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(8, 4))
    for t in report.tables:
        if t.row in (1, 7, 8, 9, 10, 11, 12):
            dist = t.turn_distribution(coverage=0.995)
            axis.plot(range(len(dist)), dist, marker=".", label=f"row {t.row}" + (" (=1..6)" if t.row == 1 else ""))
    axis.set(xlabel="turns to finish the row alone", ylabel="probability",
             title=f"{report.rules.name}: turns per row")
    axis.legend()
    return figure


def render(report: PegsFivesReport, context: ReportContext) -> str:
    """Markdown of the Pegs or Fives section; the figure saved through ``context``."""
    rules = report.rules
    goal = rules.goal
    best = report.opening_advice.best
    if best is None:
        raise ValueError("the opening advice has no legal row to frame")
    parts = [rules_sentence(rules), "", "## Expected turns per row (exact)", "",
             "Turns to finish a row when it is the only one open, from each starting step, the "
             "exact chance to finish within the first turn, and the median. Exact fractions, shown rounded.", "",
             markdown_table(["row", "E[turns] from 0"] + [f"from {s}" for s in range(1, goal)]
                            + ["P(in 1 turn)", "median"],
                            [[t.row, f"{float(t.expected_turns):.3f}"]
                             + [f"{float(e):.3f}" for e in t.expected_turns_from[1:-1]]
                             + [f"{float(t.p_within_one_turn()):.4f}", t.quantile(0.5)] for t in report.tables]),
             "", rows_sentence(report.tables), "",
             context.save_figure(_turn_figure(report), f"{rules.name}_turn_distributions.png",
                                 "turn distributions per row"), "",
             "## Optimal play on reduced boards vs the advisor and greedy", "",
             "Expected turns from every open row at 0, each policy evaluated exactly (float64) by the same "
             "recursion; *optimal* minimises expected turns exactly (`solve_reduced`). Greedy = most hits, "
             "ties to the higher row; safe greedy = greedy among rows that do not overthrow.", "",
             markdown_table(["open rows", "optimal", "advisor", "safe greedy", "greedy", "advisor gap"],
                            [[",".join(map(str, r.open_rows)), f"{r.optimal:.3f}", f"{r.advisor:.3f}",
                              f"{r.safe_greedy:.3f}", f"{r.greedy:.3f}", f"{100 * r.advisor_gap:.2f}%"]
                             for r in report.policies]),
             "", policies_sentence(report.policies), "",
             "## Whole games from the empty board (simulation)", "",
             f"{report.games} seeded games per policy; mean turns to finish all {rules.rows} rows with a 95% "
             "confidence half-width.", "",
             markdown_table(["policy", "mean turns", "95% CI", f"games capped at {MAX_TURNS} turns"],
                            [[s.policy, f"{s.mean:.2f}", f"± {s.half_width:.2f}", s.capped]
                             for s in report.simulations]),
             "", simulation_sentence(report.simulations), "",
             "## The advisor's board value", "",
             "Each legal row is scored exactly one turn ahead: E[V(end-of-turn board)], where V estimates the "
             "expected turns still needed from a board. " + _value_text(report), "",
             markdown_table(["feature", "weight"], [[f, f"{w:.4f}"] for f, w in zip(FEATURES, report.weights)]),
             "", "## Example decisions", "",
             f"The empty board after the first throw {throw_text(FIRST_THROW)}: beside each row that can be named, "
             f"the expected turns still needed after this turn ({_kind(report.opening_advice.as_dict())}), as "
             f"`dicemath {rules.name} advise` gives them; the best row is framed. The examples below come from the "
             "same advice.", "",
             context.save_picture(picture(report.opening, report.opening_advice), f"{rules.name}_first_throw.svg",
                                  f"the empty board after the first throw {throw_text(FIRST_THROW)}, the best "
                                  f"row {best.action} framed"), ""]
    for result in report.examples:
        parts += [f"Board `{board_text(result['board'])}`, throw `{result['roll']}` ({_kind(result)}): the advice "
                  f"names **row {result['recommendation']}**, greedy row {result['greedy_choice']}. "
                  + explain(result),
                  "", markdown_table(["row", "hits", "E[turns after this turn]", "P(no progress)"],
                                     [[o["row"], o["hits"], f"{o['expected_turns']:.3f}",
                                       f"{o['p_no_progress']:.3f}"] for o in result["options"]]), ""]
    parts.append("P(no progress) is the chance that the turn ends on the same board (an overthrow).")
    if report.races is not None:
        parts += _render_races(report)
    return "\n".join(parts)


def _render_races(report: PegsFivesReport) -> list[str]:
    races, late = report.races, report.late
    if races is None or late is None:
        raise ValueError("the races section needs the race results and the late-race example (Fives only)")
    rows = []
    for label, key in (("advisor vs greedy", "advisor_vs_greedy"),
                       ("rest-aware advisor vs greedy", "rest_aware_vs_greedy")):
        r = races[key]
        rows.append([label, f"{r['a_win_probability']:.3f} ± {r['a_win_ci']:.3f}",
                     f"{r['a_rest_when_losing']:.1f} ± {r['a_rest_when_losing_ci']:.1f}",
                     f"{r['b_rest_when_losing']:.1f} ± {r['b_rest_when_losing_ci']:.1f}",
                     f"{r['a_mean_rest']:.1f} ± {r['a_mean_rest_ci']:.1f}"])
    return ["", "## Two-player races (FIVES-6)", "",
            f"{races['games']} races each, start player alternating; 95% confidence half-widths.", "",
            markdown_table(["match", "P(first named wins)", "its rest when losing", "greedy's rest when losing",
                            "its rest per race"], rows),
            "", f"Late in a lost race (board `{board_text(late.board)}`, "
            f"{rest_points(late.board, report.rules.goal)} rest points, throw `{sorted(late.throw)}`), if the "
            "opponent finishes next turn only the rest points left after this turn count (exact, `last_turn_rest`):",
            "", markdown_table(["row", "E[rest points after this turn]", "E[turns after this turn]"],
                               [[r, f"{late.rest[r]:.2f}", f"{late.turns[r]:.3f}"] for r in sorted(late.rest)]),
            "", late_race_sentence(late), "",
            "The rest-aware variant switches, when the opponent is about two turns from finishing and it is at "
            "least two turns behind, to minimising the rest points left after this turn (exactly, as above, "
            "with up to 5 open numbers). " + switch_sentence(races)]
