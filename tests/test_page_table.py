"""The page's table mode: a whole game of several players through ``/api/table/...``, and in a
real browser.

The API keeps nothing about a table: each answer is the view of one state
(:func:`dicemath.cli.page_api.table_view`) and the next request hands the state's text back.
The answers are checked against the library, played beside them: the game's ``table_start``,
``parse_action`` and ``apply`` give the states the API must answer, and ``Game.advise`` the
advice the page must show. The tests run on a game registered for this module only, Pitjesbak's
whole game of several players behind a ``table_start`` of its own (:class:`SmallTable`), and on
every game of the registry that has table states. The browser test drives Debian's headless
Chromium as ``tests/test_serve.py`` does (skipped where it is missing).
"""

from __future__ import annotations

import dataclasses
import json
import random
import threading
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dicemath.cli.page import make_server
from dicemath.cli.page_api import TABLE_SIZES, table_fields, table_show, table_start, table_step, table_view
from dicemath.core.errors import DicemathError
from dicemath.core.game import CHANCE, TERMINAL, Game, sample_chance
from dicemath.core.requests import RequestError
from dicemath.games import registry
from dicemath.games.pitjesbak.game import PitjesbakGame
from dicemath.games.pitjesbak.rules import STANDARD
from dicemath.games.pitjesbak.state import initial_state

from . import test_serve
from .test_bad_input import FUZZ, JSON_VALUE, check_page
from .test_serve import post

browser = test_serve.browser
"""Headless Chromium at a phone's size (the fixture of the page's tests)."""


class SmallTable(PitjesbakGame):
    """Pitjesbak's whole game of 2 to 8 players, with few stripes: a table game whose advice is
    instant, registered for these tests only."""

    name = "smalltable"
    title = "Small table"

    def table_start(self, players: int, rules: Any = None, **options: Any) -> Any:
        if options:
            raise DicemathError(f"no options, got {sorted(options)}")
        return initial_state(dataclasses.replace(rules or STANDARD, players=players, stripes=STRIPES))


STRIPES = 2
"""The stripes of :class:`SmallTable`'s players."""
SMALL = SmallTable()


@pytest.fixture(scope="module")
def games():
    """The registry with :data:`SMALL` after its games, for this module's tests."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(registry, "GAMES", (*registry.GAMES, SMALL))
        yield registry.GAMES


@pytest.fixture(scope="module")
def server(games):
    """The page's server on a free port, answering in a background thread."""
    served = make_server("127.0.0.1", 0, quiet=True)
    thread = threading.Thread(target=served.serve_forever, daemon=True)
    thread.start()
    yield served
    served.shutdown()
    served.server_close()
    thread.join(5)


def without_picture(view: dict) -> dict:
    picture = view.pop("svg")
    assert picture.startswith("<svg")
    return view


def expected_view(state: Any) -> dict:
    """The view of ``state`` worked out from its vocabulary here (a second writing of table_view)."""
    player = state.current_player()
    outcomes = [o for o, _ in state.chance_outcomes()]
    throw = player == CHANCE and all(isinstance(o, tuple) for o in outcomes)
    phase = "over" if player == TERMINAL else "choice" if player >= 0 else "throw" if throw else "outcome"
    return {"state": str(state), "player": player,
            "seat": None if phase == "over" else state.player if player == CHANCE else player, "phase": phase,
            "dice": len(outcomes[0]) if throw else 0,
            "outcomes": [state.action_text(o) for o in outcomes] if phase == "outcome" else [],
            "choices": [state.action_text(a) for a in state.legal_actions()],
            "returns": list(state.returns()) if phase == "over" else []}


# -- the API ----------------------------------------------------------------------------------

