"""The record of a proven BohnDuell start, reproduced in one call: table, certificate, check, comparison.

:func:`reproduce` rebuilds what the proof of a start needs and what it made, as the committed
record says it was made: the strong table of ``table_stock`` beans a side
(:func:`~dicemath.games.bohnduell.strong_table.build_strong`, resumed or reused when it is
already in its folder), the proof of the start with every first move
(:func:`~dicemath.games.bohnduell.proof.prove`) and its certificate, and the independent
check of the certificate (:func:`~dicemath.games.bohnduell.proof_check.check`). Each step is
timed, with the process's peak resident memory after it; :func:`machine` names the computer.

:func:`committed_proof` reads the committed record of a proof: the reproductions recorded with
their machine, times and peak memory (``data/proof_records.json``, written by
``analyses/bohnduell_reproduce_proofs.py``), else the proofs of the studies
(``bohnduell_solved_stocks.json``, ``proofs``, written by ``analyses/bohnduell_prove_stocks.py``,
among them the standard game's); :func:`differences` compares a reproduction with it:
the value, the bounds, the first moves' values and the certificate's SHA-256 must be equal,
and the check must confirm the search. ``dicemath bohnduell proof reproduce`` runs both.

Example:
    >>> import tempfile
    >>> done = reproduce(Rules(stock=6), 3, tempfile.mkdtemp(), announce=False)
    >>> done.value, done.first_moves, done.checked
    (-1, {'S1': [-1, -1], 'S2': [-2, -2], 'S3': [-5, -5], 'S4': [-8, -8]}, True)
    >>> differences(done, {"value": -1, "lower": -1, "upper": -1, "first_move_bounds": done.first_moves,
    ...                    "certificate_sha256": "0" * 64})[0].split(",")[0]
    'certificate_sha256: committed 000000000000...'
"""

from __future__ import annotations

import json
import os
from importlib import resources
import platform
import resource
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from dicemath.games.bohnduell.limits import REPRODUCE_MEMORY
from dicemath.games.bohnduell.proof import prove
from dicemath.games.bohnduell.proof_check import check
from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.strong_table import build_strong, default_folder, open_strong
from dicemath.reporting.context import study_file

STUDY_RECORD = "bohnduell_solved_stocks.json"
"""The committed study data holding the proofs of the studies (its ``proofs`` rows)."""


@dataclass(frozen=True)
class Reproduced:
    """What :func:`reproduce` rebuilt and measured.

    Attributes:
        cups, stock, capture: the game (BOHN-1, BOHN-4); ``table_stock``: the table's stock.
        value, lower, upper: the start's proven value (None unless proven) and bounds (A's final
            pot difference, BOHN-7).
        first_moves: per first move, its proven ``[lower, upper]``.
        certificate: the certificate file written; ``certificate_sha256``: its body's digest;
            ``certificate_rows``, ``certificate_bytes``: its size.
        checked: True when the check verified the same bounds, first moves and digest.
        table_folder, table_positions, table_bytes: the strong table and its size on disk.
        table_seconds, proof_seconds, check_seconds: the wall time of each step (the table's 0
            when it was built already; the proof's with its certificate gathered and written;
            the check's with the certificate read).
        table_peak_megabytes, proof_peak_megabytes, check_peak_megabytes: the process's peak
            resident memory after each step (MB, a running maximum).
        nodes, positions: the proof's effort; ``replaced``: the transposition-table entries it
            replaced (0: the certificate is the Python search's, byte for byte).
        machine: :func:`machine`.
    """

    cups: int
    stock: int
    capture: str
    table_stock: int
    value: int | None
    lower: int
    upper: int
    first_moves: dict[str, list[int]]
    certificate: str
    certificate_sha256: str
    certificate_rows: int
    certificate_bytes: int
    checked: bool
    table_folder: str
    table_positions: int
    table_bytes: int
    table_seconds: float
    proof_seconds: float
    check_seconds: float
    table_peak_megabytes: float
    proof_peak_megabytes: float
    check_peak_megabytes: float
    nodes: int
    positions: int
    replaced: int
    machine: str

    def as_dict(self) -> dict[str, Any]:
        """The JSON object of ``dicemath bohnduell proof reproduce --json``."""
        return asdict(self)


def machine() -> str:
    """The computer the figures were measured on: processor model, cores, memory, operating system.

    Example:
        >>> "cores" in machine()
        True
    """
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            model = next((line.split(":", 1)[1].strip() for line in info if line.startswith("model name")), model)
    except OSError:
        pass
    memory = ""
    try:
        memory = f", {os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2 ** 30:.0f} GiB"
    except (ValueError, OSError):
        pass
    return f"{model}, {os.cpu_count()} cores{memory}, {platform.system()}"


def _peak_megabytes() -> float:
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def certificate_name(rules: Rules, table_stock: int) -> str:
    """The file name of the certificate of ``rules``' start over the table of ``table_stock``
    beans, as the committed record names it."""
    return f"bohnduell-cups{rules.cups}-stock{rules.stock}-{rules.capture}-table{table_stock}.proof"


