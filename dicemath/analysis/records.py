"""Records of played games: decision lists and whole games, read from JSON and checked.

Two forms (``docs/analyse.md`` documents them with one example per game):

* a **decision list**: ``{"game": NAME, "rules": {...}, "decisions": [ENTRY, ...]}``;
  each entry holds exactly the inputs of ``dicemath GAME advise``, keyed like its options
  (``--my-stripes`` becomes ``my_stripes``, ``--board`` a JSON list), plus ``choice``;
* a **whole game**: ``{"game": NAME, "rules": {...}, "moves": [TOKEN, ...]}``; every throw
  or roll and every choice from the start of the game, in order, each written as the
  game's text form of that action (``"6-5-4"``, ``"stop"``, ``"S2"``, ``"24/18 13/11"``).

Optional keys of both: ``rules`` (the variant fields of the game's ``Rules``),
``settings`` (settings of the game's advice and chain, e.g. BohnDuell's search ``depth``),
``players`` (names, for display) and ``note``; a whole game may give ``start``, the text
form of the state it starts from (a Pegs board, a BohnDuell position, a Backgammon
Position ID, a Pitjesbak state; default: the start of a game). Anything else is refused, so a misspelt
key is an error rather than silently ignored.

Example:
    >>> record = read_record({"game": "bohnduell", "rules": {"stock": 6}, "moves": ["S4", "S1"]})
    >>> record.kind, record.moves
    ('game', ('S4', 'S1'))
    >>> read_record({"game": "bohnduell", "moves": []})
    Traceback (most recent call last):
    ...
    dicemath.analysis.records.InvalidRecordError: the record's "moves" must be a non-empty list
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dicemath.core.errors import DicemathError

RECORD_KEYS = frozenset({"game", "rules", "settings", "start", "decisions", "moves", "players", "note"})
"""The keys a record may have."""

ENTRY_KEYS = frozenset({"choice", "note"})
"""Keys every decision entry may have besides the game's ``advise`` inputs."""


class InvalidRecordError(DicemathError):
    """A record that is not a decision list or a whole-game record of the documented form."""


@dataclass(frozen=True)
class Record:
    """A checked record.

    Attributes:
        game: the game's name (its :attr:`~dicemath.core.game.Game.name`, e.g. ``"pegs"``).
        rules: the variant fields of the game's rules (may be empty).
        settings: settings of the game's advice and chain (may be empty).
        decisions: the decision entries (a decision list), or None.
        moves: the tokens of a whole game, or None.
        players: the players' names, or None.
        start: the text of the state a whole game starts from, or None (the game's start).
    """

    game: str
    rules: dict = field(default_factory=dict)
    settings: dict = field(default_factory=dict)
    decisions: tuple[dict, ...] | None = None
    moves: tuple | None = None
    players: tuple[str, ...] | None = None
    start: str | None = None

    @property
    def kind(self) -> str:
        """``"decisions"`` or ``"game"``."""
        return "decisions" if self.decisions is not None else "game"

    def as_dict(self) -> dict:
        """The JSON form (what :func:`read_record` reads back)."""
        result: dict = {"game": self.game}
        if self.rules:
            result["rules"] = dict(self.rules)
        if self.settings:
            result["settings"] = dict(self.settings)
        if self.players:
            result["players"] = list(self.players)
        if self.start is not None:
            result["start"] = self.start
        if self.decisions is not None:
            result["decisions"] = [dict(entry) for entry in self.decisions]
        else:
            result["moves"] = list(self.moves or ())
        return result