def test_the_table_form_is_read_from_table_start(games):
    fields = {f.name: f for f in table_fields(SMALL)}
    assert list(fields) == ["players", "rules"]
    assert fields["players"].choices == tuple(str(n) for n in TABLE_SIZES)     # Pitjesbak: 2..8 (PIT-1)
    assert fields["rules"].choices == tuple(SMALL.presets())
    for game in games:                         # a session's rounds where the game plays sessions
        try:
            game.table_start(2, rounds=2)
        except (NotImplementedError, DicemathError):
            assert "rounds" not in [f.name for f in table_fields(game)]
        else:
            assert [f.name for f in table_fields(game)][-1] == "rounds"
    assert "rounds" in [f.name for f in table_fields(registry.game("fives"))]
    without = [g for g in games if type(g).table_start is Game.table_start]
    assert without and all(table_fields(g) == () for g in without)


def test_a_whole_game_step_by_step_is_the_librarys(games):
    rng = random.Random(7)
    view = table_start({"game": SMALL.name, "players": "3"})
    state = SMALL.table_start(3)
    steps = 0
    while True:
        assert without_picture(dict(view)) == expected_view(state)
        assert table_show({"game": SMALL.name, "state": view["state"]})["state"] == view["state"]
        if view["phase"] == "over":
            break
        if view["phase"] == "choice":
            action = rng.choice(view["choices"])
            assert state.parse_action(action) in state.legal_actions()
        else:
            action = state.action_text(sample_chance(state, rng))
        view = table_step({"game": SMALL.name, "state": view["state"], "action": action})
        state = state.apply(state.parse_action(action))
        steps += 1
    assert steps > 6 and sorted(view["returns"]) == [0.0, 0.0, 1.0]


TABLE_GAMES = [g.name for g in registry.GAMES if table_fields(g)]
"""The games of the registry with table states."""


@pytest.mark.parametrize("name", TABLE_GAMES)
def test_every_table_game_steps_as_the_library(name):
    """Three players of each game with table states: the first steps, throws drawn with the
    state's own probabilities and the first legal choice, are the library's."""
    game = registry.game(name)
    rng = random.Random(11)
    view = table_start({"game": name, "players": "3"})
    state = game.table_start(3)
    for _ in range(12):
        assert without_picture(dict(view)) == expected_view(state)
        if view["phase"] == "over":
            break
        action = state.action_text(sample_chance(state, rng) if state.current_player() == CHANCE
                                   else state.legal_actions()[0])
        view = table_step({"game": name, "state": view["state"], "action": action})
        state = state.apply(state.parse_action(action))
    assert game.read_state(view["state"]) == state


def test_the_advice_at_a_table_is_the_games(games, server):
    view = table_start({"game": SMALL.name, "players": "4"})
    view = table_step({"game": SMALL.name, "state": view["state"], "action": "6-5-4"})
    assert view["phase"] == "choice" and view["seat"] == 0
    status, answer = post(server, "/api/advise", {"game": SMALL.name, "state": view["state"]})
    assert status == 200
    advice = SMALL.advise(SMALL.read_state(view["state"]))
    assert answer["best"] == advice.best.text and answer["best"] in view["choices"]
    assert [o["action"] for o in answer["options"]] == [o.text for o in advice.options]


def test_the_table_routes_over_http(games, server):
    status, view = post(server, "/api/table/start", {"game": SMALL.name, "players": 5})
    assert status == 200 and view["phase"] == "throw" and view["dice"] == 3 and view["seat"] == 0
    assert view["state"] == str(SMALL.table_start(5))
    status, after = post(server, "/api/table/step", {"game": SMALL.name, "state": view["state"], "action": "1-1-1"})
    assert status == 200 and after["state"] == str(SMALL.read_state(view["state"]).apply((1, 1, 1)))
    status, shown = post(server, "/api/table/show", {"game": SMALL.name, "state": after["state"]})
    assert status == 200 and shown == after


