"""The vocabulary every game speaks, and checks written once against it.

A game state (after OpenSpiel's split of games and algorithms) says whose turn it is: a
player index ``0, 1, ...``, :data:`CHANCE` or :data:`TERMINAL`. A player state lists its
legal actions (sorted, hashable); a chance state lists its outcomes with exact
probabilities; :meth:`GameState.apply` returns the next state (states are immutable);
a terminal state has returns, one number per player.

Generic algorithms take any object with these methods: random play and the shared
consistency check of every game's tests here, expectimax and alpha-beta in
:mod:`dicemath.core.search`. The per-game names built on this vocabulary (``Rules``,
``initial_state``, ``State``, ``advise``) are listed in :mod:`dicemath.games`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Sequence
from fractions import Fraction
from typing import Any, Protocol, TypeVar, runtime_checkable

from dicemath.core.errors import InvalidProbabilityError, InvalidStateError

CHANCE = -1
"""``current_player()`` of a state where chance (the dice) acts next."""
TERMINAL = -2
"""``current_player()`` of a finished game."""


@runtime_checkable
class GameState(Protocol):
    """An immutable, hashable game state."""

    def current_player(self) -> int:
        """A player index, :data:`CHANCE` or :data:`TERMINAL`."""

    def legal_actions(self) -> Sequence[Hashable]:
        """The actions of the player to act, sorted; empty at chance and terminal states."""

    def chance_outcomes(self) -> Sequence[tuple[Hashable, Fraction]]:
        """``(outcome, probability)`` pairs at a chance state; probabilities sum to 1."""

    def apply(self, action: Hashable) -> GameState:
        """The state after ``action`` (or chance outcome); raises on an illegal one."""

    def returns(self) -> Sequence[float]:
        """The result for each player at a terminal state."""


S = TypeVar("S")


def state_of(state: object, state_type: type[S], game: str) -> S:
    """``state`` as a state of ``game`` (its ``state_type``): what a game's adapters take from
    the generic algorithms, narrowed.

    Raises:
        InvalidStateError: a state of another game.
    """
    if not isinstance(state, state_type):
        raise InvalidStateError(f"a {game} state was expected, got {state!r}")
    return state


def sample_chance(state: GameState, rng: random.Random) -> Hashable:
    """Draw a chance outcome of ``state`` with its exact probabilities."""
    outcomes = state.chance_outcomes()
    point = Fraction(rng.random())
    cumulative = Fraction(0)
    for outcome, probability in outcomes:
        cumulative += probability
        if point < cumulative:
            return outcome
    return outcomes[-1][0]


def random_playout(state: GameState, rng: random.Random, *, max_steps: int = 100_000,
                   policy: Callable[[GameState, random.Random], Hashable] | None = None,
                   on_state: Callable[[GameState], None] | None = None) -> GameState:
    """Play ``state`` to the end with uniformly random actions (or ``policy``).

    ``on_state`` is called on every state visited (to check invariants).

    Raises:
        RuntimeError: the game did not end within ``max_steps`` actions.
    """
    for _ in range(max_steps):
        if on_state is not None:
            on_state(state)
        player = state.current_player()
        if player == TERMINAL:
            return state
        if player == CHANCE:
            action = sample_chance(state, rng)
        else:
            actions = state.legal_actions()
            if not actions:
                raise InvalidProbabilityError(f"player {player} has no legal action in {state}")
            action = policy(state, rng) if policy else rng.choice(list(actions))
        state = state.apply(action)
    raise RuntimeError(f"game did not end within {max_steps} steps")


def check_state_consistency(state: GameState) -> None:
    """Raise if ``state`` breaks the vocabulary's contract.

    Checks: chance probabilities are positive and sum to exactly 1; legal actions are
    sorted and distinct; a terminal state has returns and no actions.
    """
    player = state.current_player()
    if player == CHANCE:
        outcomes = state.chance_outcomes()
        total = sum((Fraction(p) for _, p in outcomes), Fraction(0))
        if total != 1 or any(p <= 0 for _, p in outcomes):
            raise InvalidProbabilityError(f"chance outcomes of {state} sum to {total}")
    elif player == TERMINAL:
        if state.legal_actions():
            raise InvalidProbabilityError(f"terminal state {state} has legal actions")
        state.returns()
    else:
        actions: list[Any] = list(state.legal_actions())    # sortable, as the contract says
        if len(set(actions)) != len(actions):
            raise InvalidProbabilityError(f"duplicate legal actions in {state}")
        if actions != sorted(actions):
            raise InvalidProbabilityError(f"legal actions of {state} are not sorted")


def check_random_play(initial: GameState, *, games: int = 20, seed: int = 0,
                      invariant: Callable[[GameState], None] | None = None,
                      max_steps: int = 100_000) -> int:
    """The shared check of every game: random games end and keep every invariant.

    Each visited state passes :func:`check_state_consistency` and ``invariant``.

    Returns:
        The number of states visited (so a test can see the check did something).
    """
    rng = random.Random(seed)
    visited = 0

    def check(state: GameState) -> None:
        nonlocal visited
        visited += 1
        check_state_consistency(state)
        if invariant is not None:
            invariant(state)

    for _ in range(games):
        random_playout(initial, rng, max_steps=max_steps, on_state=check)
    return visited


class Game:
    """A game, whole: its facts and every hook the library's doors use (OpenSpiel's game object).

    One instance per game lives in its package (``dicemath/games/<game>/game.py``) and one line
    of :mod:`dicemath.games.registry` lists it; the command line, the page, the analysis of
    played games, the report and the conformance test iterate over the registry and import
    no game. The facts are class attributes (as python-chess's variants); the hooks import
    the game's heavy modules only when called, so reading the registry stays light.

    Class attributes:
        name: the game's name in commands, records and JSON (``"pegs"``).
        title: its name for people (``"Pegs"``).
        rules_headings: the headings of ``docs/rules.md`` that state its rules, in order.
        warmup: ``(step, the tables built, the dicemath argv that builds them)`` for
            ``dicemath warmup``: the tables a first query builds (the kernels are compiled
            at install).

    Hooks a game gives: :meth:`presets`, :meth:`initial_state`, :meth:`read_state`,
    :meth:`draw`, :meth:`sources`, :meth:`register_commands`, :meth:`report_sections`,
    :meth:`analysis`; optionally :meth:`table_start` (a game of several players at one table) and
    :meth:`page_fields` with :meth:`page_advice` and
    :meth:`page_picture_state` (the page's form of the game's own fields).
    """

    name: str = ""
    title: str = ""
    rules_headings: tuple[str, ...] = ()
    warmup: tuple[tuple[str, str, tuple[str, ...]], ...] = ()

    def presets(self) -> dict[str, Any]:
        """The named rules presets, the standard game first."""
        raise NotImplementedError

    @property
    def standard(self) -> Any:
        """The standard rules (the first preset)."""
        return next(iter(self.presets().values()))

    def rules_type(self) -> type:
        """The game's frozen ``Rules`` dataclass."""
        return type(self.standard)

    def rules_text(self) -> str:
        """The game's rules: its sections of the shipped ``docs/rules.md`` (Markdown)."""
        from dicemath.core.rules_text import rules_sections

        return rules_sections(self.rules_headings)

    def initial_state(self, rules: Any = None) -> GameState:
        """The state at the start of a game (``rules`` default: :attr:`standard`)."""
        raise NotImplementedError

    def table_start(self, players: int, rules: Any = None, **options: Any) -> GameState:
        """The start of a game of ``players`` at one table, in the game's state vocabulary
        (``str(state)`` reads back by :meth:`read_state`; :meth:`advise` advises the player to
        move playing to win against the others); ``rules`` default: :attr:`standard`.

        Args:
            players: the number of players at the table.
            options: the game's own (Pegs/Fives: ``rounds``, the rounds of a session).

        Raises:
            NotImplementedError: the game has no table states (the default).
            DicemathError: a table size or option the game refuses.
        """
        raise NotImplementedError(f"{self.title or self.name} has no table states")

    def read_state(self, text: str, rules: Any = None) -> GameState:
        """The state whose text form (``str(state)``) is ``text``.

        Raises:
            InvalidStateError: text that is no state of the game.
        """
        raise NotImplementedError

    def draw(self, state: Any, advice: Any = None) -> str:
        """The SVG picture of ``state``, with ``advice`` (an :class:`~dicemath.core.advice.Advice`) drawn on it."""
        raise NotImplementedError

    def sources(self, rules: Any) -> Any:
        """The game's :class:`~dicemath.core.sources.SourceChain` for ``rules``."""
        raise NotImplementedError

    def advise(self, state: Any, **settings: Any) -> Any:
        """The :class:`~dicemath.core.advice.Advice` at a decision, from the first source of
        :meth:`sources` that covers it.

        Raises:
            InvalidStateError: nobody decides at ``state`` (chance acts, or the game is over),
                or no source covers it.
        """
        from dicemath.core.errors import InvalidStateError

        player = state.current_player()
        if player < 0:
            raise InvalidStateError(f"nobody decides at {state}: "
                                    f"{'the dice are next' if player == CHANCE else 'the game is over'}")
        return self.sources(state.rules).advise(state, **settings)

    def register_commands(self, subparsers: Any) -> None:
        """Add the game's sub-command(s) to the ``dicemath`` argument parser."""
        raise NotImplementedError

    def report_sections(self) -> tuple[Any, ...]:
        """The game's report sections (:class:`dicemath.reporting.Section`), in report order."""
        return ()

    def analysis(self) -> Any:
        """The game's :class:`dicemath.analysis.GameAnalysis` (records of played games)."""
        raise NotImplementedError

    def page_fields(self) -> tuple[Any, ...]:
        """The fields of the game's own page form, each a :class:`~dicemath.core.requests.Field`
        declared once (the page draws the form from them and reads requests by them); none, the
        default: the page asks for a state in its text form."""
        return ()

    def page_advice(self, values: Any) -> dict[str, Any]:
        """The page's answer to the game's own fields (``/api/advise`` without ``state``):
        the ``--json`` object of its advise command plus ``svg`` (the picture) and ``view``
        (:func:`~dicemath.core.requests.view`).

        Args:
            values: ``{name: value}`` of :meth:`page_fields`, read and checked by
                :func:`~dicemath.core.requests.read_fields`.

        Raises:
            DicemathError: input the rules refuse.
        """
        raise NotImplementedError

    def page_picture_state(self, values: Any) -> GameState:
        """The state the page draws from the field of :meth:`page_fields` that ``redraws``
        (``/api/picture`` without ``state``); ``values`` as :meth:`page_advice` has them.

        Raises:
            DicemathError: input the rules refuse.
        """
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<Game {self.name}>"
