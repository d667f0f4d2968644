"""``dicemath dice``: the command line's own dice queries (the core's distributions), to which
a game adds its own (Pegs' ``hits``), against enumeration of every ordered throw."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import product

import pytest

from dicemath.cli import build_parser, main
from dicemath.cli.dice import sum_result
from dicemath.core.dice import FACES


@pytest.mark.parametrize("dice", [1, 2, 3, 5])
def test_the_total_of_n_dice_is_every_ordered_throw_counted(dice):
    counts: dict[int, int] = {}
    for throw in product(FACES, repeat=dice):
        counts[sum(throw)] = counts.get(sum(throw), 0) + 1
    result = sum_result(dice)
    assert result["totals"] == sorted(counts)
    assert [Fraction(p) for p in result["exact"]] == [Fraction(counts[t], 6 ** dice) for t in sorted(counts)]
    assert Fraction(result["mean_exact"]) == Fraction(7 * dice, 2)


def test_dice_sum_prints_json_and_a_table(capsys):
    assert main(["dice", "sum", "--dice", "2", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["exact"][result["totals"].index(7)] == "1/6"
    assert main(["dice", "sum", "--dice", "2"]) == 0
    assert "Total of 2 dice (mean 7)" in capsys.readouterr().out


def test_the_dice_command_is_the_command_lines_and_the_games_add_queries_to_it():
    parser = build_parser()
    assert parser.parse_args(["dice", "sum", "--dice", "3"]).func.__module__ == "dicemath.cli.dice"
    hits = parser.parse_args(["dice", "hits", "--dice", "3", "--target", "8"]).func
    assert hits.__module__.startswith("dicemath.games.")
