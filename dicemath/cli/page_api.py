"""The JSON API of the page (``dicemath serve``, :mod:`dicemath.cli.page`): its routes.

The server (:mod:`dicemath.cli.page`) answers them in its own process or hands them to its
worker processes (:mod:`dicemath.cli.page_workers`); both find them here, in :data:`ROUTES`.
Every game comes from the registry; the page's forms are drawn from the fields each game
declares (:meth:`~dicemath.core.game.Game.page_fields`, :class:`~dicemath.core.requests.Field`).

- ``GET /api/games``: ``{"games": [{"name", "title", "example", "fields", "state_fields",
  "table_fields"}]}`` (:func:`games`): every game of the registry, the text of a state where a
  player decides, the fields of its own form (none: the page asks for a state), the fields of
  the state form every game has (:func:`state_fields`: ``state``, and ``rules`` where the game
  has presets) and those of its table form (:func:`table_fields`; none: no table mode).
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

The table mode (a whole game or session of several players at one table; nothing about a table
is kept here: the page keeps the states' texts) has three routes, each answering a table's
:func:`table_view` (``{"state", "player", "seat", "phase", "dice", "outcomes", "choices",
"returns", "svg"}``), and asks ``/api/advise`` with the state for the advice of the player to move:

- ``POST /api/table/start`` with ``{"game", "players"}``, optionally ``rules`` and the options
  of :meth:`~dicemath.core.game.Game.table_start` the game takes (:func:`table_fields`,
  :data:`TABLE_OPTIONS`: ``rounds``, a session): the start of the game.
- ``POST /api/table/step`` with ``{"game", "state", "action"}``: the state after ``action``, a
  throw at a chance node (``"6-5-3"``) or a choice at a decision, as the state's
  ``parse_action`` reads them.
- ``POST /api/table/show`` with ``{"game", "state"}``: the state as it is (a reload, an undo).

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
    ['/api/advise', '/api/picture', '/api/table/show', '/api/table/start', '/api/table/step']
    >>> page_words("give your throw (--throw)", [Field("current", "throw", "My throw", options=("--throw",))])
    'give your throw ("current")'
    >>> start = table_start({"game": "fives", "players": "3", "rounds": "2"})
    >>> start["phase"], start["dice"], start["seat"]
    ('throw', 6, 0)
    >>> step = table_step({"game": "fives", "state": start["state"], "action": "6-6-6-6-6-6"})
    >>> step["phase"], step["choices"]
    ('choice', ['6', '12'])
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Sequence
from functools import cache
from typing import Any, TypeVar

from dicemath.core.errors import DicemathError
from dicemath.core.game import CHANCE, TERMINAL, Game, GameState
from dicemath.core.requests import Field, RequestError, advice_view, read_fields
from dicemath.games import registry
from dicemath.games.registry import game as game_named

__all__ = ["ROUTES", "TABLE_OPTIONS", "TABLE_SIZES", "advise", "games", "page_words", "picture", "state_fields",
           "table_fields", "table_show", "table_start", "table_step", "table_view"]

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
    """The answer of ``GET /api/games`` (see the module docstring); ``table_fields``: the fields of
    the game's table form (:func:`table_fields`; empty: the game has no table mode)."""
    return {"games": [{"name": g.name, "title": g.title, "example": str(_first_decision(g)),
                       "fields": [f.as_dict() for f in g.page_fields()],
                       "state_fields": [f.as_dict() for f in state_fields(g)],
                       "table_fields": [f.as_dict() for f in table_fields(g)]} for g in registry.GAMES]}


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


# -- a table's game -------------------------------------------------------------------------------

TABLE_SIZES = range(2, 9)
"""The numbers of players the page offers a table of, where the game's ``table_start`` takes them."""

TABLE_OPTIONS = ((Field("rounds", "int", "Rounds", default=1, low=1, high=99, example="1",
                         help="a session of this many rounds: the totals add up, the lowest wins"), 2),)
"""The options of ``table_start`` the page knows (the interface of table states): each field with a
value that tells whether the game takes it (``rounds=2``: the game plays sessions of rounds)."""


@cache
def _table_sizes(game: Game) -> tuple[int, ...]:
    """The sizes of :data:`TABLE_SIZES` that ``game.table_start`` takes (none: no table states)."""
    sizes = []
    for players in TABLE_SIZES:
        try:
            game.table_start(players)
        except (NotImplementedError, DicemathError):
            continue
        sizes.append(players)
    return tuple(sizes)


@cache
def _table_options(game: Game) -> tuple[Field, ...]:
    """The fields of :data:`TABLE_OPTIONS` whose telling value ``game.table_start`` takes."""
    sizes = _table_sizes(game)
    taken = []
    for field, telling in TABLE_OPTIONS:
        try:
            game.table_start(sizes[0], **{field.name: telling})
        except DicemathError:
            continue
        taken.append(field)
    return tuple(taken)


