"""The BohnDuell report section: the solved stocks and the proven 40-bean start, best play, and the advisor.

Heavy numbers (every stock solved from the start, the 1,000-game strength matches) come
from the data files written by ``analyses/bohnduell_solve_stocks.py`` and
``analyses/bohnduell_strength.py``; the section recomputes small things live (a principal
variation, the overfill statistics of a small game, a short strength match), smaller
still when ``context.quick``.

:func:`compute` gathers the numbers into a :class:`BohnReport`; :func:`render` writes the
Markdown and the figure; every sentence that states a conclusion (who is ahead, how good
the overfill advice is, how strong the advisor is) is read off the numbers by the
``*_conclusion`` functions.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources

from dicemath.games.bohnduell.players import SearchPlayer, greedy_player, match, random_player
from dicemath.games.bohnduell.rules import STANDARD, Rules
from dicemath.core.svg import picture
from dicemath.core.advice import Advice
from dicemath.core.game import Game
from dicemath.games.bohnduell.search import TABLE_STOCK, SearchAdvisor
from dicemath.games.bohnduell.solver_dense import solve_dense
from dicemath.games.bohnduell.state import State, initial_state
from dicemath.core.markdown import markdown_table
from dicemath.reporting.context import ReportContext
from dicemath.reporting.context import study_file

CAPTURES = ("last", "every")
CUPS = 4
"""All games of the section use 4 cups (BOHN-1)."""


def solved_stocks() -> dict:
    """The committed results of ``analyses/bohnduell_solve_stocks.py`` (empty if absent)."""
    path = study_file("bohnduell_solved_stocks.json")
    return json.loads(path.read_text()) if path.exists() else {"results": {}}


def proof_records() -> list[dict]:
    """The committed reproductions of proofs (``data/proof_records.json``'s ``proofs``, written by
    ``analyses/bohnduell_reproduce_proofs.py``: each run from an empty cache by
    ``dicemath bohnduell proof reproduce``, with its machine, times and peak memory)."""
    text = resources.files("dicemath.games.bohnduell").joinpath("data", "proof_records.json").read_text()
    return list(json.loads(text).get("proofs", []))


def search_quality() -> dict | None:
    """The committed results of ``analyses/bohnduell_search_quality.py`` (None if absent)."""
    path = study_file("bohnduell_search_quality.json")
    return json.loads(path.read_text()) if path.exists() else None


def advisor_strength() -> dict | None:
    """The committed results of ``analyses/bohnduell_strength.py`` (None if absent)."""
    path = study_file("bohnduell_advisor_strength.json")
    return json.loads(path.read_text()) if path.exists() else None


@dataclass(frozen=True)
class BohnReport:
    """The numbers of the BohnDuell section.

    Attributes:
        source, machine: how the solved stocks were produced (or "computed live").
        stocks: ``capture -> {stock: row}``, a row as in ``bohnduell_solved_stocks.json`` (value,
            first moves, counts, times, overfill statistics).
        line_stock, line_value, line, final_diagram: a perfectly played game.
        line_start, first_moves: its start and every first move's exact value, best first
            (the picture).
        overfill: ``(stock, statistics)`` rows, from the data or one live table.
        strength: the committed strength matches (None if absent).
        quality: the committed judgement of the depth-6 search by a strong table (None if absent).
        standard: the committed record of the 40-bean game's table (None if absent).
        proofs: the committed proofs of starts beyond the tables (``analyses/bohnduell_prove_stocks.py``).
        reproduced: the committed reproductions of the standard game's proof (:func:`proof_records`,
            40 beans), one per capture rule and table.
        live_games, live_matches: the quick live matches (``name -> MatchResult.as_dict()``).
    """

    source: str
    machine: str
    stocks: dict
    line_stock: int
    line_value: int
    line: tuple[str, ...]
    final_diagram: str
    line_start: State
    first_moves: Advice
    overfill: tuple
    strength: dict | None
    quality: dict | None
    standard: dict | None
    proofs: list
    reproduced: list
    live_games: int
    live_matches: dict


def _live_rows(capture: str, upto: int) -> list[dict]:
    table = solve_dense(Rules(cups=CUPS, stock=upto, capture=capture))
    rows = []
    for stock in range(1, upto + 1):
        start = initial_state(table.rules_for(stock))
        moves = {str(m): v for m, v in table.move_values(start).items()}
        value = table.position_value(start)
        rows.append({"stock": stock, "value": value, "first_moves": moves,
                     "optimal_first_moves": [m for m, v in moves.items() if v == value]})
    return rows


def compute(game: Game, context: ReportContext) -> BohnReport:
    """Read the committed results and compute the live parts of the section, the start's advice
    asked of ``game`` (BohnDuell's :class:`~dicemath.core.game.Game`, handed by its
    :meth:`~dicemath.core.game.Game.report_sections`)."""
    data = solved_stocks()
    results = {c: data["results"].get(c) or _live_rows(c, 6 if context.quick else 10) for c in CAPTURES}
    stocks = {c: {r["stock"]: r for r in rows} for c, rows in results.items()}
    for proof in data.get("proofs", []):
        if proof["proven"]:
            stocks[proof["capture"]].setdefault(proof["stock"], proof)
    reproduced = [r for r in proof_records() if (r["cups"], r["stock"]) == (CUPS, STANDARD.stock)]
    for r in reproduced:
        if r["value"] is not None:
            best = [m for m, (low, high) in r["first_move_bounds"].items() if low == high == r["value"]]
            stocks[r["capture"]].setdefault(r["stock"], {"stock": r["stock"], "value": r["value"],
                                                         "optimal_first_moves": best, "seconds": r["proof_seconds"],
                                                         "certificate_sha256": r["certificate_sha256"]})
    line_stock = 6 if context.quick else 10
    table = solve_dense(Rules(cups=CUPS, stock=line_stock))
    start = initial_state(table.rules_for(line_stock))
    line = table.principal_variation(start)
    overfill = tuple((s, stocks["last"][s]["overfill"]) for s in sorted(stocks["last"])
                     if stocks["last"][s].get("overfill", {}).get("positions"))
    if not overfill:
        overfill = ((line_stock, table.overfill_stats()),)
    games = 10 if context.quick else 100
    search = SearchAdvisor(STANDARD, depth=3 if context.quick else 4, table_stock=TABLE_STOCK)
    advisor = SearchPlayer(search)
    live = {name: match(STANDARD, advisor, baseline, games=games, seed=7).as_dict()
            for name, baseline in (("advisor vs random", random_player), ("advisor vs greedy", greedy_player))}
    return BohnReport(data.get("produced_by", "computed live"), data.get("machine", "this machine"), stocks,
                      line_stock, table.position_value(start), tuple(str(m) for m, _ in line),
                      (line[-1][1] if line else start).diagram(), start,
                      game.advise(start, depth=search.depth, table_stock=TABLE_STOCK), overfill,
                      advisor_strength(), search_quality(), data.get("standard_game"), data.get("proofs", []),
                      reproduced, games, live)


def first_player_conclusion(stocks: dict) -> str:
    """How the first player fares across the solved stocks, read off the values."""
    largest = {c: max(stocks[c]) if stocks[c] else 0 for c in CAPTURES}
    values = [stocks["last"][s]["value"] for s in sorted(stocks["last"])]
    ahead, level, behind = (sum(v > 0 for v in values), sum(v == 0 for v in values), sum(v < 0 for v in values))
    if ahead > behind:
        verdict = "moving first is an advantage more often than not in the games solved"
    elif ahead == 0 and behind == 0:
        verdict = "moving first makes no difference in the games solved"
    elif ahead == 0:
        verdict = "moving first is never an advantage in the games solved"
    else:
        verdict = "moving first is a disadvantage more often than an advantage in the games solved"
    return (f"Largest stock solved: {largest['last']} (capture last), {largest['every']} (capture every). "
            f"First-player advantage: with capture `last` the first player is ahead at {ahead} stock "
            f"sizes, level at {level}, behind at {behind} of the {len(values)} stock sizes solved: {verdict}.")


def overfill_conclusion(overfill: tuple) -> str:
    """What the counts say about the advice "never overfill a cup"."""
    worse = [o["overfill_worse"] / o["positions"] for _, o in overfill]
    better = [o["overfill_better"] / o["positions"] for _, o in overfill]
    losses = [o["mean_loss_when_worse"] for _, o in overfill if o["overfill_worse"]]
    sound = "sound" if min(worse) > 0.5 else "unreliable"
    absolute = "never" if max(better) == 0 else f"in up to {max(better):.1%}"
    loss = f", by {min(losses):.2f} to {max(losses):.2f} beans on average" if losses else ""
    return (f"The advice is {sound}: in {min(worse):.1%} to {max(worse):.1%} of these positions the "
            f"best clean move beats every overfilling one{loss}; overfilling is strictly best "
            f"{absolute} of them.")


def strength_conclusion(strength: dict) -> str | None:
    """What the match against perfect play says, when the committed results have one."""
    results = strength["results"]
    exact = next((r for r in results.values() if "game_value_for_first_player" in r), None)
    if exact is None:
        return None
    baselines = [r for name, r in results.items() if name.startswith("advisor vs") and r is not exact]
    strong = all(r["score_ci95"][0] > 0.5 for r in baselines)
    perfect = exact["margin_ci95"][0] <= 0 <= exact["margin_ci95"][1]
    verdict = ("strong against the baselines" if strong else "not clearly better than the baselines")
    verdict += ", and not measurably worse than perfect play" if perfect else ", not perfect"
    return (f"The last row measures the distance to perfect play: in a game small enough to solve "
            f"(value {exact['game_value_for_first_player']:+d} for the first player) perfect play against "
            "perfect play averages a margin of 0 over both seats, so the advisor, limited to smaller "
            f"tables there, gives away {-exact['margin']:.2f} beans per game on average against a "
            f"perfect opponent: {verdict}.")


def growth_conclusion(rows: list[dict], standard: dict | None) -> str:
    """How the strong tables grow with the stock, and what that says of the 40-bean game, read
    off the rows (``stock``, ``table_positions``, a measured ``solve_seconds`` or an estimate)."""
    rows = sorted(rows, key=lambda r: r["stock"])
    last, before = rows[-1], rows[-2]
    factor = last["table_positions"] / before["table_positions"]
    built = max((r for r in rows if "solve_seconds" in r), key=lambda r: r["stock"])
    text = (f"From {before['stock']} to {last['stock']} beans the table grows {factor:.2f}x; the largest table "
            f"built, {built['stock']} beans a side, holds {built['table_positions']:,} positions "
            f"({built['table_positions'] / 1e9:.1f} GB at one byte each) and took {built['solve_seconds'] / 60:.1f} "
            "minutes.")
    if standard is not None:
        text += (f" The standard game's table (40 beans a side) would hold {standard['table_positions']:,} "
                 f"positions ({standard['table_positions'] / 1e9:.0f} GB), about "
                 f"{standard['build_hours_estimated']:.0f} hours at that rate (an estimate); it is not built here")
        text += (f": its start is proven by search instead (value {standard['value']:+d}, below)."
                 if standard.get("proven") else ", so the 40-bean start is answered by the search, an estimate.")
    return text


def proof_conclusion(proofs: list[dict]) -> str:
    """What the proofs beyond the tables say, read off their rows."""
    proven = sorted((r for r in proofs if r["proven"]), key=lambda r: r["stock"])
    if not proven:
        widest = max(proofs, key=lambda r: r["stock"])
        return (f"No start beyond the tables is proven yet; for {widest['stock']} beans the search proved "
                f"{widest['lower']:+d} <= value <= {widest['upper']:+d}.")
    values = sorted({r["value"] for r in proven})
    same = (f"every one is worth {values[0]:+d} for the first player" if len(values) == 1
            else f"their values range over {', '.join(f'{v:+d}' for v in values)}")
    best = sorted({m for r in proven for m in r["optimal_first_moves"]})
    nodes = max(r["nodes"] for r in proven)
    return (f"Proven by search over the exact table of {proven[0]['table_stock']} beans: the starts of "
            f"{', '.join(str(r['stock']) for r in proven)} beans a side; {same}, and the best first move is "
            f"{' or '.join(best)}. The largest proof searched {nodes:,} positions; each certificate was replayed by "
            "the independent checker.")


def reproduced_conclusion(records: list[dict]) -> str:
    """What the reproductions of the standard game's proof say, read off their rows: each capture
    rule's value and best first moves (and the tables that proved it), and the runs' times."""
    by_rule: dict[str, list[dict]] = {}
    for r in sorted(records, key=_record_order):
        by_rule.setdefault(r["capture"], []).append(r)
    values = []
    for capture, rows in by_rule.items():
        tables = " and ".join(str(r["table_stock"]) for r in rows)
        found = sorted({r["value"] for r in rows if r["value"] is not None})
        if not found:
            values.append(f"between {rows[0]['lower']:+d} and {rows[0]['upper']:+d} with capture `{capture}` "
                          "(not proven)")
        elif len(found) > 1:
            values.append(f"{' or '.join(f'{v:+d}' for v in found)} with capture `{capture}` (the proofs over the "
                          f"tables of {tables} beans DISAGREE)")
        else:
            best = sorted({m for r in rows if r["value"] is not None
                           for m, (low, high) in r["first_move_bounds"].items() if low == high == found[0]})
            values.append(f"{found[0]:+d} with capture `{capture}` (best first move {' or '.join(best)}; proven over "
                          f"the table{'s' if len(rows) > 1 else ''} of {tables} beans)")
    times = sorted(_all_told(r) / 60 for r in records)
    spread = f"{times[0]:.1f}" if len(times) == 1 else f"{times[0]:.1f} to {times[-1]:.1f}"
    largest = max(r["table_bytes"] for r in records)
    return (f"The standard game is worth {' and '.join(values)} for the first player. From an empty cache the runs "
            f"took {spread} minutes all told (table, proof and check) on {records[0]['machine']}, over tables of at "
            f"most {largest / 1e9:.1f} GB on disk.")


def _record_order(r: dict) -> tuple:
    """The published rule first (BOHN-4), then the variant; smaller tables first."""
    return r["capture"] != "last", r["capture"], r["table_stock"]


def _all_told(r: dict) -> float:
    """The seconds of a reproduction's three steps together."""
    return float(r["table_seconds"] + r["proof_seconds"] + r["check_seconds"])


