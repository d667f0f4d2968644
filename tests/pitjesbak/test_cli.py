"""``dicemath pitjesbak`` sub-commands."""

import json
from fractions import Fraction

import pytest

from dicemath.games.pitjesbak import commands as pit_cli
from dicemath.games.pitjesbak.game import PITJESBAK_GAME


def run(capsys, *argv):
    import argparse
    parser = argparse.ArgumentParser()
    pit_cli.register(parser.add_subparsers(), PITJESBAK_GAME)
    args = parser.parse_args(["pitjesbak", *argv])
    code = args.func(args)
    return code, capsys.readouterr().out


def test_classes_json(capsys):
    code, out = run(capsys, "classes", "--json")
    data = json.loads(out)
    assert code == 0 and data["total_weight"] == 216
    by_label = {c["label"]: c for c in data["classes"]}
    assert by_label["6-5-4"]["exact"] == "1/36" and by_label["2-2-3"]["weight"] == 3
    assert sum(Fraction(c["exact"]) for c in data["classes"]) == 1


def test_classes_text(capsys):
    assert "soixante-neuf" in run(capsys, "classes")[1]


def test_game_json(capsys):
    code, out = run(capsys, "game", "--players", "2", "--json")
    data = json.loads(out)
    assert 0.5 < data["start_player_win_probability"] < 0.52
    assert data["round_max_loss_as_start_player"] > 0


def test_round_and_card_and_advise(capsys):
    data = json.loads(run(capsys, "round", "--players", "3", "--json")[1])
    assert sum(Fraction(p) for p in data["win_probabilities_exact"]) == 1
    card = json.loads(run(capsys, "card", "--state", "2,1,9,0", "--json")[1])
    assert card["state"] == [2, True, 9, False]
    advice = json.loads(run(capsys, "advise", "--my-stripes", "9", "--their-stripes", "9", "--role",
                            "follower", "--throw-number", "1", "--current", "1-2-3", "--best", "1-1-2",
                            "--limit", "2", "--json")[1])
    assert advice["decision"] in ("stop", "throw") and advice["limit"] == 2


def test_errors_exit_2(capsys):
    from dicemath.cli import main
    assert main(["pitjesbak", "game", "--players", "5"]) == 2          # 5 players from 9 stripes: too big to solve
    assert main(["pitjesbak", "game", "--players", "9"]) == 2
    assert main(["pitjesbak", "round", "--players", "9"]) == 2
    assert main(["pitjesbak", "classes", "--stripes", "-1"]) == 2
    assert "error" in capsys.readouterr().err


def test_game_for_three_players(capsys):
    data = json.loads(run(capsys, "game", "--players", "3", "--stripes", "1", "--json")[1])
    assert data["win_probabilities"] == pytest.approx([0.4293831156, 0.2745617036, 0.2960551808], abs=1e-6)
    assert data["start_player_win_probability"] == data["win_probabilities"][0]


# -- advice at any table ---------------------------------------------------------------------

FIVE = ("--stripes-left", "4,9,1,3,6", "--wiped", "1,0,1,1,1", "--position", "2", "--before", "5-5-5,6-6-2",
        "--limit", "2", "--throw", "6-6-2", "--throws-used", "1")
"""The issue's player at a table of five: 1 stripe left, a 6-6-2 after his first throw, the
start player's 5-5-5 to beat."""


def test_advice_at_a_table_of_five_is_a_labelled_estimate(capsys, tmp_path):
    data = json.loads(run(capsys, "advise", *FIVE, "--json")[1])
    assert data["exact"] is False and data["decision"] in ("stop", "throw")
    assert data["decision"] == ("stop" if data["stop_win_probability"] >= data["throw_win_probability"] else "throw")
    assert data["stop_values"][2] == data["stop_win_probability"] and sum(data["stop_values"]) == pytest.approx(1)
    assert data["stripes"] == [4, 9, 1, 3, 6] and data["before"] == ["5-5-5", "6-6-2"] and data["position"] == 2
    text = run(capsys, "advise", *FIVE)[1]
    assert "estimates" in text and "Table of 5" in text
    picture = tmp_path / "five.svg"
    assert json.loads(run(capsys, "advise", *FIVE, "--svg", str(picture), "--json")[1])["svg"] == str(picture)
    svg = picture.read_text()
    assert "Estimated chance to win the game" in svg and "(advised)" in svg and "Seat 4" in svg


