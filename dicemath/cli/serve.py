"""``dicemath serve``: the page to ask from at the table, served on this machine.

``dicemath serve [--port 8000] [--host 127.0.0.1]`` starts the local web server of
:mod:`dicemath.cli.page` and prints the page's address. The page needs no network beyond it:
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
    serve.set_defaults(func=run_serve)


def run_serve(args) -> int:
    """Serve the page until Ctrl-C; returns the exit code.

    Raises:
        DicemathError: the address cannot be used (a port in use, outside 0..65535, an
            address that is not this machine's).
    """
    from dicemath.cli.page import make_server

    try:
        server = make_server(args.host, args.port)
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
