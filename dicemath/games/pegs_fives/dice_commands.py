"""``dicemath dice``: hit distributions from the command line."""

from __future__ import annotations

from dicemath.core.commands import add_json_flag, emit, fraction_text, text_table
from dicemath.core.errors import InvalidDiceError
from dicemath.games.pegs_fives.hits import check_target, hit_distribution

MAX_DICE = 24
"""The most dice ``dicemath dice hits`` takes: the exact distribution sums over every multiset
of faces (``C(n + 5, 5)``), a few seconds at this many, minutes at a few hundred."""


def register(subparsers) -> None:
    """Add ``dicemath dice hits``."""
    dice = subparsers.add_parser("dice", help="dice distributions (hits for a number)")
    commands = dice.add_subparsers(dest="dice_command", metavar="QUERY", required=True)
    hits = commands.add_parser("hits", help="distribution of hits for a target with N dice")
    hits.add_argument("--dice", type=int, required=True, help=f"number of dice, 1..{MAX_DICE}")
    hits.add_argument("--target", type=int, required=True, help="target number 1..12")
    add_json_flag(hits)
    hits.set_defaults(func=run_hits)


def hits_result(dice: int, target: int) -> dict:
    """The JSON object of ``dicemath dice hits``: keys dice, target, distribution, exact, mean.

    Raises:
        InvalidDiceError: ``dice`` outside 1..:data:`MAX_DICE`, or ``target`` outside 1..12
            (both checked before any work).
    """
    if isinstance(dice, bool) or not isinstance(dice, int) or not 1 <= dice <= MAX_DICE:
        raise InvalidDiceError(f"--dice must be 1..{MAX_DICE} (the exact distribution grows with every die), "
                               f"got {dice!r}")
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
