"""Progress bars for long computations (tqdm on standard error).

Bars are shown only when standard error is a terminal or ``DICEMATH_PROGRESS=1``; set
``DICEMATH_PROGRESS=0`` to silence them everywhere (tests do).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from typing import Any


def progress_enabled() -> bool:
    """Whether progress bars are shown."""
    setting = os.environ.get("DICEMATH_PROGRESS")
    if setting is not None:
        return setting not in ("0", "", "false", "no")
    return sys.stderr.isatty()


def progress(iterable: Iterable[Any] | None = None, *, desc: str = "", total: int | None = None,
             unit: str = "it") -> Any:
    """Wrap ``iterable`` in a progress bar (a no-op bar when bars are off).

    tqdm is imported here, on first use, to keep ``import dicemath`` light. The bar is a
    ``tqdm`` object, typed ``Any``: tqdm ships no type annotations (no ``py.typed``).
    """
    from tqdm.auto import tqdm

    return tqdm(iterable, desc=desc, total=total, unit=unit, disable=not progress_enabled(),
                leave=False, dynamic_ncols=True)
