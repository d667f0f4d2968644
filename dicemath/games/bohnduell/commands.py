"""``dicemath bohnduell``: solve small games exactly, advise moves in any position.

Commands:

- ``solve --cups 4 --stock 10 [--capture every] [--json]``: the value of the game from
  the start (``value``: final pot difference A - B under best play, A moving first,
  BOHN-7), ``first_moves`` (each legal first move of A with its value for A) and ``source``
  (the table that answered, or the shipped solved start of a game too big for memory).
- ``advise STATE [--depth 6] [--table-stock 12] [--proof-seconds 20] [--proof-table-stock 26]
  [--json]``: every legal move with its value (final pot difference from the mover's view; the
  JSON envelope of :class:`~dicemath.core.advice.Advice`) asked of the game object the command
  was registered with (:meth:`~dicemath.core.game.Game.advise`, its chain of sources
  :func:`~dicemath.games.bohnduell.search.source_chain`): the exact tables, an exact solve of
  small positions, a proof by search within ``--proof-seconds`` over the table of
  ``--proof-table-stock`` beans (built once, on first use), else alpha-beta ``--depth`` plies
  deep (at most ``MAX_DEPTH``; each option's ``method`` says whether its value is exact). A
  finished game is refused (exit 2).
  ``STATE`` is the text form of
  :class:`~dicemath.games.bohnduell.state.State`, e.g.
  ``38:0,0,1,1:0/40:0,0,0,0:0/B``, or ``start`` (with ``--stock``, ``--cups``, ``--capture``).
- ``show <position>``: the board diagram and the legal moves (``--svg FILE``: the picture),
  as every game's ``show`` (:func:`~dicemath.core.commands.show_state`).
- ``table build --stock 30 [--folder DIR] [--workers 2] [--scheduler ADDRESS] [--json]``:
  build (or resume) the strong table of every position with at most ``--stock`` beans a side
  on disk (:func:`~dicemath.games.bohnduell.strong_table.build_strong`; it says the size and
  an estimated time before it starts); ``table list [--json]``: the strong tables in the
  cache, which ``advise`` then answers from exactly.
- ``proof search --stock 32 --table-stock 30 [--nodes N] [--seconds S] [--all-first-moves]
  [--out FILE] [--json]``: prove the value of a start by search over an endgame table
  (:func:`~dicemath.games.bohnduell.proof.prove`), writing its certificate; ``proof check
  FILE [--engine compiled|python] [--json]``: replay a certificate with the rules and the table it names
  (:func:`~dicemath.games.bohnduell.proof_check.check`). The endgame table of ``T`` beans is
  the strong table of that stock in the cache, else solved in memory.
- ``proof reproduce --stock 40 --table-stock 24 [--capture every] [--folder DIR] [--table-folder DIR]
  [--memory-mib M] [--record FILE] [--json]``: the committed record of a proven start in one command
  (:func:`~dicemath.games.bohnduell.proof_record.reproduce`): rebuild the strong table the proof
  needs (or reuse it), the proof with every first move and its certificate (written to
  ``--folder``, default the current folder), and its check; print the machine, each step's
  time and the peak memory, and compare the value, the first moves and the certificate's
  SHA-256 with the committed record (exit 1 when they differ).
"""

from __future__ import annotations

import argparse
import time

from dicemath.core.commands import (
    add_json_flag, add_game_command, add_show_command, add_svg_option, emit, show_state, text_table, write_svg)
from dicemath.games.bohnduell.rules import Rules
from dicemath.core.errors import InvalidStateError
from dicemath.games.bohnduell.limits import (DEPTH, MAX_DEPTH, MAX_PROOF_SECONDS, MAX_TABLE_STOCK, PROOF_SECONDS,
                                             PROOF_TABLE_STOCK, REPRODUCE_MEMORY, TABLE_STOCK, check_settings)
from dicemath.games.bohnduell.state import PLAYER_NAMES, State, initial_state, parse_position


MAX_STOCK = MAX_TABLE_STOCK
"""The most beans a player may start with in any ``bohnduell`` command (``--stock``, and a
position's stock, half the beans it holds): the exact tables' bound
(:data:`~.limits.MAX_TABLE_STOCK`), refused up front beyond it."""

MOVE_NOTATION = ("moves: Sk sows k beans from the stock (BOHN-3), Hd harvests the cup at distance d from "
                 "the mover's pot (BOHN-5), P passes (BOHN-6)")