def table_fields(game: Game) -> tuple[Field, ...]:
    """The fields of the page's table form of ``game``: ``players`` (the sizes its
    :meth:`~dicemath.core.game.Game.table_start` takes), ``rules`` where the game has more than one
    preset, and the options of :data:`TABLE_OPTIONS` it takes; none when the game has no table
    states."""
    sizes = _table_sizes(game)
    if not sizes:
        return ()
    players = Field("players", "choice", "Players", default=str(sizes[0]), choices=tuple(map(str, sizes)),
                    example=str(sizes[1] if len(sizes) > 1 else sizes[0]))
    return (players, *state_fields(game)[1:], *_table_options(game))


def _dice_of(outcomes: Sequence[tuple[Hashable, Any]]) -> int:
    """The number of dice thrown when every outcome is a throw of the same number of faces 1..6, else 0."""
    sizes = {len(o) if isinstance(o, tuple) and all(isinstance(f, int) and 1 <= f <= 6 for f in o) else 0
             for o, _ in outcomes}
    return sizes.pop() if len(sizes) == 1 else 0


def table_view(game: Game, state: Any) -> dict[str, Any]:
    """What the page shows of a table's ``state`` and offers to do next.

    Returns:
        ``state``: its text form; ``player``: ``current_player()``; ``seat``: the seat whose
        turn it is (the deciding player, or at a throw the state's ``player`` where it says;
        None when it does not, or the game is over); ``phase``: ``"throw"`` (chance throws
        ``dice`` dice: the page takes the throw as ``"6-5-3"``), ``"outcome"`` (another chance
        node: one of ``outcomes``, their texts), ``"choice"`` (the player decides: one of
        ``choices``, the legal actions' texts) or ``"over"`` (``returns``, one per player);
        ``svg``: the game's picture of the table.
    """
    player = state.current_player()
    outcomes = state.chance_outcomes() if player == CHANCE else ()
    dice = _dice_of(outcomes)
    text = getattr(state, "action_text", str)
    seat = getattr(state, "player", None) if player == CHANCE else player if player >= 0 else None
    phase = ("over" if player == TERMINAL else "choice" if player >= 0 else "throw" if dice else "outcome")
    return {"state": str(state), "player": player, "seat": seat if isinstance(seat, int) and seat >= 0 else None,
            "phase": phase, "dice": dice,
            "outcomes": [text(o) for o, _ in outcomes] if phase == "outcome" else [],
            "choices": [text(a) for a in state.legal_actions()] if phase == "choice" else [],
            "returns": [float(r) for r in state.returns()] if phase == "over" else [],
            "svg": game.draw(state)}


def _table_game(request: dict[str, Any]) -> Game:
    game = _game(request)
    if not _table_sizes(game):
        raise RequestError(f"{game.title} has no table mode (its states are one player's)")
    return game


def _table_state(game: Game, request: dict[str, Any], fields: Sequence[Field]) -> tuple[Any, dict[str, Any]]:
    """The state of the request's ``state`` (and ``rules``) and the values of ``fields``."""
    values = read_fields(request, fields, also=("game",))
    rules = game.presets()[values["rules"]] if "rules" in values else None
    return _answer(lambda: game.read_state(values["state"], rules), fields), values


def table_start(request: dict[str, Any]) -> dict[str, Any]:
    """The answer of ``POST /api/table/start``: the :func:`table_view` of the start of a game of
    ``players`` with the game's options (:func:`table_fields`).

    Raises:
        DicemathError: a game without table states, a size or option the game refuses.
    """
    game = _table_game(request)
    fields = table_fields(game)
    values = read_fields(request, fields, also=("game",))
    players = int(values.pop("players"))
    rules = game.presets()[values.pop("rules")] if "rules" in values else None
    return table_view(game, _answer(lambda: game.table_start(players, rules, **values), fields))


def table_step(request: dict[str, Any]) -> dict[str, Any]:
    """The answer of ``POST /api/table/step``: the :func:`table_view` of the state after the
    request's ``action`` (its text, read by the state's ``parse_action`` where it has one).

    Raises:
        DicemathError: a state the game cannot read, an action it refuses there (a throw of the
            wrong dice, a choice that is not legal, an action after the end).
    """
    game = _table_game(request)
    action_field = Field("action", "text", "Action", required=True,
                         help="a throw (6-5-3) at a throw, a choice at a decision")
    fields = (*state_fields(game), action_field)
    state, values = _table_state(game, request, fields)

    def stepped() -> Any:
        if state.current_player() == TERMINAL:
            raise RequestError(f'field "action": the game is over ({values["action"]!r} cannot be played)')
        parse = getattr(state, "parse_action", None)
        return state.apply(values["action"] if parse is None else parse(values["action"]))

    return table_view(game, _answer(stepped, fields))


def table_show(request: dict[str, Any]) -> dict[str, Any]:
    """The answer of ``POST /api/table/show``: the :func:`table_view` of the request's state.

    Raises:
        DicemathError: a state the game cannot read.
    """
    game = _table_game(request)
    return table_view(game, _table_state(game, request, state_fields(game))[0])


ROUTES: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "/api/advise": advise, "/api/picture": picture,
    "/api/table/start": table_start, "/api/table/step": table_step, "/api/table/show": table_show}
"""The JSON endpoints, by path."""
