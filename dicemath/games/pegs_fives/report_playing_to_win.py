"""Report section ``playing_to_win``: how much playing to win is worth in Pegs and Fives, and
when it pays to deviate from solo-optimal play.

Solo-optimal play minimises the player's own expected number of turns. The games reward
something else: Pegs is won by whoever first has every peg in (PEGS-2); a Fives round ends
the moment one player completes every number and the others score their missing marks times
the number (FIVES-6), the lowest total winning the session (FIVES-7). The section shows,
each number labelled by where it comes from:

* **exact, reduced boards**: the two-player race solved exactly on boards with a few rows
  open (:func:`dicemath.games.pegs_fives.race_solver.exact_race_result`, the figures of
  ``dicemath pegs race --open ROWS``; float64 arithmetic of the exact solution; committed
  study data, :mod:`dicemath.studies.report_studies`, recomputed by
  ``python analyses/report_studies.py playing_to_win``): the first mover's value when both play
  solo-optimally, when one of them plays to win, and when both do, and how often the winning row
  differs from the solo-optimal one;
* **when it pays to deviate**, also exact on a reduced board: for every pair of boards (each
  pair once, not weighted by how often play reaches it), what the mover gains by playing to
  win from there on against a solo-optimal opponent (his race value playing to win minus
  his race value playing solo-optimally), against the gap between the players (the
  opponent's expected turns minus the mover's, solo-optimal play: positive when the mover
  is ahead), :func:`deviation_curve` (committed like the exact figures) and :func:`deviation_figure`;
* **simulated, full board**: head-to-head games of the full-board race approximation
  (:func:`dicemath.games.pegs_fives.race_advice.race_advice`'s turn-count model) against
  solo-optimal play, and that approximation evaluated exactly on reduced boards, read from
  the committed study (``dicemath/studies/data/race_results.json``, written by
  ``analyses/pegs_fives_race.py``): estimates with 95% intervals, and exact figures of the
  approximation;
* **positions**: full-board decisions where the race advice (an estimate of the turn-count
  model) and the solo advice differ, drawn with the solo advice
  (:func:`dicemath.games.pegs_fives.drawing.draw`) beside a table of the race values.

Every sentence that states a conclusion is read off the numbers it describes.
``context.quick`` solves one 2-row board per game, the deviation on a 3-row board, and one
position per game (seconds).
"""

from __future__ import annotations

import json
from collections.abc import Hashable
from dataclasses import dataclass, field

import numpy as np

from dicemath.core.advice import Advice
from dicemath.core.dice import throw_text
from dicemath.core.game import Game
from dicemath.core.stats import Z95
from dicemath.games.pegs_fives.rules import FIVES, PEGS, Rules
from dicemath.games.pegs_fives.state import board_text, choice_state, initial_state
from dicemath.core.markdown import markdown_table
from dicemath.reporting.context import ReportContext
from dicemath.reporting.context import study_file

RESULTS = study_file("race_results.json")
"""The committed race study (``analyses/pegs_fives_race.py``)."""

GAMES = (PEGS, FIVES)
"""The games of the section, in order."""

EXACT_ROWS = ((8, 9, 10, 11, 12), (2, 4, 6, 8), (9, 10, 11, 12), (6, 7, 8))
"""Reduced boards of the exact figures (open rows; at most five, the exact solver's limit; a
five-row board takes minutes once, then it is cached)."""

QUICK_EXACT_ROWS = ((11, 12),)
"""The reduced board of the exact figures in quick mode."""

DEVIATION_ROWS = (9, 10, 11, 12)
"""The reduced board of the deviation plot (1.7 million pairs; seconds to solve)."""

QUICK_DEVIATION_ROWS = (10, 11, 12)
"""The deviation plot's board in quick mode."""

GAP_BIN = 0.5
"""Width of the gap bins of the deviation plot, in expected turns."""

MIN_PAIRS = 50
"""Gap bins with fewer pairs are left out of the plot and of the sentences."""

GAIN_TOLERANCE = 1e-9
"""A difference at most this large (relative to the values' scale) counts as none (float64)."""

NOTICEABLE = {"first_out": 0.001, "rest_points": 0.1}
"""A gain a player notices, by scoring: 0.1 percentage points of win probability (Pegs), 0.1
rest points (Fives); the deviation plot counts the pairs that gain at least this much."""

POSITIONS = (
    ("pegs", "the mover far ahead", (5, 0, 2, 5, 1, 5, 5, 4, 5, 5, 4, 0), (3, 5, 5, 3, 6, 5), (0,) * 12),
    ("pegs", "the opponent ahead, the mover at the start", (0,) * 12, (5, 4, 1, 5, 1, 3),
     (0, 1, 1, 3, 1, 2, 2, 3, 2, 3, 1, 0)),
    ("fives", "the opponent nearly out, the mover's pad empty", (0,) * 12, (3, 3, 4, 5, 6, 4),
     (5, 2, 5, 5, 3, 5, 2, 4, 5, 4, 1, 5)),
    ("fives", "the opponent nearly out, the mover in mid-game", (1, 0, 0, 2, 0, 2, 0, 2, 2, 2, 1, 0),
     (4, 1, 3, 1, 4, 2), (1, 5, 0, 0, 5, 5, 5, 5, 4, 5, 5, 4)),
)
"""Full-board decisions shown: game, what the player sees, his board, the choice throw, the
opponent's board."""


