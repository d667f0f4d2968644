"""``dicemath serve``: the page to ask from at the table, served on this machine.

``dicemath serve [--port 8000] [--host 127.0.0.1] [--workers 2] [--time-limit 10]`` starts the
local web server of :mod:`dicemath.cli.page` and prints the page's address; the answers are
computed by worker processes, each request cut off with HTTP 503 past the time limit
(:mod:`dicemath.cli.page_workers`). The page needs no network beyond it:
pick a game, type the position and the throw as the command line's ``advise`` takes them,
and read the advice, its values, whether they are exact, and the picture of the position.
``--host 0.0.0.0`` lets a phone on the same network open the page (anyone on that network
can then use it). Ctrl-C stops the server.
"""

from __future__ import annotations

import sys

from dicemath.core.errors import DicemathError


def register(subparsers) -> None:
    """Add the ``serve`` sub-command."""
    serve = subparsers.add_parser("serve", help="a local web page to ask for advice at the table")
    serve.add_argument("--port", type=int, default=8000, help="TCP port (default 8000; 0 picks a free one)")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1, this machine only; 0.0.0.0 for a "
                            "phone on the same network)")
    serve.add_argument("--workers", type=int, default=None, metavar="N",
                       help="worker processes computing the answers (default 2; 1..32)")
    serve.add_argument("--time-limit", type=float, default=None, metavar="SECONDS",
                       help="a request waits at most this long for a worker and again for its answer, then is "
                            "answered 503 with the limit named (default 10; 0.1..600)")
    serve.set_defaults(func=run_serve)


def run_serve(args) -> int:
    """Serve the page until Ctrl-C; returns the exit code.

    Raises:
        DicemathError: the address cannot be used (a port in use, outside 0..65535, an
            address that is not this machine's).
    """
    from dicemath.cli.page import TIME_LIMIT, WORKERS, make_server

    workers = WORKERS if args.workers is None else args.workers
    time_limit = TIME_LIMIT if args.time_limit is None else args.time_limit
    if not 1 <= workers <= 32:
        raise DicemathError(f"--workers must be 1..32, got {workers}")
    if not 0.1 <= time_limit <= 600:
        raise DicemathError(f"--time-limit must be 0.1..600 seconds, got {time_limit:g}")
    try:
        server = make_server(args.host, args.port, workers=workers, time_limit=time_limit)
    except OverflowError:
        raise DicemathError(f"--port must be 0..65535, got {args.port}") from None
    except OSError as error:
        raise DicemathError(f"cannot serve on {args.host}:{args.port}: {error.strerror or error}") from None
    print(f"dicemath: the advice page is at {server.url} (Ctrl-C stops the server)", flush=True)
    if args.host not in ("127.0.0.1", "localhost", "::1"):
        print("dicemath: anyone who can reach this address on the network can use the page", file=sys.stderr)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
