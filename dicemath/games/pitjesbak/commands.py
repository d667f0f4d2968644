"""``dicemath pitjesbak``: throw classes, round and game solutions, advice, policy card.

Sub-commands: ``classes``, ``round``, ``game``, ``advise``, ``card``, ``simulate``, ``show``;
each takes ``--json`` (stable keys).
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from dicemath.core.commands import (
    add_json_flag, add_game_command, add_show_command, add_state_argument, add_svg_option, emit, fraction_text,
    int_list, is_start, show_state, text_table, write_svg)
from dicemath.core.errors import InvalidStateError
from dicemath.games.pitjesbak.rules import DIE_VALUE_VARIANTS, Rules

if TYPE_CHECKING:
    from dicemath.core.advice import Advice
    from dicemath.core.game import Game
    from dicemath.games.pitjesbak.state import State

MAX_SIMULATED_GAMES = 100_000
"""The most games ``simulate`` plays (bounded so that a simulation ends in about a minute)."""

MAX_STRIPES = 20
"""The most stripes any ``pitjesbak`` command takes, a player's at the start (``--stripes``,
PIT-1) or left (``--stripes-left``, ``--my-stripes``, a state's text): the solves behind the
commands grow with the stripes (the two-player game solution holds every count up to the
starting stripes plus 8), so more is refused up front."""


def check_stripes_bound(counts: Iterable[Any], name: str = "stripes") -> None:
    """Refuse a stripe count above :data:`MAX_STRIPES` (the other checks are the rules').

    Raises:
        InvalidStateError: a count above the bound.

    Example:
        >>> check_stripes_bound([9, 21], "--stripes-left")
        Traceback (most recent call last):
        ...
        dicemath.core.errors.InvalidStateError: --stripes-left: at most 20 stripes (MAX_STRIPES), got 21
    """
    for count in counts:
        if isinstance(count, int) and count > MAX_STRIPES:
            raise InvalidStateError(f"{name}: at most {MAX_STRIPES} stripes (MAX_STRIPES), got {count}")


def _bounded_state(state: State) -> State:
    """``state`` if its starting stripes and every player's stripes are within :data:`MAX_STRIPES`."""
    check_stripes_bound([state.rules.stripes], "the state's starting stripes")
    check_stripes_bound(state.stripes, "the state's stripes")
    return state


def _rules_args(parser, players: bool = False) -> None:
    parser.add_argument("--die-values", choices=DIE_VALUE_VARIANTS, default="traditional",
                        help="die values (PIT-2): traditional 1=100, 6=60, or plain pips")
    parser.add_argument("--stripes", type=int, default=9, help=f"starting stripes 1..{MAX_STRIPES} (PIT-1)")
    if players:
        parser.add_argument("--players", type=int, default=2, help="number of players 2..8")


def _rules(args, players: int = 2) -> Rules:
    check_stripes_bound([args.stripes], "--stripes")
    return Rules(players=getattr(args, "players", players), stripes=args.stripes,
                          die_values=args.die_values)


def register(subparsers, game) -> None:
    """Add ``dicemath pitjesbak`` and its queries.

    Args:
        subparsers: the ``dicemath`` parser's sub-parsers.
        game: the Pitjesbak :class:`~dicemath.core.game.Game` (its ``rules_headings`` give
            ``rules``), passed by its :meth:`~dicemath.core.game.Game.register_commands`.
    """
    parser, commands = add_game_command(subparsers, game, "Pitjesbak: throw classes, optimal stopping, advice")

    classes = commands.add_parser("classes", help="exact probability of every throw class")
    _rules_args(classes)
    add_json_flag(classes)
    classes.set_defaults(func=run_classes)

    round_ = commands.add_parser("round", help="round-optimal policies and win chance by seat")
    _rules_args(round_, players=True)
    round_.add_argument("--wiped", type=int_list, default=None,
                        help="has-wiped flags by turn position, e.g. 0,1,0 (default none)")
    round_.add_argument("--exact", action="store_true", help="exact fractions for any number of players")
    add_json_flag(round_)
    round_.set_defaults(func=run_round)

    whole = commands.add_parser("game", help="game-optimal play: P(first start player wins)")
    _rules_args(whole, players=True)
    whole.add_argument("--no-cache", action="store_true", help="solve afresh, ignore the cache")
    add_json_flag(whole)
    whole.set_defaults(func=run_game)

    advise = commands.add_parser(
        "advise", help="stop or throw again? game-optimal, any table of 2..8 players",
        description="Stop or throw again? P(win the game) if you stop and if you throw again, every player "
                    "game-optimal from here (exact for 2..4 players, estimates for 5..8). Describe the table "
                    "(--stripes-left, --wiped, --position, --before, --limit, --throw, --throws-used), or give a "
                    "state's text form (STATE), or use the two-player options (--my-stripes ... --role ...).")
    _rules_args(advise)
    add_state_argument(advise, "[0:9 1:9] round 0 start 0 order 0,1 turn 0 limit 0 throws 1 current 456 results - "
                               "rolloff - winner - | last winner - limit 0 results - | 2 players 9 stripes traditional")
    table = advise.add_argument_group("any table (turn order from this round's start player)")
    table.add_argument("--stripes-left", type=int_list, default=None, metavar="A,B,...",
                       help="every player's stripes in turn order from this round's start player, e.g. 4,9,1,3,6 "
                            "(--stripes is the starting count, PIT-1)")
    table.add_argument("--wiped", type=int_list, default=None, metavar="0,1,...",
                       help="has-wiped flags in the same order, 1 for a player who has won a round (default none)")
    table.add_argument("--position", type=int, default=None,
                       help="my turn position this round: 0 = the start player")
    table.add_argument("--before", default=None, metavar="T,T,...",
                       help="the counting throws of the players before me in turn order, 'out' for one put out by "
                            "1-1-1 this round, e.g. 5-5-5,6-6-2")
    two = advise.add_argument_group("two players (a shorter form of the same question)")
    two.add_argument("--my-stripes", type=int)
    two.add_argument("--my-wiped", action="store_true", help="I have wiped a stripe before")
    two.add_argument("--their-stripes", type=int)
    two.add_argument("--their-wiped", action="store_true", help="the other has wiped before")
    two.add_argument("--role", choices=("start", "follower"))
    two.add_argument("--best", default=None, help="follower: the start player's counting throw")
    both = advise.add_argument_group("both forms")
    both.add_argument("--throw", "--current", dest="current", default=None, help="my current throw, e.g. 6-6-2")
    both.add_argument("--throws-used", "--throw-number", dest="throw_number", type=int, default=None,
                      help="the throws I have used this turn, the current one included (1..3, PIT-4)")
    both.add_argument("--limit", type=int, default=None,
                      help="followers: the throws the start player used this round (PIT-4; two players: "
                           "default 3)")
    add_svg_option(advise)
    add_json_flag(advise)
    advise.set_defaults(func=run_advise, pitjesbak_game=game)

    card = commands.add_parser("card", help="policy card: when to stop, by turn position (any table)")
    _rules_args(card, players=True)
    card.add_argument("--state", type=int_list, default=None,
                      help="two players: start stripes, start flag, follower stripes, follower flag, e.g. 3,1,9,0")
    card.add_argument("--stripes-left", type=int_list, default=None, metavar="A,B,...",
                      help="any table: every player's stripes in turn order from the start player")
    card.add_argument("--wiped", type=int_list, default=None, metavar="0,1,...",
                      help="with --stripes-left: the has-wiped flags (default none)")
    add_json_flag(card)
    card.set_defaults(func=run_card)

    sim = commands.add_parser("simulate", help="simulate games with round-optimal play")
    _rules_args(sim, players=True)
    sim.add_argument("--games", type=int, default=1000, help=f"games to simulate, 1..{MAX_SIMULATED_GAMES:,}")
    sim.add_argument("--seed", type=int, default=0)
    add_json_flag(sim)
    sim.set_defaults(func=run_simulate)

    show = add_show_command(commands, "a state's text form, e.g. '[0:9 1:9] round 0 start 0 order 0,1 turn 0 limit 0 "
                                      "throws 1 current 235 results - rolloff - winner - | last winner - limit 0 "
                                      "results - | 2 players 9 stripes traditional', or 'start' (a new game of "
                                      "--players, --stripes, --die-values)")
    _rules_args(show, players=True)
    show.set_defaults(func=run_show)


def classes_result(rules: Rules) -> dict:
    """JSON of ``classes``: keys die_values, denominator (216), classes (label, kind, rank,
    wipe, penalty, weight, probability, exact (reduced), of_216, throws), total_weight."""
    from dicemath.core.dice import throw_text
    from dicemath.games.pitjesbak.throws import THROW_TOTAL, class_rows
    rows = []
    for row in class_rows(rules):
        c = row.throw_class
        rows.append({"label": c.label, "kind": c.kind, "rank": c.rank, "wipe": c.wipe,
                     "penalty": c.penalty, "weight": row.weight, "probability": float(row.probability),
                     "exact": fraction_text(row.probability), "of_216": f"{row.weight}/{THROW_TOTAL}",
                     "throws": [throw_text(t) for t in row.throws]})
    return {"die_values": rules.die_values, "denominator": THROW_TOTAL, "classes": rows,
            "total_weight": sum(r["weight"] for r in rows)}


def _render_classes(result: dict) -> str:
    rows = [[r["label"], r["kind"], r["wipe"], r["penalty"], f"{r['weight']}/{result['denominator']}",
             f"{r['probability']:.4f}", " ".join(r["throws"])] for r in result["classes"]]
    return (f"Pitjesbak throw classes ({result['die_values']} die values), strongest first\n"
            + text_table(["class", "kind", "wipes", "penalty", "exact", "prob", "throws"], rows))


def run_classes(args) -> int:
    emit(classes_result(_rules(args)), args.json, _render_classes)
    return 0


def round_result(rules: Rules, wiped=None, exact: bool | None = None) -> dict:
    """JSON of ``round``: players, wiped, exact flag, win_probabilities (+ exact strings),
    start_after_throw_1/2 (stop-set descriptions)."""
    from dicemath.games.pitjesbak.advice import describe_stops
    from dicemath.games.pitjesbak.round_solver import solve_round
    if wiped is not None and len(wiped) != rules.players:
        raise InvalidStateError(f"--wiped needs {rules.players} flags, got {len(wiped)}")
    solution = solve_round(rules, wiped, exact=exact)
    result = {"players": rules.players, "wiped": list(solution.wiped), "exact": solution.exact,
              "win_probabilities": [float(p) for p in solution.win_probabilities],
              "start_after_throw_1": describe_stops(solution.start_stop[0], rules),
              "start_after_throw_2": describe_stops(solution.start_stop[1], rules)}
    if solution.exact:
        result["win_probabilities_exact"] = [fraction_text(p) for p in solution.win_probabilities]
    return result


def _render_round(result: dict) -> str:
    rows = [[seat, f"{p:.6f}"] for seat, p in enumerate(result["win_probabilities"])]
    return (f"Round with {result['players']} players, each maximising P(win the round)\n"
            + text_table(["turn position", "P(win round)"], rows)
            + f"\nStart player after throw 1: {result['start_after_throw_1']}"
            + f"\nStart player after throw 2: {result['start_after_throw_2']}")


def run_round(args) -> int:
    exact = True if args.exact else None
    emit(round_result(_rules(args), args.wiped, exact), args.json, _render_round)
    return 0


def game_result(rules: Rules, use_cache: bool = True) -> dict:
    """JSON of ``game``. Two players: start_player_win_probability, its bounds, round-maximising
    comparisons and losses, cap, sweeps, seconds. More: :func:`table_result`."""
    from dicemath.games.pitjesbak.game_solver import solve_game
    if rules.players != 2:
        return table_result(rules, use_cache)
    start = time.perf_counter()
    solution = solve_game(rules, use_cache=use_cache)
    seconds = time.perf_counter() - start
    value = solution.start_player_win_probability
    low, high = solution.bounds(*solution.opening)
    comp = solution.comparison
    rvo = sum(comp["round_vs_optimal"]) / 2
    rso = sum(comp["round_second_vs_optimal"]) / 2
    return {"players": 2, "stripes": rules.stripes, "die_values": rules.die_values,
            "start_player_win_probability": value, "bounds": [low, high], "cap": solution.cap,
            "sweeps": solution.sweeps,
            "round_max_start_win_probability": rvo,
            "round_max_loss_as_start_player": value - rvo,
            "round_max_second_win_probability": rso,
            "round_max_loss_as_second_player": (1 - value) - rso,
            "both_round_max_start_win_probability": sum(comp["round_vs_round"]) / 2,
            "seconds": seconds}


def table_result(rules: Rules, use_cache: bool = True) -> dict:
    """JSON of ``game --players N`` (3 or more; :func:`.table_game.solve_table`: 3 and 4 players
    from any stripes, more from few): players, stripes, die_values, start_player_win_probability,
    win_probabilities by turn position, cap, sweeps, residual, seconds."""
    from dicemath.games.pitjesbak.table_game import solve_table

    start = time.perf_counter()
    solution = solve_table(rules, use_cache=use_cache)
    values = solution.opening_values
    return {"players": rules.players, "stripes": rules.stripes, "die_values": rules.die_values,
            "start_player_win_probability": values[0], "win_probabilities": list(values),
            "cap": solution.cap, "sweeps": solution.sweeps, "residual": solution.residual,
            "seconds": time.perf_counter() - start}


def _render_game(r: dict) -> str:
    if r["players"] != 2:
        return (f"{r['players']}-player Pitjesbak, {r['stripes']} stripes each, every player game-optimal: "
                "P(win the game) by turn position from the first start player "
                + ", ".join(f"{p:.6f}" for p in r["win_probabilities"])
                + f" (cap {r['cap']}, {r['sweeps']} sweeps, {r['seconds']:.1f} s)")
    return "\n".join([
        f"Two-player Pitjesbak, {r['stripes']} stripes each, {r['die_values']} die values",
        f"P(first start player wins), both game-optimal: {r['start_player_win_probability']:.10f}"
        f"  (bounds {r['bounds'][0]:.12f} .. {r['bounds'][1]:.12f}, cap {r['cap']})",
        f"Round-maximiser as first start player vs game-optimal: {r['round_max_start_win_probability']:.6f}"
        f" (loses {r['round_max_loss_as_start_player']:.6f})",
        f"Round-maximiser as second player vs game-optimal: {r['round_max_second_win_probability']:.6f}"
        f" (loses {r['round_max_loss_as_second_player']:.6f})",
        f"Both maximise round wins: P(first start player wins) {r['both_round_max_start_win_probability']:.6f}",
        f"({r['sweeps']} sweeps, {r['seconds']:.2f} s)"])


def run_game(args) -> int:
    emit(game_result(_rules(args), use_cache=not args.no_cache), args.json, _render_game)
    return 0


def _throws(text: str | None) -> list:
    """``--before``: counting throws, ``out`` for a player put out by 1-1-1 this round."""
    from dicemath.games.pitjesbak.throws import parse_throw

    if text is None or not text.strip():
        return []
    return [None if part.strip().lower() == "out" else parse_throw(part) for part in text.split(",")]


def advise_state(rules: Rules, state_text: str | None = None, *, current: str | None = None,
                 throw_number: int | None = None, limit: int | None = None, stripes_left=None, wiped=None,
                 position: int | None = None, before: str | None = None, my_stripes: int | None = None,
                 my_wiped: bool = False, their_stripes: int | None = None, their_wiped: bool = False,
                 role: str | None = None, best: str | None = None):
    """The decision state of ``pitjesbak advise``'s inputs as text (the command line's options,
    the page's fields): a state's text form, or a situation (:func:`.advice.read_situation`).

    Raises:
        InvalidStateError: a state with other situation inputs; what :func:`.advice.read_situation` refuses.
        InvalidDiceError: a throw that is not three dice 1..6.
    """
    from dicemath.games.pitjesbak.advice import read_situation
    from dicemath.games.pitjesbak.state import State
    from dicemath.games.pitjesbak.throws import parse_throw

    check_stripes_bound([rules.stripes], "starting stripes")
    if state_text is not None:
        given = (current, throw_number, limit, stripes_left, wiped, position, before, my_stripes, their_stripes,
                 role, best)
        if any(v is not None for v in given) or my_wiped or their_wiped:
            raise InvalidStateError("STATE says everything: give no other situation options with it")
        return _bounded_state(State.from_str(state_text))
    check_stripes_bound(stripes_left or (), "stripes left")
    check_stripes_bound((my_stripes, their_stripes), "stripes left")
    return read_situation(rules, current=None if current is None else parse_throw(current),
                          throw_number=throw_number, limit=limit, stripes_left=stripes_left, wiped=wiped,
                          position=position, before=_throws(before), my_stripes=my_stripes, my_wiped=my_wiped,
                          their_stripes=their_stripes, their_wiped=their_wiped, role=role,
                          best=parse_throw(best) if best else None)


def advise_result(state: State, game: Game) -> tuple[dict[str, Any], Advice]:
    """JSON of ``advise`` (the chain's :class:`~dicemath.core.advice.Advice` of ``state``,
    :meth:`~dicemath.core.advice.Advice.as_dict`) and the advice.

    Args:
        state: the decision state (:func:`advise_state`).
        game: the Pitjesbak :class:`~dicemath.core.game.Game`, whose
            :meth:`~dicemath.core.game.Game.advise` answers.

    Raises:
        InvalidStateError: nobody decides at ``state``.
    """
    advice = game.advise(state)
    return advice.as_dict(), advice


def run_advise(args) -> int:
    """``pitjesbak advise``: the advice of the chain of sources at the decision, from a state's
    text form, a table, or the two-player form (each builds a state, :func:`advise_state`)."""
    state = advise_state(_rules(args), args.state, current=args.current, throw_number=args.throw_number,
                         limit=args.limit, stripes_left=args.stripes_left, wiped=args.wiped, position=args.position,
                         before=args.before, my_stripes=args.my_stripes, my_wiped=args.my_wiped,
                         their_stripes=args.their_stripes, their_wiped=args.their_wiped, role=args.role,
                         best=args.best)
    result, advice = advise_result(state, args.pitjesbak_game)
    render = _render_table_advice if "stripes" in result else _render_two_advice
    write_svg(args.svg, lambda: _drawn(state, advice), result)
    emit(result, args.json, render)
    return 0


def _render_two_advice(r: dict) -> str:
    again = "no throw left" if r["throw_win_probability"] is None else f"{r['throw_win_probability']:.4f}"
    return (f"{r['decision'].upper()}: P(win game) if you stop {r['stop_win_probability']:.4f}, "
            f"if you throw again {again} ({'exact' if r['exact'] else 'estimates'})")


def _render_table_advice(r: dict) -> str:
    n = len(r["stripes"])
    me = r["position"]
    seen = ", ".join(f"position {pos}: {t or 'out (1-1-1)'}" for pos, t in enumerate(r["before"])) or "none"
    limit = "you set the limit" if me == 0 else f"limit {r['limit']}"
    again = "no throw left" if r["throw_win_probability"] is None else f"{r['throw_win_probability']:.4f}"
    kind = "exact" if r["exact"] else "estimates: fitted game values after this round, see table_estimate"
    lines = [f"Table of {n}, you are at position {me} (0 = start player) with {r['stripes'][me]} stripe"
             f"{'' if r['stripes'][me] == 1 else 's'} left; counting throws before you: {seen}; {limit}; "
             f"your throw {r['dice']} after {r['throws']} throw{'' if r['throws'] == 1 else 's'}",
             f"{r['decision'].upper()}: P(win the game) if you stop {r['stop_win_probability']:.4f}, "
             f"if you throw again {again} ({kind})",
             "Stripes left by position (* has wiped): "
             + ", ".join(f"position {pos}: {a}{'*' if f else ''}"
                         for pos, (a, f) in enumerate(zip(r["stripes"], r["wiped"]))),
             "P(win the game) by position if you stop:          "
             + ", ".join(f"{pos}: {v:.4f}" for pos, v in enumerate(r["stop_values"]))]
    if r["throw_values"] is not None:
        lines.append("P(win the game) by position if you throw again: "
                     + ", ".join(f"{pos}: {v:.4f}" for pos, v in enumerate(r["throw_values"])))
    return "\n".join(lines)


def _drawn(state, advice) -> str:
    from dicemath.games.pitjesbak.drawing import draw

    return draw(state, advice)


def run_card(args) -> int:
    from dicemath.games.pitjesbak.advice import policy_card, wiped_flags, table_policy_card
    from dicemath.games.pitjesbak.game_solver import solve_game
    rules = _rules(args)
    if args.stripes_left is not None or args.wiped is not None or rules.players != 2:
        if args.state is not None:
            raise InvalidStateError("--state is the two-player form; at a table use --stripes-left and --wiped")
        stripes = args.stripes_left
        check_stripes_bound(stripes or (), "--stripes-left")
        count = len(stripes) if stripes is not None else rules.players
        wiped = wiped_flags(args.wiped, count) if args.wiped is not None else None
        if args.wiped is not None and stripes is None:
            raise InvalidStateError("--wiped goes with --stripes-left")
        table_card = table_policy_card(stripes, wiped, rules=rules)
        emit(table_card.as_dict(), args.json, lambda _: table_card.text())
        return 0
    state = None
    if args.state is not None:
        if len(args.state) != 4:
            raise InvalidStateError(f"--state needs 4 numbers (a,fa,b,fb), got {args.state}")
        a, fa, b, fb = args.state
        check_stripes_bound((a, b), "--state")
        state = (a, bool(fa), b, bool(fb))
    card = policy_card(solve_game(rules), state)
    emit(card.as_dict(), args.json, lambda _: card.text())
    return 0


def run_simulate(args) -> int:
    from dicemath.games.pitjesbak.round_solver import round_policy
    from dicemath.games.pitjesbak.simulate import game_win_frequencies
    rules = _rules(args)
    if not 1 <= args.games <= MAX_SIMULATED_GAMES:
        raise InvalidStateError(f"--games must be 1..{MAX_SIMULATED_GAMES}, got {args.games}")
    freqs = game_win_frequencies(rules, round_policy(rules), args.games, seed=args.seed)
    result = {"players": rules.players, "games": args.games, "seed": args.seed,
              "policy": "round-optimal", "win_frequencies": freqs}
    emit(result, args.json, lambda r: f"{r['games']} games, round-optimal play, seed {r['seed']}\n"
         + text_table(["seat", "wins"], [[s, f"{f:.4f}"] for s, f in enumerate(r["win_frequencies"])]))
    return 0


def run_show(args) -> int:
    from dicemath.core.dice import throw_text
    from dicemath.games.pitjesbak.state import State, initial_state
    from dicemath.games.pitjesbak.view import view

    state = initial_state(_rules(args)) if is_start(args.state) else _bounded_state(State.from_str(args.state))
    return show_state(args, "pitjesbak", state, view(state), [f"seat {seat}" for seat in range(state.rules.players)],
                      players=state.rules.players, die_values=state.rules.die_values, round=state.round_number + 1,
                      stripes=list(state.stripes), wiped=list(state.wiped), alive=list(state.alive),
                      start=state.start, order=list(state.order), limit=state.limit, throws=state.throws,
                      current=None if state.current is None else throw_text(state.current),
                      results=["out" if dice is None else throw_text(dice) for dice in state.results],
                      rolloff=list(state.rolloff), winner=None if state.winner < 0 else state.winner)
