"""The compiled certificate checker (_proof_check_c.c) against the Python replay (proof_check.py).

Both routes of proof_check.check_certificate must give the same CheckResult on valid
certificates and the same error (type and message, so the same row) on tampered ones; the
compiled checker's own rules (its successors) are compared with the rules engine
(state.side_moves, state.play_side) on every pair of sides of small games.
"""

from __future__ import annotations

import dataclasses
import hashlib
from functools import lru_cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dicemath.core.errors import InvalidRulesError
from dicemath.games.bohnduell import _proof_check_c  # type: ignore[attr-defined]
from dicemath.games.bohnduell.proof import prove
from dicemath.games.bohnduell.proof_check import CheckResult, check, check_certificate
from dicemath.games.bohnduell.proof_format import (LOWER, Certificate, CertificateError, InvalidProofError, encode_move,
                                                   static_bounds)
from dicemath.games.bohnduell.rules import Rules
from dicemath.games.bohnduell.sides import can_move
from dicemath.games.bohnduell.solver_dense import DenseTable, ranked_sides, solve_dense
from dicemath.games.bohnduell.state import PASS_MOVE, play_side, side_moves


@lru_cache(maxsize=None)
def dense(stock: int, capture: str, cups: int = 4) -> DenseTable:
    return solve_dense(Rules(cups=cups, stock=stock, capture=capture))


@lru_cache(maxsize=None)
def certificate(stock: int, table_stock: int, capture: str, cups: int = 4) -> Certificate:
    table = dense(table_stock, capture, cups) if table_stock else None
    return prove(Rules(cups=cups, stock=stock, capture=capture), table, all_first_moves=True).certificate


def outcome(cert: Certificate, table_stock: int, engine: str) -> object:
    """What a route says of ``cert``: its result without the time, or the error's type and message."""
    table = dense(table_stock, cert.header.capture, cert.header.cups) if table_stock else None
    try:
        return dataclasses.replace(check_certificate(cert, table, engine=engine), seconds=0.0)
    except CertificateError as error:
        return type(error), str(error)


def with_body(cert: Certificate, body: np.ndarray, **claims) -> Certificate:
    """``cert`` with another body (in that order, unsorted) and header claims, its digest and count updated."""
    body = np.ascontiguousarray(body)
    header = dataclasses.replace(cert.header, rows=len(body), body_sha256=hashlib.sha256(body.tobytes()).hexdigest(),
                                 **claims)
    return Certificate(header, body)


# --- valid certificates: the same result --------------------------------------------------

@pytest.mark.parametrize("capture", ["last", "every"])
@pytest.mark.parametrize("stock, table_stock", [(4, 0), (5, 0), (6, 3), (7, 0), (8, 5), (9, 0), (10, 6), (11, 8),
                                                (12, 0), (12, 9)])
def test_compiled_and_python_give_the_same_result(stock, table_stock, capture):
    cert = certificate(stock, table_stock, capture)
    compiled, python = outcome(cert, table_stock, "compiled"), outcome(cert, table_stock, "python")
    assert isinstance(compiled, CheckResult)
    assert compiled == python
    assert compiled.rows == cert.header.rows > 0


@pytest.mark.parametrize("cups, stock, table_stock", [(3, 8, 4), (5, 6, 3), (6, 5, 0)])
def test_other_cups(cups, stock, table_stock):
    cert = certificate(stock, table_stock, "last", cups)
    compiled = outcome(cert, table_stock, "compiled")
    assert isinstance(compiled, CheckResult) and compiled == outcome(cert, table_stock, "python")


def test_a_memory_mapped_table(tmp_path):
    """The strong tables are memory-mapped: the compiled route reads their values in place."""
    table = dense(6, "last")
    np.save(tmp_path / "values.npy", table.values)
    mapped = dataclasses.replace(table, values=np.load(tmp_path / "values.npy", mmap_mode="r"))
    path = prove(Rules(stock=10), mapped, all_first_moves=True).write(tmp_path / "ten.proof")
    results = [dataclasses.replace(check(path, mapped, engine=e), seconds=0.0) for e in ("compiled", "python")]
    assert results[0] == results[1] == dataclasses.replace(check(path, table), seconds=0.0)


def test_an_unknown_engine_is_refused():
    with pytest.raises(InvalidRulesError, match="engine must be one of"):
        check_certificate(certificate(4, 0, "last"), engine="fast")


# --- tampered certificates: the same error on the same row --------------------------------

CASES = [(8, 0, "last"), (9, 5, "every"), (10, 6, "last"), (8, 4, "every")]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.sampled_from(CASES), mutation=st.sampled_from(["value", "move", "drop", "duplicate", "swap", "sides"]),
       where=st.floats(0, 1, exclude_max=True), step=st.sampled_from([-1, 1]))
