"""The plug-in proven: Dice Nim (``tests/dicenim.py``), a seventh game defined in the tests,
registered for these tests only, answers through every door with nothing else changed.

The fixture :func:`games` appends it to :data:`dicemath.games.registry.GAMES`, which the command
line, the page, ``analyse``, ``report`` and ``warmup`` read when called, and in the test modules
that bound that tuple at import (the door test, the page's tests), for this module's tests only. Its values are checked
against a second method: the win probabilities worked out from its rules (NIM-1..NIM-3) by a
recursion over the counters left, with no state object and no search.
"""

from __future__ import annotations

import json
import sys
import threading
import urllib.request
from fractions import Fraction
from functools import cache, partial
from pathlib import Path

import pytest
from hypothesis import given

from dicemath.analysis import analyse, replay
from dicemath.analysis.play import record_game
from dicemath.cli import build_parser, main
from dicemath.cli.page import make_server
from dicemath.cli.page_api import advise, page_words, picture
from dicemath.core.game import TERMINAL, check_random_play
from dicemath.games import registry
from dicemath.reporting import Section, section, section_names, sections, write_reports
from dicemath.reporting.sections import analyse as analyse_section

from .conftest import linked_pictures
from .dicenim import DICENIM_GAME, FACE_TAKES, RULES_TEXT, SHORT, STANDARD, State
from .test_bad_input import FUZZ, argv_of, check_page, leaf_commands, requests_of
from .test_bad_input import check_answer as check_command
from .test_doors import test_analyse_values_every_decision_by_the_games_advice as check_one_advice_per_decision
from .test_doors import test_replay_reproduces_the_end_state as check_replay
from .test_serve import as_json, check_answer, cli_error, post


def _bound_to(games: tuple) -> list:
    """The modules whose ``GAMES`` is ``games``."""
    return [module for module in list(sys.modules.values()) if vars(module).get("GAMES") is games]


@pytest.fixture(scope="module")
def games():
    """The registry's games and Dice Nim, in the registry and wherever its ``GAMES`` was bound
    (the tests imported above bound it already)."""
    original = registry.GAMES
    registered = (*original, DICENIM_GAME)
    with pytest.MonkeyPatch.context() as patch:
        for module in _bound_to(original):
            patch.setattr(module, "GAMES", registered)
        yield registered
    for module in _bound_to(registered):             # a module first imported meanwhile
        module.GAMES = original


@cache
def mover_wins(left: int) -> Fraction:
    """P(the player to move wins) with ``left`` counters, both playing best, from NIM-2 and NIM-3."""
    if left == 0:
        return Fraction(0)                               # the other player took the last counter
    return max(option_values(left).values())


def option_values(left: int) -> dict[str, Fraction]:
    """The mover's P(win) after each action with ``left`` counters (NIM-2)."""
    values = {f"take {k}": 1 - mover_wins(left - k) for k in (1, 2) if k <= left}
    values["roll"] = sum((1 - mover_wins(max(0, left - taken)) for taken in FACE_TAKES.values()), Fraction(0)) / 6
    return values


ROLLER = ("roller", lambda state, rng: "roll")
TAKER = ("taker", lambda state, rng: "take 1")
"""Two policies (name, policy): one always rolls, one always takes one counter."""


def played(seed: int):
    """A whole game of the roller against the taker."""
    return record_game(DICENIM_GAME, (ROLLER[1], TAKER[1]), seed=seed, players=(ROLLER[0], TAKER[0]))


# -- the game itself ---------------------------------------------------------------------------

def test_states_round_trip_and_keep_the_vocabulary():
    seen = []

    def round_trip(state):
        assert DICENIM_GAME.read_state(str(state)) == state
        seen.append(state)

    for rules in DICENIM_GAME.presets().values():
        assert check_random_play(DICENIM_GAME.initial_state(rules), games=30, invariant=round_trip) > 100
    assert {s.current_player() for s in seen} == {0, 1, -1, TERMINAL}


@pytest.mark.parametrize("left", range(1, STANDARD.pile + 1))
def test_advice_and_values_are_the_rules_worked_out(left):
    for mover in (0, 1):
        state = State(STANDARD, left, mover)
        advice = DICENIM_GAME.advise(state)
        assert {o.text: o.value for o in advice.options} == option_values(left)
        assert advice.best.value == mover_wins(left) and advice.exact
        valued = DICENIM_GAME.sources(STANDARD).value(state)
        assert valued.values[mover] == float(mover_wins(left)) and sum(valued.values) == 1


# -- the command line --------------------------------------------------------------------------

