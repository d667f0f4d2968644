"""The page to ask from at the table: a small local web server (``dicemath serve``).

A player picks a game, types the position and the throw as the command line takes them,
and gets the advice with its values, whether they are exact, and the picture of the
position. Everything is served from here, offline: the page (``data/page.html``, with its
CSS and JavaScript inline) and a JSON API.

- ``GET /``: the page.
- ``POST /api/advise`` with a JSON object ``{"game": GAME, ...}``: the JSON object the
  command line's ``advise`` query prints with ``--json`` (the same result functions are
  called), plus ``"svg"``, the picture of the position (the game's ``drawing.draw``). The
  other keys are the command-line options of that query with ``_`` for ``-``, as strings
  or numbers; an empty string means "not given" (the option's default):

  - ``pegs``, ``fives``: ``board``, ``roll``, ``throws`` (``dicemath pegs advise``);
  - ``bohnduell``: ``position``, ``cups``, ``stock``, ``capture``, ``depth``,
    ``table_stock`` (``dicemath bohnduell advise``);
  - ``pitjesbak``: ``my_stripes``, ``my_wiped``, ``their_stripes``, ``their_wiped``,
    ``role``, ``throw_number``, ``current``, ``best``, ``limit``, ``stripes``,
    ``die_values`` (``dicemath pitjesbak advise``);
  - ``backgammon``: ``query`` ``"hint"`` with ``position``, ``dice``, ``rules``, ``ply``
    (``dicemath backgammon hint``), or ``"cube"`` with ``position`` (a Position ID, or a
    home board with ``versus``), ``cube_value``, ``cube_owner``, ``ply``, ``rules``,
    ``unbounded_cube`` (``dicemath backgammon cube``). Positions with contact need the
    optional ``gnubg`` package, as on the command line.

- ``POST /api/picture`` with ``{"game": "pegs" | "fives", "board": ...}``: ``{"board",
  "svg"}``, the board at the start of a turn (the page redraws it when a hole is tapped).

Input the rules refuse answers HTTP 400 with ``{"error": MESSAGE}``, the message the
command line prints (a :class:`~dicemath.core.errors.DicemathError`'s text, or argparse's
words for an option it cannot read); never a traceback. Requests must be JSON
(``Content-Type: application/json``), which also keeps other web sites' pages from
posting to the server without the browser asking first.

Example:
    >>> import json, threading, urllib.request
    >>> server = make_server("127.0.0.1", 0, quiet=True)
    >>> thread = threading.Thread(target=server.serve_forever, daemon=True)
    >>> thread.start()
    >>> request = urllib.request.Request(
    ...     f"http://127.0.0.1:{server.server_address[1]}/api/advise",
    ...     data=json.dumps({"game": "pegs", "board": "5,5,5,5,5,5,5,5,5,4,2,0",
    ...                      "roll": "6,6,5,5,2,1"}).encode(),
    ...     headers={"Content-Type": "application/json"})
    >>> answer = json.load(urllib.request.urlopen(request))
    >>> answer["recommendation"], answer["exact"], answer["svg"].startswith("<svg")
    (12, True, True)
    >>> server.shutdown(); server.server_close()
"""

from __future__ import annotations

import argparse
import json
import socket
import sys
import threading
import traceback
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from dicemath.cli.support import _default as _json_default
from dicemath.cli.support import int_list
from dicemath.core.errors import DicemathError, InvalidStateError

PAGE = Path(__file__).resolve().parent / "data" / "page.html"
"""The page: HTML with its CSS and JavaScript inline (no network needed)."""

MAX_BODY = 64 * 1024
"""The largest request body accepted, in bytes."""

GAMES = ("pegs", "fives", "pitjesbak", "backgammon", "bohnduell")
"""The games ``/api/advise`` answers, in the page's order."""


class RequestError(DicemathError):
    """A request the server cannot read: not JSON, an unknown game, a missing or unreadable field."""


# -- reading the fields of a request, with argparse's words for what it cannot read ----------

def _option(name: str) -> str:
    return "--" + name.replace("_", "-")


def _given(request: dict, name: str) -> Any:
    """The value of field ``name``, or None when it is absent, null or blank."""
    value = request.get(name)
    if value is None or (isinstance(value, str) and value.strip() == ""):
        return None
    return value