def reproduce(rules: Rules, table_stock: int, folder: str | Path, *, table_folder: str | Path | None = None,
              workers: int | None = None, announce: bool = True, memory: int = REPRODUCE_MEMORY) -> Reproduced:
    """Rebuild the strong table of ``table_stock`` beans (or reuse it), prove the start of
    ``rules`` with every first move over it, write the certificate into ``folder`` and check it.

    Args:
        rules: the game (its stock above ``table_stock``).
        table_stock: the stock of the table the proof searches over (0: none).
        folder: where the certificate goes (created).
        table_folder: the strong table's folder (default: in the cache,
            :func:`~dicemath.games.bohnduell.strong_table.default_folder`).
        workers: threads of the table's build (default: every core).
        announce: let the table's build say its size and estimated time first.
        memory: the most bytes of the proof's transposition table
            (:func:`~dicemath.games.bohnduell.proof.prove`).

    Raises:
        InvalidStateError, InvalidRulesError: a table stock above the tables' bound, a game
            the proof does not take.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    table, table_seconds, table_positions, table_bytes, where = None, 0.0, 0, 0, ""
    if table_stock:
        table_rules = Rules(cups=rules.cups, stock=table_stock, capture=rules.capture)
        place = Path(table_folder) if table_folder is not None else default_folder(table_rules)
        built = build_strong(table_rules, place, workers=workers, announce=announce)
        table_seconds, table_positions, where = built.seconds if built.chunks else 0.0, built.positions, str(place)
        table_bytes = sum(f.stat().st_size for f in place.rglob("*") if f.is_file())
        table = open_strong(place)
    table_peak = _peak_megabytes()
    began = time.perf_counter()
    proven = prove(rules, table, all_first_moves=True, memory=memory)
    path = proven.write(folder / certificate_name(rules, table_stock))
    proof_seconds = time.perf_counter() - began
    proof_peak = _peak_megabytes()
    began = time.perf_counter()
    checked = check(path, table)
    check_seconds = time.perf_counter() - began
    first_moves = {str(m): list(bounds) for m, bounds in proven.first_moves.items()}
    agrees = ((checked.lower, checked.upper, checked.digest) == (proven.lower, proven.upper, proven.certificate.digest)
              and {str(m): list(b) for m, b in checked.first_moves.items()} == first_moves)
    return Reproduced(rules.cups, rules.stock, rules.capture, table_stock, proven.value, proven.lower, proven.upper,
                      first_moves, str(path), proven.certificate.digest, proven.certificate.header.rows,
                      path.stat().st_size, agrees, where, table_positions, table_bytes, round(table_seconds, 1),
                      round(proof_seconds, 1), round(check_seconds, 1), table_peak, proof_peak, _peak_megabytes(),
                      proven.nodes, proven.positions, proven.replaced, machine())


def committed_proof(rules: Rules, table_stock: int, record: str | Path | None = None) -> dict[str, Any] | None:
    """The committed record's row of the proof of ``rules``' start over the table of
    ``table_stock`` beans: ``data/proof_records.json``'s, else the studies' (see the module
    docstring); ``record``: this file instead (``{"proofs": [row, ...]}``). None when there is none.

    Example:
        >>> committed_proof(Rules(), 30)["certificate_sha256"][:12]
        '7687cbb4795f'
    """
    if record is not None:
        texts = [Path(record).read_text(encoding="utf-8")]
    else:
        texts = [resources.files("dicemath.games.bohnduell").joinpath("data", "proof_records.json").read_text(),
                 study_file(STUDY_RECORD).read_text(encoding="utf-8")]
    rows = [row for text in texts for row in json.loads(text).get("proofs", [])]
    for row in rows:
        if ((row.get("cups", 4), row["stock"], row.get("capture", "last"), row.get("table_stock"))
                == (rules.cups, rules.stock, rules.capture, table_stock)):
            return dict(row)
    return None


def differences(reproduced: Reproduced, row: dict[str, Any]) -> list[str]:
    """What differs between a reproduction and the committed ``row`` (empty: the same proof):
    the value, the bounds, the first moves' bounds, the certificate's SHA-256, and whether the
    check confirmed the search."""
    found = []
    for key, mine in (("value", reproduced.value), ("lower", reproduced.lower), ("upper", reproduced.upper),
                      ("first_move_bounds", reproduced.first_moves),
                      ("certificate_sha256", reproduced.certificate_sha256)):
        theirs = row.get(key)
        if theirs != mine:
            shown = [str(v)[:12] + ("..." if len(str(v)) > 12 else "") for v in (theirs, mine)]
            found.append(f"{key}: committed {shown[0]}, reproduced {shown[1]}")
    if not reproduced.checked:
        found.append("the check did not confirm the search's bounds and digest")
    return found
