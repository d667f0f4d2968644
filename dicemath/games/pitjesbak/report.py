"""The Pitjesbak report section: throw classes, game values, policy card, heat map, and the
tables of 2 to 8 players.

:func:`compute` solves what the section shows and returns it as a
:class:`PitjesbakReport` (numbers and policy cards, no prose); :func:`render` writes the
Markdown and the figures from it, every conclusion read off the numbers. Both are
registered in the game registry (:mod:`dicemath.games.registry`). With ``context.quick`` the
round-maximising comparison of the two-player solver, rounds with more than 4 players, the
four-player solves (four players are then estimated) and the exact round-maximiser solutions
beyond two players are skipped, and the simulations are short (:data:`QUICK_GAMES`).

Tables of n players (:mod:`dicemath.games.pitjesbak.table_solver`,
:mod:`dicemath.games.pitjesbak.table_estimate`, :mod:`dicemath.games.pitjesbak.table_compare`):
the stop thresholds by turn position and table size (the policy card's, a plot), the first
start player's advantage (exact for 2 to 4 players, estimated beyond), and what game-optimal
play gains over round-optimal play (exact for 2 to 4 players, simulated for 3 to 8, with 95%
intervals). These figures at each table size and the round-maximiser's losses are committed study data
(:mod:`dicemath.studies.report_studies`, recomputed by ``python analyses/report_studies.py
pitjesbak``): :func:`committed_table_rows` and :func:`committed_gain_rows`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from dicemath.core.advice import Advice
from dicemath.core.dice import throw_text
from dicemath.core.svg import picture
from dicemath.core.cache import cached_object
from dicemath.core.game import Game
from dicemath.games.pitjesbak.advice import (
    WEAK_BEST,
    PolicyCard,
    policy_card,
    table_policy_card,
    threshold_index,
)
from dicemath.games.pitjesbak.game_solver import GameSolution, solve_game
from dicemath.games.pitjesbak.round_solver import solve_round
from dicemath.games.pitjesbak.rules import STANDARD, Rules
from dicemath.games.pitjesbak.state import State, initial_state
from dicemath.games.pitjesbak.throws import THROW_TOTAL, ClassRow, class_rows, class_space, classify
from dicemath.core.markdown import markdown_table
from dicemath.reporting.context import ReportContext

LATE_STATE = (2, True, 2, True)
"""The late-game situation of the second policy card: 2 v 2 stripes, both have wiped."""

FIRST_THROW = (5, 5, 3)
"""The start player's first throw of the game in the section's picture: a pair that looks
good enough to keep."""


@dataclass(frozen=True)
class RoundRow:
    """One round size: P(win the round) by turn position and the start player's thresholds."""

    players: int
    win_probabilities: tuple[float, ...]
    thresholds: tuple[str | None, str | None]


TABLE_SIZES = tuple(range(2, 9))
"""The table sizes of the section's n-player part (PIT-1: 2 to 8 players)."""

SIMULATED_GAMES = {3: 300, 4: 200, 5: 150, 6: 80, 7: 40, 8: 20}
"""Simulated games of the round-maximiser's loss by table size (fewer where a round costs
more: a round of eight players is 2.2 million knowledge states)."""

QUICK_GAMES = {3: 12, 5: 12}
"""The same with ``context.quick``."""

SEED = 23
"""Seed of the simulated games."""


@dataclass(frozen=True)
class TableRow:
    """One table size at the opening (every player game-optimal).

    Attributes:
        players: n.
        exact: True for a table's solution, False for the estimate (:mod:`dicemath.games.pitjesbak.table_estimate`).
        win_probabilities: P(win the game) by turn position of the first round.
        thresholds: by turn position, the weakest throw he stops on facing
            :data:`dicemath.games.pitjesbak.advice.WEAK_BEST` (the start player: no best yet) after the first of three
            throws and with one of three left (:class:`dicemath.games.pitjesbak.advice.TableCard`).
    """

    players: int
    exact: bool
    win_probabilities: tuple[float, ...]
    thresholds: tuple[tuple[str | None, str | None], ...]

    @property
    def advantage(self) -> float:
        """P(the first start player wins) minus a fair share, 1/n."""
        return self.win_probabilities[0] - 1.0 / self.players


