"""The page under a crowd: latency of each kind of request at 1, 20 and 200 concurrent requests.

Run: ``python benchmarks/bench_page.py [--workers 2] [--time-limit 10] [--crowds 1,20,200]``.
Starts the page's server (:func:`dicemath.cli.page.make_server`) with its worker processes on
a free loopback port, warms each kind of request once, then for each crowd size sends that
many requests of one kind at once and prints how many were answered (and with which HTTP
status), the median and the largest latency, and the wall time. The kinds: a Pegs board's
picture, and advice at each registered game's first decision given in its text form
(``{"game", "state"}``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import threading
import time
import urllib.error
import urllib.request
from collections import Counter

from dicemath.cli.page import make_server
from dicemath.core.game import CHANCE, Game, GameState
from dicemath.games.registry import GAMES


def post(url: str, path: str, body: dict) -> tuple[int, float]:
    """The HTTP status of one request and its latency in seconds."""
    request = urllib.request.Request(url + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=300) as answer:
            answer.read()
            status = answer.status
    except urllib.error.HTTPError as error:
        status = error.code
    except OSError:
        status = 0                                             # the connection was lost
    return status, time.perf_counter() - start


def crowd(url: str, path: str, body: dict, count: int) -> tuple[list[tuple[int, float]], float]:
    """``count`` simultaneous requests: each one's status and latency, and the wall time."""
    answers: list[tuple[int, float]] = []
    lock = threading.Lock()

    def one() -> None:
        answer = post(url, path, body)
        with lock:
            answers.append(answer)

    threads = [threading.Thread(target=one) for _ in range(count)]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers, time.perf_counter() - start


def first_decision(game: Game) -> GameState:
    """The first state of ``game`` where a player decides, the first chance outcome taken each time."""
    state = game.initial_state()
    while state.current_player() == CHANCE:
        state = state.apply(state.chance_outcomes()[0][0])
    return state


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--time-limit", type=float, default=10.0)
    parser.add_argument("--crowds", default="1,20,200")
    args = parser.parse_args()
    server = make_server("127.0.0.1", 0, quiet=True, workers=args.workers, time_limit=args.time_limit)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    kinds = [("pegs picture", "api/picture", {"game": "pegs", "board": "5,5,5,5,5,5,5,5,5,4,2,0"})]
    kinds += [(f"{g.name} advise, first decision", "api/advise", {"game": g.name, "state": str(first_decision(g))})
              for g in GAMES]
    print(f"workers {args.workers}, time limit {args.time_limit:g} s")
    print(f"{'request':34} {'crowd':>5} {'answered':>16} {'median s':>9} {'max s':>8} {'wall s':>8}")
    try:
        for name, path, body in kinds:
            for _ in range(args.workers):                      # each worker's caches warm
                post(server.url, path, body)
            for size in (int(c) for c in args.crowds.split(",")):
                answers, wall = crowd(server.url, path, body, size)
                statuses = ", ".join(f"{s}x{n}" for s, n in sorted(Counter(s for s, _ in answers).items()))
                latencies = [latency for _, latency in answers]
                print(f"{name:34} {size:5d} {statuses:>16} {statistics.median(latencies):9.3f} "
                      f"{max(latencies):8.3f} {wall:8.2f}", flush=True)
    finally:
        server.shutdown()
        server.server_close()


if __name__ == "__main__":
    main()
