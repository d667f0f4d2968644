"""``dicemath serve``: the page's JSON API answers what the command line answers, and the
page works in a real browser at a phone's size.

The API tests start :func:`dicemath.cli.page.make_server` on a free port in a thread and post one
question per game on small positions (instant solves); each answer must equal the command
line's result function's JSON, plus the picture. The browser test drives Debian's headless
Chromium through chromedriver's W3C WebDriver protocol (plain HTTP, the protocol Selenium
speaks); it is skipped where Chromium or chromedriver is not installed (``apt-get install
chromium chromium-driver``), as on CI.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
import xml.etree.ElementTree as ET

import pytest

from dicemath.cli import build_parser
from dicemath.core.commands import _default
from dicemath.games.backgammon import gnubg_engine
from dicemath.cli.page import make_server
from dicemath.games.registry import game_names

PEGS_BOARD = "5,5,5,5,5,5,5,5,5,4,2,0"
"""Three open rows: the exact solve is instant."""
PEGS_ROLL = "6,6,5,5,2,1"


@pytest.fixture(scope="module")
def server():
    """The page's server on a free port, answering in a background thread."""
    served = make_server("127.0.0.1", 0, quiet=True)
    thread = threading.Thread(target=served.serve_forever, daemon=True)
    thread.start()
    yield served
    served.shutdown()
    served.server_close()
    thread.join(5)


def post(server, path: str, body, content_type: str = "application/json") -> tuple[int, dict]:
    """POST ``body`` (JSON) to ``path``; the status and the decoded answer."""
    request = urllib.request.Request(server.url + path.lstrip("/"), data=json.dumps(body).encode(),
                                     headers={"Content-Type": content_type})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def as_json(result: dict) -> dict:
    """``result`` as the command line's ``--json`` writes it (Fractions and numpy as floats)."""
    return json.loads(json.dumps(result, default=_default))


def check_answer(answer: dict, expected: dict) -> None:
    """The answer is the command line's JSON plus a picture of the position."""
    picture = answer.pop("svg")
    assert picture.startswith("<svg") and ET.fromstring(picture).tag.endswith("svg")
    assert answer == as_json(expected)


@pytest.mark.parametrize("game", ["pegs", "fives"])
def test_pegs_and_fives_advice_is_the_clis(server, game):
    from dicemath.games.pegs_fives.fullboard.advice import advise_throw
    from dicemath.games.pegs_fives.rules import FIVES, PEGS
    from dicemath.games.pegs_fives.state import choice_throw_dice

    rules = PEGS if game == "pegs" else FIVES
    board, roll = [int(s) for s in PEGS_BOARD.split(",")], [int(s) for s in PEGS_ROLL.split(",")]
    status, answer = post(server, "/api/advise", {"game": game, "board": PEGS_BOARD, "roll": PEGS_ROLL,
                                                  "throws": ""})
    assert status == 200
    expected = advise_throw(rules, board, roll, dice=choice_throw_dice(rules, roll)).as_dict()
    assert answer["exact"] and answer["recommendation"] == expected["recommendation"]
    check_answer(answer, expected)


def test_pegs_with_throws_left_and_a_throw_without_a_row(server):
    from dicemath.games.pegs_fives.fullboard.advice import advise_throw
    from dicemath.games.pegs_fives.rules import PEGS

    board = [5] * 10 + [3, 4]
    status, answer = post(server, "/api/advise", {"game": "pegs", "board": ",".join(map(str, board)),
                                                  "roll": "6,5,5", "throws": 2})
    assert status == 200
    check_answer(answer, advise_throw(PEGS, board, [6, 5, 5], dice=3, throws=2).as_dict())
    status, answer = post(server, "/api/advise", {"game": "pegs", "board": PEGS_BOARD, "roll": "3,3,3,3,3,3"})
    assert status == 200 and answer["options"] == [] and answer["recommendation"] is None


def test_bohnduell_advice_is_the_clis(server):
    from dicemath.games.bohnduell.commands import parse_position, position_advice

    text = "1:1,0,0,0:1/0:3,2,0,0:2/A"
    status, answer = post(server, "/api/advise", {"game": "bohnduell", "position": text, "depth": "4",
                                                  "table_stock": "8"})
    assert status == 200
    position = parse_position(text)
    expected = position_advice(position, 4, 8).as_dict()
    assert answer["best"] == "H1" and answer["options"][0]["method"] == "exact"
    check_answer(answer, expected)