def record_json(record: Record | Mapping) -> str:
    """A record as JSON text for people: one key a line, a decision entry a line, the
    moves of a whole game on one line (:func:`read_record` reads it back).

    Example:
        >>> print(record_json(Record("bohnduell", {"stock": 6}, moves=("S4", "S1"))), end="")
        {
          "game": "bohnduell",
          "rules": {"stock": 6},
          "moves": ["S4", "S1"]
        }
    """
    data = record.as_dict() if isinstance(record, Record) else dict(record)
    lines = []
    for key, value in data.items():
        if key == "decisions":
            entries = ",\n".join(f"    {json.dumps(entry)}" for entry in value)
            lines.append(f'  "decisions": [\n{entries}\n  ]')
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def read_record(source: Record | str | Path | Mapping) -> Record:
    """Read and check a record: a JSON file's path, or the already parsed object (a
    :class:`Record`, already checked, is returned as it is).

    Raises:
        InvalidRecordError: unreadable JSON, a missing ``game``, neither or both of
            ``decisions`` and ``moves``, an empty list, or an unknown key.
    """
    if isinstance(source, Record):
        return source
    if isinstance(source, Mapping):
        data = source
    else:
        path = Path(source)
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except OSError as error:
            raise InvalidRecordError(f"cannot read the record {path}: {error.strerror}") from None
        except (json.JSONDecodeError, UnicodeDecodeError) as error:
            raise InvalidRecordError(f"{path} is not JSON: {error}") from None
        except ValueError as error:            # a path the system cannot name (a NUL byte)
            raise InvalidRecordError(f"cannot read the record {str(source)!r}: {error}") from None
    if not isinstance(data, Mapping):
        raise InvalidRecordError(f"a record is a JSON object, got {type(data).__name__}")
    unknown = sorted(set(data) - RECORD_KEYS)
    if unknown:
        raise InvalidRecordError(f"unknown key(s) {unknown} in the record; known: {sorted(RECORD_KEYS)}")
    game = data.get("game")
    if not isinstance(game, str) or not game:
        raise InvalidRecordError('a record needs "game": the name of the game')
    if ("decisions" in data) == ("moves" in data):
        raise InvalidRecordError('a record has either "decisions" (a decision list) or "moves" (a whole game)')
    kind = "decisions" if "decisions" in data else "moves"
    items = data[kind]
    if not isinstance(items, list) or not items:
        raise InvalidRecordError(f'the record\'s "{kind}" must be a non-empty list')
    rules = _mapping(data, "rules")
    settings = _mapping(data, "settings")
    players = data.get("players")
    if players is not None and (not isinstance(players, list) or not all(isinstance(p, str) for p in players)):
        raise InvalidRecordError('"players" is a list of names')
    start = data.get("start")
    if start is not None and (kind == "decisions" or not isinstance(start, str)):
        raise InvalidRecordError('"start" (a whole game only) is the text form of the state the game starts from')
    if kind == "decisions":
        for index, entry in enumerate(items):
            if not isinstance(entry, Mapping):
                raise InvalidRecordError(f"decisions entry {index}: a decision is a JSON object, got {entry!r}")
            if "choice" not in entry:
                raise InvalidRecordError(f'decisions entry {index}: missing "choice"')
        return Record(game, rules, settings, decisions=tuple(dict(e) for e in items),
                      players=tuple(players) if players else None)
    return Record(game, rules, settings, moves=tuple(items), players=tuple(players) if players else None,
                  start=start)


def _mapping(data: Mapping, key: str) -> dict:
    value = data.get(key, {})
    if not isinstance(value, Mapping):
        raise InvalidRecordError(f'the record\'s "{key}" must be a JSON object, got {value!r}')
    return dict(value)


def check_keys(entry: Mapping, required: Iterable[str], optional: Iterable[str] = ()) -> None:
    """Check a decision entry's keys against a game's ``advise`` inputs.

    Raises:
        InvalidRecordError: a required key is missing, or a key is unknown.
    """
    required = set(required)
    missing = sorted(required - set(entry))
    if missing:
        raise InvalidRecordError(f"missing key(s) {missing}")
    known = required | set(optional) | ENTRY_KEYS
    unknown = sorted(set(entry) - known)
    if unknown:
        raise InvalidRecordError(f"unknown key(s) {unknown}; a decision has {sorted(known)}")


def whole_number(entry: Mapping, key: str, default: int | None = None) -> int:
    """``entry[key]`` as a whole number (``default`` when absent and a default is given).

    Raises:
        InvalidRecordError: absent without a default, or not a whole number.
    """
    value = entry.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidRecordError(f'"{key}" must be a whole number, got {value!r}')
    return value


def flag(entry: Mapping, key: str) -> bool:
    """``entry[key]`` as a yes/no flag (absent: False).

    Raises:
        InvalidRecordError: a value other than true or false.
    """
    value = entry.get(key, False)
    if not isinstance(value, bool):
        raise InvalidRecordError(f'"{key}" must be true or false, got {value!r}')
    return value


def build_rules(rules_class, fields: Mapping, *, base=None, fixed: Iterable[str] = ()):
    """The rules object of a record's ``rules`` fields, refusing names the rules do not have.

    Args:
        rules_class: the game's frozen rules dataclass.
        fields: the record's ``rules``.
        base: a preset to change (``dataclasses.replace``); default ``rules_class(**fields)``.
        fixed: field names a record may not set (e.g. a preset's name).

    Raises:
        InvalidRecordError: an unknown or fixed field.
        InvalidRulesError: a value no rule allows (from the rules class).
    """
    from dataclasses import fields as dataclass_fields
    from dataclasses import replace

    known = {f.name for f in dataclass_fields(rules_class)} - set(fixed)
    unknown = sorted(set(fields) - known)
    if unknown:
        raise InvalidRecordError(f"unknown rules field(s) {unknown}; the rules have {sorted(known)}")
    return rules_class(**fields) if base is None else replace(base, **fields)