def _rules(game: str) -> Rules:
    return PEGS if game == "pegs" else FIVES


def unit_of(rules: Rules) -> str:
    """The unit of a race value in words (PEGS-2 / FIVES-6)."""
    return "win probability" if rules.scoring == "first_out" else "rest points"


def value_text(rules: Rules, value: float, *, signed: bool = False) -> str:
    """A race value as the section writes it: Pegs in percent, Fives in rest points."""
    if rules.scoring == "first_out":
        return f"{100 * value:+.3f} percentage points" if signed else f"{100 * value:.3f}%"
    return f"{value:+.3f} rest points" if signed else f"{value:.3f} rest points"


def rows_text(rows) -> str:
    """Open rows as ``8-12`` when consecutive, else ``2,4,6``."""
    rows = list(rows)
    if len(rows) > 2 and rows == list(range(rows[0], rows[-1] + 1)):
        return f"{rows[0]}-{rows[-1]}"
    return ",".join(map(str, rows))


# ---------------------------------------------------------------------------------------------
# Exact figures on reduced boards
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class ExactRace:
    """The exact race on one reduced board (:func:`.race_solver.exact_race_result`).

    Attributes:
        game, open_rows: the game and the rows open on both boards.
        figures: ``solo_vs_solo``, ``race_vs_solo``, ``solo_vs_race``, ``race_vs_race`` (the
            first mover's value from the empty pair; the first named is his policy) and
            ``differing_decisions``.
    """

    game: str
    open_rows: tuple[int, ...]
    figures: dict

    @property
    def rules(self) -> Rules:
        return _rules(self.game)

    @property
    def first_gain(self) -> float:
        """What the first mover gains by playing to win against a solo-optimal second mover."""
        return self.figures["race_vs_solo"] - self.figures["solo_vs_solo"]

    @property
    def second_gain(self) -> float:
        """What the second mover gains by playing to win against a solo-optimal first mover
        (his value is the mirror of the first mover's, PEGS-2 / FIVES-6: the first mover's
        value falls by as much)."""
        return self.figures["solo_vs_solo"] - self.figures["solo_vs_race"]

    @property
    def share_of_choices(self) -> float:
        """The chance-weighted share of turn-start choices (two or more legal rows) where the
        winning row differs from the solo-optimal one, both playing to win."""
        return self.figures["differing_decisions"]["share_of_choices"]


SECTION = "playing_to_win"
"""The section's name, the prefix of its committed studies (:meth:`ReportContext.study`)."""


def exact_race(context: ReportContext, rules: Rules, rows) -> ExactRace:
    """The exact race of ``rules`` on ``rows``: the committed study
    ``playing_to_win/exact/<game>/<rows>`` (``python analyses/report_studies.py playing_to_win``
    recomputes it), else :func:`.race_solver.exact_race_result`."""
    from dicemath.games.pegs_fives.race_solver import exact_race_result

    rows = tuple(rows)
    figures = context.study(SECTION, f"exact/{rules.name}/{rows_text(rows)}", (rules, rows),
                            lambda: exact_race_result(rules, rows))
    return ExactRace(rules.name, rows, figures)


def exact_races(context: ReportContext) -> tuple[ExactRace, ...]:
    """The exact figures of every game on :data:`EXACT_ROWS` (:data:`QUICK_EXACT_ROWS`)."""
    boards = QUICK_EXACT_ROWS if context.quick else EXACT_ROWS
    return tuple(exact_race(context, rules, rows) for rules in GAMES for rows in boards)


def gain_sentence(race: ExactRace) -> str:
    """Which mover gains more by playing to win on a reduced board, read off the figures."""
    rules, f = race.rules, race.figures
    first, second = race.first_gain, race.second_gain
    if rules.scoring == "first_out":
        start = (f"With both playing solo-optimally the first mover wins {value_text(rules, f['solo_vs_solo'])} "
                 f"of the races; playing to win against a solo-optimal opponent he wins "
                 f"{value_text(rules, f['race_vs_solo'])}, and a second mover who plays to win brings the first "
                 f"mover down to {value_text(rules, f['solo_vs_race'])}.")
    else:
        start = (f"With both playing solo-optimally the first mover ends {f['solo_vs_solo']:+.3f} rest points "
                 f"ahead on average; playing to win against a solo-optimal opponent, {f['race_vs_solo']:+.3f}; "
                 f"against a second mover who plays to win, {f['solo_vs_race']:+.3f}.")
    if abs(first - second) <= GAIN_TOLERANCE * (1 + abs(first) + abs(second)):
        return start + f" Both movers gain the same by playing to win ({value_text(rules, first, signed=True)})."
    who, more, less = ("the second mover", second, first) if second > first else ("the first mover", first, second)
    return start + (f" Playing to win is worth more to {who} ({value_text(rules, more, signed=True)}) than to the "
                    f"other ({value_text(rules, less, signed=True)}).")


