"""The page holds a table of players: a crowd of requests loses none, and a long answer is cut
off at the page's time limit without holding the others (worker processes,
:mod:`dicemath.cli.page_workers`)."""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request

import pytest

from dicemath.cli.page import make_server

QUICK = {"game": "pegs", "board": "5,5,5,5,5,5,5,5,5,4,2,0"}
"""A picture of a board: answered in milliseconds."""
SLOW = {"game": "pegs", "board": "0,0,0,0,5,5,5,5,0,0,0,0", "roll": "6,6,5,5,2,1"}
"""Eight open rows: the exact solve takes seconds."""


def _post(url: str, path: str, body: dict) -> tuple[int, dict, float]:
    request = urllib.request.Request(url + path, data=json.dumps(body).encode(),
                                     headers={"Content-Type": "application/json"})
    start = time.perf_counter()
    try:
        with urllib.request.urlopen(request, timeout=120) as answer:
            return answer.status, json.load(answer), time.perf_counter() - start
    except urllib.error.HTTPError as error:
        return error.code, json.load(error), time.perf_counter() - start


@pytest.fixture
def serving(request):
    """A server with two worker processes and the time limit the test names."""
    server = make_server("127.0.0.1", 0, quiet=True, workers=2, time_limit=request.param)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()
    thread.join(5)


def _crowd(url: str, path: str, body: dict, count: int) -> list[tuple[int, dict, float]]:
    answers: list[tuple[int, dict, float]] = []
    lock = threading.Lock()

    def one():
        answer = _post(url, path, body)
        with lock:
            answers.append(answer)

    threads = [threading.Thread(target=one) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return answers


@pytest.mark.parametrize("serving", [30.0], indirect=True)
def test_two_hundred_concurrent_requests_lose_none(serving):
    answers = _crowd(serving.url, "api/picture", QUICK, 200)
    assert len(answers) == 200 and {status for status, _, _ in answers} == {200}
    assert all(body["svg"].startswith("<svg") for _, body, _ in answers)


@pytest.mark.parametrize("serving", [1.0], indirect=True)
def test_a_long_answer_is_cut_off_and_holds_no_other(serving):
    _post(serving.url, "api/picture", QUICK)                    # both workers ready
    slow: list[tuple[int, dict, float]] = []
    thread = threading.Thread(target=lambda: slow.append(_post(serving.url, "api/advise", SLOW)))
    thread.start()
    time.sleep(0.2)
    quick = _crowd(serving.url, "api/picture", QUICK, 10)       # answered by the other worker meanwhile
    thread.join()
    status, body, seconds = slow[0]
    assert status == 503 and "limit of 1 s" in body["error"] and seconds < 5
    assert {s for s, _, _ in quick} == {200}
    assert _post(serving.url, "api/picture", QUICK)[0] == 200   # the stopped worker was replaced