"""The line under ``advise``'s text answer that reads its moves (``dicemath bohnduell rules`` says more)."""


def register(subparsers, game) -> None:
    """Add ``dicemath bohnduell rules|solve|advise|show``.

    Args:
        subparsers: the ``dicemath`` parser's sub-parsers.
        game: the BohnDuell :class:`~dicemath.core.game.Game` (its ``rules_headings`` give
            ``rules``), passed by its :meth:`~dicemath.core.game.Game.register_commands`.
    """
    parser, commands = add_game_command(subparsers, game, "BohnDuell: exact values and move advice")

    solve = commands.add_parser("solve", help="value of a small game from the start, exactly")
    _variant_flags(solve, stock_default=10)
    solve.add_argument("--reachable", action="store_true",
                       help="also count the positions reachable from the start")
    add_json_flag(solve)
    solve.set_defaults(func=run_solve)

    advise = commands.add_parser("advise", help="value of every legal move in a position")
    advise.add_argument("state", metavar="STATE", help="the position's text form, e.g. 38:0,0,1,1:0/40:0,0,0,0:0/B, "
                                                        "or 'start' (with --cups, --stock, --capture)")
    _variant_flags(advise, stock_default=40)
    advise.add_argument("--depth", type=_depth, default=DEPTH,
                        help=f"alpha-beta depth in plies, 1..{MAX_DEPTH} (default {DEPTH})")
    advise.add_argument("--table-stock", type=_table_stock, default=TABLE_STOCK,
                        help=f"exact table for sides of at most this many beans, 0 for none (default {TABLE_STOCK})")
    advise.add_argument("--proof-seconds", type=_proof_seconds, default=PROOF_SECONDS,
                        help=f"prove the position exactly by search within this many seconds, 0..{MAX_PROOF_SECONDS}, "
                             f"0 for no proof (default {PROOF_SECONDS})")
    advise.add_argument("--proof-table-stock", type=_proof_table_stock, default=PROOF_TABLE_STOCK,
                        help=f"the proof's table: sides of at most this many beans, built once on first use "
                             f"(default {PROOF_TABLE_STOCK})")
    add_svg_option(advise)
    add_json_flag(advise)
    advise.set_defaults(func=run_advise, game=game)

    table = commands.add_parser("table", help="strong tables on disk: build one, list them")
    tables = table.add_subparsers(dest="bohnduell_table_command", metavar="ACTION", required=True)
    build = tables.add_parser("build", help="build (or resume) the strong table of every position with at most "
                                            "--stock beans a side, on disk")
    _variant_flags(build, stock_default=20)
    build.add_argument("--folder", help="the table's folder (default: in the cache, listed by 'table list')")
    build.add_argument("--workers", type=_workers, default=None, help="threads (default: every core)")
    build.add_argument("--scheduler", help="a dask.distributed scheduler address whose workers share the folder")
    add_json_flag(build)
    build.set_defaults(func=run_table_build)
    listing = tables.add_parser("list", help="the strong tables in the cache")
    add_json_flag(listing)
    listing.set_defaults(func=run_table_list)

    proof = commands.add_parser("proof", help="prove a start's value by search, with a certificate; check one")
    proofs = proof.add_subparsers(dest="bohnduell_proof_command", metavar="ACTION", required=True)
    search = proofs.add_parser("search", help="prove the value of the start of a game by search over an endgame table")
    _variant_flags(search, stock_default=20)
    search.add_argument("--table-stock", type=_table_stock, default=TABLE_STOCK,
                        help=f"endgame table of at most this many beans a side, 0 for none (default {TABLE_STOCK})")
    search.add_argument("--nodes", type=_positive, default=None, help="the most positions to expand (default: none)")
    search.add_argument("--seconds", type=_positive, default=None, help="the most seconds to search (default: none)")
    search.add_argument("--all-first-moves", action="store_true", help="prove every first move's value too")
    search.add_argument("--out", help="write the certificate to this file")
    add_json_flag(search)
    search.set_defaults(func=run_proof_search)
    again = proofs.add_parser("reproduce", help="rebuild a committed proof (table, certificate, check) and compare "
                                                "it with the committed record")
    _variant_flags(again, stock_default=40)
    again.add_argument("--table-stock", type=_table_stock, required=True,
                       help="the strong table the proof searches over, beans a side, as the record: 24 for the "
                            "standard game (a table of 4.1 GB built first), 14 for the 20-bean game")
    again.add_argument("--folder", default=".", help="where the certificate goes (default: the current folder)")
    again.add_argument("--table-folder", help="the strong table's folder (default: in the cache)")
    again.add_argument("--workers", type=_workers, default=None, help="threads of the table's build (default: every "
                                                                      "core)")
    again.add_argument("--memory-mib", type=_positive, default=REPRODUCE_MEMORY >> 20,
                       help=f"the most MiB of the proof's transposition table (default {REPRODUCE_MEMORY >> 20})")
    again.add_argument("--record", help="compare with this record instead of the committed one ({\"proofs\": [...]})")
    add_json_flag(again)
    again.set_defaults(func=run_proof_reproduce)
    check = proofs.add_parser("check", help="replay a certificate with the rules and its endgame table")
    check.add_argument("certificate", metavar="FILE", help="a certificate written by 'proof search --out'")
    check.add_argument("--engine", choices=("compiled", "python"), default="compiled",
                       help="verify the rows in C (default) or replay them in Python; both accept the same files")
    add_json_flag(check)
    check.set_defaults(func=run_proof_check)

    show = add_show_command(commands, "a position's text form, e.g. 38:0,0,1,1:0/40:0,0,0,0:0/B, or 'start' "
                                      "(with --cups, --stock, --capture)")
    _variant_flags(show, stock_default=40)
    show.set_defaults(func=run_show)


