"""The page's answers computed in worker processes, each request cut off past a time limit.

A request that starts a long exact solve must not hold the page: each answer is computed by
one of a few worker processes (started with ``spawn``, so a worker holds no lock of the
server's threads) and takes requests once it has imported the library; a request waits at
most :attr:`WorkerPool.time_limit` seconds for a free worker and as long again for its
answer. Past that, the worker is stopped, a fresh one takes its place, and the request is
answered with :class:`PageTimeoutError` naming the limit. The solvers' caches live in each
worker, so a table solved once serves that worker's later requests.
"""

from __future__ import annotations

import multiprocessing
import queue
import sys
import threading
import time
import traceback
from collections.abc import Mapping
from multiprocessing.connection import Connection
from typing import Any

from dicemath.core.errors import DicemathError


STARTUP_LIMIT = 120.0
"""Seconds :meth:`WorkerPool.wait_ready` waits for the workers to import the library."""


class PageTimeoutError(DicemathError):
    """A page request that would run longer than the page's time limit."""


class PageBugError(Exception):
    """A worker failed on a request through a bug (its traceback is on the server's stderr)."""


def _work(connection: Connection) -> None:
    """A worker's loop: answer ``(path, request)`` pairs until the pipe closes."""
    from dicemath.cli.page_api import ROUTES

    connection.send("ready")
    while True:
        try:
            path, request = connection.recv()
        except (EOFError, OSError):
            return
        try:
            answer: tuple[str, Any] = ("ok", ROUTES[path](request))
        except DicemathError as error:
            answer = ("error", (type(error).__name__, str(error)))
        except Exception:                                      # a bug: logged here, never sent to the page
            traceback.print_exc(file=sys.stderr)
            answer = ("bug", None)
        connection.send(answer)


class _Worker:
    """One worker process and the parent's end of its pipe."""

    def __init__(self, context: Any):
        self.connection, child = context.Pipe()
        self.process = context.Process(target=_work, args=(child,), daemon=True)
        self.process.start()
        child.close()

    def stop(self) -> None:
        self.process.terminate()
        self.process.join(timeout=5)
        self.connection.close()


class WorkerPool:
    """A few worker processes that answer the page's requests, each within a time limit.

    Args:
        size: the number of worker processes (>= 1).
        time_limit: seconds a request may wait for a worker, and again for its answer.

    Raises:
        ValueError: a size below 1 or a time limit that is not positive.
    """

    def __init__(self, size: int, time_limit: float):
        if size < 1:
            raise ValueError(f"a worker pool needs at least one worker, got {size}")
        if not time_limit > 0:
            raise ValueError(f"the time limit must be positive, got {time_limit}")
        self.time_limit = time_limit
        self._context = multiprocessing.get_context("spawn")
        self._idle: queue.Queue[_Worker] = queue.Queue()
        self._all: list[_Worker] = []
        for _ in range(size):
            self._add()

    def wait_ready(self, timeout: float = STARTUP_LIMIT) -> None:
        """Block until every worker is ready (has imported the library).

        Raises:
            RuntimeError: a worker was not ready within ``timeout`` seconds.
        """
        deadline = time.monotonic() + timeout
        while self._idle.qsize() < len(self._all):
            if time.monotonic() > deadline:
                raise RuntimeError(f"the page's workers were not ready within {timeout:g} s")
            time.sleep(0.05)

    def _add(self) -> None:
        worker = _Worker(self._context)
        self._all.append(worker)
        threading.Thread(target=self._when_ready, args=(worker,), daemon=True).start()

    def _when_ready(self, worker: _Worker) -> None:
        """Hand ``worker`` out once it has imported the library (its first message)."""
        try:
            if worker.connection.recv() == "ready":
                self._idle.put(worker)
        except (EOFError, OSError):                            # stopped before it was ready
            pass

    def answer(self, path: str, request: Mapping[str, Any]) -> Any:
        """The answer of the route ``path`` to ``request``, computed by a worker.

        Raises:
            PageTimeoutError: no worker was free, or the answer took longer than the limit.
            DicemathError: input the rules refuse (the worker's error, with its message).
            PageBugError: the worker failed through a bug.
        """
        try:
            worker = self._idle.get(timeout=self.time_limit)
        except queue.Empty:
            raise PageTimeoutError(f"the page is busy: no answer could start within {self.time_limit:g} s; "
                                   "try again, or ask the command line") from None
        healthy = True                                     # False: the worker was stopped and replaced
        try:
            worker.connection.send((path, dict(request)))
            if not worker.connection.poll(self.time_limit):
                healthy = False
                self._replace(worker)
                raise PageTimeoutError(f"this answer takes longer than the page's limit of {self.time_limit:g} s; "
                                       "ask the command line (dicemath GAME advise ...), which has no limit")
            kind, payload = worker.connection.recv()
        except (EOFError, OSError):
            healthy = False
            self._replace(worker)
            raise PageBugError("a worker stopped while answering") from None
        finally:
            if healthy:
                self._idle.put(worker)
        if kind == "error":
            raise DicemathError(payload[1])
        if kind == "bug":
            raise PageBugError("a worker failed (the server's log has the details)")
        return payload

    def _replace(self, worker: _Worker) -> None:
        worker.stop()
        self._all.remove(worker)
        self._add()

    def close(self) -> None:
        """Stop every worker."""
        for worker in self._all:
            worker.stop()
        self._all.clear()