def test_pitjesbak_advice_is_the_clis(server):
    from dicemath.games.pitjesbak.advice import advise_situation, decision_advice, situation_state
    from dicemath.games.pitjesbak.rules import Rules

    status, answer = post(server, "/api/advise", {
        "game": "pitjesbak", "my_stripes": "2", "my_wiped": True, "their_stripes": 2, "their_wiped": False,
        "role": "follower", "throw_number": "1", "current": "1-2-3", "best": "1-1-2", "limit": "2",
        "stripes": "2", "die_values": "traditional"})
    assert status == 200
    decision = advise_situation(2, True, 2, False, role="follower", throw_number=1, current=(1, 2, 3),
                                best=(1, 1, 2), limit=2, rules=Rules(stripes=2))
    expected = decision_advice(situation_state(decision, Rules(stripes=2)), decision).as_dict()
    picture = answer["svg"]
    assert "Seat 0: stop, or throw again? (throw 1 of 2)" in picture and 'class="advised"' in picture
    check_answer(answer, expected)


@pytest.mark.skipif(not gnubg_engine.available(), reason="the gnubg package is not installed")
def test_backgammon_hint_and_cube_are_the_clis(server):
    from dicemath.games.backgammon.commands_cube import advice_result
    from dicemath.games.backgammon.commands_hint import hint_result

    start = "4HPwATDgc/ABMA"
    status, answer = post(server, "/api/advise", {"game": "backgammon", "query": "hint", "position": start,
                                                  "dice": "3,1", "ply": "0", "rules": "standard"})
    assert status == 200 and answer["moves"][0]["move"] == "8/5 6/5"
    check_answer(answer, hint_result(start, [3, 1], "standard", 0))
    status, answer = post(server, "/api/advise", {"game": "backgammon", "query": "cube", "position": start,
                                                  "cube_value": "2", "cube_owner": "opponent"})
    assert status == 200 and answer["may_double"] is False
    check_answer(answer, advice_result(start, 2, "opponent", 0, "standard"))


def test_picture_of_a_board(server):
    status, answer = post(server, "/api/picture", {"game": "fives", "board": PEGS_BOARD})
    assert status == 200 and answer["board"] == [5] * 9 + [4, 2, 0]
    assert answer["svg"].count('class="box marked"') == 9 * 5 + 4 + 2


def cli_error(argv: list[str], capsys) -> str:
    """The message the command line prints for ``argv`` (after ``error: ``), exit status 2."""
    from dicemath.cli import main

    try:
        assert main(argv) == 2
    except SystemExit as exit_:                          # argparse refused an option
        assert exit_.code == 2
    return capsys.readouterr().err.strip().splitlines()[-1].split("error: ", 1)[1]


@pytest.mark.parametrize("body, argv", [
    ({"game": "pegs", "board": "5,5,5,5,5,5,5,5,5,4,2,-1", "roll": PEGS_ROLL},
     ["pegs", "advise", "--board=5,5,5,5,5,5,5,5,5,4,2,-1", "--roll", PEGS_ROLL]),
    ({"game": "pegs", "board": "5,5,5,x", "roll": PEGS_ROLL},
     ["pegs", "advise", "--board", "5,5,5,x", "--roll", PEGS_ROLL]),
    ({"game": "fives", "board": PEGS_BOARD, "roll": "6,6,5,5,2,7"},
     ["fives", "advise", "--board", PEGS_BOARD, "--roll", "6,6,5,5,2,7"]),
    ({"game": "bohnduell", "position": "nonsense"}, ["bohnduell", "advise", "nonsense"]),
    ({"game": "pitjesbak", "my_stripes": 9, "their_stripes": 9, "role": "follower", "throw_number": 1,
      "current": "1-2-3"},
     ["pitjesbak", "advise", "--my-stripes", "9", "--their-stripes", "9", "--role", "follower",
      "--throw-number", "1", "--current", "1-2-3"]),
    ({"game": "backgammon", "query": "cube", "position": "0,2,0,0,0,0"},
     ["backgammon", "cube", "0,2,0,0,0,0"]),
])
def test_bad_input_is_a_400_with_the_clis_message(server, capsys, body, argv):
    status, answer = post(server, "/api/advise", body)
    assert status == 400 and set(answer) == {"error"}
    assert answer["error"] == cli_error(argv, capsys)
    assert "Traceback" not in answer["error"]


