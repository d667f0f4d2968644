"""Compile a module of plain-Python rules with numba, calls between them included.

A game writes a rule once, as plain Python in the subset numba compiles (loops, integer
arithmetic, numpy arrays), and runs it both ways: as Python in its rules engine and
compiled in its fast kernels. numba compiles one function at a time and cannot call a
plain-Python function, so a rule that calls another (a play calls the step rule) cannot
be compiled with ``numba.njit`` alone. :func:`compile_functions` compiles such a group:
each function is copied with a namespace in which the names it calls are the compiled
twins of the others.

This module imports numba: import it only inside the kernels that need it, never from a
module that ``import dicemath`` loads.
"""

from __future__ import annotations

import sys
import threading
import types
from collections.abc import Callable, Collection, Iterable, Mapping
from typing import Any

import numba
import numba.core.event


def compile_functions(module: types.ModuleType, names: Iterable[str], bindings: Mapping[str, Any] | None = None,
                      suffix: str = "", inline: Collection[str] = (), cache: bool = True) -> dict[str, Any]:
    """Compile ``module``'s functions ``names`` with numba, each calling the others' twins.

    Args:
        module: the module of plain-Python functions.
        names: the functions to compile, callees before callers.
        bindings: names to bind to other compiled functions instead (to compile the same
            source a second time over another representation of its data).
        suffix: added to the twins' qualified names, so that numba's on-disk cache keeps
            such a second compilation apart from the first.
        inline: the names to inline into their callers (small functions in inner loops).
        cache: keep the machine code in numba's on-disk cache (needs a source file).

    Returns:
        The namespace the twins see: ``namespace[name]`` is the compiled ``name``.

    Example:
        >>> import types
        >>> rules = types.ModuleType("rules")
        >>> exec("def double(x):\\n    return 2 * x\\n\\ndef quadruple(x):\\n    return double(double(x))",
        ...      rules.__dict__)
        >>> compile_functions(rules, ("double", "quadruple"), cache=False)["quadruple"](3)
        12
    """
    namespace = dict(vars(module))
    namespace.update(bindings or {})
    for name in names:
        function = getattr(module, name)
        twin = types.FunctionType(function.__code__, namespace, name, function.__defaults__)
        twin.__qualname__ = function.__qualname__ + suffix
        twin.__module__ = function.__module__
        namespace[name] = numba.njit(cache=cache, inline="always" if name in inline else "never")(twin)
    return namespace


ANNOUNCE_AFTER = 2.0
"""Seconds a numba compile runs before :func:`announce_compiles` says so."""


class _CompileAnnouncer(numba.core.event.Listener):
    """Writes one line when the outermost numba compile of a thread has run for ``delay``
    seconds (a compile loaded from numba's cache ends long before)."""

    def __init__(self, delay: float, write: Callable[[str], object]):
        self.delay = delay
        self.write = write
        self.local = threading.local()

    def on_start(self, event: numba.core.event.Event) -> None:
        depth = getattr(self.local, "depth", 0)
        self.local.depth = depth + 1
        if depth == 0:
            function = event.data["dispatcher"].py_func
            line = (f"dicemath: compiling {function.__module__}.{function.__qualname__} and the kernels it calls "
                    "with numba (first use only: later runs load them from numba's cache) ...")
            self.local.timer = threading.Timer(self.delay, self.write, (line,))
            self.local.timer.daemon = True
            self.local.timer.start()

    def on_end(self, event: numba.core.event.Event) -> None:
        self.local.depth -= 1
        if self.local.depth == 0:
            self.local.timer.cancel()


_announcer: _CompileAnnouncer | None = None


def announce_compiles(delay: float = ANNOUNCE_AFTER, write: Callable[[str], object] | None = None) -> None:
    """From now on, say on stderr (or through ``write``) when a numba compile has run for
    ``delay`` seconds: a user waiting for a first query sees why. Installed once per process
    (later calls change nothing); every module of numba kernels calls it on import."""
    global _announcer
    if _announcer is None:
        _announcer = _CompileAnnouncer(delay, write or (lambda line: print(line, file=sys.stderr, flush=True)))
        # numba ships py.typed but leaves register unannotated
        numba.core.event.register("numba:compile", _announcer)  # type: ignore[no-untyped-call]