# ---------------------------------------------------------------------------------------------
# When it pays to deviate: the gain against the gap
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Deviation:
    """The value of playing to win against the gap between the players, on a reduced board.

    Every live pair (both boards incomplete, each pair once): ``gain`` = the mover's race
    value playing to win minus his race value playing solo-optimally, both against a
    solo-optimal opponent and both played from this pair to the end (exact solutions,
    float64); ``gap`` = the opponent's expected turns minus the mover's under solo-optimal
    play (positive: the mover is ahead). Binned by the gap in :data:`GAP_BIN` turns.

    Attributes:
        game, open_rows: the game and the board.
        centers: each bin's centre (expected turns); ``pairs``: pairs in it.
        mean, q90, largest: the gain's mean, 90th percentile and maximum in the bin.
        share: the share of the bin's pairs where playing to win gains at least
            :data:`NOTICEABLE`.
        total_pairs, mean_gain: over every pair.
        seconds: the time of the two solves (when computed).
    """

    game: str
    open_rows: tuple[int, ...]
    centers: np.ndarray
    pairs: np.ndarray
    mean: np.ndarray
    q90: np.ndarray
    largest: np.ndarray
    share: np.ndarray
    total_pairs: int
    mean_gain: float
    seconds: float = field(default=0.0, compare=False)

    @property
    def rules(self) -> Rules:
        return _rules(self.game)

    def shown(self) -> np.ndarray:
        """The bins with at least :data:`MIN_PAIRS` pairs."""
        return self.pairs >= MIN_PAIRS

    def side_means(self) -> tuple[float, float]:
        """The pair-weighted mean gain when the mover is behind (gap below 0) and ahead (above 0),
        over the shown bins."""
        shown = self.shown()
        out = []
        for side in (self.centers < 0, self.centers > 0):
            chosen = shown & side
            weight = self.pairs[chosen].sum()
            out.append(float((self.mean[chosen] * self.pairs[chosen]).sum() / weight) if weight else float("nan"))
        return out[0], out[1]


DEVIATION_FIELDS = ("centers", "pairs", "mean", "q90", "largest", "share")
"""The per-bin arrays of a :class:`Deviation`, as its committed study stores them."""


def committed_deviation(context: ReportContext, rules: Rules, open_rows) -> Deviation:
    """The :class:`Deviation` of ``rules`` on ``open_rows``: the committed study
    ``playing_to_win/deviation/<game>/<rows>`` (``python analyses/report_studies.py
    playing_to_win`` recomputes it), else :func:`deviation_curve`."""
    rows = tuple(open_rows)

    def compute() -> dict:
        d = deviation_curve(rules, rows)
        return {**{name: getattr(d, name) for name in DEVIATION_FIELDS}, "total_pairs": d.total_pairs,
                "mean_gain": d.mean_gain, "seconds": d.seconds}

    value = context.study(SECTION, f"deviation/{rules.name}/{rows_text(rows)}",
                          (rules, rows, GAP_BIN, NOTICEABLE[rules.scoring]), compute)
    centers, pairs, mean, q90, largest, share = (
        np.array(value[name], dtype=np.int64 if name == "pairs" else np.float64) for name in DEVIATION_FIELDS)
    return Deviation(rules.name, rows, centers, pairs, mean, q90, largest, share, int(value["total_pairs"]),
                     float(value["mean_gain"]), float(value["seconds"]))


DEVIATION_FORMAT = 1
"""The format version of the cached table ``pegs-fives-race-deviation``: change it when its computation
or layout changes."""


