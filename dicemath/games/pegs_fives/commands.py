"""``dicemath pegs ...`` and ``dicemath fives ...``: rows, turn, solve, advise, build-table,
show and race (the exact two-player race on a reduced board, ``--players 3`` the exact
three-player race; Fives without ``--open``: simulated races).

Every query has ``--json`` with stable keys; plain output is a readable table. ``solve``
uses the compiled full-board kernels (:mod:`dicemath.games.pegs_fives.fullboard`);
``advise`` asks the game object (:meth:`~dicemath.core.game.Game.advise`, its chain of
sources :func:`~dicemath.games.pegs_fives.fullboard.advice.source_chain`): exactly from a
table or a compiled solve where one covers the board, its numbers labelled estimates
otherwise; with ``--opponent`` race advice
(:func:`~dicemath.games.pegs_fives.race_advice.race_advice`, its own chain of sources).
"""

from __future__ import annotations

import time

from dicemath.core.commands import (
    add_json_flag, add_game_command, add_show_command, add_state_argument, add_svg_option, emit, fraction_text,
    int_list, is_start, show_state, text_table, throw_list, write_svg)
from dicemath.core.errors import DicemathError, InvalidStateError
from dicemath.games.pegs_fives.limits import RACE_MAX_ROWS
from dicemath.games.pegs_fives.rules import FIVES, PEGS, Rules
from dicemath.games.pegs_fives.session_commands import register_session

FRACTION_MAX_ROWS = 4
"""``solve --exact`` (Fractions, the reference solver) is offered up to this many open rows."""

MAX_SIMULATED_RACES = 2000
"""The most races ``fives race`` (without ``--open``) simulates (a few minutes)."""

POLICIES = ("optimal", "greedy", "safe_greedy", "lookahead")
"""The table policies of ``build-table`` (the kernels' modes)."""


HELP = {PEGS.name: "Pegs (popnagels): expected turns, optimal rows, the row advisor",
        FIVES.name: "Fives (every number five times): expected turns, optimal rows, advisor, races"}
"""The one-line help of each game's sub-command."""


