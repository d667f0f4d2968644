"""Shared test setup: quiet progress bars and a helper to execute notebooks."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("DICEMATH_PROGRESS", "0")

REPO = Path(__file__).resolve().parent.parent


def execute_notebook(name: str, timeout: int = 600) -> None:
    """Run every cell of ``notebooks/<name>`` in a fresh kernel; raise on any error."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    path = REPO / "notebooks" / name
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(notebook, timeout=timeout, kernel_name="python3",
                                     resources={"metadata": {"path": str(path.parent)}})
    client.execute()


@pytest.fixture
def run_notebook():
    """The :func:`execute_notebook` helper as a fixture."""
    return execute_notebook
