"""Weak solves with certificates (proof.py), their format (proof_format.py) and checker (proof_check.py).

Every proven value is compared with the dense solver's (solve_dense, itself tested against
the core's search in test_solvers.py); every certificate is replayed by the checker, and
each kind of tampering must be refused. A tampered row that is compared with the dense
table's exact value makes a *false* claim, which a sound checker must reject.
"""

from __future__ import annotations

import dataclasses
import gzip
import random
from functools import lru_cache

import pytest

from dicemath.core.errors import DicemathError, InvalidRulesError
from dicemath.games.bohnduell.proof import prove
from dicemath.games.bohnduell.proof_check import check, check_certificate
from dicemath.games.bohnduell.proof_format import (LOWER, MAGIC, UPPER, Certificate, CertificateError,
                                                   CorruptCertificateError, InvalidProofError, decode_move,
                                                   encode_move, pack, read_certificate, row_dtype, static_bounds,
                                                   unpack)
from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.search import solved_starts
from dicemath.games.bohnduell.solver_dense import DenseTable, solve_dense
from dicemath.games.bohnduell.state import Move, initial_state, play_side, side_moves


@lru_cache(maxsize=None)
def dense(stock: int, capture: str = "last", sides: str = "reachable") -> DenseTable:
    return solve_dense(Rules(stock=stock, capture=capture), sides)


def truth(stock: int, capture: str) -> tuple[int, dict[Move, int]]:
    """The dense solver's value of the start and of each first move (A's final pot difference)."""
    table, start = dense(stock, capture), initial_state(Rules(stock=stock, capture=capture))
    return table.position_value(start), table.move_values(start)


@lru_cache(maxsize=None)
def proven(stock: int, table_stock: int, capture: str = "last", all_first_moves: bool = False):
    table = dense(table_stock, capture) if table_stock else None
    return prove(Rules(stock=stock, capture=capture), table, all_first_moves=all_first_moves)


def rebuilt(certificate: Certificate, rows=None, **header) -> Certificate:
    """``certificate`` with other rows or header fields and *valid* digests: only the replay can refuse it."""
    h = certificate.header
    built = Certificate.build(certificate.rules, h.lower, h.upper, table_stock=h.table_stock,
                              rows=certificate.row_tuples() if rows is None else rows, first_moves=h.first_moves)
    return Certificate(dataclasses.replace(built.header, **header), built.body)


# --- proofs equal the dense solver's values -----------------------------------------------

@pytest.mark.parametrize("stock, table_stock, capture", [(10, 6, "last"), (12, 8, "every"), (11, 8, "last")])
def test_proof_with_a_table_gives_the_dense_value(stock, table_stock, capture, tmp_path):
    value, moves = truth(stock, capture)
    result = proven(stock, table_stock, capture)
    assert result.complete and not result.exhausted
    assert result.value == value == result.lower == result.upper
    assert set(result.first_moves) == set(moves)
    for move, (low, high) in result.first_moves.items():
        assert low <= moves[move] <= high <= value
        if low == high:
            assert low == moves[move]
    assert result.best_moves and all(moves[m] == value for m in result.best_moves)
    checked = check(result.write(tmp_path / "start.proof"), dense(table_stock, capture))
    assert (checked.lower, checked.upper, checked.first_moves) == (value, value, result.first_moves)
    assert checked.rows == result.certificate.header.rows > 0 and checked.table_stock == table_stock


@pytest.mark.parametrize("capture", ["last", "every"])
def test_every_first_move_proven_exactly(capture, tmp_path):
    value, moves = truth(12, capture)
    result = proven(12, 8, capture, all_first_moves=True)
    assert result.value == value
    assert result.first_moves == {m: (v, v) for m, v in moves.items()}
    assert result.best_moves == [m for m, v in moves.items() if v == value]
    checked = check(result.write(tmp_path / "moves.proof"), dense(8, capture))
    assert checked.first_moves == result.first_moves


