"""``dicemath analyse FILE``: the cost of every decision of a played game, and its luck.

``FILE`` is a record (``docs/analyse.md``): a decision list or a whole game, JSON; the game
is read from it, one of the registry's (:data:`dicemath.games.registry.GAMES`, handed to the
analysis). Options: ``--json`` (keys below), ``--plot FILE.png`` (the value over a
whole game, or the loss of each listed decision), ``--pictures DIR`` (the three costliest
decisions drawn, the choice played against the best, as ``DIR/entry-<index>.svg``, see
:mod:`dicemath.analysis.pictures`), ``--threshold X`` (a decision losing more than X is an
error; default: the game's, its analysis's ``threshold``).

JSON keys: ``game``, ``kind`` (``decisions`` or ``game``), ``unit``, ``source``,
``value_label``, ``seats``, ``threshold``, ``decisions`` (each ``index``, ``player``,
``choice``, ``best``, ``loss``, ``unit``, ``exact``, ``values``, ``context``),
``total_loss``, ``mean_loss``, ``errors``, ``exact``, ``rating``; a whole game adds
``chance`` (each ``index``, ``player``, ``outcome``, ``luck`` per seat, ``exact``),
``loss_by_player``, ``decisions_by_player``, ``errors_by_player``, ``luck_by_player``,
``start_value``, ``end_value``, ``finished`` and ``trajectory`` (each ``index``,
``value`` per seat, ``exact``); with ``--plot`` and ``--pictures`` also ``plot`` and
``pictures`` (the files written). A malformed record exits with status 2 and a message
naming its first bad entry.
"""

from __future__ import annotations

from dicemath.core.commands import add_json_flag, check_figure_path, emit, text_table
from dicemath.core.numbers import number_text
from dicemath.games import registry


def register(subparsers) -> None:
    """Add ``dicemath analyse``."""
    parser = subparsers.add_parser("analyse", help="the cost of every decision of a played game, and its luck")
    parser.add_argument("file", help="a record: a decision list or a whole game (JSON, see docs/analyse.md)")
    parser.add_argument("--plot", metavar="FILE.png", default=None,
                        help="draw the value over the game (or each decision's loss) into this file")
    parser.add_argument("--pictures", metavar="DIR", default=None,
                        help="draw the 3 costliest decisions (the position, the choice played against the best) "
                             "into this folder as entry-<index>.svg")
    parser.add_argument("--threshold", type=float, default=None,
                        help="a decision losing more than this is an error, a number >= 0 (default: the game's)")
    add_json_flag(parser)
    parser.set_defaults(func=run_analyse)


def render(result: dict) -> str:
    """The plain text of ``dicemath analyse``: a table of decisions, totals, luck, rating."""
    seats = result["seats"]
    game = result["kind"] == "game"
    rows = [[d["index"], *([seats[d["player"]]] if game and len(seats) > 1 else []), d["choice"], d["best"],
             number_text(d["loss"]), "exact" if d["exact"] else "estimate"] for d in result["decisions"]]
    head = ["entry", *(["player"] if game and len(seats) > 1 else []), "choice", "best",
            f"loss ({result['unit']})", "value"]
    kind = "whole game" if game else "decision list"
    lines = [f"{result['game']}, {kind}: {result['source']}",
             text_table(head, rows) if rows else "(no decisions)",
             f"Total loss {number_text(result['total_loss'])} {result['unit']}, mean "
             f"{number_text(result['mean_loss'])} per decision; {result['errors']} error(s) above "
             f"{result['threshold']:g}."]
    if game:
        unit = result["unit"]
        if result["chance"]:
            luck = ", ".join(f"{name} {number_text(value, '+.4g')}"
                             for name, value in zip(seats, result["luck_by_player"]))
            lines.append(f"Luck ({len(result['chance'])} chance events, in {unit}, in each player's favour): {luck}.")
            biggest = max(result["chance"], key=lambda c: max(abs(v) for v in c["luck"]))
            owner = f"{seats[biggest['player']]}'s" if biggest["player"] is not None else "no one's"
            lines.append(f"Biggest swing: entry {biggest['index']} ({biggest['outcome']}, {owner} throw), "
                         f"{number_text(biggest['luck'][0], '+.4g')} for {seats[0]}.")
        start = ", ".join(number_text(v) for v in result["start_value"])
        end = ", ".join(number_text(v) for v in result["end_value"])
        state = "the end" if result["finished"] else "the last entry (the game goes on)"
        lines.append(f"{result['value_label']}: {start} at the start, {end} at {state}.")
    lines.append(f"Rating: {result['rating']}")
    if "pictures" in result:
        drawn = ", ".join(result["pictures"]) or "none: no decision lost anything"
        lines.append(f"Costliest decisions drawn: {drawn}")
    return "\n".join(lines)


def run_analyse(args) -> int:
    from dicemath.analysis import game_named, read_record
    from dicemath.analysis.engine import analyse_record
    from dicemath.analysis.pictures import check_folder, write_pictures
    from dicemath.analysis.result import check_threshold

    check_threshold(args.threshold)
    if args.plot:
        check_figure_path(args.plot)
    if args.pictures:
        check_folder(args.pictures)
    record = read_record(args.file)
    game = game_named(record.game, registry.GAMES)
    analysis = analyse_record(record, game)
    result = analysis.as_dict(args.threshold)
    if args.pictures:
        result["pictures"] = [str(path) for path in write_pictures(record, analysis, args.pictures, game)]
    if args.plot:
        from dicemath.analysis.plot import analysis_figure

        figure = analysis_figure(analysis, args.threshold)
        figure.savefig(args.plot, dpi=110, bbox_inches="tight")
        result["plot"] = args.plot
    emit(result, args.json, render)
    return 0
