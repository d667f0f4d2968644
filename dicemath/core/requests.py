"""Reading the fields of a page request (``dicemath serve``'s JSON API) with the command line's words.

A request is a JSON object whose keys are a command's options with ``_`` for ``-``; an
absent, null or blank field means "not given". The readers raise :class:`RequestError`
with argparse's message for what they cannot read, so the page and the command line say
the same thing about the same input.

Example:
    >>> int_field({"stripes": "9"}, "stripes")
    9
    >>> choice_field({"rules": "odd"}, "rules", ("standard", "playtive"))
    Traceback (most recent call last):
    ...
    dicemath.core.requests.RequestError: argument --rules: invalid choice: 'odd' (choose from 'standard', 'playtive')
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Literal, overload

from dicemath.core.commands import int_list, throw_list
from dicemath.core.errors import DicemathError


class RequestError(DicemathError):
    """A request the server cannot read: not JSON, an unknown game, a missing or unreadable field."""


def option_name(name: str) -> str:
    """The command-line option of a request field (``"cube_value"`` -> ``"--cube-value"``)."""
    return "--" + name.replace("_", "-")


def given(request: Mapping[str, Any], name: str) -> Any:
    """The value of field ``name``, or None when it is absent, null or blank."""
    value = request.get(name)
    if value is None or (isinstance(value, str) and value.strip() == ""):
        return None
    return value


@overload
def text_field(request: Mapping[str, Any], name: str, default: str | None = None, *, required: Literal[True],
               positional: bool = False) -> str: ...
@overload
def text_field(request: Mapping[str, Any], name: str, default: str, *, required: bool = False,
               positional: bool = False) -> str: ...
@overload
def text_field(request: Mapping[str, Any], name: str, default: None = None, *, required: bool = False,
               positional: bool = False) -> str | None: ...
def text_field(request: Mapping[str, Any], name: str, default: str | None = None, *, required: bool = False,
               positional: bool = False) -> str | None:
    """Field ``name`` as text (``default`` when not given).

    Raises:
        RequestError: a required field not given, or a value that is not text or a number.
    """
    shown = name if positional else option_name(name)
    value = given(request, name)
    if value is None:
        if required:
            raise RequestError(f"the following arguments are required: {shown}")
        return default
    if isinstance(value, (dict, list, bool)):
        raise RequestError(f"argument {shown}: expected text, got {value!r}")
    return str(value).strip()


def int_field(request: Mapping[str, Any], name: str, default: int | None = None, *,
              required: bool = False) -> int | None:
    """Field ``name`` as a whole number.

    Raises:
        RequestError: a required field not given, or a value that is no whole number.
    """
    value = given(request, name)
    if value is None:
        if required:
            raise RequestError(f"the following arguments are required: {option_name(name)}")
        return default
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise RequestError(f"argument {option_name(name)}: invalid int value: {value!r}")
    try:
        return int(value)
    except ValueError:
        raise RequestError(f"argument {option_name(name)}: invalid int value: {value!r}") from None


def int_list_field(request: Mapping[str, Any], name: str, *, required: bool = False,
                   positional: bool = False) -> list[int] | None:
    """Field ``name`` as comma-separated whole numbers (a board; a throw is :func:`throw_list_field`).

    Raises:
        RequestError: a required field not given, or text that is not such a list.
    """
    return _list_field(request, name, int_list, required, positional)


def throw_list_field(request: Mapping[str, Any], name: str, *, required: bool = False,
                     positional: bool = False) -> list[int] | None:
    """Field ``name`` as a throw, ``"6-5-3"`` or ``"6,5,3"``
    (:func:`dicemath.core.commands.throw_list`), its faces in the order written.

    Raises:
        RequestError: a required field not given, or text that is no throw.

    Example:
        >>> throw_list_field({"roll": "6-5-3-3-3-2"}, "roll")
        [6, 5, 3, 3, 3, 2]
    """
    return _list_field(request, name, throw_list, required, positional)


def _list_field(request: Mapping[str, Any], name: str, parse: Callable[[str], list[int]], required: bool,
                positional: bool) -> list[int] | None:
    """Field ``name`` read by the argparse type ``parse``, its error named as the option."""
    text = text_field(request, name, required=required, positional=positional)
    if text is None:
        return None
    try:
        return parse(text)
    except argparse.ArgumentTypeError as error:
        raise RequestError(f"argument {name if positional else option_name(name)}: {error}") from None


def flag_field(request: Mapping[str, Any], name: str) -> bool:
    """Field ``name`` as an on/off flag (``true``, ``"on"``, ``"1"``, ``"yes"`` are on)."""
    value = request.get(name, False)
    if isinstance(value, str):
        return value.strip().lower() in ("1", "true", "on", "yes")
    return bool(value)


def choice_field(request: Mapping[str, Any], name: str, choices: Iterable[str], default: str | None = None, *,
                 required: bool = False) -> str | None:
    """Field ``name``, one of ``choices``.

    Raises:
        RequestError: a required field not given, or a value not among ``choices``.
    """
    choices = tuple(choices)
    value = text_field(request, name, default, required=required)
    if value is not None and value not in choices:
        shown = ", ".join(repr(c) for c in choices)
        raise RequestError(f"argument {option_name(name)}: invalid choice: {value!r} (choose from {shown})")
    return value
