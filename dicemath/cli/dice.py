"""``dicemath dice``: dice distributions from the command line, exact.

``dicemath dice sum --dice N [--json]``: the distribution of the total of ``N`` six-sided dice
(:func:`sum_result`), from the core's distribution of throws
(:func:`dicemath.core.dice.throw_distribution`). Games add queries of their own to ``dice``
(:func:`dicemath.core.commands.dice_queries`, from their
:meth:`~dicemath.core.game.Game.register_commands`).
"""

from __future__ import annotations

import argparse

from dicemath.core.commands import (
    Subparsers, add_dice_option, add_json_flag, check_dice_option, dice_queries, emit, fraction_text, text_table)
from dicemath.core.dice import throw_distribution


def register(subparsers: Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``dicemath dice sum``."""
    total = dice_queries(subparsers).add_parser("sum", help="distribution of the total of N dice")
    add_dice_option(total)
    add_json_flag(total)
    total.set_defaults(func=run_sum)


def sum_result(dice: int) -> dict:
    """The JSON object of ``dicemath dice sum``: keys dice, totals, distribution (floats, by
    total), exact (``"a/b"``), mean, mean_exact.

    Raises:
        InvalidDiceError: ``dice`` outside 1..:data:`~dicemath.core.commands.MAX_DICE` (before any work).

    Example:
        >>> r = sum_result(2)
        >>> r["totals"][0], r["exact"][5], r["mean_exact"]
        (2, '1/6', '7')
    """
    distribution = throw_distribution(check_dice_option(dice)).map(sum)
    totals = sorted(distribution)
    return {"dice": dice, "totals": totals,
            "distribution": [float(distribution.probability(t)) for t in totals],
            "exact": [fraction_text(distribution.probability(t)) for t in totals],
            "mean": float(distribution.mean()), "mean_exact": fraction_text(distribution.mean())}


def _render(result: dict) -> str:
    rows = [[total, exact, f"{p:.6f}"] for total, exact, p in
            zip(result["totals"], result["exact"], result["distribution"])]
    title = f"Total of {result['dice']} dice (mean {result['mean_exact']})"
    return title + "\n" + text_table(["total", "exact", "probability"], rows)


def run_sum(args: argparse.Namespace) -> int:
    """``dicemath dice sum``: print :func:`sum_result`."""
    emit(sum_result(args.dice), args.json, _render)
    return 0
