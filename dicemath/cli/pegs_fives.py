"""``dicemath pegs ...`` and ``dicemath fives ...``: rows, turn, solve, advise (and race).

Every query has ``--json`` with stable keys; plain output is a readable table.
"""

from __future__ import annotations

from dicemath.cli.support import add_json_flag, add_rules_command, emit, fraction_text, int_list, text_table
from dicemath.core.errors import DicemathError
from dicemath.games.pegs_fives.rules import FIVES, PEGS, Rules


def register(subparsers) -> None:
    """Add the ``pegs`` and ``fives`` sub-commands."""
    for rules, text in ((PEGS, "Pegs (popnagels): expected turns, optimal rows, the row advisor"),
                        (FIVES, "Fives (every number five times): expected turns, optimal rows, advisor, races")):
        game = subparsers.add_parser(rules.name, help=text)
        game.set_defaults(rules=rules)
        commands = game.add_subparsers(dest=f"{rules.name}_command", metavar="QUERY", required=True)
        add_rules_command(commands, rules.name)

        rows = commands.add_parser("rows", help="exact expected turns to finish each row alone")
        add_json_flag(rows)
        rows.set_defaults(func=run_rows)

        solve = commands.add_parser("solve", help="exact optimal play on a reduced board")
        solve.add_argument("--open", type=int_list, required=True, help="open rows, e.g. 6,7,8")
        solve.add_argument("--exact", action="store_true", help="exact fractions (slower; default up to 2 rows)")
        solve.add_argument("--board", type=int_list, default=None,
                           help="also give the value of this board (12 steps; closed rows at the goal)")
        add_json_flag(solve)
        solve.set_defaults(func=run_solve)

        advise = commands.add_parser("advise", help="rank the legal rows after a choice throw")
        advise.add_argument("--board", type=int_list, required=True, help="12 comma-separated steps/marks")
        advise.add_argument("--roll", type=int_list, required=True, help="the choice throw, e.g. 3,3,3,5,6,2")
        advise.add_argument("--throws", type=int, default=None,
                            help="throws left before this throw (Pegs; default 3). In Pegs a roll of "
                                 "fewer than 6 dice is a choice throw with the dice left (PEGS-7)")
        add_json_flag(advise)
        advise.set_defaults(func=run_advise)

        turn = commands.add_parser("turn", help="exact end-of-turn distribution for each legal row")
        turn.add_argument("--board", type=int_list, required=True, help="12 comma-separated steps/marks")
        turn.add_argument("--roll", type=int_list, required=True, help="the choice throw")
        turn.add_argument("--top", type=int, default=8, help="end boards shown per row (plain output)")
        add_json_flag(turn)
        turn.set_defaults(func=run_turn)

        if rules is FIVES:
            race = commands.add_parser("race", help="simulate two-player races: advisor vs greedy")
            race.add_argument("--games", type=int, default=200, help="number of races (default 200)")
            race.add_argument("--seed", type=int, default=0)
            add_json_flag(race)
            race.set_defaults(func=run_race)


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
    (``board_expected_turns`` / ``board_greedy_expected_turns`` when ``board`` is given)."""
    from dicemath.games.pegs_fives.solver import solve_greedy, solve_reduced

    exact = exact or len(set(open_rows)) <= 2
    best = solve_reduced(rules, open_rows, exact=exact)
    greedy = solve_greedy(rules, open_rows, exact=exact)
    result = {
        "game": rules.name,
        "open_rows": list(best.open_rows),
        "exact": exact,
        "expected_turns": float(best.expected_turns),
        "greedy_expected_turns": float(greedy.expected_turns),
        "boards": len(best.values),
    }
    if board is not None:
        result["board"] = list(board)
        result["board_expected_turns"] = float(best.value(board))
        result["board_greedy_expected_turns"] = float(greedy.value(board))
    if exact:
        result["expected_turns_exact"] = fraction_text(best.expected_turns)
        result["greedy_expected_turns_exact"] = fraction_text(greedy.expected_turns)
    return result


def run_solve(args) -> int:
    result = solve_result(args.rules, args.open, args.exact, args.board)

    def render(r: dict) -> str:
        return (f"{r['game']}, open rows {r['open_rows']} ({r['boards']} boards, "
                f"{'exact' if r['exact'] else 'float64'}):\n"
                f"  optimal: {r['expected_turns']:.6f} expected turns\n"
                f"  greedy:  {r['greedy_expected_turns']:.6f} expected turns"
                + (f"\n  from board {r['board']}: optimal {r['board_expected_turns']:.6f}, "
                   f"greedy {r['board_greedy_expected_turns']:.6f}" if "board" in r else ""))

    emit(result, args.json, render)
    return 0


def run_advise(args) -> int:
    from dicemath.games.pegs_fives.advisor import advise_result

    rules = args.rules
    # A Pegs choice throw after a row went in (PEGS-7) uses the dice that were left.
    dice = len(args.roll) if rules.on_complete == "remaining" and 1 <= len(args.roll) < rules.dice else None
    result = advise_result(rules, args.board, args.roll, dice=dice, throws=args.throws)

    def render(r: dict) -> str:
        if not r["options"]:
            return f"No legal row for {r['roll']}: the turn ends."
        rank = {row: i + 1 for i, row in enumerate(r["ranking"])}
        table = [[o["row"], o["hits"], f"{o['expected_turns']:.3f}", f"{o['p_no_progress']:.3f}", rank[o["row"]]]
                 for o in r["options"]]
        return (f"{r['game']} board {','.join(map(str, r['board']))}, roll {r['roll']} "
                f"(board value {r['board_value']:.2f} turns)\n"
                + text_table(["row", "hits", "E[turns after this]", "P(no progress)", "rank"], table)
                + f"\nrecommendation: row {r['recommendation']} (greedy would take {r['greedy_choice']})")

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


def run_race(args) -> int:
    from dicemath.games.pegs_fives.races import race_result

    result = race_result(FIVES, games=args.games, seed=args.seed)

    def render(r: dict) -> str:
        return "\n".join(f"{k}: {v}" for k, v in r.items())

    emit(result, args.json, render)
    return 0