@pytest.mark.parametrize("route, request_, message", [
    (table_start, {"game": "smalltable", "players": "9"}, 'field "players": \'9\' is none of'),
    (table_start, {"game": "smalltable", "players": "3", "rounds": 2}, 'unknown field "rounds"'),
    (table_start, {"game": "fives", "players": "3", "rounds": 0}, 'field "rounds" must be 1..99, got 0'),
    (table_start, {"game": "pegs", "players": "7"}, 'field "players": \'7\' is none of'),
    (table_start, {"game": "pig", "players": "2"}, "Pig has no table mode"),
    (table_step, {"game": "smalltable", "state": "nonsense", "action": "6-5-4"}, "nonsense"),
    (table_step, {"game": "smalltable", "state": str(SMALL.table_start(2)), "action": "7-7-7"}, "7"),
    (table_step, {"game": "smalltable", "state": str(SMALL.table_start(2)), "action": "stop"}, ""),
    (table_step, {"game": "smalltable", "state": str(SMALL.table_start(2))}, 'field "action" is required'),
    (table_show, {"game": "smalltable"}, 'field "state" is required'),
])
def test_what_the_table_routes_refuse_names_the_problem(games, route, request_, message):
    with pytest.raises(DicemathError) as refused:
        route(request_)
    assert message in str(refused.value) and str(refused.value)


def test_the_sizes_of_the_tables_are_the_rules(games):
    """Pegs and Fives at tables of 2 to 6, Pitjesbak of 2 to 8 (PIT-1): the sizes offered are
    those the games' table_start take."""
    sizes = {name: table_fields(registry.game(name))[0].choices for name in ("pegs", "fives", "pitjesbak")}
    assert sizes == {"pegs": ("2", "3", "4", "5", "6"), "fives": ("2", "3", "4", "5", "6"),
                     "pitjesbak": tuple(map(str, range(2, 9)))}


@pytest.mark.parametrize("route", [table_start, table_step, table_show])
@pytest.mark.parametrize("name", TABLE_GAMES)
def test_the_table_routes_answer_or_name_the_problem(name, route):
    """Any JSON under the table routes' keys: an answer, or a DicemathError (HTTP 400) in the
    page's words; never another exception (a 500)."""
    example = str(registry.game(name).table_start(2).apply("6-5-4-3-2-1" if name != "pitjesbak" else "6-5-4"))

    @FUZZ
    @given(st.fixed_dictionaries({}, optional={
        "players": st.one_of(st.sampled_from(["2", "3", "6", "8", "9"]), JSON_VALUE),
        "rounds": st.one_of(st.integers(0, 3), JSON_VALUE), "rules": JSON_VALUE,
        "state": st.one_of(st.just(example), JSON_VALUE),
        "action": st.one_of(st.sampled_from(["1", "12", "stop", "6-5-4", "seat 1"]), JSON_VALUE)}))
    def prop(request):
        check_page(route, {"game": name, **request})

    prop()


def test_a_chance_node_that_is_no_throw_offers_its_outcomes(games):
    """Three Pitjesbak players tied on 6-5-4 roll off (PIT-5): the outcomes are the tied seats,
    as the state writes them, and the one chosen wins the round."""
    view = table_start({"game": SMALL.name, "players": "3"})
    for action in ("6-5-4", "stop", "6-5-4", "6-5-4"):
        view = table_step({"game": SMALL.name, "state": view["state"], "action": action})
    state = SMALL.read_state(view["state"])
    assert view["phase"] == "outcome" and view["dice"] == 0
    assert view["outcomes"] == [state.action_text(seat) for seat, _ in state.chance_outcomes()] == \
        ["seat 0", "seat 1", "seat 2"]
    after = table_step({"game": SMALL.name, "state": view["state"], "action": "seat 1"})
    assert after["state"] == str(state.apply(1)) and SMALL.read_state(after["state"]).start == 1


def test_a_finished_game_takes_no_step(games):
    state = SMALL.table_start(2)
    rng = random.Random(1)
    while state.current_player() != TERMINAL:
        state = state.apply(sample_chance(state, rng) if state.current_player() == CHANCE else "stop")
    assert table_view(SMALL, state)["phase"] == "over"
    with pytest.raises(RequestError, match="the game is over"):
        table_step({"game": SMALL.name, "state": str(state), "action": "6-5-4"})


