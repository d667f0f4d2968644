"""The rules text shipped with the package (``docs/rules.md``), one game at a time.

The document numbers every rule as the code cites it (``PEGS-4``, ``BG-8``, ...); this
module reads it from the installed package so that ``dicemath GAME rules`` works without
the repository.

Example:
    >>> text = rules_text("fives")
    >>> text.splitlines()[0]
    '## 2. Fives'
    >>> "FIVES-5" in text and "Dice and hits" in text
    True
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

from dicemath.core.errors import DicemathError


def game_sections() -> dict[str, tuple[str, ...]]:
    """For each game, the headings of ``docs/rules.md`` that state its rules, in print order."""
    from dicemath.games.registry import GAMES

    return {entry.name: entry.rules_headings for entry in GAMES}


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


def rules_text(game: str) -> str:
    """The rules of ``game`` (``"pegs"``, ``"fives"``, ``"pitjesbak"``, ``"backgammon"``,
    ``"bohnduell"``) as Markdown, with the shared dice section where the game uses it.

    Raises:
        DicemathError: an unknown game.
    """
    known = game_sections()
    try:
        headings = known[game]
    except KeyError:
        raise DicemathError(f"unknown game {game!r}; known: {sorted(known)}") from None
    sections = _sections(rules_document())
    return "\n".join(sections[h].strip() + "\n" for h in headings)
