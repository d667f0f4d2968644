"""The JSON API of the page (``dicemath serve``, :mod:`dicemath.cli.page`): its routes.

- ``GET /api/games``: ``{"games": [{"name", "title", "example"}]}``, every game of the
  registry with the text of a state where a player decides (:func:`games`); the page lists
  its games from it and asks a game without a form of its own for a state in its text form.

The server (:mod:`dicemath.cli.page`) answers them in its own process or hands them to its
worker processes (:mod:`dicemath.cli.page_workers`); both find them here, in :data:`ROUTES`.

- ``POST /api/advise`` with ``{"game": GAME, "state": TEXT}`` (any game of the registry, the
  state in its text form, optionally ``"rules"``, a preset's name): the game's advice at that
  state (:meth:`dicemath.core.game.Game.advise`, the envelope of ``dicemath GAME advise STATE
  --json``) plus ``"svg"``, the picture of the position with the advice. Without ``state``,
  the game's own fields (:meth:`~dicemath.core.game.Game.page_advice`): the JSON object the
  command line's ``advise`` query prints with ``--json`` plus ``"svg"``; the keys are the
  command-line options of that query with ``_`` for ``-``, as strings or numbers; an
  empty string means "not given" (the option's default):

  - ``pegs``, ``fives``: ``board``, ``roll``, ``throws`` (``dicemath pegs advise``);
  - ``bohnduell``: ``position``, ``cups``, ``stock``, ``capture``, ``depth``,
    ``table_stock`` (``dicemath bohnduell advise``);
  - ``pitjesbak``: ``my_stripes``, ``my_wiped``, ``their_stripes``, ``their_wiped``,
    ``role``, ``throw_number``, ``current``, ``best``, ``limit``, ``stripes``,
    ``die_values`` (``dicemath pitjesbak advise``);
  - ``backgammon``: ``query`` ``"hint"`` with ``position``, ``dice``, ``rules``, ``ply``
    (``dicemath backgammon hint``), or ``"cube"`` with ``position`` (a Position ID, or a
    home board with ``versus``), ``cube_value``, ``cube_owner``, ``ply``, ``rules``,
    ``unbounded_cube`` (``dicemath backgammon cube``). Positions with contact need the
    optional ``gnubg`` package, as on the command line.

- ``POST /api/picture`` with ``{"game": GAME, "state": TEXT}``, or for Pegs and Fives
  ``{"game": "pegs" | "fives", "board": ...}`` (the board at the start of a turn, which the
  page redraws when a hole is tapped): ``{"state", "board", "svg"}``.

Input the rules refuse raises a :class:`~dicemath.core.errors.DicemathError` with the
message the command line prints; the server answers it with HTTP 400 and ``{"error":
MESSAGE}`` (:mod:`dicemath.cli.page`).

Example:
    >>> answer = advise({"game": "pegs", "board": "5,5,5,5,5,5,5,5,5,4,2,0", "roll": "6,6,5,5,2,1"})
    >>> answer["recommendation"], answer["exact"], answer["svg"].startswith("<svg")
    (12, True, True)
    >>> sorted(ROUTES)
    ['/api/advise', '/api/picture']
    >>> [g["name"] for g in games()["games"]][-1]
    'pig'
"""

from __future__ import annotations

from collections.abc import Callable

from dicemath.core.game import CHANCE, Game, GameState
from dicemath.core.requests import choice_field, given, text_field
from dicemath.games.registry import GAMES
from dicemath.games.registry import game as game_named

__all__ = ["ROUTES", "advise", "games", "picture"]


def _first_decision(game: Game) -> GameState:
    """The first state of ``game`` where a player decides (each chance node's first outcome)."""
    state = game.initial_state()
    while state.current_player() == CHANCE:
        state = state.apply(state.chance_outcomes()[0][0])
    return state


def games() -> dict:
    """The answer of ``GET /api/games``: every registered game, its title and an example state."""
    return {"games": [{"name": g.name, "title": g.title, "example": str(_first_decision(g))} for g in GAMES]}


def _game(request: dict) -> Game:
    return game_named(text_field(request, "game", required=True, positional=True))


def _state_advice(game: Game, request: dict) -> dict:
    """The answer to ``{"game": NAME, "state": TEXT}``: the game's advice at that state."""
    rules_name = choice_field(request, "rules", sorted(game.presets()))
    state = game.read_state(text_field(request, "state", required=True, positional=True),
                            game.presets()[rules_name] if rules_name else None)
    advice = game.advise(state)
    result = advice.as_dict()
    result["svg"] = game.draw(state, advice if advice.options else None)
    return result


def advise(request: dict) -> dict:
    """The answer of ``POST /api/advise`` (see the module docstring).

    Args:
        request: the decoded JSON object, ``{"game": ..., "state": ...}`` or ``{"game": ...,
            option: value, ...}``.

    Returns:
        The command line's ``--json`` object with ``"svg"``, the picture, added.

    Raises:
        DicemathError: input the rules refuse (the command line's message), or a request
            the server cannot read (:class:`RequestError`).
    """
    game = _game(request)
    if given(request, "state") is not None:
        return _state_advice(game, request)
    return game.page_advice({**request, "game": game.name})


def picture(request: dict) -> dict:
    """The answer of ``POST /api/picture``: ``{"state", "svg"}``, the picture of a state given in
    its text form (``state``), or of a Pegs or Fives board at the start of a turn (``board``).

    Raises:
        DicemathError: a state or board the rules refuse.
    """
    game = _game(request)
    if given(request, "board") is not None:
        state = game.page_picture_state(request)
    else:
        state = game.read_state(text_field(request, "state", required=True, positional=True))
    return {"state": str(state), "board": list(getattr(state, "board", ())), "svg": game.draw(state)}


ROUTES: dict[str, Callable[[dict], dict]] = {"/api/advise": advise, "/api/picture": picture}
"""The JSON endpoints, by path."""