def deviation_curve(rules: Rules, open_rows, *, width: float = GAP_BIN, use_cache: bool = True) -> Deviation:
    """The :class:`Deviation` of ``rules`` on ``open_rows`` (at most five open rows): two exact
    race solves (race against solo, solo against solo, :func:`.race_solver.solve_race_compiled`)
    and the solo expected turns of every board (:func:`.fullboard.driver.solve_table`). Cached
    (:func:`dicemath.core.cache.cached_arrays`): a 5-row board takes minutes once.

    Example:
        >>> d = deviation_curve(PEGS, (11, 12))
        >>> bool(np.nanmin(d.mean) >= -1e-12) and d.total_pairs == 35 * 35
        True
    """
    from dicemath.core.cache import cached_arrays
    from dicemath.games.pegs_fives.race_solver import check_race_rows

    rows = check_race_rows(rules, open_rows)

    def build() -> dict:
        import time

        from dicemath.games.pegs_fives.fullboard.driver import solve_table
        from dicemath.games.pegs_fives.race_solver import kernel_tables, solve_race_compiled

        start = time.perf_counter()
        live = ~kernel_tables(rules, rows)["complete"]
        race = solve_race_compiled(rules, rows, first="race", second="solo", examples=0).V1[np.ix_(live, live)]
        solo = solve_race_compiled(rules, rows, first="solo", second="solo", examples=0).V1[np.ix_(live, live)]
        gain = (race - solo).ravel()
        del race, solo
        E = np.asarray(solve_table(rules, rows), dtype=np.float64)[live]
        gap = (E[None, :] - E[:, None]).ravel()                 # [mover, opponent]: opponent's minus mover's
        index = np.floor(gap / width).astype(np.int64)
        low = int(index.min())
        index -= low
        bins = int(index.max()) + 1
        pairs = np.bincount(index, minlength=bins)
        total = np.bincount(index, weights=gain, minlength=bins)
        noticed = (gain >= NOTICEABLE[rules.scoring]).astype(np.float64)
        positive = np.bincount(index, weights=noticed, minlength=bins)
        order = np.argsort(index, kind="stable")
        sorted_gain = gain[order]
        edges = np.concatenate([[0], np.cumsum(pairs)])
        q90 = np.full(bins, np.nan)
        largest = np.full(bins, np.nan)
        for i in range(bins):
            chunk = sorted_gain[edges[i]:edges[i + 1]]
            if chunk.size:
                q90[i] = np.quantile(chunk, 0.9)
                largest[i] = chunk.max()
        with np.errstate(invalid="ignore", divide="ignore"):
            mean = total / pairs
            share = positive / pairs
        return {"centers": (np.arange(bins) + low + 0.5) * width, "pairs": pairs, "mean": mean, "q90": q90,
                "largest": largest, "share": share, "total": np.array([gain.size, float(gain.mean())]),
                "seconds": np.array(time.perf_counter() - start)}

    arrays = cached_arrays("pegs-fives-race-deviation", (rules, rows, width, NOTICEABLE[rules.scoring]), build,
                           format_version=DEVIATION_FORMAT, use_cache=use_cache)
    return Deviation(rules.name, rows, arrays["centers"], arrays["pairs"], arrays["mean"], arrays["q90"],
                     arrays["largest"], arrays["share"], int(arrays["total"][0]), float(arrays["total"][1]),
                     float(arrays["seconds"]))


def deviation_figure(deviations):
    """The gain of playing to win against the gap, one column per game: the mean gain and its
    90th percentile per gap bin (top), the share of pairs where it gains at least
    :data:`NOTICEABLE` (bottom).
    Pegs in percentage points of win probability, Fives in rest points."""
    import matplotlib.pyplot as plt

    deviations = list(deviations)
    figure, axes = plt.subplots(2, len(deviations), figsize=(5.2 * len(deviations), 6.4), squeeze=False,
                                sharex="col")
    for column, d in enumerate(deviations):
        rules = d.rules
        shown = d.shown()
        scale = 100.0 if rules.scoring == "first_out" else 1.0
        x = d.centers[shown]
        top, bottom = axes[0, column], axes[1, column]
        top.plot(x, scale * d.mean[shown], marker=".", color="#4c72b0", label="mean")
        top.plot(x, scale * d.q90[shown], linestyle="--", color="#dd8452", label="90th percentile")
        top.axvline(0, color="grey", linewidth=0.8)
        top.set_ylabel("gain (win %-points)" if rules.scoring == "first_out" else "gain (rest points)")
        top.set_title(f"{rules.name.capitalize()}, rows {rows_text(d.open_rows)} (exact)")
        top.legend()
        bottom.plot(x, 100 * d.share[shown], marker=".", color="#55a868")
        bottom.axvline(0, color="grey", linewidth=0.8)
        bottom.set_ylim(0, 105)
        bottom.set_ylabel("pairs gaining " + ("0.1 %-points" if rules.scoring == "first_out" else "0.1 rest points")
                          + " (%)", fontsize=10)
        bottom.set_xlabel("gap: opponent's expected turns - mover's")
    figure.tight_layout()
    return figure


def deviation_sentence(d: Deviation) -> str:
    """Where playing to win pays on the board of ``d``: behind or ahead, and the bin where it
    pays most, read off the curve."""
    rules = d.rules
    behind, ahead = d.side_means()
    shown = d.shown()
    best = int(np.nanargmax(np.where(shown, d.mean, -np.inf)))
    where = "behind" if d.centers[best] < 0 else "ahead"
    text = (f"{rules.name.capitalize()}, rows {rows_text(d.open_rows)} ({d.total_pairs:,} pairs): playing to win "
            f"gains {value_text(rules, d.mean_gain, signed=True)} on average over every pair; ")
    if np.isnan(behind) or np.isnan(ahead):
        return text + "the board gives too few pairs on one side of the gap to compare."
    larger = "behind" if behind > ahead else "ahead"
    return text + (f"{value_text(rules, behind, signed=True)} when the mover is behind and "
                   f"{value_text(rules, ahead, signed=True)} when he is ahead, so it pays more {larger}. It pays "
                   f"most with the mover {abs(d.centers[best]):.2f} turns {where} "
                   f"({value_text(rules, d.mean[best], signed=True)} on average, "
                   f"{100 * d.share[best]:.0f}% of those pairs gain at least "
                   f"{value_text(rules, NOTICEABLE[rules.scoring], signed=True).lstrip('+')}).")