@dataclass(frozen=True)
class GainRow:
    """What round-optimal play costs at a table of n (see :mod:`dicemath.games.pitjesbak.table_compare`).

    Attributes:
        players: n.
        exact_losses: by turn position of the first round, the exact loss of P(win the game)
            of a round-maximiser against game-optimal play by the others (None: not solved).
        simulated: :func:`dicemath.games.pitjesbak.table_compare.simulated_loss` of the first start player (None:
            not simulated).
    """

    players: int
    exact_losses: tuple[float, ...] | None
    simulated: dict | None


@dataclass(frozen=True)
class PitjesbakReport:
    """The numbers of the Pitjesbak section.

    Attributes:
        rules: the rules reported (two players, traditional values, 9 stripes).
        classes: the throw classes (:func:`dicemath.games.pitjesbak.throws.class_rows`).
        value, bounds, cap, sweeps: the two-player game value at the opening and its solve.
        comparison: midpoints of the round-maximising comparisons (empty when quick).
        opening_card, late_card: policy cards at the opening and at :data:`LATE_STATE`.
        opening, opening_advice: the game after the start player's :data:`FIRST_THROW` and
            the game-optimal advice there (the picture).
        heat_map: ``[a-1, b-1]`` P(start player wins) with a and b stripes, both wiped.
        rounds: one row per number of players.
        tables: one :class:`TableRow` per table size (:data:`TABLE_SIZES`).
        estimate_check: at four players, the exact P(win) by turn position and the estimate
            from strengths fitted to three players (None when quick).
        gains: one :class:`GainRow` per table size measured.
    """

    rules: Rules
    classes: tuple[ClassRow, ...]
    value: float
    bounds: tuple[float, float]
    cap: int
    sweeps: int
    comparison: dict
    opening_card: PolicyCard
    late_card: PolicyCard
    opening: State
    opening_advice: Advice
    heat_map: np.ndarray
    rounds: tuple[RoundRow, ...]
    tables: tuple[TableRow, ...]
    estimate_check: tuple[tuple[float, ...], tuple[float, ...]] | None
    gains: tuple[GainRow, ...]


def heat_map_values(solution: GameSolution, top: int = 9) -> np.ndarray:
    """``[a-1, b-1]``: P(start player wins) with ``a`` and ``b`` stripes, both flags set."""
    return np.array([[solution.value(a, True, b, True) for b in range(1, top + 1)]
                     for a in range(1, top + 1)])


def heat_map_figure(values: np.ndarray):
    """The heat map of :func:`heat_map_values` as a matplotlib figure."""
    import matplotlib.pyplot as plt

    top = values.shape[0]
    figure, axis = plt.subplots(figsize=(6.5, 5.5))
    image = axis.imshow(values, origin="lower", cmap="RdBu", vmin=0, vmax=1,
                        extent=(0.5, top + 0.5, 0.5, top + 0.5))
    for a in range(1, top + 1):
        for b in range(1, top + 1):
            v = values[a - 1, b - 1]
            axis.text(b, a, f"{v:.2f}", ha="center", va="center",
                      color="white" if abs(v - 0.5) > 0.3 else "black")
    axis.set(xlabel="follower's stripes", ylabel="start player's stripes",
             title="P(start player wins the game), both have wiped",
             xticks=range(1, top + 1), yticks=range(1, top + 1))
    figure.colorbar(image, ax=axis, shrink=0.8)
    return figure


