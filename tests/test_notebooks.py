"""Every notebook in ``notebooks/`` runs in a fresh kernel, and each cell that draws shows its
picture (:func:`tests.conftest.execute_notebook`): one test over the folder, so a new notebook
is checked without a test of its own."""

from __future__ import annotations

import pytest

from dicemath.games.backgammon import gnubg_engine

from .conftest import REPO

SLOW = {"backgammon_bearoff.ipynb", "backgammon_playtive.ipynb", "doubling_cube.ipynb"}
"""Notebooks that build large tables or run long self-play: run with ``-m slow``."""
NEEDS_GNUBG = {"backgammon_playtive.ipynb"}
"""Notebooks that evaluate contact positions with the optional gnubg package."""

NOTEBOOKS = sorted(path.name for path in (REPO / "notebooks").glob("*.ipynb"))


def _marks(name: str) -> list:
    marks = [pytest.mark.slow] if name in SLOW else []
    if name in NEEDS_GNUBG:
        marks.append(pytest.mark.skipif(not gnubg_engine.available(), reason="the gnubg package is not installed"))
    return marks


def test_the_lists_name_notebooks_that_exist():
    assert (SLOW | NEEDS_GNUBG) <= set(NOTEBOOKS) and len(NOTEBOOKS) >= 9


@pytest.mark.parametrize("name", [pytest.param(name, marks=_marks(name)) for name in NOTEBOOKS])
def test_notebook_runs(name, run_notebook):
    run_notebook(name)
