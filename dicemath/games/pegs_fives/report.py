"""Report sections ``pegs`` and ``fives`` (registered in :mod:`dicemath.reporting`).

Every number is computed by the library: exact per-row tables (:mod:`.rows`), exact reduced
solves (:mod:`.solver`), simulated whole games and races (seeded, with 95% confidence
intervals). ``context.quick`` shrinks the simulations and solves.
"""

from __future__ import annotations

import random

from dicemath.core.stats import mean_confidence_interval
from dicemath.games.pegs_fives.advisor import FEATURES, Advisor, advise_result
from dicemath.games.pegs_fives.rows import row_tables
from dicemath.games.pegs_fives.rules import FIVES, PEGS, Rules
from dicemath.games.pegs_fives.solver import solve_greedy, solve_reduced
from dicemath.games.pegs_fives.state import SafeGreedy, greedy_policy, play_game
from dicemath.reporting.context import ReportContext, markdown_table

EXAMPLES = (
    ((0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 0, 0), (3, 3, 3, 5, 6, 2)),
    ((5, 5, 3, 5, 5, 4, 2, 0, 5, 5, 5, 3), (3, 3, 3, 5, 6, 2)),
    ((4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 0), (1, 1, 4, 5, 6, 6)),
)


def simulate(rules: Rules, policy, games: int, seed: int, *, max_turns: int = 2000) -> tuple[float, float, int]:
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


def policy_comparison(rules: Rules, subsets, advisor: Advisor) -> list[list]:
    """Rows of (open rows, optimal, advisor, safe greedy, greedy, advisor gap %), exact float64."""
    table = []
    for rows in subsets:
        best = solve_reduced(rules, rows, exact=False).expected_turns
        adv = solve_reduced(rules, rows, exact=False, policy=advisor.policy).expected_turns
        safe = solve_reduced(rules, rows, exact=False, policy=SafeGreedy(rules.goal)).expected_turns
        greedy = solve_greedy(rules, rows, exact=False).expected_turns
        table.append([",".join(map(str, rows)), f"{best:.3f}", f"{adv:.3f}", f"{safe:.3f}", f"{greedy:.3f}",
                      f"{100 * (adv / best - 1):.2f}%"])
    return table


