"""Every registered game through the same checks: the vocabulary of :mod:`dicemath.games`.

Every test is parametrised over the registry (:data:`dicemath.games.registry.GAMES`); what a
check needs to know about a game beyond its :class:`~dicemath.core.game.Game` object (small
rules variants to play, an invariant, the JSON query commands with their documented keys,
bad input with the error it raises) lives beside the game's own tests, in
``tests/<package>/conformance.py``.
"""

from __future__ import annotations

import dataclasses
import importlib
import importlib.util
import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

import pytest

from dicemath.cli import main
from dicemath.core.errors import InvalidRulesError, InvalidStateError
from dicemath.core.advice import ENVELOPE
from dicemath.core.game import CHANCE, TERMINAL, Game, GameState, check_random_play
from dicemath.games.registry import GAMES as REGISTERED


ADVICE_ENVELOPE = frozenset(ENVELOPE) | {"options[].action", "options[].value"}
"""The keys of every game's ``advise --json`` (:meth:`dicemath.core.advice.Advice.as_dict`)."""

FACT_FILES = sorted(Path(__file__).resolve().parent.glob("*/conformance.py"))
"""Each game's facts, beside its own tests (``tests/<package>/conformance.py``, ``FACTS``)."""


@dataclass(frozen=True)
class GameEntry:
    """A registered game and what the shared checks need to know about it.

    Attributes:
        game: the :class:`~dicemath.core.game.Game` object of the registry.
        variants: keyword arguments of ``Rules`` for small games to play at random.
        games: random games per variant.
        invariant: ``invariant(state)`` raises AssertionError when a rule invariant breaks.
        queries: ``(argv, keys)``: a ``dicemath`` command with ``--json`` and the top-level
            keys its output documents (``"name[]"`` adds the keys of a list of objects).
        bad_rules: ``Rules`` keyword arguments that must raise InvalidRulesError.
        bad_texts: state texts that ``State.from_str`` must refuse (InvalidStateError).
        bad_actions: ``(path, action, error)``: from the standard initial state follow the
            action texts of ``path``, then apply ``action``: it must raise ``error``.
        bad_action_texts: ``(path, text, error)``: the same for ``state.parse_action(text)``.
        bad_query: a ``dicemath`` command with bad input: it must exit with status 2.
    """

    game: Game
    variants: tuple[dict, ...]
    games: int
    invariant: Callable | None
    queries: tuple[tuple[tuple[str, ...], frozenset[str]], ...]
    bad_rules: tuple[dict, ...]
    bad_texts: tuple[str, ...]
    bad_actions: tuple[tuple[tuple[str, ...], object, type[Exception]], ...]
    bad_action_texts: tuple[tuple[tuple[str, ...], str, type[Exception]], ...]
    bad_query: tuple[str, ...]

    @property
    def name(self) -> str:
        return self.game.name

    @property
    def module(self):
        """The game's package (where its ``game.py`` is)."""
        return importlib.import_module(type(self.game).__module__.rsplit(".", 1)[0])

    @property
    def standard(self):
        return self.game.standard

    def rules(self, variant: dict):
        """The standard rules with ``variant``'s fields changed."""
        return dataclasses.replace(self.standard, **variant)


def _facts() -> dict[str, dict]:
    """Every game's facts, by game name, read from :data:`FACT_FILES`."""
    found: dict[str, dict] = {}
    for path in FACT_FILES:
        spec = importlib.util.spec_from_file_location(f"conformance_{path.parent.name}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        found.update(module.FACTS)
    return found


FACTS = _facts()
GAMES = tuple(GameEntry(game, **FACTS[game.name]) for game in REGISTERED if game.name in FACTS)


ENTRIES = pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])


def test_every_registered_game_is_checked_here_and_reachable_through_every_door():
    from dicemath import analysis, reporting
    from dicemath.cli import build_parser
    from dicemath.games import registry

    assert sorted(FACTS) == sorted(registry.game_names()), "each game's tests give its facts (conformance.py)"
    commands = build_parser()._subparsers._group_actions[0].choices
    sections = set(reporting.section_names(reporting.sections(registry.GAMES)))
    for entry in registry.GAMES:
        assert entry.name in commands and entry.rules_text()
        assert isinstance(analysis.adapter(entry.name, registry.GAMES), analysis.GameAnalysis)
        assert {r.name for r in entry.report_sections()} <= sections


@ENTRIES
def test_vocabulary(game):
    module = game.module
    rules = game.standard
    assert dataclasses.is_dataclass(module.Rules) and module.Rules.__dataclass_params__.frozen
    again = module.Rules(**{f.name: getattr(rules, f.name) for f in dataclasses.fields(rules)})
    assert isinstance(rules, module.Rules) and rules == again and hash(rules) == hash(again)
    exported = [getattr(module, name) for name in module.__all__]              # loaded on first use
    assert module.Rules() in [v for v in exported if isinstance(v, module.Rules)]  # a preset
    start = module.initial_state(rules)
    assert isinstance(start, module.State) and isinstance(start, GameState) and start.rules == rules
    assert module.initial_state(rules) == start and hash(module.initial_state(rules)) == hash(start)
    assert callable(module.advise)