def test_position_has_one_name(capsys):
    """The turn position is ``--position`` only (seats are the chairs, not the turn order)."""
    seat = [a if a != "--position" else "--seat" for a in FIVE]
    with pytest.raises(SystemExit):
        run(capsys, "advise", *seat, "--json")


@pytest.mark.parametrize("two, table", [
    (("--my-stripes", "5", "--my-wiped", "--their-stripes", "9", "--role", "start", "--throw-number", "1",
      "--current", "5-5-3"),
     ("--stripes-left", "5,9", "--wiped", "1,0", "--position", "0", "--throw", "5-5-3", "--throws-used", "1")),
    (("--my-stripes", "9", "--their-stripes", "3", "--their-wiped", "--role", "follower", "--throw-number", "1",
      "--current", "6-6-2", "--best", "6-4-1", "--limit", "3"),
     ("--stripes-left", "3,9", "--wiped", "1,0", "--position", "1", "--before", "6-4-1", "--limit", "3",
      "--throw", "6-6-2", "--throws-used", "1")),
    (("--my-stripes", "2", "--my-wiped", "--their-stripes", "2", "--their-wiped", "--role", "follower",
      "--throw-number", "2", "--current", "1-1-1", "--best", "1-2-3", "--limit", "3"),
     ("--stripes-left", "2,2", "--wiped", "1,1", "--position", "1", "--before", "1-2-3", "--limit", "3",
      "--throw", "1-1-1", "--throws-used", "2")),
])
def test_two_player_options_answer_as_the_table(capsys, two, table):
    """The two-player options are a shorter form of the same question: the same decision and
    probabilities (the two-player solver's solved rounds against the table's round solved by
    knowledge states on the same values)."""
    short = json.loads(run(capsys, "advise", *two, "--json")[1])
    full = json.loads(run(capsys, "advise", *table, "--json")[1])
    assert short["decision"] == full["decision"] and short["exact"] and full["exact"]
    for key in ("stop_win_probability", "throw_win_probability"):
        assert short[key] == pytest.approx(full[key], abs=1e-9)
    assert short["stop_values"] == pytest.approx(full["stop_values"], abs=1e-9)


def test_advice_from_a_state_text(capsys):
    from dicemath.games.pitjesbak.rules import Rules
    from dicemath.games.pitjesbak.state import initial_state

    state = initial_state(Rules(players=5), stripes=(4, 9, 1, 3, 6), wiped=(True, False, True, True, True))
    state = state.apply((5, 5, 5)).apply("throw").apply((5, 5, 5)).apply("stop")      # limit 2
    state = state.apply((6, 6, 2)).apply("throw").apply((6, 6, 2)).apply((6, 6, 2))   # position 2 after one throw
    assert state.turn == 2 and state.throws == 1
    from_state = json.loads(run(capsys, "advise", str(state), "--json")[1])
    assert from_state == json.loads(run(capsys, "advise", *FIVE, "--json")[1])


