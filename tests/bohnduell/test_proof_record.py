"""The record of a proof reproduced in one command (proof_record.py, ``dicemath bohnduell proof reproduce``).

The command rebuilds the strong table from an empty cache, proves the start with every first
move, checks the certificate and compares with a record. The record the tests compare with is
made by other means: the Python proof search (a certificate byte for byte the compiled one's
while its table never fills) and the dense solver's values of the first moves; a record that
differs in any of them is reported (exit 1).
"""

from __future__ import annotations

import json

import pytest

from dicemath.cli import main
from dicemath.games.bohnduell.proof import prove
from dicemath.games.bohnduell.proof_record import committed_proof
from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.search import solved_start
from dicemath.games.bohnduell.solver_dense import solve_dense
from dicemath.games.bohnduell.state import initial_state


def second_method(stock: int, table_stock: int) -> dict:
    """A record row of the proof of ``stock`` over ``table_stock`` made without the command: the
    Python search's certificate and the dense solver's values."""
    rules = Rules(stock=stock)
    certificate = prove(rules, solve_dense(Rules(stock=table_stock)), all_first_moves=True, engine="python")
    table = solve_dense(rules)
    start = initial_state(rules)
    value = table.position_value(start)
    return {"cups": 4, "stock": stock, "capture": "last", "table_stock": table_stock, "value": value, "lower": value,
            "upper": value, "certificate_sha256": certificate.certificate.digest,
            "first_move_bounds": {str(m): [v, v] for m, v in table.move_values(start).items()}}


def reproduce(tmp_path, monkeypatch, capsys, stock: int, table_stock: int, row: dict | None) -> tuple[int, dict]:
    """Run the command from an empty cache, comparing with ``row`` (None: no row in the record)."""
    monkeypatch.setenv("DICEMATH_CACHE_DIR", str(tmp_path / "cache"))
    record = tmp_path / "record.json"
    record.write_text(json.dumps({"proofs": [] if row is None else [row]}))
    code = main(["bohnduell", "proof", "reproduce", "--stock", str(stock), "--table-stock", str(table_stock),
                 "--folder", str(tmp_path / "proofs"), "--record", str(record), "--workers", "1", "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_a_tiny_proof_reproduces_its_record(tmp_path, monkeypatch, capsys):
    row = second_method(9, 4)
    code, answer = reproduce(tmp_path, monkeypatch, capsys, 9, 4, row)
    assert code == 0 and answer["record"] == "equal" and answer["differences"] == []
    assert answer["checked"] and answer["value"] == row["value"] and answer["table_positions"] > 0
    assert answer["certificate_sha256"] == row["certificate_sha256"]
    assert "cores" in answer["machine"] and answer["proof_peak_megabytes"] >= answer["table_peak_megabytes"] > 0
    assert (tmp_path / "proofs" / "bohnduell-cups4-stock9-last-table4.proof").stat().st_size == (
        answer["certificate_bytes"])


@pytest.mark.parametrize("key, wrong", [("certificate_sha256", "0" * 64), ("value", 5),
                                        ("first_move_bounds", {"S1": [0, 0]})])
def test_a_record_that_differs_is_reported(tmp_path, monkeypatch, capsys, key, wrong):
    row = {**second_method(8, 4), key: wrong}
    code, answer = reproduce(tmp_path, monkeypatch, capsys, 8, 4, row)
    assert code == 1 and answer["record"] == "different"
    assert [d.split(":")[0] for d in answer["differences"]] == [key]


def test_without_a_record_it_says_so(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("DICEMATH_CACHE_DIR", str(tmp_path / "cache"))
    record = tmp_path / "record.json"
    record.write_text(json.dumps({"proofs": []}))
    assert main(["bohnduell", "proof", "reproduce", "--stock", "7", "--table-stock", "3", "--folder",
                 str(tmp_path), "--record", str(record), "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "record: no committed record of this proof" in out and "machine: " in out and "peak memory" in out


def test_a_table_as_large_as_the_game_is_refused(capsys):
    assert main(["bohnduell", "proof", "reproduce", "--stock", "8", "--table-stock", "8"]) == 2
    assert "must hold fewer beans than the game" in capsys.readouterr().err


def test_the_committed_records_name_their_proofs():
    standard = committed_proof(Rules(), 30)
    assert standard["value"] == -1 and standard["optimal_first_moves"] == ["S1"]
    assert committed_proof(Rules(stock=41), 30) is None


@pytest.mark.slow
def test_the_committed_record_of_a_small_stock_reproduces(tmp_path, monkeypatch, capsys):
    """The committed row of the 20-bean game over the 14-bean table, rebuilt from an empty cache."""
    row = committed_proof(Rules(stock=20), 14)
    assert row is not None and row["machine"] and row["proof_peak_megabytes"] > 0
    monkeypatch.setenv("DICEMATH_CACHE_DIR", str(tmp_path / "cache"))
    code = main(["bohnduell", "proof", "reproduce", "--stock", "20", "--table-stock", "14", "--folder",
                 str(tmp_path), "--json"])
    answer = json.loads(capsys.readouterr().out)
    assert code == 0 and answer["record"] == "equal" and answer["checked"]
    shipped = solved_start(Rules(stock=20))                                   # solved by the dense solver
    assert answer["value"] == shipped["value"]
    assert answer["first_moves"] == {m: [v, v] for m, v in shipped["first_moves"].items()}
