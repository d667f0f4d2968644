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
    ``analysis.py`` maps records to its states and values them with the best source it
    has (:mod:`dicemath.analysis`, ``docs/analyse.md``).

Errors are those of :mod:`dicemath.core.errors`: ``InvalidRulesError`` (rules),
``InvalidStateError`` (a state or its text), ``IllegalMoveError`` (an action the state
does not allow, or unreadable action text), ``InvalidDiceError`` (a die or throw that
cannot be). Generic algorithms (:mod:`dicemath.core.search`, :mod:`dicemath.core.game`)
run on any ``State``; a game's fast solvers are tested against them.

Names a game uses beyond the vocabulary say what they are and mean one thing across
games: ``Move`` is one move of a player, ``SearchAdvisor`` an alpha-beta advisor,
``MoveValue`` one move with its value. All five packages follow the vocabulary.
"""
