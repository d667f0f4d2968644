"""``dicemath serve``: the page's JSON API answers what the command line answers, reads every
field by its declaration, and the page works in a real browser at a phone's size.

The API tests start :func:`dicemath.cli.page.make_server` on a free port in a thread and post
questions on small positions (instant solves); each answer must equal the command line's
result function's JSON, plus the picture and the page's view. Every game of the registry and
every field it declares is driven: its form filled with the fields' examples answers, a value
out of a field's bounds, a key that is no field and a field that does not apply are refused
with HTTP 400 naming the field. The browser tests drive Debian's headless Chromium through
chromedriver's W3C WebDriver protocol (plain HTTP, the protocol Selenium speaks); they are
skipped where Chromium or chromedriver is not installed (``apt-get install chromium
chromium-driver``), as on CI.
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
from dicemath.cli.page import make_server
from dicemath.cli.page_api import page_words, state_fields
from dicemath.core.commands import _default
from dicemath.core.requests import Field
from dicemath.games.backgammon import gnubg_engine
from dicemath.games.registry import GAMES, game, game_names

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


def post(server, path: str, body, content_type: str = "application/json", method: str = "POST") -> tuple[int, dict]:
    """Send ``body`` (JSON) to ``path``; the status and the decoded answer."""
    request = urllib.request.Request(server.url + path.lstrip("/"), data=json.dumps(body).encode(),
                                     headers={"Content-Type": content_type}, method=method)
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as error:
        return error.code, json.load(error)


def as_json(result: dict) -> dict:
    """``result`` as the command line's ``--json`` writes it (Fractions and numpy as floats)."""
    return json.loads(json.dumps(result, default=_default))


def check_view(view: dict) -> None:
    """The page's view of an answer: a headline, exact or not, a note, a table of text."""
    assert set(view) == {"headline", "exact", "note", "columns", "rows", "best"}
    assert view["headline"] and isinstance(view["exact"], bool)
    assert all(len(row) == len(view["columns"]) and all(isinstance(c, str) for c in row) for row in view["rows"])
    assert -1 <= view["best"] < max(len(view["rows"]), 1)


def check_answer(answer: dict, expected: dict) -> None:
    """The answer is the command line's JSON plus a picture of the position and the page's view."""
    picture = answer.pop("svg")
    assert picture.startswith("<svg") and ET.fromstring(picture).tag.endswith("svg")
    check_view(answer.pop("view"))
    assert answer == as_json(expected)