def _depth(text: str) -> int:
    """``--depth``: a whole number ``1..MAX_DEPTH`` (refused by argparse, exit 2)."""
    try:
        return check_settings(depth=int(text))[0]
    except (ValueError, InvalidStateError) as error:
        raise argparse.ArgumentTypeError(str(error) if isinstance(error, InvalidStateError)
                                         else f"not a whole number: {text!r}") from None


def _table_stock(text: str) -> int:
    """``--table-stock``: a whole number ``0..MAX_TABLE_STOCK``."""
    try:
        return check_settings(table_stock=int(text))[1]
    except (ValueError, InvalidStateError) as error:
        raise argparse.ArgumentTypeError(str(error) if isinstance(error, InvalidStateError)
                                         else f"not a whole number: {text!r}") from None


def _proof_seconds(text: str) -> int:
    """``--proof-seconds``: a whole number ``0..MAX_PROOF_SECONDS``."""
    try:
        return check_settings(proof_seconds=int(text))[2]
    except (ValueError, InvalidStateError) as error:
        raise argparse.ArgumentTypeError(str(error) if isinstance(error, InvalidStateError)
                                         else f"not a whole number: {text!r}") from None


def _proof_table_stock(text: str) -> int:
    """``--proof-table-stock``: a whole number ``0..MAX_TABLE_STOCK``."""
    try:
        return check_settings(proof_table_stock=int(text))[3]
    except (ValueError, InvalidStateError) as error:
        raise argparse.ArgumentTypeError(str(error) if isinstance(error, InvalidStateError)
                                         else f"not a whole number: {text!r}") from None


def _workers(text: str) -> int:
    """``--workers``: a whole number 1..256."""
    try:
        workers = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 1 <= workers <= 256:
        raise argparse.ArgumentTypeError(f"workers must be 1..256, got {workers}")
    return workers