def register(subparsers, game) -> None:
    """Add the sub-command of ``game`` (``pegs`` or ``fives``) and its queries.

    Args:
        subparsers: the ``dicemath`` parser's sub-parsers.
        game: the Pegs or Fives :class:`~dicemath.core.game.Game` (its ``preset`` is the
            rules of every query, its ``rules_headings`` give ``rules``), passed by its
            :meth:`~dicemath.core.game.Game.register_commands`.
    """
    rules: Rules = game.preset
    parser, commands = add_game_command(subparsers, game, HELP[rules.name])
    parser.set_defaults(rules=rules, game=game)

    rows = commands.add_parser("rows", help="exact expected turns to finish each row alone")
    add_json_flag(rows)
    rows.set_defaults(func=run_rows)

    solve = commands.add_parser("solve", help="exact optimal play on a reduced board")
    solve.add_argument("--open", type=int_list, required=True, help="open rows, e.g. 6,7,8")
    solve.add_argument("--exact", action="store_true",
                       help=f"exact fractions by the reference solver (up to {FRACTION_MAX_ROWS} open rows)")
    solve.add_argument("--board", type=int_list, default=None,
                       help="also give the value of this board (12 steps; closed rows at the goal)")
    add_json_flag(solve)
    solve.set_defaults(func=run_solve)

    advise = commands.add_parser("advise", help="rank the legal rows after a choice throw: give the state "
                                                "(its text form) or --board and --roll")
    add_state_argument(advise, f"{rules.name} | board 0,0,3,0,0,0,1,0,0,0,0,0 | turns 0 | dice 6 throws 2 | row - "
                               "count 0 | roll 6-5-3-3-3-2")
    advise.add_argument("--board", type=int_list, default=None, help="12 comma-separated steps/marks")
    advise.add_argument("--roll", type=throw_list, default=None,
                        help="the choice throw, e.g. 6-5-3-3-3-2 or 3,3,3,5,6,2")
    advise.add_argument("--throws", type=int, default=None,
                        help="throws left before this throw (Pegs; default 3). In Pegs a roll of "
                             "fewer than 6 dice is a choice throw with the dice left (PEGS-7)")
    advise.add_argument("--table", default=None, metavar="DIR",
                        help="answer from this table (default: the table built by build-table, if any)")
    advise.add_argument("--opponent", type=int_list, action="append", default=None, metavar="BOARD",
                        help="play to win against this opponent's board (12 steps); give it once per "
                             "opponent (three players: exact while the reachable triples of boards fit the "
                             "solver, else, and for more players, the opponents taken as independent)")
    advise.add_argument("--objective", choices=("win", "rest-points") if rules is FIVES else ("win",),
                        default=None,
                        help="with --opponent: maximise the chance to finish first (win)"
                             + (" or the expected rest-point difference (rest-points, the default; FIVES-6)"
                                if rules is FIVES else " (PEGS-2, the default)"))
    if rules is FIVES:
        advise.add_argument("--totals", type=int_list, default=None, metavar="TOTALS",
                            help="with --opponent, a session (FIVES-7): the running totals before this round, "
                                 "yours first, then the opponents' in the order given, e.g. 10,30,25")
        advise.add_argument("--rounds-left", type=int, default=None, metavar="R",
                            help="with --opponent, a session: the rounds still to play including this one "
                                 "(default 1); with --totals or more than one round the advice plays to win the "
                                 "session")
        advise.add_argument("--starter", type=int, default=None, metavar="K",
                            help="with --opponent, a session: who started this round, 0 for you, 1 for the "
                                 "first opponent given, ... (default 0; the next round's start player is the "
                                 "next seat, FIVES-7)")
    add_svg_option(advise)
    add_json_flag(advise)
    advise.set_defaults(func=run_advise)

    build = commands.add_parser("build-table", help="solve every board and store the table (resumable)")
    build.add_argument("--open", type=int_list, default=None,
                       help="open rows (default: the full board, 1,...,12)")
    build.add_argument("--out", default=None, metavar="DIR", help="table directory (default: in the cache)")
    build.add_argument("--scheduler", default=None, metavar="ADDRESS",
                       help="a dask.distributed scheduler, e.g. tcp://host:8786 (workers must share "
                            "the table's filesystem); default: local threads")
    build.add_argument("--workers", type=int, default=None, help="local threads (default: every core)")
    build.add_argument("--dtype", choices=("float32", "float64"), default=None,
                       help="storage (default float64 up to 6**9 boards, float32 beyond)")
    build.add_argument("--policy", choices=POLICIES, default="optimal",
                       help="evaluate a fixed policy instead of optimal play")
    build.add_argument("--guide", default=None, metavar="DIR",
                       help="the guide table of --policy lookahead")
    add_json_flag(build)
    build.set_defaults(func=run_build_table)

    turn = commands.add_parser("turn", help="exact end-of-turn distribution for each legal row")
    turn.add_argument("--board", type=int_list, required=True, help="12 comma-separated steps/marks")
    turn.add_argument("--roll", type=throw_list, required=True, help="the choice throw, e.g. 6-6-5-4-1-1")
    turn.add_argument("--top", type=int, default=8, help="end boards shown per row (plain output)")
    add_json_flag(turn)
    turn.set_defaults(func=run_turn)

    show = add_show_command(commands, f"a state's text form, e.g. '{rules.name} | board 0,0,3,0,0,0,1,0,0,0,0,0 "
                                      f"| turns 0 | dice 6 throws {rules.throws or '-'} | row - count 0 | roll -', "
                                      "a board such as 0,0,3,0,0,0,1,0,0,0,0,0 (the start of a turn), or 'start'")
    show.set_defaults(func=run_show)

    race = commands.add_parser(
        "race", help="the exact two-player race on a reduced board: playing to win vs solo-optimal play; "
                     "--players 3: the exact three-player race"
                     + (" (without --open: simulated races, advisor vs greedy)" if rules is FIVES else ""))
    race.add_argument("--open", type=int_list, default=None, required=rules is not FIVES,
                      help=f"open rows of both boards, e.g. 8,9,10 (at most {RACE_MAX_ROWS}: "
                           f"{6 ** RACE_MAX_ROWS:,} boards a side)")
    race.add_argument("--boards", type=int_list, nargs=2, default=None, metavar=("MINE", "THEIRS"),
                      help="also give the mover's value at this pair under race play: two boards of 12 "
                           "steps (closed rows at the goal) or of the open rows' steps only")
    race.add_argument("--players", type=int, default=2,
                      help="players at the table: 2 (default: every matchup of the compiled two-player race) or 3 "
                           "(each seat's value from the empty boards, the reference solver)")
    race.add_argument("--policies", default=None, metavar="P0,P1,P2",
                      help="with --players 3: each seat's policy, seat 0 first: race (plays to win) or solo "
                           "(solo-optimal); default race for every seat")
    race.add_argument("--exact", action="store_true", help="with --players 3: exact fractions (small boards)")
    if rules is FIVES:
        race.add_argument("--games", type=int, default=200, help="without --open: number of simulated races, "
                                                                 f"1..{MAX_SIMULATED_RACES} (default 200)")
        race.add_argument("--seed", type=int, default=0, help="without --open: the simulation's seed")
    add_json_flag(race)
    race.set_defaults(func=run_race)
    register_session(commands, rules)


