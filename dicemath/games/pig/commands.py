"""``dicemath pig``: the solved game, roll-or-hold advice, the policy card, any state shown.

Commands (each takes ``--goal`` and ``--json``):

- ``rules``: the rules (docs/rules.md section 6).
- ``game``: P(each player wins) from the start with optimal play (``win_probabilities``,
  player 0 first, PIG-7), the hold threshold at the start, and how the solve went.
- ``advise STATE [--svg FILE]``: the win probability of rolling and of holding, the game's
  advice (:meth:`~dicemath.core.game.Game.advise`; the JSON envelope of
  :class:`~dicemath.core.advice.Advice`). ``STATE`` is the text form of
  :class:`~dicemath.games.pig.state.State` (``"1:35-62 t12 choose"``) or ``start``.
- ``policy [--step 10]``: the hold thresholds (:func:`~dicemath.games.pig.advice.policy_card`).
- ``show STATE``: the text view and the legal moves (``--svg FILE``: the picture).

Bad input raises a :class:`~dicemath.core.errors.DicemathError` (the command line exits 2).
"""

from __future__ import annotations

import argparse

from dicemath.core.commands import (
    add_json_flag,
    add_game_command,
    add_show_command,
    add_state_argument,
    add_svg_option,
    emit,
    show_state,
    write_svg,
)
from dicemath.core.errors import InvalidStateError
from dicemath.games.pig.rules import STANDARD, Rules
from dicemath.games.pig.state import PLAYER_NAMES, parse_state

EXAMPLE = "1:35-62 t12 choose"
"""A state's text form, for the help."""

PUBLISHED = 0.5306
"""P(first player wins) with optimal play to 100, as Neller and Presser (2004) print it."""


def _goal(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--goal", type=int, default=None,
                        help=f"the score that wins (PIG-1; default {STANDARD.goal}, or the goal a STATE names)")


def _rules(args) -> Rules:
    return STANDARD if args.goal is None else Rules(goal=args.goal)


def register(subparsers, game) -> None:
    """Add ``dicemath pig rules|game|advise|policy|show``.

    Args:
        subparsers: the ``dicemath`` parser's sub-parsers.
        game: the Pig :class:`~dicemath.core.game.Game` (its ``rules_headings`` give
            ``rules``), passed by its :meth:`~dicemath.core.game.Game.register_commands`.
    """
    parser, commands = add_game_command(subparsers, game, "Pig: optimal roll-or-hold play and the chance to win")

    whole = commands.add_parser("game", help="P(each player wins) from the start, both playing optimally")
    _goal(whole)
    add_json_flag(whole)
    whole.set_defaults(func=run_game)

    advise = commands.add_parser("advise", help="roll or hold? the win probability of each")
    add_state_argument(advise, EXAMPLE)
    _goal(advise)
    add_svg_option(advise)
    add_json_flag(advise)
    advise.set_defaults(func=run_advise, pig_game=game)

    policy = commands.add_parser("policy", help="the policy card: the turn total to hold at, by score")
    _goal(policy)
    policy.add_argument("--step", type=int, default=10, help="the score step of the printed grid (default 10)")
    add_json_flag(policy)
    policy.set_defaults(func=run_policy)

    show = add_show_command(commands, f"a state's text form, e.g. {EXAMPLE!r}, or 'start' (with --goal)")
    _goal(show)
    show.set_defaults(func=run_show)


def game_result(rules: Rules = STANDARD) -> dict:
    """The JSON object of ``game``: ``game``, ``rules``, ``win_probabilities`` (player 0, who
    starts, then player 1), ``hold_at_start`` (the hold threshold at 0-0), ``published`` (Neller
    and Presser's figure, goal 100 only), ``states``, ``layers``, ``sweeps``, ``tolerance``,
    ``solve_seconds`` (the wall-clock time of the solve).

    Example:
        >>> r = game_result(Rules(goal=10))
        >>> [round(p, 4) for p in r["win_probabilities"]], r["hold_at_start"]
        ([0.7094, 0.2906], 10)
    """
    from dicemath.games.pig.solver import solve

    solution = solve(rules)
    first = solution.first_player_win_probability
    return {"game": "pig", "rules": {"goal": rules.goal}, "win_probabilities": [first, 1.0 - first],
            "hold_at_start": solution.hold_threshold(0, 0),
            "published": PUBLISHED if rules == STANDARD else None,
            "states": solution.states, "layers": len(solution.sweeps), "sweeps": sum(solution.sweeps),
            "tolerance": solution.tolerance,
            "solve_seconds": solution.seconds}


def _render_game(r: dict) -> str:
    first, second = r["win_probabilities"]
    lines = [f"Pig to {r['rules']['goal']}, both players optimal:",
             f"  P(player 0 wins, rolls first) = {first:.6f}",
             f"  P(player 1 wins)              = {second:.6f}",
             f"  hold at the start once the turn total reaches {r['hold_at_start']}"]
    if r["published"] is not None:
        lines.append(f"  published (Neller and Presser 2004): {r['published']:.4f}")
    lines.append(f"  {r['states']:,} decision states, {r['layers']} layers, {r['sweeps']:,} sweeps to "
                 f"{r['tolerance']:g}")
    return "\n".join(lines)


def run_game(args) -> int:
    emit(game_result(_rules(args)), args.json, _render_game)
    return 0


def _state(args):
    if args.state is None:
        raise InvalidStateError(f"give a STATE: its text form (e.g. {EXAMPLE!r}) or 'start'")
    return parse_state(args.state, args.goal)


def _render_advise(r: dict) -> str:
    lines = [f"{r['state']}: {r['to_move']} to move, win probability (optimal play from here):"]
    lines += [f"  {o['action']:<4}  {o['value']:.6f}{'  <- best' if k == 0 else ''}"
              for k, o in enumerate(r["options"])]
    lines.append(f"  (hold at {r['hold_at']} with these scores; {'exact' if r['exact'] else 'estimates'}: "
                 f"{r['source']})")
    return "\n".join(lines)


def run_advise(args) -> int:
    state = _state(args)
    advice = args.pig_game.advise(state)
    result = advice.as_dict()
    write_svg(args.svg, lambda: args.pig_game.draw(state, advice), result)
    emit(result, args.json, _render_advise)
    return 0


def run_policy(args) -> int:
    from dicemath.games.pig.advice import policy_card

    card = policy_card(_rules(args), args.step)
    emit(card.as_dict(), args.json, lambda _: str(card))
    return 0


def run_show(args) -> int:
    state = _state(args)
    return show_state(args, "pig", state, state.diagram(), PLAYER_NAMES, rules={"goal": state.rules.goal},
                      scores=list(state.scores), turn_total=state.turn_total, phase=state.phase)