def test_bad_requests_are_400_or_404(server):
    assert post(server, "/api/advise", {"game": "chess"}) == (
        400, {"error": "unknown game 'chess'; known: pegs, fives, pitjesbak, backgammon, bohnduell, pig"})
    status, answer = post(server, "/api/advise", {"game": "pegs", "roll": PEGS_ROLL})
    assert status == 400 and answer["error"] == "the following arguments are required: --board"
    status, answer = post(server, "/api/advise", {"game": "pegs"}, content_type="text/plain")
    assert status == 400 and "Content-Type: application/json" in answer["error"]
    status, answer = post(server, "/api/advise", ["pegs"])
    assert status == 400 and "JSON object" in answer["error"]
    assert post(server, "/api/nothing", {})[0] == 404


def test_a_bug_is_a_500_without_a_traceback(server, monkeypatch, capsys):
    from dicemath.games.registry import game

    def broken(request):
        raise RuntimeError("a bug")

    monkeypatch.setattr(game("pegs"), "page_advice", broken)
    status, answer = post(server, "/api/advise", {"game": "pegs"})
    assert status == 500 and answer == {"error": "internal error (the server's log has the details)"}
    assert "RuntimeError: a bug" in capsys.readouterr().err


def test_the_page_is_served_offline(server):
    with urllib.request.urlopen(server.url, timeout=10) as answer:
        assert answer.headers["Content-Type"].startswith("text/html")
        page = answer.read().decode("utf-8")
    assert 'id="advise"' in page and "/api/advise" in page
    assert "http://" not in page and "https://" not in page and "<script src" not in page
    with pytest.raises(urllib.error.HTTPError, match="404"):
        urllib.request.urlopen(server.url + "missing.js", timeout=10)


def test_serve_subcommand_is_registered():
    args = build_parser().parse_args(["serve", "--port", "0"])
    assert args.port == 0 and args.host == "127.0.0.1" and args.func.__module__ == "dicemath.cli.serve"


# -- the page in a real browser ---------------------------------------------------------------

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
ELEMENT = "element-6066-11e4-a52e-4f735466cecf"
"""The key of an element reference in the W3C WebDriver protocol."""


