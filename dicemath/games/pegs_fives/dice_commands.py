"""``dicemath dice hits``: the hits of Pegs and Fives for a number (docs/rules.md, "Dice and
hits"), a query Pegs adds to the general ``dicemath dice`` command
(:func:`dicemath.core.commands.dice_queries`)."""

from __future__ import annotations

from dicemath.core.commands import (
    add_dice_option, add_json_flag, check_dice_option, dice_queries, emit, fraction_text, text_table)
from dicemath.games.pegs_fives.hits import check_target, hit_distribution


def register(subparsers) -> None:
    """Add ``dicemath dice hits`` to the ``dice`` command."""
    hits = dice_queries(subparsers).add_parser("hits", help="distribution of hits for a target with N dice "
                                                            "(Pegs and Fives: docs/rules.md, Dice and hits)")
    add_dice_option(hits)
    hits.add_argument("--target", type=int, required=True, help="target number 1..12")
    add_json_flag(hits)
    hits.set_defaults(func=run_hits)


def hits_result(dice: int, target: int) -> dict:
    """The JSON object of ``dicemath dice hits``: keys dice, target, distribution, exact, mean.

    Raises:
        InvalidDiceError: ``dice`` outside 1..:data:`~dicemath.core.commands.MAX_DICE`, or
            ``target`` outside 1..12 (both checked before any work).
    """
    check_dice_option(dice)
    check_target(target)
    distribution = hit_distribution(dice, target)
    size = max(distribution) + 1
    exact = [distribution.probability(k) for k in range(size)]
    return {
        "dice": dice,
        "target": target,
        "distribution": [float(p) for p in exact],
        "exact": [fraction_text(p) for p in exact],
        "mean": float(distribution.mean()),
        "mean_exact": fraction_text(distribution.mean()),
    }


def _render(result: dict) -> str:
    rows = [[k, exact, f"{p:.6f}"] for k, (exact, p) in
            enumerate(zip(result["exact"], result["distribution"]))]
    title = f"Hits for {result['target']} with {result['dice']} dice (mean {result['mean']:.4f})"
    return title + "\n" + text_table(["hits", "exact", "probability"], rows)


def run_hits(args) -> int:
    emit(hits_result(args.dice, args.target), args.json, _render)
    return 0