def run_rows(args) -> int:
    from dicemath.games.pegs_fives.rows import rows_result

    result = rows_result(args.rules)

    def render(r: dict) -> str:
        table = [[x["row"], f"{x['expected_turns']:.3f}",
                  " ".join(f"{e:.2f}" for e in x["expected_turns_from"]),
                  f"{x['p_within_one_turn']:.4f}", x["median_turns"]] for x in r["rows"]]
        return (f"{r['game']}: expected turns to finish each row when it is the only one open\n"
                + text_table(["row", "E[turns]", "E from step 0..", "P(1 turn)", "median"], table))

    emit(result, args.json, render)
    return 0


def solve_result(rules: Rules, open_rows, exact: bool = False, board=None) -> dict:
    """The JSON object of ``solve``: ``expected_turns``, ``greedy_expected_turns`` and more
    (``board_expected_turns`` / ``board_greedy_expected_turns`` when ``board`` is given).

    Every answer is an exact solution (``"exact": true``) in the ``arithmetic`` it names:
    ``"float64"`` from the compiled kernel (``"solver": "compiled"``); with ``exact``
    ``"fraction"`` from :func:`~dicemath.games.pegs_fives.solver.solve_reduced`
    (``"reference"``, also the float64 fallback for rules no compiled kernel implements).

    Raises:
        DicemathError: ``exact`` with more than :data:`FRACTION_MAX_ROWS` open rows.
    """
    from dicemath.games.pegs_fives.fullboard.layout import BoardLayout
    from dicemath.games.pegs_fives.solver import solve_greedy, solve_reduced

    layout = BoardLayout(rules, tuple(open_rows))
    if exact and layout.k > FRACTION_MAX_ROWS:
        raise DicemathError(f"exact fractions are offered up to {FRACTION_MAX_ROWS} open rows (the reference "
                            f"solver takes hours beyond); drop --exact for the compiled float64 solver")
    result = {"game": rules.name, "open_rows": list(layout.rows), "exact": True,
              "arithmetic": "fraction" if exact else "float64", "boards": layout.size}
    values = None if exact else _compiled_values(rules, layout)
    result["solver"] = "reference" if values is None else "compiled"
    if values is None:
        values = [solution.value for solution in (solve_reduced(rules, layout.rows, exact=exact),
                                                  solve_greedy(rules, layout.rows, exact=exact))]
    best, greedy = values
    start = layout.board(0)
    result["expected_turns"] = float(best(start))
    result["greedy_expected_turns"] = float(greedy(start))
    if board is not None:
        result["board"] = list(board)
        result["board_expected_turns"] = float(best(board))
        result["board_greedy_expected_turns"] = float(greedy(board))
    if exact:
        result["expected_turns_exact"] = fraction_text(best(start))
        result["greedy_expected_turns_exact"] = fraction_text(greedy(start))
    return result


