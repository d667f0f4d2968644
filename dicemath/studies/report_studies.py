"""The committed study data of the report sections (``data/report_studies.json``).

The report sections' expensive computations (the exact two-player races of Pegs and Fives,
the Pitjesbak tables of three and four players, the long simulations) are computed once and
committed here, so ``dicemath report`` reads them instead of spending minutes on each. A
section asks for one with :func:`study`: a name, the parameters the numbers depend on (their
``repr`` is stored beside the numbers and must match), and the function that computes them.

``python analyses/report_studies.py [SECTION ...]`` recomputes the studies of the named
sections (default: all) and rewrites their records; ``dicemath report --recompute`` computes
every study afresh without writing the file. A study the file does not hold for the asked
parameters (new rules, a new board) is computed on the spot, as before, and said so.

The file: ``{"studies": {name: record}}``, each record ``{"section", "params" (repr),
"version" (the package version), "seconds" (the computation's wall time when recorded),
"value"}``. Values are JSON: numbers, strings, lists and dicts; :func:`study`
returns the value as read back from JSON (tuples become lists, numpy arrays lists), the same
whether it was read from the file or just computed, so a report does not depend on where its
numbers came from.
"""

from __future__ import annotations

import fcntl
import json
import math
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from dicemath.studies import DATA

RESULTS = DATA / "report_studies.json"
"""The committed records."""

COMMAND = "python analyses/report_studies.py"
"""The command that recomputes the records (followed by section names)."""


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


_LOADED: dict[Path, dict] = {}


def _records(path: Path) -> dict:
    if path not in _LOADED:
        _LOADED[path] = read_studies(path).get("studies", {})
    return _LOADED[path]


def committed(name: str, params: Any, path: Path = RESULTS) -> dict | None:
    """The committed record of study ``name`` when it was computed for ``params`` (else None)."""
    record = _records(path).get(name)
    return record if record is not None and record.get("params") == repr(params) else None


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
    _LOADED.pop(path, None)


def study(name: str, params: Any, compute: Callable[[], Any], *, section: str, recompute: bool = False,
          record: bool = False, path: Path = RESULTS) -> Any:
    """The numbers of study ``name`` for ``params``: the committed record, else computed.

    Args:
        name: the study's key in the file (unique, e.g. ``"playing_to_win/exact/pegs/8-12"``).
        params: everything the numbers depend on besides the code (rules, boards, seeds);
            the record is used only when its ``params`` equal ``repr(params)``.
        compute: computes the numbers as JSON data (:func:`to_json` converts numpy arrays).
        section: the report section the study belongs to (recorded; the recompute command's
            argument).
        recompute: ignore the committed record and compute.
        record: write what was computed into the file (``analyses/report_studies.py``).

    Returns:
        The value as read back from JSON.
    """
    found = None if recompute else committed(name, params, path)
    if found is not None:
        return found["value"]
    if not recompute:
        print(f"dicemath: the study {name!r} is not in the committed data for these parameters "
              f"({path.name}); computing it (`{COMMAND} {section}` records it) ...", file=sys.stderr, flush=True)
    start = time.perf_counter()
    value = json.loads(json.dumps(to_json(compute())))
    seconds = time.perf_counter() - start
    if record:
        from dicemath._version import __version__

        write_record(name, {"section": section, "params": repr(params), "version": __version__,
                            "seconds": round(seconds, 1), "value": value}, path)
    return value