def _text(request: dict, name: str, default: str | None = None, *, required: bool = False,
          positional: bool = False) -> str | None:
    value = _given(request, name)
    if value is None:
        if required:
            raise RequestError(f"the following arguments are required: {name if positional else _option(name)}")
        return default
    if isinstance(value, (dict, list, bool)):
        raise RequestError(f"argument {name if positional else _option(name)}: expected text, got {value!r}")
    return str(value).strip()


def _int(request: dict, name: str, default: int | None = None, *, required: bool = False) -> int | None:
    value = _given(request, name)
    if value is None:
        if required:
            raise RequestError(f"the following arguments are required: {_option(name)}")
        return default
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise RequestError(f"argument {_option(name)}: invalid int value: {value!r}")
    try:
        return int(value)
    except ValueError:
        raise RequestError(f"argument {_option(name)}: invalid int value: {value!r}") from None


def _int_list(request: dict, name: str, *, required: bool = False, positional: bool = False) -> list[int] | None:
    text = _text(request, name, required=required, positional=positional)
    if text is None:
        return None
    try:
        return int_list(text)
    except argparse.ArgumentTypeError as error:
        raise RequestError(f"argument {name if positional else _option(name)}: {error}") from None


def _flag(request: dict, name: str) -> bool:
    value = request.get(name, False)
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "on", "yes")
    return bool(value)


def _choice(request: dict, name: str, choices, default: str | None = None, *, required: bool = False) -> str | None:
    value = _text(request, name, default, required=required)
    if value is not None and value not in choices:
        shown = ", ".join(repr(c) for c in choices)
        raise RequestError(f"argument {_option(name)}: invalid choice: {value!r} (choose from {shown})")
    return value


# -- one function per game: the command line's result function, plus the picture ------------

def _pegs_fives(request: dict) -> dict:
    from dicemath.cli.pegs_fives import advice_picture
    from dicemath.games.pegs_fives.fullboard.advice import advise_throw
    from dicemath.games.pegs_fives.rules import FIVES, PEGS
    from dicemath.games.pegs_fives.state import choice_throw_dice

    rules = PEGS if request["game"] == "pegs" else FIVES
    board = _int_list(request, "board", required=True)
    roll = _int_list(request, "roll", required=True)
    throws = _int(request, "throws")
    dice = choice_throw_dice(rules, roll)
    advice = advise_throw(rules, board, roll, dice=dice, throws=throws)
    result = advice.as_dict()
    result["svg"] = advice_picture(advice, rules)
    return result


def _bohnduell(request: dict) -> dict:
    from dicemath.cli.bohnduell import parse_position, position_advice
    from dicemath.games.bohnduell.search import DEPTH, TABLE_STOCK
    from dicemath.games.bohnduell.drawing import draw

    position = parse_position(_text(request, "position", required=True, positional=True),
                              _int(request, "cups", 4), _int(request, "stock", 40),
                              _choice(request, "capture", ("last", "every"), "last"))
    depth, table_stock = _int(request, "depth", DEPTH), _int(request, "table_stock", TABLE_STOCK)
    advice = position_advice(position, depth, table_stock)
    result = advice.as_dict()
    result["svg"] = draw(position, advice if advice.options else None)
    return result


def _pitjesbak(request: dict) -> dict:
    from dicemath.games.pitjesbak.advice import ROLES, advise_situation, decision_advice, situation_state
    from dicemath.games.pitjesbak.drawing import draw
    from dicemath.games.pitjesbak.rules import DIE_VALUE_VARIANTS, Rules
    from dicemath.games.pitjesbak.throws import parse_throw

    rules = Rules(players=2, stripes=_int(request, "stripes", 9),
                  die_values=_choice(request, "die_values", DIE_VALUE_VARIANTS, "traditional"))
    best = _text(request, "best")
    advice = advise_situation(
        _int(request, "my_stripes", required=True), _flag(request, "my_wiped"),
        _int(request, "their_stripes", required=True), _flag(request, "their_wiped"),
        role=_choice(request, "role", ROLES, required=True),
        throw_number=_int(request, "throw_number", required=True),
        current=parse_throw(_text(request, "current", required=True)),
        best=parse_throw(best) if best else None, limit=_int(request, "limit"), rules=rules)
    state = situation_state(advice, rules)
    answer = decision_advice(state, advice)
    result = answer.as_dict()
    result["svg"] = draw(state, answer)
    return result