def _compiled_values(rules: Rules, layout) -> list | None:
    """Value functions ``board -> expected turns`` of optimal and greedy play from the compiled
    kernel, or None when no compiled kernel implements these rules."""
    from dicemath.core.errors import InvalidRulesError
    from dicemath.games.pegs_fives.fullboard.driver import solve_table

    try:
        tables = [solve_table(rules, layout.rows, policy=policy) for policy in ("optimal", "greedy")]
    except InvalidRulesError:
        return None
    return [lambda board, table=table: float(table[layout.index(board)]) for table in tables]


def run_solve(args) -> int:
    result = solve_result(args.rules, args.open, args.exact, args.board)

    def render(r: dict) -> str:
        return (f"{r['game']}, open rows {r['open_rows']} ({r['boards']} boards, "
                f"{'exact fractions' if r['arithmetic'] == 'fraction' else 'float64'}, {r['solver']} solver):\n"
                f"  optimal: {r['expected_turns']:.6f} expected turns\n"
                f"  greedy:  {r['greedy_expected_turns']:.6f} expected turns"
                + (f"\n  from board {r['board']}: optimal {r['board_expected_turns']:.6f}, "
                   f"greedy {r['board_greedy_expected_turns']:.6f}" if "board" in r else ""))

    emit(result, args.json, render)
    return 0


SESSION_OPTIONS = ("totals", "rounds_left", "starter")
"""The ``advise`` options of a Fives session (FIVES-7), each read with ``--opponent``."""


def advice_of(rules: Rules, args):
    """The :class:`~dicemath.core.advice.Advice` of ``advise``, from the game object the
    command was registered with (``args.game``): from ``STATE``, or from ``--board``/``--roll``
    (and ``--throws``), which name the same state; with ``--opponent`` (and, in Fives, a
    session's ``--totals``, ``--rounds-left``, ``--starter``), the table state of the decision
    (:func:`~dicemath.games.pegs_fives.table_state.table_decision`, the mover in seat 0), whose
    advice plays to win against those boards (race or session advice,
    :func:`~dicemath.games.pegs_fives.game.table_advice`); a table state's text as ``STATE``
    says all of it.

    Raises:
        DicemathError: neither or both forms, a state of another game, ``--objective`` or a
            session option without ``--opponent``, or a bad opponent board, totals or seat.
    """
    from dicemath.games.pegs_fives.state import State
    from dicemath.games.pegs_fives.table_state import table_decision

    game = args.game
    objective = None if args.objective is None else args.objective.replace("-", "_")
    session = {name: getattr(args, name, None) for name in SESSION_OPTIONS}
    given = [f"--{name.replace('_', '-')}" for name, value in session.items() if value is not None]
    if args.opponent is None and (objective is not None or given):
        raise DicemathError(f"{'--objective' if objective is not None else given[0]} needs --opponent (advice "
                            "without opponents minimises your own turns)")
    if args.state is not None:
        if args.board is not None or args.roll is not None or args.throws is not None:
            raise InvalidStateError("STATE says everything: give no --board, --roll or --throws with it")
        state = game.read_state(args.state)
        if state.rules.name != rules.name:
            raise InvalidStateError(f"a {state.rules.name} state given to '{rules.name} advise'")
        if not isinstance(state, State):
            if args.opponent is not None:
                raise InvalidStateError("a table state names every board: give no --opponent with it")
            return game.advise(state, table=args.table)
        if args.opponent is None:
            return game.advise(state, table=args.table)
        if state.current_player() != 0 or state.roll is None:
            raise InvalidStateError(f"no row is to be named in {state}: advice needs a choice throw")
        board, roll = state.board, state.roll
        throws = None if state.throws is None else state.throws + 1
    else:
        if args.board is None or args.roll is None:
            raise DicemathError("give the state's text form, or --board and --roll")
        board, roll, throws = args.board, args.roll, args.throws
        if args.opponent is None:
            from dicemath.games.pegs_fives.state import choice_throw_dice

            return game.advise_throw(board, roll, dice=choice_throw_dice(rules, roll), throws=throws,
                                     table=args.table)
    table = table_decision(rules, board, roll, args.opponent, throws=throws, totals=session["totals"],
                           rounds_left=1 if session["rounds_left"] is None else session["rounds_left"],
                           starter=session["starter"] or 0)
    return game.advise(table, table=args.table, objective=objective)