def test_the_command_line_lists_it_and_prints_its_rules(games, capsys):
    assert "Dice Nim" in build_parser().description and registry.game("dicenim") is DICENIM_GAME
    assert main(["dicenim", "rules"]) == 0
    assert capsys.readouterr().out == RULES_TEXT


def test_advise_on_the_command_line(games, capsys, tmp_path):
    expected = DICENIM_GAME.advise(State(STANDARD, 4)).as_dict()
    assert main(["dicenim", "advise", "0:4/10 choose", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == as_json(expected)
    assert expected["best"] == "take 1" and expected["options"][0]["value"] == 2 / 3
    picture_file = tmp_path / "four.svg"
    assert main(["dicenim", "advise", "--left", "4", "--svg", str(picture_file)]) == 0
    assert "best take 1 (P(win) 0.6667, exact" in capsys.readouterr().out
    assert picture_file.read_text().startswith("<svg")


@pytest.mark.parametrize("argv, message", [
    (["dicenim", "advise", "--left", "12"], "--left 12 is more than --pile 10"),
    (["dicenim", "advise", "--left", "3", "--pile", "31"], "pile must be a whole number 1..30 (NIM-1), got 31"),
    (["dicenim", "advise", "0:4/10 chose"], "cannot read the Dice Nim state '0:4/10 chose'"),
    (["dicenim", "advise", "0:0/10 won"], "nobody decides at 0:0/10 won: the game is over"),
    (["dicenim", "advise"], "give a STATE, or --left"),
])
def test_bad_input_exits_2_naming_it(games, capsys, argv, message):
    assert main([*argv, "--json"]) == 2
    out, err = capsys.readouterr()
    assert message in err and json.loads(out) == {"error": err.strip().split("error: ", 1)[1]}


# -- the page ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def server(games):
    """The page's server, answering in this process (so it sees the games registered here)."""
    served = make_server("127.0.0.1", 0, quiet=True)
    thread = threading.Thread(target=served.serve_forever, daemon=True)
    thread.start()
    yield served
    served.shutdown()
    served.server_close()
    thread.join(5)


def test_the_page_draws_its_form_from_its_fields(games, server):
    with urllib.request.urlopen(server.url + "api/games", timeout=60) as answer:
        offered = json.load(answer)["games"]
    assert [g["name"] for g in offered] == [g.name for g in games]
    entry = offered[-1]
    assert [f["name"] for f in entry["fields"]] == ["left", "pile"]
    assert [f["name"] for f in entry["state_fields"]] == ["state", "rules"]
    assert entry["state_fields"][1]["choices"] == ["standard", "short"] and entry["example"] == "0:10/10 choose"


def test_the_page_answers_its_fields_and_its_states(games, server):
    status, answer = post(server, "/api/advise", {"game": "dicenim", "left": "4"})
    assert status == 200
    check_answer(answer, DICENIM_GAME.advise(State(STANDARD, 4)).as_dict())
    status, answer = post(server, "/api/advise", {"game": "dicenim", "state": "1:3/5 choose", "rules": "short"})
    assert status == 200 and answer["best"] == "roll"
    check_answer(answer, DICENIM_GAME.advise(State(SHORT, 3, 1)).as_dict())
    status, answer = post(server, "/api/picture", {"game": "dicenim", "state": "0:3/10 rolling"})
    assert status == 200 and answer["state"] == "0:3/10 rolling" and answer["svg"].count("<circle") == 10


@pytest.mark.parametrize("body, argv", [
    ({"game": "dicenim", "left": 12}, ["dicenim", "advise", "--left", "12"]),
    ({"game": "dicenim", "left": 3, "pile": 2}, ["dicenim", "advise", "--left", "3", "--pile", "2"]),
    ({"game": "dicenim", "state": "0:4/10 chose"}, ["dicenim", "advise", "0:4/10 chose"]),
])
def test_what_the_rules_refuse_is_a_400_in_the_pages_words(games, server, capsys, body, argv):
    status, answer = post(server, "/api/advise", body)
    assert status == 400 and answer["error"] == page_words(cli_error(argv, capsys), DICENIM_GAME.page_fields())
    assert "--" not in answer["error"]


@pytest.mark.parametrize("body, message", [
    ({"game": "dicenim", "left": 40}, 'field "left" must be 1..30, got 40'),
    ({"game": "dicenim", "pile": 5}, 'field "left" is required (Counters left)'),
    ({"game": "dicenim", "left": 4, "depth": 2}, 'unknown field "depth" (the fields: left, pile)'),
    ({"game": "dicenim", "state": "0:4/10 choose", "rules": "long"}, "field \"rules\": 'long' is none of"),
    ({"game": "dicenim", "state": "0:4/10 choose", "rules": "short"}, "has a pile of 10; the rules say 5"),
])
def test_what_its_fields_refuse_is_a_400_naming_the_field(games, server, body, message):
    status, answer = post(server, "/api/advise", body)
    assert status == 400 and message in answer["error"]


# -- analyse -----------------------------------------------------------------------------------

def test_analyse_costs_a_decision_list_by_its_advice(games):
    record = {"game": "dicenim", "decisions": [{"state": "0:4/10 choose", "choice": "take 2"},
                                               {"state": "1:3/10 choose", "choice": "roll"}]}
    first, second = analyse(record, games).decisions
    assert (first.choice, first.best, first.exact) == ("take 2", "take 1", True)
    assert first.loss > 0 and first.loss == pytest.approx(float(mover_wins(4) - option_values(4)["take 2"]), abs=1e-15)
    assert (second.best, second.loss, second.context) == ("roll", 0.0, {"left": 3})
    with pytest.raises(Exception, match="unknown game 'dicenim'"):
        analyse(record, games[:-1])


@pytest.mark.parametrize("seed", range(3))
def test_analyse_a_whole_game_its_luck_and_losses_are_the_change_of_value(games, seed):
    record = played(seed)
    result, final = analyse(record, games), replay(record, games)
    assert result.finished and final.current_player() == TERMINAL and result.chance and result.decisions
    start, end = result.trajectory[0][1].values, result.trajectory[-1][1].values
    assert start[0] == float(mover_wins(STANDARD.pile)) and end == tuple(map(float, final.returns()))
    for seat in (0, 1):
        luck = sum(event.luck[seat] for event in result.chance)
        lost = sum(d.loss for d in result.decisions if d.player == seat)
        gained = sum(d.loss for d in result.decisions if d.player != seat)
        assert end[seat] - start[seat] == pytest.approx(luck - lost + gained, abs=1e-12)


def test_the_door_tests_hold_for_it(games):
    check_one_advice_per_decision(DICENIM_GAME)
    check_replay(DICENIM_GAME)


def test_analyse_on_the_command_line_draws_its_costliest_decisions(games, capsys, tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps(played(0).as_dict()))
    assert main(["analyse", str(path), "--json", "--pictures", str(tmp_path / "drawn")]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["game"] == "dicenim" and answer["total_loss"] == pytest.approx(analyse(path, games).total_loss)
    drawn = [Path(name) for name in answer["pictures"]]
    assert drawn and all(p.parent == tmp_path / "drawn" and p.read_text().startswith("<svg") for p in drawn)


# -- the report --------------------------------------------------------------------------------

def test_the_report_writes_its_section_and_its_analysed_games(games, tmp_path):
    records = tmp_path / "records"
    records.mkdir()
    for seed in range(3):
        (records / f"dicenim-{seed}.json").write_text(json.dumps(played(seed).as_dict()))
    handed = sections(games)
    assert section_names(handed)[-2:] == ["dicenim", "analyse"]
    analysed = Section("analyse", section("analyse", handed).title,
                       partial(analyse_section.compute, games=games, folder=records), analyse_section.render)
    out = tmp_path / "report"
    written = write_reports(out, (section("dicenim", handed), analysed), jobs=1, log=lambda *_, **__: None)
    assert [p.name for p in written] == ["dicenim.md", "analyse.md", "README.md"]
    own = (out / "dicenim.md").read_text()
    rolls = [str(left) for left in range(1, 11) if option_values(left)["roll"] == mover_wins(left)]
    assert f"Roll with {', '.join(rolls)} left." in own and len(rolls) > 1
    assert [p.name for p in linked_pictures(own, out)] == ["dicenim_start.svg"]
    report = (out / "analyse.md").read_text()
    assert "- **dicenim** (" in report and "### dicenim\n" in report and "**dicenim**, " in report
    assert [p.name for p in linked_pictures(report, out)][-1] == "analyse_dicenim_costliest.svg"


# -- the fuzz ----------------------------------------------------------------------------------

def test_the_fuzz_drives_its_commands(games):
    commands = [(words, parser) for words, parser in leaf_commands(build_parser()) if words[0] == "dicenim"]
    assert sorted(words for words, _ in commands) == [("dicenim", "advise"), ("dicenim", "rules")]
    for words, parser in commands:
        @FUZZ
        @given(argv_of(words, parser))
        def prop(argv):
            check_command(argv)

        prop()


@pytest.mark.parametrize("route", [advise, picture])
def test_the_fuzz_drives_its_page_fields(games, route):
    @FUZZ
    @given(requests_of("dicenim"))
    def prop(request):
        check_page(route, request)

    prop()