def compute(game: Game, context: ReportContext) -> PitjesbakReport:
    """Solve everything the section shows; the opening's advice is asked of ``game`` (the
    Pitjesbak :class:`~dicemath.core.game.Game` that lists the section,
    :meth:`~dicemath.core.game.Game.advise`)."""
    rules = STANDARD
    solution = solve_game(rules, compare=not context.quick)
    comparison = {key: (low + high) / 2 for key, (low, high) in solution.comparison.items()}
    rounds = []
    for players in range(2, (4 if context.quick else 8) + 1):
        round_solution = solve_round(players=players, exact=False)
        first, second = round_solution.start_stop_threshold(1), round_solution.start_stop_threshold(2)
        thresholds = (first.label if first else None, second.label if second else None)
        rounds.append(RoundRow(players, tuple(float(p) for p in round_solution.win_probabilities), thresholds))
    opening = initial_state(rules).apply(FIRST_THROW)
    tables, check = committed_table_rows(context, rules)
    return PitjesbakReport(rules, class_rows(rules), solution.start_player_win_probability,
                           solution.bounds(*solution.opening), solution.cap, solution.sweeps, comparison,
                           policy_card(solution), policy_card(solution, LATE_STATE), opening,
                           game.advise(opening, solution=solution), heat_map_values(solution),
                           tuple(rounds), tables, check, committed_gain_rows(context, rules))


SECTION = "pitjesbak"
"""The section's name, the prefix of its committed studies (:meth:`ReportContext.study`)."""


def _variant(context: ReportContext) -> str:
    return "-quick" if context.quick else ""


def committed_table_rows(context: ReportContext, rules: Rules):
    """:func:`table_rows` as the committed study ``pitjesbak/tables`` (the solutions at tables of 2 to 4
    players and the estimates beyond; ``python analyses/report_studies.py pitjesbak`` recomputes
    it)."""
    def compute() -> dict:
        rows, check = table_rows(rules, quick=context.quick)
        return {"rows": [[r.players, r.exact, r.win_probabilities, r.thresholds] for r in rows], "check": check}

    value = context.study(SECTION, "tables" + _variant(context), (rules, TABLE_SIZES, _exact_sizes(context.quick)),
                          compute)
    rows = tuple(TableRow(n, exact, tuple(p), tuple(tuple(t) for t in thresholds))
                 for n, exact, p, thresholds in value["rows"])
    check = None if value["check"] is None else tuple(tuple(c) for c in value["check"])
    return rows, check


def committed_gain_rows(context: ReportContext, rules: Rules) -> tuple[GainRow, ...]:
    """:func:`gain_rows` as the committed study ``pitjesbak/gains`` (the exact round-maximiser
    solutions and the simulations; ``python analyses/report_studies.py pitjesbak`` recomputes it)."""
    games = QUICK_GAMES if context.quick else SIMULATED_GAMES
    value = context.study(SECTION, "gains" + _variant(context), (rules, TABLE_SIZES, games, SEED),
                          lambda: [[g.players, g.exact_losses, g.simulated]
                                   for g in gain_rows(rules, quick=context.quick)])
    return tuple(GainRow(n, None if exact is None else tuple(exact), simulated) for n, exact, simulated in value)


def _exact_sizes(quick: bool) -> tuple[int, ...]:
    return (2, 3) if quick else (2, 3, 4)


def table_rows(rules: Rules, *, quick: bool = False):
    """The :class:`TableRow` of every table size at the opening (exact where solved, else the
    estimate), and the estimate's check at four players (exact against the estimate fitted to
    three players; None when quick)."""
    from dicemath.games.pitjesbak.table_estimate import estimate_table, fit_strengths
    from dicemath.games.pitjesbak.sources import default_solution

    rows = []
    for n in TABLE_SIZES:
        table_rules = rules.with_players(n)
        solution = default_solution(table_rules) if n in _exact_sizes(quick) else estimate_table(table_rules)
        card = table_policy_card(rules=table_rules, solution=solution)
        rows.append(TableRow(n, card.exact, card.win_probabilities, card.thresholds))
    check = None
    if not quick:
        four = rules.with_players(4)
        estimate = estimate_table(four, strengths=fit_strengths(rules, players=3))
        exact = next(r for r in rows if r.players == 4)
        check = (exact.win_probabilities, estimate.value(*((four.stripes,) * 4, (False,) * 4)))
    return tuple(rows), check


