"""The rules text shipped with the package (``docs/rules.md``), by section.

The document numbers every rule as the code cites it (``PEGS-4``, ``BG-8``, ...); this
module reads it from the installed package so that ``dicemath GAME rules`` works without
the repository. A game names its sections (:attr:`dicemath.core.game.Game.rules_headings`).

Example:
    >>> text = rules_sections(("2. Fives", "Dice and hits"))
    >>> text.splitlines()[0]
    '## 2. Fives'
    >>> "FIVES-5" in text and "Dice and hits" in text
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from importlib import resources

from dicemath.core.errors import DicemathError


@lru_cache(maxsize=1)
def rules_document() -> str:
    """The whole rules document (Markdown)."""
    return resources.files("dicemath").joinpath("data", "rules.md").read_text(encoding="utf-8")


def _sections(document: str) -> dict[str, str]:
    sections: dict[str, str] = {}
    heading = None
    for line in document.splitlines(keepends=True):
        if line.startswith("## "):
            heading = line[3:].strip()
            sections[heading] = ""
        if heading is not None:
            sections[heading] += line
    return sections


def rules_sections(headings: Sequence[str]) -> str:
    """The sections of the rules document with these ``##`` headings, in this order (Markdown).

    Raises:
        DicemathError: a heading the document does not have.
    """
    sections = _sections(rules_document())
    missing = [h for h in headings if h not in sections]
    if missing:
        raise DicemathError(f"the rules document has no section {missing[0]!r}")
    return "\n".join(sections[h].strip() + "\n" for h in headings)
