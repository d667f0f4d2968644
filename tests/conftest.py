"""Shared test setup: quiet progress bars, a helper to execute notebooks, and the default
run spread over two processes.

**Two processes.** The default run (``python -m pytest`` with no paths) keeps both cores
busy: the files of :data:`SECOND_PROCESS`, most of the Pegs/Fives ones, run in a second
pytest process started before collection; every other file runs here. Each process compiles
only the numba kernels its own tests use (numba's on-disk cache then serves every later
process, notebooks and CLI subprocesses included; the Pegs kernel is C, compiled at install).
This process still collects every test, so counts and selections are the usual ones; it
runs the second process's tests last, reporting each one from that process's JUnit XML
file, so that the summary line and the exit status cover both. A run with paths, or with
``DICEMATH_TEST_PROCESSES=1``, stays in one process.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

os.environ.setdefault("DICEMATH_PROGRESS", "0")

REPO = Path(__file__).resolve().parent.parent

SECOND_PROCESS = (
    *(f"tests/pegs_fives/test_{name}.py" for name in (
        "advisor_cli_report", "hits", "independent_simulation", "pegs_kernel", "state", "turn_rows_solver")),
    "dicemath/games/pegs_fives",
    "tests/analysis/test_analysis_pegs_fives.py",
    "tests/analysis/test_analysis_cli.py",
    "tests/analysis/test_analysis_notebook.py",
    "tests/analysis/test_analysis_report.py",
)
"""Paths (relative to the repository) whose tests the default run gives the second process:
the Pegs tests and the Pegs/Fives analyses; the Fives kernel's tests (its numba compile)
stay here, so that the two processes take about as long."""


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


# ---------------------------------------------------------------------------------------
# The default run on two processes

_SECOND = "DICEMATH_TEST_SECOND_PROCESS"


def _in_second_process(nodeid: str) -> bool:
    path = nodeid.split("::", 1)[0]
    return any(path == p or path.startswith(p + "/") for p in SECOND_PROCESS)


def _reports(junit: Path) -> dict[str, pytest.TestReport]:
    """The test reports of the second process by node id, read back from its JUnit XML
    (xunit1: every test case names its file)."""
    reports = {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        file, name = case.get("file", ""), case.get("name", "")
        outcome, longrepr = "passed", None
        for child in case:
            if child.tag in ("failure", "error"):
                outcome, longrepr = "failed", child.text or child.get("message") or child.tag
            elif child.tag == "skipped":
                outcome, longrepr = "skipped", (file, int(case.get("line") or 0), child.get("message") or "skipped")
        nodeid = f"{file}::{name}"
        reports[nodeid] = pytest.TestReport(nodeid, (file, None, name), {}, outcome, longrepr, "call",
                                            duration=float(case.get("time") or 0))
    return reports


class TwoProcesses:
    """The plugin behind the two-process default run (see the module docstring): it starts
    the second process, runs the second process's tests last and reports each of them from
    that process's results (waiting for them at the first one)."""

    def __init__(self, config: pytest.Config):
        self.folder = Path(tempfile.mkdtemp(prefix="dicemath-tests-"))
        command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "junit_family=xunit1",
                   f"--junitxml={self.folder / 'junit.xml'}", "--rootdir", str(REPO)]
        if config.option.markexpr:
            command += ["-m", config.option.markexpr]
        if config.option.keyword:
            command += ["-k", config.option.keyword]
        self.log = open(self.folder / "output.txt", "w", encoding="utf-8")   # noqa: SIM115 (closed in finish)
        self.process = subprocess.Popen(command + [str(REPO / p) for p in SECOND_PROCESS], cwd=REPO,
                                        stdout=self.log, stderr=subprocess.STDOUT, env={**os.environ, _SECOND: "1"})
        self.results: dict[str, pytest.TestReport] | None = None

    def finish(self) -> int:
        """Wait for the second process; read its results (none if it wrote none); its exit code."""
        code = self.process.wait()
        if self.results is None:
            self.log.close()
            junit = self.folder / "junit.xml"
            self.results = _reports(junit) if junit.exists() else {}
        return code

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        items.sort(key=lambda item: _in_second_process(item.nodeid))     # stable: order kept within each part

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> bool | None:
        if not _in_second_process(item.nodeid):
            return None
        self.finish()
        report = self.results.get(item.nodeid) or pytest.TestReport(
            item.nodeid, item.location, {}, "failed",
            "the second test process reported no result for this test (see its output above)", "call")
        item.ihook.pytest_runtest_logstart(nodeid=item.nodeid, location=item.location)
        item.ihook.pytest_runtest_logreport(report=report)
        item.ihook.pytest_runtest_logfinish(nodeid=item.nodeid, location=item.location)
        return True

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        code = self.finish()
        if code in (0, 5):
            return
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
        if not self.results:                                 # it stopped before writing results
            sys.stdout.write(f"\nthe second test process exited with {code}; its output:\n")
            sys.stdout.write((self.folder / "output.txt").read_text(encoding="utf-8"))

    def pytest_unconfigure(self) -> None:
        if self.process.poll() is None:                      # the run was interrupted
            self.process.kill()
            self.process.wait()
        self.log.close()
        shutil.rmtree(self.folder, ignore_errors=True)


def pytest_configure(config: pytest.Config) -> None:
    if (config.args_source == pytest.Config.ArgsSource.TESTPATHS and not os.environ.get(_SECOND)
            and os.environ.get("DICEMATH_TEST_PROCESSES", "2") != "1" and not config.option.collectonly):
        config.pluginmanager.register(TwoProcesses(config), "dicemath-two-processes")