# ---------------------------------------------------------------------------------------------
# The committed study: simulated full-board games and the approximation on reduced boards
# ---------------------------------------------------------------------------------------------

def read_study() -> dict:
    """The committed race study, ``{"games": {game: {"simulate": ..., "exact": ...}}}``."""
    return json.loads(RESULTS.read_text()) if RESULTS.exists() else {"games": {}}


def interval_text(value: float, half: float, scale: float = 1.0, digits: int = 2) -> str:
    return f"{scale * value:.{digits}f} ± {scale * half:.{digits}f}"


def simulation_sentence(game: str, record: dict) -> str:
    """Whether the race player's advantage in simulated full-board games is clear of no
    advantage (0.5 wins, 0 rest points) beyond the 95% interval."""
    p, ci = record["race_win_rate"], record["race_win_rate_ci95"]
    games = f"{record['games']:,} simulated games"
    if game == "pegs":
        if p - ci > 0.5:
            verdict = "above one half beyond the 95% interval: playing to win pays"
        elif p + ci < 0.5:
            verdict = "below one half beyond the 95% interval: the approximation loses to solo-optimal play"
        else:
            verdict = "within the 95% interval of one half: no measurable gain"
        return f"Pegs, {games}: the race player wins {interval_text(p, ci, 100)}% of the games, {verdict}."
    d, dci = record["rest_point_difference"], record["rest_point_difference_ci95"]
    if d - dci > 0:
        verdict = "clear of zero beyond the 95% interval: playing to win pays"
    elif d + dci < 0:
        verdict = "below zero beyond the 95% interval: the approximation costs rest points"
    else:
        verdict = "within the 95% interval of zero: no measurable gain"
    text = (f"Fives, {games}: the race player scores {interval_text(d, dci)} rest points a round fewer than the "
            f"solo-optimal player, {verdict}.")
    if p + ci < 0.5:
        ends = "less often"
    elif p - ci > 0.5:
        ends = "more often"
    else:
        return text + f" He ends the round first in {interval_text(p, ci, 100)}% of the rounds."
    text += (f" He ends the round first {ends} than his opponent ({interval_text(p, ci, 100)}% of the rounds, "
             "beyond the 95% interval of one half)")
    if ends == "less often" and d - dci > 0:
        text += ": his gain does not come from ending the round more often"
    return text + "."


def approximation_sentence(game: str, record: dict) -> str:
    """How much of the exact gain the approximation keeps on the reduced boards of the study."""
    rules = _rules(game)
    mean = record["mean_over_row_sets"]
    exact, approx = mean["race_gain_first"], mean["approx_gain_first"]
    sets = len(record["row_sets"])
    text = (f"{game.capitalize()}, {sets} reduced boards: against a solo-optimal second mover, exact race play "
            f"gains the first mover {value_text(rules, exact, signed=True)} on average, the approximation "
            f"{value_text(rules, approx, signed=True)}")
    if approx < 0:
        return text + ": on average over these boards the approximation does worse than solo-optimal play."
    if exact > GAIN_TOLERANCE:
        text += f" ({100 * approx / exact:.0f}% of the exact gain)"
    return text + "."


def agreement_sentence(game: str, record: dict) -> str:
    """On how many boards the approximation's row is the exact winning row more often than the
    solo-optimal row is (compared at the table's precision, 0.01%)."""
    agreement = record.get("agreement", [])
    shown = [(round(100 * a["agreement"], 2), round(100 * a["solo_agreement"], 2)) for a in agreement]
    better = sum(x > y for x, y in shown)
    worse = sum(x < y for x, y in shown)
    return (f"{game.capitalize()}: the approximation's row is the exact winning row more often than the solo-optimal "
            f"row is on {better} of {len(agreement)} boards, less often on {worse}.")


# ---------------------------------------------------------------------------------------------
# Positions
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Position:
    """One full-board decision: the race advice (:func:`.race_advice.race_advice`) and the solo
    advice (:meth:`~dicemath.core.game.Game.advise`) for the same throw."""

    game: str
    label: str
    board: tuple[int, ...]
    throw: tuple[int, ...]
    opponent: tuple[int, ...]
    race: dict
    solo: Advice

    @property
    def rules(self) -> Rules:
        return _rules(self.game)

    @property
    def solo_row(self) -> Hashable:
        """The solo-optimal row (the solo advice's best action).

        Raises:
            ValueError: the solo advice has no legal row.
        """
        best = self.solo.best
        if best is None:
            raise ValueError(f"the solo advice for {self.game} board {self.board} has no legal row")
        return best.action


