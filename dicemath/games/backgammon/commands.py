"""``dicemath backgammon``: bear-off tables, legal moves, states shown (and the cube).

Home boards are written as checker counts on points 1..6, the 1-point first
(``0,0,0,0,0,2`` is two checkers on the 6-point). ``show STATE`` takes a state's text form
(:meth:`~dicemath.games.backgammon.state.State.from_str`), a Position ID or XGID (the player
on roll before his roll, the cube in the middle) or ``start``.
"""

from __future__ import annotations

from dicemath.games.backgammon.commands_cube import add_cube_command
from dicemath.games.backgammon.commands_hint import add_hint_command
from dicemath.core.commands import (
    add_json_flag, add_game_command, add_show_command, add_state_argument, add_svg_option, emit, int_list, is_start,
    show_state, text_table, write_svg)
from dicemath.core.errors import InvalidStateError
from dicemath.games.backgammon.moves import legal_moves
from dicemath.games.backgammon.position import Position
from dicemath.games.backgammon.position import xgid_position_field
from dicemath.games.backgammon.rules import PRESETS, STANDARD, rules_named


def register(subparsers, game) -> None:
    """Add ``dicemath backgammon rules|bearoff|build-bearoff|moves|show|advise|cube|hint``.

    Args:
        subparsers: the ``dicemath`` parser's sub-parsers.
        game: the Backgammon :class:`~dicemath.core.game.Game` (its ``rules_headings`` give
            ``rules``), passed by its :meth:`~dicemath.core.game.Game.register_commands`.
    """
    parser, commands = add_game_command(subparsers, game, "Backgammon: bear-off tables, legal moves, cube")
    parser.set_defaults(game=game)          # the advice of advise, cube and hint is the game's

    bearoff = commands.add_parser("bearoff", help="one-sided bear-off distribution, or win chance --versus")
    bearoff.add_argument("board", type=int_list, help="checker counts on points 1..6, e.g. 0,0,0,0,0,2")
    bearoff.add_argument("--versus", type=int_list, default=None,
                         help="the opponent's home board: two-sided, the first board is on roll")
    bearoff.add_argument("--rules", choices=sorted(PRESETS), default="standard")
    bearoff.add_argument("--tables", default=None,
                         help="folder of the two-sided databases (default: $DICEMATH_BEAROFF_DIR or the cache)")
    add_json_flag(bearoff)
    bearoff.set_defaults(func=run_bearoff)

    build = commands.add_parser("build-bearoff", help="build (or resume) the two-sided bear-off database")
    build.add_argument("--checkers", type=int, required=True, help="at most this many checkers a side, 1..15")
    build.add_argument("--out", default=None,
                       help="folder of the databases (default: $DICEMATH_BEAROFF_DIR or the cache); "
                            "the table goes to OUT/two-sided-N")
    build.add_argument("--scheduler", default=None,
                       help="address of a dask.distributed scheduler (default: Dask's local threaded scheduler)")
    build.add_argument("--chunk-pairs", type=int, default=None,
                       help="pairs per chunk (default 4,000,000; fixed by the first run of a build)")
    build.add_argument("--max-chunks", type=int, default=None,
                       help="stop after this many chunks (resume with the same command)")
    add_json_flag(build)
    build.set_defaults(func=run_build_bearoff)

    moves = commands.add_parser("moves", help="legal moves of a roll in a GNU Backgammon Position ID")
    moves.add_argument("position_id", help="GNU Backgammon Position ID (player on roll to move) or an XGID")
    moves.add_argument("dice", type=int, nargs=2, help="the two dice")
    moves.add_argument("--rules", choices=sorted(PRESETS), default="standard")
    add_json_flag(moves)
    moves.set_defaults(func=run_moves)

    show = add_show_command(commands, "a state's text form, e.g. '4HPwATDgc/ABMA O play 6-5 cube 1' (phase "
                                      "opening, may-double, doubled, roll, play D-D, over or passed; cube 1, 2X, "
                                      "4O, ... or none; then 'playtive' for those rules), a Position ID or XGID "
                                      "(the player on roll before his roll), or 'start'")
    show.set_defaults(func=run_show)

    advise = commands.add_parser("advise", help="every legal action of a decision valued, best first: the plays "
                                                "of a roll, or double/roll, or take/pass")
    add_state_argument(advise, "4HPwATDgc/ABMA X play 3-1 cube 1")
    advise.add_argument("--ply", type=int, default=0, choices=range(4),
                        help="the evaluator's look-ahead (contact positions need gnubg; default 0)")
    add_svg_option(advise)
    add_json_flag(advise)
    advise.set_defaults(func=run_advise)

    add_cube_command(commands)
    add_hint_command(commands)