@pytest.mark.parametrize("capture", ["last", "every"])
@pytest.mark.parametrize("stock", [0, 1, 3, 6])
def test_proof_without_a_table(stock, capture):
    """Leaves are the end of the game and the static bounds only."""
    value, moves = truth(stock, capture)
    result = prove(Rules(stock=stock, capture=capture), all_first_moves=True)
    assert result.value == value
    assert result.first_moves == {m: (v, v) for m, v in moves.items()}
    assert result.certificate.header.table_stock == 0
    assert check_certificate(result.certificate).value == value


def test_a_start_inside_the_table_needs_no_rows():
    result = prove(Rules(stock=6), dense(8), all_first_moves=True)
    value, moves = truth(6, "last")
    assert result.value == value and result.nodes == 0 and result.certificate.header.rows == 0
    assert result.first_moves == {m: (v, v) for m, v in moves.items()}
    assert check_certificate(result.certificate, dense(8)).value == value


@pytest.mark.slow
def test_stock_14_against_the_solved_starts():
    """(14 beans, table 10): the shipped solved start (data/solved_starts.json) and the dense table."""
    result = prove(Rules(stock=14), dense(10))
    assert result.value == solved_starts()["starts"]["cups4-last"]["14"]["value"] == truth(14, "last")[0]
    assert check_certificate(result.certificate, dense(10)).value == result.value


# --- budgets: honest bounds -------------------------------------------------------------------

@pytest.mark.parametrize("budget", [0, 20, 6000, 9000])
def test_a_small_budget_gives_honest_bounds(budget):
    """The full proof expands about 12,000 positions; with 9,000 only ``V <= -1`` is proven."""
    value, moves = truth(12, "last")
    result = prove(Rules(stock=12), dense(8), node_budget=budget)
    assert result.exhausted and not result.complete and result.value is None and result.best_moves == []
    assert result.lower <= value <= result.upper and result.lower < result.upper
    assert result.nodes == budget
    if budget == 9000:
        assert (result.lower, result.upper) == (-24, value)
    for move, (low, high) in result.first_moves.items():
        assert low <= moves[move] <= high
    checked = check_certificate(result.certificate, dense(8))
    assert (checked.lower, checked.upper) == (result.lower, result.upper)


def test_no_time_gives_the_static_bounds():
    result = prove(Rules(stock=12), dense(8), seconds=0)
    assert result.exhausted and (result.lower, result.upper) == (-24, 24)
    assert check_certificate(result.certificate, dense(8)).upper == 24


# --- the static bound -------------------------------------------------------------------------

@pytest.mark.parametrize("capture", ["last", "every"])
def test_static_bounds_hold_on_every_position_of_a_table(capture):
    table = dense(4, capture, "all")
    sides = [tuple(s) for s in table.index.sides.tolist()]
    for me in sides:
        for opp in sides:
            low, high = static_bounds(me, opp)
            assert low <= table.value(me, opp) <= high, (me, opp)


# --- the format -------------------------------------------------------------------------------

def test_moves_round_trip_through_their_codes():
    side = (2, 1, 2, 0, 0)
    for move in side_moves(side) + [Move.from_str("P")]:
        assert decode_move(encode_move(move)) == move
    assert row_dtype(4).itemsize == 14 and row_dtype(10).itemsize == 26


def test_the_file_round_trips_and_is_deterministic(tmp_path):
    result = proven(10, 6)
    path = result.write(tmp_path / "a.proof")
    assert read_certificate(path) == result.certificate
    assert path.read_bytes() == pack(prove(Rules(stock=10), dense(6)).certificate)
    raw = gzip.decompress(path.read_bytes())
    assert raw.startswith(MAGIC)
    header = result.certificate.header
    assert (header.cups, header.stock, header.capture, header.table_stock) == (4, 10, "last", 6)
    assert len(raw) > header.rows * 14 and header.rows == len(result.certificate.row_tuples())