def positions(context: ReportContext, game_object: Game) -> tuple[Position, ...]:
    """The race and solo advice of :data:`POSITIONS` (the first of each game in quick mode),
    the solo advice asked of ``game_object`` (:meth:`~dicemath.core.game.Game.advise`, the
    chain of each position's rules)."""
    from dicemath.games.pegs_fives.race_advice import race_advice

    chosen, seen = [], set()
    for game, label, board, throw, opponent in POSITIONS:
        if context.quick and game in seen:
            continue
        seen.add(game)
        rules = _rules(game)
        chosen.append(Position(game, label, board, throw, opponent,
                               race_advice(rules, board, throw, [opponent]).as_dict(),
                               game_object.advise(choice_state(rules, board, throw))))
    return tuple(chosen)


def position_sentence(p: Position) -> str:
    """What playing to win changes in the position, read off the two advices."""
    rules, r = p.rules, p.race
    values = {o["row"]: o for o in r["options"]}
    race_row, solo_row = r["race_best"], p.solo_row
    kind = "exact" if r["exact"] else "estimates of the turn-count model"
    lead = r["opponent_expected_turns"][0] - r["board_expected_turns"]
    where = (f"{abs(lead):.1f} expected turns {'ahead' if lead > 0 else 'behind'}" if abs(lead) >= 0.05 else
             "level")
    if race_row == solo_row:
        return (f"The mover is {where}. Playing to win and solo-optimal play both name row {race_row} "
                f"({unit_of(rules)} {_race_value(rules, values[race_row]['race_value'])}, {kind}).")
    turns = values[race_row]["expected_turns"] - values[solo_row]["expected_turns"]
    return (f"The mover is {where}. Playing to win names row {race_row} "
            f"({_race_value(rules, values[race_row]['race_value'])}), the solo advice row {solo_row} "
            f"({_race_value(rules, values[solo_row]['race_value'])}; {kind}): row {race_row} is worth "
            f"{value_text(rules, values[race_row]['race_value'] - values[solo_row]['race_value'], signed=True)} "
            f"in the race at {turns:+.3f} expected turns of the mover's own.")


def _race_value(rules: Rules, value: float) -> str:
    return f"{100 * value:.2f}%" if rules.scoring == "first_out" else f"{value:+.2f} rest points"


# ---------------------------------------------------------------------------------------------
# The section
# ---------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PlayingToWinReport:
    """The section's numbers.

    Attributes:
        exact: the exact races (:class:`ExactRace`), Pegs first.
        deviations: one :class:`Deviation` per game.
        study: the committed race study per game (``simulate`` and ``exact`` records, empty
            when not measured).
        positions: the full-board decisions (:class:`Position`).
        quick: whether the quick variant was computed.
    """

    exact: tuple[ExactRace, ...]
    deviations: tuple[Deviation, ...]
    study: dict
    positions: tuple[Position, ...]
    quick: bool


def compute(game: Game, context: ReportContext) -> PlayingToWinReport:
    """The exact races, the deviation curves, the committed study and the positions (the solo
    advice asked of ``game``)."""
    rows = QUICK_DEVIATION_ROWS if context.quick else DEVIATION_ROWS
    study = read_study().get("games", {})
    return PlayingToWinReport(exact_races(context), tuple(committed_deviation(context, rules, rows) for rules in GAMES),
                              {rules.name: study.get(rules.name, {}) for rules in GAMES}, positions(context, game),
                              context.quick)


def _exact_table(races) -> str:
    rows = []
    for race in races:
        rules, f = race.rules, race.figures
        fmt = (lambda v: f"{v:.4f}") if rules.scoring == "first_out" else (lambda v: f"{v:+.3f}")
        rows.append([rules.name.capitalize(), rows_text(race.open_rows), fmt(f["solo_vs_solo"]),
                     fmt(f["race_vs_solo"]), fmt(f["solo_vs_race"]), fmt(f["race_vs_race"]),
                     value_text(rules, race.first_gain, signed=True), value_text(rules, race.second_gain, signed=True),
                     f"{100 * race.share_of_choices:.2f}%"])
    return markdown_table(["game", "open rows", "solo vs solo", "race vs solo", "solo vs race", "race vs race",
                           "first mover's gain", "second mover's gain", "choices that differ"], rows)


def _examples_table(race: ExactRace, count: int = 3) -> list[str]:
    examples = race.figures["differing_decisions"]["examples"][:count]
    if not examples:
        return []
    rules = race.rules
    rows = [[board_text(e["mover"]), board_text(e["opponent"]), e["throw"], e["race_row"], e["solo_row"],
             value_text(rules, e["loss"], signed=True)] for e in examples]
    return ["", f"The largest differences on {rules.name.capitalize()} rows {rows_text(race.open_rows)} (exact, "
            "both playing to win; boards as steps of rows 1..12):", "",
            markdown_table(["mover", "opponent", "throw", "winning row", "solo row", "what the solo row gives up"],
                           rows, align="lllrrr")]


