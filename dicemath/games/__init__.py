"""One sub-package per game of docs/rules.md, each built on :mod:`dicemath.core`.

Each game is one :class:`~dicemath.core.game.Game` object in its package's ``game.py``
(Pegs and Fives, one package, have two), listed once in :mod:`dicemath.games.registry`: the
command line, the page, the analysis of played games, the report and the conformance test
reach every game through that list. Every game package also exposes the same names with
the same meaning (``tests/test_games_conformance.py`` checks them for every registered
game):

``Rules``
    A frozen, hashable dataclass of the game's rules; each variant of docs/rules.md is a named
    field with the default of the standard game. A value no rule allows raises
    :class:`~dicemath.core.errors.InvalidRulesError` in ``__post_init__``. Solvers key
    their caches by it.
``STANDARD`` (and other presets)
    Module constants holding ``Rules`` objects: ``STANDARD`` is the game as docs/rules.md
    states it; named variants get their own constant (``pitjesbak.PIPS``,
    ``bohnduell.CAPTURE_EVERY``). The one package of two games, ``pegs_fives``, has a
    preset per game instead (``PEGS``, which ``Rules()`` is, and ``FIVES``).
``initial_state(rules=STANDARD)``
    The state at the start of a game.
``State``
    The game's immutable, hashable state; it implements
    :class:`dicemath.core.game.GameState`: ``current_player()`` (a seat,
    :data:`~dicemath.core.game.CHANCE` or :data:`~dicemath.core.game.TERMINAL`),
    ``legal_actions()`` (sorted), ``chance_outcomes()`` (``(outcome, Fraction)`` pairs
    summing to exactly 1), ``apply(action)`` and ``returns()``. Its text form
    ``str(state)`` reads back with ``State.from_str(text)``; ``state.action_text(action)``
    and ``state.parse_action(text)`` do the same for the actions and chance outcomes of
    that state. It has a ``rules`` attribute.
``advise(state, ...)``
    Advice at a state where a player decides: the core's
    :class:`dicemath.core.advice.Advice` for every game, each legal action an ``Option``
    with its value under optimal play (or a labelled estimate), best first, with the unit,
    whether the values are exact and the name of the source that gave them (the game's
    chain of value sources, :mod:`dicemath.core.sources`, ``Game.sources``); what only one
    game has rides in its ``extras`` and ``detail``. A state where nobody decides raises
    :class:`~dicemath.core.errors.InvalidStateError`.

``analyse(record)``
    The cost of every decision of a played game and the luck of every throw: ``record``
    is a decision list (each entry the inputs of the game's ``advise`` command plus the
    ``choice``) or a whole game (every throw and choice from the start), JSON or its
    path; the result is a :class:`dicemath.analysis.Analysis`. The game's
    ``analysis.py`` reads records onto its states; the analysis values each decision by the
    game's ``advise`` and every state by its chain (:mod:`dicemath.analysis`,
    ``docs/analyse.md``).

Errors are those of :mod:`dicemath.core.errors`: ``InvalidRulesError`` (rules),
``InvalidStateError`` (a state or its text), ``IllegalMoveError`` (an action the state
does not allow, or unreadable action text), ``InvalidDiceError`` (a die or throw that
cannot be). Generic algorithms (:mod:`dicemath.core.search`, :mod:`dicemath.core.game`)
run on any ``State``; a game's fast solvers are tested against them.

Names a game uses beyond the vocabulary say what they are and mean one thing across
games: ``Move`` is one move of a player, ``SearchAdvisor`` an alpha-beta advisor,
``MoveValue`` one move with its value. All five packages follow the vocabulary.

A game package exports its public names lazily (PEP 562): its ``__init__`` imports them under
``if TYPE_CHECKING:`` (what type checkers and readers see), lists them in ``__all__``, and its
``__getattr__`` imports each from its module on first use (:func:`export`), so that importing
one module of a game (the registry imports each ``game.py``) loads none of its solvers, tables
or kernels; ``from dicemath.games.pig import solve`` and ``dir`` work as for any module.
"""

from __future__ import annotations

import ast
import importlib
import sys
from functools import cache
from pathlib import Path
from typing import Any


@cache
def exported(package: str) -> dict[str, str]:
    """Each name of the package ``package``'s ``__all__`` that its ``if TYPE_CHECKING:`` block
    imports, and the module it imports it from (read from the package's ``__init__.py``).

    Example:
        >>> exported("dicemath.games.pig")["solve"]
        'dicemath.games.pig.solver'
    """
    module = sys.modules[package]
    public = set(module.__all__)
    source = Path(str(module.__file__)).read_text(encoding="utf-8")
    found = {}
    for node in ast.parse(source).body:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING":
            for statement in node.body:
                if isinstance(statement, ast.ImportFrom) and statement.module:
                    found.update({alias.asname or alias.name: statement.module for alias in statement.names
                                  if (alias.asname or alias.name) in public})
    return found


def export(package: str, name: str) -> Any:
    """The public ``name`` of the game package ``package`` (its ``__getattr__``), imported from
    its module (:func:`exported`) on first use and kept in the package.

    Raises:
        AttributeError: the package exports no ``name``.

    Example:
        >>> export("dicemath.games.pig", "solve").__module__
        'dicemath.games.pig.solver'
    """
    module = exported(package).get(name)
    if module is None:
        raise AttributeError(f"module {package!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    setattr(sys.modules[package], name, value)
    return value
