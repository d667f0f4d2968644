"""Shared test setup: quiet progress bars, a helper to execute notebooks, and the default
run spread over two processes.

**Two processes.** The default run (``python -m pytest`` with no paths) keeps both cores
busy: the files of :data:`SECOND_PROCESS`, the Pegs/Fives ones, whose compiled kernels take
the longest to compile, run in a second pytest process started before collection; every
other file runs here. Each process compiles only the kernels its own tests use (numba's
on-disk cache then serves every later process, notebooks and CLI subprocesses included).
At the end the second process's results are reported here, test by test, from its JUnit
XML file, so that the summary line and the exit status cover both. A run with paths, or
with ``DICEMATH_TEST_PROCESSES=1``, stays in one process.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

os.environ.setdefault("DICEMATH_PROGRESS", "0")

REPO = Path(__file__).resolve().parent.parent

SECOND_PROCESS = (
    "tests/pegs_fives",
    "dicemath/games/pegs_fives",
    "tests/analysis/test_analysis_pegs_fives.py",
    "tests/analysis/test_analysis_cli.py",
    "tests/analysis/test_analysis_notebook.py",
    "tests/analysis/test_analysis_report.py",
)
"""Paths (relative to the repository) whose tests the default run gives the second process."""

_SECOND = "DICEMATH_TEST_SECOND_PROCESS"


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


# ---------------------------------------------------------------------------------------
# The default run on two processes

def _splits(config: pytest.Config) -> bool:
    return (config.args_source == pytest.Config.ArgsSource.TESTPATHS and not os.environ.get(_SECOND)
            and os.environ.get("DICEMATH_TEST_PROCESSES", "2") != "1" and not config.option.collectonly)


def pytest_configure(config: pytest.Config) -> None:
    if not _splits(config):
        return
    out = Path(tempfile.mkdtemp(prefix="dicemath-tests-"))
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={out / 'junit.xml'}",
               "-o", "junit_family=xunit1", "--rootdir", str(REPO)]
    if config.option.markexpr:
        command += ["-m", config.option.markexpr]
    if config.option.keyword:
        command += ["-k", config.option.keyword]
    log = open(out / "output.txt", "w", encoding="utf-8")   # noqa: SIM115 (closed in pytest_sessionfinish)
    process = subprocess.Popen(command + [str(REPO / p) for p in SECOND_PROCESS], cwd=REPO, stdout=log,
                               stderr=subprocess.STDOUT, env={**os.environ, _SECOND: "1"})
    config.stash[_second_key] = (process, out, log)


_second_key = pytest.StashKey[tuple]()


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    if _second_key not in config.stash:
        return None
    relative = collection_path.resolve().relative_to(REPO).as_posix() if collection_path.is_relative_to(REPO) else ""
    return True if any(relative == p or relative.startswith(p + "/") for p in SECOND_PROCESS) else None


def _reports(junit: Path) -> list[pytest.TestReport]:
    """The test reports of the second process, read back from its JUnit XML (xunit1)."""
    reports = []
    for case in ET.parse(junit).getroot().iter("testcase"):
        file = case.get("file") or case.get("classname", "").replace(".", "/") + ".py"
        nodeid = f"{file}::{case.get('name')}"
        outcome, longrepr = "passed", None
        for child in case:
            if child.tag in ("failure", "error"):
                outcome, longrepr = "failed", (child.text or child.get("message") or child.tag)
            elif child.tag == "skipped":
                outcome, longrepr = "skipped", (file, int(case.get("line") or 0), child.get("message") or "skipped")
        reports.append(pytest.TestReport(nodeid, (file, None, case.get("name")), {}, outcome, longrepr, "call",
                                         duration=float(case.get("time") or 0)))
    return reports


def pytest_unconfigure(config: pytest.Config) -> None:
    if _second_key in config.stash and config.stash[_second_key][0].poll() is None:
        config.stash[_second_key][0].kill()       # the run was interrupted


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if _second_key not in session.config.stash:
        return
    process, out, log = session.config.stash[_second_key]
    code = process.wait()
    log.close()
    junit = out / "junit.xml"
    reports = _reports(junit) if junit.exists() else []
    for report in reports:
        session.config.hook.pytest_runtest_logreport(report=report)
    if code not in (0, 5) or not junit.exists():
        sys.stdout.write(f"\nthe second test process exited with {code}; its output:\n")
        sys.stdout.write((out / "output.txt").read_text(encoding="utf-8"))
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
    elif session.exitstatus == pytest.ExitCode.NO_TESTS_COLLECTED and reports:
        session.exitstatus = pytest.ExitCode.OK