def run_advise(args) -> int:
    from dicemath.games.pegs_fives.table_state import is_table_text

    rules = args.rules
    advice = advice_of(rules, args)
    result = advice.as_dict()
    if args.opponent is not None or (args.state is not None and is_table_text(args.state)):
        if args.svg:
            raise DicemathError("--svg draws solo advice; give it without --opponent or a table state")
        race = any("race_value" in option for option in result["options"])
        emit(result, args.json, _render_race_advice if race else _render_table_advice)
        return 0
    write_svg(args.svg, lambda: advice_picture(advice, rules), result)

    def render(r: dict) -> str:
        from dicemath.core.dice import throw_text

        estimate = "" if r["exact"] else "est. "
        head = (f"{r['game']} board {','.join(map(str, r['board']))}, roll {throw_text(r['roll'])} "
                f"({'exact' if r['exact'] else 'estimated'} board value {r['board_value']:.2f} turns)")
        if not r["options"]:
            return head + f"\nNo legal row for {throw_text(r['roll'])}: the turn ends."
        table = [[o["row"], o["hits"], f"{o['expected_turns']:.3f}", f"{o['p_no_progress']:.3f}", rank]
                 for rank, o in enumerate(r["options"], 1)]
        note = ("exact: optimal play, from " + ("the table" if r["source"] == "table" else "a solve of this board")
                if r["exact"] else f"estimates from the {r['estimator']} model "
                f"(no exact table covers this board; `dicemath {r['game']} build-table` builds one)")
        return (head + "\n"
                + text_table(["row", "hits", f"{estimate}E[turns after this]", f"{estimate}P(no progress)", "rank"],
                             table)
                + f"\nrecommendation: row {r['recommendation']} (greedy would take {r['greedy_choice']})\n{note}")

    emit(result, args.json, render)
    return 0


def _render_race_advice(r: dict) -> str:
    """Plain text of race advice: every row with its race value and the solo value beside it."""
    from dicemath.core.dice import throw_text

    win = r["objective"] == "win"
    head = (f"{r['game']} board {','.join(map(str, r['board']))}, roll {throw_text(r['roll'])}, against "
            + "; ".join(",".join(map(str, o)) for o in r["opponents"])
            + f": {'P(you finish first)' if win else 'expected rest points, theirs minus yours'}"
            + ("" if r["exact"] else " (estimates)"))
    if not r["options"]:
        return head + f"\nNo legal row for {throw_text(r['roll'])}: the turn ends."
    label = "P(finish first)" if win else "rest-point diff."
    table = [[o["row"], o["hits"], f"{o['race_value']:.4f}" if win else f"{o['race_value']:+.2f}",
              "-" if o["expected_turns"] is None else f"{o['expected_turns']:.3f}", rank]
             for rank, o in enumerate(r["options"], 1)]
    note = (f"exact: the two-player race solved on the {r['race_pairs']:,} pairs of boards reachable from here, "
            "both playing to win" if r["exact"] and r.get("race_triples") is None
            else f"exact: the three-player race solved on the {r['race_triples']:,} triples of boards reachable from "
            "here, every player playing to win" if r["exact"]
            else f"estimates: {r['approximation']}")
    return (head + "\n" + text_table(["row", "hits", label, "solo E[turns after]", "rank"], table)
            + f"\nto win: row {r['race_best']}; solo-optimal: row {r['solo_best']}"
            + (" (the same)" if not r["differs"] else "") + f"\n{note}")