SIMULATED_LOSS_FORMAT = 1
"""The format version of the cache entries ``pitjesbak-round-max-simulated``: change it when its computation
or layout changes."""


def _simulated(rules: Rules, players: int, games: int) -> dict:
    from dicemath.games.pitjesbak.table_compare import simulated_loss
    from dicemath.games.pitjesbak.table_estimate import estimate_table
    from dicemath.games.pitjesbak.table_solver import SOLVED_PLAYERS, solve_table

    table_rules = rules.with_players(players)

    def build() -> dict:
        reference = (solve_table(table_rules) if players <= SOLVED_PLAYERS[-1] else estimate_table(table_rules))
        return simulated_loss(reference, games=games, seed=SEED)

    return cached_object("pitjesbak-round-max-simulated", (table_rules, games, SEED), build,
                         format_version=SIMULATED_LOSS_FORMAT)


def gain_rows(rules: Rules, *, quick: bool = False) -> tuple[GainRow, ...]:
    """What round-optimal play costs at each table size: exact where solved
    (:func:`dicemath.games.pitjesbak.table_compare.solve_round_maximiser`), simulated from three players
    (:func:`dicemath.games.pitjesbak.table_compare.simulated_loss`, cached)."""
    from dicemath.games.pitjesbak.table_compare import solve_round_maximiser
    from dicemath.games.pitjesbak.table_solver import DEFAULT_CAP_EXTRA, two_player_cap

    games = QUICK_GAMES if quick else SIMULATED_GAMES
    rows = []
    for n in TABLE_SIZES:
        exact = None
        if n in ((2,) if quick else _exact_sizes(quick)):
            table_rules = rules.with_players(n)
            # two players: the cap of the three-player table's subgame, so the solutions are shared
            cap = two_player_cap(rules, rules.stripes + DEFAULT_CAP_EXTRA) if n == 2 else None
            solved = solve_round_maximiser(table_rules, cap=cap)
            exact = tuple(solved.opening_loss(p) for p in range(n))
        simulated = _simulated(rules, n, games[n]) if n in games else None
        if exact is not None or simulated is not None:
            rows.append(GainRow(n, exact, simulated))
    return tuple(rows)


def round_conclusion(rounds: tuple[RoundRow, ...]) -> str:
    """Who is best placed in a round, read off the rounds solved for each number of players."""
    leads = [r.players for r in rounds if r.win_probabilities[0] == max(r.win_probabilities)]
    sizes = f"{rounds[0].players}..{rounds[-1].players} players"
    if len(leads) == len(rounds):
        return f"At every table size ({sizes}) the start player has the best chance to win the round."
    if not leads:
        return f"At no table size ({sizes}) does the start player have the best chance to win the round."
    return (f"The start player has the best chance to win the round with {', '.join(map(str, leads))} "
            f"players, not at the other table sizes ({sizes}).")


def _threshold_names(rules: Rules | None = None) -> list[str]:
    """The ranked classes by their dice (:attr:`~.throws.ThrowClass.name`), weakest first, in the
    order of :func:`~.advice.threshold_index` (the y axis of the threshold plot)."""
    space = class_space(rules)
    return [c.name for c in space.classes[:space.apen]]


def _named(label: str | None, absent: str) -> str:
    """A threshold (a class's label, as the rows hold it) by its dice, ``absent`` for none."""
    index = threshold_index(label)
    return absent if index is None else _threshold_names()[index]