def _reproduced_row(r: dict) -> list:
    value = f"{r['value']:+d}" if r["value"] is not None else f"{r['lower']:+d}..{r['upper']:+d}"
    moves = " ".join(f"{m} {a:+d}" if a == b else f"{m} {a:+d}..{b:+d}" for m, (a, b) in r["first_move_bounds"].items())
    peak = max(r["table_peak_megabytes"], r["proof_peak_megabytes"], r["check_peak_megabytes"])
    return [r["capture"], value, moves, f"{r['table_stock']} ({r['table_bytes'] / 1e9:.1f} GB)",
            f"{r['table_seconds']:.0f}", f"{r['proof_seconds']:.0f}", f"{r['check_seconds']:.0f}",
            f"{_all_told(r) / 60:.1f}", f"{peak:,.0f}", f"{r['nodes']:,}", f"{r['certificate_rows']:,}",
            r["certificate_sha256"][:12]]


def search_quality_conclusion(quality: dict) -> str:
    """What the judgement of the search by exact play says, read off its rows."""
    rows = sorted(quality["results"], key=lambda r: r["stock"])
    shares = [r["best_share"] for r in rows]
    losses = [r["mean_loss_per_decision"] for r in rows]
    games = [r["mean_loss_per_game"] for r in rows]
    trend = ("falls" if shares[-1] < shares[0] else "does not fall") + " as the stock grows"
    return (f"The depth-{quality['depth']} search chose a best move in {min(shares):.0%} to {max(shares):.0%} of its "
            f"decisions ({rows[0]['stock']} to {rows[-1]['stock']} beans; the share {trend}), giving away "
            f"{min(losses):.2f} to {max(losses):.2f} beans per decision, {min(games):.1f} to {max(games):.1f} "
            "per game for both players together.")