@pytest.mark.parametrize("game", ["pegs", "fives"])
def test_pegs_and_fives_advice_is_the_clis(server, game):
    from dicemath.games.pegs_fives.fullboard.advice import advise_throw
    from dicemath.games.pegs_fives.rules import FIVES, PEGS
    from dicemath.games.pegs_fives.state import choice_throw_dice

    rules = PEGS if game == "pegs" else FIVES
    board, roll = [int(s) for s in PEGS_BOARD.split(",")], [int(s) for s in PEGS_ROLL.split(",")]
    blank = {"throws": ""} if rules.throws is not None else {}         # a blank field is one not given
    status, answer = post(server, "/api/advise", {"game": game, "board": PEGS_BOARD, "roll": PEGS_ROLL, **blank})
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
    from dicemath.games.bohnduell.commands import parse_position
    from dicemath.games.bohnduell.game import BOHNDUELL_GAME

    text = "1:1,0,0,0:1/0:3,2,0,0:2/A"
    status, answer = post(server, "/api/advise", {"game": "bohnduell", "position": text, "depth": "4",
                                                  "table_stock": "8"})
    assert status == 200
    position = parse_position(text)
    expected = BOHNDUELL_GAME.advise(position, depth=4, table_stock=8).as_dict()
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
    from dicemath.games.backgammon.game import BACKGAMMON_GAME

    start = "4HPwATDgc/ABMA"
    status, answer = post(server, "/api/advise", {"game": "backgammon", "query": "hint", "position": start,
                                                  "dice": "3,1", "ply": "0", "rules": "standard"})
    assert status == 200 and answer["moves"][0]["move"] == "8/5 6/5"
    check_answer(answer, hint_result(BACKGAMMON_GAME, start, [3, 1], "standard", 0))
    status, answer = post(server, "/api/advise", {"game": "backgammon", "query": "cube", "position": start,
                                                  "cube_value": "2", "cube_owner": "opponent"})
    assert status == 200 and answer["may_double"] is False
    check_answer(answer, advice_result(BACKGAMMON_GAME, start, 2, "opponent", 0, "standard"))


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
    ({"game": "fives", "board": PEGS_BOARD, "roll": "6,6,5,5,2,7"},
     ["fives", "advise", "--board", PEGS_BOARD, "--roll", "6,6,5,5,2,7"]),
    ({"game": "bohnduell", "position": "nonsense"}, ["bohnduell", "advise", "nonsense"]),
    ({"game": "pitjesbak", "my_stripes": 7, "their_stripes": 9, "throw_number": 1, "current": "1-2-3"},
     ["pitjesbak", "advise", "--my-stripes", "7", "--their-stripes", "9", "--role", "start",
      "--throw-number", "1", "--current", "1-2-3"]),
    ({"game": "backgammon", "query": "cube", "position": "nonsense"}, ["backgammon", "cube", "nonsense"]),
])
def test_what_the_rules_refuse_is_a_400_with_the_clis_message_in_the_pages_words(server, capsys, body, argv):
    status, answer = post(server, "/api/advise", body)
    assert status == 400 and set(answer) == {"error"}
    assert answer["error"] == page_words(cli_error(argv, capsys), game(body["game"]).page_fields())
    assert "Traceback" not in answer["error"] and "--" not in answer["error"]


@pytest.mark.parametrize("body, message", [
    ({"game": "pegs", "board": "5,5,5,x", "roll": PEGS_ROLL},
     """field "board": expected comma-separated whole numbers, got '5,5,5,x'"""),
    ({"game": "pegs", "roll": PEGS_ROLL}, 'field "board" is required (Board)'),
    ({"game": "pitjesbak", "my_stripes": 9, "their_stripes": 9, "role": "follower", "throw_number": 1,
      "current": "1-2-3"}, 'field "best" is required (Start player\'s counting throw)'),
    ({"game": "backgammon", "query": "bearoff", "position": "0,2,0,0,0,0"},
     'field "versus" is required (Opponent\'s home board)'),
    ({"game": "backgammon", "query": "cube", "position": "0,2,0,0,0,0"},
     'field "position": a home board is asked with the question "bearoff", not "cube"'),
    ({"game": "bohnduell", "position": "1:1,0,0,0:1/0:3,2,0,0:2/A", "stock": 8},
     'field "stock" applies only to the position "start"'),
    ({"game": "bohnduell", "position": "start", "stock": 8, "depth": 40}, 'field "depth" must be 1..12, got 40'),
    ({"game": "bohnduell", "state": "1:1,0,0,0:1/0:3,2,0,0:2/A", "depth": 4},
     'unknown field "depth" (the fields: state, rules)'),
    ({"game": "pig", "state": "0:0-0 t0 choose", "goal": 50}, 'unknown field "goal" (the fields: state)'),
    ({"game": "pegs", "board": PEGS_BOARD, "roll": PEGS_ROLL, "colour": "red"},
     'unknown field "colour" (the fields: ' + ", ".join(f.name for f in game("pegs").page_fields()) + ")"),
])
def test_a_field_the_page_cannot_use_is_a_400_naming_it(server, body, message):
    assert post(server, "/api/advise", body) == (400, {"error": message})