def thresholds_figure(rows: tuple[TableRow, ...]):
    """The stop thresholds by turn position, one line per table size (estimates dashed)."""
    import matplotlib.pyplot as plt

    names = _threshold_names()
    figure, axes = plt.subplots(1, 2, figsize=(12, 5.5), sharey=True)
    used: set[int] = set()
    for k, (axis, title) in enumerate(zip(axes, ("after the first of three throws", "with one of three throws left"))):
        for row in rows:
            ys = [threshold_index(t[k]) for t in row.thresholds]
            used.update(y for y in ys if y is not None)
            axis.plot(range(row.players), [float("nan") if y is None else y for y in ys], marker="o",
                      linestyle="-" if row.exact else "--",
                      label=f"{row.players} players{'' if row.exact else ' (estimate)'}")
        axis.set(title=title, xlabel="turn position (0 = the start player)", xticks=range(max(TABLE_SIZES)))
        axis.grid(alpha=0.3)
    ticks = sorted(used)
    axes[0].set_yticks(ticks)
    axes[0].set_yticklabels([names[i] for i in ticks])
    axes[0].set_ylabel("weakest throw he stops on")
    handles, labels = axes[0].get_legend_handles_labels()
    figure.legend(handles, labels, loc="lower center", ncol=4, bbox_to_anchor=(0.5, -0.1))
    figure.suptitle(f"Game-optimal stop thresholds at the opening (followers facing a best of "
                    f"{classify(WEAK_BEST).name})")
    return figure


def _trend(values: list[int]) -> str:
    """How a sequence of threshold strengths moves: words read off the numbers."""
    steps = [b - a for a, b in zip(values, values[1:])]
    if all(d > 0 for d in steps):
        return "rises with every added player"
    if all(d >= 0 for d in steps) and values[-1] > values[0]:
        return "never falls as players are added"
    if all(d == 0 for d in steps):
        return "is the same at every table size"
    if all(d <= 0 for d in steps):
        return "never rises as players are added"
    return "moves both ways with the table size"


def threshold_conclusions(rows: tuple[TableRow, ...]) -> list[str]:
    """Sentences about the thresholds, each computed from the rows (which hold the classes'
    labels; the sentences name them by their dice)."""
    names = _threshold_names()
    out = []
    for k, when in ((0, "after his first throw"), (1, "after his second")):
        found = [threshold_index(r.thresholds[0][k]) for r in rows]
        start = [i for i in found if i is not None]
        if len(start) == len(found):
            out.append(f"The start player's threshold {when} {_trend(start)}: {names[start[0]]} at "
                       f"{rows[0].players} players, {names[start[-1]]} at {rows[-1].players}.")
    weak_best = classify(WEAK_BEST)
    weak = threshold_index(weak_best.label)
    if weak is None:
        raise ValueError(f"{weak_best.name} is not a ranked class")
    last = [threshold_index(r.thresholds[-1][0]) for r in rows]
    if all(t == weak + 1 for t in last):
        out.append(f"The last player, facing {weak_best.name} with two throws left, stops as soon as "
                   f"he beats it, on {names[weak + 1]} or better, at every table size: nobody can overtake him.")
    else:
        out.append(f"The last player's threshold facing {weak_best.name} is "
                   + ", ".join(f"{'none' if t is None else names[t]} ({r.players} players)"
                               for r, t in zip(rows, last)) + ".")
    by_after: dict[int, set] = {}
    for r in rows:
        for position in range(1, r.players - 1):
            by_after.setdefault(r.players - 1 - position, set()).add(threshold_index(r.thresholds[position][0]))
    strengths = {after: sorted(v - {None}) for after, v in sorted(by_after.items()) if v - {None}}
    if strengths:
        spans = "; ".join(f"{after} after him: {names[v[0]]}" + (f" to {names[v[-1]]}" if len(v) > 1 else "")
                          for after, v in strengths.items())
        head = ("A follower with players still to throw after him stops only on a strong throw, the stronger the "
                "more players follow him" if _rising([v[0] for v in strengths.values()]) else
                "A follower's threshold with players still to throw after him")
        tail = (": the number of players still to throw decides it, not the table size." if
                all(len(v) == 1 for v in strengths.values()) else
                "; with the same number of players after him the table size moves it a little.")
        out.append(f"{head} (after his first throw, facing {weak_best.name}: {spans}){tail}")
    return out