def _render_table_advice(r: dict) -> str:
    """Plain text of session advice (FIVES-7) or other advice at a table: the position when the
    advice gives it, every row with its value in the advice's unit, where the values come from."""
    from dicemath.core.dice import throw_text

    head = r["game"]
    if "board" in r and "roll" in r:
        head += f" board {','.join(map(str, r['board']))}, roll {throw_text(r['roll'])}"
    if r.get("opponents"):
        head += ", against " + "; ".join(",".join(map(str, o)) for o in r["opponents"])
    if r.get("totals") is not None:
        head += f", totals {','.join(map(str, r['totals']))} (yours first), {r.get('rounds_left')} round(s) left"
    head += f": {r['unit']}" + ("" if r["exact"] else " (estimates)")
    if not r["options"]:
        return head + "\nNo legal row: the turn ends."
    table = [[o["action"], o.get("hits", "-"), f"{o['value']:.4f}", rank] for rank, o in enumerate(r["options"], 1)]
    note = f"source: {r['source']}" + (f"; estimates: {r['approximation']}" if r.get("approximation") else "")
    return head + "\n" + text_table(["row", "hits", "value", "rank"], table) + f"\nbest: row {r['best']}\n{note}"


def advice_picture(advice, rules: Rules) -> str:
    """The picture of an advice's state, each legal row's value drawn beside it."""
    from dicemath.games.pegs_fives.drawing import draw
    from dicemath.games.pegs_fives.state import State

    state = State.from_str(advice.state)
    return draw(state, advice if state.current_player() == 0 else None)


def build_table_result(rules: Rules, open_rows=None, *, out=None, scheduler=None, workers=None, dtype=None,
                       policy="optimal", guide=None) -> dict:
    """Build (or resume) a table and return the JSON object of ``build-table``."""
    from dicemath.games.pegs_fives.fullboard.driver import build_table
    from dicemath.games.pegs_fives.fullboard.layout import FULL_ROWS
    from dicemath.games.pegs_fives.fullboard.storage import open_table

    start = time.perf_counter()
    directory = build_table(rules, FULL_ROWS[:rules.rows] if open_rows is None else open_rows, out=out,
                            scheduler=scheduler, workers=workers, dtype=dtype, policy=policy, guide=guide)
    table = open_table(directory, rules)
    try:
        return {"game": rules.name, "open_rows": list(table.layout.rows), "directory": str(directory),
                "policy": policy, "boards": table.layout.size, "dtype": table.dtype,
                "bytes": table.open_values().nbytes, "slabs": table.slab_count,
                "seconds": time.perf_counter() - start, "slab_compute_seconds": table.cpu_seconds,
                "expected_turns": float(table.open_values()[0])}
    finally:
        table.close()


def run_build_table(args) -> int:
    result = build_table_result(args.rules, args.open, out=args.out, scheduler=args.scheduler, workers=args.workers,
                                dtype=args.dtype, policy=args.policy, guide=args.guide)

    def render(r: dict) -> str:
        return (f"{r['game']} table, open rows {r['open_rows']}, {r['policy']}: {r['boards']} boards "
                f"({r['dtype']}, {r['bytes'] / 2**30:.2f} GiB) in {r['directory']}\n"
                f"expected turns from the empty board: {r['expected_turns']:.6f}")

    emit(result, args.json, render)
    return 0