# -- in a phone-sized browser -------------------------------------------------------------------

def _text(browser, css: str) -> str:
    return browser.run(f"return document.querySelector('{css}').textContent")


WAIT = 60.0
"""Seconds a browser test waits for the page: the server answers one request at a time, and a
step may wait for the advice asked before it (on a machine shared while the tests run)."""


def _enter_throw(browser, faces: str) -> None:
    """Tap the dice pad's faces of ``faces`` ("6-5-4") and enter the throw."""
    browser.wait("return !document.getElementById('table-throw').hidden && "
                 "!document.getElementById('table-enter').disabled", WAIT)
    for face in faces.split("-"):
        browser.click(f"#table-pad button[aria-label='add a {face}']")
    browser.click("#table-enter")


def _top(browser) -> str:
    return browser.run("return JSON.parse(localStorage.getItem('dicemath-table')).stack.at(-1)")


def _wait_state(browser, text: str) -> None:
    browser.wait(f"const t = JSON.parse(localStorage.getItem('dicemath-table')); return t && t.stack.at(-1) === "
                 f"{json.dumps(text)} && !document.getElementById('table-undo').disabled === (t.stack.length > 1)",
                 WAIT)


def test_a_table_game_in_a_phone_sized_browser(games, server, browser):
    browser.command("POST", "/url", {"url": server.url})
    browser.wait("return document.querySelector('label[for=table-game-smalltable]')")
    browser.run("localStorage.clear()")
    browser.click("#mode-table")
    browser.click("label[for=table-game-smalltable]")
    browser.run("const e = document.getElementById('table-smalltable-players'); e.value = '3';"
                "e.dispatchEvent(new Event('change', {bubbles: true}))")
    browser.click("#table-start")
    state = SMALL.table_start(3)
    _wait_state(browser, str(state))
    assert _text(browser, "#table-turn") == "Seat 0: the throw of 3 dice"

    _enter_throw(browser, "6-5-4")
    state = state.apply((4, 5, 6))
    _wait_state(browser, str(state))
    browser.wait("return !document.getElementById('table-advice').hidden", WAIT)
    advice = SMALL.advise(state)
    assert _text(browser, "#table-headline") == f"Advice: {advice.best.text}"
    assert _text(browser, "#table-choices button.best") == advice.best.text
    assert browser.run("return document.documentElement.scrollWidth <= window.innerWidth")

    browser.click("#table-choices button[data-action=stop]")
    state = state.apply("stop")
    _wait_state(browser, str(state))
    assert _text(browser, "#table-turn") == "Seat 1: the throw of 3 dice"

    # A reload keeps the game; undo takes back the last step.
    browser.command("POST", "/refresh", {})
    browser.wait("return document.getElementById('table-turn').textContent === 'Seat 1: the throw of 3 dice'", WAIT)
    assert _top(browser) == str(state) and browser.run("return document.getElementById('table-setup').hidden")
    browser.click("#table-undo")
    browser.wait("return document.getElementById('table-turn').textContent === 'Seat 0: choose'", WAIT)
    assert _top(browser) == str(SMALL.table_start(3).apply((4, 5, 6)))


FIVES_NAME = "fives"


def _seat_titles(browser) -> list[str]:
    """The titles of the seats' lines of the table's picture."""
    return browser.run("return [...document.querySelectorAll('#table-picture g.seat > title, "
                       "#table-picture g.seat.mover > title')].map((t) => t.textContent)")