# --- tampering --------------------------------------------------------------------------------

def raw_bytes(path):
    return gzip.decompress(path.read_bytes())


def write_raw(path, data):
    path.write_bytes(gzip.compress(data))


def test_changed_bytes_are_refused(tmp_path):
    path = proven(10, 6).write(tmp_path / "a.proof")
    good = path.read_bytes()
    damaged = bytearray(good)
    damaged[len(good) // 2] ^= 0x55                       # inside the compressed stream
    path.write_bytes(bytes(damaged))
    with pytest.raises(CorruptCertificateError):
        check(path, dense(6))
    data = bytearray(gzip.decompress(good))
    data[-3] ^= 1                                         # a body byte, the gzip stream rebuilt
    write_raw(path, bytes(data))
    with pytest.raises(CorruptCertificateError, match="body_sha256"):
        check(path, dense(6))
    path.write_bytes(b"not a certificate")
    with pytest.raises(CorruptCertificateError, match="gzip"):
        check(path)
    write_raw(path, b"BOHNDUELL-PROOF 9\n{}\n")
    with pytest.raises(CorruptCertificateError, match="not a BohnDuell proof certificate"):
        check(path)


def test_a_changed_header_is_refused(tmp_path):
    certificate = proven(10, 6).certificate
    path = certificate.write(tmp_path / "a.proof")
    data = raw_bytes(path)
    changes = ((b'"stock":10', b'"stock":11'), (b'"lower":-1', b'"lower":0'), (b'"table_stock":6', b'"table_stock":4'))
    for old, new in changes:
        assert old in data
        write_raw(path, data.replace(old, new))
        with pytest.raises(CorruptCertificateError, match="header_sha256"):
            check(path, dense(6))
    # the same changes with the header's digest recomputed: the replay refuses them
    with pytest.raises(InvalidProofError, match="lower bound 0 of the start"):
        check_certificate(rebuilt(certificate, lower=0, upper=0), dense(6))
    with pytest.raises(InvalidProofError, match="lower 0 > upper -1"):
        check_certificate(rebuilt(certificate, lower=0), dense(6))
    with pytest.raises(InvalidProofError, match="upper bound -2 of the start"):
        check_certificate(rebuilt(certificate, lower=-2, upper=-2), dense(6))
    with pytest.raises(InvalidProofError):
        check_certificate(rebuilt(certificate, stock=11), dense(6))
    with pytest.raises(InvalidProofError):
        check_certificate(rebuilt(certificate, table_stock=4))       # proven with the table of 6
    with pytest.raises(InvalidProofError, match="first move S2"):
        check_certificate(rebuilt(certificate, first_moves=(("S2", -1, -1),)), dense(6))
    with pytest.raises(CertificateError, match="endgame table"):
        check_certificate(certificate, dense(8))                     # not the table it names
    with pytest.raises(CertificateError, match="without an endgame table"):
        check_certificate(prove(Rules(stock=3)).certificate, dense(6))


def tight_rows(certificate: Certificate, stock: int, capture: str):
    """Indices of rows whose bound equals the exact value (changing them makes them false)."""
    exact = dense(stock, capture)
    return [i for i, (me, opp, kind, value, _) in enumerate(certificate.row_tuples())
            if exact.value(me, opp) == value]


def test_changed_bounds_are_refused():
    certificate = proven(10, 6).certificate
    rows = certificate.row_tuples()
    tight = tight_rows(certificate, 10, "last")
    assert len(tight) > 20
    for i in random.Random(1).sample(tight, 12):
        me, opp, kind, value, move = rows[i]
        changed = list(rows)
        changed[i] = (me, opp, kind, value + 1 if kind == LOWER else value - 1, move)
        with pytest.raises(InvalidProofError):
            check_certificate(rebuilt(certificate, changed), dense(6))


def test_dropped_rows_are_refused(tmp_path):
    certificate = proven(10, 6).certificate
    rows = certificate.row_tuples()
    for i in random.Random(2).sample(range(len(rows)), 12):
        with pytest.raises(InvalidProofError):
            check_certificate(rebuilt(certificate, rows[:i] + rows[i + 1:]), dense(6))
    path = certificate.write(tmp_path / "a.proof")
    write_raw(path, raw_bytes(path)[:-14])                 # one row cut from the body
    with pytest.raises(CorruptCertificateError, match="rows dropped or added"):
        check(path, dense(6))


def test_wrong_moves_are_refused():
    certificate = proven(10, 6).certificate
    rows = certificate.row_tuples()
    exact = dense(10)
    wrong = 0
    for i, (me, opp, kind, value, move) in enumerate(rows):
        if kind != LOWER or wrong >= 8:
            continue
        for other in side_moves(me):                       # a legal move that does not reach the bound
            gain, mine, theirs = play_side(me, opp, other)
            if encode_move(other) != move and gain - exact.value(theirs, mine) < value:
                changed = list(rows)
                changed[i] = (me, opp, kind, value, encode_move(other))
                with pytest.raises(InvalidProofError, match="nothing proves"):
                    check_certificate(rebuilt(certificate, changed), dense(6))
                wrong += 1
                break
    assert wrong == 8
    i = next(i for i, row in enumerate(rows) if row[2] == LOWER and row[0][0] < 4)
    me, opp, kind, value, move = rows[i]
    changed = list(rows)
    changed[i] = (me, opp, kind, value, 4)                 # a sow of 4 beans from a smaller stock
    with pytest.raises(InvalidProofError, match="not legal"):
        check_certificate(rebuilt(certificate, changed), dense(6))
    j = next(j for j, row in enumerate(rows) if row[2] == UPPER)
    changed = list(rows)
    changed[j] = rows[j][:4] + (1,)
    with pytest.raises(InvalidProofError, match="names no move"):
        check_certificate(rebuilt(certificate, changed), dense(6))


def test_every_error_is_a_dicemath_error():
    assert issubclass(CorruptCertificateError, DicemathError) and issubclass(InvalidProofError, CertificateError)
    with pytest.raises(InvalidRulesError, match="endgame table"):
        prove(Rules(stock=10, capture="every"), dense(6))
    with pytest.raises(CorruptCertificateError):
        unpack(gzip.compress(MAGIC + b"[1, 2]\n"))


def test_proof_commands(tmp_path, monkeypatch, capsys):
    """``proof search`` writes a certificate whose value is the dense table's; ``proof check``
    replays it; bad input exits 2."""
    import json

    from dicemath.cli import main

    monkeypatch.setenv("DICEMATH_CACHE_DIR", str(tmp_path))
    out = tmp_path / "ten.proof"
    assert main(["bohnduell", "proof", "search", "--stock", "10", "--table-stock", "6", "--out", str(out),
                 "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    table = solve_dense(Rules(stock=10))
    assert found["proven"] and found["value"] == table.position_value(initial_state(Rules(stock=10)))
    assert main(["bohnduell", "proof", "check", str(out), "--json"]) == 0
    checked = json.loads(capsys.readouterr().out)
    assert checked["checked"] and checked["value"] == found["value"]
    assert checked["certificate_sha256"] == found["certificate_sha256"]
    assert main(["bohnduell", "proof", "search", "--stock", "9", "--table-stock", "4", "--nodes", "3", "--json"]) == 0
    partial = json.loads(capsys.readouterr().out)
    assert not partial["proven"] and partial["lower"] < partial["upper"] and partial["exhausted"]
    (tmp_path / "junk.proof").write_bytes(b"not a certificate")
    assert main(["bohnduell", "proof", "check", str(tmp_path / "junk.proof")]) == 2
    with pytest.raises(SystemExit) as refused:
        main(["bohnduell", "proof", "search", "--nodes", "0"])
    assert refused.value.code == 2
