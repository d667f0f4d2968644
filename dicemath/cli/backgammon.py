"""``dicemath backgammon``: bear-off tables, legal moves, board diagrams (and the cube).

Home boards are written as checker counts on points 1..6, the 1-point first
(``0,0,0,0,0,2`` is two checkers on the 6-point).
"""

from __future__ import annotations

from dicemath.cli.backgammon_cube import add_cube_command
from dicemath.cli.backgammon_hint import add_hint_command
from dicemath.cli.support import add_json_flag, emit, int_list, text_table
from dicemath.core.errors import InvalidStateError
from dicemath.games.backgammon import bearoff as bo
from dicemath.games.backgammon.diagram import diagram
from dicemath.games.backgammon.moves import legal_moves
from dicemath.games.backgammon.position import Position
from dicemath.games.backgammon.position_id import xgid_position_field
from dicemath.games.backgammon.race import effective_pip_count, one_sided_win_probability, pip_count
from dicemath.games.backgammon.rules import PRESETS, rules_named

EXACT_TWO_SIDED_LIMIT = 8
"""Largest checker count per side answered from the exact two-sided table on the command line."""


def register(subparsers) -> None:
    """Add ``dicemath backgammon bearoff|moves|show|cube|hint``."""
    parser = subparsers.add_parser("backgammon", help="Backgammon: bear-off tables, legal moves, cube")
    commands = parser.add_subparsers(dest="backgammon_command", metavar="QUERY", required=True)

    bearoff = commands.add_parser("bearoff", help="one-sided bear-off distribution, or win chance --versus")
    bearoff.add_argument("board", type=int_list, help="checker counts on points 1..6, e.g. 0,0,0,0,0,2")
    bearoff.add_argument("--versus", type=int_list, default=None,
                         help="the opponent's home board: two-sided, the first board is on roll")
    bearoff.add_argument("--rules", choices=sorted(PRESETS), default="standard")
    add_json_flag(bearoff)
    bearoff.set_defaults(func=run_bearoff)

    moves = commands.add_parser("moves", help="legal moves of a roll in a GNU Backgammon Position ID")
    moves.add_argument("position_id", help="GNU Backgammon Position ID (player on roll to move) or an XGID")
    moves.add_argument("dice", type=int, nargs=2, help="the two dice")
    moves.add_argument("--rules", choices=sorted(PRESETS), default="standard")
    add_json_flag(moves)
    moves.set_defaults(func=run_moves)

    show = commands.add_parser("show", help="text diagram of a Position ID or XGID")
    show.add_argument("position_id")
    add_json_flag(show)
    show.set_defaults(func=run_show)

    add_cube_command(commands)
    add_hint_command(commands)


def bearoff_result(board, versus=None, rules_name: str = "standard") -> dict:
    """The JSON object of ``dicemath backgammon bearoff``.

    One-sided keys: ``board``, ``rules``, ``pip_count``, ``mean_rolls``, ``distribution``
    (P(n rolls), n = 0..), ``effective_pip_count``, ``gammon_mean_rolls``.
    Two-sided (``versus``) adds ``versus``, ``win_probability`` (exact, player on roll),
    ``one_sided_approximation`` and ``versus_mean_rolls``.

    Raises:
        InvalidStateError: a bad board, or more than 8 checkers a side with ``versus``.
    """
    rules = rules_named(rules_name)
    board = bo.check_board(board)
    table = bo.one_sided_table(rules)
    result = {
        "board": list(board),
        "rules": rules.name,
        "pip_count": pip_count(board),
        "mean_rolls": table.mean_rolls(board),
        "distribution": table.rolls_distribution(board).tolist(),
        "effective_pip_count": effective_pip_count(board, rules),
        "gammon_mean_rolls": float(table.gammon_mean[bo.position_index(board)]),
    }
    if versus is not None:
        versus = bo.check_board(versus)
        if sum(board) == 0 or sum(versus) == 0:
            raise InvalidStateError("both home boards need at least one checker for a two-sided query")
        if max(sum(board), sum(versus)) > EXACT_TWO_SIDED_LIMIT:
            raise InvalidStateError(f"exact two-sided values go up to {EXACT_TWO_SIDED_LIMIT} checkers a side; "
                                    f"got {sum(board)} and {sum(versus)}")
        result.update({
            "versus": list(versus),
            "win_probability": bo.win_probability(board, versus, rules),
            "one_sided_approximation": one_sided_win_probability(board, versus, rules),
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
                     f"(one-sided approximation {result['one_sided_approximation']:.6f})")
    return "\n".join(lines)


def run_bearoff(args) -> int:
    emit(bearoff_result(args.board, args.versus, args.rules), args.json, _render_bearoff)
    return 0


def moves_result(position_id: str, dice, rules_name: str = "standard") -> dict:
    """The JSON object of ``dicemath backgammon moves``: keys ``position_id``, ``dice``,
    ``rules``, ``moves`` (list of ``{"move", "position_id"}``, the resulting position with
    the opponent on roll)."""
    rules = rules_named(rules_name)
    position = Position.from_str(position_id)
    moves = legal_moves(position, dice, rules)
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


def run_show(args) -> int:
    position = Position.from_str(args.position_id)
    result = {"position_id": position.position_id(), "xgid_position": xgid_position_field(position),
              "diagram": diagram(position),
              "pip_count": position.pip_count(), "opponent_pip_count": position.opponent_pip_count()}
    emit(result, args.json, lambda r: r["diagram"])
    return 0
