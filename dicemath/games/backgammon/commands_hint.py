"""``dicemath backgammon hint POSITION_ID D1 D2``: every legal play ranked, the game's advice.

The plays are the options of :meth:`BACKGAMMON_GAME.advise <dicemath.core.game.Game.advise>`
at the play of the roll (its chain of sources, :func:`~dicemath.games.backgammon.advice.sources`).
``--json`` keys: ``position_id``, ``dice``, ``rules``, ``ply``, ``moves`` (best first; each
``{move, equity, probabilities, ply, source, position_id}``, see
:class:`~dicemath.games.backgammon.hint.MoveValue`). Under ``--rules playtive`` only the
plays BG-4's 5-checker limit allows are listed.
"""

from __future__ import annotations

from dicemath.core.commands import add_json_flag, add_svg_option, emit, text_table, write_svg
from dicemath.core.game import Game
from dicemath.games.backgammon.position import Position
from dicemath.games.backgammon.rules import PRESETS, rules_named
from dicemath.games.backgammon.state import PLAY, State


def add_hint_command(commands) -> None:
    """Add the ``hint`` sub-parser to the ``backgammon`` sub-command ``commands``."""
    hint = commands.add_parser("hint", help="rank every legal play of a roll by the evaluator's equity")
    hint.add_argument("position_id", help="GNU Backgammon Position ID (player on roll to move) or an XGID")
    hint.add_argument("dice", type=int, nargs=2, help="the two dice")
    hint.add_argument("--rules", choices=sorted(PRESETS), default="standard")
    hint.add_argument("--ply", type=int, default=0, help="look-ahead 0..3 (default 0)")
    add_svg_option(hint)
    add_json_flag(hint)
    hint.set_defaults(func=run_hint)


def hint_result(game: Game, position_id: str, dice, rules_name: str = "standard", ply: int = 0) -> dict:
    """The JSON object of ``dicemath backgammon hint`` (see the module docstring): the options of
    ``game.advise`` (``game`` is the Backgammon :class:`~dicemath.core.game.Game`) at the play.

    Raises:
        InvalidStateError: an unreadable position, a finished game, unknown rules, a bad ply.
        InvalidDiceError: bad dice.
        GnubgUnavailableError: a position with contact and no gnubg.
    """
    state = State(Position.from_str(position_id), rules_named(rules_name), PLAY, dice)
    advice = game.advise(state, ply=ply)
    return {"position_id": state.position.position_id(), "dice": list(dice), "rules": rules_name, "ply": ply,
            "moves": [dict(option.extras) for option in advice.options]}


def _render(result: dict) -> str:
    best = result["moves"][0]["equity"] if result["moves"] else 0.0
    rows = [[i, m["move"], f"{m['equity']:+.4f}", f"{m['equity'] - best:+.4f}", f"{m['probabilities']['win']:.3f}",
             f"{m['probabilities']['win_gammon']:.3f}", f"{m['probabilities']['lose_gammon']:.3f}", m["source"]]
            for i, m in enumerate(result["moves"], 1)]
    title = (f"{len(rows)} legal plays of {result['dice'][0]}-{result['dice'][1]} in {result['position_id']} "
             f"({result['rules']}), cubeless money equity of the mover")
    return title + "\n" + text_table(["#", "move", "equity", "diff", "win", "gammon", "lose g.", "source"], rows)


def hint_picture(position_id: str, dice, rules_name: str, result: dict) -> str:
    """The position with the dice to play, the ranked plays of ``result`` (a
    :func:`hint_result`) drawn on it."""
    from dicemath.games.backgammon.advice import play_advice
    from dicemath.games.backgammon.drawing import draw
    from dicemath.games.backgammon.evaluate import OUTPUTS
    from dicemath.games.backgammon.hint import MoveValue

    state = State(Position.from_str(position_id), rules_named(rules_name), PLAY, dice)
    moves = [MoveValue(m["move"], m["equity"], tuple(m["probabilities"][k] for k in OUTPUTS), m["ply"],
                       m["source"], m["position_id"]) for m in result["moves"]]
    return draw(state, play_advice(state, moves))


def run_hint(args) -> int:
    """Handler of ``dicemath backgammon hint``; returns the exit code."""
    result = hint_result(args.game, args.position_id, args.dice, args.rules, args.ply)
    write_svg(args.svg, lambda: hint_picture(args.position_id, args.dice, args.rules, result), result)
    emit(result, args.json, _render)
    return 0