def _rising(values: list[int]) -> bool:
    return all(b >= a for a, b in zip(values, values[1:])) and values[-1] > values[0]


def advantage_conclusions(rows: tuple[TableRow, ...], check) -> list[str]:
    """Sentences about the first start player's advantage, computed from the rows."""
    out = []
    ahead = [r for r in rows if r.advantage > 0]
    if len(ahead) == len(rows):
        out.append("The first start player's chance is above a fair share (1/n) at every table size.")
    elif not ahead:
        out.append("The first start player's chance is below a fair share (1/n) at every table size.")
    else:
        out.append("The first start player's chance is above a fair share with "
                   + ", ".join(str(r.players) for r in ahead) + " players only.")
    top = max(rows, key=lambda r: r.advantage)
    rel = max(rows, key=lambda r: r.win_probabilities[0] * r.players)
    out.append(f"His edge is largest in points of probability at {top.players} players "
               f"({100 * top.advantage:+.2f} points) and relative to a fair share at {rel.players} players "
               f"({rel.win_probabilities[0] * rel.players:.3f} times 1/n).")
    if check is not None:
        exact, estimate = check
        error = max(abs(a - b) for a, b in zip(exact, estimate))
        out.append(f"At four players, where both can be computed, the estimate (fitted to three players) is off "
                   f"by at most {error:.4f} in P(win) at the opening, against a first-seat edge of "
                   f"{exact[0] - 0.25:.4f}.")
    return out


def gain_conclusions(gains: tuple[GainRow, ...]) -> list[str]:
    """Sentences about what game-optimal play gains, computed from the rows."""
    out = []
    exact = [(g.players, g.exact_losses) for g in gains if g.exact_losses is not None]
    if exact:
        low = min(min(losses) for _, losses in exact)
        high = max(max(losses) for _, losses in exact)
        sizes = f"{exact[0][0]}..{exact[-1][0]}" if len(exact) > 1 else str(exact[0][0])
        out.append(f"Exactly, with {sizes} players, a round-maximiser loses between {low:.5f} and {high:.5f} of "
                   f"P(win the game), whatever his seat in the first round, "
                   + ("always less than one percentage point." if high < 0.01 else "up to a point or more."))
    both = [(g.players, g.exact_losses, g.simulated) for g in gains
            if g.exact_losses is not None and g.simulated is not None]
    inside = [players for players, losses, sim in both if sim["low"] <= losses[0] <= sim["high"]]
    if both:
        out.append("Where both are measured (" + ", ".join(str(players) for players, _, _ in both)
                   + " players) the exact loss "
                   "of the first start player lies "
                   + ("inside the simulated 95% interval every time, although the simulated others do not adapt to "
                      "him." if len(inside) == len(both) else
                      f"inside the simulated 95% interval at {', '.join(map(str, inside)) or 'no table size'}: the "
                      "simulated others do not adapt to him, the exact ones do."))
    simulated = [(g.players, g.simulated) for g in gains if g.simulated is not None and g.exact_losses is None]
    if simulated:
        positive = [players for players, sim in simulated if sim["low"] > 0]
        sizes = ", ".join(str(players) for players, _ in simulated)
        where = (f"at every table size simulated ({sizes} players)" if len(positive) == len(simulated) else
                 f"at {', '.join(map(str, positive))} of {sizes} players" if positive else
                 f"at no table size of {sizes} players")
        out.append(f"Beyond, by simulation: the loss is above zero with 95% confidence {where}; its central "
                   f"estimates range from {min(sim['loss'] for _, sim in simulated):.5f} to "
                   f"{max(sim['loss'] for _, sim in simulated):.5f}.")
    return out


