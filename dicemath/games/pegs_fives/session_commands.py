"""``dicemath fives session``: the exact two-player session on a reduced board (FIVES-7).

``--open ROWS --rounds R --lead D`` prints ``W_R(D)``, the probability that the player who
moves first in this round wins the session, the boards fresh on the open rows in every round
(:func:`.session.session_result`, its keys with ``--json``); bad input exits 2.

Example:
    ``dicemath fives session --open 1,2 --rounds 2 --lead -10 --json``
"""

from __future__ import annotations

from dicemath.core.commands import add_json_flag, emit, int_list
from dicemath.games.pegs_fives.limits import RACE_MAX_ROWS, SESSION_MAX_ROUNDS, SESSION_STARTS
from dicemath.games.pegs_fives.rules import Rules


def register_session(commands, rules: Rules) -> None:
    """Add ``session`` to a game's sub-commands ``commands`` when ``rules`` score rest points
    (Fives, FIVES-6/7); Pegs has no sessions."""
    if rules.scoring != "rest_points":
        return
    session = commands.add_parser("session", help="the exact two-player session on a reduced board: the first "
                                                  "mover's chance to win it, both playing to win (FIVES-7)")
    session.add_argument("--open", type=int_list, required=True,
                         help=f"the numbers every round starts fresh on, e.g. 1,2,3 (at most {RACE_MAX_ROWS})")
    session.add_argument("--rounds", type=int, required=True,
                         help=f"rounds left, this one included (1..{SESSION_MAX_ROUNDS})")
    session.add_argument("--lead", type=int, default=0,
                         help="the first mover's lead: the opponent's total minus his (default 0)")
    session.add_argument("--start", choices=SESSION_STARTS, default="rotating",
                         help="who starts the next round: the next seat (rotating, the FIVES-7 decision) or the "
                              "same player (fixed, a variant)")
    session.add_argument("--exact", action="store_true",
                         help="exact fractions by the plain-Python race (at most 3 open rows; slow beyond one)")
    add_json_flag(session)
    session.set_defaults(func=run_session)


def run_session(args) -> int:
    """Print the session's ``win_probability`` (JSON with ``--json``)."""
    from dicemath.games.pegs_fives.session import session_result      # the solvers load when asked

    result = session_result(args.rules, args.open, args.rounds, args.lead, exact=args.exact, start=args.start)

    def render(r: dict) -> str:
        value = r.get("exact_fraction", f"{r['win_probability']:.9f}")
        return "\n".join([
            f"{r['game']} session, open rows {r['open_rows']}, {r['rounds']} round(s) left, lead {r['lead']:+d} "
            f"(start {r['start']}; {r['arithmetic']}, exact solution)",
            f"the first mover wins the session with probability {value}",
            f"({r['rounds_solved']} rounds solved; a fresh board holds {r['fresh_rest_points']} rest points)"])

    emit(result, args.json, render)
    return 0
