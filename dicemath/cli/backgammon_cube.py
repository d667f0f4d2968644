"""``dicemath backgammon cube``: doubling-cube equities from the command line (BG-7, BG-8).

Two forms:

* ``dicemath backgammon cube 2,2,0,0,0,0 --versus 0,0,1,1,1,0 --json``: exact cubeful
  bear-off equities (money play) of the player on roll with home board ``POSITION``
  (checker counts on points 1..6, the 1-point first) against ``--versus``; keys
  ``centred``, ``owned``, ``opponent_owned`` (equity with the optimal cube action now),
  ``no_double`` (same three names, equity if he does not double now), ``action``
  (the optimal action for each cube state), ``win_probability`` (cubeless) and
  ``race_rules`` (what the Keith, Thorp, 8-9-12 and one-sided methods would do with a
  centred cube; see :mod:`~.race_cube`), ``max_cube`` (64, BG-8's cap, unless
  ``--unbounded-cube`` asks for GNU Backgammon's model without a cap).
* ``dicemath backgammon cube --win 0.72 --gammon 0.12 --lose-gammon 0.03 --json``: the
  cube models of :mod:`dicemath.games.backgammon.cube` for cubeless probabilities.
"""

from __future__ import annotations

from dicemath.cli.support import add_json_flag, emit, int_list, text_table
from dicemath.core.errors import InvalidStateError
from dicemath.games.backgammon.cubeful_bearoff import BG8_MAX_CUBE


def add_cube_command(commands) -> None:
    """Add the ``cube`` sub-parser to the ``backgammon`` sub-command ``commands``.

    Args:
        commands: the argparse sub-parsers object of ``dicemath backgammon``.
    """
    cube = commands.add_parser(
        "cube", help="doubling-cube equities (exact bear-off DP, or models from probabilities)")
    cube.add_argument("position", nargs="?", type=int_list, default=None,
                      help="home board of the player on roll: counts on points 1..6, 1-point first")
    cube.add_argument("--versus", type=int_list, default=None,
                      help="the opponent's home board, same format")
    cube.add_argument("--win", type=float, default=None,
                      help="cubeless probability that the player on roll wins")
    cube.add_argument("--gammon", type=float, default=0.0,
                      help="cubeless probability that he wins a gammon or backgammon")
    cube.add_argument("--backgammon", type=float, default=0.0,
                      help="cubeless probability that he wins a backgammon")
    cube.add_argument("--lose-gammon", type=float, default=0.0,
                      help="cubeless probability that he loses a gammon or backgammon")
    cube.add_argument("--lose-backgammon", type=float, default=0.0,
                      help="cubeless probability that he loses a backgammon")
    cube.add_argument("--unbounded-cube", action="store_true",
                      help="bear-off form: no cap on the cube (GNU Backgammon's model) instead of "
                           "the BG-8 cap at 64")
    cube.add_argument("--efficiency", type=float, default=None,
                      help="Janowski cube efficiency x in [0, 1] (default: the race value)")
    add_json_flag(cube)
    cube.set_defaults(func=run_cube)


def run_cube(args) -> int:
    """Handler of ``dicemath backgammon cube``; returns the exit code."""
    if args.position is not None:
        if args.versus is None:
            raise InvalidStateError("a bear-off position needs --versus (the opponent's home board)")
        result = position_result(args.position, args.versus,
                                 None if args.unbounded_cube else BG8_MAX_CUBE)
        emit(result, args.json, _render_position)
        return 0
    if args.win is None:
        raise InvalidStateError("give a home board POSITION with --versus, or --win probabilities")
    result = model_result(args.win, args.gammon, args.backgammon, args.lose_gammon,
                          args.lose_backgammon, efficiency=args.efficiency)
    emit(result, args.json, _render_model)
    return 0


def position_result(position, versus, max_cube: int | None = BG8_MAX_CUBE) -> dict:
    """The JSON object of the bear-off form (see module docstring).

    ``max_cube`` is the BG-8 cap (64, the default) or None for an unbounded cube. Beyond
    the exact cubeful tables (more than 8 checkers a side) the equities are Janowski's
    model at the exact cubeless chances of the bear-off database
    (:func:`~.cubeful_bearoff.model_position_equities`: keys ``exact`` false, ``method``,
    ``table``, ``win_gammon``, ``lose_gammon``).
    """
    from dicemath.games.backgammon.bearoff import check_board
    from dicemath.games.backgammon.cubeful_bearoff import (MAX_TABLE_CHECKERS, model_position_equities,
                                                           position_equities)
    from dicemath.games.backgammon.race_cube import race_advice
    if max(sum(check_board(position)), sum(check_board(versus))) > MAX_TABLE_CHECKERS:
        result = model_position_equities(position, versus)   # exact cubeless, model cube
    else:
        result = position_equities(position, versus, max_cube)
    advice = race_advice(position, versus)
    result["race_rules"] = {name: advice[name] for name in ("keith", "thorp", "8-9-12", "one-sided")}
    return result


def model_result(win, gammon=0.0, backgammon=0.0, lose_gammon=0.0, lose_backgammon=0.0,
                 *, efficiency=None) -> dict:
    """The JSON object of the probabilities form (see module docstring)."""
    from dicemath.games.backgammon.cube import model_summary
    return model_summary(win, gammon, backgammon, lose_gammon, lose_backgammon,
                         efficiency=efficiency)


def _render_position(result: dict) -> str:
    rows = [[name, f"{result['no_double'][name]:+.6f}", f"{result[name]:+.6f}",
             result["action"][name]] for name in ("centred", "owned", "opponent_owned")]
    title = (f"Bear-off {','.join(map(str, result['position']))} (on roll) vs "
             f"{','.join(map(str, result['versus']))}: cubeless win "
             f"{result['win_probability']:.4f}; equities per unit cube, money play, "
             + ("cube capped at 64 (BG-8)" if result.get("max_cube") else "unbounded cube")
             + (f"; ESTIMATE: {result['method']} (table {result['table']})" if "method" in result else ""))
    rules = ", ".join(f"{name}: {action}" for name, action in result["race_rules"].items())
    return (title + "\n" + text_table(["cube", "no double", "optimal", "action"], rows)
            + f"\nRace rules (centred cube): {rules}")


def _render_model(result: dict) -> str:
    rows = [[key, f"{value:.6f}" if isinstance(value, float) else value]
            for key, value in result.items() if not isinstance(value, dict)]
    rows += [[f"no_double ({name})", f"{value:.6f}"] for name, value in result["no_double"].items()]
    return text_table(["quantity", "value"], rows)