def _growth_figure(rows: list[dict]):
    import matplotlib.pyplot as plt

    rows = sorted(rows, key=lambda r: r["stock"])
    figure, (size, time) = plt.subplots(1, 2, figsize=(9, 3.5))
    size.semilogy([r["stock"] for r in rows], [r["table_positions"] for r in rows], marker="o")
    size.set(xlabel="beans per player (stock)", ylabel="positions (bytes)", title="strong table size")
    measured = [r for r in rows if r.get("solve_seconds")]
    estimated = [r for r in rows if "solve_seconds_estimated" in r]
    time.semilogy([r["stock"] for r in measured], [r["solve_seconds"] for r in measured], marker="o",
                  label="measured")
    if estimated:
        time.semilogy([r["stock"] for r in estimated], [r["solve_seconds_estimated"] for r in estimated],
                      marker="o", fillstyle="none", linestyle="none", label="estimated (read off a larger table)")
    time.set(xlabel="beans per player (stock)", ylabel="seconds", title="solve time")
    time.legend(loc="upper left")
    figure.tight_layout()
    return figure


def _proof_row(r: dict) -> list:
    value = f"{r['value']:+d}" if r["proven"] else f"{r['lower']:+d}..{r['upper']:+d}"
    moves = " ".join(f"{m} {a:+d}" if a == b else f"{m} {a:+d}..{b:+d}" for m, (a, b) in r["first_move_bounds"].items())
    return [r["stock"], value, moves, f"{r['nodes']:,}", f"{r['seconds']:.1f}", f"{r['check_seconds']:.1f}",
            f"{r['certificate_rows']:,}", r["certificate_sha256"][:12]]