def _backgammon(request: dict) -> dict:
    query = _choice(request, "query", ("hint", "cube"), required=True)
    return _backgammon_hint(request) if query == "hint" else _backgammon_cube(request)


def _backgammon_hint(request: dict) -> dict:
    from dicemath.cli.backgammon_hint import hint_picture, hint_result
    from dicemath.games.backgammon.rules import PRESETS

    position = _text(request, "position", required=True, positional=True)
    dice = _int_list(request, "dice", required=True, positional=True)
    rules_name = _choice(request, "rules", sorted(PRESETS), "standard")
    result = hint_result(position, dice, rules_name, _int(request, "ply", 0))
    result["svg"] = hint_picture(position, dice, rules_name, result)
    return result


def _backgammon_cube(request: dict) -> dict:
    from dicemath.cli.backgammon_cube import _is_board, advice_picture, advice_result, bearoff_picture, position_result
    from dicemath.games.backgammon.cube import CUBE_OWNERS, MAX_CUBE
    from dicemath.games.backgammon.rules import PRESETS

    text = _text(request, "position", required=True, positional=True)
    if not _is_board(text):                                   # as run_cube: a Position ID or XGID
        owner = _choice(request, "cube_owner", CUBE_OWNERS, "centred")
        value = _int(request, "cube_value", 1 if owner == "centred" else 2)
        rules_name = _choice(request, "rules", sorted(PRESETS), "standard")
        result = advice_result(text, value, owner, _int(request, "ply", 0), rules_name)
        result["svg"] = advice_picture(text, result)
    else:                                                     # the bear-off form: two home boards
        board = _int_list(request, "position", positional=True)
        versus = _int_list(request, "versus")
        if versus is None:
            raise InvalidStateError("a bear-off position needs --versus (the opponent's home board)")
        result = position_result(board, versus, None if _flag(request, "unbounded_cube") else MAX_CUBE)
        result["svg"] = bearoff_picture(result)
    return result


ADVISERS: dict[str, Callable[[dict], dict]] = {
    "pegs": _pegs_fives, "fives": _pegs_fives, "pitjesbak": _pitjesbak,
    "backgammon": _backgammon, "bohnduell": _bohnduell}
"""The function answering ``/api/advise`` for each game."""


def _game(request: dict) -> str:
    game = _text(request, "game", required=True, positional=True)
    if game not in ADVISERS:
        raise RequestError(f"unknown game {game!r}: choose from {', '.join(GAMES)}")
    return game


def advise(request: dict) -> dict:
    """The answer of ``POST /api/advise`` (see the module docstring).

    Args:
        request: the decoded JSON object, ``{"game": ..., option: value, ...}``.

    Returns:
        The command line's ``--json`` object with ``"svg"``, the picture, added.

    Raises:
        DicemathError: input the rules refuse (the command line's message), or a request
            the server cannot read (:class:`RequestError`).
    """
    game = _game(request)
    return ADVISERS[game]({**request, "game": game})


def picture(request: dict) -> dict:
    """The answer of ``POST /api/picture``: a Pegs or Fives board at the start of a turn.

    Raises:
        DicemathError: another game, or a board the rules refuse.
    """
    from dicemath.games.pegs_fives.drawing import draw
    from dicemath.games.pegs_fives.rules import FIVES, PEGS
    from dicemath.games.pegs_fives.state import initial_state

    game = _game(request)
    if game not in ("pegs", "fives"):
        raise RequestError(f"/api/picture draws Pegs and Fives boards, not {game}")
    rules = PEGS if game == "pegs" else FIVES
    state = initial_state(rules, _int_list(request, "board", required=True))
    return {"board": list(state.board), "svg": draw(state)}


ROUTES: dict[str, Callable[[dict], dict]] = {"/api/advise": advise, "/api/picture": picture}
"""The JSON endpoints, by path."""


# -- the server -------------------------------------------------------------------------------