def test_bad_requests_are_400_or_404(server):
    assert post(server, "/api/advise", {"game": "chess"}) == (
        400, {"error": "unknown game 'chess'; known: " + ", ".join(game_names())})
    status, answer = post(server, "/api/advise", {"game": "pegs"}, content_type="text/plain")
    assert status == 400 and "Content-Type: application/json" in answer["error"]
    status, answer = post(server, "/api/advise", ["pegs"])
    assert status == 400 and "JSON object" in answer["error"]
    assert post(server, "/api/nothing", {})[0] == 404


@pytest.mark.parametrize("method, path, allowed", [
    ("PUT", "/api/advise", "GET, POST"), ("DELETE", "/", "GET, POST"), ("PATCH", "/api/games", "GET, POST"),
    ("GET", "/api/advise", "POST"), ("GET", "/api/picture", "POST"), ("POST", "/", "GET"),
    ("POST", "/api/games", "GET")])
def test_another_method_is_a_405_naming_the_methods_allowed(server, method, path, allowed):
    request = urllib.request.Request(server.url + path.lstrip("/"), method=method,
                                     data=None if method == "GET" else b"{}",
                                     headers={"Content-Type": "application/json"})
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(request, timeout=30)
    assert refused.value.code == 405 and refused.value.headers["Allow"] == allowed
    assert refused.value.headers["Content-Type"] == "application/json"
    assert json.load(refused.value) == {"error": f"{method} is not answered at {path}; use {allowed}"}


PITJESBAK_21 = ("[0:21 1:21] round 0 start 0 order 0,1 turn 0 limit 0 throws 1 current 456 results - rolloff - "
                "winner - | last winner - limit 0 results - | 2 players 21 stripes traditional")
"""A two-player Pitjesbak state of 21 stripes: one beyond the command line's bound."""


@pytest.mark.parametrize("body, argv", [
    ({"game": "pitjesbak", "state": PITJESBAK_21}, ["pitjesbak", "advise", PITJESBAK_21]),
    ({"game": "pitjesbak", "my_stripes": 9, "their_stripes": 9, "throw_number": 1, "current": "6-5-4",
      "stripes": 21}, ["pitjesbak", "advise", "--my-stripes", "9", "--their-stripes", "9", "--role", "start",
                       "--throw-number", "1", "--current", "6-5-4", "--stripes", "21"]),
    ({"game": "pitjesbak", "my_stripes": 21, "their_stripes": 9, "throw_number": 1, "current": "6-5-4"},
     ["pitjesbak", "advise", "--my-stripes", "21", "--their-stripes", "9", "--role", "start", "--throw-number", "1",
      "--current", "6-5-4"]),
    ({"game": "bohnduell", "state": "64:0,0,0,0:0/64:0,0,0,0:0/A"},
     ["bohnduell", "advise", "64:0,0,0,0:0/64:0,0,0,0:0/A"]),
    ({"game": "bohnduell", "position": "64:0,0,0,0:0/64:0,0,0,0:0/A"},
     ["bohnduell", "advise", "64:0,0,0,0:0/64:0,0,0,0:0/A"]),
    ({"game": "bohnduell", "position": "start", "stock": 64}, ["bohnduell", "advise", "start", "--stock", "64"]),
])
def test_every_bound_of_the_command_line_is_the_pages(server, capsys, body, argv):
    """What the command line refuses as beyond its bounds, the page refuses too, in either form."""
    assert cli_error(argv, capsys)
    status, answer = post(server, "/api/advise", body)
    assert status == 400 and "Traceback" not in answer["error"], answer


# -- every game of the registry, every field it declares ----------------------------------------

def filled(fields: tuple[Field, ...], **chosen) -> dict:
    """The request of a form filled as the page starts it, but for the ``chosen`` values: each
    field that applies, its example."""
    request: dict = {}
    for field in fields:
        start = chosen.get(field.name, field.example)
        if field.when is None or request.get(field.when[0], _start(fields, field.when[0])) in field.when[1]:
            if start:
                request[field.name] = start
    return request


def _start(fields: tuple[Field, ...], name: str):
    """The value a field starts with on the page: its example, else its default."""
    field = next(f for f in fields if f.name == name)
    return field.example or field.default


