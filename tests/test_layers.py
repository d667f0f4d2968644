"""The layers of ``docs/architecture.md``: what each part may import, no import circles, and a
cheap registry (importing it, ``import dicemath`` and ``dicemath --help`` load no game's engine).

The import graph is read from the source (every ``import`` statement, at the top of a module or
inside a function alike), so an import moved into a function to dodge a circle still counts.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import json
import subprocess
import sys
from collections.abc import Iterator
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from dicemath.games.registry import GAMES

REPO = Path(__file__).resolve().parent.parent

PARTS = (
    ("dicemath.core", "core"),
    ("dicemath.games.registry", "registry"),
    ("dicemath.games", "games"),
    ("dicemath.analysis", "analysis"),
    ("dicemath.reporting", "reporting"),
    ("dicemath.cli", "face"),
    ("dicemath.__main__", "face"),
    ("dicemath.studies", "library studies"),
    ("dicemath", "front"),
    ("analyses", "studies"),
)
"""Each module's part by the longest prefix of its name (``docs/architecture.md``)."""

NEVER = {
    ("core", "games"): "the core knows no game",
    ("core", "registry"): "the core knows no game",
    ("core", "analysis"): "the core knows nothing above it",
    ("core", "face"): "the library never reaches into its command line",
    ("face", "games"): "the command line reaches a game only via the registry",
    ("analysis", "games"): "grading reaches a game only via the registry",
    ("analysis", "face"): "the library never reaches into its command line",
    ("analysis", "registry"): "grading is handed its games; it never looks them up",
    ("reporting", "games"): "the report reaches a game only via the registry",
    ("reporting", "registry"): "the report is handed its games and sections",
    ("reporting", "library studies"): "the report reads study data as files, not study code",
    ("games", "face"): "the library never reaches into its command line",
    ("games", "studies"): "the library never depends on a study script",
    ("games", "registry"): "a game never looks up another game",
}
"""(importing part, imported part): why it must not."""

ENGINE_WORDS = ("solver", "table", "kernel", "search", "analysis", "report", "commands", "advice", "advisor",
                "drawing", "estimate", "bearoff", "evaluate", "gnubg", "hint", "simulat", "proof", "fullboard",
                "distilled", "race", "sources", "players", "dense")
"""Words in the name of a game's module that mark it as engine, not facts (rules, state, game)."""

RULES_IN_C = {"dicemath.games.backgammon._plays_c": "the moves of checkers (BG-3..BG-6), which the state applies"}
"""C extensions that state a game's rules (its state's legal actions apply them), not an engine."""


def part(module: str) -> str | None:
    """The part of ``module`` (:data:`PARTS`), None outside them."""
    for prefix, name in PARTS:
        if module == prefix or module.startswith(prefix + "."):
            return name
    return None


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _sources() -> Iterator[tuple[str, Path]]:
    for folder in ("dicemath", "analyses"):
        for path in sorted((REPO / folder).rglob("*.py")):
            yield _module_name(path), path


MODULES = dict(_sources())
"""Every module of the package and of ``analyses/``, by name."""

EXTENSIONS = {_module_name(path.with_name(path.name.partition(".")[0] + ".py"))
              for path in (REPO / "dicemath").rglob("_*.c")}
"""The C extension modules (each built from its ``_*.c``), which import nothing."""


