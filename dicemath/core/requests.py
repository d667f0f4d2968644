"""The page's requests and answers (``dicemath serve``'s JSON API): fields declared once per game.

A game declares the fields of its page form once (:meth:`dicemath.core.game.Game.page_fields`),
each a :class:`Field`: its name (the request's key), its kind, bounds or choices, default and
help. The page draws its form from these declarations (``GET /api/games``) and
:func:`read_fields` reads a request by them: every key must be a declared field that applies
(else :class:`RequestError` naming it), every value of its field's kind, within its bounds.
The messages speak of the page's fields (``field "board"``), never of command-line options.

An answer carries its :func:`view`: the headline, whether its values are exact, a note, and
a table, which the page shows as they are (the game writes them; :func:`advice_view` writes
them for any :class:`~dicemath.core.advice.Advice`).

Example:
    >>> depth = Field("depth", "int", "Search depth", default=6, low=1, high=12)
    >>> read_fields({"depth": "4"}, (depth,))
    {'depth': 4}
    >>> read_fields({"depth": 40}, (depth,))
    Traceback (most recent call last):
    ...
    dicemath.core.requests.RequestError: field "depth" must be 1..12, got 40
    >>> read_fields({"goal": 50}, (depth,))
    Traceback (most recent call last):
    ...
    dicemath.core.requests.RequestError: unknown field "goal" (the fields: depth)
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from dicemath.core.advice import Advice
from dicemath.core.commands import int_list, throw_list
from dicemath.core.errors import DicemathError
from dicemath.core.numbers import number_text

KINDS = ("text", "int", "ints", "throw", "choice", "flag")
"""The kinds of field: text; a whole number (``low``..``high``); comma-separated whole numbers
(a board); a throw of dice (``"6-5-3"`` or ``"6,5,3"``); one of ``choices``; on or off."""

ON, OFF = ("true", "on", "yes", "1"), ("false", "off", "no", "0")
"""The texts a flag field reads as on and as off (JSON's ``true`` and ``false`` too)."""


class RequestError(DicemathError):
    """A request the server cannot read: not JSON, an unknown game or field, a value it refuses."""


@dataclass(frozen=True)
class Field:
    """One field of a game's page form, declared once: the page draws it, :func:`read_fields` reads it.

    Attributes:
        name: the request's key (``"table_stock"``); the command-line option of the same value
            is ``--table-stock``.
        kind: one of :data:`KINDS`.
        label: the field's name for people (``"Exact table up to (beans a side)"``).
        help: one line shown under it.
        default: the value when the field is not given (absent, null or blank); None: no value.
        required: a request without it is refused.
        low, high: the bounds of an ``int`` field (None: unbounded on that side).
        choices: the values of a ``choice`` field.
        choice_labels: their names for people, in the same order (default: the values).
        example: the text the page's form starts with (default: empty, the default shown).
        when: ``(other field, values)``: the field applies only when the other field (declared
            before it) has one of these values; given otherwise, it is refused.
        dice: a ``throw`` field's most dice (the page's dice pad; 0: no pad).
        wide: the page gives it a whole line.
        redraws: the page redraws the picture from this field alone when it changes
            (``/api/picture``), and a tap on a row of the picture sets that row's entry.
        options: the command-line options that take the field's value (default: ``--`` and the
            name with ``-`` for ``_``), which the page's messages name as the field.

    Raises:
        ValueError: an unknown kind, choices without their kind, bounds in the wrong order.
    """

    name: str
    kind: str
    label: str
    help: str = ""
    default: Any = None
    required: bool = False
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()
    choice_labels: tuple[str, ...] = ()
    example: str = ""
    when: tuple[str, tuple[str, ...]] | None = None
    dice: int = 0
    wide: bool = False
    redraws: bool = False
    options: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"field {self.name!r}: the kind must be one of {', '.join(KINDS)}, got {self.kind!r}")
        if bool(self.choices) != (self.kind == "choice"):
            raise ValueError(f"field {self.name!r}: a choice field, and only one, has choices")
        if self.choice_labels and len(self.choice_labels) != len(self.choices):
            raise ValueError(f"field {self.name!r}: one label per choice")
        if self.low is not None and self.high is not None and self.low > self.high:
            raise ValueError(f"field {self.name!r}: low {self.low} above high {self.high}")
        if not self.options:
            object.__setattr__(self, "options", ("--" + self.name.replace("_", "-"),))

    def as_dict(self) -> dict[str, Any]:
        """The field as the page reads it (``GET /api/games``, JSON's lists for tuples): every
        attribute, the choices' labels filled in."""
        return {**asdict(self), "choices": list(self.choices),
                "choice_labels": list(self.choice_labels or self.choices),
                "when": None if self.when is None else [self.when[0], list(self.when[1])],
                "options": list(self.options)}


def given(request: Mapping[str, Any], name: str) -> Any:
    """The value of field ``name``, or None when it is absent, null or blank."""
    value = request.get(name)
    if value is None or (isinstance(value, str) and value.strip() == ""):
        return None
    return value


