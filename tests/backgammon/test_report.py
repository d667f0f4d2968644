"""The bear-off report section (quick mode); the Backgammon notebooks: every dicemath name
they use exists (fast), and the bear-off notebook runs end to end (slow)."""

from __future__ import annotations

import ast
import importlib
import json
from types import ModuleType

import pytest

from dicemath.games.backgammon.game import BACKGAMMON_GAME
from dicemath.games.backgammon.report_bearoff import compute, render
from dicemath.reporting.context import ReportContext

from ..conftest import REPO, linked_pictures

NOTEBOOKS = ("backgammon_bearoff.ipynb", "backgammon_playtive.ipynb", "doubling_cube.ipynb")


def test_report_section_quick(tmp_path):
    context = ReportContext(tmp_path, quick=True)
    text = render(compute(BACKGAMMON_GAME, context), context)
    assert "Expected rolls to bear off" in text
    assert "12.2662" in text  # 15 on the 6-point, also GNU Backgammon's 12.266 (test_gnubg.py)
    assert (tmp_path / "backgammon_bearoff.png").exists()
    assert [p.name for p in linked_pictures(text, tmp_path)] == ["backgammon_bearoff_play.svg"]
    assert "the best, 5/4 2/off, framed" in text


def _imported(node: ast.ImportFrom, alias: ast.alias):
    """What ``from <node.module> import <alias.name>`` binds (an attribute or a submodule)."""
    module = importlib.import_module(node.module)
    if hasattr(module, alias.name):
        return getattr(module, alias.name)
    return importlib.import_module(f"{node.module}.{alias.name}")


@pytest.mark.parametrize("name", NOTEBOOKS)
def test_notebook_uses_only_existing_names(name):
    """The fast stand-in for running the notebooks: every name a notebook imports from
    dicemath exists, and so does every attribute it reads from an imported dicemath module
    (a renamed function fails here)."""
    cells = json.loads((REPO / "notebooks" / name).read_text(encoding="utf-8"))["cells"]
    tree = ast.parse("\n".join("".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"))
    bound, checked = {}, 0
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module.startswith("dicemath"):
            for alias in node.names:
                bound[alias.asname or alias.name] = _imported(node, alias)
                checked += 1
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                and isinstance(bound.get(node.value.id), ModuleType):
            assert hasattr(bound[node.value.id], node.attr), f"{name}: {node.value.id}.{node.attr}"
            checked += 1
    assert checked >= 3