def _build(rules: Rules, context: ReportContext) -> str:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    quick = context.quick
    name = rules.name
    parts = []
    if rules is PEGS:
        parts.append("Pegs (RULES.md PEGS-1..9): 12 rows of 5 steps, 3 throws per cycle, overthrow "
                     "cancels the cycle (PEGS-6), a cycle that uses every die gives all dice and a "
                     "fresh budget back, before the row goes in (PEGS-8 before PEGS-7).")
    else:
        parts.append("Fives (RULES.md FIVES-1..7): numbers 1..12 marked 5 times, no throw limit, hits "
                     "beyond 5 are lost (FIVES-5), completing a number or using every die gives all "
                     "dice back (FIVES-4/5); losers score rest points (FIVES-6).")

    tables = row_tables(rules)
    parts += ["", "## Expected turns per row (exact)", "",
              "Turns to finish a row when it is the only one open, from each starting step, the "
              "exact chance to finish within the first turn, and the median. Exact fractions, "
              "shown rounded.", ""]
    rows = [[t.row, f"{float(t.expected_turns):.3f}"] + [f"{float(e):.3f}" for e in t.expected_turns_from[1:-1]]
            + [f"{float(t.p_within_one_turn()):.4f}", t.quantile(0.5)] for t in tables]
    parts.append(markdown_table(["row", "E[turns] from 0"] + [f"from {s}" for s in range(1, rules.goal)]
                                + ["P(in 1 turn)", "median"], rows))

    figure, axis = plt.subplots(figsize=(8, 4))
    for t in tables:
        if t.row in (1, 7, 8, 9, 10, 11, 12):
            dist = t.turn_distribution(coverage=0.995)
            axis.plot(range(len(dist)), dist, marker=".", label=f"row {t.row}" + (" (=1..6)" if t.row == 1 else ""))
    axis.set(xlabel="turns to finish the row alone", ylabel="probability", title=f"{name}: turns per row")
    axis.legend(fontsize=8)
    parts += ["", context.save_figure(figure, f"{name}_turn_distributions.png", "turn distributions per row"), ""]

    advisor = Advisor(rules)
    parts += ["## Optimal play on reduced boards vs the advisor and greedy", "",
              "Expected turns from every open row at 0, each policy evaluated exactly (float64) by "
              "the same recursion; *optimal* minimises expected turns exactly "
              "(`solve_reduced`). Greedy = most hits, ties to the higher row; safe greedy = "
              "greedy among rows that do not overthrow.", ""]
    subsets = [(6, 7), (3, 11), (1, 12)] if quick else [(6, 7), (3, 11), (1, 12), (6, 7, 8), (1, 7, 12),
                                                          (2, 8, 10), (4, 9, 11)]
    parts.append(markdown_table(["open rows", "optimal", "advisor", "safe greedy", "greedy", "advisor gap"],
                                policy_comparison(rules, subsets, advisor)))

    games = 20 if quick else 150
    parts += ["", "## Whole games from the empty board (simulation)", "",
              f"{games} seeded games per policy; mean turns to finish all 12 rows with a 95% "
              "confidence half-width.", ""]
    sims = []
    for label, policy in (("advisor", advisor.policy), ("safe greedy", SafeGreedy(rules.goal)),
                          ("greedy", greedy_policy)):
        mean, ci, capped = simulate(rules, policy, games, seed=2026)
        sims.append([label, f"{mean:.2f}", f"± {ci:.2f}", capped])
    parts.append(markdown_table(["policy", "mean turns", "95% CI", "games capped at 2000 turns"], sims))
    if rules is PEGS:
        parts.append("\nLiteral greedy is a poor Pegs policy: with rows one step from the top it keeps "
                     "naming rows with two or more hits and overthrowing (PEGS-6).")

    parts += ["", "## The advisor's board value", "",
              "V(board) = w . features, fitted by least squares to exact optimal values of reduced "
              "boards and to simulated remaining turns (see `dicemath.games.pegs_fives.advisor`). "
              "Each legal row is scored exactly one turn ahead: E[V(end-of-turn board)].", ""]
    parts.append(markdown_table(["feature", "weight"], [[f, f"{w:.4f}"] for f, w in zip(FEATURES, advisor.value.weights)]))

    parts += ["", "## Example decisions", ""]
    for board, throw in EXAMPLES:
        result = advise_result(rules, board, throw, advisor=advisor)
        parts.append(f"Board `{','.join(map(str, board))}`, throw `{sorted(throw)}`: advisor names "
                     f"**row {result['recommendation']}**, greedy row {result['greedy_choice']}. "
                     + explain(result))
        parts.append("")
        parts.append(markdown_table(["row", "hits", "E[turns after this turn]", "P(no progress)"],
                                    [[o["row"], o["hits"], f"{o['expected_turns']:.3f}", f"{o['p_no_progress']:.3f}"]
                                     for o in result["options"]]))
        parts.append("")
    parts.append("P(no progress) is the chance that the turn ends on the same board (an overthrow); "
                 "a row that advances a hard row (10, 11, 12) is worth more turns than its hits suggest, "
                 "because the value counts the turns those rows would otherwise cost.")

    if rules is FIVES:
        from dicemath.games.pegs_fives.races import race_result

        games = 20 if quick else 300
        race = race_result(rules, games=games, seed=7)
        parts += ["", "## Two-player races (FIVES-6)", "",
                  f"{games} races each, start player alternating; 95% confidence half-widths.", ""]
        rows = []
        for label, key in (("advisor vs greedy", "advisor_vs_greedy"),
                           ("rest-aware advisor vs greedy", "rest_aware_vs_greedy")):
            r = race[key]
            rows.append([label, f"{r['a_win_probability']:.3f} ± {r['a_win_ci']:.3f}",
                         f"{r['a_rest_when_losing']:.1f} ± {r['a_rest_when_losing_ci']:.1f}",
                         f"{r['b_rest_when_losing']:.1f} ± {r['b_rest_when_losing_ci']:.1f}",
                         f"{r['a_mean_rest']:.1f} ± {r['a_mean_rest_ci']:.1f}"])
        parts.append(markdown_table(["match", "P(first named wins)", "its rest when losing",
                                     "greedy's rest when losing", "its rest per race"], rows))
        from dicemath.games.pegs_fives.races import last_turn_rest

        board, throw = (5, 3, 5, 5, 5, 5, 5, 2, 5, 5, 3, 0), (2, 2, 6, 6, 5, 3)
        rest = last_turn_rest(rules, board, throw)
        advice = advise_result(rules, board, throw, advisor=advisor)
        turns = {o["row"]: o["expected_turns"] for o in advice["options"]}
        parts += ["", f"Late in a lost race (board `{','.join(map(str, board))}`, {rest_points_text(board)} "
                  f"rest points, throw `{sorted(throw)}`), if the opponent finishes next turn only the rest "
                  "points left after this turn count (exact, `last_turn_rest`):", ""]
        parts.append(markdown_table(["row", "E[rest points after this turn]", "E[turns after this turn]"],
                                    [[r, f"{rest[r]:.2f}", f"{turns[r]:.3f}"] for r in sorted(rest)]))
        parts.append(f"\nThe turn-minimising advisor names row {advice['recommendation']}; minimising rest "
                     f"points names row {min(rest, key=rest.get)}. Behind in the race, points now beat "
                     "progress on the hardest number.")
        parts.append("\nThe rest-aware variant switches, when the opponent is about two turns from "
                     "finishing and it is at least two turns behind, to minimising the rest points left "
                     "after this turn (exactly, as above, with up to 5 open numbers). "
                     "Compare its rest when losing with the plain advisor's: a difference inside the "
                     "confidence intervals means the switch does not measurably pay.")
    return "\n".join(parts)


def explain(result: dict) -> str:
    """One sentence on why the advisor's row beats greedy's (from the advice numbers)."""
    options = {o["row"]: o for o in result["options"]}
    best, greedy = options[result["recommendation"]], options[result["greedy_choice"]]
    if best["row"] == greedy["row"]:
        return "Both agree: the most hits is also the best use of this throw."
    saved = greedy["expected_turns"] - best["expected_turns"]
    text = f"The advisor's row saves {saved:.2f} expected turns over greedy's"
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


def rest_points_text(board) -> str:
    """FIVES-6 rest points of a board, as text."""
    from dicemath.games.pegs_fives.state import rest_points

    return str(rest_points(board, FIVES.goal))


def build_pegs(context: ReportContext) -> str:
    """The Pegs section."""
    return _build(PEGS, context)


def build_fives(context: ReportContext) -> str:
    """The Fives section."""
    return _build(FIVES, context)