def bearoff_result(board, versus=None, rules_name: str = "standard", tables=None) -> dict:
    """The JSON object of ``dicemath backgammon bearoff``.

    One-sided keys: ``board``, ``rules``, ``pip_count``, ``mean_rolls``, ``distribution``
    (P(n rolls), n = 0..), ``effective_pip_count``, ``gammon_mean_rolls``.
    Two-sided (``versus``) adds ``versus``, ``win_probability`` (exact, player on roll),
    ``table`` (which exact table answered: ``two-sided-N`` from the largest database built
    under ``tables``, see :mod:`~.bearoff_database`), ``exact`` (true), ``error_bound``,
    ``win_gammon`` and ``lose_gammon`` (BG-7, nonzero only with the 15-checker database),
    ``one_sided_approximation``, ``versus_mean_rolls`` and ``versus_pip_count``.

    Raises:
        InvalidStateError: a bad board, an empty one with ``versus``, a rule set other than
            standard with a board beyond the in-memory tables, or no exact table covering
            both boards.
    """
    from dicemath.games.backgammon import bearoff as bo      # the tables load when asked, not with the parser
    from dicemath.games.backgammon.bearoff_database import exact_probabilities
    from dicemath.games.backgammon.race import effective_pip_count, one_sided_win_probability, pip_count

    rules = rules_named(rules_name)
    board = bo.check_board(board)
    table = bo.one_sided_table(rules)
    result = {
        "board": list(board),
        "rules": rules.name,
        "pip_count": pip_count(board),
        "mean_rolls": table.mean_rolls(board),
        "distribution": table.rolls_distribution(board).tolist(),
        "effective_pip_count": effective_pip_count(rules, board),
        "gammon_mean_rolls": float(table.gammon_mean[bo.position_index(board)]),
    }
    if versus is not None:
        versus = bo.check_board(versus)
        if sum(board) == 0 or sum(versus) == 0:
            raise InvalidStateError("both home boards need at least one checker for a two-sided query")
        if rules == STANDARD:
            exact = exact_probabilities(board, versus, tables)
        else:
            exact = {"win_probability": bo.win_probability(rules, board, versus), "win_gammon": 0.0,
                     "lose_gammon": 0.0, "table": "in-memory two-sided", "exact": True, "error_bound": 1e-12}
        result.update({
            "versus": list(versus),
            **exact,
            "one_sided_approximation": one_sided_win_probability(rules, board, versus),
            "versus_mean_rolls": table.mean_rolls(versus),
            "versus_pip_count": pip_count(versus),
        })
    return result


def _render_bearoff(result: dict) -> str:
    lines = [f"Home board {result['board']} ({result['rules']}): {result['pip_count']} pips, "
             f"expected rolls {result['mean_rolls']:.4f} (EPC {result['effective_pip_count']:.2f})"]
    rows = [[n, f"{p:.6f}"] for n, p in enumerate(result["distribution"]) if p > 0]
    lines.append(text_table(["rolls", "probability"], rows))
    if "win_probability" in result:
        lines.append(f"Versus {result['versus']} ({result['versus_pip_count']} pips, "
                     f"{result['versus_mean_rolls']:.4f} rolls): on roll wins {result['win_probability']:.6f} "
                     f"exactly (table {result['table']}; one-sided approximation "
                     f"{result['one_sided_approximation']:.6f})")
        if result["win_gammon"] or result["lose_gammon"]:
            lines.append(f"Gammons: on roll wins one {result['win_gammon']:.6f}, loses one {result['lose_gammon']:.6f}")
    return "\n".join(lines)


def run_bearoff(args) -> int:
    emit(bearoff_result(args.board, args.versus, args.rules, args.tables), args.json, _render_bearoff)
    return 0


def build_bearoff_result(checkers: int, out=None, scheduler=None, chunk_pairs=None, max_chunks=None) -> dict:
    """Build or resume a database (:func:`~.bearoff_database.build_database`); the JSON of
    ``dicemath backgammon build-bearoff``: ``table``, ``folder``, ``checkers``, ``complete``,
    ``chunks_run``, ``chunks_total``, ``pairs_run``, ``seconds`` (this run), ``build_seconds``
    (all runs), ``bytes`` (on disk)."""
    from dicemath.games.backgammon.bearoff_database import (DEFAULT_CHUNK_PAIRS, available_databases,
                                                            build_database)

    summary = build_database(checkers, out, scheduler=scheduler, chunk_pairs=chunk_pairs or DEFAULT_CHUNK_PAIRS,
                             max_chunks=max_chunks)
    entry = next(e for e in available_databases(summary.folder.parent) if e["checkers"] == summary.checkers)
    return {"table": summary.folder.name, "folder": str(summary.folder), "checkers": summary.checkers,
            "complete": summary.complete, "chunks_run": summary.chunks_run, "chunks_total": summary.chunks_total,
            "pairs_run": summary.pairs_run, "seconds": summary.seconds, "build_seconds": entry["build_seconds"],
            "bytes": entry["bytes"]}