@ENTRIES
def test_random_play_keeps_invariants_and_exact_chance(game):
    """Random games end; every state passes the core's consistency check (chance
    probabilities are exact Fractions summing to exactly 1, actions sorted and distinct)
    and the game's invariant."""
    module = game.module

    def check(state):
        if state.current_player() == CHANCE:
            outcomes = state.chance_outcomes()
            assert all(isinstance(p, Fraction) for _, p in outcomes)
            assert sum(p for _, p in outcomes) == 1
        if game.invariant is not None:
            game.invariant(state)

    for seed, variant in enumerate(game.variants):
        start = module.initial_state(game.rules(variant))
        assert check_random_play(start, games=game.games, seed=seed, invariant=check) > game.games


@ENTRIES
def test_text_forms_round_trip(game):
    """States, actions and chance outcomes read back from their text, along random games."""
    module = game.module
    rng = random.Random(7)
    for variant in game.variants:
        state = module.initial_state(game.rules(variant))
        for _ in range(400):
            assert module.State.from_str(str(state)) == state
            player = state.current_player()
            if player == TERMINAL:
                break
            choices = ([o for o, _ in state.chance_outcomes()] if player == CHANCE else list(state.legal_actions()))
            for action in choices:
                assert state.parse_action(state.action_text(action)) == action
            state = state.apply(rng.choice(choices))


def _key_paths(result: dict) -> set[str]:
    paths = set(result)
    for key, value in result.items():
        if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
            paths |= {f"{key}[].{inner}" for v in value for inner in v}
    return paths


@ENTRIES
def test_json_keys_are_stable(game, capsys):
    for argv, keys in game.queries:
        assert main([*argv, "--json"]) == 0, argv
        assert _key_paths(json.loads(capsys.readouterr().out)) == keys, argv


@ENTRIES
def test_bad_input_raises_the_documented_errors(game, capsys):
    module = game.module
    for kwargs in game.bad_rules:
        with pytest.raises(InvalidRulesError):
            module.Rules(**kwargs)
    for text in game.bad_texts:
        with pytest.raises(InvalidStateError):
            module.State.from_str(text)
    for path, action, error in game.bad_actions:
        with pytest.raises(error):
            _follow(game, path).apply(action)
    for path, text, error in game.bad_action_texts:
        with pytest.raises(error):
            _follow(game, path).parse_action(text)
    # advice needs a player's decision
    state = module.initial_state(game.rules(game.variants[0]))
    while state.current_player() >= 0:
        state = state.apply(state.legal_actions()[0])
    with pytest.raises(InvalidStateError):
        module.advise(state)
    # the command line turns input errors into a message and exit status 2
    assert main(list(game.bad_query)) == 2
    assert "error" in capsys.readouterr().err


def _follow(game, path):
    state = game.module.initial_state(game.standard)
    for text in path:
        state = state.apply(state.parse_action(text))
    return state


def _decision_states(start, rng: random.Random, count: int, max_steps: int = 400) -> list:
    """Up to ``count`` distinct decision states met along random games from ``start``."""
    found = []
    state = start
    for _ in range(max_steps):
        player = state.current_player()
        if player == TERMINAL:
            state = start
            continue
        if player == CHANCE:
            outcomes, weights = zip(*state.chance_outcomes())
            state = state.apply(rng.choices(outcomes, weights=[float(w) for w in weights])[0])
            continue
        if state not in found:
            found.append(state)
            if len(found) == count:
                break
        state = state.apply(rng.choice(list(state.legal_actions())))
    return found


@ENTRIES
def test_advise_gives_the_one_advice_type_at_every_decision(game, capsys):
    """``advise(state)`` answers random decisions of the standard game with the core's
    Advice: one option per legal action, best first, the JSON envelope; and
    ``dicemath GAME advise STATE --json`` gives the same answer."""
    from dicemath.core.advice import Advice

    module = game.module
    assert callable(module.analyse)
    rng = random.Random(11)
    for state in _decision_states(module.initial_state(game.standard), rng, 3):
        advice = module.advise(state)
        assert isinstance(advice, Advice) and advice.game == game.name and advice.state == str(state)
        assert sorted(map(str, (o.action for o in advice.options))) == sorted(map(str, state.legal_actions()))
        assert all(o.text == state.action_text(o.action) for o in advice.options)
        values = [float(o.value) for o in advice.options]
        sign = 1 if advice.higher_is_better else -1
        assert all(sign * (a - b) >= -1e-9 for a, b in zip(values, values[1:])), values
        envelope = advice.as_dict()
        assert _key_paths(envelope) >= ADVICE_ENVELOPE and envelope["best"] == advice.best.text
        assert main([game.name, "advise", str(state), "--json"]) == 0
        answer = json.loads(capsys.readouterr().out)
        assert answer["best"] == envelope["best"] and answer["exact"] == envelope["exact"]
        assert [o["action"] for o in answer["options"]] == [o["action"] for o in envelope["options"]]
