"""The JSON API of the page (``dicemath serve``, :mod:`dicemath.cli.page`): its routes.

The server (:mod:`dicemath.cli.page`) answers them in its own process or hands them to its
worker processes (:mod:`dicemath.cli.page_workers`); both find them here, in :data:`ROUTES`.
Every game comes from the registry; the page's forms are drawn from the fields each game
declares (:meth:`~dicemath.core.game.Game.page_fields`, :class:`~dicemath.core.requests.Field`).

- ``GET /api/games``: ``{"games": [{"name", "title", "example", "fields", "state_fields"}]}``
  (:func:`games`): every game of the registry, the text of a state where a player decides,
  the fields of its own form (none: the page asks for a state) and the fields of the state
  form every game has (:func:`state_fields`: ``state``, and ``rules`` where the game has
  presets).
- ``POST /api/advise`` with ``{"game": GAME, "state": TEXT}`` (optionally ``"rules"``, a
  preset's name): the game's advice at that state (:meth:`dicemath.core.game.Game.advise`,
  the envelope of ``dicemath GAME advise STATE --json``). With the game's own fields instead
  of ``state``: the game's answer (:meth:`~dicemath.core.game.Game.page_advice`, the JSON
  object its command line's advise query prints with ``--json``). Either way plus ``"svg"``,
  the picture of the position with the advice, and ``"view"``, what the page shows
  (:func:`~dicemath.core.requests.view`).
- ``POST /api/picture`` with ``{"game": GAME, "state": TEXT}``, or the game's field that
  ``redraws`` (a board at the start of a turn, which the page redraws when a row is tapped):
  ``{"state", "board", "svg"}``.

Every key of a request is ``game`` or a field of the form it fills, and each field is read
by its declaration (:func:`~dicemath.core.requests.read_fields`): a key that is no field of
the form, a field that does not apply, a value out of its bounds raise
:class:`~dicemath.core.requests.RequestError` naming the field. Input the rules refuse
raises a :class:`~dicemath.core.errors.DicemathError`, its command-line options named as
the page's fields (:func:`page_words`). The server answers both with HTTP 400 and
``{"error": MESSAGE}`` (:mod:`dicemath.cli.page`).

Example:
    >>> from dicemath.games.registry import GAMES
    >>> [g["name"] for g in games()["games"]] == [g.name for g in GAMES]
    True
    >>> sorted(ROUTES)
    ['/api/advise', '/api/picture']
    >>> page_words("give your throw (--throw)", [Field("current", "throw", "My throw", options=("--throw",))])
    'give your throw ("current")'
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from dicemath.core.errors import DicemathError
from dicemath.core.game import CHANCE, Game, GameState
from dicemath.core.requests import Field, RequestError, advice_view, read_fields
from dicemath.games import registry
from dicemath.games.registry import game as game_named

__all__ = ["ROUTES", "advise", "games", "page_words", "picture", "state_fields"]

T = TypeVar("T")

def _first_decision(game: Game) -> GameState:
    """The first state of ``game`` where a player decides (each chance node's first outcome)."""
    state = game.initial_state()
    while state.current_player() == CHANCE:
        state = state.apply(state.chance_outcomes()[0][0])
    return state


def state_fields(game: Game) -> tuple[Field, ...]:
    """The fields of the state form every game has: ``state`` (its text form) and, where the
    game has more than one preset, ``rules``."""
    presets = tuple(game.presets())
    text = Field("state", "text", "State", help=f"The state's text form, as 'dicemath {game.name} show' prints it",
                 required=True, example=str(_first_decision(game)), wide=True)
    if len(presets) < 2:
        return (text,)
    return (text, Field("rules", "choice", "Rules", default=presets[0], choices=presets))


def games() -> dict[str, Any]:
    """The answer of ``GET /api/games`` (see the module docstring)."""
    return {"games": [{"name": g.name, "title": g.title, "example": str(_first_decision(g)),
                       "fields": [f.as_dict() for f in g.page_fields()],
                       "state_fields": [f.as_dict() for f in state_fields(g)]} for g in registry.GAMES]}


def _game(request: dict[str, Any]) -> Game:
    name = request.get("game")
    if not isinstance(name, str) or not name.strip():
        raise RequestError('field "game" is required (one of ' + ", ".join(g.name for g in registry.GAMES) + ")")
    return game_named(name.strip())


def page_words(message: str, fields: Sequence[Field]) -> str:
    """``message`` with the command-line options of each of ``fields`` written as that field
    (``--cube-value`` as ``"cube_value"``): the page speaks of its own fields."""
    options = sorted(((option, field.name) for field in fields for option in field.options), key=lambda o: -len(o[0]))
    for option, name in options:
        message = re.sub(re.escape(option) + r"\b(?!-)", f'"{name}"', message)
    return message


def _answer(answer: Callable[[], T], fields: Sequence[Field]) -> T:
    """``answer()``; a refusal's message in the words of the page's ``fields`` (:func:`page_words`)."""
    try:
        return answer()
    except DicemathError as error:
        words = page_words(str(error), fields)
        if words == str(error):
            raise
        raise DicemathError(words) from error


def _state_advice(game: Game, request: dict[str, Any]) -> dict[str, Any]:
    """The answer to ``{"game": NAME, "state": TEXT}``: the game's advice at that state."""
    values = read_fields(request, state_fields(game), also=("game",))
    state = game.read_state(values["state"], game.presets()[values["rules"]] if "rules" in values else None)
    advice = game.advise(state)
    result = advice.as_dict()
    result["svg"] = game.draw(state, advice if advice.options else None)
    result["view"] = advice_view(advice)
    return result


def advise(request: dict[str, Any]) -> dict[str, Any]:
    """The answer of ``POST /api/advise`` (see the module docstring).

    Args:
        request: the decoded JSON object, ``{"game": ..., "state": ...}`` or ``{"game": ...,
            field: value, ...}``.

    Returns:
        The command line's ``--json`` object with ``"svg"``, the picture, and ``"view"``.

    Raises:
        DicemathError: input the rules refuse, or a request the server cannot read
            (:class:`~dicemath.core.requests.RequestError`); either names the page's fields.
    """
    game = _game(request)
    own = game.page_fields()
    if not own or "state" in request:
        return _answer(lambda: _state_advice(game, request), state_fields(game))
    values = read_fields(request, own, also=("game",))
    return _answer(lambda: game.page_advice(values), own)


def picture(request: dict[str, Any]) -> dict[str, Any]:
    """The answer of ``POST /api/picture``: ``{"state", "board", "svg"}``, the picture of a
    state given in its text form (``state``), or of the game's field that ``redraws``.

    Raises:
        DicemathError: a state or field the rules refuse, a request with other fields.
    """
    game = _game(request)
    own = game.page_fields()
    if not own or "state" in request:
        fields = state_fields(game)
        values = read_fields(request, fields, also=("game",))
        rules = game.presets()[values["rules"]] if "rules" in values else None
        state = _answer(lambda: game.read_state(values["state"], rules), fields)
    else:
        redrawn = tuple(f for f in own if f.redraws)
        if not redrawn:
            raise RequestError('field "state" is required (a picture of ' + game.title + " needs the state)")
        values = read_fields(request, redrawn, also=("game",))
        state = _answer(lambda: game.page_picture_state(values), redrawn)
    return {"state": str(state), "board": list(getattr(state, "board", ())), "svg": game.draw(state)}


ROUTES: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {"/api/advise": advise, "/api/picture": picture}
"""The JSON endpoints, by path."""