def test_a_three_player_fives_session_in_a_phone_sized_browser(server, browser):
    """Three players start a session of two rounds of Fives from the form and play a few turns
    with the dice pad and the row buttons (one row tapped on the picture): after every step the
    page's state is the library's, and at every decision the advice shown is the library's;
    the boards and totals drawn are the state's. A session kept in the browser near the end of
    its first round resumes on a reload; its last row ends the round: the totals add the rest
    points (FIVES-6) and the next seat starts the next round (FIVES-7)."""
    game = registry.game(FIVES_NAME)
    rng = random.Random(2)
    browser.command("POST", "/url", {"url": server.url})
    browser.wait(f"return document.querySelector('label[for=table-game-{FIVES_NAME}]')")
    browser.run("localStorage.clear()")
    browser.click("#mode-table")
    browser.click(f"label[for=table-game-{FIVES_NAME}]")
    for name, value in (("players", "3"), ("rounds", "2")):
        browser.run(f"const e = document.getElementById('table-{FIVES_NAME}-{name}'); e.value = '{value}';"
                    "e.dispatchEvent(new Event('change', {bubbles: true}))")
    browser.click("#table-start")
    state = game.table_start(3, rounds=2)
    _wait_state(browser, str(state))
    decisions = tapped = 0
    while state.mover < 2 or decisions < 3:
        if state.current_player() == CHANCE:
            dice = f"{state.dice} {'die' if state.dice == 1 else 'dice'}"
            browser.wait(f"return document.getElementById('table-turn').textContent === "
                         f"'Seat {state.mover}: the throw of {dice}'", WAIT)
            throw = state.action_text(sample_chance(state, rng))
            _enter_throw(browser, throw)
            state = state.apply(state.parse_action(throw))
        else:
            browser.wait("return !document.getElementById('table-advice').hidden", WAIT)
            advice = game.advise(state)
            assert _text(browser, "#table-headline") == f"Advice: {advice.best.text}"
            assert _text(browser, "#table-choices button.best") == advice.best.text
            assert browser.run("return [...document.querySelectorAll('#table-choices button')]"
                               ".map((b) => b.textContent)") == [state.action_text(a) for a in state.legal_actions()]
            choice = advice.best.action if decisions % 2 else rng.choice(state.legal_actions())
            if decisions == 1:                                     # a tap on the row in the picture
                box = browser.run(f"""for (const g of document.querySelectorAll('#table-picture g')) {{
                    const t = g.querySelector(':scope > title');
                    if (t && t.textContent.startsWith('number {choice}:')) return g.querySelector('rect.box');
                  }}""")
                browser.tap(box)
                tapped += 1
            else:
                browser.click(f"#table-choices button[data-action='{choice}']")
            state = state.apply(choice)
            decisions += 1
        _wait_state(browser, str(state))
        seats = _seat_titles(browser)
        assert [t.split(": board ")[1].split(";")[0] for t in seats] == \
            [",".join(map(str, board)) for board in state.boards]
    assert tapped == 1 and browser.run("return document.documentElement.scrollWidth <= window.innerWidth")

    # Near the end of the first round, kept in the browser: a reload resumes it.
    from dicemath.games.pegs_fives.table_state import table_decision

    late = table_decision(game.standard, [5] * 11 + [4], (6, 6, 1, 1, 1, 1), [[4] * 12, [5] * 11 + [0]],
                          totals=(10, 30, 25), rounds_left=2)
    kept = {"game": FIVES_NAME, "stack": [str(state), str(late)]}
    browser.run(f"localStorage.setItem('dicemath-table', {json.dumps(json.dumps(kept))})")
    browser.command("POST", "/refresh", {})
    browser.wait("return !document.getElementById('table-advice').hidden", WAIT)
    assert _text(browser, "#table-headline") == f"Advice: {game.advise(late).best.text}"
    assert [t.split("running total ")[1] for t in _seat_titles(browser)] == ["10", "30", "25"]
    browser.click("#table-choices button[data-action='12']")
    after = late.apply(12)
    _wait_state(browser, str(after))
    totals = [int(t.split("running total ")[1]) for t in _seat_titles(browser)]
    assert totals == list(after.totals) == [10, 30 + 78, 25 + 60]        # the rest points of (4,)*12 and of 12 open
    assert after.mover == after.starter == 1 and after.rounds_left == 1 and not any(map(any, after.boards))
    browser.click("#table-undo")
    _wait_state(browser, str(late))