def test_a_tampered_body_gets_the_same_verdict(case, mutation, where, step):
    stock, table_stock, capture = case
    cert = certificate(stock, table_stock, capture)
    body = cert.body.copy()
    i = int(where * len(body))
    if mutation == "value":
        body["value"][i] += step
    elif mutation == "move":
        body["move"][i] = body["move"][i] + step if body["kind"][i] == LOWER else step
    elif mutation == "drop":
        body = np.delete(body, i)
    elif mutation == "duplicate":
        body = np.insert(body, i, body[i])
    elif mutation == "swap":
        i = min(i, len(body) - 2)
        body[[i, i + 1]] = body[[i + 1, i]]
    else:
        body["me"][i, 0] = max(0, int(body["me"][i, 0]) + step * 3)
    tampered = with_body(cert, body)
    compiled = outcome(tampered, table_stock, "compiled")
    assert compiled == outcome(tampered, table_stock, "python")
    if mutation in ("duplicate", "swap"):
        assert not isinstance(compiled, CheckResult)


@pytest.mark.parametrize("capture", ["last", "every"])
def test_tightened_claims_get_the_same_verdict(capture):
    cert = certificate(9, 5, capture)
    h = cert.header
    text, low, high = h.first_moves[0]
    moves = list(h.first_moves)
    variants = [{"lower": h.lower + 1}, {"upper": h.upper - 1}, {"lower": h.upper + 1},
                {"first_moves": tuple([(text, low + 1, high)] + moves[1:])},
                {"first_moves": tuple([(text, low, high - 1)] + moves[1:])},
                {"first_moves": tuple(moves + moves[:1])}]
    for claims in variants:
        tampered = with_body(cert, cert.body, **claims)
        compiled = outcome(tampered, 5, "compiled")
        assert compiled == outcome(tampered, 5, "python")
        assert isinstance(compiled, tuple) and compiled[0] is InvalidProofError


@pytest.mark.parametrize("capture", ["last", "every"])
def test_false_rows_are_rejected_on_the_same_row(capture):
    """A lower bound one above the true value is false: both routes refuse it, naming one row."""
    cert = certificate(10, 6, capture)
    table = dense(10, capture)
    for i in range(0, len(cert.body), max(1, len(cert.body) // 16)):
        me, opp, kind = tuple(cert.body["me"][i].tolist()), tuple(cert.body["opp"][i].tolist()), cert.body["kind"][i]
        body = cert.body.copy()
        body["value"][i] = table.value(me, opp) + (1 if kind == LOWER else -1)
        tampered = with_body(cert, body)
        compiled = outcome(tampered, 6, "compiled")
        assert compiled == outcome(tampered, 6, "python")
        assert isinstance(compiled, tuple) and compiled[0] is InvalidProofError and "row" in compiled[1]


def test_a_row_needs_its_own_justification():
    """A row is proven by its move (or every move), never by the static bounds of its own position:
    a lower bound no higher than the static one, with a move that is not legal, is refused by both."""
    cert = certificate(9, 5, "last")
    lowers = np.flatnonzero(cert.body["kind"] == LOWER)
    for i in lowers[:: max(1, len(lowers) // 12)]:
        body = cert.body.copy()
        me, opp = tuple(body["me"][i].tolist()), tuple(body["opp"][i].tolist())
        body["value"][i] = static_bounds(me, opp)[0]
        body["move"][i] = 9
        tampered = with_body(cert, body)
        compiled = outcome(tampered, 5, "compiled")
        assert compiled == outcome(tampered, 5, "python")
        assert isinstance(compiled, tuple) and "is not legal there" in compiled[1]


# --- the checker's own rules --------------------------------------------------------------

@pytest.mark.parametrize("cups, stock", [(4, 4), (3, 5), (5, 3)])
@pytest.mark.parametrize("capture", ["last", "every"])
def test_the_checkers_moves_are_the_rules_engines(cups, stock, capture):
    every = capture == "every"
    sides = [tuple(s) for s in ranked_sides(cups, stock, "all").tolist()]
    for me in sides:
        moves = side_moves(me)
        for opp in sides:
            if moves:
                expected = []
                for move in moves:
                    gain, mine, theirs = play_side(me, opp, move, every)
                    expected.append((encode_move(move), gain, bytes(theirs), bytes(mine)))
            else:
                expected = [(encode_move(PASS_MOVE), 0, bytes(opp), bytes(me))] if can_move(opp) else []
            assert _proof_check_c.moves(cups, every, bytes(me), bytes(opp)) == expected, (me, opp)


def test_the_check_command_takes_either_engine(tmp_path, monkeypatch, capsys):
    import json

    from dicemath.cli import main

    monkeypatch.setenv("DICEMATH_CACHE_DIR", str(tmp_path))
    path = prove(Rules(stock=9), dense(5, "last"), all_first_moves=True).write(tmp_path / "nine.proof")
    said = []
    for engine in ("compiled", "python"):
        assert main(["bohnduell", "proof", "check", str(path), "--engine", engine, "--json"]) == 0
        said.append({k: v for k, v in json.loads(capsys.readouterr().out).items() if k != "seconds"})
    assert said[0] == said[1] and said[0]["checked"]
    with pytest.raises(SystemExit) as refused:
        main(["bohnduell", "proof", "check", str(path), "--engine", "fast"])
    assert refused.value.code == 2
