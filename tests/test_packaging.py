"""What a user installs: the wheel ships the rules text and every data file; the README's
links stay inside the repository; the CLI prints each game's rules."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from dicemath.cli import main
from dicemath.core.rules_text import rules_sections
from dicemath.games.registry import game, game_names

REPO = Path(__file__).resolve().parent.parent


def _tracked_data_files() -> list[str]:
    """Package data files as git tracks them (``dicemath/**/data/*``)."""
    listing = subprocess.run(["git", "ls-files", "dicemath"], cwd=REPO, capture_output=True, text=True,
                             check=True).stdout.split()
    return sorted(f for f in listing if "/data/" in f)


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> zipfile.ZipFile:
    """A wheel built from a copy of the source (pip builds in the tree it is given; the C
    extension is compiled afresh)."""
    source = tmp_path_factory.mktemp("source")
    for name in ("pyproject.toml", "setup.py", "README.md", "LICENSE", "docs"):
        if (REPO / name).is_dir():
            shutil.copytree(REPO / name, source / name)
        elif (REPO / name).exists():
            shutil.copy(REPO / name, source / name)
    shutil.copytree(REPO / "dicemath", source / "dicemath", symlinks=True,
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "-q", "-w", str(out)],
                   check=True, capture_output=True)
    (path,) = out.glob("dicemath-*.whl")
    return zipfile.ZipFile(path)


def test_wheel_contains_rules_and_data(wheel):
    names = set(wheel.namelist())
    data = _tracked_data_files()
    assert "dicemath/data/rules.md" in data
    assert any(f.endswith(".json") for f in data)
    missing = [f for f in data if f not in names]
    assert not missing, f"package data missing from the wheel: {missing}"
    shipped = wheel.read("dicemath/data/rules.md").decode("utf-8")
    assert shipped == (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    assert any(re.fullmatch(r"dicemath/games/pegs_fives/fullboard/_pegs_c\..*\.so", n) for n in names)


def test_wheel_ships_every_kernel_compiled_with_its_sources(wheel):
    """Every ``dicemath/**/_*.c`` is an extension of the wheel, and its C sources ship beside it
    (the tables' versions digest them)."""
    names = set(wheel.namelist())
    sources = sorted(p.relative_to(REPO).as_posix() for p in (REPO / "dicemath").rglob("_*.[ch]"))
    assert any(name.endswith(".c") for name in sources)
    assert not [name for name in sources if name not in names]
    for name in (n for n in sources if n.endswith(".c")):
        assert any(re.fullmatch(re.escape(name[:-2]) + r"\..*\.so", n) for n in names), name


def test_the_package_imports_no_numba():
    """One compiled route: the kernels are C extensions, and no module of the package imports
    numba (it is no dependency)."""
    pattern = re.compile(r"^\s*(import numba|from numba)\b", re.MULTILINE)
    importers = [p.relative_to(REPO).as_posix() for p in (REPO / "dicemath").rglob("*.py")
                 if pattern.search(p.read_text(encoding="utf-8"))]
    assert not importers
    assert "numba" not in (REPO / "pyproject.toml").read_text(encoding="utf-8")


def test_readme_links_resolve_inside_the_repository():
    text = (REPO / "README.md").read_text(encoding="utf-8")
    targets = [t for t in re.findall(r"\]\(([^)\s]+)\)", text) if not re.match(r"[a-z]+:", t)]
    assert targets, "the README links to the rules document"
    for target in targets:
        path = (REPO / target.split("#")[0]).resolve()
        assert path.is_relative_to(REPO), f"{target} points outside the repository"
        assert path.exists(), f"{target} does not exist"


def test_the_shipped_rules_are_docs_rules_itself():
    """The rules are kept once, in ``docs/rules.md``: the package's ``data/rules.md`` is a
    symbolic link to it, committed as one (git mode 120000), which the wheel's build follows
    (:func:`test_wheel_contains_rules_and_data` reads the text from the wheel)."""
    shipped = REPO / "dicemath" / "data" / "rules.md"
    assert shipped.is_symlink() and shipped.resolve() == (REPO / "docs" / "rules.md").resolve()
    staged = subprocess.run(["git", "ls-files", "-s", "dicemath/data/rules.md"], cwd=REPO, capture_output=True,
                            text=True, check=True).stdout.split()
    assert staged[0] == "120000", staged


@pytest.mark.parametrize("name", game_names())
def test_rules_command_prints_the_games_rules(name, capsys):
    assert main([name, "rules"]) == 0
    out = capsys.readouterr().out
    assert out == game(name).rules_text()
    prefix = re.search(r"\*\*([A-Z]+-)1\b", out).group(1)         # the game's own rules number from 1
    numbers = set(re.findall(rf"\*\*{prefix}(\d+)", out))
    assert numbers == {str(n) for n in range(1, len(numbers) + 1)} and len(numbers) >= 6


def test_rules_of_an_unknown_game_or_section_is_an_error():
    with pytest.raises(ValueError, match="unknown game"):
        game("chess")
    with pytest.raises(ValueError, match="no section '9. Chess'"):
        rules_sections(("9. Chess",))