class AdviceHandler(BaseHTTPRequestHandler):
    """Serves the page (``GET /``) and the JSON API (``POST /api/...``); see the module docstring."""

    server_version = "dicemath"

    def do_GET(self) -> None:                                 # noqa: N802 (the http.server name)
        path = self.path.split("?", 1)[0]
        if path in ("/", "/index.html"):
            self._send(HTTPStatus.OK, PAGE.read_bytes(), "text/html; charset=utf-8")
        elif path == "/favicon.ico":
            self._send(HTTPStatus.NO_CONTENT, b"", None)
        else:
            self._send_json(HTTPStatus.NOT_FOUND, {"error": f"no page at {path}"})

    def do_POST(self) -> None:                                # noqa: N802
        path = self.path.split("?", 1)[0]
        route = ROUTES.get(path)
        if route is None:
            self._send_json(HTTPStatus.NOT_FOUND, {"error": f"no API at {path}"})
            return
        try:
            request = self._read_json()
            with self.server.compute_lock:                    # one solve at a time: the solvers' caches are shared
                result = route(request)
        except DicemathError as error:                        # what the command line prints, exit 2
            self._send_json(HTTPStatus.BAD_REQUEST, {"error": str(error)})
        except Exception:                                     # a bug: logged here, never sent to the page
            traceback.print_exc(file=sys.stderr)
            self._send_json(HTTPStatus.INTERNAL_SERVER_ERROR,
                            {"error": "internal error (the server's log has the details)"})
        else:
            self._send_json(HTTPStatus.OK, result)

    def _read_json(self) -> dict:
        kind = self.headers.get("Content-Type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            raise RequestError(f"send the request as JSON (Content-Type: application/json), not {kind or 'nothing'}")
        try:
            length = int(self.headers.get("Content-Length", "0"))
        except ValueError:
            raise RequestError("bad Content-Length") from None
        if not 0 < length <= MAX_BODY:
            raise RequestError(f"the request body must be 1..{MAX_BODY} bytes, got {length}")
        try:
            request = json.loads(self.rfile.read(length).decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise RequestError(f"the request is not valid JSON: {error}") from None
        if not isinstance(request, dict):
            raise RequestError("the request must be a JSON object, e.g. {\"game\": \"pegs\", ...}")
        return request

    def _send_json(self, status: HTTPStatus, body: dict) -> None:
        self._send(status, json.dumps(body, default=_json_default).encode("utf-8"), "application/json")

    def _send(self, status: HTTPStatus, body: bytes, kind: str | None) -> None:
        self.send_response(status)
        if kind is not None:
            self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args) -> None:       # noqa: A002 (the http.server signature)
        if not self.server.quiet:
            super().log_message(format, *args)


class AdviceServer(ThreadingHTTPServer):
    """A :class:`~http.server.ThreadingHTTPServer` with the :class:`AdviceHandler`.

    Attributes:
        quiet: True to leave requests out of the log on stderr.
        compute_lock: held while an answer is computed (one at a time).
    """

    daemon_threads = True

    def __init__(self, address: tuple[str, int], quiet: bool = False):
        self.quiet = quiet
        self.compute_lock = threading.Lock()
        super().__init__(address, AdviceHandler)

    @property
    def url(self) -> str:
        """The page's address, e.g. ``http://127.0.0.1:8000/``."""
        host, port = self.server_address[:2]
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}/"


class _AdviceServer6(AdviceServer):
    """The :class:`AdviceServer` on an IPv6 address."""

    address_family = socket.AF_INET6


def make_server(host: str = "127.0.0.1", port: int = 8000, *, quiet: bool = False) -> AdviceServer:
    """The server of the page, bound to ``host``:``port`` (port 0: any free port).

    Call ``serve_forever()`` on it to answer requests, ``shutdown()`` from another thread to
    stop, then ``server_close()``. See the module docstring for the example.

    Args:
        host: the address to listen on (``127.0.0.1``: this machine only; ``0.0.0.0``: every
            network interface, so that a phone on the same network can reach it).
        port: the TCP port.
        quiet: leave requests out of the log on stderr.

    Returns:
        The bound :class:`AdviceServer`.

    Raises:
        OSError: the address cannot be bound (in use, not this machine's).
    """
    return (_AdviceServer6 if ":" in host else AdviceServer)((host, port), quiet)