def _text(field: Field, value: Any) -> str:
    if isinstance(value, (dict, list, bool)):
        raise RequestError(f'field "{field.name}": expected text, got {value!r}')
    return str(value).strip()


def _whole(field: Field, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise RequestError(f'field "{field.name}": expected a whole number, got {value!r}')
    try:
        number = int(value)
    except ValueError:
        raise RequestError(f'field "{field.name}": expected a whole number, got {value!r}') from None
    if (field.low is not None and number < field.low) or (field.high is not None and number > field.high):
        bounds = (f"{field.low}..{field.high}" if field.low is not None and field.high is not None
                  else f"at least {field.low}" if field.low is not None else f"at most {field.high}")
        raise RequestError(f'field "{field.name}" must be {bounds}, got {number}')
    return number


def _parsed(field: Field, value: Any, parse: Callable[[str], list[int]]) -> list[int]:
    try:
        return parse(_text(field, value))
    except argparse.ArgumentTypeError as error:
        raise RequestError(f'field "{field.name}": {error}') from None


def _choice(field: Field, value: Any) -> str:
    text = _text(field, value)
    if text not in field.choices:
        raise RequestError(f'field "{field.name}": {text!r} is none of ' + ", ".join(map(repr, field.choices)))
    return text


def _flag(field: Field, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower() if isinstance(value, (str, int)) else None
    if text not in ON + OFF:
        raise RequestError(f'field "{field.name}": expected on or off (true or false), got {value!r}')
    return text in ON


_READERS: dict[str, Callable[[Field, Any], Any]] = {
    "text": _text, "int": _whole, "choice": _choice, "flag": _flag,
    "ints": lambda field, value: _parsed(field, value, int_list),
    "throw": lambda field, value: _parsed(field, value, throw_list)}


def read_field(request: Mapping[str, Any], field: Field) -> Any:
    """The value of ``field`` in ``request``: read by its kind, or its default when not given.

    Raises:
        RequestError: a required field not given, or a value the field refuses (named).
    """
    value = given(request, field.name)
    if value is None or (field.kind == "flag" and value is False):
        if field.required:
            raise RequestError(f'field "{field.name}" is required ({field.label})')
        return field.default
    return _READERS[field.kind](field, value)


def read_fields(request: Mapping[str, Any], fields: Sequence[Field], *, also: Sequence[str] = ()) -> dict[str, Any]:
    """The value of every field of ``fields`` that applies (its ``when``), read from ``request``.

    Args:
        request: the decoded JSON object.
        fields: the declared fields, in order (a field's ``when`` names one before it).
        also: keys read elsewhere (``"game"``), allowed beside the fields.

    Returns:
        ``{name: value}`` for every field that applies (its default when not given).

    Raises:
        RequestError: a key that is no field; a field given where it does not apply; a
            required field not given; a value its field refuses. The message names the field.
    """
    names = [f.name for f in fields]
    for key in request:
        if key not in names and key not in also:
            raise RequestError(f'unknown field "{key}" (the fields: {", ".join(names) or "none"})')
    values: dict[str, Any] = {}
    for field in fields:
        if field.when is not None and values.get(field.when[0]) not in field.when[1]:
            if given(request, field.name) not in (None, False):
                raise RequestError(f'field "{field.name}" applies only when "{field.when[0]}" is '
                                   + " or ".join(field.when[1]))
            continue
        values[field.name] = read_field(request, field)
    return values


def view(headline: str, exact: bool, note: str, columns: Sequence[str], rows: Sequence[Sequence[Any]],
         best: int = 0) -> dict[str, Any]:
    """The page's view of an answer (its ``"view"`` key), shown as it is.

    Args:
        headline: what to do, in a few words (``"Row 12"``).
        exact: the values are exact (else estimates: the page says which).
        note: one line on where the values come from.
        columns: the table's headings.
        rows: its rows, as text.
        best: the row to mark as the advice (-1: none).
    """
    return {"headline": headline, "exact": exact, "note": note, "columns": list(columns),
            "rows": [[str(cell) for cell in row] for row in rows], "best": best if rows else -1}


def advice_view(advice: Advice) -> dict[str, Any]:
    """The :func:`view` of any game's :class:`~dicemath.core.advice.Advice`: its best action,
    every option's value in the advice's unit, the source.

    Example:
        >>> from dicemath.core.advice import Option
        >>> advice = Advice(game="toy", state="3 left", unit="win probability", higher_is_better=True,
        ...                 exact=True, source="solve", options=(Option(1, "take 1", 0.75),))
        >>> advice_view(advice)["headline"], advice_view(advice)["rows"]
        ('take 1', [['take 1', '0.75']])
    """
    return view("Nothing to choose" if advice.best is None else advice.best.text, advice.exact,
                f"{advice.unit}; source: {advice.source}", ("action", advice.unit),
                [(option.text, number_text(option.value)) for option in advice.options])