def imports(name: str) -> set[str]:
    """The modules ``name`` imports anywhere in its source (a ``from`` import of a submodule
    is an import of that submodule)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            submodules = {f"{base}.{alias.name}" for alias in node.names} & (MODULES.keys() | EXTENSIONS)
            found.update(submodules or {base})
    return {m for m in found if m in MODULES}


def test_no_part_imports_what_its_layer_forbids():
    broken = sorted(f"{name} imports {target}: {NEVER[part(name), part(target)]}"
                    for name in MODULES for target in imports(name)
                    if (part(name), part(target)) in NEVER)
    assert not broken, "\n".join(broken)


def test_the_import_graph_has_no_circles():
    graph = {name: imports(name) for name in MODULES}
    circles, done, path = [], set(), []

    def visit(name: str) -> None:
        if name in path:
            circles.append(" -> ".join(path[path.index(name):] + [name]))
            return
        if name in done:
            return
        path.append(name)
        for target in sorted(graph[name]):
            visit(target)
        path.pop()
        done.add(name)

    for name in sorted(graph):
        visit(name)
    assert not circles, "\n".join(circles)


def _loaded(code: str) -> list[str]:
    """The dicemath modules a fresh interpreter has loaded after running ``code``."""
    listing = subprocess.run([sys.executable, "-c", f"{code}\nimport sys\nprint(*sorted(sys.modules))"],
                             cwd=REPO, capture_output=True, text=True, check=True).stdout.split()
    return [m for m in listing if m == "dicemath" or m.startswith("dicemath.")]


def _engines(modules: list[str], allowed: tuple[str, ...] = ()) -> list[str]:
    """The modules of ``modules`` that are no game's facts: above the games (analysis, report,
    studies), or a game's engine (:data:`ENGINE_WORDS`, or a C extension not in :data:`RULES_IN_C`);
    a game's module named by one of the ``allowed`` words is not counted."""
    out = []
    for name in modules:
        if part(name) in ("analysis", "reporting", "library studies"):
            out.append(name)
        elif part(name) == "games" and name.count(".") >= 3:
            last = name.rpartition(".")[2]
            if any(word in last for word in allowed):
                continue
            spec = importlib.util.find_spec(name)
            compiled = spec is not None and str(spec.origin).endswith(tuple(EXTENSION_SUFFIXES))
            if any(word in last for word in ENGINE_WORDS) or (compiled and name not in RULES_IN_C):
                out.append(name)
    return out


def test_the_registry_loads_each_game_s_facts_and_no_engine():
    loaded = _loaded("import dicemath.games.registry")
    assert not _engines(loaded)
    assert not [m for m in loaded if part(m) == "face"]
    for game in GAMES:
        package = type(game).__module__.rpartition(".")[0]
        assert {f"{package}.rules", f"{package}.state", f"{package}.game"} <= set(loaded), game.name


def test_import_dicemath_loads_no_game_and_no_layer_above_the_core():
    loaded = _loaded("import dicemath")
    assert not [m for m in loaded if part(m) not in ("front", "core")]


def test_the_command_line_s_help_loads_no_engine():
    loaded = _loaded("from dicemath.cli import build_parser\nbuild_parser()")
    assert not _engines(loaded, allowed=("commands",))      # each game's command modules build the parser


def test_the_front_door_names_are_discoverable_and_resolve():
    import dicemath

    listed = dir(dicemath)
    assert {"analyse", "write_reports", "hit_distribution", "Distribution", "DicemathError"} <= set(listed)
    for name in dicemath.__all__:
        assert name in listed and getattr(dicemath, name) is not None, name
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        dicemath.nothing  # noqa: B018


def test_the_front_door_analyses_a_record_of_any_registered_game():
    import dicemath

    folder = REPO / "dicemath" / "data" / "records"
    record = min(folder.glob("*.json"), key=lambda path: path.stat().st_size)
    analysis = dicemath.analyse(record)
    assert analysis.game == json.loads(record.read_text())["game"] and analysis.decisions


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_a_game_package_exports_its_names_on_first_use(game):
    package = importlib.import_module(type(game).__module__.rpartition(".")[0])
    assert set(package.__all__) <= set(dir(package))
    submodules = {m.rpartition(".")[2] for m in MODULES if m.startswith(package.__name__ + ".")}
    assert not set(package.__all__) & submodules, "a name that is also a module's is ambiguous when lazy"
    for name in package.__all__:
        assert getattr(package, name) is not None, name
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        package.nothing  # noqa: B018