def run_turn(args) -> int:
    from dicemath.games.pegs_fives.turn import turn_outcome

    rules = args.rules
    if rules.rows - sum(1 for s in args.board if s >= rules.goal) > 4:
        raise DicemathError("the exact turn distribution is offered for boards with at most 4 open rows "
                            "(the number of end boards grows quickly); use `advise` on fuller boards")
    outcomes = turn_outcome(rules, args.board, args.roll)
    result = {"game": rules.name, "board": list(args.board), "roll": sorted(args.roll),
              "rows": [{"row": row, "outcomes": [{"board": list(b), "probability": float(d.probability(b)),
                                                  "exact": fraction_text(d.probability(b))}
                                                 for b in sorted(d, key=lambda b: -d[b])]}
                       for row, d in outcomes.items()]}

    def render(r: dict) -> str:
        lines = []
        for entry in r["rows"]:
            lines.append(f"row {entry['row']}:")
            lines.append(text_table(["end board", "probability"],
                                    [[",".join(map(str, o["board"])), f"{o['probability']:.5f}"]
                                     for o in entry["outcomes"][:args.top]]))
        return "\n".join(lines) or "No legal row: the turn ends."

    emit(result, args.json, render)
    return 0


def race_boards(rules: Rules, open_rows, boards) -> tuple | None:
    """The pair of ``race --boards``: each board as 12 steps, or as the open rows' steps only
    (in increasing row order; every other row at the goal).

    Raises:
        DicemathError: a board of another length.
    """
    if boards is None:
        return None
    rows = sorted(set(open_rows))
    pair = []
    for name, board in zip(("MINE", "THEIRS"), boards):
        if len(board) == len(rows) and len(board) != rules.rows:
            full = [rules.goal] * rules.rows
            for row, step in zip(rows, board):
                full[row - 1] = step
            board = full
        elif len(board) != rules.rows:
            raise DicemathError(f"--boards {name} has {len(board)} entries: give {rules.rows} steps or one per open "
                                f"row ({len(rows)})")
        pair.append(tuple(board))
    return tuple(pair)


TABLE_RACE_PLAYERS = (2, 3)
"""The players of the exact race ``race --players`` solves from the empty boards (three: the
reference solver, :func:`~dicemath.games.pegs_fives.race_table.race_table_result`)."""


def run_race(args) -> int:
    rules = args.rules
    if args.players != 2 or args.policies is not None or args.exact:
        return _run_table_race(args)
    if args.open is None:
        if args.boards is not None:
            raise DicemathError("--boards needs --open (the exact race on a reduced board)")
        return _run_simulated_race(args)
    from dicemath.games.pegs_fives.race_solver import check_race_rows, exact_race_result

    rows = check_race_rows(rules, args.open)
    result = exact_race_result(rules, rows, boards=race_boards(rules, rows, args.boards))

    def render(r: dict) -> str:
        lines = [f"{r['game']} race, open rows {r['open_rows']} ({r['boards_per_side']:,} boards a side; "
                 f"float64, compiled kernel)",
                 f"value: {r['value_text']}; the first mover's value from the empty pair:",
                 text_table(["first mover", "second mover", "value"],
                            [[name.split("_vs_")[0], name.split("_vs_")[1], f"{r[name]:.6f}"]
                             for name in ("solo_vs_solo", "race_vs_solo", "solo_vs_race", "race_vs_race")])]
        d = r["differing_decisions"]
        lines.append(f"playing to win differs from solo-optimal play on {d['share_of_choices']:.2%} of the turn-start "
                     f"choices (chance {d['chance_per_turn_start']:.2%} per turn start, averaged over pairs), in "
                     f"{d['pairs_with_a_difference']:,} of {d['pairs']:,} pairs")
        for e in d["examples"][:3]:
            lines.append(f"  e.g. mover {','.join(map(str, e['mover']))} vs {','.join(map(str, e['opponent']))}, "
                         f"throw {e['throw']}: row {e['race_row']} ({e['race_value']:.4f}) rather than solo's row "
                         f"{e['solo_row']} ({e['solo_value']:.4f})")
        if "boards" in r:
            lines.append(f"mover {','.join(map(str, r['boards']['mover']))} vs "
                         f"{','.join(map(str, r['boards']['opponent']))} (both playing to win): {r['value']:.6f}")
        return "\n".join(lines)

    emit(result, args.json, render)
    return 0