def _half_text(p: float, games: int) -> str:
    """A win rate over half of ``games`` with its 95% interval (normal approximation)."""
    return interval_text(p, Z95 * float(np.sqrt(p * (1 - p) / (games // 2))), 100) + "%"


def summary_lines(report) -> list[str]:
    """One line per game: the exact gain on its largest reduced board and the simulated
    full-board figure, each labelled."""
    lines = []
    for rules in GAMES:
        races = [r for r in report.exact if r.game == rules.name]
        largest = max(races, key=lambda r: (len(r.open_rows), r.first_gain))
        text = (f"- **{rules.name.capitalize()}**: exact, on rows {rows_text(largest.open_rows)}, playing to win "
                f"against a solo-optimal opponent is worth {value_text(rules, largest.first_gain, signed=True)} to "
                f"the first mover and {value_text(rules, largest.second_gain, signed=True)} to the second")
        record = report.study.get(rules.name, {}).get("simulate")
        if record is None:
            text += "; the full board is not yet simulated."
        elif rules.scoring == "first_out":
            text += (f"; simulated on the full board, the approximation wins "
                     f"{interval_text(record['race_win_rate'], record['race_win_rate_ci95'], 100)}% of "
                     f"{record['games']:,} games against solo-optimal play.")
        else:
            text += (f"; simulated on the full board, the approximation gains "
                     f"{interval_text(record['rest_point_difference'], record['rest_point_difference_ci95'])} rest "
                     f"points a round over {record['games']:,} rounds against solo-optimal play.")
        lines.append(text)
    return lines


def _study_part(study: dict) -> list[str]:
    parts = ["## Simulated on the full board", "",
             "The full two-player game has about 10^18 pairs of boards: it is not solved. `race_advice` "
             "approximates it (each player's remaining turns follow a discrete Weibull law around his expected "
             "turns under solo-optimal play; Fives' rest points fall with the work left), and "
             "`analyses/pegs_fives_race.py` plays it against solo-optimal play (the distilled model's one-turn "
             "lookahead, what `advise` uses without a table), the first mover alternating. These figures are "
             "simulated: estimates with 95% intervals.", ""]
    rows, sentences = [], []
    for rules in GAMES:
        record = study.get(rules.name, {}).get("simulate")
        if record is None:
            rows.append([rules.name.capitalize(), "not yet measured", "", "", "", ""])
            continue
        rest = (interval_text(record["rest_point_difference"], record["rest_point_difference_ci95"])
                if rules.scoring == "rest_points" else "(no rest points, PEGS-2)")
        rows.append([rules.name.capitalize(), f"{record['games']:,}",
                     interval_text(record["race_win_rate"], record["race_win_rate_ci95"], 100) + "%",
                     f"{_half_text(record['race_win_rate_moving_first'], record['games'])} / "
                     f"{_half_text(record['race_win_rate_moving_second'], record['games'])}", rest,
                     f"{record['mean_turns']:.2f}"])
        sentences.append(simulation_sentence(rules.name, record))
    parts += [markdown_table(["game", "games", "race player finishes first", "moving first / second",
                              "rest points gained a round", "mean turns per player and game"], rows), ""]
    for sentence in sentences:
        parts += [sentence, ""]
    exact_records = {rules.name: study.get(rules.name, {}).get("exact") for rules in GAMES}
    if any(exact_records.values()):
        parts += ["### The approximation on reduced boards (exact evaluation)", "",
                  "The same approximation, on the exact solo values of reduced boards, evaluated exactly inside the "
                  "two-player race (no sampling), against exact race play; and how often its row equals the exact "
                  "winning row at a turn start (`agreement`, chance-weighted over every pair, or over a seeded sample "
                  "of pairs where noted), beside how often the solo-optimal row does.", ""]
        for rules in GAMES:
            record = exact_records[rules.name]
            if record is None:
                parts += [f"{rules.name.capitalize()}: not yet measured.", ""]
                continue
            parts += [approximation_sentence(rules.name, record), ""]
            agreement = [[rows_text(a["open_rows"]), f"{a['pairs']:,}" + (" (sample)" if a.get("trimmed") else ""),
                          f"{100 * a['agreement']:.2f}%", f"{100 * a['solo_agreement']:.2f}%",
                          value_text(rules, a["mean_loss"], signed=True)] for a in record.get("agreement", [])]
            if agreement:
                parts += [markdown_table(["open rows", "pairs", "approximation agrees", "solo row agrees",
                                          "race value the approximation gives up per choice"], agreement), "",
                          agreement_sentence(rules.name, record), ""]
            skipped = record.get("agreement_skipped")
            if skipped:
                parts += [f"Left out for time: agreement on rows "
                          f"{'; '.join(rows_text(r) for r in skipped['open_rows'])}.", ""]
    return parts


def render(report: PlayingToWinReport, context: ReportContext) -> str:
    """Markdown of the section (the deviation figure and the pictures saved through ``context``)."""
    from dicemath.core.svg import picture

    parts = ["Solo-optimal play minimises a player's own expected number of turns. Pegs is won by whoever "
             "first has every peg in (PEGS-2); a Fives round ends when one player completes every number and the "
             "others score their missing marks times the number (FIVES-6). Playing to win chooses rows for the "
             "race against the opponent on the table. Pegs values are the first mover's chance to win; Fives "
             "values the expected rest points of the opponent minus the mover's at the end of the round.", "",
             *summary_lines(report), "",
             "## Exact on reduced boards", "",
             "Two players race on the same reduced board (only the named rows open), solved exactly by "
             "`dicemath.games.pegs_fives.race_solver` (`dicemath pegs race --open ROWS`; float64 arithmetic; "
             "committed study data, recomputed by `python analyses/report_studies.py playing_to_win`). "
             "Columns: the first mover's value from the empty boards, the first named his policy (`race`: "
             "playing to win, `solo`: solo-optimal); the gains of each mover playing to win against a solo-optimal "
             "opponent; and the share of turn-start choices (two or more legal rows, chance-weighted, both "
             "playing to win) where the winning row differs from the solo-optimal one.", "",
             _exact_table(report.exact), ""]
    for race in report.exact:
        parts += [f"{race.rules.name.capitalize()}, rows {rows_text(race.open_rows)}: " + gain_sentence(race), ""]
    largest = [max((r for r in report.exact if r.game == rules.name), key=lambda r: len(r.open_rows))
               for rules in GAMES]
    for race in largest:
        parts += _examples_table(race) + [""]
    parts += ["## When it pays to deviate", "",
              "For every pair of boards on a reduced board (each pair once, not weighted by how often play reaches "
              "it): the mover's race value playing to win from there on minus his race value playing solo-optimally, "
              "both against a solo-optimal opponent (exact solutions, float64; committed study data, recomputed by "
              "`python analyses/report_studies.py playing_to_win`), against the gap between the "
              "players: the opponent's expected turns minus the mover's under solo-optimal play (positive: the "
              f"mover is ahead), in bins of {GAP_BIN} turns (bins with fewer than {MIN_PAIRS} pairs left out): the "
              "mean gain and its 90th percentile (top), and the share of pairs that gain at least 0.1 percentage "
              "points of win probability (Pegs) or 0.1 rest points (Fives) (bottom).", "",
              context.save_figure(deviation_figure(report.deviations), "playing_to_win_deviation.png",
                                  "the gain of playing to win against the gap between the players, exact on a "
                                  "reduced board"), ""]
    for d in report.deviations:
        parts += [deviation_sentence(d), ""]
    parts += _study_part(report.study)
    parts += ["## Positions", "",
              "Full-board decisions: the picture shows the mover's board after his choice throw with the solo advice "
              "(expected turns still needed after this turn beside each row, the solo-optimal row framed, as "
              "`dicemath pegs advise` gives it); the table adds the race values of "
              "`dicemath pegs advise ... --opponent BOARD` (the turn-count model's estimates unless marked exact).",
              ""]
    numbers: dict = {}
    for p in report.positions:
        rules = p.rules
        numbers[rules.name] = number = numbers.get(rules.name, 0) + 1
        state = initial_state(rules, p.board).apply(p.throw)
        name = f"playing_to_win_{rules.name}_{number}.svg"
        values = {o["row"]: o for o in p.race["options"]}
        table = [[o["row"], o["hits"], _race_value(rules, o["race_value"]), f"{o['expected_turns']:.3f}",
                  ("**race**" if o["row"] == p.race["race_best"] else "")
                  + (" **solo**" if o["row"] == p.solo_row else "")]
                 for o in sorted(values.values(), key=lambda o: -o["race_value"])]
        parts += [f"### {rules.name.capitalize()}: {p.label}", "",
                  f"Mover `{board_text(p.board)}` ({p.race['board_expected_turns']:.2f} expected turns), throw "
                  f"{throw_text(p.throw)}; opponent `{board_text(p.opponent)}` "
                  f"({p.race['opponent_expected_turns'][0]:.2f} expected turns).", "",
                  context.save_picture(picture(state, p.solo), name,
                                       f"{rules.name} board {board_text(p.board)} after the throw "
                                       f"{throw_text(p.throw)}, the solo-optimal row {p.solo_row} framed"),
                  "", markdown_table(["row", "hits", f"race value ({unit_of(rules)})",
                                      "expected turns after this turn (solo)", "best for"], table), "",
                  position_sentence(p), ""]
    return "\n".join(parts)