def _tables_section(report: PitjesbakReport, context: ReportContext) -> list[str]:
    """The n-player part of the section (Markdown lines)."""
    rows = report.tables
    exact_sizes = [r.players for r in rows if r.exact]
    estimated = [r.players for r in rows if not r.exact]
    top = max(r.players for r in rows)
    parts = ["", "## Tables of 2 to 8 players", "",
             "Every player maximises his own probability of winning the game (with more than two players the game "
             "is not zero-sum). Exact (float64 value iteration to 1e-12, stripe counts above 11 clipped; "
             "`dicemath.games.pitjesbak.table_solver`; two players from the two-player solver): "
             + ", ".join(map(str, exact_sizes)) + " players. "
             + ("Estimated: " + ", ".join(map(str, estimated)) + " players (the round is solved exactly, the game "
                "values after it are estimated by a Luce model fitted to the exact four-player solution, "
                "`table_estimate`)." if estimated else "")
             + " The figures of this part at each table size, the round-maximiser's too, are committed study data, "
               "recomputed by `python analyses/report_studies.py pitjesbak`.",
             "", "### First-seat advantage", "",
             markdown_table(["players", "P(first start player wins)", "fair share 1/n", "edge (points)",
                             "relative to 1/n", "source"],
                            [[r.players, f"{r.win_probabilities[0]:.4f}", f"{1 / r.players:.4f}",
                              f"{100 * r.advantage:+.2f}", f"{r.win_probabilities[0] * r.players:.3f}",
                              "exact" if r.exact else "estimate"] for r in rows]),
             "", *advantage_conclusions(rows, report.estimate_check),
             "", "### Stop thresholds by seat", "",
             "The weakest throw each turn position stops on at the opening (every player at "
             f"{report.rules.stripes} stripes, nobody has wiped): the start player after his first and his second "
             f"throw; a follower in a round where the start player used three throws, facing a best so far of "
             f"{classify(WEAK_BEST).name} held by one player before him (those between below it), after his first "
             "and his second throw (`dicemath pitjesbak card --players N` prints the whole card).", "",
             context.save_figure(thresholds_figure(rows), "pitjesbak_thresholds.png",
                                 "stop thresholds by turn position and table size"), "",
             markdown_table(["players"] + [f"pos {i}" for i in range(top)],
                            [[r.players] + [f"{_named(a, '-')} / {_named(b, '-')}" for a, b in r.thresholds]
                             + [""] * (top - r.players) for r in rows], align="l" + "l" * top),
             "", "(after the first throw / with one throw left)", "", *threshold_conclusions(rows),
             "", "### Game-optimal against round-optimal play", "",
             "A round-maximiser stops whenever that maximises his chance to win the round (round-optimal play, "
             "blind to the stripes). *Exact*: the others play game-optimally against him, knowing how he plays "
             "(`table_compare.solve_round_maximiser`, as the two-player comparison above); the loss at each turn "
             "position of the first round. *Simulated*: the first start player plays round-optimally, the others "
             "keep the game-optimal play of the table (exact to four players, the estimate beyond); his loss is the "
             "value he gives up at each of his decisions, summed over a game and averaged over simulated games "
             "(performance-difference identity), with a 95% interval (1.96 standard errors); from five players the "
             "values it is measured with are estimates."]
    gain_rows_md = []
    for g in report.gains:
        exact = "" if g.exact_losses is None else f"{g.exact_losses[0]:.6f}"
        spread = "" if g.exact_losses is None else f"{min(g.exact_losses):.6f} .. {max(g.exact_losses):.6f}"
        sim = g.simulated
        simulated = "" if sim is None else f"{sim['loss']:.5f} [{sim['low']:.5f}, {sim['high']:.5f}]"
        games = "" if sim is None else f"{sim['games']:,}"
        values = "" if sim is None else ("exact" if sim["exact_values"] else "estimated")
        gain_rows_md.append([g.players, exact, spread, simulated, games, values])
    parts += ["", markdown_table(["players", "exact loss, first start player", "exact, any first-round seat",
                                  "simulated loss [95% interval]", "games", "values"], gain_rows_md),
              "", *gain_conclusions(report.gains)]
    return parts


