"""The page to ask from at the table: a small local web server (``dicemath serve``).

A player picks a game, fills its form (drawn from the fields the game declares,
:meth:`~dicemath.core.game.Game.page_fields`) and gets the advice with its values, whether
they are exact, and the picture of the position. In its table mode a table of players plays a
whole game (or a Fives session) of a game with table states
(:meth:`~dicemath.core.game.Game.table_start`): the player to move enters his throw with the
dice buttons and taps his choice, the page shows every board as the game draws them and the
advice of each player in turn, and keeps the game in the browser (its states' texts in
``localStorage``: a reload resumes it, undo takes back the last step; the server keeps nothing).
Everything is served from here, offline: the page (``data/page.html``, with its CSS and
JavaScript inline) and a JSON API.

- ``GET /``: the page; ``GET /api/games``: the games it offers and their fields
  (:func:`~dicemath.cli.page_api.games`).
- ``POST /api/advise``, ``POST /api/picture`` and the table mode's ``POST /api/table/start``,
  ``/api/table/step`` and ``/api/table/show``: the JSON API, answered by the routes of
  :mod:`dicemath.cli.page_api` (:data:`~dicemath.cli.page_api.ROUTES`, its module docstring
  describes the requests and answers), in this process or in the worker processes of
  :mod:`dicemath.cli.page_workers`; :func:`advise`, :func:`picture` and :data:`ROUTES` are
  importable from here too.

A request the page cannot use answers HTTP 400 with ``{"error": MESSAGE}``, naming the field
(an unknown one, one that does not apply, a value out of its bounds) or what the rules refuse,
in the page's words; never a traceback. Another method than ``GET`` and ``POST`` (or the
other one of the two on a path) answers 405 with ``Allow``, every error as JSON. Requests
must be JSON (``Content-Type: application/json``), which also keeps other web sites' pages
from posting to the server without the browser asking first.

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

import json
import socket
import sys
import threading
import traceback
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from dicemath.cli.page_api import ROUTES, advise, games, picture  # noqa: F401 (advise, picture: importable from here)
from dicemath.cli.page_workers import PageTimeoutError, WorkerPool
from dicemath.core.commands import _default as _json_default
from dicemath.core.errors import DicemathError
from dicemath.core.requests import RequestError

PAGE = Path(__file__).resolve().parent / "data" / "page.html"
"""The page: HTML with its CSS and JavaScript inline (no network needed)."""

PAGES = ("/", "/index.html", "/api/games", "/favicon.ico")
"""The paths answered to ``GET``."""

MAX_BODY = 64 * 1024
"""The largest request body accepted, in bytes."""

BACKLOG = 1024
"""Connections the listening socket holds before they are accepted (the standard library's 5
drops connections of a crowd)."""

WORKERS = 2
"""Worker processes ``dicemath serve`` starts by default."""

TIME_LIMIT = 10.0
"""Seconds a request may wait for a worker, and again for its answer, by default; past that it
is answered with HTTP 503 and a message naming the limit."""

# -- the server -------------------------------------------------------------------------------

class AdviceHandler(BaseHTTPRequestHandler):
    """Serves the page (``GET /``) and the JSON API (``POST /api/...``); see the module docstring."""

    server_version = "dicemath"
    server: AdviceServer

    def do_GET(self) -> None:                                 # noqa: N802 (the http.server name)
        path = self.path.split("?", 1)[0]
        if path in ROUTES:
            self._not_allowed("POST")
        elif path in ("/", "/index.html"):
            self._send(HTTPStatus.OK, PAGE.read_bytes(), "text/html; charset=utf-8")
        elif path == "/api/games":
            self._send_json(HTTPStatus.OK, games())
        elif path == "/favicon.ico":
            self._send(HTTPStatus.NO_CONTENT, b"", None)
        else:
            self._send_json(HTTPStatus.NOT_FOUND, {"error": f"no page at {path}"})

    def do_POST(self) -> None:                                # noqa: N802
        path = self.path.split("?", 1)[0]
        route = ROUTES.get(path)
        if route is None:
            if path in PAGES:
                self._not_allowed("GET")
            else:
                self._send_json(HTTPStatus.NOT_FOUND, {"error": f"no API at {path}"})
            return
        try:
            request = self._read_json()
            if self.server.pool is not None:
                result = self.server.pool.answer(path, request)
            else:
                with self.server.compute_lock:                # one solve at a time: the solvers' caches are shared
                    result = route(request)
        except PageTimeoutError as error:                     # past the page's time limit: the others go on
            self._send_json(HTTPStatus.SERVICE_UNAVAILABLE, {"error": str(error)})
        except DicemathError as error:                        # what the command line prints, exit 2
            self._send_json(HTTPStatus.BAD_REQUEST, {"error": str(error)})
        except Exception:                                     # a bug: logged here, never sent to the page
            traceback.print_exc(file=sys.stderr)
            self._send_json(HTTPStatus.INTERNAL_SERVER_ERROR,
                            {"error": "internal error (the server's log has the details)"})
        else:
            self._send_json(HTTPStatus.OK, result)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """http.server's errors as JSON; an unsupported method (its 501) is 405 with ``Allow``."""
        if code == HTTPStatus.NOT_IMPLEMENTED:
            self._not_allowed("GET, POST")
            return
        self.close_connection = True
        self._send_json(HTTPStatus(code), {"error": message or HTTPStatus(code).phrase})

    def _not_allowed(self, allowed: str) -> None:
        """HTTP 405: the method is none the path answers (``allowed``)."""
        body = {"error": f"{self.command} is not answered at {self.path.split('?', 1)[0]}; use {allowed}"}
        self._send_json(HTTPStatus.METHOD_NOT_ALLOWED, body, {"Allow": allowed})

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
            raise RequestError("the request must be a JSON object, e.g. {\"game\": GAME, ...}")
        return request

    def _send_json(self, status: HTTPStatus, body: dict, headers: dict[str, str] | None = None) -> None:
        self._send(status, json.dumps(body, default=_json_default).encode("utf-8"), "application/json", headers)

    def _send(self, status: HTTPStatus, body: bytes, kind: str | None, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        if kind is not None:
            self.send_header("Content-Type", kind)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
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
        pool: the worker processes that compute the answers, each within the time limit
            (:class:`~dicemath.cli.page_workers.WorkerPool`), or None: answers are computed in
            the server's own threads, one at a time, with no limit.
        compute_lock: held while an answer is computed in the server's threads.
    """

    daemon_threads = True
    request_queue_size = BACKLOG
    server_address: tuple[str, int] | tuple[str, int, int, int]     # IPv4, or IPv6 (with flow and scope)

    def __init__(self, address: tuple[str, int], quiet: bool = False, pool: WorkerPool | None = None):
        self.quiet = quiet
        self.pool = pool
        self.compute_lock = threading.Lock()
        super().__init__(address, AdviceHandler)

    def server_close(self) -> None:
        """Close the socket and stop the worker processes."""
        super().server_close()
        if self.pool is not None:
            self.pool.close()

    @property
    def url(self) -> str:
        """The page's address, e.g. ``http://127.0.0.1:8000/``."""
        host, port = self.server_address[:2]
        shown = f"[{host}]" if ":" in host else host
        return f"http://{shown}:{port}/"


class _AdviceServer6(AdviceServer):
    """The :class:`AdviceServer` on an IPv6 address."""

    address_family = socket.AF_INET6


def make_server(host: str = "127.0.0.1", port: int = 8000, *, quiet: bool = False, workers: int = 0,
                time_limit: float = TIME_LIMIT) -> AdviceServer:
    """The server of the page, bound to ``host``:``port`` (port 0: any free port).

    Call ``serve_forever()`` on it to answer requests, ``shutdown()`` from another thread to
    stop, then ``server_close()``. See the module docstring for the example.

    Args:
        host: the address to listen on (``127.0.0.1``: this machine only; ``0.0.0.0``: every
            network interface, so that a phone on the same network can reach it).
        port: the TCP port.
        quiet: leave requests out of the log on stderr.
        workers: worker processes that compute the answers (ready when this returns), each
            request cut off past ``time_limit`` seconds (``dicemath serve`` starts :data:`WORKERS`); 0 computes them
            in the server's threads, one at a time, with no limit.
        time_limit: the seconds a request may wait for a worker, and again for its answer.

    Returns:
        The bound :class:`AdviceServer`.

    Raises:
        OSError: the address cannot be bound (in use, not this machine's).
        ValueError: a negative number of workers or a time limit that is not positive.
        RuntimeError: the workers did not start.
    """
    if workers < 0:
        raise ValueError(f"workers must be 0 or more, got {workers}")
    pool = WorkerPool(workers, time_limit) if workers else None
    try:
        if pool is not None:
            pool.wait_ready()
        return (_AdviceServer6 if ":" in host else AdviceServer)((host, port), quiet, pool)
    except BaseException:
        if pool is not None:
            pool.close()
        raise