@pytest.mark.parametrize("argv, words", [
    (("--stripes-left", "9,9,9,9,9,9,9,9,9", "--position", "0", "--throw", "6-5-4", "--throws-used", "1"),
     "2..8"),                                                                         # nine players (PIT-1)
    (("--stripes-left", "3,-1,9", "--wiped", "1,1,0", "--position", "0", "--throw", "6-5-4", "--throws-used", "1"),
     "stripes"),                                                                      # negative stripes
    (("--stripes-left", "3,2,9", "--wiped", "1,1,0", "--position", "0", "--throw", "7-5-4", "--throws-used", "1"),
     "1..6"),                                                                         # a throw that cannot be
    (("--stripes-left", "3,2,9", "--wiped", "1,1,0", "--position", "0", "--throw", "6-5", "--throws-used", "1"),
     "3 dice"),
    (("--stripes-left", "3,2,9", "--wiped", "1,1", "--position", "0", "--throw", "6-5-4", "--throws-used", "1"),
     "flag"),                                                                         # a flag missing
    (("--stripes-left", "3,2,9", "--wiped", "1,2,0", "--position", "0", "--throw", "6-5-4", "--throws-used", "1"),
     "0 or 1"),
    (("--stripes-left", "3,2,5", "--wiped", "1,1,0", "--position", "0", "--throw", "6-5-4", "--throws-used", "1"),
     "never wiped"),                                                                  # below the starting stripes
    (("--stripes-left", "3,2,9", "--wiped", "1,1,0", "--position", "3", "--throw", "6-5-4", "--throws-used", "1"),
     "position"),
    (("--stripes-left", "3,2,9", "--wiped", "1,1,0", "--position", "1", "--before", "1-1-1", "--limit", "2",
      "--throw", "6-5-4", "--throws-used", "1"), "1-1-1"),
    (("--stripes-left", "3,2,9", "--wiped", "1,1,0", "--position", "1", "--before", "6-5-4", "--limit", "2",
      "--throw", "6-5-4", "--throws-used", "3"), "throws used"),
    (("--stripes-left", "3,2,9", "--position", "0", "--my-stripes", "3", "--throw", "6-5-4", "--throws-used", "1"),
     "not both"),
    (("--stripes-left", "3,2,9", "--position", "0"), "--throw"),
    (("--stripes-left", "3,2,9", "--throw", "6-5-4", "--throws-used", "1"), "--position"),
    (("[0:9 1:9] round 0 start 0 order 0,1 turn 0 limit 0 throws 0 current - results - rolloff - "
      "winner - | last winner - limit 0 results - | 2 players 9 stripes traditional",), "decides"),
])
def test_bad_tables_exit_2(capsys, argv, words):
    from dicemath.cli import main

    assert main(["pitjesbak", "advise", *argv]) == 2
    err = capsys.readouterr().err
    assert "error" in err and words in err, err


# -- the policy card at any table ----------------------------------------------------------------

def test_card_for_three_players(capsys):
    data = json.loads(run(capsys, "card", "--players", "3", "--stripes", "1", "--json")[1])
    assert data["players"] == 3 and data["exact"] is True and len(data["followers"]) == 2
    assert [t["position"] for t in data["thresholds"]] == [0, 1, 2]
    assert set(data["followers"][0]["rows"][0]) == {"best", "limit_3_after_throw_1", "limit_3_after_throw_2",
                                                     "limit_2_after_throw_1"}
    text = run(capsys, "card", "--stripes-left", "1,1,1", "--wiped", "1,1,1", "--stripes", "1")[1]
    assert "Position 2 (0 players after you)" in text and "Position 0, the start player" in text


def test_card_for_five_players_is_an_estimate(capsys):
    data = json.loads(run(capsys, "card", "--players", "5", "--json")[1])
    assert data["exact"] is False and len(data["thresholds"]) == 5
    assert "estimates" in run(capsys, "card", "--players", "5")[1]


def test_bad_cards_exit_2(capsys):
    from dicemath.cli import main

    assert main(["pitjesbak", "card", "--players", "9"]) == 2
    assert main(["pitjesbak", "card", "--stripes-left", "3,9", "--wiped", "1"]) == 2
    assert main(["pitjesbak", "card", "--stripes-left", "3,9", "--state", "3,1,9,0"]) == 2
    assert main(["pitjesbak", "card", "--wiped", "1,0"]) == 2


def test_page_takes_the_tables_of_the_cli(capsys):
    """The page reads a table with the command line's words and function: the same answer as
    ``advise`` and as the state's text form (the generic page path)."""
    from dicemath.games.pitjesbak.game import PITJESBAK_GAME

    from dicemath.cli.page_api import advise

    cli = json.loads(run(capsys, "advise", *FIVE, "--json")[1])
    fields = {a[2:].replace("-", "_"): b for a, b in zip(FIVE[::2], FIVE[1::2])}
    fields["throw_number"] = fields.pop("throws_used")
    fields["current"] = fields.pop("throw")
    page = advise({"game": "pitjesbak", "form": "table", **fields})
    assert page.pop("svg").startswith("<svg") and page.pop("view")["headline"] == cli["best"] and page == cli
    state = PITJESBAK_GAME.read_state(cli["state"])
    assert PITJESBAK_GAME.advise(state).as_dict() == cli