class WebDriver:
    """A minimal W3C WebDriver client over HTTP (the commands the test needs)."""

    def __init__(self, address: str, session: str):
        self.base = f"{address}/session/{session}"

    @staticmethod
    def call(url: str, method: str = "GET", body: dict | None = None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(url, data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30) as answer:
                return json.load(answer)["value"]
        except urllib.error.HTTPError as error:
            raise AssertionError(f"WebDriver {method} {url}: {error.read().decode(errors='replace')}") from None

    def command(self, method: str, path: str, body: dict | None = None):
        return self.call(self.base + path, method, body)

    def find(self, css: str) -> str:
        return self.command("POST", "/element", {"using": "css selector", "value": css})[ELEMENT]

    def run(self, script: str, *args):
        return self.command("POST", "/execute/sync", {"script": script, "args": list(args)})

    def type_into(self, css: str, text: str) -> None:
        element = self.find(css)
        self.command("POST", f"/element/{element}/clear", {})
        self.command("POST", f"/element/{element}/value", {"text": text})

    def click(self, css: str) -> None:
        self.command("POST", f"/element/{self.find(css)}/click", {})

    def tap(self, element: dict) -> None:
        """Press and release a pointer at the centre of ``element`` (a reference)."""
        self.command("POST", "/actions", {"actions": [{
            "type": "pointer", "id": "finger", "parameters": {"pointerType": "mouse"},
            "actions": [{"type": "pointerMove", "origin": element, "x": 0, "y": 0},
                        {"type": "pointerDown", "button": 0}, {"type": "pointerUp", "button": 0}]}]})

    def wait(self, script: str, timeout: float = 15.0):
        """Run ``script`` until it returns something true; that value."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            value = self.run(script)
            if value:
                return value
            time.sleep(0.05)
        raise AssertionError(f"timed out waiting for: {script}")


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def browser(tmp_path):
    """Headless Chromium showing pages as a phone of 390 x 844 CSS pixels does, through
    chromedriver (headless windows are at least 500 pixels wide: the phone is emulated)."""
    missing = [path for path in (CHROMIUM, CHROMEDRIVER) if not (os.path.exists(path) and os.access(path, os.X_OK))]
    if missing:
        pytest.skip(f"needs Debian's chromium and chromium-driver ({', '.join(missing)} not installed)")
    port = _free_port()
    home = tmp_path / "home"                  # Chromium's caches (dconf, fonts) stay out of the user's home
    home.mkdir()
    environment = {**os.environ, "HOME": str(home), "XDG_CACHE_HOME": str(home / ".cache"),
                   "XDG_CONFIG_HOME": str(home / ".config")}
    driver = subprocess.Popen([CHROMEDRIVER, f"--port={port}"], stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL, env=environment)
    address = f"http://127.0.0.1:{port}"
    session = None
    try:
        end = time.monotonic() + 10
        while True:
            try:
                if WebDriver.call(address + "/status")["ready"]:
                    break
            except (OSError, AssertionError):
                pass
            if time.monotonic() > end:
                pytest.skip("chromedriver did not start within 10 s")
            time.sleep(0.05)
        arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                     "--disable-background-networking", "--disable-component-update", "--disable-sync",
                     f"--user-data-dir={tmp_path / 'profile'}", "--window-size=390,844"]
        created = WebDriver.call(address + "/session", "POST", {"capabilities": {"alwaysMatch": {
            "browserName": "chrome", "goog:chromeOptions": {
                "binary": CHROMIUM, "args": arguments,
                "mobileEmulation": {"deviceMetrics": {"width": 390, "height": 844, "pixelRatio": 3.0,
                                                      "mobile": True, "touch": True}}}}}})
        session = created["sessionId"]
        yield WebDriver(address, session)
    finally:
        if session is not None:
            try:
                WebDriver.call(f"{address}/session/{session}", "DELETE")
            except (OSError, AssertionError):
                pass
        driver.terminate()
        try:
            driver.wait(10)
        except subprocess.TimeoutExpired:
            driver.kill()
            driver.wait()
        shutil.rmtree(tmp_path / "profile", ignore_errors=True)
        shutil.rmtree(home, ignore_errors=True)


def test_pegs_advice_in_a_phone_sized_browser(server, browser):
    from dicemath.games.pegs_fives.fullboard.advice import advise_throw
    from dicemath.games.pegs_fives.rules import PEGS

    browser.command("POST", "/url", {"url": server.url})
    assert browser.run("return window.innerWidth") <= 400
    browser.click("label[for=game-pegs]")
    browser.type_into("#pegs-board", PEGS_BOARD)
    browser.type_into("#pegs-roll", PEGS_ROLL)
    browser.click("#advise")
    browser.wait("return !document.getElementById('summary').hidden")
    expected = advise_throw(PEGS, [int(s) for s in PEGS_BOARD.split(",")],
                                   [int(s) for s in PEGS_ROLL.split(",")]).as_dict()
    assert browser.run("return document.getElementById('recommendation').textContent") == \
        f"Row {expected['recommendation']}"
    assert browser.run("return document.getElementById('exactness').textContent") == "exact"
    assert browser.run("return document.querySelectorAll('#picture svg').length") == 1
    assert browser.run("return document.querySelectorAll('#values tbody tr').length") == len(expected["options"])
    # Fits the phone: nothing wider than the screen, a large button.
    assert browser.run("return document.documentElement.scrollWidth <= window.innerWidth")
    assert browser.run("return document.getElementById('advise').getBoundingClientRect().height") >= 44

    # Tapping row 12's third hole sets its peg there and asks again.
    hole = browser.run("""
        for (const g of document.querySelectorAll('#picture g')) {
          const t = g.querySelector(':scope > title');
          if (t && t.textContent.startsWith('row 12:')) return g.querySelectorAll('circle.hole')[2];
        }""")
    browser.tap(hole)
    browser.wait("return [...document.querySelectorAll('#picture g > title')]"
                 ".some((t) => t.textContent.startsWith('row 12: at step 3 of 5'))")
    assert browser.run("return document.getElementById('pegs-board').value") == "5,5,5,5,5,5,5,5,5,4,2,3"
    browser.wait("return !document.getElementById('advise').disabled")
    after = advise_throw(PEGS, [5] * 9 + [4, 2, 3], [int(s) for s in PEGS_ROLL.split(",")]).as_dict()
    assert browser.run("return document.getElementById('recommendation').textContent") == \
        f"Row {after['recommendation']}"

    # Bad input: the command line's message, no picture change needed.
    browser.type_into("#pegs-board", "5,5,x")
    browser.click("#advise")
    message = browser.wait("const e = document.getElementById('error'); return !e.hidden && e.textContent")
    assert message == "argument --board: expected comma-separated whole numbers, got '5,5,x'"


def _ask(browser, server, game: str, fields: dict[str, str]) -> None:
    """Open the page, pick ``game``, fill ``fields`` (element id -> text) and ask."""
    browser.command("POST", "/url", {"url": server.url})
    browser.click(f"label[for=game-{game}]")
    for element, text in fields.items():
        browser.type_into(f"#{element}", text)
    browser.click("#advise")
    browser.wait("return !document.getElementById('summary').hidden")


def _shown(browser) -> tuple[str, str, int, int]:
    """The headline, the exact/estimate badge, the rows of the values table, the pictures."""
    return (browser.run("return document.getElementById('recommendation').textContent"),
            browser.run("return document.getElementById('exactness').textContent"),
            browser.run("return document.querySelectorAll('#values tbody tr').length"),
            browser.run("return document.querySelectorAll('#picture svg').length"))


def test_fives_advice_in_the_browser(server, browser):
    from dicemath.games.pegs_fives.fullboard.advice import advise_throw
    from dicemath.games.pegs_fives.rules import FIVES

    board, roll = "5,5,5,5,5,5,5,5,5,4,2,0", "6,6,5,5,2,1"
    _ask(browser, server, "fives", {"pegs-board": board, "pegs-roll": roll})
    advice = advise_throw(FIVES, [int(s) for s in board.split(",")], [int(s) for s in roll.split(",")])
    assert _shown(browser) == (f"Number {advice.best.action}", "exact" if advice.exact else "estimate",
                               len(advice.options), 1)


def test_pitjesbak_advice_in_the_browser(server, browser):
    from dicemath.games.pitjesbak.advice import advise_situation

    _ask(browser, server, "pitjesbak", {"pit-my-stripes": "9", "pit-their-stripes": "9", "pit-current": "6-6-2"})
    role = browser.run("return document.getElementById('pit-role').value")
    used = int(browser.run("return document.getElementById('pit-throw-number').value"))
    advice = advise_situation(9, False, 9, False, role=role, throw_number=used, current=(6, 6, 2))
    assert _shown(browser) == ("Stop" if advice.decision == "stop" else "Throw again", "exact", 2, 1)


def test_backgammon_play_in_the_browser(server, browser):
    from dicemath.games.backgammon.hint import hint
    from dicemath.games.backgammon.position import Position

    _ask(browser, server, "backgammon", {"bg-position": "AgAAGAAAAAAAAA", "bg-dice": "3,1"})
    moves = hint(Position.from_str("AgAAGAAAAAAAAA"), (3, 1))       # a bear-off: exact, no gnubg needed
    assert _shown(browser) == (f"Play {moves[0].move}", "exact", len(moves), 1)


def test_bohnduell_advice_in_the_browser(server, browser):
    from dicemath.games.bohnduell.commands import parse_position, position_advice

    _ask(browser, server, "bohnduell", {"bohn-stock": "8", "bohn-table-stock": "8", "bohn-depth": "4"})
    advice = position_advice(parse_position("start", 4, 8, "last"), 4, 8)
    assert _shown(browser) == (f"{advice.extras['to_move']} plays {advice.best.text}",
                               "exact" if advice.exact else "estimate", len(advice.options), 1)


FORMS = ("pegs", "fives", "pitjesbak", "backgammon", "bohnduell")
"""The games the page has a form of its own for; every other registered game is asked for a state."""


@pytest.mark.parametrize("name", [g for g in game_names() if g not in FORMS])
def test_a_game_without_a_form_is_asked_for_its_state(server, browser, name):
    from dicemath.cli.page_api import games
    from dicemath.games.registry import game

    example = next(g["example"] for g in games()["games"] if g["name"] == name)
    browser.command("POST", "/url", {"url": server.url})
    browser.wait(f"return document.querySelector('label[for=game-{name}]')")
    browser.click(f"label[for=game-{name}]")
    assert browser.run("return document.getElementById('state-text').value") == example
    browser.click("#advise")
    browser.wait("return !document.getElementById('summary').hidden")
    advice = game(name).advise(game(name).read_state(example))
    assert _shown(browser) == (advice.best.text, "exact" if advice.exact else "estimate", len(advice.options), 1)


def test_the_api_lists_every_registered_game_with_a_state_it_reads(server):
    from dicemath.games.registry import game

    with urllib.request.urlopen(server.url + "api/games", timeout=30) as answer:
        listed = json.load(answer)["games"]
    assert [g["name"] for g in listed] == game_names()
    for entry in listed:
        state = game(entry["name"]).read_state(entry["example"])
        assert str(state) == entry["example"] and state.current_player() >= 0
        assert post(server, "/api/advise", {"game": entry["name"], "state": entry["example"]})[0] == 200