def render(report: PitjesbakReport, context: ReportContext) -> str:
    """Markdown of the Pitjesbak section; the heat map saved through ``context``."""
    low, high = report.bounds
    parts = [
        "Rules: docs/rules.md section 3 (PIT-1..PIT-8), traditional die values (1 = 100, 6 = 60). "
        f"Exact probabilities are integer weights over the {THROW_TOTAL} ordered throws; the game "
        "values are float64 from value iteration with rigorous lower and upper bounds.",
        "",
        "## Throw classes (PIT-2, PIT-3)",
        "",
        markdown_table(["class", "kind", "wipes", "penalty", "exact", "probability", "throws"],
                       [[r.throw_class.label, r.throw_class.kind, r.throw_class.wipe, r.throw_class.penalty,
                         f"{r.weight}/{THROW_TOTAL}", f"{float(r.probability):.4f}",
                         " ".join(throw_text(t) for t in r.throws)] for r in report.classes], align="llrrrrl"),
        "",
        "1-1-1 (drie apen) is not ranked: with the has-wiped flag it wins the game, without it "
        "the player is eliminated (PIT-6). 2-2-3 adds a stripe to whoever ends a turn on it (PIT-7).",
        "",
        f"## The two-player game ({report.rules.stripes} stripes each)",
        "",
        f"P(the first start player wins the game), both playing to win the game: "
        f"**{report.value:.10f}** (bounds {low:.12f} .. {high:.12f}; states up to {report.cap} "
        f"stripes, {report.sweeps} sweeps).",
    ]
    if report.comparison:
        value, comparison = report.value, report.comparison
        rvo, rso, rvr = (comparison["round_vs_optimal"], comparison["round_second_vs_optimal"],
                         comparison["round_vs_round"])
        parts += ["", markdown_table(
            ["policies", "P(first start player wins)", "loss of the round-maximiser"],
            [["both game-optimal", f"{value:.6f}", ""],
             ["start player maximises round wins, other game-optimal", f"{rvo:.6f}", f"{value - rvo:.6f}"],
             ["start player game-optimal, other maximises round wins", f"{1 - rso:.6f}",
              f"{(1 - value) - rso:.6f}"],
             ["both maximise round wins", f"{rvr:.6f}", ""]], align="lrr")]
    a, fa, b, fb = LATE_STATE
    advice = report.opening_advice.detail
    parts += ["", "## Policy card (opening position)", "",
              f"The start player's first throw of the game is {throw_text(FIRST_THROW)}: the picture gives his "
              "chance to win the game if he stops and if he throws again (both players game-optimal from there); "
              f"the advice is to **{advice.decision}**.", "",
              context.save_picture(picture(report.opening, report.opening_advice), "pitjesbak_first_throw.svg",
                                   f"the start player's first throw {throw_text(FIRST_THROW)}: {advice.decision}"),
              "", report.opening_card.markdown(), "",
              f"### Late in the game: {a} v {b} stripes, {'both have' if fa and fb else 'not both'} wiped", "",
              report.late_card.markdown(), "",
              "## Win chances by stripes", "",
              context.save_figure(heat_map_figure(report.heat_map), "pitjesbak_heatmap.png",
                                  "P(start player wins) by stripes"), "",
              "## One round: P(win the round) by turn position", "",
              "Every player maximises their own chance to win the round (no flags set)."]
    top = report.rounds[-1].players
    rows = [[r.players] + [f"{p:.4f}" for p in r.win_probabilities] + [""] * (top - r.players)
            + [_named(t, "(no threshold)") for t in r.thresholds] for r in report.rounds]
    parts += ["", markdown_table(["players"] + [f"pos {i}" for i in range(top)]
                                 + ["start stops after throw 1 on", "after throw 2 on"], rows,
                                 align="l" + "r" * top + "ll"), "", round_conclusion(report.rounds)]
    parts += _tables_section(report, context)
    return "\n".join(parts)
