"""The compile notice of :mod:`dicemath.core.jit`: one line when a numba compile runs long."""

from __future__ import annotations

import time

import numba
import numba.core.event
import pytest

from dicemath.core.jit import _CompileAnnouncer


def _compile_fresh_function() -> None:
    def add(a, b):
        return a + b

    numba.njit(cache=False)(add)(1, 2)


@pytest.mark.parametrize("delay,lines", [(0.0, 1), (60.0, 0)])
def test_a_long_compile_is_announced_once_and_a_short_one_not(delay, lines):
    written = []
    announcer = _CompileAnnouncer(delay, written.append)
    with numba.core.event.install_listener("numba:compile", announcer):
        _compile_fresh_function()
        time.sleep(0.2)                      # the notice is written by a timer thread
    assert len(written) == lines
    if lines:
        assert "compiling" in written[0] and "add" in written[0] and "first use only" in written[0]
