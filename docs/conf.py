"""Sphinx configuration: the API reference from the docstrings, and the Markdown pages.

Build (as ``.ci/run`` does, warnings as errors)::

    sphinx-build -W --keep-going -b html docs docs/_build/html

The API pages (``docs/api/*.md``) each name one module group; ``sphinx.ext.autosummary``
walks it recursively (``:recursive:``) and writes one page per module into
``docs/api/generated/`` (not committed) from ``_templates/autosummary/module.rst``, so a new
module appears without editing anything here.
"""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.abspath(".."))  # this checkout, not an installed copy

from dicemath import __version__  # noqa: E402

project = "dicemath"
author = "the dicemath authors"
copyright = "dicemath authors, GPL-3.0-or-later"
release = __version__
version = __version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
templates_path = ["_templates"]
exclude_patterns = ["_build", "examples", "Thumbs.db", ".DS_Store"]

# -- autodoc / autosummary / napoleon -----------------------------------------------------
# The module pages are written afresh each build: a page left from a module since removed
# or renamed would fail the build (its import fails).
import shutil  # noqa: E402

shutil.rmtree(os.path.join(os.path.dirname(os.path.abspath(__file__)), "api", "generated"), ignore_errors=True)
autosummary_generate = True
autosummary_generate_overwrite = True
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {
    "members": True,
    "show-inheritance": True,
}


def public_names(fullname: str) -> list[str]:
    """The names of module ``fullname``'s ``__all__``, each where it is defined.

    A package re-exports its public names from its modules; the package's page lists them
    in a table that links to the one place each is documented (its module's page) instead of
    documenting them a second time: two descriptions of one object make every short
    cross-reference to it ambiguous (``Raises: InvalidStateError`` matched both
    ``dicemath.InvalidStateError`` and ``dicemath.core.errors.InvalidStateError``).
    Classes, functions (a game's ``analyse`` is a bound method: its class's method) and
    modules know their module; a constant is found in the module that assigns it with a doc
    comment (the one autodoc documents it in). Names that are
    found nowhere else are left out (the package documents them itself).
    """
    import importlib
    import inspect

    from sphinx.pycode import ModuleAnalyzer

    module = importlib.import_module(fullname)
    names = []
    for name in getattr(module, "__all__", ()):
        obj = getattr(module, name)
        if inspect.ismodule(obj):
            home = obj.__name__
        elif (inspect.isclass(obj) or inspect.isroutine(obj)) and getattr(obj, "__module__", None):
            home = f"{obj.__module__}.{obj.__qualname__}"  # a bound method: its class's method
        else:
            home = None
            for other in sorted(n for n in sys.modules if n.startswith("dicemath.")):
                if other != fullname and vars(sys.modules[other]).get(name) is obj:
                    try:
                        documented = ("", name) in ModuleAnalyzer.for_module(other).find_attr_docs()
                    except Exception:  # no source to read
                        documented = False
                    if documented:
                        home = f"{other}.{name}"
                        break
        if home is not None and home != f"{fullname}.{name}":
            names.append(home)
    return names


def _all_public_names() -> dict[str, list[str]]:
    """:func:`public_names` of every module of dicemath (a dict of strings: the config
    cache pickles ``autosummary_context``, which a function cannot be)."""
    import importlib
    import pkgutil

    import dicemath

    modules = ["dicemath"] + [m.name for m in pkgutil.walk_packages(dicemath.__path__, "dicemath.")
                              if not m.name.endswith("__main__")]  # __main__ runs the command
    for name in modules:
        importlib.import_module(name)
    return {name: public_names(name) for name in modules}


autosummary_context = {"public_names": _all_public_names()}

napoleon_google_docstring = True
napoleon_numpy_docstring = False
napoleon_use_rtype = False
napoleon_attr_annotations = True
# ``Class attributes:`` (dicemath.core.game.Game, dicemath.analysis.engine.GameAnalysis) is
# a list of names with descriptions, as ``Args:`` is.
napoleon_custom_sections = [("Class attributes", "params_style")]

# -- MyST -----------------------------------------------------------------------------------
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# -- HTML ------------------------------------------------------------------------------------
html_theme = "alabaster"
html_title = f"dicemath {__version__}"
html_static_path: list[str] = []


# -- project conventions the tools do not know ---------------------------------------------


def _attribute_docstring_untyped(self):  # type: ignore[no-untyped-def]
    """napoleon reads the first line of an attribute's docstring as ``type: description``;
    dicemath's types are annotations and its prose is full of colons ("(limit, throws used)
    of a follower's decisions on the card: the first throw ..." became a type, and its
    words cross-references). The whole docstring is the description here."""
    return self.__class__(self._consume_to_end(), self._config).lines()


def _nearest_python_domain():  # type: ignore[no-untyped-def]
    """The Python domain, resolving an ambiguous short reference to the nearest target.

    The docstrings name a sibling module or a name in the same package the way a relative
    import does (``:mod:`.view``` in ``dicemath.games.pitjesbak.drawing`` is
    ``dicemath.games.pitjesbak.view``); Sphinx reads ``.view`` as "anything ending in
    ``.view``" and, with one per game, warns of more than one target. Among such matches the
    one sharing the longest dotted prefix with the current module is taken when it is the
    only one that long; otherwise Sphinx's own answer (and warning) stands.
    """
    from sphinx.domains.python import PythonDomain

    class NearestPythonDomain(PythonDomain):
        def find_obj(self, env, modname, classname, name, type, searchmode=0):  # type: ignore[no-untyped-def]
            matches = super().find_obj(env, modname, classname, name, type, searchmode)
            if len(matches) > 1 and modname:
                here = modname.split(".")

                def shared(match):  # type: ignore[no-untyped-def]
                    there = match[0].split(".")
                    n = 0
                    while n < min(len(here), len(there)) and here[n] == there[n]:
                        n += 1
                    return n

                best = max(shared(m) for m in matches)
                nearest = [m for m in matches if shared(m) == best]
                if len(nearest) == 1:
                    return nearest
            return matches

    return NearestPythonDomain


def _readme_links(app, relative_path, parent_docname, content):  # type: ignore[no-untyped-def]
    """README.md, included by docs/readme.md, links ``LICENSE`` from the repository root."""
    if str(relative_path).endswith("README.md"):
        content[0] = content[0].replace("](LICENSE)", "](../LICENSE)")


def setup(app):  # type: ignore[no-untyped-def]
    from sphinx.ext.napoleon.docstring import GoogleDocstring

    GoogleDocstring._parse_attribute_docstring = _attribute_docstring_untyped
    app.add_domain(_nearest_python_domain(), override=True)
    app.connect("include-read", _readme_links)
