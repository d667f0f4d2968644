"""Shared test setup: a temporary cache, quiet progress bars and a helper to execute notebooks.

The suite leaves no trace in the user's home: unless ``DICEMATH_CACHE_DIR`` is set, the tables
the tests build go to one temporary folder made here (shared by the xdist workers, which
inherit the environment) and removed when the session ends; matplotlib's cache, the notebook
kernels' IPython profile and the home directory of every tool the tests start (GNU Backgammon
writes ``~/.gnubg``, pip its cache) go there too.

The default run keeps both cores busy with pytest-xdist (``-n 2 --dist loadfile`` in
``pyproject.toml``): each test file runs whole on one worker, so a file's module fixtures
are computed once (the kernels are C, compiled at install). ``-n 0`` runs in one process.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

os.environ.setdefault("DICEMATH_PROGRESS", "0")

if "DICEMATH_CACHE_DIR" not in os.environ:               # the controller (or a run without xdist) makes it
    _SCRATCH = tempfile.mkdtemp(prefix="dicemath-tests-")
    os.environ["DICEMATH_CACHE_DIR"] = os.path.join(_SCRATCH, "cache")
    os.environ["DICEMATH_TEST_SCRATCH"] = _SCRATCH
    os.environ.setdefault("MPLCONFIGDIR", os.path.join(_SCRATCH, "matplotlib"))
    os.environ.setdefault("IPYTHONDIR", os.path.join(_SCRATCH, "ipython"))     # the notebooks' kernels
    os.environ["HOME"] = os.path.join(_SCRATCH, "home")      # what tools write there (gnubg, pip) goes too
    os.makedirs(os.environ["HOME"], exist_ok=True)


def pytest_sessionfinish(session, exitstatus):
    """Remove the temporary cache once the process that made it is done (not from a worker)."""
    scratch = os.environ.get("DICEMATH_TEST_SCRATCH")
    if scratch and not hasattr(session.config, "workerinput"):
        shutil.rmtree(scratch, ignore_errors=True)

REPO = Path(__file__).resolve().parent.parent

IMAGE_LINK = re.compile(r"!\[[^\]]*\]\(([^)]+)\)")
"""A Markdown image link; its target is the group."""


def linked_pictures(markdown: str, folder: Path) -> list[Path]:
    """The SVG pictures a report's ``markdown`` links, after checking that every image it links
    is a file in ``folder`` and every SVG one a standalone SVG document."""
    targets = [folder / name for name in IMAGE_LINK.findall(markdown)]
    missing = [str(t) for t in targets if not t.is_file()]
    assert not missing, f"linked but not written: {missing}"
    pictures = [t for t in targets if t.suffix == ".svg"]
    for picture in pictures:
        assert ET.parse(picture).getroot().tag == "{http://www.w3.org/2000/svg}svg", picture
    return pictures


def analysis_script(name: str):
    """The study script ``analyses/<name>.py`` loaded as a module (registered in ``sys.modules``
    under ``name``, so its dataclasses and pickles resolve), for tests of its steps."""
    import importlib.util
    import sys

    spec = importlib.util.spec_from_file_location(name, REPO / "analyses" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


PLOTTING = re.compile(r"plt\.|_figure\(|\.plot\(|\.bar\(|\.hist\(")
"""A notebook cell that draws: it must show a picture when run."""


def execute_notebook(name: str, timeout: int = 600) -> None:
    """Run every cell of ``notebooks/<name>`` in a fresh kernel; raise on any error, and
    when a cell that draws (:data:`PLOTTING`) shows no picture (a figure lost to a backend
    that does not display)."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    path = REPO / "notebooks" / name
    os.environ.pop("MPLBACKEND", None)            # a kernel draws as a user's does (inline)
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(notebook, timeout=timeout, kernel_name="python3",
                                     resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    for index, cell in enumerate(notebook.cells):
        if cell.cell_type == "code" and PLOTTING.search(cell.source):
            shown = [o for o in cell.get("outputs", []) if {"image/png", "image/svg+xml"} & set(o.get("data", {}))]
            assert shown, f"{name}: cell {index} draws but shows no picture:\n{cell.source}"


@pytest.fixture
def run_notebook():
    """The :func:`execute_notebook` helper as a fixture."""
    return execute_notebook