def _value_figure(stocks: dict):
    import matplotlib.pyplot as plt

    figure, axis = plt.subplots(figsize=(7, 3.5))
    for capture, marker in zip(CAPTURES, ("o", "s")):
        xs = sorted(stocks[capture])
        axis.plot(xs, [stocks[capture][s]["value"] for s in xs], marker=marker, label=f"capture={capture}")
    axis.axhline(0, color="grey", lw=0.8)
    axis.set(xlabel="beans per player (stock)", ylabel="value for A (first player)",
             title=f"BohnDuell, {CUPS} cups: value under perfect play")
    axis.legend()
    return figure


def _match_rows(matches: dict) -> list[list]:
    return [[name, r["games"], f"{r['wins']}/{r['draws']}/{r['losses']}",
             f"{r['score']:.3f} [{r['score_ci95'][0]:.3f}, {r['score_ci95'][1]:.3f}]",
             f"{r['margin']:+.2f} [{r['margin_ci95'][0]:+.2f}, {r['margin_ci95'][1]:+.2f}]"]
            for name, r in matches.items()]


def render(report: BohnReport, context: ReportContext) -> str:
    """Markdown of the BohnDuell section (the value figure saved through ``context``)."""
    stocks = report.stocks
    reachable = [s for c in CAPTURES for s, r in stocks[c].items() if "reachable_positions" in r]
    counted = (f"Reachable positions were counted up to {max(reachable)} beans."
               if reachable else "Reachable positions were not counted.")
    parts = [
        "BohnDuell (docs/rules.md section 5) is a game of perfect information without dice, so it can "
        "be solved exactly: every position of up to 30 beans a side by strong tables, larger starts (the "
        "standard 40 beans included) by a search whose certificate is checked. **Value** = final pot "
        "difference A - B when both play perfectly, where **A moves first** (BOHN-7); positive "
        "favours the first player. Moves: `S<k>` sows k beans from the stock (BOHN-3), `H<d>` "
        "harvests the cup at distance d (BOHN-5). Capture `last` is the published rule (BOHN-4), "
        f"`every` the literal reading of the seed. All games below use {CUPS} cups.",
        "",
        "## Value by stock size",
        "",
        f"Source: `{report.source}` ({report.machine}); the dense solver ranks every pair of sides "
        "a player starting with `stock` beans can have into one `int8` table (1 byte per "
        "position) and solves it in order of the bean-distance potential, without recursion. "
        "`solve s` is wall-clock time on a shared 2-core machine, `cpu s` the process time; "
        "`peak MB` is the solving process's peak resident memory, the interpreter and its "
        "libraries included. Stocks beyond memory are solved by a strong table on disk "
        "(`dicemath bohnduell table build`, two threads): a table of S beans holds every smaller "
        "game, so the stocks below the largest built are read off it and their time is an "
        "estimate (est.: their positions at the build's rate); the built table's peak MB counts "
        "the pages of the table file mapped in memory. Starts beyond 30 beans are proven by search "
        "(below): their time is the search's, their peak MB the search's with the table's mapped pages. "
        f"{counted}",
        "",
    ]
    rows = []
    for stock in sorted(set(stocks["last"]) | set(stocks["every"])):
        row = [stock]
        for capture in CAPTURES:
            r = stocks[capture].get(stock)
            row += [f"{r['value']:+d}", " ".join(r["optimal_first_moves"])] if r else ["", ""]
        r = stocks["last"].get(stock) or stocks["every"].get(stock)
        row += [f"{r['reachable_positions']:,}" if "reachable_positions" in r else "",
                f"{r['table_positions']:,}" if "table_positions" in r else "",
                (f"{r['solve_seconds']:.1f}" if "solve_seconds" in r else
                 f"≈{r['solve_seconds_estimated']:.0f} (est.)" if "solve_seconds_estimated" in r else
                 f"{r['seconds']:.1f} (proof)" if "certificate_sha256" in r else ""),
                f"{r['solve_cpu_seconds']:.1f}" if "solve_cpu_seconds" in r else "",
                f"{r['peak_rss_megabytes']:.0f}" if "peak_rss_megabytes" in r else ""]
        rows.append(row)
    parts += [markdown_table(
        ["stock", "value (last)", "best first (last)", "value (every)", "best first (every)",
         "reachable (last)", "table positions", "solve s (last)", "cpu s (last)", "peak MB (last)"], rows),
        "", first_player_conclusion(stocks), "",
        context.save_figure(_value_figure(stocks), "bohnduell_values.png", "value by stock size"), ""]

    grown = [r for r in stocks["last"].values() if "table_positions" in r]
    if len(grown) > 1 and any("solve_seconds" in r for r in grown):
        parts += ["## How the tables grow", "",
                  "Positions of the dense table (reachable sides of each player, all pairs) and the time "
                  "to solve it, by stock, capture `last`:", "",
                  context.save_figure(_growth_figure(grown), "bohnduell_growth.png", "table size and solve time"),
                  "", growth_conclusion(grown, report.standard), ""]

    if report.proofs:
        parts += ["## Beyond the tables: starts proven by search", "",
                  "MTD(f) over proven bounds (`dicemath bohnduell proof search`), the strong table's exact values "
                  "where both sides hold few enough beans; each proof ends in a certificate that "
                  "`dicemath bohnduell proof check` replays with the rules and the table, sharing no code with the "
                  "search. A first move's interval is what was proven of it (one number: exact). Certificates are "
                  "rebuilt by their search command, not committed; their SHA-256 identifies them.", "",
                  markdown_table(["stock", "value", "first moves", "positions searched", "search s", "check s",
                                  "certificate rows", "SHA-256 (first 12)"],
                                 [_proof_row(r) for r in sorted(report.proofs, key=lambda r: r["stock"])]),
                  "", proof_conclusion(report.proofs), ""]

    if report.reproduced:
        parts += ["## The standard game, rebuilt in one command", "",
                  "`dicemath bohnduell proof reproduce --stock 40 --table-stock T [--capture every]` builds the strong "
                  "table of T beans a side, proves the start and every first move over it, writes the certificate, "
                  "checks it with the independent checker and compares the value, the first moves and the "
                  "certificate's SHA-256 with this record. Each run below started from an empty cache "
                  "(`analyses/bohnduell_reproduce_proofs.py`); times are wall seconds, `all told` the three steps "
                  "together in minutes, `peak MB` the process's peak resident memory (the table's mapped pages "
                  "included).", "",
                  markdown_table(["capture", "value", "first moves", "table (beans)", "table s", "proof s", "check s",
                                  "all told (min)", "peak MB", "positions searched", "certificate rows",
                                  "SHA-256 (first 12)"],
                                 [_reproduced_row(r) for r in sorted(report.reproduced,
                                                                     key=_record_order)]),
                  "", reproduced_conclusion(report.reproduced), ""]

    first_move = report.first_moves.best
    if first_move is None:
        raise ValueError("the start position has no first move to frame")
    moves = [f"{i // 2 + 1}{'.' if i % 2 == 0 else '...'} {m}" for i, m in enumerate(report.line)]
    parts += ["## A perfectly played game", "",
              f"Stock {report.line_stock}, capture `last` (value {report.line_value:+d}); ties between "
              "equally good moves are broken towards harvests and small sowings.", "",
              "`" + " ".join(moves) + "`", "",
              "The start, with every first move's exact value (final pot difference for A after the move and "
              "perfect play); the best move framed:", "",
              context.save_picture(picture(report.line_start, report.first_moves), "bohnduell_start.svg",
                                   f"the start of the {report.line_stock}-bean game, A's best first move "
                                   f"{first_move.action} framed"), "",
              "Final position:", "", "```", report.final_diagram, "```", ""]

    parts += ["## \"Never overfill a cup\"", "",
              "The seed warns never to put more beans in a cup than its distance to the pot "
              "(such a cup can only be emptied by the opponent's capture, BOHN-5). Counted over "
              "every position reachable from the start where the mover can choose between a "
              "move that puts a bean into a cup already holding its distance and a move that "
              "does not:", "",
              markdown_table(["stock", "positions with the choice", "overfill strictly best", "as good",
                              "overfill worse", "mean loss when worse (beans)"],
                             [[s, f"{o['positions']:,}", f"{o['overfill_better'] / o['positions']:.1%}",
                               f"{o['tie'] / o['positions']:.1%}", f"{o['overfill_worse'] / o['positions']:.1%}",
                               f"{o['mean_loss_when_worse']:.2f}"] for s, o in report.overfill]),
              "", overfill_conclusion(report.overfill), ""]

    parts += ["## Advisor for the 40-bean game", "",
              "Alpha-beta search (negamax with a transposition table) over the same values, "
              "exact 12-bean tables when both sides hold at most 12 beans, and at the horizon a "
              "linear evaluation least-squares fitted to those exact values. Score = (wins + "
              "draws/2)/games, seats alternating; 95% Wilson interval; margin = mean final pot "
              "difference with a normal 95% interval.", ""]
    headers = ["match", "games", "W/D/L", "score [95% CI]", "margin [95% CI]"]
    if report.strength:
        parts += [f"Full run: `{report.strength['produced_by']}`", "",
                  markdown_table(headers, _match_rows(report.strength["results"])), ""]
        sentence = strength_conclusion(report.strength)
        if sentence:
            parts += [sentence, ""]
    if report.quality:
        parts += ["### The search against exact play", "",
                  "Both players move by the search (depth "
                  f"{report.quality['depth']}, exact {report.quality['table_stock']}-bean tables) after "
                  f"{report.quality['random_plies']} random moves; every decision with a choice is judged by "
                  f"the exact values of a strong table. Run: `{report.quality['produced_by']}`.", "",
                  markdown_table(["stock", "games", "decisions", "best move chosen", "beans lost per decision",
                                  "beans lost per game", "worst game"],
                                 [[r["stock"], r["games"], f"{r['decisions']:,}", f"{r['best_share']:.1%}",
                                   f"{r['mean_loss_per_decision']:.3f}", f"{r['mean_loss_per_game']:.2f}",
                                   r["worst_game_loss"]] for r in sorted(report.quality["results"],
                                                                          key=lambda r: r["stock"])]),
                  "", search_quality_conclusion(report.quality), ""]
    parts += [f"Quick live check ({report.live_games} games each):", "",
              markdown_table(headers, _match_rows(report.live_matches))]
    return "\n".join(parts)
