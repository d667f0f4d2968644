"""``dicemath backgammon cube``: doubling-cube equities from the command line (BG-7, BG-8).

Three forms:

* ``dicemath backgammon cube POSITION_ID --json``: the money cube decision of the player
  on roll in any position (GNU Backgammon Position ID or XGID), the ``detail`` of the game's
  advice (:meth:`BACKGAMMON_GAME.advise <dicemath.core.game.Game.advise>`, its chain's cube
  sources), or when he may not double (BG-8) the equity of rolling on, both by
  :func:`~dicemath.games.backgammon.cube_advice.cube_advice`: keys ``no_double``,
  ``double_take``, ``double_pass``, ``action``, ``equity`` (per unit of the current cube),
  ``method``, ``source``, ``ply``, ``efficiency``, ``probabilities``, ``cube_value``,
  ``cube_owner``, ``may_double``, ``max_cube``; options ``--cube-value``, ``--cube-owner``
  (``centred``, ``on_roll``, ``opponent``), ``--ply``, ``--rules``.

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

``--svg FILE`` draws the position of the first two forms with its cube and the verdict
(:func:`advice_picture`, :func:`bearoff_picture`; the page of ``dicemath serve`` shows the
same pictures).
"""

from __future__ import annotations

from dicemath.core.commands import add_json_flag, add_svg_option, emit, int_list, text_table, write_svg
from dicemath.core.errors import DicemathError, InvalidStateError
from dicemath.core.game import Game
from dicemath.games.backgammon.cube_rules import CUBE_OWNERS, MAX_CUBE, VERDICTS, check_cube, may_double
from dicemath.games.backgammon.position import Position
from dicemath.games.backgammon.rules import PRESETS, rules_named
from dicemath.games.backgammon.state import MAY_DOUBLE, State, absolute_owner


def add_cube_command(commands) -> None:
    """Add the ``cube`` sub-parser to the ``backgammon`` sub-command ``commands``.

    Args:
        commands: the argparse sub-parsers object of ``dicemath backgammon``.
    """
    cube = commands.add_parser(
        "cube", help="doubling-cube equities (exact bear-off DP, or models from probabilities)")
    cube.add_argument("position", nargs="?", default=None,
                      help="a Position ID or XGID (any position), or the home board of the player on "
                           "roll as counts on points 1..6, 1-point first (with --versus)")
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
    cube.add_argument("--cube-value", type=int, default=None,
                      help="Position ID form: cube value 1, 2, 4, ..., 64 (default 1, or 2 when owned)")
    cube.add_argument("--cube-owner", choices=CUBE_OWNERS, default="centred",
                      help="Position ID form: who owns the cube, seen by the player on roll")
    cube.add_argument("--ply", type=int, default=0, help="Position ID form: look-ahead 0..3 (default 0)")
    cube.add_argument("--rules", choices=sorted(PRESETS), default="standard",
                      help="Position ID form: standard or playtive (BG-4)")
    add_svg_option(cube)
    add_json_flag(cube)
    cube.set_defaults(func=run_cube)


def run_cube(args) -> int:
    """Handler of ``dicemath backgammon cube``; returns the exit code."""
    if args.position is not None and not is_board_text(args.position):
        value = args.cube_value if args.cube_value is not None else (1 if args.cube_owner == "centred" else 2)
        result = advice_result(args.game, args.position, value, args.cube_owner, args.ply, args.rules)
        write_svg(args.svg, lambda: advice_picture(args.position, result), result)
        emit(result, args.json, _render_advice)
        return 0
    if args.position is not None:
        args.position = int_list(args.position)
        if args.versus is None:
            raise InvalidStateError("a bear-off position needs --versus (the opponent's home board)")
        result = position_result(args.position, args.versus,
                                 None if args.unbounded_cube else MAX_CUBE)
        write_svg(args.svg, lambda: bearoff_picture(result), result)
        emit(result, args.json, _render_position)
        return 0
    if args.win is None:
        raise InvalidStateError("give a home board POSITION with --versus, or --win probabilities")
    if args.svg is not None:
        raise DicemathError("--svg draws a position: give a Position ID or a home board with --versus, "
                            "not --win probabilities")
    result = model_result(args.win, args.gammon, args.backgammon, args.lose_gammon,
                          args.lose_backgammon, efficiency=args.efficiency)
    emit(result, args.json, _render_model)
    return 0


def is_board_text(text: str) -> bool:
    """Whether ``text`` is a home board written as comma-separated counts (not a Position ID
    or XGID), the bear-off form of ``dicemath backgammon cube``.

    >>> is_board_text("2,2,0,0,0,0"), is_board_text("4HPwATDgc/ABMA")
    (True, False)
    """
    return "," in text and all(part.strip().lstrip("-").isdigit() for part in text.split(","))


def advice_result(game: Game, position_id: str, cube_value: int = 1, cube_owner: str = "centred", ply: int = 0,
                  rules_name: str = "standard") -> dict:
    """The JSON object of the Position ID form (see module docstring): the advice of ``game`` (the
    Backgammon :class:`~dicemath.core.game.Game`) at the cube decision, or the equity of rolling on
    when the player on roll may not double.

    Raises:
        InvalidStateError: an unreadable position, a finished game, a bad cube, unknown rules, a bad ply.
        GnubgUnavailableError: a position with contact and no gnubg.
    """
    from dicemath.games.backgammon.cube_advice import cube_advice

    position = Position.from_str(position_id)
    value, owner = check_cube(cube_value, cube_owner)
    rules = rules_named(rules_name)
    if position.is_over() or not may_double(value, owner):     # no decision: cube_advice says why or values rolling on
        return cube_advice(rules, position, value, owner, ply)
    decision = State(position, rules, MAY_DOUBLE, None, value, absolute_owner(owner, position.player))
    return game.advise(decision, ply=ply).detail