def run_build_bearoff(args) -> int:
    result = build_bearoff_result(args.checkers, args.out, args.scheduler, args.chunk_pairs, args.max_chunks)
    emit(result, args.json, lambda r: (
        f"{r['table']} in {r['folder']}: {'complete' if r['complete'] else 'unfinished (run again to resume)'}; "
        f"{r['chunks_run']} chunks ({r['pairs_run']:,} pairs) in {r['seconds']:.1f} s this run, "
        f"{r['build_seconds']:.1f} s in all; {r['bytes'] / 1e9:.2f} GB on disk"))
    return 0


def moves_result(position_id: str, dice, rules_name: str = "standard") -> dict:
    """The JSON object of ``dicemath backgammon moves``: keys ``position_id``, ``dice``,
    ``rules``, ``moves`` (list of ``{"move", "position_id"}``, the resulting position with
    the opponent on roll)."""
    rules = rules_named(rules_name)
    position = Position.from_str(position_id)
    moves = legal_moves(rules, position, dice)
    return {
        "position_id": position.position_id(),
        "dice": list(dice),
        "rules": rules.name,
        "moves": [{"move": str(m), "position_id": m.after.swap().position_id()} for m in moves],
    }


def _render_moves(result: dict) -> str:
    rows = [[i, m["move"], m["position_id"]] for i, m in enumerate(result["moves"], 1)]
    title = f"{len(rows)} legal moves of {result['dice'][0]}-{result['dice'][1]} in {result['position_id']}"
    return title + "\n" + text_table(["#", "move", "resulting Position ID"], rows)


def run_moves(args) -> int:
    emit(moves_result(args.position_id, args.dice, args.rules), args.json, _render_moves)
    return 0


def read_show_state(text: str):
    """The state ``show`` shows: ``"start"``, a state's text form (it has spaces), or a
    Position ID or XGID with the player on roll before his roll, the cube in the middle.

    Raises:
        InvalidStateError: text that is none of these.
    """
    from dicemath.games.backgammon.state import MAY_DOUBLE, OVER, State, initial_state

    if is_start(text):
        return initial_state()
    if len(text.split()) > 1:
        return State.from_str(text)
    position = Position.from_str(text)
    return State(position, STANDARD, OVER if position.is_over() else MAY_DOUBLE)


def run_advise(args) -> int:
    """``dicemath backgammon advise STATE``: the :class:`~dicemath.core.advice.Advice` of a
    decision, :meth:`BACKGAMMON_GAME.advise <dicemath.core.game.Game.advise>`."""
    from dicemath.games.backgammon.drawing import draw
    from dicemath.games.backgammon.state import State

    if args.state is None:
        raise InvalidStateError("give the state's text form, e.g. '4HPwATDgc/ABMA X play 3-1 cube 1'")
    state = State.from_str(args.state)
    advice = args.game.advise(state, ply=args.ply)
    result = advice.as_dict()
    write_svg(args.svg, lambda: draw(state, advice), result)

    def render(r: dict) -> str:
        best = r["options"][0]["value"] if r["options"] else 0.0
        rows = [[i, o["action"], f"{o['value']:+.4f}", f"{o['value'] - best:+.4f}", f"{o['probabilities']['win']:.3f}",
                 o["source"]] for i, o in enumerate(r["options"], 1)]
        return (f"{r['state']}: {r['unit']} ({'exact' if r['exact'] else 'estimates'}; source: {r['source']})\n"
                + text_table(["#", "action", "value", "diff", "win", "source"], rows))

    emit(result, args.json, render)
    return 0


def run_show(args) -> int:
    from dicemath.games.backgammon.state import PLAYER_NAMES
    from dicemath.games.backgammon.view import view

    state = read_show_state(args.state)
    position = state.position
    return show_state(args, "backgammon", state, view(state), PLAYER_NAMES, rules=state.rules.name,
                      position_id=position.position_id(), xgid_position=xgid_position_field(position),
                      pip_count=position.pip_count(), opponent_pip_count=position.opponent_pip_count(),
                      phase=state.phase, dice=None if state.dice is None else list(state.dice),
                      cube_value=state.cube_value,
                      cube_owner=None if state.cube_owner is None else PLAYER_NAMES[state.cube_owner])
