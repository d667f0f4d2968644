"""``dicemath pitjesbak``: throw classes, round and game solutions, advice, policy card.

Sub-commands: ``classes``, ``round``, ``game``, ``advise``, ``card``, ``simulate``, ``show``;
each takes ``--json`` (stable keys).
"""

from __future__ import annotations

import time

from dicemath.cli.support import (
    add_json_flag, add_rules_command, add_show_command, add_svg_option, emit, fraction_text, int_list, is_start,
    show_state, text_table, write_svg)
from dicemath.core.errors import InvalidStateError
from dicemath.games.pitjesbak.rules import DIE_VALUE_VARIANTS, Rules


def _rules_args(parser, players: bool = False) -> None:
    parser.add_argument("--die-values", choices=DIE_VALUE_VARIANTS, default="traditional",
                        help="die values (PIT-2): traditional 1=100, 6=60, or plain pips")
    parser.add_argument("--stripes", type=int, default=9, help="starting stripes (PIT-1)")
    if players:
        parser.add_argument("--players", type=int, default=2, help="number of players 2..8")


def _rules(args, players: int = 2) -> Rules:
    return Rules(players=getattr(args, "players", players), stripes=args.stripes,
                          die_values=args.die_values)


def register(subparsers) -> None:
    """Add ``dicemath pitjesbak`` and its queries."""
    parser = subparsers.add_parser("pitjesbak", help="Pitjesbak: throw classes, optimal stopping, advice")
    commands = parser.add_subparsers(dest="pitjesbak_command", metavar="QUERY", required=True)
    add_rules_command(commands, "pitjesbak")

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

    game = commands.add_parser("game", help="game-optimal play: P(first start player wins)")
    _rules_args(game, players=True)
    game.add_argument("--no-cache", action="store_true", help="solve afresh, ignore the cache")
    add_json_flag(game)
    game.set_defaults(func=run_game)

    advise = commands.add_parser("advise", help="stop or throw again? (two players, game-optimal)")
    _rules_args(advise)
    advise.add_argument("--my-stripes", type=int, required=True)
    advise.add_argument("--my-wiped", action="store_true", help="I have wiped a stripe before")
    advise.add_argument("--their-stripes", type=int, required=True)
    advise.add_argument("--their-wiped", action="store_true", help="the other has wiped before")
    advise.add_argument("--role", choices=("start", "follower"), required=True)
    advise.add_argument("--throw-number", type=int, required=True, help="throws used, incl. this one")
    advise.add_argument("--current", required=True, help="my current throw, e.g. 6-5-4")
    advise.add_argument("--best", default=None, help="follower: the start player's counting throw")
    advise.add_argument("--limit", type=int, default=None, help="follower: throws allowed (the limit)")
    add_svg_option(advise)
    add_json_flag(advise)
    advise.set_defaults(func=run_advise)

    card = commands.add_parser("card", help="policy card: when to stop (two players)")
    _rules_args(card)
    card.add_argument("--state", type=int_list, default=None,
                      help="start stripes, start flag, follower stripes, follower flag, e.g. 3,1,9,0")
    add_json_flag(card)
    card.set_defaults(func=run_card)

    sim = commands.add_parser("simulate", help="simulate games with round-optimal play")
    _rules_args(sim, players=True)
    sim.add_argument("--games", type=int, default=1000)
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
    from dicemath.games.pitjesbak.throws import THROW_TOTAL, class_table
    rows = []
    for row in class_table(rules):
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
    """JSON of ``game``: start_player_win_probability, its bounds, round-maximising
    comparisons and losses, cap, sweeps, seconds."""
    from dicemath.games.pitjesbak.game_solver import solve_game
    if rules.players == 3:
        return game3_result(rules, use_cache)
    if rules.players != 2:
        raise InvalidStateError(f"the game solver handles 2 players, and 3 with at most 3 stripes; "
                                f"got {rules.players} players")
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


MAX_STRIPES_3 = 3
"""Three-player games are solved for at most this many stripes (time and memory)."""


def game3_result(rules: Rules, use_cache: bool = True) -> dict:
    """JSON of ``game --players 3``: start_player_win_probability, win_probabilities by turn
    position, cap, sweeps, residual, seconds."""
    from dicemath.games.pitjesbak.game_solver3 import solve_game3
    if rules.stripes > MAX_STRIPES_3:
        raise InvalidStateError(f"three-player games are solved for at most {MAX_STRIPES_3} stripes "
                                f"(42**3 throw triples per state), got {rules.stripes}")
    start = time.perf_counter()
    solution = solve_game3(rules, use_cache=use_cache)
    values = solution.opening_values
    return {"players": 3, "stripes": rules.stripes, "die_values": rules.die_values,
            "start_player_win_probability": values[0], "win_probabilities": list(values),
            "cap": solution.cap, "sweeps": solution.sweeps, "residual": solution.residual,
            "seconds": time.perf_counter() - start}


def _render_game(r: dict) -> str:
    if r["players"] == 3:
        return (f"Three-player Pitjesbak, {r['stripes']} stripes each: P(win) by turn position "
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


def run_advise(args) -> int:
    from dicemath.games.pitjesbak.advice import advise_situation
    from dicemath.games.pitjesbak.throws import parse_throw
    rules = _rules(args)
    advice = advise_situation(args.my_stripes, args.my_wiped, args.their_stripes, args.their_wiped,
                    role=args.role, throw_number=args.throw_number, current=parse_throw(args.current),
                    best=parse_throw(args.best) if args.best else None, limit=args.limit, rules=rules)
    result = advice.as_dict()
    write_svg(args.svg, lambda: _picture(advice, rules), result)
    emit(result, args.json, lambda _: str(advice))
    return 0


def _picture(advice, rules) -> str:
    from dicemath.games.pitjesbak.advice import situation_state
    from dicemath.games.pitjesbak.drawing import draw

    return draw(situation_state(advice, rules), advice)


def run_card(args) -> int:
    from dicemath.games.pitjesbak.advice import policy_card
    from dicemath.games.pitjesbak.game_solver import solve_game
    rules = _rules(args)
    state = None
    if args.state is not None:
        if len(args.state) != 4:
            raise InvalidStateError(f"--state needs 4 numbers (a,fa,b,fb), got {args.state}")
        a, fa, b, fb = args.state
        state = (a, bool(fa), b, bool(fb))
    card = policy_card(solve_game(rules), state)
    emit(card.as_dict(), args.json, lambda _: card.text())
    return 0


def run_simulate(args) -> int:
    from dicemath.games.pitjesbak.round_solver import round_policy
    from dicemath.games.pitjesbak.simulate import game_win_frequencies
    rules = _rules(args)
    if args.games < 1:
        raise InvalidStateError(f"--games must be >= 1, got {args.games}")
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

    state = initial_state(_rules(args)) if is_start(args.state) else State.from_str(args.state)
    return show_state(args, "pitjesbak", state, view(state), [f"seat {seat}" for seat in range(state.rules.players)],
                      players=state.rules.players, die_values=state.rules.die_values, round=state.round_number + 1,
                      stripes=list(state.stripes), wiped=list(state.wiped), alive=list(state.alive),
                      start=state.start, order=list(state.order), limit=state.limit, throws=state.throws,
                      current=None if state.current is None else throw_text(state.current),
                      results=["out" if dice is None else throw_text(dice) for dice in state.results],
                      rolloff=list(state.rolloff), winner=None if state.winner < 0 else state.winner)