def advice_picture(position_text: str, result: dict) -> str:
    """The position of the Position ID form (``position_text``) before the roll, the cube
    where ``result`` (its :func:`advice_result`) has it, the cube verdict and, when the
    player on roll may double (BG-8), the equities of doubling and of rolling on."""
    from dicemath.games.backgammon.advice import cube_options
    from dicemath.games.backgammon.drawing import draw
    from dicemath.games.backgammon.state import ROLL

    position = Position.from_str(position_text)
    allowed = result["may_double"]
    state = State(position, rules_named(result["rules"]), MAY_DOUBLE if allowed else ROLL,
                  cube_value=result["cube_value"], cube_owner=absolute_owner(result["cube_owner"], position.player))
    verdict = (f"Proper cube action: {VERDICTS[result['action']]}" if allowed
               else "No cube action: the player on roll may not double (BG-8)")
    return draw(state, cube_options(state, result) if allowed else None, verdict=verdict)


def bearoff_picture(result: dict) -> str:
    """The two home boards of the bear-off form (``result``, its :func:`position_result`),
    the player on roll before his roll with the cube in the middle, and the verdict for it."""
    from dicemath.games.backgammon.drawing import draw

    state = State(Position.from_home_boards(result["position"], result["versus"]), phase=MAY_DOUBLE)
    verdict = (f"Proper cube action: {VERDICTS[result['action']['centred']]} (equity {result['centred']:+.3f} "
               f"per unit cube; without doubling {result['no_double']['centred']:+.3f})")
    return draw(state, verdict=verdict)


def _render_advice(result: dict) -> str:
    def number(value):
        return "-" if value is None else f"{value:+.4f}"

    owner = {"centred": "centred", "on_roll": "owned by the player on roll",
             "opponent": "owned by the opponent"}[result["cube_owner"]]
    p = result["probabilities"]
    lines = [f"{result['position_id']} ({result['rules']}), cube {result['cube_value']} {owner}; "
             f"money play, no Jacoby, cube capped at {result['max_cube']} (BG-8)",
             f"Method: {result['method']} (probabilities: {result['source']}"
             + (f", cube efficiency {result['efficiency']:.3f})" if result["efficiency"] is not None else ")"),
             f"Cubeless: win {p['win']:.4f} (gammon {p['win_gammon']:.4f}, backgammon {p['win_backgammon']:.4f}), "
             f"lose gammon {p['lose_gammon']:.4f} (backgammon {p['lose_backgammon']:.4f})",
             text_table(["no double", "double/take", "double/pass"],
                        [[number(result["no_double"]), number(result["double_take"]), number(result["double_pass"])]]),
             f"Proper cube action: {VERDICTS[result['action']]} (equity {result['equity']:+.4f} per unit cube)"]
    return "\n".join(lines)


def position_result(position, versus, max_cube: int | None = MAX_CUBE) -> dict:
    """The JSON object of the bear-off form (see module docstring).

    ``max_cube`` is the BG-8 cap (64, the default) or None for an unbounded cube. Beyond
    the exact cubeful tables (more than :data:`~.limits.MAX_CUBEFUL_CHECKERS` checkers a side)
    the equities are Janowski's model at the exact cubeless chances of the bear-off database
    (:func:`~.race_cube.model_position_equities`: keys ``exact`` false, ``method``,
    ``table``, ``win_gammon``, ``lose_gammon``).
    """
    from dicemath.games.backgammon.bearoff import check_board
    from dicemath.games.backgammon.cubeful_bearoff import position_equities
    from dicemath.games.backgammon.limits import MAX_CUBEFUL_CHECKERS
    from dicemath.games.backgammon.race_cube import model_position_equities, race_cube_advice
    if max(sum(check_board(position)), sum(check_board(versus))) > MAX_CUBEFUL_CHECKERS:
        result = model_position_equities(position, versus)   # exact cubeless, model cube
    else:
        result = position_equities(position, versus, max_cube)
    advice = race_cube_advice(position, versus)
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
             "cannot double" if name == "opponent_owned" else VERDICTS[result["action"][name]]]
            for name in ("centred", "owned", "opponent_owned")]
    title = (f"Bear-off {','.join(map(str, result['position']))} (on roll) vs "
             f"{','.join(map(str, result['versus']))}: cubeless win "
             f"{result['win_probability']:.4f}; equities per unit cube, money play, "
             + ("cube capped at 64 (BG-8)" if result.get("max_cube") else "unbounded cube")
             + (f"; ESTIMATE: {result['method']} (table {result['table']})" if "method" in result else ""))
    rules = ", ".join(f"{name}: {VERDICTS.get(action, action)}" for name, action in result["race_rules"].items())
    return (title + "\n" + text_table(["cube", "no double", "optimal", "action"], rows)
            + f"\nRace rules (centred cube): {rules}")


def _render_model(result: dict) -> str:
    rows = [[key, f"{value:.6f}" if isinstance(value, float) else value]
            for key, value in result.items() if not isinstance(value, dict)]
    rows += [[f"no_double ({name})", f"{value:.6f}"] for name, value in result["no_double"].items()]
    return text_table(["quantity", "value"], rows)