def _positive(text: str) -> int:
    """``--nodes``, ``--seconds``: a whole number >= 1."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {number}")
    return number


def _stock(text: str) -> int:
    """``--stock``: a whole number ``0..MAX_STOCK``."""
    try:
        stock = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 0 <= stock <= MAX_STOCK:
        raise argparse.ArgumentTypeError(f"beans per player must be 0..{MAX_STOCK} (MAX_STOCK), got {stock}")
    return stock


def read_position(text: str, cups: int = 4, stock: int = 40, capture: str = "last") -> State:
    """:func:`~.state.parse_position` within :data:`MAX_STOCK` beans a player.

    Raises:
        InvalidStateError: text that is no position, or a position of more beans.

    Example:
        >>> read_position("70:0,0,0,0:0/70:0,0,0,0:0/A")
        Traceback (most recent call last):
        ...
        dicemath.core.errors.InvalidStateError: a position with 70 beans a player: at most 63 (MAX_STOCK)
    """
    position = parse_position(text, cups, stock, capture)
    if position.rules.stock > MAX_STOCK:
        raise InvalidStateError(f"a position with {position.rules.stock} beans a player: at most {MAX_STOCK} "
                                "(MAX_STOCK)")
    return position


def _variant_flags(parser, stock_default: int) -> None:
    parser.add_argument("--cups", type=int, default=4, help="cups per row, 3..10 (default 4)")
    parser.add_argument("--stock", type=_stock, default=stock_default,
                        help=f"beans per player, 0..{MAX_STOCK} (default {stock_default})")
    parser.add_argument("--capture", choices=["last", "every"], default="last",
                        help="BOHN-4 capture rule (default last)")


def solve_result(cups: int = 4, stock: int = 10, capture: str = "last", reachable: bool = False) -> dict:
    """The JSON object of ``solve``: value and first moves for player A (BOHN-7), from the
    smallest strong table built on this machine that holds the game, else solved in memory,
    else (a table too big for memory) the shipped solved start, which has no principal
    variation (``source`` says which answered).

    Raises:
        InvalidStateError: a game too big for memory that is neither covered by a strong
            table nor a shipped solved start; ``reachable`` without a table.

    Example:
        >>> r = solve_result(stock=6)
        >>> r["value"], r["first_moves"], r["source"]
        (-1, {'S1': -1, 'S2': -2, 'S3': -5, 'S4': -8}, 'table')
    """
    from dicemath.games.bohnduell.search import solved_start
    from dicemath.games.bohnduell.solver_dense import load_dense
    from dicemath.games.bohnduell.strong_table import covering_table

    tic = time.perf_counter()
    rules = Rules(cups=cups, stock=stock, capture=capture)
    table, source = covering_table(rules, stock), "strong table"
    if table is None:
        try:
            table, source = load_dense(rules), "table"
        except InvalidStateError:
            shipped = solved_start(rules)
            if shipped is None or reachable:
                raise
            return _solve_json(rules, shipped["value"], shipped["first_moves"], [], None, None,
                               f"solved start ({shipped['solved_by']})", tic)
    start = initial_state(table.rules_for(stock))
    moves = {str(m): v for m, v in table.move_values(start).items()}
    line = table.principal_variation(start)
    result = _solve_json(rules, table.position_value(start), moves, [str(m) for m, _ in line],
                         list(line[-1][1].pots) if line else [0, 0], table.positions, source, tic)
    if reachable:
        result["reachable_positions"] = table.reachable_count()
    return result


def _solve_json(rules: Rules, value: int, first_moves: dict[str, int], line: list[str], final_pots: list | None,
                positions: int | None, source: str, tic: float) -> dict:
    return {"cups": rules.cups, "stock": rules.stock, "capture": rules.capture, "value": value,
            "value_view": "final pot difference A - B under best play; A moves first (BOHN-7)",
            "first_moves": first_moves, "optimal_first_moves": [m for m, v in first_moves.items() if v == value],
            "principal_variation": line, "final_pots": final_pots, "positions": positions, "source": source,
            "seconds": round(time.perf_counter() - tic, 3)}


def _render_solve(r: dict) -> str:
    rows = [[m, v, "best" if m in r["optimal_first_moves"] else ""] for m, v in r["first_moves"].items()]
    where = f"{r['positions']} positions in the {r['source']}" if r["positions"] is not None else r["source"]
    line = (f"\nPrincipal variation: {' '.join(r['principal_variation'])}  -> pots {r['final_pots']}"
            if r["final_pots"] is not None else "")
    return (f"BohnDuell, {r['cups']} cups, {r['stock']} beans each, capture={r['capture']}\n"
            f"Value for A (moves first): {r['value']:+d}  (exact; {where})\n"
            + text_table(["first move", "value for A", ""], rows) + line)


def _render_advise(r: dict) -> str:
    rows = [[m["move"], m["value"] if m["method"] == "exact" else f"est. {m['value']:.3f}", m["method"]]
            for m in r["options"]]
    best = r["options"][0]
    note = (f"exact: perfect play ({r['source']}" + (f", {r['proof']})" if "proof" in r else ")") if r["exact"] else
            f"values marked est. are estimates: an alpha-beta search {r['depth']} plies deep on a fitted evaluation"
            + (f" (the proof: {r['proof']})" if "proof" in r else ""))
    shown = best["value"] if best["method"] == "exact" else f"{best['value']:.3f}"
    return (f"{r['state']}: {r['to_move']} to move; value = {r['value_view']}\n"
            + text_table(["move", "value", "method"], rows)
            + f"\nrecommendation: {r['best']} ({'exact' if best['method'] == 'exact' else 'estimated'} value "
              f"{shown})\n{note}\n{MOVE_NOTATION}")


def run_solve(args) -> int:
    emit(solve_result(args.cups, args.stock, args.capture, args.reachable), args.json, _render_solve)
    return 0


def run_advise(args) -> int:
    from dicemath.games.bohnduell.drawing import draw

    position = read_position(args.state, args.cups, args.stock, args.capture)
    advice = args.game.advise(position, depth=args.depth, table_stock=args.table_stock,
                              proof_seconds=args.proof_seconds, proof_table_stock=args.proof_table_stock)
    result = advice.as_dict()
    write_svg(args.svg, lambda: draw(position, advice), result)
    emit(result, args.json, _render_advise)
    return 0


def run_table_build(args) -> int:
    from dicemath.games.bohnduell.strong_table import build_strong, open_strong

    rules = Rules(cups=args.cups, stock=args.stock, capture=args.capture)
    built = build_strong(rules, args.folder, workers=args.workers, scheduler=args.scheduler)
    table = open_strong(built.folder)
    start = initial_state(rules)
    moves = table.move_values(start)
    result = {"cups": rules.cups, "stock": rules.stock, "capture": rules.capture, "folder": str(built.folder),
              "positions": built.positions, "complete": built.complete, "seconds": round(built.seconds, 3),
              "cpu_seconds": round(built.cpu_seconds, 3), "value": table.position_value(start),
              "first_moves": {str(m): v for m, v in moves.items()}}
    emit(result, args.json, lambda r: (f"strong table of {r['stock']} beans a side in {r['folder']}: "
                                       f"{r['positions']:,} positions in {r['seconds']:.0f} s\n"
                                       f"value for A (moves first): {r['value']:+d}; first moves: "
                                       + ", ".join(f"{m} {v:+d}" for m, v in r["first_moves"].items())))
    return 0


def run_table_list(args) -> int:
    from dicemath.games.bohnduell.strong_table import strong_tables

    rows = [{"folder": str(e.folder), "cups": e.cups, "stock": e.stock, "capture": e.capture, "sides": e.sides,
             "complete": e.complete, "current": e.current, "positions": e.positions, "seconds": round(e.seconds, 3)}
            for e in strong_tables()]
    emit({"tables": rows}, args.json, lambda r: text_table(
        ["cups", "stock", "capture", "positions", "state", "build s", "folder"],
        [[t["cups"], t["stock"], t["capture"], f"{t['positions']:,}",
          ("finished" if t["complete"] else "unfinished") + ("" if t["current"] else ", other code"),
          f"{t['seconds']:.0f}", t["folder"]] for t in r["tables"]]) if r["tables"] else
         "no strong tables in the cache (dicemath bohnduell table build --stock N builds one)")
    return 0


def run_proof_search(args) -> int:
    from dicemath.games.bohnduell.proof import prove

    rules = Rules(cups=args.cups, stock=args.stock, capture=args.capture)
    from dicemath.games.bohnduell.strong_table import endgame_table

    table = endgame_table(rules, args.table_stock)
    proven = prove(rules, table, node_budget=args.nodes, seconds=args.seconds, all_first_moves=args.all_first_moves)
    result = {"cups": rules.cups, "stock": rules.stock, "capture": rules.capture, "table_stock": args.table_stock,
              "proven": proven.complete, "value": proven.value, "lower": proven.lower, "upper": proven.upper,
              "value_view": "final pot difference A - B under best play; A moves first (BOHN-7)",
              "first_moves": {str(m): list(bounds) for m, bounds in proven.first_moves.items()},
              "best_moves": [str(m) for m in proven.best_moves], "nodes": proven.nodes,
              "positions": proven.positions, "seconds": round(proven.seconds, 3), "exhausted": proven.exhausted,
              "certificate_rows": proven.certificate.header.rows, "certificate_sha256": proven.certificate.digest,
              "certificate": str(proven.write(args.out)) if args.out else None}
    emit(result, args.json, _render_proof)
    return 0


def run_proof_check(args) -> int:
    from dicemath.games.bohnduell.proof_check import check
    from dicemath.games.bohnduell.proof_format import read_certificate
    from dicemath.games.bohnduell.strong_table import endgame_table

    header = read_certificate(args.certificate).header
    rules = Rules(cups=header.cups, stock=header.stock, capture=header.capture)
    checked = check(args.certificate, endgame_table(rules, header.table_stock), engine=args.engine)
    result = {"cups": rules.cups, "stock": rules.stock, "capture": rules.capture, "table_stock": header.table_stock,
              "checked": True, "proven": checked.lower == checked.upper,
              "value": checked.lower if checked.lower == checked.upper else None,
              "lower": checked.lower, "upper": checked.upper,
              "first_moves": {str(m): list(bounds) for m, bounds in checked.first_moves.items()},
              "rows": checked.rows, "certificate_sha256": checked.digest, "seconds": round(checked.seconds, 3)}
    emit(result, args.json, _render_proof)
    return 0


def run_proof_reproduce(args) -> int:
    from dicemath.games.bohnduell.proof_record import committed_proof, differences, reproduce

    rules = Rules(cups=args.cups, stock=args.stock, capture=args.capture)
    if args.table_stock >= rules.stock:
        raise InvalidStateError(f"the proof's table ({args.table_stock} beans) must hold fewer beans than the game "
                                f"({rules.stock})")
    row = committed_proof(rules, args.table_stock, args.record)
    done = reproduce(rules, args.table_stock, args.folder, table_folder=args.table_folder, workers=args.workers,
                     memory=args.memory_mib << 20)
    found = differences(done, row) if row is not None else []
    result = {**done.as_dict(), "record": "none" if row is None else "equal" if not found else "different",
              "differences": found}
    emit(result, args.json, _render_reproduce)
    return 1 if found else 0


def _render_reproduce(r: dict) -> str:
    moves = ", ".join(f"{m} {a:+d}" if a == b else f"{m} {a:+d}..{b:+d}" for m, (a, b) in r["first_moves"].items())
    value = f"{r['value']:+d}" if r["value"] is not None else f"between {r['lower']:+d} and {r['upper']:+d}"
    verdict = {"none": "no committed record of this proof to compare with",
               "equal": "equal to the committed record (value, first moves, certificate SHA-256)",
               "different": "DIFFERENT from the committed record: " + "; ".join(r["differences"])}[r["record"]]
    table = (f"strong table of {r['table_stock']} beans: {r['table_positions']:,} positions, "
             f"{r['table_bytes'] / 1e9:.2f} GB in {r['table_folder']}, {r['table_seconds']:.1f} s"
             + (" (built already)" if not r["table_seconds"] else "")) if r["table_stock"] else "no table"
    return (f"BohnDuell, {r['cups']} cups, {r['stock']} beans each, capture={r['capture']}: value for A {value}\n"
            f"first moves: {moves}\n"
            f"machine: {r['machine']}\n"
            f"{table}; peak memory {r['table_peak_megabytes']:,.0f} MB\n"
            f"proof: {r['nodes']:,} positions searched in {r['proof_seconds']:.1f} s; peak memory "
            f"{r['proof_peak_megabytes']:,.0f} MB; certificate {r['certificate']} ({r['certificate_rows']:,} rows, "
            f"{r['certificate_bytes']:,} bytes, SHA-256 {r['certificate_sha256']})\n"
            f"check: {'verified' if r['checked'] else 'NOT verified'} in {r['check_seconds']:.1f} s; peak memory "
            f"{r['check_peak_megabytes']:,.0f} MB\n"
            f"record: {verdict}")


def _render_proof(r: dict) -> str:
    value = f"{r['value']:+d} (proven)" if r["proven"] else f"between {r['lower']:+d} and {r['upper']:+d}"
    moves = ", ".join(f"{m} {a:+d}" if a == b else f"{m} {a:+d}..{b:+d}" for m, (a, b) in r["first_moves"].items())
    done = "certificate checked" if r.get("checked") else f"{r['nodes']:,} positions searched"
    return (f"BohnDuell, {r['cups']} cups, {r['stock']} beans each, capture={r['capture']}, endgame table of "
            f"{r['table_stock']} beans: value for A {value}\nfirst moves: {moves}\n{done} in {r['seconds']:.1f} s"
            + (f"; certificate written to {r['certificate']}" if r.get("certificate") else ""))


def run_show(args) -> int:
    position = read_position(args.state, args.cups, args.stock, args.capture)
    return show_state(args, "bohnduell", position, position.diagram(), PLAYER_NAMES, position=str(position),
                      capture=position.rules.capture, stocks=list(position.stocks),
                      cups=[list(row) for row in position.cups], pots=list(position.pots))