def forms(name: str) -> list[tuple[Field, ...]]:
    """The forms of a game: its own fields (if it declares any) and the state form."""
    return [f for f in (game(name).page_fields(), state_fields(game(name))) if f]


@pytest.mark.parametrize("name", game_names())
def test_every_form_filled_with_its_examples_answers(server, name):
    for fields in forms(name):
        status, answer = post(server, "/api/advise", {"game": name, **filled(fields)})
        assert status == 200, answer
        check_view(answer["view"])
        assert answer["svg"].startswith("<svg")


def _out_of_bounds(field: Field) -> list:
    """Values ``field`` refuses by its declaration alone."""
    values: list = [{"a": 1}, [1, 2]]
    if field.kind == "int":
        values += ["x", 1.5, True] + [b for b in (None if field.low is None else field.low - 1,
                                                   None if field.high is None else field.high + 1) if b is not None]
    elif field.kind == "choice":
        values.append("none of them")
    elif field.kind == "ints":
        values.append("1,x")
    elif field.kind == "throw":
        values.append("6-x")
    elif field.kind == "flag":
        values.append("maybe")
    return values


@pytest.mark.parametrize("name", game_names())
def test_every_declared_field_refuses_what_its_declaration_refuses_by_name(server, name):
    for fields in forms(name):
        base = {"game": name, **filled(fields)}
        for field in fields:
            chosen = {} if field.when is None else {field.when[0]: field.when[1][0]}
            request = {"game": name, **filled(fields, **chosen)}
            assert field.name in request or not field.required, field
            for value in _out_of_bounds(field):
                status, answer = post(server, "/api/advise", {**request, field.name: value})
                assert status == 400 and answer["error"].startswith(f'field "{field.name}"'), (field, value, answer)
            if field.required and field.name != "state":           # without state, a request fills the own form
                status, answer = post(server, "/api/advise", {k: v for k, v in request.items() if k != field.name})
                assert (status, answer) == (400, {"error": f'field "{field.name}" is required ({field.label})'})
            if field.when is not None:
                other = next(f for f in fields if f.name == field.when[0])
                elsewhere = [c for c in other.choices if c not in field.when[1]]
                if elsewhere:
                    request = {"game": name, **filled(fields, **{other.name: elsewhere[0]}),
                               field.name: request[field.name] if field.name in request else "1"}
                    status, answer = post(server, "/api/advise", request)
                    assert status == 400 and answer["error"].startswith(f'field "{field.name}" applies only'), answer
        status, answer = post(server, "/api/advise", {**base, "no_such_field": 1})
        assert status == 400 and answer["error"].startswith('unknown field "no_such_field"')


@pytest.mark.parametrize("name", [g.name for g in GAMES if g.page_fields()])
def test_a_state_with_the_games_own_fields_is_refused_by_name(server, name):
    own = game(name).page_fields()
    example = next(f for f in state_fields(game(name)) if f.name == "state").example
    status, answer = post(server, "/api/advise", {"game": name, "state": example, own[0].name: "1"})
    assert status == 400 and answer["error"].startswith(f'unknown field "{own[0].name}"')


def test_a_bug_is_a_500_without_a_traceback(server, monkeypatch, capsys):
    def broken(request):
        raise RuntimeError("a bug")

    monkeypatch.setattr(game("pegs"), "page_advice", broken)
    status, answer = post(server, "/api/advise", {"game": "pegs", "board": PEGS_BOARD, "roll": PEGS_ROLL})
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
    browser.wait("return document.querySelector('label[for=game-pegs]')")
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

    # Bad input: the field named, in the page's words.
    browser.type_into("#pegs-board", "5,5,x")
    browser.click("#advise")
    message = browser.wait("const e = document.getElementById('error'); return !e.hidden && e.textContent")
    assert message == "field \"board\": expected comma-separated whole numbers, got '5,5,x'"


