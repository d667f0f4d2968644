"""Recording the report sections' studies (``data/report_studies.json``): the study runner.

The report sections' expensive computations (the exact two-player races of Pegs and Fives,
the Pitjesbak tables of three and four players, the long simulations) are computed once and
committed here, so ``dicemath report`` reads them instead of spending minutes on each. A
section asks for one with :meth:`dicemath.reporting.context.ReportContext.study`: a name, the
parameters the numbers depend on (their ``repr`` is stored beside the numbers and must match),
and the function that computes them; the report reads the committed file itself, and hands a
study it does not read to the runner it was given, :func:`study` (the command line hands it),
which computes it and, when asked, records it.

``python analyses/report_studies.py [SECTION ...]`` recomputes the studies of the named
sections (default: all) and rewrites their records; ``dicemath report --recompute`` computes
every study afresh without writing the file.

The file: ``{"studies": {name: record}}``, each record ``{"section", "params" (repr),
"version" (the package version), "seconds" (the computation's wall time when recorded),
"value"}``. Values are JSON: numbers, strings, lists and dicts; :func:`study`
returns the value as read back from JSON (tuples become lists, numpy arrays lists), as the
report reads it from the file.
"""

from __future__ import annotations

import fcntl
import json
import math
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dicemath._version import __version__
from dicemath.studies import DATA

RESULTS = DATA / "report_studies.json"
"""The committed records."""


def to_json(value: Any) -> Any:
    """``value`` as JSON data: numpy arrays and scalars as lists and numbers, tuples as lists,
    dataclasses are not converted (give plain data)."""
    if hasattr(value, "tolist"):
        return to_json(value.tolist())
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, float) and not math.isfinite(value):
        return value
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"not JSON study data: {type(value).__name__}")


def read_studies(path: Path = RESULTS) -> dict:
    """The records file (an empty record when it does not exist)."""
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {"studies": {}}


def write_record(name: str, record: dict, path: Path = RESULTS) -> None:
    """Set ``studies[name] = record`` and rewrite the file atomically (under a lock: sections
    recorded in parallel processes each add their own)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(Path(tempfile.gettempdir()) / f"dicemath-{path.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        results = read_studies(path)
        studies = results.setdefault("studies", {})
        studies[name] = record
        results["studies"] = dict(sorted(studies.items()))
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            json.dump(results, stream, indent=1)
            stream.write("\n")
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)


def study(name: str, params: Any, compute: Callable[[], Any], *, section: str, record: bool = False,
          path: Path = RESULTS) -> Any:
    """Compute the numbers of study ``name`` for ``params`` (the report's study runner,
    :data:`dicemath.reporting.context.StudyRunner`) and, with ``record``, write them into ``path``.

    Args:
        name: the study's key in the file (unique, e.g. ``"playing_to_win/exact/pegs/8-12"``).
        params: everything the numbers depend on besides the code (rules, boards, seeds);
            recorded as ``repr(params)``, which the report matches before reading the record.
        compute: computes the numbers as JSON data (:func:`to_json` converts numpy arrays).
        section: the report section the study belongs to (recorded; the recompute command's
            argument).
        record: write what was computed into the file (``analyses/report_studies.py``).

    Returns:
        The value as read back from JSON.
    """
    start = time.perf_counter()
    value = json.loads(json.dumps(to_json(compute())))
    seconds = time.perf_counter() - start
    if record:
        write_record(name, {"section": section, "params": repr(params), "version": __version__,
                            "seconds": round(seconds, 1), "value": value}, path)
    return value