def _run_table_race(args) -> int:
    """``race --players 3``: the exact race at a table of three (:mod:`.race_table`)."""
    from dicemath.games.pegs_fives.race_table import race_table_result

    if args.players not in TABLE_RACE_PLAYERS:
        raise DicemathError(f"the exact race is solved for 2 or 3 players; got --players {args.players}")
    if args.players != 3:
        raise DicemathError("--policies and --exact are options of the three-player race: give --players 3")
    if args.open is None:
        raise DicemathError("--players 3 needs --open (the exact race on a reduced board)")
    if args.boards is not None:
        raise DicemathError("--boards gives a pair of the two-player race; it is not an option of --players 3")
    policies = None if args.policies is None else [name.strip() for name in args.policies.split(",")]
    result = race_table_result(args.rules, args.open, players=3, policies=policies, exact=args.exact)

    def render(r: dict) -> str:
        pegs = "win_probabilities" in r
        columns = [r["win_probabilities"]] if pegs else [r["expected_rest_points"], r["objectives"]]
        lines = [f"{r['game']} race of {r['players']} players, open rows {r['open_rows']} ({r['tuples']:,} tuples of "
                 f"unfinished boards; {'exact fractions' if r['arithmetic'] == 'fraction' else 'float64'}, "
                 f"reference solver)",
                 f"value: {r['value_text']}",
                 text_table(["seat", "policy", *(["P(finish first)"] if pegs else ["E[rest points]", "objective"])],
                            [[f"seat {seat}", policy, *(f"{column[seat]:.6f}" for column in columns)]
                             for seat, policy in enumerate(r["policies"])])]
        t = r["tie_decisions"]
        lines.append(f"ties: {t['ties']:,} of {t['choices']:,} choices of race players tie on the mover's own value; "
                     f"the lowest row decided {t['deciding']:,} that change another player's value")
        return "\n".join(lines)

    emit(result, args.json, render)
    return 0


def _run_simulated_race(args) -> int:
    """``fives race`` without ``--open``: simulated races, advisor vs greedy (:mod:`.races`)."""
    from dicemath.games.pegs_fives.races import race_result

    if not 1 <= args.games <= MAX_SIMULATED_RACES:
        raise DicemathError(f"--games must be 1..{MAX_SIMULATED_RACES}, got {args.games}")
    result = race_result(FIVES, games=args.games, seed=args.seed)

    def render(r: dict) -> str:
        return "\n".join(f"{k}: {v}" for k, v in r.items())

    emit(result, args.json, render)
    return 0


def read_show_state(rules: Rules, text: str):
    """The state ``show`` shows: ``"start"``, a board (the start of a turn on it, as
    ``"0,0,3,..."``) or a state's text form (:meth:`~.state.State.from_str`) of ``rules``' game.

    Raises:
        InvalidStateError: unreadable text, a board the rules cannot hold, or a state of the
            other game.
    """
    from dicemath.games.pegs_fives.state import State, initial_state, read_board

    if is_start(text):
        return initial_state(rules)
    if "|" not in text:
        return initial_state(rules, read_board(rules, text))
    state = State.from_str(text)
    if state.rules.name != rules.name:
        raise InvalidStateError(f"{text!r} is a state of {state.rules.name}: show it with "
                                f"`dicemath {state.rules.name} show`")
    return state


def run_show(args) -> int:
    from dicemath.games.pegs_fives.rules import variant_text
    from dicemath.games.pegs_fives.view import view

    state = read_show_state(args.rules, args.state)
    return show_state(args, args.rules.name, state, view(state), ("player",), rules=variant_text(state.rules),
                      board=list(state.board), turns=state.turns, dice=state.dice, throws=state.throws,
                      row=state.row, count=state.count, roll=None if state.roll is None else list(state.roll),
                      over=state.over)