def _shown(browser) -> tuple[str, str, int, int]:
    """The headline, the exact/estimate badge, the rows of the values table, the pictures."""
    return (browser.run("return document.getElementById('recommendation').textContent"),
            browser.run("return document.getElementById('exactness').textContent"),
            browser.run("return document.querySelectorAll('#values tbody tr').length"),
            browser.run("return document.querySelectorAll('#picture svg').length"))


@pytest.mark.parametrize("name", game_names())
def test_every_games_form_is_drawn_from_its_fields_and_answers_as_the_api(server, browser, name):
    """The page shows each game's form (its own fields, else the state form), every field with
    its label and example, and, asked as it starts, the API's answer to the same request."""
    fields = game(name).page_fields() or state_fields(game(name))
    browser.command("POST", "/url", {"url": server.url})
    browser.wait(f"return document.querySelector('label[for=game-{name}]')")
    browser.click(f"label[for=game-{name}]")
    for field in fields:
        assert browser.run(f"return document.getElementById('{name}-{field.name}') !== null"), field.name
        if field.kind != "flag":
            assert browser.run(f"return document.querySelector('label[for={name}-{field.name}]').textContent") \
                == field.label
    request = filled(fields)
    for field in fields:
        value = browser.run(f"return document.getElementById('{name}-{field.name}').value")
        if field.name in request and field.kind != "flag":
            assert value == request[field.name], field.name
    browser.click("#advise")
    browser.wait("return !document.getElementById('summary').hidden")
    status, answer = post(server, "/api/advise", {"game": name, **request})
    assert status == 200
    view = answer["view"]
    assert _shown(browser) == (view["headline"], "exact" if view["exact"] else "estimate", len(view["rows"]), 1)
    assert browser.run("return document.getElementById('note').textContent") == view["note"]


def test_the_fields_that_apply_follow_the_choices(server, browser):
    """A field declared ``when`` another has some value shows only then (a bear-off's
    opponent board; the follower's counting throw to beat)."""
    browser.command("POST", "/url", {"url": server.url})
    browser.wait("return document.querySelector('label[for=game-backgammon]')")
    browser.click("label[for=game-backgammon]")
    shown = "return !document.getElementById('{}').closest('.field').hidden"
    assert browser.run(shown.format("backgammon-dice")) and not browser.run(shown.format("backgammon-versus"))
    browser.run("const q = document.getElementById('backgammon-query'); q.value = 'bearoff';"
                "q.dispatchEvent(new Event('change', {bubbles: true}))")
    assert not browser.run(shown.format("backgammon-dice")) and browser.run(shown.format("backgammon-versus"))
    # A field whose condition's own field does not apply does not apply either (a follower's
    # counting throw at a table of more players).
    browser.click("label[for=game-pitjesbak]")
    for element, value in (("pitjesbak-role", "follower"), ("pitjesbak-form", "table")):
        browser.run(f"const e = document.getElementById('{element}'); e.value = '{value}';"
                    "e.dispatchEvent(new Event('change', {bubbles: true}))")
    assert not browser.run(shown.format("pitjesbak-best")) and browser.run(shown.format("pitjesbak-position"))
    browser.click("#advise")
    browser.wait("return !document.getElementById('summary').hidden")
    assert "BOHN-3" in browser.run("return document.querySelector('[data-game=bohnduell] .help').textContent")


def test_the_api_lists_every_registered_game_with_a_state_it_reads(server):
    with urllib.request.urlopen(server.url + "api/games", timeout=30) as answer:
        listed = json.load(answer)["games"]
    assert [g["name"] for g in listed] == game_names()
    for entry in listed:
        state = game(entry["name"]).read_state(entry["example"])
        assert str(state) == entry["example"] and state.current_player() >= 0
        assert entry["fields"] == [f.as_dict() for f in game(entry["name"]).page_fields()]
        assert entry["state_fields"] == [f.as_dict() for f in state_fields(game(entry["name"]))]
        assert post(server, "/api/advise", {"game": entry["name"], "state": entry["example"]})[0] == 200
