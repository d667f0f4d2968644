"""Every door answers a Pegs or Fives row decision from the one chain of sources: ``dicemath
analyse`` of a decision gives the values, ``exact`` flag and ``source`` of the game object's
``advise`` (which the package's ``advise``, ``advise_throw`` and the command line give too),
and the chain's value of the decision is its best option's, on seeded random choice states
with 1 to 7 open rows (7: where the analysis once stopped solving at 6 rows while ``advise``
solved up to 8)."""

from __future__ import annotations

import json
import random

import pytest

from dicemath.analysis import analyse
from dicemath.cli import main
from dicemath.games.pegs_fives import advise
from dicemath.games.pegs_fives.fullboard.advice import SOLVE_MAX_ROWS, advise_throw, source_chain
from dicemath.games.pegs_fives.game import FIVES_GAME, PEGS_GAME
from dicemath.games.pegs_fives.rules import FIVES, PEGS
from dicemath.games.pegs_fives.state import choice_state, legal_rows

GAMES = {"pegs": (PEGS, PEGS_GAME), "fives": (FIVES, FIVES_GAME)}


def random_decision(rules, open_count: int, rng: random.Random) -> dict:
    """A decision entry (``board``, ``roll``, in Pegs ``throws``) with ``open_count`` open rows
    and a throw that allows a row."""
    while True:
        open_rows = set(rng.sample(range(1, rules.rows + 1), open_count))
        board = [rng.randrange(rules.goal) if r in open_rows else rules.goal for r in range(1, rules.rows + 1)]
        roll = [rng.randint(1, 6) for _ in range(rules.dice)]
        if legal_rows(tuple(board), tuple(roll), rules.goal):
            entry = {"board": board, "roll": roll}
            if rules.throws is not None:
                entry["throws"] = rng.randint(1, rules.throws)
            return entry


def check_doors(game: str, entry: dict) -> list[str]:
    """analyse == the game object's advise == advise_throw at the decision ``entry``, the
    chain's value there its best option's; the command line's argv of the same decision."""
    rules, game_object = GAMES[game]
    state = choice_state(rules, entry["board"], entry["roll"], entry.get("throws"))
    advice = game_object.advise(state)
    source = source_chain(rules).source_for(state)
    assert advice.exact == source.exact and advice.source == source.name
    thrown = advise_throw(rules, entry["board"], entry["roll"], throws=entry.get("throws"))
    assert thrown.as_dict() == game_object.advise_throw(entry["board"], entry["roll"],
                                                        throws=entry.get("throws")).as_dict() == advice.as_dict()
    valued = source_chain(rules).value(state)
    assert valued.exact == advice.exact
    assert valued.values[0] == 1 + min(o.value for o in advice.options)
    expected = {str(o.action): o.value for o in advice.options}
    choice = advice.options[-1].action
    cost = analyse({"game": game, "decisions": [{**entry, "choice": choice}]}, (PEGS_GAME, FIVES_GAME)).decisions[0]
    assert (cost.values, cost.exact, cost.source) == (expected, advice.exact, advice.source), entry
    assert cost.best == str(advice.best.action) or cost.loss == 0.0
    argv = [game, "advise", "--board", ",".join(map(str, entry["board"])), "--roll", ",".join(map(str, entry["roll"])),
            "--json"] + (["--throws", str(entry["throws"])] if "throws" in entry else [])
    return argv


def cases(open_counts, seed: int):
    rng = random.Random(seed)
    return [(game, random_decision(GAMES[game][0], k, rng)) for game in GAMES for k in open_counts]


@pytest.mark.parametrize("game, entry", cases((1, 2, 3, 4, 5, 6, 2, 4), seed=7))
def test_analyse_equals_advise(game, entry, capsys):
    argv = check_doors(game, entry)
    assert main(argv) == 0
    printed = json.loads(capsys.readouterr().out)
    rules = GAMES[game][0]
    advice = advise(choice_state(rules, entry["board"], entry["roll"], entry.get("throws")))
    assert (printed["exact"], printed["source"]) == (advice.exact, advice.source)
    assert [o["value"] for o in printed["options"]] == [o.value for o in advice.options]


def test_seven_open_rows_are_exact_through_every_door():
    """The board where ``analyse`` once answered from the estimate while ``advise`` solved:
    both now solve it (7 <= SOLVE_MAX_ROWS)."""
    entry = {"board": [0, 0, 0, 0, 0, 5, 5, 5, 5, 5, 0, 0], "roll": [6, 6, 5, 5, 2, 1]}
    assert 7 <= SOLVE_MAX_ROWS
    check_doors("pegs", entry)
    state = choice_state(PEGS, entry["board"], entry["roll"])
    assert advise(state).exact


@pytest.mark.slow
@pytest.mark.parametrize("game, entry", cases((7, 7, 7), seed=11))
def test_analyse_equals_advise_seven_open_rows(game, entry):
    check_doors(game, entry)


def test_estimate_boards_agree():
    """Beyond the solve limit (a board with every row open) both doors give the estimate."""
    entry = {"board": [0] * 12, "roll": [6, 6, 5, 5, 2, 1], "throws": 3}
    check_doors("pegs", entry)
    state = choice_state(PEGS, entry["board"], entry["roll"], 3)
    assert source_chain(PEGS).source_for(state).name in ("table", "estimate")
